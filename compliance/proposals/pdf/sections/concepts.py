"""The guarding concepts side by side (issue 27): the recommendation, the
offered concepts' plans at one scale, a table with a column per concept
(checks, the national legal route, the collaborative speed, cost, weeks to
the PoC start, floor space) and the concepts not offered with the reason.
A function from the ``Kit`` to the flowables the section adds after its
heading; ``comparison_table`` gives the same table as text (the register's
workbook writes it as a sheet)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from compliance.documents import theme
from compliance.documents.flowables import Lines
from compliance.documents.kit import CELL_LEADING, CELL_PADDING, CELL_SIZE
from compliance.documents.theme import CONTENT_WIDTH, REGULAR
from compliance.proposals.pdf import charts, plan_figure
from compliance.proposals.pdf.data import (
    CellSection,
    ConceptColumn,
    ConceptsSection,
    Status,
)
from compliance.proposals.pdf.kit import Kit, status_labels

# A cell's text: lines, each with the status whose colour it takes (None: ink).
CellLines = list[tuple[str, Status | None]]

# The national checks listed in a concept's column, fails first; the rest
# are counted (a table row cannot run over a page).
LAW_LINES = 6
# At most this many concepts side by side in one table or row of plans.
PER_TABLE = 3
PLANS_PER_ROW = 2
PLAN_GAP = 6 * mm
PLAN_MAX_HEIGHT = 85 * mm
LABEL_WIDTH = 34 * mm
BULLET = "• "


def concepts(p: Kit) -> list[Flowable]:
    section = p.data.concepts
    assert section is not None
    story: list[Flowable] = [
        p.para(
            _(
                "The same robot and task with different guarding, each checked "
                "against the same standards and law, priced and scheduled as the "
                "cell is."
            )
        ),
        p.para(_("Recommendation"), "h2"),
        *p.bullets(section.recommendation),
    ]
    chosen = [c.name for c in section.offered if c.chosen]
    if chosen:
        story.append(
            p.para(_("Chosen: %(name)s.") % {"name": ", ".join(chosen)}, "body")
        )
    if section.offered:
        story += _plans(p, section.offered)
        story.append(p.para(_("Side by side"), "h2"))
        # A table that fits a page is kept on one.
        for chunk in _chunks(section.offered):
            story.append(KeepTogether([_table(p, section, chunk), Spacer(1, 4 * mm)]))
    if section.not_offered:
        story += [
            p.para(_("Not offered"), "h2"),
            *p.bullets(
                f"{c.name}: {' '.join(c.reasons)}" if c.reasons else c.name
                for c in section.not_offered
            ),
        ]
    return story


def _chunks(columns: Sequence[ConceptColumn]) -> list[Sequence[ConceptColumn]]:
    """The concepts in tables of at most ``PER_TABLE``, as even as can be."""
    tables = math.ceil(len(columns) / PER_TABLE)
    size = math.ceil(len(columns) / tables)
    return [columns[i : i + size] for i in range(0, len(columns), size)]


# --- the plans ------------------------------------------------------------------


def _plan_section(column: ConceptColumn) -> CellSection:
    return CellSection(
        robot=(),
        task="",
        layout=column.layout,
        failing_openings=column.failing_openings,
        uncovered=column.uncovered,
    )


def shared_scale(columns: Sequence[ConceptColumn], width: float, height: float) -> int:
    """The one scale (1:N) at which the largest plan fits ``width`` by
    ``height``: every concept is drawn at it."""
    plans = [plan_figure.plan_of(_plan_section(c)) for c in columns]
    return plan_figure.choose_scale(
        max(plan.view_width for plan in plans),
        max(plan.view_height for plan in plans),
        width,
        height,
    )


def _plans(p: Kit, columns: Sequence[ConceptColumn]) -> list[Flowable]:
    per_row = min(PLANS_PER_ROW, len(columns))
    width = (CONTENT_WIDTH - PLAN_GAP * (per_row - 1)) / per_row
    scale = shared_scale(columns, width, PLAN_MAX_HEIGHT)
    figures = []
    for column in columns:
        drawing, _scale = plan_figure.layout_figure(
            _plan_section(column), width, PLAN_MAX_HEIGHT, scale=scale
        )
        figures.append([p.para(_title(column), "h3"), drawing])
    story: list[Flowable] = [p.para(_("Plans at one scale"), "h2")]
    for start in range(0, len(figures), per_row):
        row = figures[start : start + per_row]
        row += [""] * (per_row - len(row))
        table = Table(
            [row],
            colWidths=[
                width + (PLAN_GAP if i < per_row - 1 else 0) for i in range(per_row)
            ],
            hAlign="LEFT",
        )
        table.setStyle(
            TableStyle(
                [
                    # The bundled face, so that no other font is in the PDF.
                    ("FONT", (0, 0), (-1, -1), REGULAR, CELL_SIZE),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
                ]
            )
        )
        story.append(table)
    story.append(
        KeepTogether(
            [
                Spacer(1, 1 * mm),
                _legend(columns),
                Spacer(1, 1 * mm),
                p.para(
                    _(
                        "Every plan is drawn to the same scale, 1:%(scale)s on A4, "
                        "so that their sizes compare; lengths in millimetres, "
                        "guard heights marked h. An opening in red is not "
                        "guarded."
                    )
                    % {"scale": f"{scale:,}"},
                    "small",
                ),
            ]
        )
    )
    return story


def _legend(columns: Sequence[ConceptColumn]) -> Flowable:
    layouts = [c.layout for c in columns]
    kinds = {s.kind for layout in layouts for s in layout.guard_segments}
    placed = {d.kind for layout in layouts for d in layout.devices if d.opening}
    shown = [
        ("fence", _("Fence"), "fence" in kinds),
        ("wall", _("Wall"), "wall" in kinds),
        ("machine_body", _("Machine body"), "machine_body" in kinds),
        (
            "opening",
            _("Opening"),
            any(s.openings for layout in layouts for s in layout.guard_segments),
        ),
        (
            "curtain",
            _("Light curtain or sensing device"),
            bool(placed & charts.SENSING),
        ),
        ("door", _("Interlocked door"), bool(placed - charts.SENSING)),
        ("zone", _("Hazard zone"), True),
        (
            "station",
            _("Operator station"),
            any(layout.operator_stations for layout in layouts),
        ),
    ]
    return charts.legend(
        [(symbol, text) for symbol, text, present in shown if present], CONTENT_WIDTH
    )


def _title(column: ConceptColumn) -> str:
    marks = _marks(column)
    return f"{column.name} · {marks}" if marks else column.name


def _marks(column: ConceptColumn) -> str:
    marks = []
    if column.recommended:
        marks.append(_("recommended"))
    if column.chosen:
        marks.append(_("chosen"))
    return ", ".join(marks)


# --- the table ------------------------------------------------------------------


def comparison_rows(
    section: ConceptsSection, columns: Sequence[ConceptColumn]
) -> list[tuple[str, list[CellLines]]]:
    """The table's rows: a label and, per concept, its cell's lines."""
    law_label = (
        _("Legal route (%(country)s)") % {"country": section.country}
        if section.country
        else _("Legal route")
    )
    return [
        (_("Fails"), [[(str(c.fails), "fail" if c.fails else None)] for c in columns]),
        (_("Needs evidence"), [[(str(c.needs_evidence), None)] for c in columns]),
        (_("Passes"), [[(str(c.passes), None)] for c in columns]),
        (law_label, [_law(c) for c in columns]),
        (_("Collaborative speed"), [_speed(c) for c in columns]),
        (_("Cost (range)"), [_cost(c) for c in columns]),
        *(
            [(_("Engineering and installation work"), [_work(c) for c in columns])]
            if any(c.work or c.work_unknown for c in columns)
            else []
        ),
        (_("PoC start, physical first"), [_weeks(c) for c in columns]),
        *(
            [
                (
                    _("Certifications not priced"),
                    [
                        [(t, None) for t in c.certifications] or [("—", None)]
                        for c in columns
                    ],
                )
            ]
            if any(c.certifications for c in columns)
            else []
        ),
        (_("Floor space"), [_floor(c) for c in columns]),
    ]


def _law(column: ConceptColumn) -> CellLines:
    if not column.national_rules:
        return [(_("No national rules of this country are checked here."), None)]
    if not column.law:
        return [(_("Every national rule checked passes."), "pass")]
    statuses = status_labels()
    lines: CellLines = []
    for check in column.law[:LAW_LINES]:
        # A message that starts with its subject names it already.
        about = (
            f"{check.subject}: "
            if check.subject and not check.text.startswith(check.subject)
            else ""
        )
        citation = f" ({check.citation})" if check.citation else ""
        lines.append(
            (
                f"{BULLET}{statuses[check.status]} · {about}{check.text}{citation}",
                check.status,
            )
        )
    more = len(column.law) - LAW_LINES
    if more > 0:
        lines.append(
            (
                ngettext("and %(count)s more check", "and %(count)s more checks", more)
                % {"count": theme.number(more)},
                None,
            )
        )
    return lines


def _speed(column: ConceptColumn) -> CellLines:
    speed = column.speed
    if speed is None and "pfl" in column.layout.robot.collaborative_modes:
        # Power and force limiting, but no speed could be checked yet (no
        # body region exposed, or no programmed speed recorded). Speed and
        # separation monitoring has no such speed: its scanner's field is
        # judged on the plan.
        return [(_("Not checked yet"), "needs_evidence")]
    if speed is None:
        return [("—", None)]
    lines: CellLines = [
        (
            _(
                "Programmed %(programmed)s mm/s; %(region)s permits "
                "%(permissible)s mm/s."
            )
            % {
                "programmed": theme.number(speed.programmed_mm_s),
                "region": speed.region,
                "permissible": theme.number(speed.permissible_mm_s),
            },
            speed.status if speed.status != "pass" else None,
        )
    ]
    if speed.slower_by is not None:
        lines.append(
            (
                _("At that speed the motions take %(factor)s times as long.")
                % {"factor": theme.number(speed.slower_by)},
                None,
            )
        )
    return lines


def _cost(column: ConceptColumn) -> CellLines:
    """A range with its currency, never one figure: in the proposal's
    currency once every line converts, until then one per currency; those to
    be quoted counted."""
    parts = []
    if column.cost is not None:
        parts.append(_money(column.cost.currency, column.cost.low, column.cost.high))
    # Per currency; data stored before issue 29 kept some apart.
    for total in (*column.costs, *column.not_converted):
        parts.append(_money(total.currency, total.low, total.high))
    if column.unpriced_lines:
        parts.append(
            ngettext(
                "%(count)s item to be quoted",
                "%(count)s items to be quoted",
                column.unpriced_lines,
            )
            % {"count": theme.number(column.unpriced_lines)}
        )
    if not parts:
        return [("—", None)]
    return [(parts[0], None), *((f"+ {part}", None) for part in parts[1:])]


def _work(column: ConceptColumn) -> CellLines:
    """The work no line prices, costed; the activities without a cost
    counted (never left out of a figure that looks complete)."""
    parts = []
    if column.work is not None:
        parts.append(_money(column.work.currency, column.work.low, column.work.high))
    if column.work_unknown:
        parts.append(
            ngettext(
                "%(count)s activity without a cost",
                "%(count)s activities without a cost",
                column.work_unknown,
            )
            % {"count": theme.number(column.work_unknown)}
        )
    if not parts:
        return [("—", None)]
    return [(parts[0], None), *((f"+ {part}", None) for part in parts[1:])]


def _money(currency: str, low, high) -> str:
    """A range with its currency, both ends written even where they meet."""
    return f"{currency} {theme.number(low)}–{theme.number(high)}"


def _weeks(column: ConceptColumn) -> CellLines:
    weeks = column.weeks_to_poc
    if weeks is None:
        return [("—", None)]
    text = _("%(weeks)s weeks") % {"weeks": theme.weeks_range(weeks.low, weeks.high)}
    return [(text, None)]


def _floor(column: ConceptColumn) -> CellLines:
    # None, or no area at all (guards in one straight run enclose none).
    if not column.floor_m2:
        return [("—", None)]
    return [(f"{theme.number(column.floor_m2)} m²", None)]


def _header(column: ConceptColumn) -> str:
    marks = _marks(column)
    return f"{column.name}\n{marks}" if marks else column.name


def _table(p: Kit, section: ConceptsSection, columns: Sequence[ConceptColumn]) -> Table:
    width = (CONTENT_WIDTH - LABEL_WIDTH) / len(columns)
    widths = [LABEL_WIDTH, *([width] * len(columns))]
    rows = [
        [label, *(_cell(p, lines, width) for lines in cells)]
        for label, cells in comparison_rows(section, columns)
    ]
    return p.table(
        ["", *(_header(c) for c in columns)],
        rows,
        widths,
        extra=[("TEXTCOLOR", (0, 1), (0, -1), theme.MUTED)],
    )


def _cell(p: Kit, lines: CellLines, width: float) -> str | Lines:
    """A cell's lines broken to fit, each in its status's colour; a bulleted
    one with its continuation lines indented under its text."""
    if len(lines) == 1 and lines[0][1] is None:
        return lines[0][0]
    fit = width - 2 * CELL_PADDING
    indent = p.text.width(BULLET, REGULAR, CELL_SIZE)
    pad = " " * round(indent / p.text.width(" ", REGULAR, CELL_SIZE))
    out = []
    for text, status in lines:
        colour = theme.STATUS_COLOURS[status] if status else theme.INK
        if text.startswith(BULLET):
            wrapped = p.text.lines(
                text.removeprefix(BULLET), fit - indent, REGULAR, CELL_SIZE
            )
            wrapped = [BULLET + wrapped[0], *(pad + line for line in wrapped[1:])]
        else:
            wrapped = p.text.lines(text, fit, REGULAR, CELL_SIZE)
        out += [(line, REGULAR, colour, 0.0) for line in wrapped]
    return Lines(out, CELL_SIZE, CELL_LEADING)


def comparison_table(
    section: ConceptsSection,
) -> tuple[list[str], list[list[str]], list[str]]:
    """The table as text, one column per offered concept: its header, its
    rows (a cell's lines joined by line breaks) and the notes under it (the
    recommendation, the chosen concept, the concepts not offered)."""
    columns = section.offered
    header = [_("Guarding concept"), *(_title(c) for c in columns)]
    rows = [
        [label, *("\n".join(text for text, _status in lines) for lines in cells)]
        for label, cells in comparison_rows(section, columns)
    ]
    notes = [_("Recommendation"), *section.recommendation]
    chosen = [c.name for c in columns if c.chosen]
    if chosen:
        notes.append(_("Chosen: %(name)s.") % {"name": ", ".join(chosen)})
    if section.not_offered:
        notes += [
            _("Not offered"),
            *(f"{c.name}: {' '.join(c.reasons)}" for c in section.not_offered),
        ]
    return header, rows, notes
