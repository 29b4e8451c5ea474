"""The executive summary: what the customer decides from, on one page. A function
from the ``Kit`` to the flowables the section adds after its heading."""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    Spacer,
    Table,
    TableStyle,
)

from compliance.documents import theme
from compliance.documents.flowables import Para, markup
from compliance.documents.theme import CONTENT_WIDTH, REGULAR
from compliance.proposals.pdf.kit import Kit


def summary(p: Kit) -> list[Flowable]:
    summary = p.data.summary
    assert summary is not None
    s = p.styles
    # One total in the proposal currency, or one per currency until every
    # priced line converts.
    if summary.costs:
        cost = "<br/>".join(markup(p.money(c)) for c in summary.costs)
    elif summary.not_converted_lines:  # data stored before issue 29
        cost = "—"
    else:
        cost = markup(_("No line is priced yet"))
    notes = []
    if summary.unpriced_lines:
        notes.append(
            _("%(items)s, not in the total.")
            % {"items": p.items_to_quote(summary.unpriced_lines)}
        )
    if summary.not_converted_lines:
        notes.append(p.other_currency_lines(summary.not_converted_lines))
    if summary.rates:
        notes.append(p.rates_used(summary.rates))
    cost_note = " ".join(notes) if notes else _("Every line is priced.")
    label, value, small = s["tile_label"], s["tile_value"], s["small"]
    cost_tile: list[Flowable] = [Para(markup(_("Total cost, priced lines")), label)]
    cost_tile += [Para(cost, value), Para(markup(cost_note), small)]
    weeks_tile: list[Flowable] = [Para(markup(_("Weeks to PoC start")), label)]
    for plan, weeks in (
        (_("Physical first"), summary.weeks_to_poc_physical_first),
        (_("Simulation first"), summary.weeks_to_poc_sim_first),
    ):
        weeks_tile += [
            Para(markup(plan), small),
            Para(markup(p.weeks(weeks)), value),
        ]
    tiles: list[list[Flowable]] = [cost_tile, weeks_tile]
    widths = [0.5 * CONTENT_WIDTH, 0.5 * CONTENT_WIDTH]
    # No recommendation: the line is left out, and the reasons below say
    # what the choice depends on.
    if summary.recommendation is not None:
        tiles.append(
            [
                Para(markup(_("Recommended plan")), label),
                Para(markup(p.plan_name(summary.recommendation)), value),
            ]
        )
        widths = [0.38 * CONTENT_WIDTH, 0.34 * CONTENT_WIDTH, 0.28 * CONTENT_WIDTH]
    figures = Table([tiles], colWidths=widths, hAlign="LEFT")
    figures.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), REGULAR, 9),
                ("BACKGROUND", (0, 0), (-1, -1), theme.PANEL),
                ("LINEBEFORE", (1, 0), (-1, -1), 3, theme.WHITE),
                ("LINEABOVE", (0, 0), (-1, 0), 1.2, theme.ACCENT),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 8),
                ("RIGHTPADDING", (0, 0), (-1, -1), 8),
                ("TOPPADDING", (0, 0), (-1, -1), 7),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 9),
            ]
        )
    )
    if summary.text:
        # The SA's summary (or the one generated from the cell) as written.
        opening = p.paragraphs(summary.text, "lead")
    else:  # data stored before the summary was written
        opening = [
            p.para(_("What is proposed"), "h2"),
            p.para(summary.proposed, "lead"),
        ]
    concept: list[Flowable] = []
    if summary.safety_concept:
        concept = [
            p.para(_("Safety concept"), "h2"),
            *p.paragraphs(summary.safety_concept),
        ]
    return [
        *opening,
        Spacer(1, 4 * mm),
        figures,
        *concept,
        p.para(
            _("Why this plan")
            if summary.recommendation
            else _("What the choice of plan depends on"),
            "h2",
        ),
        *p.bullets(summary.reasons),
        Spacer(1, 3 * mm),
        p.para(
            _(
                "Costs are ranges of the priced lines; weeks are counted from "
                "the start of the work. Both plans end with validation on the "
                "real cell before the PoC starts."
            ),
            "small",
        ),
    ]
