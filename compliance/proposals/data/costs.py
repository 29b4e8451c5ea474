"""The costs section of a proposal: the line items in their own currency
and, where the project has entered a rate, in the proposal currency; the
totals per currency and the lines still to be quoted."""

from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext as _

from compliance.costs import selectors as cost_selectors
from compliance.proposals import presentation
from compliance.proposals.pdf.data import CostsSection, LineItemRow, MoneyRange, Row


def costs_section(project, items) -> CostsSection:
    """The lines in their own currency and, where the project has entered a
    rate, in the proposal currency; a line whose currency has no rate is
    "not converted" and left out of the total, never converted at a rate
    made up here."""
    per_currency = cost_selectors.totals_by_currency(items)
    totals = tuple(
        MoneyRange(currency=t["currency"], low=t["range"][0], high=t["range"][1])
        for t in per_currency
        if t["currency"]
    )
    unpriced = per_currency[-1]["unknown"]
    target, rates = project.currency, project.rates
    converted: dict[str, tuple] = {}
    missing: set[str] = set()
    low_sum = high_sum = Decimal(0)
    for item in items:
        if item.total_low is None or item.currency is None:
            continue
        pair = presentation.to_currency(
            item.total_low, item.total_high, item.currency, target, rates
        )
        if pair is None:
            missing.add(item.currency)
            continue
        converted[item.key] = pair
        if item.quantity:
            low_sum += pair[0]
            high_sum += pair[1]
    foreign = sorted({i.currency for i in items if i.currency} - {target} - missing)
    if foreign:
        rates_note = _(
            "Converted to %(currency)s at the project's exchange rates of %(date)s "
            "(%(source)s); each line's own currency and price are in its row."
        ) % {
            "currency": target,
            "date": f"{project.rates_date:%Y-%m-%d}" if project.rates_date else "—",
            "source": _("entered for this project"),
        }
    else:
        rates_note = ""
    rate_rows = tuple(
        Row(label=f"1 {code}", value=f"{presentation.rate_text(code, target, rates)}")
        for code in foreign
    )
    return CostsSection(
        currency=target,
        missing_rates=tuple(sorted(missing)),
        rates=rate_rows,
        items=tuple(
            LineItemRow(
                description=item.description.render(_),
                quantity=item.quantity,
                unit=cost_selectors.unit_label(item.unit),
                unit_price_low=item.price_low,
                unit_price_high=item.price_high,
                total_low=item.total_low,
                total_high=item.total_high,
                currency=item.currency,
                lead_time_weeks_low=item.lead_time_weeks_low,
                lead_time_weeks_high=item.lead_time_weeks_high,
                source=presentation.customer_source(item),
                price_date=None,  # the public source's year is in its citation
                converted_low=converted[item.key][0] if item.key in converted else None,
                converted_high=converted[item.key][1]
                if item.key in converted
                else None,
                rate_needed=item.currency in missing and item.total_low is not None,
            )
            for item in items
        ),
        totals=totals,
        unpriced_lines=unpriced,
        converted=MoneyRange(
            currency=target,
            low=cost_selectors.exact(low_sum),
            high=cost_selectors.exact(high_sum),
        )
        if converted
        else None,
        rates_note=rates_note,
    )
