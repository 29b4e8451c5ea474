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
from compliance.proposals.pdf.kit import Kit


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
