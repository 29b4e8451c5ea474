"""The schedule section of a proposal: the physical-first and sim-first
plans with their activities and cost in the proposal currency, compared, and
the verdict sentences with their weeks to the half-week."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from compliance.costs import selectors as cost_selectors
from compliance.costs.rates import conversion_rates
from compliance.plan.comparison import Comparison, PlanSummary
from compliance.plan.schedule import PROCUREMENT
from compliance.proposals import presentation
from compliance.proposals.data.costs import rate_rows
from compliance.proposals.pdf.data import (
    ActivityRow,
    ComparisonRow,
    MoneyRange,
    PlanData,
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


def _plan(
    plan: PlanSummary, project, on: date | None, other_costs: tuple[MoneyRange, ...]
) -> PlanData:
    """A plan with its cost in the proposal currency when the organisation
    has the rates valid on ``on`` (the proposal's date) to convert it, else
    in the plan's own currency: the ranges it has, never left out."""
    target = project.currency
    known = [
        s.activity
        for s in plan.schedule.activities
        if s.activity.cost_low is not None and s.activity.cost_high is not None
    ]
    codes = {a.currency for a in known}
    rates_on = conversion_rates(project, codes, on)
    converts = not rates_on.missing_for(codes, target)
    sums: dict[str, list[Decimal]] = {}
    for activity in known:
        pair, currency = (activity.cost_low, activity.cost_high), activity.currency
        if converts:
            pair = presentation.to_currency(*pair, currency, target, rates_on.rates)
            currency = target
        total = sums.setdefault(currency, [Decimal(0), Decimal(0)])
        total[0] += pair[0]
        total[1] += pair[1]
    ranges = [
        MoneyRange(
            currency=currency,
            low=cost_selectors.exact(low),
            high=cost_selectors.exact(high),
        )
        for currency, (low, high) in sums.items()
    ]
    # The guarding and devices priced apart, where the plan has them, are
    # not "to be quoted".
    apart = other_costs if PROCUREMENT in plan.unknown_cost_keys else ()
    unknown = len(plan.unknown_cost_keys) - (1 if apart else 0)
    return PlanData(
        name=_(plan.name),
        activities=tuple(
            ActivityRow(
                name=s.activity.title(_),
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
        cost=ranges[0] if ranges else None,
        unpriced_activities=unknown,
        # A plan's costs are in one currency (``PlanInputs``); were there
        # another, it would be shown beside, never dropped.
        other_costs=(*ranges[1:], *apart),
    )


def _procurement_apart(comparison: Comparison, items) -> tuple[MoneyRange, ...]:
    """The guarding and devices' priced lines per currency when the plan
    could not sum them in its currency for want of a rate (no line is still
    to be quoted, and no cost was entered for them); empty otherwise."""
    inputs = comparison.inputs
    if (
        inputs.procurement_cost is not None
        or PROCUREMENT in inputs.costs
        or inputs.procurement_unpriced_lines
    ):
        return ()
    lines = [i for i in cost_selectors.safeguards(items) if i.quantity > 0]
    return tuple(
        MoneyRange(currency=t["currency"], low=t["range"][0], high=t["range"][1])
        for t in cost_selectors.totals_by_currency(lines)
        if t["currency"]
    )


def _money(value: MoneyRange) -> str:
    return f"{value.currency} {cost_selectors.money_range_text(value.low, value.high)}"


def _known_cost(plan: PlanData) -> str:
    """ "KRW 1,000–2,000 + USD 900 + 6 items to be quoted": every range the
    plan has, and the count of what is to be quoted in words."""
    parts = []
    if plan.cost is not None:
        parts.append(_money(plan.cost))
    parts += [_money(cost) for cost in plan.other_costs]
    unknown = plan.unpriced_activities
    if unknown:
        parts.append(
            ngettext(
                "%(count)s item to be quoted", "%(count)s items to be quoted", unknown
            )
            % {"count": f"{unknown:,}"}
        )
    return " + ".join(parts) if parts else "—"


def schedule_section(
    comparison: Comparison, project, *, on: date | None = None, items=()
) -> ScheduleSection:
    """Both plans and their comparison; costs in the proposal currency at the
    organisation's rates valid on ``on`` (the proposal's date; today if
    None) where they convert, else in their own. ``items``: the cell's cost
    lines, whose guarding and devices are shown apart when the plan could
    not sum them."""
    physical, sim = comparison.physical_first, comparison.sim_first
    apart = _procurement_apart(comparison, items)
    physical_data = _plan(physical, project, on, apart)
    sim_data = _plan(sim, project, on, apart)
    # The rates the plans' costs were converted with, if they were.
    foreign = {p.currency for p in (physical, sim) if p.currency} - {project.currency}
    shown = {d.cost.currency for d in (physical_data, sim_data) if d.cost}
    converted = foreign if project.currency in shown else set()

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
                physical_first=_known_cost(physical_data),
                sim_first=_known_cost(sim_data),
            ),
        ),
        verdict=tuple(verdict_text(v, comparison) for v in comparison.verdict),
        maturity_note=comparison.maturity_line.render(_),
        assumptions=tuple(
            text for text in map(presentation.customer_line, comparison.notes) if text
        ),
        cannot_prove=tuple(line.render(_) for line in comparison.cannot_prove),
        rates=rate_rows(
            conversion_rates(project, converted, on), converted, project.currency
        ),
    )
