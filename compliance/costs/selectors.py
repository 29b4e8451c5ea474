"""Reads of a cell's costs and plan: its line items (derived from the findings,
priced from the organisation's catalogue, with the user's edits and own lines)
and the inputs of its PoC plan. A fixed number of queries per cell."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Any

from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cells.models import Cell
from compliance.costs import (
    CatalogueEntry,
    LineItem,
    Override,
    apply_overrides,
    custom_item,
    derive_line_items,
    totals,
)
from compliance.costs.line_items import USER_SOURCE
from compliance.costs.models import CatalogueEdit
from compliance.costs.organisation import EntryEdit, organisation_catalogue
from compliance.costs.quotes.pricing import quoted_entry, quoted_line
from compliance.costs.quotes.selectors import quote_prices, quote_prices_by
from compliance.costs.rates import conversion_rates
from compliance.rules import results
from compliance.rules.inputs import cell_inputs


def entry_edit(row: CatalogueEdit) -> EntryEdit:
    """A ``CatalogueEdit`` row as the pure catalogue's edit."""
    return EntryEdit(
        price_low=row.price_low,
        price_high=row.price_high,
        currency=row.currency or None,
        price_date=row.price_date,
        lead_time_weeks_low=row.lead_time_weeks_low,
        lead_time_weeks_high=row.lead_time_weeks_high,
        source=row.source,
    )


def catalogue_edits(organisation_id: int) -> dict[str, EntryEdit]:
    rows = CatalogueEdit.objects.filter(organisation_id=organisation_id)
    return {row.key: entry_edit(row) for row in rows}


def catalogue_for(organisation_id: int) -> Mapping[str, CatalogueEntry]:
    """The organisation's catalogue: the starting one with its own figures,
    each entry priced from its supplier quotes where it has some (as on
    today)."""
    return priced_catalogue(
        organisation_catalogue(catalogue_edits(organisation_id)),
        quote_prices(organisation_id, timezone.localdate()),
    )


def edits_of(cell: Cell) -> dict[str, Override]:
    return {
        edit.key: Override(
            quantity=edit.quantity,
            price_low=edit.price_low,
            price_high=edit.price_high,
            currency=edit.currency or None,
            source=edit.source or None,
        )
        for edit in cell.line_item_edits.all()
    }


def custom_line(row) -> LineItem:
    """A ``CustomLineItem`` row as a line item."""
    return custom_item(
        key=row.key,
        description=row.description,
        category=row.category,
        quantity=row.quantity,
        unit=row.unit,
        price_low=row.price_low,
        price_high=row.price_high,
        currency=row.currency or None,
        lead_time_weeks_low=row.lead_time_weeks_low,
        lead_time_weeks_high=row.lead_time_weeks_high,
        source=row.source or USER_SOURCE,
    )


def priced_catalogue(catalogue, quoted) -> dict:
    """The organisation's catalogue with each entry priced from the supplier
    quotes matched to it, where there are any (``costs.quotes.pricing``)."""
    return {
        key: quoted_entry(entry, quoted[key]) if key in quoted else entry
        for key, entry in catalogue.items()
    }


def line_items(cell: Cell) -> tuple[LineItem, ...]:
    """The cell's cost lines (a cell loaded by ``cells.selectors.cell_with_layout``):
    derived from its findings and priced from its organisation's catalogue,
    with the user's edits, then the user's own lines. Worked out once per
    change of any of these (``compliance.rules.results``)."""

    def derive() -> tuple[LineItem, ...]:
        inputs = cell_inputs(cell).load().load_costs()
        stations = len(cell.stations.all())
        catalogue = {row.key: entry_edit(row) for row in inputs.catalogue_edits}
        # The organisation's supplier quotes, as on the day of the version.
        quoted, by_device = (
            quote_prices_by(cell.project.organisation_id, inputs.checked_on)
            if "quote" in inputs.versions.present
            else ({}, {})
        )
        derived = derive_line_items(
            results.cell_snapshot(cell),
            results.cell_finding_list(cell),
            operator_station_count=stations or None,
            catalogue=priced_catalogue(organisation_catalogue(catalogue), quoted),
        )
        if by_device:
            # A device chosen from the library is priced by the quotes for
            # that very device, in place of the library's own price.
            library_of = {
                f"recorded:device:{d.pk}": d.library_device_id
                for d in cell.devices.all()
                if d.library_device_id in by_device
            }
            derived = tuple(
                quoted_line(i, by_device[library_of[i.key]])
                if i.key in library_of
                else i
                for i in derived
            )
        own = tuple(custom_line(row) for row in cell.custom_line_items.all())
        return (*apply_overrides(derived, edits_of(cell)), *own)

    return results.kept(cell, "line-items", derive, costs=True)


def safeguards(items) -> tuple[LineItem, ...]:
    """The physical safeguards among the lines: devices and guarding."""
    return tuple(i for i in items if i.category in ("device", "guarding"))


def exact(value: Decimal) -> Decimal:
    """A sum as the page, the API and the PDF all show it: exact, without
    trailing zeros or an exponent (936.0 -> 936, 1.02E+3 -> 1020)."""
    return Decimal(format(value.normalize(), "f"))


def money_text(value: Decimal) -> str:
    """An exact figure for a page, with the reader's thousands separator and
    no rounding (1020 -> "1,020"; 257.3375 stays "257.3375")."""
    return number_format(exact(value), force_grouping=True)


def money_range_text(low: Decimal, high: Decimal) -> str:
    if low == high:
        return money_text(low)
    return f"{money_text(low)}–{money_text(high)}"


def totals_by_currency(items) -> list[dict[str, Any]]:
    """Exact sums per currency, then the count of unpriced lines: no exchange
    rate is assumed. Not rounded, so that the page, the API and the PDF show
    the figures the lines add up to."""
    sums: dict[str, list[Decimal]] = defaultdict(lambda: [Decimal(0), Decimal(0)])
    unknown = 0
    for item in items:
        if item.quantity == 0:
            continue
        if item.total_low is None or item.currency is None:
            unknown += 1
            continue
        sums[item.currency][0] += item.total_low
        sums[item.currency][1] += item.total_high
    shown = [
        {"currency": currency, "range": (exact(low), exact(high))}
        for currency, (low, high) in sorted(sums.items())
    ]
    return [*shown, {"currency": "", "unknown": unknown}]


# Decimal places of each currency's smallest unit.
MINOR_UNITS = {"KRW": 0, "USD": 2, "EUR": 2}


def converted_total(project, items, day=None) -> dict[str, Any] | None:
    """The total in the project's currency when every priced line converts
    at its organisation's rates valid on ``day`` (today if None), with the
    rates used ("1 USD = 1,380 KRW (2026-12-01, source)"); None while a rate
    is missing (the totals stay per currency). A conversion rarely ends in
    whole units: the low end is rounded down and the high end up to the
    currency's smallest unit, so the range still holds the exact one."""
    codes = {i.currency for i in items if i.currency and i.total_low is not None}
    on = conversion_rates(project, codes, day)
    if on.missing_for(codes, project.currency):
        return None
    result = totals(items, project.currency, on.rates)
    return {
        "currency": result.currency,
        "range": outward(result.low, result.high, result.currency),
        "unknown": result.unknown_count,
        "rates": on.lines_for(codes, project.currency),
    }


def outward(low: Decimal, high: Decimal, currency: str) -> tuple[Decimal, Decimal]:
    """A converted range in whole smallest units of ``currency``: the low end
    rounded down and the high end up (exact figures stay as they are)."""
    unit = Decimal(1).scaleb(-MINOR_UNITS.get(currency, 2))
    return (
        exact(low.quantize(unit, rounding=ROUND_FLOOR)),
        exact(high.quantize(unit, rounding=ROUND_CEILING)),
    )


# How the catalogue fixture names a file of the reference data set.
REFERENCE_PATH = "reference/"
UNIT_LABELS = {
    "m": gettext_lazy("m"),
    "piece": gettext_lazy("piece"),
    "job": gettext_lazy("job"),
}


def unit_label(unit: str) -> str:
    """A line's unit in the reader's language ("job" -> "건")."""
    return str(UNIT_LABELS.get(unit, unit))


def public_source(source: str) -> str:
    """A source as a reader can take it: the product's reference files are
    named as its reference data, not as a path on a machine."""
    return source.replace(REFERENCE_PATH, _("reference data") + " ")
