"""Reads of the plan: the inputs of the schedule and comparison, from the
cell's cost lines and the project's own figures."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from cells.models import Cell
from compliance.calculators.base import gettext_noop
from compliance.costs import LineItem, rates, totals
from compliance.costs.selectors import outward, safeguards
from compliance.plan.inputs import (
    KIRIA_CERTIFICATION,
    WORK_KEYS,
    CostRange,
    PlanInputs,
    WeeksRange,
)
from compliance.plan.labour.selectors import work_costs
from compliance.plan.schedule import (
    KCS_CERTIFICATION,
    RISK_ASSESSMENT,
    VALIDATION_PFL,
    VALIDATION_STOPPING,
    longest_lead_time,
)

PROCUREMENT_COST_SOURCE = gettext_noop(
    "The priced guarding and device lines of the Costs tab"
)


# The activities whose cost the cell's cost lines give, by the lines'
# catalogue keys: the activity is costed when all its lines are priced.
ACTIVITY_LINES = {
    RISK_ASSESSMENT: ("risk_assessment",),
    KCS_CERTIFICATION: ("kcs_certification", "kr_self_declaration"),
    VALIDATION_STOPPING: ("stopping_time_measurement",),
    VALIDATION_PFL: ("pfl_measurement",),
    KIRIA_CERTIFICATION: ("kiria_certification",),
    # ``plan.inputs.CE_CONFORMITY``, the EU / EEA conformity assessment.
    "ce_conformity": ("ce_conformity",),
}
ACTIVITY_COST_SOURCE = gettext_noop("The priced cost lines of this work")
# A line priced by a supplier quote, the organisation's catalogue figure or
# the user's own price is firmer than the organisation's default work for
# its activity, which it then keeps; a public figure (an article estimate)
# or a planning range is not: the default work replaces it in the plan.
FIRM_BASES = frozenset({"quote", "organisation", "user"})
WORK_COST_SOURCE = gettext_noop(
    "The organisation's labour rates and the work the activity takes"
)


def plan_inputs(cell: Cell, items, day: date | None = None) -> PlanInputs:
    """The plan's inputs: lead times from the device lines, the procurement
    cost from the guarding and device lines (converted, where it must be, at
    the organisation's rates valid on ``day``: a proposal's date, else
    today), and the project's own durations and costs where the user entered
    them."""
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
    entered = list(cell.plan_assumptions.all())
    for row in entered:
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
    procurement = (
        None
        if unpriced
        else procurement_cost(needed, cell.project, entered_currency, day)
    )
    # One currency for every activity's cost (the plans sum them): the one
    # entered for the project, else the procurement's, else the project's;
    # a line in another is converted at the rates valid on ``day``, and an
    # activity whose lines cannot be converted has no cost yet.
    target = (
        entered_currency
        or (procurement.currency if procurement else None)
        or cell.project.currency
    )
    line_costs, firm = {}, set()
    for activity, keys in ACTIVITY_LINES.items():
        lines = [i for i in items if i.quantity > 0 and i.catalogue_key in keys]
        if lines and all(i.price_known for i in lines):
            cost = procurement_cost(lines, cell.project, target, day)
            if cost is not None:
                line_costs[activity] = cost.model_copy(
                    update={"source": ACTIVITY_COST_SOURCE}
                )
                if all(i.basis in FIRM_BASES for i in lines):
                    firm.add(activity)
    kiria = line_costs.pop(KIRIA_CERTIFICATION, None)
    worked, missing = {}, {}
    for activity, work in work_costs(cell, entered, target, day).items():
        if activity not in WORK_KEYS:
            continue  # an activity the app no longer plans
        if activity in firm and not _entered_effort(entered, activity):
            continue  # a quote or the user's own price of its lines holds
        if work.known:
            low, high = outward(work.low, work.high, target)
            worked[activity] = CostRange(
                low=low,
                high=high,
                currency=target,
                source=WORK_COST_SOURCE,
                basis=work.lines,
            )
        else:
            missing[activity] = work.lines
    return PlanInputs(
        country=cell.project.country,
        collaborative_modes=tuple(cell.collaborative_modes),
        application=cell.application,
        procurement_lead_time_weeks_low=lead[0] if lead else None,
        procurement_lead_time_weeks_high=lead[1] if lead else None,
        procurement_items_without_lead_time=without,
        durations=durations,
        costs=costs,
        procurement_cost=procurement,
        procurement_unpriced_lines=unpriced,
        kiria_certification=any(
            i.catalogue_key == KIRIA_CERTIFICATION and i.quantity > 0 for i in items
        ),
        kiria_cost=kiria,
        line_costs=line_costs,
        work_costs=worked,
        work_missing=missing,
    )


def _entered_effort(entered, activity: str) -> bool:
    return any(r.key == activity and r.effort_low is not None for r in entered)


def procurement_cost(
    lines: Sequence[LineItem],
    project,
    currency: str | None = None,
    day: date | None = None,
) -> CostRange | None:
    """The guarding and devices' cost: the priced lines summed as the Costs
    tab sums them. In one currency: the plan's (``currency``, that of the
    costs entered for it) if given, else the lines' own; lines in another
    currency are converted at the organisation's exchange rates valid on
    ``day`` (today if None), and a converted range is widened to whole cents
    (won). None when there are no lines, or a rate is missing (no rate is
    assumed)."""
    if not lines:
        return None
    used = {i.currency for i in lines if i.currency}
    target = currency or (next(iter(used)) if len(used) == 1 else project.currency)
    on = rates.project_rates(project, day) if rates.needed(used, target) else None
    if on is not None and on.missing_for(used, target):
        return None
    result = totals(lines, target, on.rates if on is not None else {})
    low, high = outward(result.low, result.high, target)
    return CostRange(
        low=low,
        high=high,
        currency=target,
        source=PROCUREMENT_COST_SOURCE,
    )
