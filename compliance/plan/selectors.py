"""Reads of the plan: the inputs of the schedule and comparison, from the
cell's cost lines and the project's own figures."""

from __future__ import annotations

from cells.models import Cell
from compliance.plan.inputs import CostRange, PlanInputs, WeeksRange
from compliance.plan.schedule import longest_lead_time


def plan_inputs(cell: Cell, items) -> PlanInputs:
    """The plan's inputs: lead times from the device lines, and the
    project's own durations and costs where the user entered them."""
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
    return PlanInputs(
        country=cell.project.country,
        collaborative_mode=cell.collaborative_mode or None,
        task_type=cell.task_type,
        procurement_lead_time_weeks_low=lead[0] if lead else None,
        procurement_lead_time_weeks_high=lead[1] if lead else None,
        procurement_items_without_lead_time=without,
        durations=durations,
        costs=costs,
    )
