"""The plan as SVG, written by the template ``cells/partials/plan_svg.html``
from ``cells.drawing.svg.plan_svg_context``: every kind of element with the
classes and data attributes the layout editor and the stylesheet read,
numbers never grouped, every text escaped (no script however hostile a
label), the standalone download, the title in the reader's language."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from cells.drawing import (
    ApproachShape,
    DrawingLabels,
    Label,
    Requirement,
    layout_drawing,
)
from cells.drawing.svg import plan_svg_context
from cells.models import Cell
from cells.selectors import cell_with_layout
from cells.views import PLAN_SVG, _drawing, plan_svg
from tests.cells.test_drawing import document, square_fence
from tests.factories import (
    DeviceFactory,
    GuardSegmentFactory,
    OpeningFactory,
    OperatorStationFactory,
)

SVG = "{http://www.w3.org/2000/svg}"
IMAGE = SimpleNamespace(
    href="/cells/1/layout/image/?v=1&x=2",
    x=-10.5,
    y=20.0,
    width=300.0,
    height=200.5,
    opacity=0.4,
)


def render(drawing, **options) -> str:
    options = {"name": "Cell", "title_id": "layout-title-1", **options}
    return render_to_string(PLAN_SVG, plan_svg_context(drawing, **options))


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # well-formed, or this raises


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    """The elements whose class list holds every class of ``cls``."""
    wanted = set(cls.split())
    return [e for e in root.iter() if wanted <= set(e.get("class", "").split())]


def texts(element: ET.Element) -> str:
    return "".join(element.itertext())


def _everything():
    """A drawing with each kind of element: rings, a gap, distances round
    the zone, devices of each kind (a scanner with its protective field and
    one without), stations, an underlay."""
    doc = document(
        robot={
            "manufacturer": "Acme",
            "model": "R",
            "kind": "industrial",
            "payload_kg": "10",
            "reach_mm": 1000,
            "max_tcp_speed_mm_s": 1000,
            "moving_mass_kg": "50",
            "end_effector_mm": 150,
            "workpiece_mm": 200,
        },
        operator_stations=[{"label": "HMI", "x_mm": 2000, "y_mm": -800}],
        devices=[
            {
                "label": "LC1",
                "kind": "light_curtain",
                "x1_mm": 1000,
                "y1_mm": 0,
                "x2_mm": 1500,
                "y2_mm": 0,
                "detection_lower_mm": 300,
                "detection_upper_mm": 1500,
            },
            {
                "label": "Mat",
                "kind": "safety_mat",
                "x1_mm": 3000,
                "y1_mm": 300,
                "x2_mm": 3600,
                "y2_mm": 900,
            },
            {
                "label": "Scan",
                "kind": "laser_scanner",
                "x1_mm": 500,
                "y1_mm": 1800,
                "field_height_mm": 300,
                "protective_field_mm": 1500,
            },
            {"label": "Bare", "kind": "laser_scanner", "x1_mm": 600, "y1_mm": 1900},
        ],
    )
    return layout_drawing(
        doc,
        labels=DrawingLabels(),
        required=[
            Requirement(device_index=0, required_mm=850, status="fail"),
            Requirement(device_index=2, required_mm=400, status="pass"),
        ],
        underlay=[[0, 0, 5000, 0], [0, 0, 0, 3000]],
    )


def test_every_kind_of_element_is_drawn_with_what_the_editor_reads():
    drawing = _everything()
    root = parse(render(drawing, selected_key="d0", image=IMAGE))
    assert root.get("class") == "layout-svg"
    assert root.get("viewBox") == drawing.view_box
    assert root.get("data-mm-transform") == "1 0 0 -1 0 0"
    assert root.get("aria-labelledby") == "layout-title-1"
    assert root.get("width") is None  # sized by the page
    assert len(groups(root, "grid")[0]) == len(drawing.grid)
    assert len(groups(root, "grid-labels")[0]) == len(drawing.grid_labels)
    assert len(groups(root, "underlay")[0]) == 2
    (image,) = groups(root, "underlay-image")
    assert image.get("href") == IMAGE.href
    assert image.get("pointer-events") == "none"

    (zone,) = groups(root, "zone")
    assert zone.get("data-key") == "zone"
    assert [texts(e) for e in groups(zone, "hazard-ring")] == [
        "robot reach, r 1,000 mm",
        "with the tool, r 1,150 mm",
    ]
    (label,) = groups(zone, "hazard-label")
    assert [t.get("dy") for t in label] == ["-0.55em", "1.2em"]
    assert groups(zone, "base")

    segment, *_ = groups(root, "segment")
    assert segment.get("class") == "segment kind-fence"
    assert (segment.get("data-key"), segment.get("data-label")) == ("s0", "F1")
    assert len(segment.findall(f"{SVG}line")) == 2  # the opening cut out
    (caption,) = groups(segment, "caption")
    assert caption.get("transform").startswith("rotate(")
    assert [t.get("class") for t in caption] == [None, "sub"]

    (opening,) = groups(root, "opening")
    assert opening.get("class") == "opening purpose-material_entry"
    assert opening.get("data-key") == "s0o0"

    (curtain,) = groups(root, "device curtain")
    assert curtain.get("class") == "device curtain kind-light_curtain selected"
    assert (curtain.get("data-key"), curtain.get("data-label")) == ("d0", "LC1")
    (mat,) = groups(root, "device mat")
    assert mat.get("data-key") == "d1" and mat.find(f"{SVG}rect") is not None
    scan, bare = groups(root, "device scanner")
    assert [e.get("r") for e in groups(scan, "field")] == ["1500"]
    assert groups(bare, "field") == []
    assert [t.get("class") for t in groups(bare, "caption")[0]] == [None]

    (gap,) = groups(root, "gap")
    assert texts(gap.find(f"{SVG}title")) == "open 4,000 mm"
    clearances = groups(root, "clearance")
    assert len(clearances) == 4  # the outline and, above all, its caption
    assert [c.get("data-label") for c in clearances[:2]] == ["LC1", "Scan"]
    assert [c.get("class") for c in clearances] == [
        "clearance status-fail selected",
        "clearance status-pass",
    ] * 2
    (station,) = groups(root, "station")
    assert (station.get("data-key"), station.get("data-label")) == ("t0", "HMI")
    (scale,) = groups(root, "scale")
    assert texts(scale) == "2,000 mm"


def test_the_zone_past_the_guard_a_polygon_zone_and_uncovered_approaches():
    reach = parse(
        render(
            layout_drawing(
                document(
                    robot_base={"x_mm": 300, "y_mm": 3000},
                    guard_segments=square_fence(),
                )
            )
        )
    )
    (mark,) = groups(reach, "reach")
    assert len(groups(mark, "leader")) == 1 and groups(mark, "caption halo")

    drawing = layout_drawing(
        document(
            hazard_zone={
                "shape": "polygon",
                "polygon_mm": [[1000, 500], [3000, 500], [3000, 1800], [1000, 1800]],
            }
        )
    ).model_copy(
        update={
            "approaches": [
                ApproachShape(
                    outline=[(0, 0), (100.5, -200)],
                    caption=Label(x=1, y=2, text="no field to S 1,000 mm"),
                )
            ]
        }
    )
    root = parse(render(drawing))
    (zone,) = groups(root, "hazard")
    assert zone.tag == f"{SVG}polygon"
    assert zone.get("points") == drawing.hazard_polygon
    (approach,) = groups(root, "approach status-fail")
    assert approach.find(f"{SVG}polyline").get("points") == "0,0 100.5,-200"


def test_a_circle_without_its_label_draws_an_empty_label():
    drawing = _everything().model_copy(update={"hazard_label": None})
    root = parse(render(drawing))
    (label,) = groups(root, "hazard-label")
    assert (label.get("x"), label.get("y"), texts(label)) == ("", "", "")


@pytest.mark.parametrize("language", ["en", "ko"])
def test_numbers_are_never_grouped(language):
    drawing = _everything()
    assert drawing.view_width > 1000
    with translation.override(language):
        svg = render(drawing, standalone=True)
    root = parse(svg)
    numeric = ("x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "width")
    values = [e.get(a) for e in root.iter() for a in numeric if e.get(a)]
    assert values and all("," not in v for v in values)
    for value in values:
        float(value.removesuffix("mm"))
    assert root.get("width") == f"{round(drawing.view_width)}mm"
    assert "," not in root.get("viewBox") and "," not in root.get("font-size")


def test_the_title_is_in_the_readers_language():
    drawing = _everything()
    with translation.override("en"):
        english = parse(render(drawing, name="Palletiser"))
    with translation.override("ko"):
        korean = parse(render(drawing, name="Palletiser"))
    assert english.find(f"{SVG}title").text == "Plan of Palletiser"
    assert korean.find(f"{SVG}title").text == "Palletiser 평면도"
    assert texts(groups(korean, "base")[0]) == "로봇 베이스"
    assert texts(groups(korean, "hazard")[0]).startswith("위험 구역, ")
    assert texts(groups(english, "hazard")[0]).startswith("Hazard zone, ")


def test_the_demo_cells_draw_each_of_their_elements(admin_user):
    cells = Cell.objects.filter(variant_of__isnull=True)
    assert cells.count() == 4  # Korea's two, Germany's, the US's
    drawn = 0
    for cell in cells:
        loaded = cell_with_layout(admin_user, cell.pk, with_underlay=True)
        drawing = _drawing(loaded)
        root = parse(str(plan_svg(drawing, loaded, selected_key="s0")))
        assert root.get("aria-labelledby") == f"layout-title-{cell.pk}"
        segments = groups(root, "segment")
        assert len(segments) == len(drawing.segments)
        selected = [s.get("data-key") for s in groups(root, "selected")]
        assert selected == (["s0"] if segments else [])
        drawn += len(segments)
        assert len(groups(root, "opening")) == len(drawing.openings)
        assert len(groups(root, "station")) == len(drawing.stations)
        devices = len(drawing.curtains) + len(drawing.mats) + len(drawing.scanners)
        assert len(groups(root, "device")) == devices
    assert drawn


@pytest.fixture
def admin_user(django_user_model, db):
    user = django_user_model.objects.create_superuser("admin", password="x" * 12)
    from cells.models import Membership, Organisation

    call_command("seed_demo", stdout=io.StringIO())
    Membership.objects.create(
        user=user, organisation=Organisation.objects.get(slug="demo"), role="viewer"
    )
    return user


def test_the_download_stands_alone(owner_client, cell, owner):
    for i in range(40):
        GuardSegmentFactory(
            cell=cell, label=f"G{i}", start_y_mm=i * 300, end_y_mm=i * 300
        )
    response = owner_client.get(reverse("cells:cell_layout_svg", args=[cell.pk]))
    assert response["Content-Type"] == "image/svg+xml"
    svg = response.content.decode()
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" ')
    root = parse(svg)
    drawing = _drawing(cell_with_layout(owner, cell.pk, with_underlay=True))
    # Whole millimetres, never "12,345mm".
    assert drawing.view_height > 10000
    assert re.fullmatch(r"\d+mm", root.get("height"))
    assert root.get("height") == f"{round(drawing.view_height)}mm"
    (style,) = root.iter(f"{SVG}style")
    nonce = style.get("nonce")
    assert nonce and f"'nonce-{nonce}'" in response["Content-Security-Policy"]
    assert ".hazard" in style.text
    assert root.find(f"{SVG}title").text == f"Plan of {cell.name}"
    assert len(groups(root, "segment")) == 40


def test_a_standalone_file_has_no_image_under_it():
    root = parse(render(_everything(), image=IMAGE, standalone=True))
    assert groups(root, "underlay-image") == []
    assert root.find(f"{SVG}style") is not None


HOSTILE = [
    "</text><script>alert(1)</script>",
    '"onload="alert(1)',
    "]]><x/>",
    "<![CDATA[",
    "'&amp;<",
    "<!-- -->",
    "%(name)s %s",
]


@pytest.mark.parametrize("label", HOSTILE)
def test_hostile_labels_are_text_never_markup(cell, owner, label):
    cell.name = label
    cell.save()
    segment = GuardSegmentFactory(cell=cell, label=label[:30])
    OpeningFactory(segment=segment, label=label[:30])
    DeviceFactory(
        cell=cell,
        label=label,
        x1_mm=1000,
        y1_mm=0,
        x2_mm=1800,
        y2_mm=0,
        detection_lower_mm=0,
        detection_upper_mm=1000,
    )
    DeviceFactory(
        cell=cell,
        kind="safety_mat",
        label=label,
        x1_mm=0,
        y1_mm=500,
        x2_mm=600,
        y2_mm=900,
    )
    DeviceFactory(
        cell=cell,
        kind="laser_scanner",
        label=label,
        x1_mm=300,
        y1_mm=-300,
        field_height_mm=200,
    )
    OperatorStationFactory(cell=cell, label=label[:30])
    loaded = cell_with_layout(owner, cell.pk, with_underlay=True)
    drawing = _drawing(loaded)
    for options in (
        {
            "selected_key": label,
            "image": SimpleNamespace(**{**vars(IMAGE), "href": label}),
        },
        {"standalone": True, "stylesheet": label, "nonce": label},
    ):
        root = parse(render(drawing, name=label, title_id=label, **options))
        elements = list(root.iter())
        assert not [e for e in elements if e.tag.split("}")[-1] in ("script", "x")]
        assert not [a for e in elements for a in e.attrib if a.startswith("on")]
        # Every label arrives as the text it is.
        assert root.get("aria-labelledby") == label
        assert root.find(f"{SVG}title").text == f"Plan of {label}"
        labelled = [e for e in elements if e.get("data-label") is not None]
        assert {e.get("data-label") for e in labelled} == {label, label[:30]}
        assert label in "".join(e.text or "" for e in elements)
        if options.get("standalone"):
            assert root.find(f"{SVG}style").get("nonce") == label
            assert root.find(f"{SVG}style").text == label
        else:
            assert groups(root, "underlay-image")[0].get("href") == label
