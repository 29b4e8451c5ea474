"""The PDF's plan figure: devices where they are placed, each device's minimum
distance S round the hazard zone, the open sides of the perimeter and the
zone's reach past the guarding, to scale and in the document's language. No
database: the figure reads only the data object."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from reportlab.graphics.shapes import Circle, Group, Line, Rect, String, mmult

from cells.exchange import PointDoc
from compliance.documents import theme
from compliance.documents.theme import CONTENT_WIDTH
from compliance.proposals.pdf import plan_figure
from compliance.proposals.pdf.builder import build_proposal_pdf
from compliance.proposals.pdf.data import CellSection, DeviceDistance
from tests.compliance.proposals.pdf.samples import sample_proposal

WIDTH, HEIGHT = CONTENT_WIDTH, 425.0  # as the cell section asks: 150 mm high


def shapes(node):
    """Every shape of a drawing, groups opened."""
    for item in getattr(node, "contents", []):
        if isinstance(item, Group):
            yield from shapes(item)
        else:
            yield item


def strings(drawing) -> list[str]:
    return [s.text for s in shapes(drawing) if isinstance(s, String)]


def cell_section(**layout_changes) -> CellSection:
    cell = sample_proposal().cell
    if layout_changes:
        cell = cell.model_copy(
            update={"layout": cell.layout.model_copy(update=layout_changes)}
        )
    return cell


def figure(cell: CellSection):
    drawing, scale = plan_figure.layout_figure(cell, WIDTH, HEIGHT)
    return drawing, plan_figure.PT_PER_MM / scale


def test_each_minimum_distance_is_drawn_round_the_zone_and_labelled():
    drawing, k = figure(cell_section())
    texts = strings(drawing)
    assert "S ≥ 544 mm" in texts and "S ≥ 850 mm" in texts
    assert "LC1" in texts  # the device under its S
    # The sample's zone: r 1,700 mm (the reach); S drawn 1,700 + S round it.
    radii = {round(c.r, 3) for c in shapes(drawing) if isinstance(c, Circle)}
    assert round((1700 + 544) * k, 3) in radii
    assert round((1700 + 850) * k, 3) in radii
    rings = [
        c
        for c in shapes(drawing)
        if isinstance(c, Circle) and round(c.r, 3) == round((1700 + 850) * k, 3)
    ]
    # Coloured by the finding: the door's fails.
    assert rings[0].strokeColor == theme.STATUS_COLOURS["fail"]
    assert rings[0].strokeDashArray


def test_a_placed_light_curtain_is_drawn_on_its_detection_line():
    drawing, k = figure(cell_section())
    device_lines = [
        s
        for s in shapes(drawing)
        if isinstance(s, Line) and s.strokeColor == theme.DEVICE
    ]
    # LC1 runs from (2000, 0) to (3000, 0) on the plan: 1,000 mm, to scale.
    lengths = [round(abs(line.x2 - line.x1), 3) for line in device_lines]
    assert round(1000 * k, 3) in lengths


def test_a_placed_mat_and_scanner_are_drawn_like_the_web_plan():
    cell = cell_section()
    devices = [
        *cell.layout.devices,
        cell.layout.devices[0].model_copy(
            update={
                "label": "Mat 1",
                "kind": "safety_mat",
                "opening": None,
                "x1_mm": 500,
                "y1_mm": 500,
                "x2_mm": 1500,
                "y2_mm": 1300,
            }
        ),
        cell.layout.devices[0].model_copy(
            update={
                "label": "Scanner 1",
                "kind": "laser_scanner",
                "opening": None,
                "x1_mm": 4500,
                "y1_mm": 4500,
                "x2_mm": None,
                "y2_mm": None,
            }
        ),
    ]
    drawing, k = figure(cell_section(devices=devices))
    texts = strings(drawing)
    assert "Mat 1" in texts and "Scanner 1" in texts
    mats = [
        s for s in shapes(drawing) if isinstance(s, Rect) and s.fillColor == theme.PANEL
    ]
    assert [(round(m.width, 3), round(m.height, 3)) for m in mats] == [
        (round(1000 * k, 3), round(800 * k, 3))
    ]
    rings = [
        s
        for s in shapes(drawing)
        if isinstance(s, Circle) and s.strokeColor == theme.DEVICE
    ]
    assert len(rings) == 1


def test_an_open_side_is_drawn_red_and_dashed_with_its_width():
    cell = cell_section()
    drawing, k = figure(cell_section(guard_segments=cell.layout.guard_segments[:3]))
    assert "open 5,000 mm" in strings(drawing)
    gaps = [
        s
        for s in shapes(drawing)
        if isinstance(s, Line)
        and s.strokeColor == theme.CRITICAL
        and s.strokeDashArray
        and round(abs(s.y2 - s.y1), 3) == round(5000 * k, 3)
    ]
    assert len(gaps) == 1


def test_the_zone_reaching_past_the_guard_is_marked():
    cell = cell_section(robot_base=PointDoc(x_mm=1200, y_mm=2800))  # r 1,700 mm
    drawing, _k = figure(cell)
    assert "zone reaches 500 mm past the guard" in strings(drawing)


def test_the_labels_are_in_the_documents_language(monkeypatch):
    monkeypatch.setattr(plan_figure, "_", lambda message: f"«{message}»")
    drawing, _k = figure(cell_section())
    assert "«S ≥ 544 mm»" in strings(drawing)


def test_a_device_label_is_drawn_as_plain_text():
    cell = cell_section()
    hostile = '<b>"LC" & co</b>'
    devices = [
        cell.layout.devices[0].model_copy(update={"label": hostile}),
        *cell.layout.devices[1:],
    ]
    cell = cell_section(devices=devices).model_copy(
        update={
            "distances": (
                DeviceDistance(
                    device=hostile, device_index=0, required_mm=544, status="pass"
                ),
            )
        }
    )
    drawing, _k = figure(cell)
    assert hostile in strings(drawing)


@pytest.fixture(scope="module")
def plan_page() -> str:
    pdf = build_proposal_pdf(sample_proposal(sections=("cell",)))
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_the_pdf_shows_the_minimum_distances_on_the_plan(plan_page):
    assert "S ≥ 544 mm" in plan_page
    assert "S ≥ 850 mm" in plan_page


# --- a dense plan: labels that would cover others are left out (issue 16) -----


def dense_cell(pieces_per_side: int = 24, side_mm: int = 6000) -> CellSection:
    """The sample cell fenced by a square of many short segments (as a large
    customer cell is drawn: at 1:100 their captions would lie on each other)."""
    cell = sample_proposal().cell
    document = cell.layout.model_dump()
    half, step = side_mm // 2, side_mm // pieces_per_side
    corners = [(-half, -half), (half, -half), (half, half), (-half, half)]
    segments = []
    for (x1, y1), (x2, y2) in zip(corners, [*corners[1:], corners[0]], strict=True):
        dx, dy = (x2 - x1) // pieces_per_side, (y2 - y1) // pieces_per_side
        for i in range(pieces_per_side):
            start = {"x_mm": x1 + dx * i, "y_mm": y1 + dy * i}
            end = {"x_mm": x1 + dx * (i + 1), "y_mm": y1 + dy * (i + 1)}
            segments.append(
                {"start": start, "end": end, "height_mm": 1800, "kind": "fence"}
            )
    assert step == abs(dx or dy)
    document["guard_segments"] = segments
    for device in document["devices"]:
        device["opening"] = None
    return cell.model_copy(
        update={"layout": type(cell.layout).model_validate(document), "distances": ()}
    )


def text_boxes(drawing) -> list[tuple[int, tuple[float, float, float, float]]]:
    """Each string's box on the figure, with the number of the top-level
    node it belongs to (a caption's two lines are one node)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    found = []

    def walk(node, matrix, owner):
        for item in getattr(node, "contents", []):
            if isinstance(item, Group):
                walk(item, mmult(matrix, item.transform), owner)
            elif isinstance(item, String):
                width = stringWidth(item.text, item.fontName, item.fontSize)
                left = {"start": 0, "middle": width / 2, "end": width}[item.textAnchor]
                x0, y0 = item.x - left, item.y - 0.2 * item.fontSize
                x1, y1 = x0 + width, item.y + 0.75 * item.fontSize
                a, b, c, d, e, f = matrix
                points = [(x, y) for x in (x0, x1) for y in (y0, y1)]
                xs = [a * x + c * y + e for x, y in points]
                ys = [b * x + d * y + f for x, y in points]
                found.append((owner, (min(xs), min(ys), max(xs), max(ys))))

    for number, item in enumerate(drawing.contents):
        holder = Group(item)
        walk(holder, (1, 0, 0, 1, 0, 0), number)
    return found


def overlapping(drawing) -> list[tuple[int, int]]:
    boxes = text_boxes(drawing)
    return [
        (i, j)
        for i, (owner_a, a) in enumerate(boxes)
        for j, (owner_b, b) in enumerate(boxes[i + 1 :], start=i + 1)
        if owner_a != owner_b
        and a[0] < b[2]
        and b[0] < a[2]
        and a[1] < b[3]
        and b[1] < a[3]
    ]


def test_a_dense_plan_leaves_out_the_labels_that_would_cover_others():
    """Before: a large cell's 200 guard captions were all drawn, on top of one
    another, and none could be read."""
    drawing, _k = figure(dense_cell())
    assert drawing.left_out_captions > 20
    assert overlapping(drawing) == []
    # Some guards are still named, and the safety marks all stand.
    texts = strings(drawing)
    assert sum(1 for t in texts if t.startswith("S") and " · " in t) >= 8
    assert "Robot" in texts


def test_a_sparse_plan_leaves_nothing_out():
    cell = cell_section()
    drawing, _k = figure(cell)
    assert drawing.left_out_captions == 0
    texts = strings(drawing)
    for segment in cell.layout.guard_segments:
        assert any(t.startswith(f"{segment.label} · ") for t in texts), texts
    assert overlapping(drawing) == []


def test_the_pdf_of_a_dense_plan_lists_every_guard_in_a_table():
    data = sample_proposal(sections=("cell",))
    data = data.model_copy(update={"cell": dense_cell()})
    pdf = build_proposal_pdf(data)
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "are left out of the plan" in " ".join(text.split())
    assert "Guarding" in text
    cells = {line.strip() for line in text.splitlines()}
    assert {f"S{n}" for n in range(1, 97)} <= cells


def test_the_pdf_of_a_sparse_plan_has_no_guarding_table(plan_page):
    assert "Guarding" not in plan_page
    assert "left out of the plan" not in plan_page


def test_the_devices_not_at_an_opening_stay_on_the_plan_s_page():
    """A full-page plan left its one line "Devices not placed at an opening"
    alone at the top of the next page."""
    data = sample_proposal(sections=("cell",))
    data = data.model_copy(update={"cell": dense_cell()})
    pages = [
        p.extract_text() for p in PdfReader(io.BytesIO(build_proposal_pdf(data))).pages
    ]
    (page,) = [p for p in pages if "Devices not placed at an opening" in p]
    assert "1:" in page and "Plan view to scale" in page


def test_an_approach_no_field_covers_is_drawn_red_with_its_s():
    # Issue 27: a side a scanner's field leaves open is marked on the PDF's
    # plan as on the page, S out from the zone along it.
    outline = ((2000.0, 6000.0), (2500.0, 6100.0), (3000.0, 6000.0))
    drawing, _k = figure(
        cell_section().model_copy(update={"uncovered": ((outline, 822),)})
    )
    assert "no field to S 822 mm" in strings(drawing)
    from reportlab.graphics.shapes import PolyLine

    marks = [
        s
        for s in shapes(drawing)
        if isinstance(s, PolyLine) and s.strokeColor == theme.CRITICAL
    ]
    assert len(marks) == 1
    assert len(marks[0].points) == 2 * len(outline)
