"""The costs section of a proposal: the line items in their own currency
and, where the organisation has a rate valid on the proposal's date, in the
proposal currency; the totals per currency until every priced line
converts, then the converted total with the rates used and their dates; and
the lines still to be quoted."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal

from django.utils.translation import gettext as _

from compliance.costs import selectors as cost_selectors
from compliance.costs.rates import RatesOn, conversion_rates, rate_figure
from compliance.proposals import presentation
from compliance.proposals.pdf.data import CostsSection, LineItemRow, MoneyRange, Row


def rate_rows(on: RatesOn, codes: Iterable[str], target: str) -> tuple[Row, ...]:
    """The rates converting ``codes`` to ``target`` uses, each with the day
    it is valid from and its source: "1 USD" = "1,380 KRW (2026-12-01, ...)"."""
    return tuple(
        Row(
            label="1 USD",
            value=f"{rate_figure(r.units_per_usd)} {r.currency} "
            f"({r.valid_from:%Y-%m-%d}, {r.source})",
        )
        for r in on.used_for(codes, target)
    )


def costs_section(project, items, *, on: date | None = None) -> CostsSection:
    """The lines in their own currency and, where the organisation has a rate
    valid on ``on`` (the proposal's date; today if None), in the proposal
    currency. A line whose currency has no rate shows its own total, never
    one converted at a rate made up here; the totals stay per currency until
    every priced line converts."""
    per_currency = cost_selectors.totals_by_currency(items)
    totals = tuple(
        MoneyRange(currency=t["currency"], low=t["range"][0], high=t["range"][1])
        for t in per_currency
        if t["currency"]
    )
    unpriced = per_currency[-1]["unknown"]
    target = project.currency
    priced = [i for i in items if i.total_low is not None and i.currency is not None]
    codes = {i.currency for i in priced}
    rates_on = conversion_rates(project, codes, on)
    missing = rates_on.missing_for(codes, target)
    converted: dict[str, tuple] = {}
    low_sum = high_sum = Decimal(0)
    for item in priced:
        pair = presentation.to_currency(
            item.total_low, item.total_high, item.currency, target, rates_on.rates
        )
        if pair is None:
            continue
        converted[item.key] = pair
        if item.quantity:
            low_sum += pair[0]
            high_sum += pair[1]
    # The currencies shown converted, whose rates the reader is told.
    foreign = {i.currency for i in priced if i.key in converted} - {target}
    rates_note = (
        _(
            "Converted to %(currency)s at the exchange rates valid on %(date)s; "
            "each line's own currency and price are in its row."
        )
        % {"currency": target, "date": f"{rates_on.day:%Y-%m-%d}"}
        if foreign
        else ""
    )
    return CostsSection(
        currency=target,
        missing_rates=tuple(missing),
        rates=rate_rows(rates_on, foreign, target),
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
                rate_needed=item.total_low is not None and item.key not in converted,
            )
            for item in items
        ),
        totals=totals,
        unpriced_lines=unpriced,
        # One total in the proposal currency only when every priced line is
        # in it: a sum of some would look complete.
        converted=MoneyRange(
            currency=target,
            low=cost_selectors.exact(low_sum),
            high=cost_selectors.exact(high_sum),
        )
        if priced and not missing
        else None,
        rates_note=rates_note,
    )
