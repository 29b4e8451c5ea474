"""The cell: robot, application, the plan of the layout and the Guarding table. A
function from the ``Kit`` to the flowables the section adds after its heading."""

from __future__ import annotations

import math

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    Spacer,
)

from cells.exchange import CellDocument
from cells.naming import layout_names
from compliance.documents import theme
from compliance.documents.theme import CONTENT_WIDTH
from compliance.proposals.pdf import charts, plan_figure
from compliance.proposals.pdf.data import CellSection
from compliance.proposals.pdf.kit import Kit
from compliance.proposals.pdf.program_data import ProgramPath


def cell(p: Kit) -> list[Flowable]:
    cell = p.data.cell
    assert cell is not None
    story: list[Flowable] = [
        p.para(_("Robot"), "h2"),
        p.key_values([(row.label, row.value) for row in cell.robot]),
        p.para(_("Task"), "h2"),
        p.para(cell.task or "—"),
        p.para(_("Collaborative operation"), "h2"),
    ]
    if cell.collaborative_modes:
        story.append(p.para(", ".join(cell.collaborative_modes)))
        if cell.collaborative_parameters:
            story.append(Spacer(1, 2 * mm))
            story.append(
                p.key_values(
                    [(r.label, r.value) for r in cell.collaborative_parameters]
                )
            )
    else:
        story.append(
            p.para(_("None: the robot is not set up for collaborative operation."))
        )

    drawing, scale = plan_figure.layout_figure(cell, CONTENT_WIDTH, 150 * mm)
    layout = cell.layout
    kinds = {segment.kind for segment in layout.guard_segments}
    placed = {d.kind for d in layout.devices if d.opening is not None}
    shown = [
        *((kind, word, kind in kinds) for kind, word in _guard_kinds().items()),
        (
            "opening",
            _("Opening"),
            any(segment.openings for segment in layout.guard_segments),
        ),
        (
            "curtain",
            _("Light curtain or sensing device"),
            bool(placed & charts.SENSING),
        ),
        ("door", _("Interlocked door"), bool(placed - charts.SENSING)),
        ("zone", _("Hazard zone"), True),
        ("distance", _("Minimum distance S"), bool(cell.distances)),
        ("station", _("Operator station"), bool(layout.operator_stations)),
        *_path_legend(cell),
    ]
    key = charts.legend(
        [(symbol, text) for symbol, text, present in shown if present],
        CONTENT_WIDTH,
    )
    caption = _(
        "Plan view to scale 1:%(scale)s on A4; lengths in millimetres, guard "
        "heights marked h."
    ) % {"scale": f"{scale:,}"}
    if cell.distances:
        caption += " " + _(
            "The dashed outline round the hazard zone marks each device's "
            "minimum distance S: the device must stand on or outside it (green: "
            "kept, red: not kept). A red dashed line in the guarding is an "
            "unguarded gap."
        )
    if drawing.left_out_captions:
        caption += " " + ngettext(
            "%(count)s label that would cover another is left out of the plan; "
            "the tables below give every guard, opening and minimum distance.",
            "%(count)s labels that would cover others are left out of the plan; "
            "the tables below give every guard, opening and minimum distance.",
            drawing.left_out_captions,
        ) % {"count": f"{drawing.left_out_captions:,}"}
    figure: list[Flowable] = [
        p.para(_("Layout"), "h2"),
        drawing,
        Spacer(1, 2 * mm),
        key,
        Spacer(1, 1 * mm),
        p.para(caption, "small"),
    ]
    unplaced = [d.label for d in cell.layout.devices if d.opening is None]
    if unplaced:
        # With the figure it speaks of, not alone at the top of the next page.
        figure.append(
            p.para(
                _("Devices not placed at an opening: %(devices)s.")
                % {"devices": ", ".join(unplaced)},
                "small",
            )
        )
    story.append(KeepTogether(figure))
    if cell.programs:
        story += _programs(p, cell)
    if drawing.left_out_captions:
        story += _guarding(p, layout)
    if cell.distances:
        widths = [54 * mm, 38 * mm, 38 * mm, 36 * mm]
        story += [
            p.para(_("Minimum distances"), "h2"),
            p.table(
                [
                    _("Device"),
                    _("Required minimum distance S (mm)"),
                    _("Actual distance (mm)"),
                    _("Status"),
                ],
                [
                    [
                        d.device,
                        theme.number(d.required_mm),
                        "—" if d.actual_mm is None else theme.number(d.actual_mm),
                        p.statuses[d.status],
                    ]
                    for d in cell.distances
                ],
                widths,
                right=(1, 2),
                extra=p.status_style([d.status for d in cell.distances], 3),
            ),
        ]
    # The evidence of KCs safety certification (OSH Act Art. 84) on file.
    certified = [d for d in layout.devices if d.kcs_certificate_no]
    if certified:
        story += [
            p.para(_("KCs safety certificates"), "h2"),
            p.table(
                [_("Device"), _("KCs certificate number")],
                [[d.label, d.kcs_certificate_no] for d in certified],
                [83 * mm, 83 * mm],
            ),
        ]
    return story


def _path_legend(cell: CellSection) -> list[tuple[str, str, bool]]:
    """The legend's entries for the robot programs' paths, those drawn."""
    verdicts = {piece.verdict for path in cell.programs for piece in path.pieces}
    return [
        ("path_fail", _("Robot program: faster than permitted"), "fail" in verdicts),
        (
            "path_measure",
            _("Robot program: clamping, to be measured"),
            "measure" in verdicts,
        ),
        (
            "path",
            _("Robot program: other moves")
            if verdicts & {"fail", "measure"}
            else _("Robot program's path"),
            "other" in verdicts,
        ),
        ("contact_zone", _("Contact zone of a station"), bool(cell.contact_zones)),
    ]


def _programs(p: Kit, cell: CellSection) -> list[Flowable]:
    """The robot programs on the plan: what the colours say, each program's
    cycle time, and the moves to slow, the worst first."""
    if cell.contact_zones:
        text = _(
            "Each robot program is drawn on the plan move by move: red where a "
            "move is faster than ISO/TS 15066 permits where people stand, amber "
            "where a person could be clamped (force and pressure are measured "
            "there on the real cell), grey for the other moves. The dotted "
            "circle round each operator station is the reach within which the "
            "robot can touch the person."
        )
    else:
        text = _("Each robot program is drawn on the plan move by move.")
    story: list[Flowable] = [p.para(_("Robot programs"), "h2"), p.para(text)]
    cycles = [_cycle_text(path) for path in cell.programs]
    story += p.bullets([line for line in cycles if line])
    if cell.slow_segments:
        rows = [
            [
                row.program,
                theme.number(row.line),
                theme.number(row.speed_mm_s),
                theme.number(row.permissible_mm_s),
                row.station or "—",
            ]
            for row in cell.slow_segments
        ]
        widths = [38 * mm, 18 * mm, 36 * mm, 36 * mm, 38 * mm]
        table: list[Flowable] = [
            p.para(_("Segments to slow"), "h3"),
            p.table(
                [
                    _("Robot program"),
                    _("Line"),
                    _("Programmed speed (mm/s)"),
                    _("Permissible speed (mm/s)"),
                    _("Operator station"),
                ],
                rows,
                widths,
                right=(1, 2, 3),
            ),
        ]
        if cell.slow_segments_more:
            table.append(
                p.para(
                    ngettext(
                        "And %(count)s more failing move.",
                        "And %(count)s more failing moves.",
                        cell.slow_segments_more,
                    )
                    % {"count": theme.number(cell.slow_segments_more)},
                    "small",
                )
            )
        story.append(KeepTogether(table))
    return story


def _cycle_text(path: ProgramPath) -> str:
    """A program's cycle time of its straight moves, as programmed and with
    the failing moves slowed; "" when it is not known."""
    programmed = path.cycle_time_programmed_s
    if programmed is None:
        return ""
    values = {"program": path.label, "programmed": f"{programmed:,.1f}"}
    if not path.failing_segments:
        return (
            _(
                "%(program)s: cycle time of its straight moves %(programmed)s s, "
                "no move to slow (speeds only: accelerations are not counted)."
            )
            % values
        )
    limited = path.cycle_time_limited_s
    if limited is None:
        return (
            _(
                "%(program)s: cycle time of its straight moves %(programmed)s s "
                "as programmed; some moves are not permitted at any speed where "
                "they pass, so slowing them is not enough."
            )
            % values
        )
    return _(
        "%(program)s: cycle time of its straight moves %(programmed)s s as "
        "programmed, %(limited)s s with the failing moves slowed to the "
        "speed each may have (speeds only: accelerations are not counted)."
    ) % {**values, "limited": f"{limited:,.1f}"}


def _guard_kinds() -> dict[str, str]:
    """The kinds of guard, in the legend's order and words."""
    return {
        "fence": _("Fence"),
        "wall": _("Wall"),
        "machine_body": _("Machine body"),
    }


def _guarding(p: Kit, layout: CellDocument) -> list[Flowable]:
    """Every guard segment with its openings, named as on the plan: printed
    when the plan had to leave labels out."""
    kinds = _guard_kinds()
    rows = []
    names = layout_names(
        (segment.label, [opening.label for opening in segment.openings])
        for segment in layout.guard_segments
    )
    for segment, (name, opening_names) in zip(
        layout.guard_segments, names, strict=True
    ):
        start = (segment.start.x_mm, segment.start.y_mm)
        end = (segment.end.x_mm, segment.end.y_mm)
        openings = [
            _("%(label)s: %(width)s mm wide, %(lower)s–%(upper)s mm above the floor")
            % {
                "label": opening_names[number],
                "width": theme.number(opening.width_mm),
                "lower": theme.number(opening.lower_edge_mm),
                "upper": theme.number(opening.upper_edge_mm),
            }
            for number, opening in enumerate(segment.openings)
        ]
        rows.append(
            [
                name,
                kinds.get(segment.kind, segment.kind),
                theme.number(round(math.dist(start, end))),
                theme.number(segment.height_mm),
                theme.number(segment.bottom_gap_mm),
                "\n".join(openings) or "—",
            ]
        )
    widths = [w * mm for w in (16, 24, 20, 20, 22, 64)]
    return [
        p.para(_("Guarding"), "h2"),
        p.table(
            [
                _("Guard"),
                _("Kind"),
                _("Length (mm)"),
                _("Height (mm)"),
                _("Gap below (mm)"),
                _("Openings"),
            ],
            rows,
            widths,
            right=(2, 3, 4),
        ),
    ]
