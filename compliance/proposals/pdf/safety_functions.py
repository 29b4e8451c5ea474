"""The safety functions in the proposal: three sections, each a function from
the ``Kit`` to its flowables, as in ``sections``.

- Safety functions (ISO 13849-1): per function its PLr and where it comes
  from, the PL its subsystems reach, the PFHd and its basis, the verdict with
  its reasons, the block diagram (input → logic → output and the PL bar a–e)
  and the working; fails first.
- Safety requirements specification (ISO 13849-1:2023, 5.2): trigger,
  reaction, PLr, stop category, response time, reset and restart; what is
  still missing is marked to be stated.
- Validation plan (ISO 13849-2): the tests, what to record, and a table of
  results filled from the records, with blank lines to fill in by hand.

The block diagram uses the geometry the web page draws
(``compliance.safety_functions.diagram``, pure). Pure: reportlab only.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext as _
from reportlab.graphics.shapes import Drawing, Line, Polygon, Rect
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer

from compliance.documents import theme
from compliance.documents.flowables import Para, markup
from compliance.documents.kit import KEY_LEADING, KEY_SIZE
from compliance.documents.theme import BOLD, CONTENT_WIDTH, REGULAR
from compliance.proposals.pdf.charts import arrow_head, new_drawing, text_shape, wrap
from compliance.proposals.pdf.data import (
    FunctionStatus,
    PfhdFigure,
    PlannedTest,
    SafetyFunctionRow,
    Specification,
)
from compliance.proposals.pdf.kit import Kit
from compliance.safety_functions.diagram import BlockInput, Diagram, block_diagram

ORDER: dict[FunctionStatus, int] = {"fail": 0, "needs_evidence": 1, "pass": 2}
BLANK_LINES = 3  # rows of a results table, recorded or to fill in by hand


def _functions(p: Kit) -> list[SafetyFunctionRow]:
    """The cell's functions, fails first (the data's own order within)."""
    return sorted(p.data.safety_functions, key=lambda f: ORDER[f.status])


def _none_yet(p: Kit) -> list[Flowable]:
    return [
        p.para(
            _(
                "No safety function is specified for this cell yet. Until the "
                "safety functions are specified, the performance level (PL) of "
                "the safeguards is not verified against the PLr of the risk "
                "assessment (ISO 13849-1), and there is nothing to validate."
            )
        )
    ]


def _value_style(p: Kit, colour=theme.INK) -> ParagraphStyle:
    """Paragraphs in a label and value table, set as its plain cells are."""
    return ParagraphStyle(
        "value",
        parent=p.styles["body"],
        fontSize=KEY_SIZE,
        leading=KEY_LEADING,
        textColor=colour,
    )


def _to_be_stated(p: Kit) -> Paragraph:
    return Para(markup(_("To be stated")), _value_style(p, theme.CRITICAL))


# --- figures --------------------------------------------------------------------


def _mantissa_exponent(value: float) -> tuple[str, str]:
    """3.7e-9 as ("3.7", "-9"), four significant figures at most, as the
    calculators write it; ("", "-7") for 1e-7, written 10⁻⁷."""
    mantissa, exponent = f"{value:.3e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return ("" if mantissa == "1" else mantissa), str(int(exponent))


def sci(value: float) -> str:
    """A PFHd for a Paragraph: 3.7 × 10<super>-9</super>."""
    mantissa, exponent = _mantissa_exponent(value)
    power = f"10<super>{exponent}</super>"
    return f"{mantissa} × {power}" if mantissa else power


_SUPERSCRIPTS = re.compile("[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_PLAIN = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def with_powers(text: str) -> str:
    """Text made safe for a Paragraph, its superscript digits (10⁻⁹ in the
    calculators' working) set as raised text: the font has no glyphs for
    most of them."""
    return _SUPERSCRIPTS.sub(
        lambda m: f"<super>{m.group().translate(_PLAIN)}</super>", markup(text)
    )


def pfhd_markup(figure: PfhdFigure) -> str:
    if figure.per_hour is not None:
        return f"{sci(figure.per_hour)} /h"
    assert figure.low_per_hour is not None and figure.high_per_hour is not None
    return f"{sci(figure.low_per_hour)} ≤ PFHd &lt; {sci(figure.high_per_hour)} /h"


def _basis(figure: PfhdFigure, k1_source: str, pl: str | None) -> str:
    if figure.basis == "maker":
        return _("the makers' figures")
    if figure.basis == "table_k1":
        return _("ISO 13849-1 Table K.1, from %(source)s") % {
            "source": k1_source or _("a licensed copy")
        }
    if figure.basis == "alternative_procedure":
        return _("the value ISO 13849-1 assumes for the PL (alternative procedure)")
    if pl:
        return _(
            "the range of PL %(pl)s: Table K.1 is not available to give a figure"
        ) % {"pl": pl}
    return _("the range of the PL: Table K.1 is not available to give a figure")


def _basis_markup(function: SafetyFunctionRow) -> str:
    """What the function's PFHd rests on: one basis, or each subsystem's when
    they differ."""
    known = [
        (s.label, _basis(s.pfhd, function.k1_source, s.pl))
        for s in function.subsystems
        if s.pfhd is not None
    ]
    bases = list(dict.fromkeys(basis for _label, basis in known))
    if not bases and function.pfhd is not None:
        bases = [_basis(function.pfhd, function.k1_source, function.pl)]
    if len(bases) == 1:
        return markup(_("Basis: %(basis)s.") % {"basis": bases[0]})
    lines = [markup(_("Basis, per subsystem:"))]
    lines += [f"{markup(label)}: {markup(basis)}" for label, basis in known]
    return "<br/>".join(lines)


def _plr_text(function: SafetyFunctionRow) -> str:
    source = function.plr
    if source.plr is None:
        return _(
            "Not known: no hazard of the risk assessment with its risk "
            "estimated is linked to this function."
        )
    if source.signed:
        where = _("revision %(revision)s of the risk assessment, signed") % {
            "revision": source.revision
        }
    else:
        where = _("revision %(revision)s of the risk assessment: draft, not signed") % {
            "revision": source.revision
        }
    return f"PLr {source.plr} · {where}"


# --- 1. the safety functions: verification --------------------------------------


def verification(p: Kit) -> list[Flowable]:
    functions = _functions(p)
    if not functions:
        return _none_yet(p)
    counts = {key: 0 for key in ORDER}
    for function in functions:
        counts[function.status] += 1
    summary = _(
        "%(total)s safety functions: %(fail)s fail, %(needs)s need evidence, "
        "%(pass)s pass."
    ) % {
        "total": len(functions),
        "fail": counts["fail"],
        "needs": counts["needs_evidence"],
        "pass": counts["pass"],
    }
    widths = [24 * mm, 62 * mm, 50 * mm, 15 * mm, 15 * mm]
    story: list[Flowable] = [
        p.para(summary),
        p.para(
            _(
                "A function passes when its PLr comes from the signed risk "
                "assessment, the PL its subsystems reach is at least as high, "
                "and every test of its validation plan is recorded as passed. "
                "A calculation alone is a design figure: without the validation "
                "records the function needs evidence."
            ),
            "small",
        ),
        Spacer(1, 3 * mm),
        p.table(
            [_("Verdict"), _("Safety function"), _("Safeguard"), _("PLr"), _("PL")],
            [
                [
                    p.statuses[f.status],
                    f.name,
                    f.safeguard,
                    f.plr.plr or "—",
                    f.pl or "—",
                ]
                for f in functions
            ],
            widths,
            extra=[
                *p.status_style([f.status for f in functions], 0),
                ("ALIGN", (3, 0), (4, -1), "CENTER"),
            ],
        ),
    ]
    for function in functions:
        story += _function(p, function)
    return story


def _function(p: Kit, function: SafetyFunctionRow) -> list[Flowable]:
    value = _value_style(p)
    status_style = _value_style(p, theme.STATUS_COLOURS[function.status])
    verdict: list[Flowable] = [
        Para(f"<b>{markup(p.statuses[function.status])}</b>", status_style),
        *(
            Para(with_powers(reason), value, bulletText="•")
            for reason in function.reasons
        ),
    ]
    safeguard = function.safeguard
    if function.device:
        safeguard = f"{safeguard} · {function.device}"
    plr: list[Flowable] = [Para(markup(_plr_text(function)), value)]
    if function.plr.hazards:
        plr.append(
            Para(
                markup(_("From the hazards it mitigates:")),
                _value_style(p, theme.MUTED),
            )
        )
        plr += [
            Para(markup(f"{h.label} ({h.value})"), value, bulletText="•")
            for h in function.plr.hazards
        ]
    if function.pfhd is None:
        pfhd: Flowable | str = "—"
    else:
        pfhd = Para(
            f"{pfhd_markup(function.pfhd)}<br/>{_basis_markup(function)}", value
        )
    rows = [
        (_("Safeguard"), safeguard),
        (_("PLr"), plr),
        (_("PL reached"), f"PL {function.pl}" if function.pl else _("Not computed")),
        (_("PFHd"), pfhd),
        (_("Verdict"), verdict),
    ]
    story: list[Flowable] = [
        p.para(function.name, "h2"),
        p.key_values(rows, label_width=32 * mm),  # type: ignore[arg-type]
    ]
    if function.subsystems:
        story += [
            Spacer(1, 3 * mm),
            KeepTogether(
                [
                    block_figure(function, CONTENT_WIDTH),
                    p.para(
                        _(
                            "The subsystems in series, from the sensor to the "
                            "actuator, each with the PL it reaches; at the right, "
                            "the PL of the function on the scale from a to e, "
                            "and the PLr it must reach."
                        ),
                        "small",
                    ),
                ]
            ),
        ]
    return story


def working(p: Kit) -> list[Flowable]:
    """The appendix: how each function's PL was computed, part by part."""
    functions = _functions(p)
    if not functions:
        return _none_yet(p)
    story: list[Flowable] = []
    for function in functions:
        story += [p.para(function.name, "h2"), *_working(p, function)]
    return story


def _certainty(p: Kit, one_source: bool) -> Paragraph:
    if one_source:
        text = _(
            "Rests on one public source: treat as a rough figure until checked "
            "against the standard."
        )
    else:
        text = f"{_('Certainty')}: {_('two public sources')}"
    return p.para(text, "small")


def _bullets(p: Kit, items) -> list[Flowable]:
    """Lines of working, one bullet each, their powers of ten raised."""
    return [
        Para(with_powers(item), p.styles["bullet"], bulletText="•") for item in items
    ]


def _working(p: Kit, function: SafetyFunctionRow) -> list[Flowable]:
    story: list[Flowable] = [p.para(_("Working"), "h3")]
    # A part's heading stays with its first lines.
    part = ParagraphStyle(
        "part", parent=p.styles["body"], spaceBefore=3, keepWithNext=1
    )
    route = ParagraphStyle("route", parent=p.styles["small"], keepWithNext=1)
    for subsystem in function.subsystems:
        pl = f"PL {subsystem.pl}" if subsystem.pl else _("PL not computed")
        story.append(
            Para(
                f"<b>{markup(subsystem.role_label)} · {markup(subsystem.label)}</b>"
                f" · {markup(pl)}",
                part,
            )
        )
        story.append(Para(markup(subsystem.route), route))
        story += _bullets(p, subsystem.steps)
        story += _bullets(
            p, [_("Warning: %(text)s") % {"text": w} for w in subsystem.warnings]
        )
        story += _bullets(p, subsystem.problems)
        if subsystem.steps:
            story.append(_certainty(p, subsystem.one_source))
        story.append(Spacer(1, 1.5 * mm))
    if function.steps or function.warnings:
        pl = f"PL {function.pl}" if function.pl else _("PL not computed")
        title = _("The subsystems in series")
        story.append(Para(f"<b>{markup(title)}</b> · {markup(pl)}", part))
        story += _bullets(p, function.steps)
        story += _bullets(
            p, [_("Warning: %(text)s") % {"text": w} for w in function.warnings]
        )
        if function.clause:
            story.append(p.para(function.clause, "small"))
        story.append(_certainty(p, function.one_source))
    if len(story) == 1:
        story.append(p.para(_("No working: the PL cannot be computed yet."), "small"))
    return story


# --- the block diagram --------------------------------------------------------------


def _pfhd_shapes(
    drawing: Drawing, x: float, y: float, figure: PfhdFigure, size: float
) -> None:
    """A PFHd centred on x, "PFHd 3.7 × 10⁻⁹ /h", its exponent raised and
    smaller (the font has no superscript digits)."""
    if figure.per_hour is not None:
        parts = [("PFHd ", False), *_sci_parts(figure.per_hour), (" /h", False)]
    else:
        assert figure.low_per_hour is not None and figure.high_per_hour is not None
        parts = [
            *_sci_parts(figure.low_per_hour),
            (" – ", False),
            *_sci_parts(figure.high_per_hour),
            (" /h", False),
        ]
    small = size * 0.72
    widths = [
        stringWidth(text, REGULAR, small if raised else size) for text, raised in parts
    ]
    left = x - sum(widths) / 2
    for (text, raised), width in zip(parts, widths, strict=True):
        drawing.add(
            text_shape(
                left,
                y + (size * 0.4 if raised else 0),
                text,
                small if raised else size,
                colour=theme.MUTED,
            )
        )
        left += width


def _sci_parts(value: float) -> list[tuple[str, bool]]:
    mantissa, exponent = _mantissa_exponent(value)
    return [(f"{mantissa} × 10" if mantissa else "10", False), (exponent, True)]


def block_figure(function: SafetyFunctionRow, width: float) -> Drawing:
    """The function's subsystems as boxes joined by arrows, and the PL bar
    with the PL reached filled and the PLr marked, fitted to ``width``."""
    diagram = block_diagram(
        [
            BlockInput(role=s.role, label=s.label, detail="", pl=s.pl)
            for s in function.subsystems
        ],
        pl=function.pl,
        plr=function.plr.plr,
    )
    scale = min(1.0, width / diagram.width)
    # Three boxes fit the page at about 0.7; the text of more shrinks a little.
    text = max(0.7, min(1.0, scale / 0.69))
    height = diagram.height * scale
    drawing = new_drawing(width, height)

    def at(x: float, y: float) -> tuple[float, float]:
        """A point of the diagram (y down) on the drawing (y up)."""
        return x * scale, height - y * scale

    for block, subsystem in zip(diagram.blocks, function.subsystems, strict=True):
        x, top = at(block.x, block.y)
        w, h = block.width * scale, block.height * scale
        y = top - h
        known = block.pl is not None
        drawing.add(
            Rect(
                x,
                y,
                w,
                h,
                rx=2,
                ry=2,
                fillColor=theme.PANEL if known else theme.WHITE,
                strokeColor=theme.ACCENT if known else theme.MUTED,
                strokeWidth=0.9,
                strokeDashArray=None if known else [2, 1.5],
            )
        )
        cx = x + w / 2
        drawing.add(
            text_shape(
                cx,
                top + 3.5,
                subsystem.role_label,
                6.5 * text,
                colour=theme.MUTED,
                anchor="middle",
            )
        )
        size = 7.5 * text
        lines = wrap(block.label, w - 8, size, max_lines=2, font=BOLD)
        line_y = top - 10.5 * text
        for line in lines:
            drawing.add(text_shape(cx, line_y, line, size, anchor="middle", bold=True))
            line_y -= 8.5 * text
        pl = f"PL {block.pl}" if block.pl else _("PL not computed")
        drawing.add(
            text_shape(
                cx,
                y + 13.5 * text,
                pl,
                size,
                colour=theme.ACCENT if known else theme.CRITICAL,
                anchor="middle",
                bold=known,
            )
        )
        if subsystem.pfhd is not None:
            _pfhd_shapes(drawing, cx, y + 4.5 * text, subsystem.pfhd, 6.5 * text)
    for arrow in diagram.arrows:
        start, tip = at(arrow.x1, arrow.y1), at(arrow.x2, arrow.y2)
        drawing.add(Line(*start, *tip, strokeColor=theme.INK, strokeWidth=0.9))
        arrow_head(drawing, tip, start, theme.INK, length=4)
    _pl_bar(drawing, diagram, at, scale)
    return drawing


def _pl_bar(
    drawing: Drawing,
    diagram: Diagram,
    at: Callable[[float, float], tuple[float, float]],
    scale: float,
) -> None:
    if diagram.meets is None:
        fill = theme.ACCENT
    else:
        fill = theme.STATUS_COLOURS["pass" if diagram.meets else "fail"]
    bar_w, level_h = diagram.bar_width * scale, diagram.level_height * scale
    top_level = min(diagram.levels, key=lambda level: level.y)
    x, top = at(diagram.bar_x, top_level.y)
    drawing.add(text_shape(x + bar_w / 2, top + 4, "PL", 7, anchor="middle", bold=True))
    for level in diagram.levels:
        _x, level_top = at(diagram.bar_x, level.y)
        y = level_top - level_h
        drawing.add(
            Rect(
                x,
                y,
                bar_w,
                level_h,
                fillColor=fill if level.filled else theme.WHITE,
                strokeColor=theme.RULE,
                strokeWidth=0.6,
            )
        )
        drawing.add(
            text_shape(
                x + bar_w / 2,
                y + level_h / 2 - 2.6,
                level.pl,
                7.5,
                colour=theme.WHITE if level.filled else theme.MUTED,
                anchor="middle",
                bold=level.filled,
            )
        )
        if level.required:
            mid = y + level_h / 2
            right = x + bar_w
            drawing.add(
                Polygon(
                    [right + 1, mid, right + 6, mid + 3.5, right + 6, mid - 3.5],
                    fillColor=theme.CRITICAL,
                    strokeColor=None,
                )
            )
            drawing.add(
                text_shape(
                    right + 8,
                    mid - 2.6,
                    f"PLr {level.pl}",
                    7.5,
                    colour=theme.CRITICAL,
                    bold=True,
                )
            )
    if diagram.pl is None:
        drawing.add(
            text_shape(
                x + bar_w / 2,
                at(0, diagram.height)[1] + 2,
                _("PL not computed"),
                6.5,
                colour=theme.MUTED,
                anchor="middle",
            )
        )


# --- 2. the safety requirements specification ----------------------------------------


def specification(p: Kit) -> list[Flowable]:
    functions = _functions(p)
    if not functions:
        return _none_yet(p)
    clause = next(
        (f.specification.clause for f in functions if f.specification.clause), ""
    )
    story: list[Flowable] = [
        p.para(
            _(
                "For each safety function, what it must do: its trigger and "
                "reaction, the PLr it must reach, the stop category, the "
                "response time the minimum distance allows, and its reset and "
                "restart. What is not yet stated is marked to be stated."
            )
        ),
    ]
    if clause:
        story.append(p.para(clause, "small"))
    for function in functions:
        story += _specification(p, function, function.specification)
    return story


def _stated(p: Kit, text: str) -> str | Paragraph:
    return text if text.strip() else _to_be_stated(p)


def _specification(
    p: Kit, function: SafetyFunctionRow, spec: Specification
) -> list[Flowable]:
    safeguard = function.safeguard
    if function.device:
        safeguard = f"{safeguard} · {function.device}"
    if spec.required_response_time_ms is not None:
        response: str | Paragraph = f"{theme.number(spec.required_response_time_ms)} ms"
    elif spec.response_time_needed:
        response = _to_be_stated(p)
    else:
        response = _("Not bound by a minimum distance")
    plr = _plr_text(function) if function.plr.plr else _to_be_stated(p)
    rows: list[tuple[str, object]] = [
        (_("What it does"), function.name),
        (_("Safeguard"), safeguard),
        (_("Trigger"), _stated(p, spec.trigger)),
        (_("Reaction"), _stated(p, spec.reaction)),
        (_("PLr"), plr),
        (_("Stop category"), _stated(p, spec.stop_category)),
        (_("Required response time"), response),
        (_("Reset"), _stated(p, spec.reset)),
        (_("Restart"), _stated(p, spec.restart)),
        (_("Muting"), _("Used") if spec.uses_muting else _("Not used")),
    ]
    if spec.collaborative_mode:
        rows.append((_("Collaborative mode"), spec.collaborative_mode))
    story: list[Flowable] = [
        p.para(function.name, "h2"),
        p.key_values(rows, label_width=44 * mm),  # type: ignore[arg-type]
    ]
    if spec.gaps:
        story += [
            p.para(_("To be stated"), "h3"),
            *p.bullets(spec.gaps),
        ]
    return [KeepTogether(story)]


# --- 3. the validation plan -----------------------------------------------------------


def validation(p: Kit) -> list[Flowable]:
    functions = _functions(p)
    if not functions:
        return _none_yet(p)
    clause = next((f.plan_clause for f in functions if f.plan_clause), "")
    story: list[Flowable] = [
        p.para(
            _(
                "The tests that validate each safety function on the real cell. "
                "Each result is recorded with who performed the test, when, the "
                "instrument used, the value measured and whether it passed; the "
                "blank lines are for results recorded by hand. A function is "
                "validated when every test of its plan is recorded as passed."
            )
        ),
    ]
    if clause:
        story.append(p.para(clause, "small"))
    for function in functions:
        story.append(p.para(function.name, "h2"))
        if not function.plan:
            story.append(p.para(_("No test is planned."), "small"))
        for number, test in enumerate(function.plan, start=1):
            story.append(_test(p, number, test))
    return story


RESULT_WIDTHS = [38 * mm, 22 * mm, 44 * mm, 38 * mm, 24 * mm]


def _test(p: Kit, number: int, test: PlannedTest) -> Flowable:
    rows: list[list[str]] = []
    outcomes: list[str] = []
    for result in test.results:
        rows.append(
            [
                result.performed_by,
                f"{result.performed_on:%Y-%m-%d}",
                result.instrument or "—",
                result.value or "—",
                p.statuses["pass" if result.passed else "fail"],
            ]
        )
        outcomes.append("pass" if result.passed else "fail")
    blank = max(BLANK_LINES - len(rows), 1)
    first_blank = len(rows) + 1
    choice = f"{p.statuses['pass']} / {p.statuses['fail']}"
    rows += [["", "", "", "", choice] for _row in range(blank)]
    extra: list[tuple] = [
        ("TEXTCOLOR", (4, first_blank), (4, -1), theme.RULE),
        ("TOPPADDING", (0, first_blank), (-1, -1), 9),
        ("BOTTOMPADDING", (0, first_blank), (-1, -1), 9),
    ]
    extra += [
        ("TEXTCOLOR", (4, row), (4, row), theme.STATUS_COLOURS[outcome])
        for row, outcome in enumerate(outcomes, start=1)
    ]
    if outcomes:
        extra.append(("FONT", (4, 1), (4, len(outcomes)), BOLD, 8.0, 10.4))
    table = p.table(
        [
            _("Performed by"),
            _("Date"),
            _("Instrument"),
            _("Value measured"),
            _("Pass or fail"),
        ],
        rows,
        RESULT_WIDTHS,
        extra=extra,
    )
    return KeepTogether(
        [
            p.para(f"{number}. {test.title}", "h3"),
            p.para(test.procedure),
            Para(
                f"<b>{markup(_('Record'))}:</b> {markup(test.record)}",
                p.styles["small"],
            ),
            Spacer(1, 1.5 * mm),
            table,
            Spacer(1, 2 * mm),
        ]
    )
