"""Reads of the plan: the inputs of the schedule and comparison, from the
cell's cost lines and the project's own figures."""

from __future__ import annotations

from collections.abc import Sequence

from cells.models import Cell
from compliance.calculators.base import gettext_noop
from compliance.costs import LineItem, totals
from compliance.costs.selectors import outward, safeguards
from compliance.plan.inputs import CostRange, PlanInputs, WeeksRange
from compliance.plan.schedule import longest_lead_time

PROCUREMENT_COST_SOURCE = gettext_noop(
    "The priced guarding and device lines of the Costs tab"
)


def plan_inputs(cell: Cell, items) -> PlanInputs:
    """The plan's inputs: lead times from the device lines, the procurement
    cost from the guarding and device lines, and the project's own durations
    and costs where the user entered them."""
    pairs = [
        (i.lead_time_weeks_low, i.lead_time_weeks_high)
        for i in items
        if i.category == "device" and i.lead_time_weeks_low is not None
    ]
    without = sum(
        1 for i in items if i.category == "device" and i.lead_time_weeks_low is None
    )
    lead = longest_lead_time(pairs)
    durations, costs = {}, {}
    for row in cell.plan_assumptions.all():
        if row.weeks_low is not None:
            durations[row.key] = WeeksRange(
                low=row.weeks_low, high=row.weeks_high, source=row.source
            )
        if row.cost_low is not None:
            costs[row.key] = CostRange(
                low=row.cost_low,
                high=row.cost_high,
                currency=row.currency,
                source=row.source,
            )
    needed = [i for i in safeguards(items) if i.quantity > 0]
    unpriced = sum(1 for i in needed if not i.price_known)
    entered_currency = next((c.currency for c in costs.values()), None)
    return PlanInputs(
        country=cell.project.country,
        collaborative_modes=tuple(cell.collaborative_modes),
        application=cell.application,
        procurement_lead_time_weeks_low=lead[0] if lead else None,
        procurement_lead_time_weeks_high=lead[1] if lead else None,
        procurement_items_without_lead_time=without,
        durations=durations,
        costs=costs,
        procurement_cost=None
        if unpriced
        else procurement_cost(needed, cell.project, entered_currency),
        procurement_unpriced_lines=unpriced,
    )


def procurement_cost(
    lines: Sequence[LineItem], project, currency: str | None = None
) -> CostRange | None:
    """The guarding and devices' cost: the priced lines summed as the Costs
    tab sums them. In one currency: the plan's (``currency``, that of the
    costs entered for it) if given, else the lines' own; lines in another
    currency are converted at the project's exchange rates, and a converted
    range is widened to whole cents (won). None when there are no lines, or
    a rate is missing (no rate is assumed)."""
    if not lines:
        return None
    used = {i.currency for i in lines if i.currency}
    target = currency or (used.pop() if len(used) == 1 else project.currency)
    try:
        result = totals(lines, target, project.rates)
    except ValueError:
        return None
    low, high = outward(result.low, result.high, target)
    return CostRange(
        low=low,
        high=high,
        currency=target,
        source=PROCUREMENT_COST_SOURCE,
    )
