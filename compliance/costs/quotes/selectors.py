"""Reads of an organisation's supplier quotes: the quotes a user may see,
one quote with its rows, and the prices they give each catalogue entry."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from django.db.models import Count, Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from cells import selectors as cell_selectors
from compliance.costs.catalogue import QuotePrice
from compliance.costs.quotes.matching import LibraryItem, Matcher
from compliance.costs.quotes.models import QuoteRow, SupplierQuote
from compliance.safety_functions.models import LibraryDevice


def quotes_for(user) -> QuerySet[SupplierQuote]:
    """The quotes of the user's organisations, with their row counts."""
    return (
        SupplierQuote.objects.filter(
            organisation__in=cell_selectors.organisations_for(user)
        )
        .select_related("organisation", "imported_by")
        .annotate(row_count=Count("rows"))
    )


def quote_for(user, pk: int) -> SupplierQuote:
    """One quote of the user's organisations with its rows (404 otherwise)."""
    rows = QuoteRow.objects.select_related("library_device", "confirmed_by")
    return get_object_or_404(
        SupplierQuote.objects.filter(
            organisation__in=cell_selectors.organisations_for(user)
        )
        .select_related("organisation")
        .prefetch_related(Prefetch("rows", queryset=rows)),
        pk=pk,
    )


def matcher(organisation_id: int, catalogue_keys) -> Matcher:
    """The organisation's library and the catalogue, to match rows against."""
    library = LibraryDevice.objects.filter(organisation_id=organisation_id).order_by(
        "pk"
    )
    return Matcher(
        (
            LibraryItem(
                pk=d.pk,
                kind=d.kind,
                maker=d.maker,
                model=d.model,
                part_number=d.part_number,
            )
            for d in library.only("pk", "kind", "maker", "model", "part_number")
        ),
        catalogue_keys,
    )


def quote_price(row: QuoteRow, quote: SupplierQuote, day: date) -> QuotePrice:
    """One row's price with what a reader needs to trust it."""
    return QuotePrice(
        supplier=quote.supplier,
        number=quote.number,
        quoted_on=quote.quoted_on,
        valid_until=quote.valid_until,
        row=row.row,
        price_low=row.price_low,
        price_high=row.price_high,
        currency=row.currency,
        lead_time_weeks_low=row.lead_time_weeks_low,
        lead_time_weeks_high=row.lead_time_weeks_high,
        minimum_order=row.minimum_order,
        expired=quote.expired_on(day),
    )


def quote_prices(organisation_id: int, day: date) -> dict[str, list[QuotePrice]]:
    """Every matched quote row of the organisation, by the catalogue entry it
    prices, as on ``day`` (a quote no longer valid then is marked expired).
    One query."""
    return quote_prices_by(organisation_id, day)[0]


def quote_prices_by(
    organisation_id: int, day: date
) -> tuple[dict[str, list[QuotePrice]], dict[int, list[QuotePrice]]]:
    """The organisation's matched quote rows by the catalogue entry they
    price, and those matched to a device of its library by that device's
    id, as on ``day``. One query."""
    rows = (
        QuoteRow.objects.filter(quote__organisation_id=organisation_id)
        .exclude(catalogue_key="", library_device=None)
        .select_related("quote")
        .order_by("quote__quoted_on", "quote_id", "row")
    )
    by_entry: dict[str, list[QuotePrice]] = defaultdict(list)
    by_device: dict[int, list[QuotePrice]] = defaultdict(list)
    for row in rows:
        price = quote_price(row, row.quote, day)
        if row.catalogue_key:
            by_entry[row.catalogue_key].append(price)
        if row.library_device_id is not None:
            by_device[row.library_device_id].append(price)
    return dict(by_entry), dict(by_device)
