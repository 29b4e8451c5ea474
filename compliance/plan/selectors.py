"""Reads of the plan: the inputs of the schedule and comparison, from the
cell's cost lines and the project's own figures."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from cells.models import Cell
from compliance.calculators.base import Line, gettext_noop
from compliance.costs import LineItem, rates, totals
from compliance.costs.selectors import outward, safeguards
from compliance.plan.inputs import (
    ACTIVITY_LINES,
    KIRIA_CERTIFICATION,
    WORK_KEYS,
    CostRange,
    PlanInputs,
    ProgramCheck,
    WeeksRange,
)
from compliance.plan.labour.costing import money_range
from compliance.plan.labour.selectors import work_costs
from compliance.plan.programs import program_checks
from compliance.plan.schedule import (
    longest_lead_time,
)
from compliance.rules import results
from compliance.rules.inputs import cell_inputs

PROCUREMENT_COST_SOURCE = gettext_noop(
    "The priced guarding and device lines of the Costs tab"
)


ACTIVITY_COST_SOURCE = gettext_noop("The priced cost lines of this work")
BOUGHT_LINE = gettext_noop("Its priced cost lines: %(currency)s %(cost)s")
LINES_NOT_CONVERTED = gettext_noop(
    "The cost lines of this work are priced in a currency with no exchange rate "
    "to %(currency)s: record one (the organisation's exchange rates)."
)
LINES_TO_QUOTE = gettext_noop(
    "The cost lines of this work are still to be quoted (the Costs tab)."
)
WORK_COST_SOURCE = gettext_noop(
    "The organisation's labour rates and the work the activity takes, with "
    "its priced cost lines"
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
    line_costs, listed, unconverted = {}, set(), set()
    for activity, keys in ACTIVITY_LINES.items():
        lines = [i for i in items if i.quantity > 0 and i.catalogue_key in keys]
        if lines:
            listed.add(activity)
        if lines and all(i.price_known for i in lines):
            cost = procurement_cost(lines, cell.project, target, day)
            if cost is not None:
                line_costs[activity] = cost.model_copy(
                    update={"source": ACTIVITY_COST_SOURCE}
                )
            else:
                unconverted.add(activity)
    worked, only, missing = _work(
        cell, entered, target, day, line_costs, listed, unconverted
    )
    kiria = line_costs.pop(KIRIA_CERTIFICATION, None)
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
        work_only=only,
        programs=cell_programs(cell),
    )


def cell_programs(cell: Cell) -> tuple[ProgramCheck, ...]:
    """The lines of each of the cell's robot programs to verify (a cell
    loaded by ``cells.selectors.cell_with_layout``), worked out once per
    change of what the findings rest on. Without a program, or for a cell
    that collaborates by neither PFL nor SSM, none (and nothing is read)."""
    collaborating = {"pfl", "ssm"} & set(cell.collaborative_modes or ())
    if not collaborating or "motion" not in cell_inputs(cell).versions.present:
        return ()
    return results.kept(
        cell, "program-checks", lambda: program_checks(results.cell_snapshot(cell))
    )


def _work(cell, entered, target, day, line_costs, listed, unconverted):
    """The activities' own work costed from the labour rates, added to the
    cost of their lines (what is bought: a consultancy's documentation, a
    certification body's fee) where they have some: the work is the
    integrator's own. An activity whose work or lines cannot be costed yet
    has no cost, with the reason."""
    worked: dict[str, CostRange] = {}
    only: dict[str, CostRange] = {}
    missing: dict[str, tuple[Line, ...]] = {}
    for activity, work in work_costs(cell, entered, target, day).items():
        if activity not in WORK_KEYS:
            continue  # an activity the app no longer plans
        if not work.known:
            missing[activity] = work.lines
            continue
        low, high = outward(work.low, work.high, target)
        only[activity] = CostRange(low=low, high=high, currency=target)
        basis = work.lines
        if activity in listed:
            bought = line_costs.get(activity)
            if bought is None:
                why = (
                    Line(
                        text=LINES_NOT_CONVERTED,
                        values={"currency": target},
                    )
                    if activity in unconverted
                    else Line(text=LINES_TO_QUOTE)
                )
                missing[activity] = (*work.lines, why)
                continue
            low, high = low + bought.low, high + bought.high
            basis = (
                Line(
                    text=BOUGHT_LINE,
                    values={
                        "currency": target,
                        "cost": money_range(bought.low, bought.high),
                    },
                ),
                *basis,
            )
        worked[activity] = CostRange(
            low=low, high=high, currency=target, source=WORK_COST_SOURCE, basis=basis
        )
    return worked, only, missing


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
