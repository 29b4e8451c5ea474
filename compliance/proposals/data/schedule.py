"""The schedule section of a proposal: the physical-first and sim-first
plans with their activities and cost in the proposal currency, compared, and
the verdict sentences with their weeks to the half-week."""

from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from compliance.costs import selectors as cost_selectors
from compliance.plan.comparison import Comparison, PlanSummary
from compliance.proposals import presentation
from compliance.proposals.pdf.data import (
    ActivityRow,
    ComparisonRow,
    MoneyRange,
    PlanData,
    Row,
    ScheduleSection,
    WeeksRange,
)
from compliance.proposals.presentation import half_weeks, weeks_text


def verdict_text(verdict, comparison: Comparison) -> str:
    """A verdict sentence with its weeks to the half-week."""
    line = verdict.line
    plans = (comparison.sim_first, comparison.physical_first)
    if verdict.measure == "first_validated_result":
        ranges = [(p.first_result_weeks_low, p.first_result_weeks_high) for p in plans]
    elif verdict.measure == "poc_start":
        ranges = [(p.poc_start_weeks_low, p.poc_start_weeks_high) for p in plans]
    else:
        return line.render(_)
    values = dict(line.values)
    values["sim"], values["physical"] = (weeks_text(*r) for r in ranges)
    if "gap" in values:
        # "at least" so many weeks: rounded down.
        gap = Decimal(str(values["gap"]).replace(",", ""))
        values["gap"] = weeks_text(half_weeks(gap, gap)[0], half_weeks(gap, gap)[0])
    return line.model_copy(update={"values": values}).render(_)


def _plan(plan: PlanSummary, project) -> PlanData:
    """A plan with its cost in the proposal currency: the activities whose
    cost is in a currency without a rate are listed, not summed."""
    target, rates = project.currency, project.rates
    low = high = Decimal(0)
    known = False
    not_converted = []
    for scheduled in plan.schedule.activities:
        activity = scheduled.activity
        if activity.cost_low is None or activity.cost_high is None:
            continue
        pair = presentation.to_currency(
            activity.cost_low, activity.cost_high, activity.currency, target, rates
        )
        if pair is None:
            not_converted.append(
                Row(
                    label=_(activity.name),
                    value=f"{activity.currency} "
                    f"{cost_selectors.money_range_text(activity.cost_low, activity.cost_high)}",
                )
            )
            continue
        known = True
        low += pair[0]
        high += pair[1]
    return PlanData(
        name=_(plan.name),
        activities=tuple(
            ActivityRow(
                name=_(s.activity.name),
                start_week_low=s.start_low,
                start_week_high=s.start_high,
                finish_week_low=s.finish_low,
                finish_week_high=s.finish_high,
                critical=s.critical_high,
                assumption=s.activity.assumption,
            )
            for s in plan.schedule.activities
        ),
        total_weeks=WeeksRange(
            low=plan.schedule.total_weeks_low, high=plan.schedule.total_weeks_high
        ),
        cost=MoneyRange(
            currency=target,
            low=cost_selectors.exact(low),
            high=cost_selectors.exact(high),
        )
        if known
        else None,
        unpriced_activities=len(plan.unknown_cost_keys),
        not_converted=tuple(not_converted),
    )


def _known_cost(plan: PlanData, unknown: int) -> str:
    """ "KRW 1,000–2,000 + 6 items to be quoted": the count in words."""
    parts = []
    if plan.cost is not None:
        parts.append(
            f"{plan.cost.currency} "
            f"{cost_selectors.money_range_text(plan.cost.low, plan.cost.high)}"
        )
    if unknown:
        parts.append(
            ngettext(
                "%(count)s item to be quoted", "%(count)s items to be quoted", unknown
            )
            % {"count": f"{unknown:,}"}
        )
    if plan.not_converted:
        count = len(plan.not_converted)
        parts.append(
            ngettext(
                "%(count)s item not converted (rate needed)",
                "%(count)s items not converted (rate needed)",
                count,
            )
            % {"count": f"{count:,}"}
        )
    if not parts:
        return "—"
    if plan.cost is None:
        return " + ".join(parts)
    return f"{parts[0]}" + "".join(f" + {part}" for part in parts[1:])


def schedule_section(comparison: Comparison, project) -> ScheduleSection:
    physical, sim = comparison.physical_first, comparison.sim_first
    physical_data, sim_data = _plan(physical, project), _plan(sim, project)

    return ScheduleSection(
        physical_first=physical_data,
        sim_first=sim_data,
        comparison=(
            ComparisonRow(
                metric=_("First validated result (weeks)"),
                physical_first=f"{weeks_text(physical.first_result_weeks_low, physical.first_result_weeks_high)} "
                f"({_(physical.first_result_label)})",
                sim_first=f"{weeks_text(sim.first_result_weeks_low, sim.first_result_weeks_high)} "
                f"({_(sim.first_result_label)})",
            ),
            ComparisonRow(
                metric=_("PoC start (weeks)"),
                physical_first=weeks_text(
                    physical.poc_start_weeks_low, physical.poc_start_weeks_high
                ),
                sim_first=weeks_text(sim.poc_start_weeks_low, sim.poc_start_weeks_high),
            ),
            ComparisonRow(
                metric=_("Known cost"),
                physical_first=_known_cost(
                    physical_data, len(physical.unknown_cost_keys)
                ),
                sim_first=_known_cost(sim_data, len(sim.unknown_cost_keys)),
            ),
        ),
        verdict=tuple(verdict_text(v, comparison) for v in comparison.verdict),
        maturity_note=comparison.maturity_line.render(_),
        assumptions=tuple(
            text for text in map(presentation.customer_line, comparison.notes) if text
        ),
        cannot_prove=tuple(line.render(_) for line in comparison.cannot_prove),
    )
