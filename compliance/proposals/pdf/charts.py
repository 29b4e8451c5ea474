"""The charts of a proposal as vector reportlab graphics: the two plans'
timelines, their costs, legends, and the drawing primitives the plan of the
cell shares (``plan_figure``). Every string names its font: reportlab graphics
would otherwise fall back to Helvetica, which is not embedded.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal

from django.utils.translation import gettext as _
from reportlab.graphics.shapes import Circle, Drawing, Line, Polygon, Rect, String
from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth

from compliance.documents import theme
from compliance.documents.render import FigureDrawing
from compliance.documents.theme import BOLD, REGULAR
from compliance.proposals.pdf.data import PlanData

Point = tuple[float, float]
GUARD_STYLE = {  # kind: (width in pt, colour)
    "fence": (1.6, theme.INK),
    "wall": (3.2, theme.SLATE),
    "machine_body": (2.4, theme.SLATE_LIGHT),
}
SENSING = {"light_curtain", "multibeam", "laser_scanner", "safety_mat"}


def text_shape(
    x: float,
    y: float,
    text: str,
    size: float,
    *,
    colour: Color = theme.INK,
    anchor: str = "start",
    bold: bool = False,
) -> String:
    return String(
        x,
        y,
        text,
        fontName=BOLD if bold else REGULAR,
        fontSize=size,
        fillColor=colour,
        textAnchor=anchor,
    )


def new_drawing(width: float, height: float) -> Drawing:
    """An empty drawing whose initial font is ours, not Helvetica, drawn on
    the page by ``render.draw_figure`` (not shape by shape by ``renderPDF``)."""
    return FigureDrawing(width, height, initialFontName=REGULAR, initialFontSize=7)


def wrap(
    text: str, width: float, size: float, max_lines: int = 2, font: str = REGULAR
) -> list[str]:
    """``text`` broken into at most ``max_lines`` lines that fit ``width``;
    the last one ends in "…" when the text is longer."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if stringWidth(candidate, font, size) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = word
        while stringWidth(current, font, size) > width:  # one long word
            cut = len(current)
            while cut > 1 and stringWidth(current[:cut], font, size) > width:
                cut -= 1
            lines.append(current[:cut])
            current = current[cut:]
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        last = lines[max_lines - 1]
        while last and stringWidth(last + "…", font, size) > width:
            last = last[:-1]
        lines = [*lines[: max_lines - 1], last.rstrip() + "…"]
    return lines


def draw_device(
    drawing: Drawing, kind: str, a: tuple[float, float], b: tuple[float, float]
) -> None:
    if kind in SENSING:
        drawing.add(
            Line(
                *a,
                *b,
                strokeColor=theme.DEVICE,
                strokeWidth=0.9,
                strokeDashArray=[3, 1, 1, 1],
            )
        )
        for x, y in (a, b):
            drawing.add(
                Rect(
                    x - 1.6,
                    y - 1.6,
                    3.2,
                    3.2,
                    fillColor=theme.WHITE,
                    strokeColor=theme.DEVICE,
                    strokeWidth=0.8,
                )
            )
    else:  # a door or other guard device closing the opening
        drawing.add(Line(*a, *b, strokeColor=theme.DEVICE, strokeWidth=0.9))
        drawing.add(
            Rect(
                a[0] - 1.8,
                a[1] - 1.8,
                3.6,
                3.6,
                fillColor=theme.DEVICE,
                strokeColor=None,
            )
        )


def arrow_head(drawing: Drawing, tip, back, colour: Color, length: float = 3.0) -> None:
    dx, dy = back[0] - tip[0], back[1] - tip[1]
    norm = math.hypot(dx, dy) or 1.0
    dx, dy = dx / norm * length, dy / norm * length
    drawing.add(
        Polygon(
            [
                tip[0],
                tip[1],
                tip[0] + dx - dy * 0.4,
                tip[1] + dy + dx * 0.4,
                tip[0] + dx + dy * 0.4,
                tip[1] + dy - dx * 0.4,
            ],
            fillColor=colour,
            strokeColor=None,
        )
    )


# A robot program's moves as the plan draws them (``plan_figure.PATH_STYLE``).
PATH_SWATCHES = {
    "path": (theme.SLATE_LIGHT, 0.8),
    "path_measure": (theme.STATUS_COLOURS["warning"], 1.5),
    "path_fail": (theme.CRITICAL, 1.7),
}


def legend(
    items: Sequence[tuple[str, str]], width: float, size: float = 7.0
) -> Drawing:
    """A key of symbols and their meanings, in rows that fit ``width``.
    ``items`` are (symbol, text); symbols: fence, wall, opening, curtain,
    door, zone, distance, station, low, high, critical, assumption, milestone,
    path, path_fail, path_measure (a robot program's moves), contact_zone."""
    swatch, gap, row_h = 14.0, 12.0, size * 1.9
    placed: list[tuple[float, int, str, str]] = []
    x, row = 0.0, 0
    for symbol, text in items:
        item_w = swatch + 4 + stringWidth(text, REGULAR, size)
        if x and x + item_w > width:
            x, row = 0.0, row + 1
        placed.append((x, row, symbol, text))
        x += item_w + gap
    drawing = new_drawing(width, (row + 1) * row_h)
    for x, row, symbol, text in placed:
        y = drawing.height - (row + 0.5) * row_h
        _swatch(drawing, symbol, x, y, swatch)
        drawing.add(
            text_shape(x + swatch + 4, y - size * 0.35, text, size, colour=theme.MUTED)
        )
    return drawing


def _swatch(drawing: Drawing, symbol: str, x: float, y: float, w: float) -> None:
    if symbol in GUARD_STYLE:
        stroke, colour = GUARD_STYLE[symbol]
        drawing.add(Line(x, y, x + w, y, strokeColor=colour, strokeWidth=stroke))
    elif symbol == "opening":
        drawing.add(
            Line(
                x,
                y,
                x + w,
                y,
                strokeColor=theme.MUTED,
                strokeWidth=0.4,
                strokeDashArray=[1, 1.5],
            )
        )
    elif symbol == "curtain":
        draw_device(drawing, "light_curtain", (x + 2, y), (x + w - 2, y))
    elif symbol == "door":
        draw_device(drawing, "interlocked_door", (x + 2, y), (x + w - 2, y))
    elif symbol == "zone":
        drawing.add(
            Rect(
                x,
                y - 3.5,
                w,
                7,
                fillColor=theme.HAZARD_FILL,
                strokeColor=theme.CRITICAL,
                strokeWidth=0.6,
                strokeDashArray=[3, 2],
            )
        )
    elif symbol == "distance":
        drawing.add(
            Line(
                x,
                y,
                x + w,
                y,
                strokeColor=theme.SLATE,
                strokeWidth=1.0,
                strokeDashArray=[2.5, 1.5],
            )
        )
    elif symbol == "station":
        cx = x + w / 2
        drawing.add(
            Polygon(
                [cx, y + 3.2, cx + 3, y - 2, cx - 3, y - 2],
                fillColor=theme.ACCENT,
                strokeColor=None,
            )
        )
    elif symbol in PATH_SWATCHES:
        colour, width = PATH_SWATCHES[symbol]
        drawing.add(
            Line(x, y, x + w, y, strokeColor=colour, strokeWidth=width, strokeLineCap=1)
        )
    elif symbol == "contact_zone":
        drawing.add(
            Circle(
                x + w / 2,
                y,
                3.6,
                fillColor=None,
                strokeColor=theme.ACCENT,
                strokeWidth=0.6,
                strokeDashArray=[1.2, 1.8],
            )
        )
    elif symbol in {"low", "high", "critical"}:
        colour = {
            "low": theme.SLATE,
            "high": theme.SLATE_LIGHT,
            "critical": theme.CRITICAL,
        }[symbol]
        drawing.add(Rect(x, y - 2.5, w, 5, fillColor=colour, strokeColor=None))
    elif symbol == "assumption":
        drawing.add(text_shape(x + w / 2, y - 3.5, "*", 10, anchor="middle", bold=True))
    elif symbol == "milestone":
        diamond(drawing, x + w / 2, y, 3.4, theme.INK)


def diamond(drawing: Drawing, x: float, y: float, r: float, colour: Color) -> None:
    drawing.add(
        Polygon(
            [x, y + r, x + r, y, x, y - r, x - r, y], fillColor=colour, strokeColor=None
        )
    )


# --- timelines and costs -------------------------------------------------------------


def _tick_step(span: float, most: int = 12) -> float:
    for step in (1, 2, 4, 5, 10, 20, 25, 50, 100):
        if span / step <= most:
            return step
    return 100


def timeline_figure(plan: PlanData, weeks_max: Decimal, width: float) -> Drawing:
    """A Gantt chart of one plan: per activity, the earliest start and finish
    with the shortest durations (dark) and with the longest (light); the
    critical path in brick; an assumed duration has an asterisk after its name.
    A name takes up to three lines (a robot program's verification names its
    lines): the rows are then taller, all alike."""
    size, row_h, label_w = 7.0, 18.0, 150.0
    top, bottom, right = 4.0, 26.0, 34.0
    rows = plan.activities
    names = [
        wrap(
            f"{row.name} *" if row.assumption else row.name,
            label_w - 8,
            size,
            max_lines=3,
            font=BOLD if row.critical else REGULAR,
        )
        for row in rows
    ]
    if any(len(lines) > 2 for lines in names):
        row_h = 25.0
    height = top + bottom + row_h * len(rows)
    drawing = new_drawing(width, height)
    chart_x, chart_w = label_w, width - label_w - right
    span = max(float(weeks_max), 1.0)

    def x_at(weeks: Decimal) -> float:
        return chart_x + float(weeks) / span * chart_w

    chart_top = height - top
    for index in range(len(rows)):
        if index % 2 == 0:
            y = chart_top - (index + 1) * row_h
            drawing.add(
                Rect(0, y, width, row_h, fillColor=theme.PANEL, strokeColor=None)
            )
    step = _tick_step(span)
    week = 0.0
    while week <= span + 1e-9:
        x = chart_x + week / span * chart_w
        drawing.add(
            Line(x, bottom, x, chart_top, strokeColor=theme.FAINT, strokeWidth=0.4)
        )
        drawing.add(
            text_shape(
                x,
                bottom - 9,
                f"{week:g}",
                size - 0.5,
                colour=theme.MUTED,
                anchor="middle",
            )
        )
        week += step
    drawing.add(
        Line(
            chart_x,
            bottom,
            chart_x + chart_w,
            bottom,
            strokeColor=theme.RULE,
            strokeWidth=0.6,
        )
    )
    drawing.add(
        text_shape(
            chart_x + chart_w / 2,
            3,
            _("Weeks from the start"),
            size - 0.5,
            colour=theme.MUTED,
            anchor="middle",
        )
    )

    for index, (row, lines) in enumerate(zip(rows, names, strict=True)):
        centre = chart_top - (index + 0.5) * row_h
        first = centre + (len(lines) - 1) * size * 0.55 - size * 0.35
        for n, text in enumerate(lines):
            drawing.add(
                text_shape(4, first - n * size * 1.1, text, size, bold=row.critical)
            )
        dark, light = (
            (theme.CRITICAL, theme.CRITICAL_LIGHT)
            if row.critical
            else (theme.SLATE, theme.SLATE_LIGHT)
        )
        if row.milestone:
            diamond(drawing, x_at(row.finish_week_low), centre + 3, 3.6, dark)
            diamond(drawing, x_at(row.finish_week_high), centre - 3.5, 3.6, light)
        else:
            for start, finish, y, fill in (
                (row.start_week_low, row.finish_week_low, centre + 0.5, dark),
                (row.start_week_high, row.finish_week_high, centre - 5.5, light),
            ):
                x0 = x_at(start)
                drawing.add(
                    Rect(
                        x0,
                        y,
                        max(x_at(finish) - x0, 1.2),
                        5,
                        fillColor=fill,
                        strokeColor=None,
                    )
                )
        end = max(x_at(row.finish_week_high), x_at(row.finish_week_low)) + 5
        drawing.add(
            text_shape(
                end,
                centre - size * 0.35,
                theme.weeks_range(row.finish_week_low, row.finish_week_high),
                size - 1,
                colour=theme.MUTED,
            )
        )
    return drawing


def cost_figure(
    plans: Sequence[PlanData], width: float, currency: str = ""
) -> Drawing | None:
    """Each plan's known cost as a low–high bar on one axis, in the proposal
    currency (the costs are converted before they get here); a plan without
    a cost is marked on the axis. None only when the costs are in different
    currencies (data stored before the conversion)."""
    costs = [plan.cost for plan in plans if plan.cost is not None]
    if len({cost.currency for cost in costs}) > 1:
        return None
    currency = costs[0].currency if costs else currency
    size, row_h, label_w, right = 7.0, 26.0, 110.0, 16.0
    bottom = 22.0
    height = bottom + row_h * len(plans) + 6
    drawing = new_drawing(width, height)
    chart_x, chart_w = label_w, width - label_w - right
    top_value = max((float(cost.high) for cost in costs), default=0.0) * 1.08 or 1.0
    magnitude = 10 ** math.floor(math.log10(top_value))
    step = next(
        m * magnitude
        for m in (0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10)
        if top_value / (m * magnitude) <= 5
    )
    top_value = math.ceil(top_value / step) * step

    def x_at(value: Decimal | float) -> float:
        return chart_x + float(value) / top_value * chart_w

    value = 0.0
    if not costs:  # nothing converted yet: the axis at zero, the plans marked
        top_value = step = 1.0
    while value <= (top_value if costs else 0.0) + 1e-9:
        x = x_at(value)
        drawing.add(
            Line(x, bottom, x, height - 4, strokeColor=theme.FAINT, strokeWidth=0.4)
        )
        drawing.add(
            text_shape(
                x,
                bottom - 9,
                theme.number(Decimal(str(round(value)))),
                size - 1,
                colour=theme.MUTED,
                anchor="middle",
            )
        )
        value += step
    drawing.add(
        Line(
            chart_x,
            bottom,
            chart_x + chart_w,
            bottom,
            strokeColor=theme.RULE,
            strokeWidth=0.6,
        )
    )
    drawing.add(
        text_shape(
            chart_x + chart_w / 2,
            2,
            currency,
            size - 0.5,
            colour=theme.MUTED,
            anchor="middle",
        )
    )
    for index, plan in enumerate(plans):
        centre = height - 6 - (index + 0.5) * row_h
        drawing.add(text_shape(4, centre - size * 0.35, plan.name, size, bold=True))
        if plan.cost is None:
            drawing.add(
                text_shape(
                    chart_x + 4,
                    centre - size * 0.35,
                    _("cost not known"),
                    size,
                    colour=theme.MUTED,
                )
            )
            continue
        x0, x1 = x_at(plan.cost.low), x_at(plan.cost.high)
        drawing.add(
            Rect(
                x0,
                centre - 4,
                max(x1 - x0, 1.5),
                8,
                fillColor=theme.ACCENT_LIGHT,
                strokeColor=theme.ACCENT,
                strokeWidth=0.6,
            )
        )
        for x in (x0, x1):
            drawing.add(
                Line(
                    x,
                    centre - 6,
                    x,
                    centre + 6,
                    strokeColor=theme.ACCENT,
                    strokeWidth=1.0,
                )
            )
        text = theme.number_range(plan.cost.low, plan.cost.high)
        drawing.add(text_shape(x0, centre + 8, text, size - 0.5, colour=theme.ACCENT))
    return drawing
