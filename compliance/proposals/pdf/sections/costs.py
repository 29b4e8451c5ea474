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
            total = p.range_cell(item.converted_low, item.converted_high, widths[3])
            if own and item.currency != target:
                total += f"\n({own})"
        elif item.rate_needed:
            total = _("not converted — rate needed") + (f"\n({own})" if own else "")
        elif own and target is None:  # data stored before the conversion
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
        _("Total (%(currency)s)") % {"currency": target} if target else _("Total")
    )
    needed = [row for row, item in enumerate(costs.items, start=1) if item.rate_needed]
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
            extra=[("TEXTCOLOR", (3, row), (3, row), theme.CRITICAL) for row in needed],
        ),
    ]
    if target and any(i.currency and i.currency != target for i in costs.items):
        story.append(
            p.para(
                _(
                    "Totals are in %(currency)s; a line priced in another currency "
                    "shows its own total in brackets."
                )
                % {"currency": target},
                "small",
            )
        )
    story.append(p.para(_("Totals"), "h2"))
    if costs.missing_rates:
        story.append(
            p.panel(
                [
                    p.para(
                        _(
                            "No exchange rate has been entered for %(currencies)s: "
                            "the lines priced in it are shown “not converted — "
                            "rate needed” and are not in the total below."
                        )
                        % {"currencies": ", ".join(costs.missing_rates)},
                        "banner",
                    )
                ],
                border=theme.CRITICAL,
            )
        )
        story.append(Spacer(1, 2 * mm))
    totals = []
    if costs.converted is not None:
        label = (
            _("Total in %(currency)s of the converted lines")
            if costs.missing_rates
            else _("Total in %(currency)s")
        )
        totals.append(
            (label % {"currency": costs.converted.currency}, p.money(costs.converted))
        )
    if target is None:  # data stored before the conversion: per currency
        totals += [
            (_("Priced lines in %(currency)s") % {"currency": t.currency}, p.money(t))
            for t in costs.totals
        ]
    if totals:
        story.append(p.key_values(totals, label_width=70 * mm))
    notes = []
    if costs.unpriced_lines:
        notes.append(
            _("%(items)s, not in the total.")
            % {"items": p.items_to_quote(costs.unpriced_lines)}
        )
    if costs.rates:
        notes.append(
            _("Exchange rates: %(rates)s.")
            % {"rates": "; ".join(f"{r.label} = {r.value}" for r in costs.rates)}
        )
    if costs.rates_note:
        notes.append(costs.rates_note)
    if target and any(t.currency != target for t in costs.totals):
        notes.append(
            _("In the lines' own currencies: %(totals)s.")
            % {"totals": "; ".join(p.money(t) for t in costs.totals)}
        )
    story += [Spacer(1, 2 * mm), *[p.para(n, "small") for n in notes]]
    return story
