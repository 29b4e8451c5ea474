"""The proposal's figures drawn straight onto the PDF canvas.

reportlab's own renderer (``renderPDF``) saves and restores the graphics state
round every shape and recomputes its whole state each time: the plan of a
large cell (some 1,600 shapes) spent more time there than in drawing. Here the
shapes the proposal uses (lines, rectangles, circles, polygons, polylines,
strings and groups that turn or move them) are drawn in order with only the
state that changes set, and the state is saved only round a group that moves
its contents. What looks the same on the page is the same: colour, width,
dash, cap and join of each stroke, fill and its opacity, font and anchor of
each string. Any other shape (an image, a path) goes through ``renderPDF``."""

from __future__ import annotations

from typing import Any

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import (
    Circle,
    Drawing,
    Group,
    Line,
    Polygon,
    PolyLine,
    Rect,
    String,
)
from reportlab.lib.attrmap import AttrMap, AttrMapValue
from reportlab.lib.colors import Color
from reportlab.lib.validators import isInt
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

_IDENTITY = (1, 0, 0, 1, 0, 0)
_UNSET = object()


class FigureDrawing(Drawing):
    """A ``Drawing`` that platypus draws through ``draw_figure``. A plan also
    says how many of its captions it left out (they would have covered
    others)."""

    _attrMap = AttrMap(
        BASE=Drawing,
        left_out_captions=AttrMapValue(isInt, desc="captions not drawn"),
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.left_out_captions = 0

    def draw(self, showBoundary: Any = None) -> None:  # platypus calls it so
        draw_figure(self, self.canv)


class _Pen:
    """The canvas state this renderer has set, so that each shape sets only
    what differs: stroke colour, width, cap, join, dash, stroke and fill
    opacity, fill colour, font (the miter limit ``renderPDF`` leaves alone)."""

    __slots__ = ("canvas", "state")

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.state: dict[str, Any] = {}

    def _set(self, key: str, value: Any, apply) -> None:
        current = self.state.get(key, _UNSET)
        # Colours by identity (comparing them by value was a tenth of the
        # drawing): the theme's are shared objects, and another object of the
        # same colour only sets it again.
        if current is value or (
            current is not _UNSET and type(value) is not Color and current == value
        ):
            return
        apply(value)
        self.state[key] = value

    def stroke(self, shape: Any) -> bool:
        colour = shape.strokeColor
        if colour is None:
            return False
        c = self.canvas
        self._set("strokeColor", colour, c.setStrokeColor)
        self._set("strokeWidth", shape.strokeWidth, c.setLineWidth)
        self._set("strokeLineCap", shape.strokeLineCap, c.setLineCap)
        self._set("strokeLineJoin", shape.strokeLineJoin, c.setLineJoin)
        dash = shape.strokeDashArray
        self._set("strokeDashArray", tuple(dash) if dash else None, self._dash)
        opacity = getattr(shape, "strokeOpacity", None)
        self._set("strokeOpacity", 1 if opacity is None else opacity, c.setStrokeAlpha)
        return True

    def _dash(self, dash: tuple | None) -> None:
        if not dash:
            self.canvas.setDash()
        elif len(dash) == 2 and isinstance(dash[1], (tuple, list)):
            self.canvas.setDash(list(dash[1]), dash[0])
        else:
            self.canvas.setDash(list(dash), 0)

    def fill(self, shape: Any) -> bool:
        colour = shape.fillColor
        if colour is None:
            return False
        c = self.canvas
        self._set("fillColor", colour, c.setFillColor)
        opacity = getattr(shape, "fillOpacity", None)
        self._set("fillOpacity", 1 if opacity is None else opacity, c.setFillAlpha)
        return True

    def font(self, name: str, size: float) -> None:
        self._set("font", (name, size), lambda v: self.canvas.setFont(*v))


def draw_figure(drawing: Drawing, canvas: Canvas, x: float = 0, y: float = 0) -> None:
    """``drawing`` on ``canvas`` with its origin at (x, y), as ``renderPDF``
    draws it."""
    canvas.saveState()
    if x or y:
        canvas.translate(x, y)
    transform = getattr(drawing, "transform", _IDENTITY)
    if tuple(transform) != _IDENTITY:
        canvas.transform(*transform)
    pen = _Pen(canvas)
    font = getattr(drawing, "initialFontName", None)
    if font:
        pen.font(font, getattr(drawing, "initialFontSize", 10))
    _contents(drawing.contents, canvas, pen)
    canvas.restoreState()


def _contents(nodes: list, canvas: Canvas, pen: _Pen) -> None:
    for node in nodes:
        kind = type(node)
        if kind is Line:
            if pen.stroke(node):
                canvas.line(node.x1, node.y1, node.x2, node.y2)
        elif kind is String:
            _string(node, canvas, pen)
        elif kind is Rect and node.rx == node.ry == 0:
            stroke, fill = pen.stroke(node), pen.fill(node)
            if stroke or fill:
                canvas.rect(
                    node.x, node.y, node.width, node.height, stroke=stroke, fill=fill
                )
        elif kind is Circle:
            stroke, fill = pen.stroke(node), pen.fill(node)
            if stroke or fill:
                canvas.circle(node.cx, node.cy, node.r, stroke=stroke, fill=fill)
        elif kind is Polygon or kind is PolyLine:
            _poly(node, canvas, pen, closed=kind is Polygon)
        elif kind is Group:
            _group(node, canvas, pen)
        else:
            _other(node, canvas)


def _poly(node: Polygon | PolyLine, canvas: Canvas, pen: _Pen, closed: bool) -> None:
    points = node.points
    if len(points) < 4:
        return
    stroke = pen.stroke(node)
    fill = closed and pen.fill(node)
    if not (stroke or fill):
        return
    if fill:
        mode = getattr(node, "fillMode", None)
        if mode is not None:
            canvas._fillMode = mode
    path = canvas.beginPath()
    path.moveTo(points[0], points[1])
    for i in range(2, len(points) - 1, 2):
        path.lineTo(points[i], points[i + 1])
    if closed:
        path.close()
    canvas.drawPath(path, stroke=stroke, fill=fill)


def _string(node: String, canvas: Canvas, pen: _Pen) -> None:
    mode = getattr(node, "textRenderMode", 0)
    if mode != 0 or node.textAnchor not in ("start", "middle", "end"):
        _other(node, canvas)
        return
    if not pen.fill(node):
        return
    pen.font(node.fontName, node.fontSize)
    x = node.x
    if node.textAnchor != "start":
        width = stringWidth(node.text, node.fontName, node.fontSize, node.encoding)
        x -= width if node.textAnchor == "end" else width / 2
    canvas.drawString(x, node.y, node.text)


def _group(node: Group, canvas: Canvas, pen: _Pen) -> None:
    transform = tuple(node.transform)
    if transform == _IDENTITY:
        _contents(node.contents, canvas, pen)
        return
    # The state set inside is undone by the restore: the pen forgets it too.
    canvas.saveState()
    canvas.transform(*transform)
    kept = dict(pen.state)
    _contents(node.contents, canvas, pen)
    canvas.restoreState()
    pen.state = kept


def _other(node: Any, canvas: Canvas) -> None:
    """A shape this module does not draw itself, through ``renderPDF`` (which
    saves and restores the state round it)."""
    holder = Drawing(0, 0, node)
    renderPDF.draw(holder, canvas, 0, 0)
