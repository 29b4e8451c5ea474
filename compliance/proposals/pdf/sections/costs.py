"""The safeguards and line items, priced from their sources. A function from the
``Kit`` to the flowables the section adds after its heading."""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    Spacer,
)

from compliance.documents import theme
from compliance.proposals.pdf.kit import Kit


def costs(p: Kit) -> list[Flowable]:
    costs = p.data.costs
    assert costs is not None
    to_quote = _("price to be quoted")
    target = costs.currency
    widths = [42 * mm, 15 * mm, 27 * mm, 29 * mm, 13 * mm, 40 * mm]
    # Data stored before issue 29 may hold a total of the converted lines
    # only, beside missing rates: not a total of every line.
    converts = costs.converted is not None and not costs.missing_rates
    rows = []
    for item in costs.items:
        low, high = item.unit_price_low, item.unit_price_high
        if low is None or high is None or item.currency is None:
            unit_price = to_quote
        else:
            unit_price = f"{item.currency} " + p.range_cell(low, high, widths[2] - 26)
        own = (
            theme.money_range(item.currency, item.total_low, item.total_high)
            if item.currency
            and item.total_low is not None
            and item.total_high is not None
            else None
        )
        if item.converted_low is not None and item.converted_high is not None:
            if converts:
                total = p.range_cell(item.converted_low, item.converted_high, widths[3])
            else:  # the column is in several currencies: say which
                total = f"{target} " + p.range_cell(
                    item.converted_low, item.converted_high, widths[3] - 26
                )
            if own and item.currency != target:
                total += f"\n({own})"
        elif own:  # no rate for its currency (or data from before rates)
            total = own
        else:
            total = "—"
        low, high = item.lead_time_weeks_low, item.lead_time_weeks_high
        lead = "—" if low is None or high is None else theme.weeks_range(low, high)
        source = item.source or "—"
        if item.price_date:
            source = f"{source} ({item.price_date})"
        rows.append(
            [
                item.description,
                f"{theme.number(item.quantity)} {item.unit}",
                unit_price,
                total,
                lead,
                source,
            ]
        )
    total_header = (
        _("Total (%(currency)s)") % {"currency": target}
        if target and converts
        else _("Total")
    )
    story: list[Flowable] = [
        p.table(
            [
                _("Item"),
                _("Quantity"),
                _("Unit price"),
                total_header,
                _("Lead time (weeks)"),
                _("Source of the price"),
            ],
            rows,
            widths,
            right=(1, 2, 3, 4),
        ),
    ]
    foreign = any(i.currency and i.currency != target for i in costs.items)
    shown_converted = any(i.converted_low is not None for i in costs.items)
    if target and foreign:
        if converts:
            explained = _(
                "Totals are in %(currency)s; a line priced in another currency "
                "shows its own total in brackets."
            )
        elif shown_converted:
            explained = _(
                "A line is shown in %(currency)s where it converts, with its own "
                "total in brackets, else in its own currency; the totals are "
                "given per currency."
            )
        else:
            explained = _(
                "Each line is shown in its own currency, and the totals per currency."
            )
        story.append(p.para(explained % {"currency": target}, "small"))
    story.append(p.para(_("Totals"), "h2"))
    # One total in the proposal currency once every priced line converts;
    # until then one per currency, never a sum of some that looks complete.
    totals = []
    if converts and costs.converted is not None:
        totals.append(
            (
                _("Total in %(currency)s") % {"currency": costs.converted.currency},
                p.money(costs.converted),
            )
        )
    else:
        totals += [
            (_("Total in %(currency)s") % {"currency": t.currency}, p.money(t))
            for t in costs.totals
        ]
    if costs.unpriced_lines:
        totals.append((_("Not in the total"), p.items_to_quote(costs.unpriced_lines)))
    if totals:
        story.append(p.key_values(totals, label_width=70 * mm))
    notes = []
    if costs.rates:
        notes.append(p.rates_used(costs.rates))
    if costs.rates_note:
        notes.append(costs.rates_note)
    if converts and any(t.currency != target for t in costs.totals):
        notes.append(
            _("In the lines' own currencies: %(totals)s.")
            % {"totals": "; ".join(p.money(t) for t in costs.totals)}
        )
    story += [Spacer(1, 2 * mm), *[p.para(n, "small") for n in notes]]
    return story
