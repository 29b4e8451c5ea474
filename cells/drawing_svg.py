"""The plan drawing as inline SVG, written by Python. Pure Python, no Django.

``render_svg`` writes a ``cells.drawing.Drawing`` as the SVG the cell page,
the DXF import's preview and the plan's download show: the same elements,
classes and data attributes that the layout editor (``static/js/
layout-editor.js``), the stylesheet and the tests read. Every text and
attribute value that comes from a user or a translation is escaped (``&``,
``<``, ``>``, ``"`` and ``'``, as Django's templates escape them); numbers are
written as Python writes them, with no grouping, as a template with
localisation off did.

Written in one pass into a list of strings: a plan of 200 guard segments is
under a millisecond or two, where the template it replaces took tens.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from html import escape
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from cells.drawing import Drawing, Label, Line

FONT_FAMILY = "'Nanum Gothic App', Inter, 'Noto Sans KR', 'Segoe UI', Arial, sans-serif"
TICK = ' class="tick"'
LEADER = ' class="leader"'


class SvgWords(BaseModel):
    """The words of the SVG itself, in the reader's language (the caller
    translates them): its title, a ``%(name)s`` template, and the titles of
    the hazard zone and the robot's base."""

    model_config = ConfigDict(frozen=True)

    plan_of: str = "Plan of %(name)s"
    hazard_zone: str = "Hazard zone"
    robot_base: str = "Robot base"


class UnderlayImageLike(Protocol):
    """A floor-plan image drawn under the plan (``cells.layout_image``)."""

    href: str
    x: float
    y: float
    width: float
    height: float
    opacity: float


def _e(text: object) -> str:
    """``text`` escaped for an attribute or an element. Most labels hold
    nothing to escape: they are looked at, not rewritten (a third of the
    plan's time went to escaping its 1,800 texts)."""
    s = text if type(text) is str else str(text)
    if "&" in s or "<" in s or ">" in s or '"' in s or "'" in s:
        return escape(s, quote=True)
    return s


def _whole(value: float, *, grouped: bool = False) -> str:
    """A number rounded half up to a whole one: "1,700" when ``grouped``."""
    whole = int(Decimal(repr(float(value))).quantize(Decimal(1), ROUND_HALF_UP))
    return f"{whole:,}" if grouped else str(whole)


def _line(line: Line, attrs: str = "") -> str:
    return f'<line{attrs} x1="{line.x1}" y1="{line.y1}" x2="{line.x2}" y2="{line.y2}"/>'


def _two_lines(label: Label, *, first_dy: bool = True) -> str:
    """A caption's text and, smaller, its second line, each at the caption's x."""
    x = label.x
    dy = ' dy="-0.55em"' if first_dy else ""
    return (
        f'<tspan x="{x}"{dy}>{_e(label.text)}</tspan>'
        f'<tspan class="sub" x="{x}" dy="1.2em">{_e(label.sub)}</tspan>'
    )


def _rotated(label: Label) -> str:
    return f' transform="rotate({label.rotate_deg} {label.x} {label.y})"'


def _selected(key: str, selected_key: str) -> str:
    return " selected" if key == selected_key else ""


def render_svg(
    drawing: Drawing,
    *,
    name: str,
    title_id: str,
    words: SvgWords | None = None,
    selected_key: str = "",
    image: UnderlayImageLike | None = None,
    standalone: bool = False,
    stylesheet: str = "",
    nonce: str = "",
) -> str:
    """The SVG of ``drawing``, the plan of the cell named ``name``.

    ``title_id``: the id of its title (one per page); ``selected_key``: the
    element highlighted (being edited); ``image``: a floor-plan image drawn
    under the plan (not in a standalone file); ``standalone``: a file of its
    own, sized in millimetres and carrying ``stylesheet`` under the CSP
    ``nonce``."""
    words = words or SvgWords()
    d = drawing
    font = d.font_mm
    out: list[str] = []
    w = out.append
    size = (
        f' width="{_whole(d.view_width)}mm" height="{_whole(d.view_height)}mm"'
        if standalone
        else ""
    )
    w(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{d.view_box}" '
        'class="layout-svg" data-mm-transform="1 0 0 -1 0 0" role="img" '
        f'aria-labelledby="{_e(title_id)}" font-size="{font}" '
        f'font-family="{FONT_FAMILY}"{size}>'
    )
    w(f'<title id="{_e(title_id)}">{_e(words.plan_of) % {"name": _e(name)}}</title>')
    if standalone:
        w(f'<style nonce="{_e(nonce)}">{_e(stylesheet)}</style>')
    w(
        f'<rect x="{d.view_min_x}" y="{d.view_min_y}" width="{d.view_width}" '
        f'height="{d.view_height}" fill="#fff"/>'
    )
    w('<g class="grid">')
    w("".join(_line(line) for line in d.grid))
    w(f'</g><g class="grid-labels" font-size="{round(font / 4.0 * 3)}">')
    w("".join(f'<text x="{t.x}" y="{t.y}">{_e(t.text)}</text>' for t in d.grid_labels))
    w("</g>")
    if image is not None and not standalone:
        w(
            f'<image class="underlay-image" href="{_e(image.href)}" x="{image.x}" '
            f'y="{image.y}" width="{image.width}" height="{image.height}" '
            f'preserveAspectRatio="none" opacity="{image.opacity}" '
            'pointer-events="none"/>'
        )
    if d.underlay:
        w('<g class="underlay">')
        w("".join(_line(line) for line in d.underlay))
        w("</g>")

    w('<g class="zone" data-key="zone">')
    if d.hazard_circle:
        cx, cy, r = d.hazard_circle
        label = d.hazard_label
        w(
            f'<circle class="hazard" cx="{cx}" cy="{cy}" r="{r}"><title>'
            f"{_e(words.hazard_zone)}, {_e(label.text if label else '')}</title>"
            "</circle>"
        )
        for ring in d.hazard_rings:
            w(
                f'<circle class="hazard-ring" cx="{cx}" cy="{cy}" r="{ring.radius}">'
                f"<title>{_e(ring.title)}, r {_whole(ring.radius, grouped=True)} mm"
                "</title></circle>"
            )
        if label is None:
            w('<text class="hazard-label" x="" y=""></text>')
        elif label.sub:
            w(
                f'<text class="hazard-label" x="{label.x}" y="{label.y}">'
                f"{_two_lines(label)}</text>"
            )
        else:
            w(
                f'<text class="hazard-label" x="{label.x}" y="{label.y}">'
                f"{_e(label.text)}</text>"
            )
    else:
        w(
            f'<polygon class="hazard" points="{_e(d.hazard_polygon)}"><title>'
            f"{_e(words.hazard_zone)}</title></polygon>"
        )
    bx, by = d.robot_base
    w(
        f'<circle class="base" cx="{bx}" cy="{by}" r="{font}"><title>'
        f"{_e(words.robot_base)}</title></circle></g>"
    )

    for cl in d.clearances:
        if cl.circle:
            ccx, ccy, cr = cl.circle
            outline = f'<circle cx="{ccx}" cy="{ccy}" r="{cr}"/>'
        else:
            outline = f'<polygon points="{_e(cl.points)}"/>'
        w(
            f'<g class="clearance status-{_e(cl.status)}'
            f'{_selected(cl.key, selected_key)}" data-label="{_e(cl.label)}">'
            f"<title>{_e(cl.caption.text)}, {_e(cl.label)}</title>{outline}"
            f"{_line(cl.tick, TICK)}</g>"
        )
    for seg in d.segments:
        c = seg.caption
        w(
            f'<g class="segment kind-{_e(seg.kind)}{_selected(seg.key, selected_key)}"'
            f' data-label="{_e(seg.label)}" data-key="{seg.key}">'
            f"<title>{_e(c.text)}, {_e(c.sub)}</title>"
            f"{''.join(_line(p) for p in seg.pieces)}"
            f'<text class="caption" x="{c.x}" y="{c.y}"{_rotated(c)}>'
            f"{_two_lines(c)}</text></g>"
        )
    for op in d.openings:
        c = op.caption
        w(
            f'<g class="opening purpose-{_e(op.purpose)}'
            f"{f' status-{_e(op.status)}' if op.status else ''}"
            f'{_selected(op.key, selected_key)}" data-label="{_e(op.label)}" '
            f'data-key="{op.key}"><title>{_e(c.text)}, {_e(c.sub)}</title>'
            f"{_line(op.gap)}"
            f'<text class="caption" x="{c.x}" y="{c.y}" font-size="{font}"'
            f"{_rotated(c)}>{_two_lines(c)}</text></g>"
        )
    for dv in d.curtains:
        c = dv.caption
        sub = f", {_e(c.sub)}" if c.sub else ""
        w(
            f'<g class="device curtain kind-{_e(dv.kind)}'
            f'{_selected(dv.key, selected_key)}" data-label="{_e(dv.label)}" '
            f'data-key="{dv.key}"><title>{_e(dv.label)}{sub}</title>'
            f"{_line(dv.line)}"
            f'<text class="caption" x="{c.x}" y="{c.y}"{_rotated(c)}>'
            f"{_two_lines(c)}</text></g>"
        )
    for dv in d.mats:
        c = dv.caption
        w(
            f'<g class="device mat{_selected(dv.key, selected_key)}" '
            f'data-label="{_e(dv.label)}" data-key="{dv.key}">'
            f"<title>{_e(dv.label)}, {_e(c.sub)}</title>"
            f'<rect x="{dv.x}" y="{dv.y}" width="{dv.width}" height="{dv.height}"/>'
            f'<text class="caption" x="{c.x}" y="{c.y}">{_two_lines(c)}</text></g>'
        )
    for dv in d.scanners:
        c = dv.caption
        sub = f", {_e(c.sub)}" if c.sub else ""
        second = (
            f'<tspan class="sub" x="{c.x}" dy="1.2em">{_e(c.sub)}</tspan>'
            if c.sub
            else ""
        )
        w(
            f'<g class="device scanner{_selected(dv.key, selected_key)}" '
            f'data-label="{_e(dv.label)}" data-key="{dv.key}">'
            f"<title>{_e(dv.label)}{sub}</title>"
            + (
                f'<circle class="field" cx="{dv.x}" cy="{dv.y}" '
                f'r="{dv.field_radius:g}"/>'
                if dv.field_radius
                else ""
            )
            + f'<circle cx="{dv.x}" cy="{dv.y}" r="{dv.radius}"/>'
            f"{''.join(_line(m) for m in dv.marker)}"
            f'<text class="caption" x="{c.x}" y="{c.y}"><tspan x="{c.x}">'
            f"{_e(c.text)}</tspan>{second}</text></g>"
        )
    for gap in d.gaps:
        c = gap.caption
        ambiguous = " ambiguous" if gap.ambiguous else ""
        w(
            f'<g class="gap{ambiguous}"><title>{_e(c.text)}</title>'
            f"{_line(gap.line)}"
            f'<text class="caption halo" x="{c.x}" y="{c.y}"{_rotated(c)}>'
            f"{_e(c.text)}</text></g>"
        )
    if d.reach:
        reach = d.reach
        c = reach.caption
        w(
            f'<g class="reach"><title>{_e(c.text)}</title>{_line(reach.line)}'
            f"{_line(reach.leader, LEADER)}"
            f'<circle cx="{reach.line.x2}" cy="{reach.line.y2}" '
            f'r="{reach.dot_radius}"/>'
            f'<text class="caption halo" x="{c.x}" y="{c.y}">{_e(c.text)}</text></g>'
        )
    for cl in d.clearances:
        c = cl.caption
        w(
            f'<g class="clearance status-{_e(cl.status)}'
            f'{_selected(cl.key, selected_key)}">'
            f'<text class="caption halo" x="{c.x}" y="{c.y}">{_two_lines(c)}</text>'
            "</g>"
        )
    for ap in d.approaches:
        c = ap.caption
        w(
            f'<g class="approach status-fail"><title>{_e(c.text)}</title>'
            f'<polyline points="{_e(ap.points)}"/>'
            f'<text class="caption halo" x="{c.x}" y="{c.y}">{_e(c.text)}</text></g>'
        )
    for st in d.stations:
        c = st.caption
        w(
            f'<g class="station{_selected(st.key, selected_key)}" '
            f'data-label="{_e(st.label)}" data-key="{st.key}">'
            f"<title>{_e(st.label)}</title>"
            f'<circle cx="{st.x}" cy="{st.y}" r="{font}"/>'
            f'<text x="{c.x}" y="{c.y}">{_e(c.text)}</text></g>'
        )
    bar, bar_label = d.scale_bar, d.scale_bar_label
    w(
        f'<g class="scale">{_line(bar)}'
        f'<text x="{bar_label.x}" y="{bar_label.y}">{_e(bar_label.text)}</text></g>'
        "</svg>"
    )
    return "".join(out)
