"""The exchange rates a project converts with: the organisation's dated
records (``ExchangeRate``), each currency's latest valid on the day asked
(a proposal's date, or today for a page), with their dates and sources. No
rate is ever assumed: a currency without a record has no rate."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.utils import timezone

from compliance.calculators.base import grouped_figure
from compliance.costs.models import ExchangeRate


def needed(codes: Iterable[str], target: str) -> set[str]:
    """The currencies whose rate converting ``codes`` to ``target`` takes:
    each other currency's and, when one differs, the target's own (rates are
    per 1 USD, so USD needs none)."""
    others = {c for c in codes if c and c != target}
    if others:
        others.add(target)
    return others - {"USD"}


def rate_figure(value: Decimal) -> str:
    """A rate as written: grouped, without trailing zeros (1,380; 0.92)."""
    return grouped_figure(value)


def rate_line(record: ExchangeRate) -> str:
    """ "1 USD = 1,380 KRW (2026-12-01, Seoul Foreign Exchange closing rate)":
    the rate, the day it is valid from and where it comes from."""
    return (
        f"1 USD = {rate_figure(record.units_per_usd)} {record.currency} "
        f"({record.valid_from:%Y-%m-%d}, {record.source})"
    )


@dataclass(frozen=True)
class RatesOn:
    """The rates valid on ``day``: units of each currency per 1 USD (USD is
    1), and the record each comes from."""

    day: date
    rates: dict[str, Decimal]
    records: dict[str, ExchangeRate] = field(default_factory=dict)

    def used(self, codes) -> list[ExchangeRate]:
        """The records of ``codes`` (the currencies a conversion used)."""
        return [self.records[c] for c in sorted(set(codes)) if c in self.records]

    def missing(self, codes) -> list[str]:
        """Those of ``codes`` that have no rate on the day."""
        return sorted({c for c in codes if c not in self.rates})

    def missing_for(self, codes: Iterable[str], target: str) -> list[str]:
        """The currencies without a rate on the day that converting ``codes``
        to ``target`` needs; empty when everything converts."""
        return self.missing(needed(codes, target))

    def used_for(self, codes: Iterable[str], target: str) -> list[ExchangeRate]:
        """The records converting ``codes`` to ``target`` uses, by currency."""
        return self.used(needed(codes, target))

    def lines_for(self, codes: Iterable[str], target: str) -> list[str]:
        """Which rates converting ``codes`` to ``target`` uses, one line each
        (``rate_line``)."""
        return [rate_line(r) for r in self.used_for(codes, target)]


NO_RATES = {"USD": Decimal(1)}


def rates_on(organisation_id: int, day: date | None = None) -> RatesOn:
    """The organisation's rates valid on ``day`` (today if None). One query."""
    day = day or timezone.localdate()
    records: dict[str, ExchangeRate] = {}
    for record in ExchangeRate.objects.filter(
        organisation_id=organisation_id, valid_from__lte=day
    ).order_by("currency", "-valid_from"):
        records.setdefault(record.currency, record)
    rates = NO_RATES | {c: r.units_per_usd for c, r in records.items()}
    return RatesOn(day=day, rates=rates, records=records)


def project_rates(project, day: date | None = None) -> RatesOn:
    """The rates a project converts with on ``day``: its organisation's,
    read once per project object and day (a page's or a proposal's)."""
    day = day or timezone.localdate()
    cache = project.__dict__.setdefault("_csp_rates", {})
    if day not in cache:
        cache[day] = rates_on(project.organisation_id, day)
    return cache[day]


def conversion_rates(project, codes: Iterable[str], day: date | None = None) -> RatesOn:
    """The rates converting ``codes`` to the project's currency needs, or the
    bare ``NO_RATES`` when none is needed (every code is the project's): the
    records are then not read at all."""
    if not needed(codes, project.currency):
        return RatesOn(day=day or timezone.localdate(), rates=dict(NO_RATES))
    return project_rates(project, day)


def organisation_rates(organisation_id: int) -> dict[str, list[ExchangeRate]]:
    """Every rate of the organisation by currency, newest first, with who
    entered it. One query."""
    grouped: dict[str, list[ExchangeRate]] = {}
    for record in (
        ExchangeRate.objects.filter(organisation_id=organisation_id)
        .select_related("created_by")
        .order_by("currency", "-valid_from", "-pk")
    ):
        grouped.setdefault(record.currency, []).append(record)
    return grouped
