"""The PDF's plan figure: devices where they are placed, each device's minimum
distance S round the hazard zone, the open sides of the perimeter and the
zone's reach past the guarding, to scale and in the document's language. No
database: the figure reads only the data object."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from reportlab.graphics.shapes import Circle, Group, Line, Rect, String

from cells.exchange import PointDoc
from compliance.proposals.pdf import plan_figure, theme
from compliance.proposals.pdf.builder import build_proposal_pdf
from compliance.proposals.pdf.data import CellSection, DeviceDistance
from compliance.proposals.pdf.theme import CONTENT_WIDTH
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
