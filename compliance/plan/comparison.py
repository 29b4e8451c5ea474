"""Sim-first against physical-first: two PoC plans for one robot cell, compared
honestly.

The sim-first plan adds a simulation phase (model the cell; validate reach,
cycle time, SSM fields and PFL speeds in simulation) that starts at week 0,
beside the risk assessment and procurement: simulation needs no fence, no
certification and risks no accident (the reference data's README, "Simulation-first argument"). The physical phase follows as in the
physical-first plan, and its staged validation on the real cell is never
skipped: a simulation result is never a deployment gate.

How much of the physical validation simulation can retire depends on how well
the cell's task transfers from simulation, which follows from its application
(``cells.applications``): mobile and locomotion tasks transfer well, narrow,
structured pick-and-place and palletising partly, and for precise contact-rich
manipulation (assembly, insertion, grinding) simulation is an evaluation aid
that needs real demonstrations beside it, so nothing about the physical
validation shrinks; the process applications (welding, painting, dispensing)
are planned as cautiously, as no public source was found that their process
transfers. Contact dynamics,
real stopping times and physical force and pressure measurement can never be
proven in simulation.

The comparison states every assumption it rests on and takes its inputs back
for editing. It claims an advantage only when both ends of the ranges support
it; otherwise it says that the ranges overlap and no advantage is shown.

The sim-first plan is built in ``sim_first``; what simulation can and cannot
retire, the assumptions and the notes are worded in ``explanations``.

Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict

from cells.applications import APPLICATION_LABELS, Application, TaskType
from compliance.calculators.base import Line, format_number, format_range, gettext_noop
from compliance.plan.explanations import (
    assumption_lines,
    cannot_prove,
    plan_notes,
    sim_can_retire,
)
from compliance.plan.inputs import PlanInputs
from compliance.plan.physical import physical_first_activities
from compliance.plan.schedule import (
    MILESTONE_KEYS,
    PLAN_NAMES,
    POC_START,
    SIM_RESULT,
    VALIDATION_KEYS,
    ZERO,
    Activity,
    Maturity,
    PlanKey,
    Schedule,
    schedule,
)
from compliance.plan.sim_first import sim_first_activities

Measure = Literal["first_validated_result", "poc_start", "cost"]
Outcome = Literal[
    "sim_first_ahead", "physical_first_ahead", "no_advantage_shown", "not_comparable"
]

ON_REAL_CELL = gettext_noop("validated on the real cell")
IN_SIMULATION_ONLY = gettext_noop("validated in simulation only")
IN_SIMULATION_ONLY_AID = gettext_noop(
    "validated in simulation only; for this task simulation is an evaluation aid"
)

MATURITY_LABELS: dict[Maturity, str] = {
    "transfers_well": gettext_noop("Transfers from simulation well"),
    "partly": gettext_noop("Transfers from simulation partly"),
    "evaluation_aid_only": gettext_noop("Simulation is an evaluation aid only"),
}
# By task type, so that each application is said to be what it is: an
# arc-welding cell is not called pick-and-place, nor contact-rich.
_MATURITY_TEXT: dict[TaskType, str] = {
    "mobile_locomotion": gettext_noop(
        "%(application)s: mobile and locomotion tasks transfer from simulation well."
    ),
    "structured_pick_place": gettext_noop(
        "%(application)s: narrow, structured handling (pick-and-place, "
        "palletising) transfers from simulation partly."
    ),
    "contact_rich_manipulation": gettext_noop(
        "%(application)s: precise contact-rich manipulation (assembly, "
        "insertion, grinding) does not transfer from simulation: there "
        "simulation is an evaluation aid that needs real demonstrations beside "
        "it."
    ),
    "process": gettext_noop(
        "%(application)s: no public source was found that the process "
        "(welding, painting, dispensing) transfers from simulation, so here "
        "simulation is an evaluation aid that needs real demonstrations beside "
        "it, as for contact-rich tasks."
    ),
}


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PlanSummary(_Frozen):
    """One plan's schedule and the figures the comparison puts side by side."""

    key: PlanKey
    name: str
    schedule: Schedule
    currency: str  # "" when no cost is known
    cost_known_low: Decimal  # sum over activities whose cost is known
    cost_known_high: Decimal
    unknown_cost_keys: tuple[str, ...]  # activities whose cost is not known
    first_result_weeks_low: Decimal
    first_result_weeks_high: Decimal
    first_result_label: str
    poc_start_weeks_low: Decimal
    poc_start_weeks_high: Decimal

    @property
    def unknown_cost_count(self) -> int:
        return len(self.unknown_cost_keys)


class VerdictItem(_Frozen):
    """What the figures say on one measure, and only what they support."""

    measure: Measure
    outcome: Outcome
    line: Line


class Comparison(_Frozen):
    """Physical-first and sim-first plans side by side, with the assumptions
    they rest on, what simulation cannot prove, and an honest verdict."""

    inputs: PlanInputs  # edit these and compare again
    application: Application
    task_type: TaskType  # derived from the application
    maturity: Maturity
    maturity_label: str
    maturity_line: Line
    sim_can_retire: tuple[Line, ...]
    cannot_prove: tuple[Line, ...]  # still required on the real cell, both plans
    physical_first: PlanSummary
    sim_first: PlanSummary
    assumptions: tuple[Line, ...]
    notes: tuple[Line, ...]
    verdict: tuple[VerdictItem, ...]
    summary: Line


# --- the comparison -------------------------------------------------------------


def compare(inputs: PlanInputs) -> Comparison:
    """Both plans for ``inputs``, side by side, with an honest verdict."""
    maturity = inputs.maturity
    physical = _summary(
        "physical_first",
        physical_first_activities(inputs),
        first_result_keys=VALIDATION_KEYS,
        first_result_label=ON_REAL_CELL,
    )
    sim = _summary(
        "sim_first",
        sim_first_activities(inputs),
        first_result_keys=(SIM_RESULT,),
        first_result_label=IN_SIMULATION_ONLY_AID
        if maturity == "evaluation_aid_only"
        else IN_SIMULATION_ONLY,
    )
    verdict = (
        _verdict_weeks(
            "first_validated_result",
            (sim.first_result_weeks_low, sim.first_result_weeks_high),
            (physical.first_result_weeks_low, physical.first_result_weeks_high),
        ),
        _verdict_weeks(
            "poc_start",
            (sim.poc_start_weeks_low, sim.poc_start_weeks_high),
            (physical.poc_start_weeks_low, physical.poc_start_weeks_high),
        ),
        _verdict_cost(sim, physical),
    )
    return Comparison(
        inputs=inputs,
        application=inputs.application,
        task_type=inputs.task_type,
        maturity=maturity,
        maturity_label=MATURITY_LABELS[maturity],
        maturity_line=Line(
            text=_MATURITY_TEXT[inputs.task_type],
            values={"application": APPLICATION_LABELS[inputs.application]},
        ),
        sim_can_retire=sim_can_retire(inputs),
        cannot_prove=cannot_prove(inputs),
        physical_first=physical,
        sim_first=sim,
        assumptions=assumption_lines(inputs, physical.schedule, sim.schedule),
        notes=plan_notes(inputs, physical.schedule),
        verdict=verdict,
        summary=_summary_line(verdict),
    )


def _summary(
    key: PlanKey,
    activities: tuple[Activity, ...],
    *,
    first_result_keys: tuple[str, ...],
    first_result_label: str,
) -> PlanSummary:
    plan = schedule(activities)
    # A milestone, or a part of another activity, has no cost of its own.
    costed = [a for a in activities if a.key not in MILESTONE_KEYS and not a.part_of]
    known = [a for a in costed if a.cost_low is not None and a.cost_high is not None]
    first_low, first_high = plan.finish(first_result_keys)
    poc = plan.get(POC_START)
    return PlanSummary(
        key=key,
        name=PLAN_NAMES[key],
        schedule=plan,
        currency=next((a.currency for a in known), ""),
        cost_known_low=sum((a.cost_low or ZERO for a in known), ZERO),
        cost_known_high=sum((a.cost_high or ZERO for a in known), ZERO),
        unknown_cost_keys=tuple(a.key for a in costed if not a.cost_known),
        first_result_weeks_low=first_low,
        first_result_weeks_high=first_high,
        first_result_label=first_result_label,
        poc_start_weeks_low=poc.finish_low,
        poc_start_weeks_high=poc.finish_high,
    )


def _ahead(
    sim: tuple[Decimal, Decimal], physical: tuple[Decimal, Decimal]
) -> tuple[Outcome, Decimal]:
    """Which plan is ahead on both ends of the ranges (lower is better), and by
    at least how much; the ranges must not touch."""
    if sim[1] < physical[0]:
        return "sim_first_ahead", physical[0] - sim[1]
    if physical[1] < sim[0]:
        return "physical_first_ahead", sim[0] - physical[1]
    return "no_advantage_shown", ZERO


_WEEKS_TEXT: dict[tuple[Measure, Outcome], str] = {
    ("first_validated_result", "sim_first_ahead"): gettext_noop(
        "First validated result: sim-first after %(sim)s weeks, validated in "
        "simulation only; physical-first after %(physical)s weeks, validated on "
        "the real cell. Both ends of the ranges put sim-first at least %(gap)s "
        "weeks earlier, but its result is not a physical validation and is no "
        "deployment gate."
    ),
    ("first_validated_result", "physical_first_ahead"): gettext_noop(
        "First validated result: physical-first after %(physical)s weeks, on the "
        "real cell; sim-first after %(sim)s weeks, in simulation only. Both ends "
        "of the ranges put physical-first at least %(gap)s weeks earlier."
    ),
    ("first_validated_result", "no_advantage_shown"): gettext_noop(
        "First validated result: the ranges overlap (sim-first %(sim)s weeks, in "
        "simulation only; physical-first %(physical)s weeks): no advantage shown."
    ),
    ("poc_start", "sim_first_ahead"): gettext_noop(
        "Weeks to PoC start: sim-first %(sim)s, physical-first %(physical)s. Both "
        "ends of the ranges put sim-first at least %(gap)s weeks earlier."
    ),
    ("poc_start", "physical_first_ahead"): gettext_noop(
        "Weeks to PoC start: physical-first %(physical)s, sim-first %(sim)s. Both "
        "ends of the ranges put physical-first at least %(gap)s weeks earlier."
    ),
    ("poc_start", "no_advantage_shown"): gettext_noop(
        "Weeks to PoC start: the ranges overlap (sim-first %(sim)s, "
        "physical-first %(physical)s): no advantage shown."
    ),
}


def _verdict_weeks(
    measure: Measure,
    sim: tuple[Decimal, Decimal],
    physical: tuple[Decimal, Decimal],
) -> VerdictItem:
    outcome, gap = _ahead(sim, physical)
    values = {"sim": format_range(*sim), "physical": format_range(*physical)}
    if gap:
        values["gap"] = format_number(gap)
    return VerdictItem(
        measure=measure,
        outcome=outcome,
        line=Line(text=_WEEKS_TEXT[(measure, outcome)], values=values),
    )


def format_money(value: Decimal) -> str:
    if value == value.to_integral_value():
        return f"{value:,.0f}"
    return f"{value:,.2f}"


def _money_range(plan: PlanSummary) -> str:
    low, high = plan.cost_known_low, plan.cost_known_high
    if low == high:
        return format_money(low)
    return f"{format_money(low)}–{format_money(high)}"


def _verdict_cost(sim: PlanSummary, physical: PlanSummary) -> VerdictItem:
    unknown = len({*sim.unknown_cost_keys, *physical.unknown_cost_keys})
    if unknown:
        return VerdictItem(
            measure="cost",
            outcome="not_comparable",
            line=Line(
                text=gettext_noop(
                    "Cost: the cost of %(count)s activities is not known (they "
                    "are listed in the assumptions), so the totals are "
                    "incomplete: no cost advantage shown."
                ),
                values={"count": unknown},
            ),
        )
    outcome, gap = _ahead(
        (sim.cost_known_low, sim.cost_known_high),
        (physical.cost_known_low, physical.cost_known_high),
    )
    text = {
        "sim_first_ahead": gettext_noop(
            "Cost: sim-first %(sim)s %(currency)s, physical-first %(physical)s "
            "%(currency)s. Both ends of the ranges put sim-first at least %(gap)s "
            "%(currency)s cheaper."
        ),
        "physical_first_ahead": gettext_noop(
            "Cost: physical-first %(physical)s %(currency)s, sim-first %(sim)s "
            "%(currency)s. Both ends of the ranges put physical-first at least "
            "%(gap)s %(currency)s cheaper."
        ),
        "no_advantage_shown": gettext_noop(
            "Cost: the ranges overlap (sim-first %(sim)s %(currency)s, "
            "physical-first %(physical)s %(currency)s): no advantage shown."
        ),
    }[outcome]
    values: dict[str, str | int | float] = {
        "sim": _money_range(sim),
        "physical": _money_range(physical),
        "currency": sim.currency or physical.currency,
    }
    if gap:
        values["gap"] = format_money(gap)
    return VerdictItem(
        measure="cost", outcome=outcome, line=Line(text=text, values=values)
    )


def _summary_line(verdict: tuple[VerdictItem, ...]) -> Line:
    sim = sum(item.outcome == "sim_first_ahead" for item in verdict)
    physical = sum(item.outcome == "physical_first_ahead" for item in verdict)
    if not sim and not physical:
        return Line(
            text=gettext_noop(
                "No advantage is shown for either plan: the ranges overlap or "
                "the costs are incomplete."
            )
        )
    return Line(
        text=gettext_noop(
            "An advantage is stated only where both ends of the ranges support "
            "it: sim-first on %(sim)s and physical-first on %(physical)s of "
            "%(total)s measures; on the others no advantage is shown."
        ),
        values={"sim": sim, "physical": physical, "total": len(verdict)},
    )
