"""The proposal's figures are drawn by ``render.draw_figure`` (issue 16: the
large cell's plan spent half its time in ``renderPDF``'s state keeping). What
it draws must look exactly as ``renderPDF`` draws it: both are rasterised
(poppler's pdftoppm) and compared pixel by pixel, for every kind of shape and
style the figures use, turned groups and the shapes it hands back to
``renderPDF`` included."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import (
    Circle,
    Group,
    Line,
    Polygon,
    PolyLine,
    Rect,
    String,
    mmult,
    rotate,
    translate,
)
from reportlab.graphics.shapes import (
    Path as PathShape,
)
from reportlab.pdfgen.canvas import Canvas

from compliance.documents import theme
from compliance.documents.fonts import register_fonts
from compliance.documents.render import FigureDrawing, draw_figure
from compliance.documents.theme import BOLD, CONTENT_WIDTH, REGULAR
from compliance.proposals.pdf import charts, plan_figure
from compliance.proposals.pdf.builder import build_proposal_pdf
from tests.compliance.proposals.pdf.samples import sample_proposal

pytestmark = pytest.mark.skipif(
    shutil.which("pdftoppm") is None, reason="needs poppler's pdftoppm"
)


def every_kind() -> FigureDrawing:
    """One of each shape and style the proposal's figures draw, in an order
    where each shape's state differs from the one before."""
    register_fonts()
    d = charts.new_drawing(300, 220)
    d.add(Rect(0, 0, 300, 220, fillColor=theme.WHITE, strokeColor=theme.RULE))
    d.add(Line(10, 10, 290, 10, strokeColor=theme.INK, strokeWidth=1.6))
    d.add(
        Line(
            10,
            20,
            290,
            20,
            strokeColor=theme.DEVICE,
            strokeWidth=0.9,
            strokeDashArray=[3, 1, 1, 1],
            strokeLineCap=1,
        )
    )
    d.add(Rect(20, 30, 12, 12, fillColor=theme.WHITE, strokeColor=theme.DEVICE))
    d.add(Rect(40, 30, 12, 12, fillColor=theme.DEVICE, strokeColor=None))
    d.add(Line(10, 50, 290, 50, strokeColor=theme.MUTED, strokeDashArray=[1, 1.5]))
    d.add(
        Rect(60, 30, 60, 20, fillColor=theme.WHITE, strokeColor=None, fillOpacity=0.5)
    )
    d.add(Rect(130, 30, 30, 12, rx=3, ry=3, fillColor=theme.PANEL))
    d.add(
        Circle(
            200,
            120,
            60,
            fillColor=theme.HAZARD_FILL,
            strokeColor=theme.CRITICAL,
            strokeDashArray=[3, 2],
            strokeWidth=0.6,
        )
    )
    d.add(Circle(200, 120, 40, fillColor=None, strokeColor=theme.CRITICAL))
    d.add(
        Polygon(
            [20, 60, 80, 60, 50, 110], fillColor=theme.ACCENT, strokeColor=theme.INK
        )
    )
    d.add(Polygon([90, 60, 120, 60, 105, 90], fillColor=theme.ACCENT, strokeColor=None))
    d.add(
        PolyLine(
            [20, 130, 60, 160, 100, 130, 140, 170],
            strokeColor=theme.SLATE,
            strokeWidth=2.4,
            strokeLineJoin=1,
        )
    )
    for anchor, y in (("start", 180), ("middle", 195), ("end", 210)):
        d.add(charts.text_shape(150, y, f"{anchor} 보호 울타리", 7, anchor=anchor))
    turned = Group(
        charts.text_shape(0, 0, "S ≥ 544 mm", 7, colour=theme.CRITICAL, bold=True),
        Line(-20, -3, 20, -3, strokeColor=theme.CRITICAL),
    )
    turned.transform = mmult(translate(250, 60), rotate(-35))
    d.add(turned)
    d.add(Line(10, 200, 100, 200, strokeColor=theme.INK))  # after the group
    path = PathShape(fillColor=theme.SLATE_LIGHT, strokeColor=theme.INK)
    path.moveTo(240, 180)
    path.curveTo(250, 210, 280, 210, 290, 180)
    path.closePath()
    d.add(path)  # not drawn here: handed to renderPDF
    d.add(String(240, 170, "after", fontName=BOLD, fontSize=6))
    d.add(String(240, 160, "regular", fontName=REGULAR, fontSize=6))
    return d


def rasterise(draw, drawing, tmp_path: Path, name: str) -> Image.Image:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(drawing.width + 20, drawing.height + 20))
    draw(drawing, canvas, 10, 10)
    canvas.save()
    pdf = tmp_path / f"{name}.pdf"
    pdf.write_bytes(buffer.getvalue())
    subprocess.run(
        ["pdftoppm", "-r", "150", "-png", "-singlefile", pdf, tmp_path / name],
        check=True,
        timeout=60,
    )
    return Image.open(tmp_path / f"{name}.png").convert("RGB")


def differing_pixels(a: Image.Image, b: Image.Image) -> int:
    assert a.size == b.size
    difference = ImageChops.difference(a, b).convert("L")
    return sum(difference.histogram()[1:])


def test_every_kind_of_shape_looks_as_renderpdf_draws_it(tmp_path):
    drawing = every_kind()
    theirs = rasterise(renderPDF.draw, drawing, tmp_path, "renderpdf")
    ours = rasterise(draw_figure, drawing, tmp_path, "ours")
    # Not blank: the comparison has something to compare.
    assert ImageChops.difference(ours, Image.new("RGB", ours.size, "white")).getbbox()
    assert differing_pixels(theirs, ours) == 0


def test_a_plan_with_every_mark_looks_as_renderpdf_draws_it(tmp_path):
    """The demo-like sample's plan: guards, openings, devices, the zone, S,
    gaps, reach past the guard, turned captions, the scale bar."""
    register_fonts()
    drawing, _scale = plan_figure.layout_figure(
        sample_proposal().cell, CONTENT_WIDTH, 425.0
    )
    assert isinstance(drawing, FigureDrawing)
    theirs = rasterise(renderPDF.draw, drawing, tmp_path, "renderpdf")
    ours = rasterise(draw_figure, drawing, tmp_path, "ours")
    assert differing_pixels(theirs, ours) == 0


def test_a_changed_style_is_seen(tmp_path):
    """The comparison can fail: a stroke one shade off differs."""
    drawing = every_kind()
    theirs = rasterise(renderPDF.draw, drawing, tmp_path, "renderpdf")
    drawing.contents[1].strokeColor = theme.SLATE
    ours = rasterise(draw_figure, drawing, tmp_path, "ours")
    assert differing_pixels(theirs, ours) > 100


def test_the_proposal_draws_its_figures_this_way(monkeypatch):
    from compliance.documents import render

    drawn = []
    original = render.draw_figure

    def counting(drawing, canvas, x=0, y=0):
        drawn.append(drawing)
        return original(drawing, canvas, x, y)

    monkeypatch.setattr(render, "draw_figure", counting)
    build_proposal_pdf(sample_proposal())
    assert len(drawn) >= 3  # the plan and the two plans' charts at least
