"""Reads of an organisation's labour rates and default work, and the work
cost of each activity of a cell's plan (``costing``): the organisation's
defaults, replaced by the cell's own entry for an activity."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal

from django.utils import timezone

from compliance.costs import rates as exchange
from compliance.costs.money import convert
from compliance.plan.labour.costing import (
    PUBLIC_RATES,
    Effort,
    Fee,
    Rate,
    WorkCost,
    work_cost,
)
from compliance.plan.labour.models import LabourRate, WorkDefault


def rate_of(row: LabourRate) -> Rate:
    return Rate(
        role=row.role,
        unit=row.unit,
        low=row.rate_low,
        high=row.rate_high,
        currency=row.currency,
        source=row.source,
        valid_from=row.valid_from,
        valid_until=row.valid_until,
    )


def default_part(row: WorkDefault) -> Effort | Fee:
    """A default work row of the organisation: an effort, or a fee."""
    if row.fee_low is not None:
        return Fee(
            low=row.fee_low, high=row.fee_high, currency=row.currency, source=row.source
        )
    return Effort(
        role=row.role,
        unit=row.unit,
        low=row.effort_low,
        high=row.effort_high,
        per=row.per,
        source=row.source,
    )


def entered_part(row) -> Effort:
    """A cell's own effort for an activity (a ``PlanAssumption`` with one)."""
    return Effort(
        role=row.role,
        unit=row.effort_unit,
        low=row.effort_low,
        high=row.effort_high,
        per=row.effort_per or "activity",
        source=row.source,
    )


def organisation_rates(organisation_id: int) -> tuple[Rate, ...]:
    """The organisation's own rates, then the public reference rates (used
    for a role only where the organisation has none). One query."""
    own = LabourRate.objects.filter(organisation_id=organisation_id)
    return (*(rate_of(row) for row in own), *PUBLIC_RATES)


def work_defaults(organisation_id: int) -> dict[str, list[Effort | Fee]]:
    """The organisation's default work by activity key. One query."""
    work: dict[str, list[Effort | Fee]] = {}
    for row in WorkDefault.objects.filter(organisation_id=organisation_id).order_by(
        "activity", "role"
    ):
        work.setdefault(row.activity, []).append(default_part(row))
    return work


def _organisation_work(project) -> tuple[tuple[Rate, ...], dict[str, list]]:
    """Rates and default work of the project's organisation, read once per
    project object (a page, a proposal, the concepts of one cell)."""
    kept = project.__dict__.get("_csp_labour")
    if kept is None:
        kept = (
            organisation_rates(project.organisation_id),
            work_defaults(project.organisation_id),
        )
        project.__dict__["_csp_labour"] = kept
    return kept


def activity_work(cell, entered: Iterable) -> dict[str, list[Effort | Fee]]:
    """Each activity's work: the organisation's defaults, with the cell's own
    effort (``entered``: its plan assumptions) in place of them."""
    _rates, defaults = _organisation_work(cell.project)
    work = {key: list(parts) for key, parts in defaults.items()}
    for row in entered:
        if row.effort_low is not None:
            work[row.key] = [entered_part(row)]
    return work


def _function_count(cell) -> int:
    cached = getattr(cell, "_prefetched_objects_cache", {}).get("safety_functions")
    if cached is not None:
        return len(cached)
    return cell.safety_functions.count()


def work_costs(
    cell, entered: Iterable, currency: str, day: date | None = None
) -> dict[str, WorkCost]:
    """The work cost of each activity that has work, in ``currency``, with
    the rates valid on ``day`` (today if None) and the exchange rates of
    that day where a rate is in another currency. At most three queries:
    the rates, the defaults (once per project) and, where an effort is per
    safety function, the number of the cell's functions."""
    day = day or timezone.localdate()
    rates, _defaults = _organisation_work(cell.project)
    work = activity_work(cell, entered)
    if not work:
        return {}
    per_function = any(
        isinstance(p, Effort) and p.per == "safety_function"
        for parts in work.values()
        for p in parts
    )
    functions = _function_count(cell) if per_function else None

    def to_currency(amount: Decimal, code: str) -> Decimal | None:
        if code == currency:
            return amount
        on = exchange.project_rates(cell.project, day)
        if on.missing_for({code}, currency):
            return None
        return convert(amount, code, currency, on.rates)

    return {
        key: work_cost(parts, rates, day, currency, to_currency, functions)
        for key, parts in work.items()
    }
