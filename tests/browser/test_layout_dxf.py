"""A solution architect brings the customer's CAD drawing into a cell and
sends the plan back (issue 14): a DXF drawn in inches, with the fence on one
layer, the hall on another and a circle the import cannot use, is imported
through the page's two steps (the layers mapped, the preview checked) and
exported again for the customer's CAD; a file that is not a drawing is
refused with a clear message and changes nothing."""

from __future__ import annotations

import io
import math
import random

import ezdxf
import pytest
from playwright.sync_api import Page, expect

from cells.layout_dxf.models import LayoutUnderlay
from cells.models import GuardSegment, Role
from tests.factories import (
    CellFactory,
    MembershipFactory,
    OrganisationFactory,
    ProjectFactory,
    UserFactory,
)

pytestmark = pytest.mark.browser

# The drawing, in inches: a fence of 120 x 80 in (a closed polyline) and a
# second fence line of 80 in beside it.
FENCE_IN = [
    ((0, 0), (120, 0)),
    ((120, 0), (120, 80)),
    ((120, 80), (0, 80)),
    ((0, 80), (0, 0)),
    ((140, 0), (140, 80)),
]
FENCE_MM = [
    tuple(tuple(v * 25.4 for v in point) for point in line) for line in FENCE_IN
]
HALL_IN = [
    ((-40, -40), (200, -40)),
    ((-40, -40), (-40, 120)),
    ((200, -40), (200, 120)),
]


@pytest.fixture
def dxf_cell(transactional_db):
    user = UserFactory(username="sa-dxf")
    organisation = OrganisationFactory()
    MembershipFactory(
        user=user, organisation=organisation, role=Role.SOLUTION_ARCHITECT
    )
    return CellFactory(
        project=ProjectFactory(organisation=organisation),
        name="Cell from CAD",
        robot_base_x_mm=1524,
        robot_base_y_mm=1016,
        reach_mm=900,
        stopping_time_ms=300,
        hazard_zone_height_mm=1400,
    )


def customer_drawing() -> bytes:
    doc = ezdxf.new("R2010")
    doc.header["$INSUNITS"] = 1  # inches
    msp = doc.modelspace()
    msp.add_lwpolyline(
        [(0, 0), (120, 0), (120, 80), (0, 80)],
        close=True,
        dxfattribs={"layer": "FENCE"},
    )
    msp.add_line(*FENCE_IN[4], dxfattribs={"layer": "FENCE"})
    # A column of the hall, 6 in round: drawn behind the plan as straight
    # pieces; and the hall's name, a text beside no guard: left out.
    msp.add_circle((170, 100), 6, dxfattribs={"layer": "HALL"})
    msp.add_text("HALL 3", dxfattribs={"layer": "HALL", "insert": (160, 200)})
    for start, end in HALL_IN:
        msp.add_line(start, end, dxfattribs={"layer": "HALL"})
    stream = io.StringIO()
    doc.write(stream)
    return stream.getvalue().encode(doc.output_encoding)


def sign_in(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", "sa-dxf")
    page.fill("#id_password", "pass-for-tests-1")
    page.click("button[type=submit]")
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()


def upload(page: Page, name: str, data: bytes) -> None:
    page.get_by_role("link", name="Import DXF").click()
    expect(page.get_by_role("heading", name="Import a DXF drawing")).to_be_visible()
    page.get_by_label("DXF file").set_input_files(
        files=[{"name": name, "mimeType": "application/dxf", "buffer": data}]
    )
    page.get_by_role("button", name="Read the drawing").click()


def layer_row(page: Page, name: str):
    """The row of the layer called ``name`` (its select lists "Fence" too)."""
    return page.locator("table.dxf-layers tr.dxf-layer").filter(
        has=page.locator("label", has_text=name)
    )


def saved_segments(cell) -> list[tuple[float, float, float, float]]:
    return [
        (s.start_x_mm, s.start_y_mm, s.end_x_mm, s.end_y_mm)
        for s in GuardSegment.objects.filter(cell=cell).order_by("pk")
    ]


def same_lines(found, expected) -> bool:
    """The same lines within 1 mm, each either way round, in any order."""

    def key(line):
        (x1, y1), (x2, y2) = line
        return tuple(round(v) for v in min((x1, y1, x2, y2), (x2, y2, x1, y1)))

    found = sorted(key(line) for line in found)
    expected = sorted(key(line) for line in expected)
    return len(found) == len(expected) and all(
        all(abs(a - b) <= 1 for a, b in zip(f, e, strict=True))
        for f, e in zip(found, expected, strict=True)
    )


def test_architect_imports_a_drawing_in_inches_and_exports_it_again(
    page: Page, live_server, dxf_cell, screenshot_dir
):
    page.set_viewport_size({"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, live_server.url)
    page.get_by_role("link", name=dxf_cell.project.name).click()
    page.get_by_role("link", name="Cell from CAD").first.click()
    expect(page.get_by_role("heading", name="Cell from CAD")).to_be_visible()

    # Step 1: the file, its units left to its header.
    upload(page, "hall-in-inches.dxf", customer_drawing())
    expect(layer_row(page, "FENCE")).to_contain_text("LINE × 1, LWPOLYLINE × 1")
    expect(layer_row(page, "HALL")).to_contain_text("CIRCLE × 1, LINE × 3, TEXT × 1")
    summary = page.locator("ul.dxf-summary")
    # Step 2: FENCE is suggested as a fence by its name (issue 31), HALL
    # stays underlay; the lines have no thickness, so the page asks for the
    # guards' height straight away.
    expect(page.get_by_label("FENCE", exact=True)).to_have_value("fence")
    expect(page.get_by_label("HALL", exact=True)).to_have_value("underlay")
    expect(layer_row(page, "FENCE")).to_contain_text("Suggested from the layer's name")
    expect(page.locator("#dxf-import")).to_contain_text(
        "5 guard lines have no height in the file"
    )
    page.get_by_label("Height of the guards (mm)").fill("1400")
    page.get_by_role("button", name="Preview again").click()
    expect(summary).to_contain_text(
        "5 guard segments added (Fence 5, Wall 0, Machine body 0)"
    )
    # The hall's 3 lines and its column: r = 152.4 mm in the fewest chords
    # whose sagitta r(1 - cos(pi/n)) is within 5 mm (n >= 12.2): 13.
    expect(summary).to_contain_text("16 underlay lines")
    expect(summary).to_contain_text("Units: inches (from the file)")
    expect(summary).to_contain_text("within 5 mm of the curve")
    expect(summary).to_contain_text("1 × TEXT left out: a text")
    preview = page.locator("section.dxf-preview svg.layout-svg")
    expect(preview.locator("g.segment.kind-fence")).to_have_count(5)
    expect(preview.locator("g.underlay line")).to_have_count(16)
    # 120 in = 3,048 mm, 80 in = 2,032 mm.
    titles = preview.locator("g.segment > title").all_text_contents()
    assert sum("3,048 mm" in t for t in titles) == 2, titles
    assert sum("2,032 mm" in t for t in titles) == 3, titles
    assert all("h 1,400 mm" in t for t in titles), titles
    assert not GuardSegment.objects.filter(cell=dxf_cell).exists()
    page.screenshot(path=str(screenshot_dir / "dxf-1-preview.png"), full_page=True)

    # Import: back on the cell's page, the plan drawn with them.
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.locator(".message.success").first).to_contain_text(
        "Imported 5 guard segments, 0 doors and 16 underlay lines from "
        "hall-in-inches.dxf"
    )
    assert same_lines(
        [((x1, y1), (x2, y2)) for x1, y1, x2, y2 in saved_segments(dxf_cell)],
        FENCE_MM,
    ), saved_segments(dxf_cell)
    lengths = sorted(
        math.dist((x1, y1), (x2, y2)) for x1, y1, x2, y2 in saved_segments(dxf_cell)
    )
    assert lengths == pytest.approx([2032, 2032, 2032, 3048, 3048], abs=1)
    assert {s.height_mm for s in GuardSegment.objects.filter(cell=dxf_cell)} == {1400}
    underlay = LayoutUnderlay.objects.get(cell=dxf_cell)
    assert same_lines(
        [((x1, y1), (x2, y2)) for x1, y1, x2, y2 in underlay.lines[-3:]],
        [tuple(tuple(v * 25.4 for v in p) for p in line) for line in HALL_IN],
    )
    plan = page.locator("#workspace svg.layout-svg")
    expect(plan.locator("g.segment.kind-fence")).to_have_count(5)
    expect(plan.locator("g.underlay line")).to_have_count(16)
    expect(plan.locator("g.segment > title", has_text="3,048 mm")).to_have_count(2)
    expect(plan.locator("g.segment > title", has_text="2,032 mm")).to_have_count(3)
    plan.scroll_into_view_if_needed()
    page.locator("#workspace section.plan").screenshot(
        path=str(screenshot_dir / "dxf-2-plan-after-import.png")
    )

    # Export: the customer's CAD gets the same fence, in millimetres.
    with page.expect_download() as caught:
        page.get_by_role("link", name="Export DXF").click()
    download = caught.value
    assert download.suggested_filename.endswith(".dxf")
    exported = ezdxf.readfile(download.path())
    assert exported.header["$INSUNITS"] == 4
    fence = exported.modelspace().query('LINE[layer=="CSP-FENCE"]')
    assert same_lines(
        [((e.dxf.start.x, e.dxf.start.y), (e.dxf.end.x, e.dxf.end.y)) for e in fence],
        FENCE_MM,
    )
    assert {round(e.dxf.thickness) for e in fence} == {1400}

    # A file that is not a drawing: refused, named, and nothing changes.
    upload(page, "broken.dxf", random.Random(14).randbytes(4000))
    expect(page.locator(".field-errors, .errorlist").first).to_contain_text(
        "This is not a DXF drawing that can be read"
    )
    expect(page.get_by_label("DXF file")).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "dxf-3-broken-file.png"))
    assert len(saved_segments(dxf_cell)) == 5
    assert LayoutUnderlay.objects.get(cell=dxf_cell).lines == underlay.lines
    assert errors == []


def test_the_fields_are_not_redrawn_while_the_preview_refreshes(
    page: Page, live_server, dxf_cell
):
    # Issue 31: the whole form came back with each preview, and a height
    # being typed meanwhile was wiped. Now only the result is redrawn.
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/cells/{dxf_cell.pk}/")
    upload(page, "hall-in-inches.dxf", customer_drawing())
    height = page.get_by_label("Height of the guards (mm)")
    height.fill("14")
    page.evaluate("window.typedInto = document.getElementById('id_height_mm')")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.get_by_label("HALL", exact=True).select_option("ignore")
    height.press_sequentially("00")
    expect(page.locator("ul.dxf-summary")).to_contain_text("0 underlay lines")
    assert page.evaluate(
        "window.typedInto === document.getElementById('id_height_mm')"
    ), "the height field was replaced"
    expect(height).to_have_value("1400")
