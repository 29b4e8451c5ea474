"""Sim-first against physical-first: two PoC plans for one robot cell, compared
honestly.

The sim-first plan adds a simulation phase (model the cell; validate reach,
cycle time, SSM fields and PFL speeds in simulation) that starts at week 0,
beside the risk assessment and procurement: simulation needs no fence, no
certification and risks no accident (``/work/shared/reference/README.md``,
"Simulation-first argument"). The physical phase follows as in the
physical-first plan, and its staged validation on the real cell is never
skipped: a simulation result is never a deployment gate.

How much of the physical validation simulation can retire depends on how well
the cell's task transfers from simulation: mobile and locomotion tasks
transfer well, structured pick-and-place partly, and for precise contact-rich
manipulation simulation is an evaluation aid that needs real demonstrations
beside it, so nothing about the physical validation shrinks. Contact dynamics,
real stopping times and physical force and pressure measurement can never be
proven in simulation.

The comparison states every assumption it rests on and takes its inputs back
for editing. It claims an advantage only when both ends of the ranges support
it; otherwise it says that the ranges overlap and no advantage is shown.

Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from compliance.calculators.base import Line, gettext_noop
from compliance.plan.schedule import (
    INSTALLATION,
    MILESTONE_KEYS,
    ONE,
    POC_START,
    REAL_DEMONSTRATIONS,
    SIM_MODEL,
    SIM_PFL,
    SIM_REACH_CYCLE,
    SIM_REDUCTION_CAP,
    SIM_RESULT,
    SIM_SSM,
    VALIDATION_KEYS,
    VALIDATION_TASK,
    ZERO,
    Activity,
    Maturity,
    PlanInputs,
    Schedule,
    TaskType,
    format_number,
    format_range,
    physical_first_activities,
    planned_activity,
    schedule,
)

PlanKey = Literal["physical_first", "sim_first"]
Measure = Literal["first_validated_result", "poc_start", "cost"]
Outcome = Literal[
    "sim_first_ahead", "physical_first_ahead", "no_advantage_shown", "not_comparable"
]

PLAN_NAMES: dict[PlanKey, str] = {
    "physical_first": gettext_noop("Physical first"),
    "sim_first": gettext_noop("Simulation first"),
}
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
_MATURITY_TEXT: dict[Maturity, str] = {
    "transfers_well": gettext_noop(
        "Mobile and locomotion tasks transfer from simulation well."
    ),
    "partly": gettext_noop(
        "Narrow, structured pick-and-place transfers from simulation partly."
    ),
    "evaluation_aid_only": gettext_noop(
        "Precise contact-rich manipulation (assembly, insertion, multi-finger "
        "grasping) does not transfer from simulation: there simulation is an "
        "evaluation aid that needs real demonstrations beside it."
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
    task_type: TaskType
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


# --- the sim-first plan --------------------------------------------------------


def sim_first_activities(inputs: PlanInputs) -> tuple[Activity, ...]:
    """The sim-first plan: a simulation phase from week 0, beside the risk
    assessment and procurement; installation waits for its result; then the
    same staged validation on the real cell, of which only the task stage may
    shrink, by ``inputs.reduction`` (none for contact-rich tasks, which get
    real demonstrations beside simulation instead)."""
    # One simulation engineer: the simulation tasks run one after another.
    simulation = [planned_activity(inputs, SIM_MODEL)]
    steps = [SIM_REACH_CYCLE]
    if inputs.collaborative_mode == "ssm":
        steps.append(SIM_SSM)
    if inputs.collaborative_mode == "pfl":
        steps.append(SIM_PFL)
    for key in steps:
        simulation.append(planned_activity(inputs, key, (simulation[-1].key,)))
    simulation.append(
        Activity(
            key=SIM_RESULT,
            name=gettext_noop("First result, validated in simulation only"),
            phase="milestone",
            duration_weeks_low=ZERO,
            duration_weeks_high=ZERO,
            depends_on=(simulation[-1].key,),
            basis=gettext_noop(
                "The end of the simulation phase. A result in simulation is not a "
                "deployment gate: the staged validation on the real cell follows."
            ),
        )
    )
    contact_rich = inputs.maturity == "evaluation_aid_only"
    if contact_rich:
        # On a bench robot beside simulation, from week 0 (an assumption).
        simulation.append(planned_activity(inputs, REAL_DEMONSTRATIONS))

    physical: list[Activity] = []
    for activity in physical_first_activities(inputs):
        if activity.key == INSTALLATION:
            # The cell is built as simulated.
            activity = _replace(activity, depends_on=(*activity.depends_on, SIM_RESULT))
        elif activity.key == VALIDATION_TASK:
            if contact_rich:
                activity = _replace(
                    activity, depends_on=(*activity.depends_on, REAL_DEMONSTRATIONS)
                )
            elif inputs.reduction > 0:
                activity = _shortened(activity, ONE - inputs.reduction)
        physical.append(activity)
    return (*simulation, *physical)


def _replace(activity: Activity, **changes: Any) -> Activity:
    data = activity.model_dump(exclude={"note"})
    return Activity.model_validate({**data, **changes})


def _shortened(activity: Activity, factor: Decimal) -> Activity:
    changes: dict[str, Any] = {
        "duration_weeks_low": activity.duration_weeks_low * factor,
        "duration_weeks_high": activity.duration_weeks_high * factor,
        # The shortening is itself an assumption, so the result is one.
        "assumption": True,
        "certainty": None,
        "basis": gettext_noop(
            "Commissioning the task on the real cell, shortened because reach, "
            "cycle time and the fields were validated in simulation first. The "
            "shortening (duration and cost) is an assumption."
        ),
    }
    if activity.cost_low is not None and activity.cost_high is not None:
        changes["cost_low"] = activity.cost_low * factor
        changes["cost_high"] = activity.cost_high * factor
    return _replace(activity, **changes)


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
        task_type=inputs.task_type,
        maturity=maturity,
        maturity_label=MATURITY_LABELS[maturity],
        maturity_line=Line(text=_MATURITY_TEXT[maturity]),
        sim_can_retire=_sim_can_retire(inputs),
        cannot_prove=_cannot_prove(inputs),
        physical_first=physical,
        sim_first=sim,
        assumptions=_assumptions(inputs, physical.schedule, sim.schedule),
        notes=_notes(inputs, physical.schedule),
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
    costed = [a for a in activities if a.key not in MILESTONE_KEYS]
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


# --- what simulation can and cannot do --------------------------------------------


def _percent(value: Decimal) -> str:
    return format_number(value * 100)


def _sim_can_retire(inputs: PlanInputs) -> tuple[Line, ...]:
    values = {
        "percent": _percent(inputs.reduction),
        "cap": _percent(SIM_REDUCTION_CAP[inputs.maturity]),
    }
    unchanged = Line(
        text=gettext_noop(
            "The stopping-time measurement, the safety-function tests and the "
            "force and pressure measurement on the real cell are not shortened."
        )
    )
    if inputs.maturity == "transfers_well":
        return (
            Line(
                text=gettext_noop(
                    "Layout, reach, paths and cycle time can largely be settled "
                    "in simulation before the cell is built."
                )
            ),
            Line(
                text=gettext_noop(
                    "The task stage of the validation on the real cell is "
                    "shortened by %(percent)s %% (at most %(cap)s %% for this "
                    "task): an assumption, edit to your project."
                ),
                values=values,
            ),
            unchanged,
        )
    if inputs.maturity == "partly":
        return (
            Line(
                text=gettext_noop(
                    "Reach, layout, collisions and a cycle-time estimate can be "
                    "checked in simulation; grasp success and part variation "
                    "still need the real cell."
                )
            ),
            Line(
                text=gettext_noop(
                    "The task stage of the validation on the real cell is "
                    "shortened by %(percent)s %% only (at most %(cap)s %% for "
                    "this task): an assumption, edit to your project."
                ),
                values=values,
            ),
            unchanged,
        )
    return (
        Line(
            text=gettext_noop(
                "Simulation is an evaluation aid only for this task: it can check "
                "reach, layout and collisions, but nothing about the physical "
                "validation shrinks."
            )
        ),
        Line(
            text=gettext_noop(
                "The sim-first plan adds real demonstrations beside simulation; "
                "the task stage on the real cell waits for them."
            )
        ),
        unchanged,
    )


def _cannot_prove(inputs: PlanInputs) -> tuple[Line, ...]:
    pfl = (
        gettext_noop(
            "Physical force and pressure measurement for power and force "
            "limiting, against the ISO/TS 15066 limits (now in ISO "
            "10218-2:2025): still required on the real cell in both plans."
        )
        if inputs.collaborative_mode == "pfl"
        else gettext_noop(
            "Physical force and pressure measurement for power and force "
            "limiting, against the ISO/TS 15066 limits (now in ISO "
            "10218-2:2025): required on the real cell whenever the cell uses "
            "power and force limiting; simulation cannot replace it."
        )
    )
    return (
        Line(
            text=gettext_noop(
                "Contact dynamics: how the gripper, tool and workpiece really "
                "behave on contact (forces, friction, compliance, part "
                "variation). Still required on the real cell in both plans."
            )
        ),
        Line(
            text=gettext_noop(
                "Real stopping times and distances of the installed robot, which "
                "set the safety distances (ISO 13855, S = K × T + C): measured on "
                "the real cell in both plans."
            )
        ),
        Line(text=pfl),
        Line(
            text=gettext_noop(
                "The real response of the safety devices and safety functions of "
                "the installed cell: tested on the real cell in both plans."
            )
        ),
    )


# --- assumptions and notes ---------------------------------------------------------


def _assumptions(
    inputs: PlanInputs, physical: Schedule, sim: Schedule
) -> tuple[Line, ...]:
    lines: list[Line] = [
        Line(
            text=gettext_noop(
                "In both plans the guarding and safety devices are ordered when "
                "the risk assessment is done."
            )
        ),
        Line(
            text=gettext_noop(
                "The simulation phase starts at week 0, beside the risk "
                "assessment and procurement, and its tasks run one after "
                "another (one simulation engineer)."
            )
        ),
        Line(
            text=gettext_noop(
                "In the sim-first plan installation waits for the simulation "
                "result, so the cell is built as simulated."
            )
        ),
        Line(
            text=gettext_noop(
                "The staged validation on the real cell runs in order: stopping "
                "times and safety functions first, then the task, then force and "
                "pressure at the final speeds (power and force limiting only)."
            )
        ),
    ]
    if inputs.procurement_lead_time_weeks_low is not None:
        lines.append(
            Line(
                text=gettext_noop(
                    "Procurement takes the longest lead time among the cell's "
                    "line items: everything is ordered together."
                )
            )
        )
        if inputs.procurement_items_without_lead_time:
            lines.append(
                Line(
                    text=gettext_noop(
                        "%(count)s line items have no lead time, so procurement "
                        "may take longer than the longest lead time known."
                    ),
                    values={"count": inputs.procurement_items_without_lead_time},
                )
            )
    if inputs.country != "KR":
        lines.append(
            Line(
                text=gettext_noop(
                    "No certification step is scheduled for %(country)s: the "
                    "reference data covers Korea's KCs only. Add one if your "
                    "jurisdiction needs it."
                ),
                values={"country": inputs.country},
            )
        )
    cap = SIM_REDUCTION_CAP[inputs.maturity]
    if cap > 0:
        text = (
            gettext_noop(
                "Simulation is assumed to shorten the task stage of the "
                "validation on the real cell, its duration and its cost, by "
                "%(percent)s %% (the most allowed for this task): an "
                "assumption, edit to your project."
            )
            if inputs.sim_validation_reduction is None
            else gettext_noop(
                "Simulation shortens the task stage of the validation on the "
                "real cell, its duration and its cost, by %(percent)s %% as "
                "entered for this project (at most %(cap)s %% for this task)."
            )
        )
        lines.append(
            Line(
                text=text,
                values={
                    "percent": _percent(inputs.reduction),
                    "cap": _percent(cap),
                },
            )
        )
    else:
        lines.append(
            Line(
                text=gettext_noop(
                    "The real demonstrations run on a bench robot beside "
                    "simulation from week 0, and the task stage on the real cell "
                    "waits for them. If they need the cell's own hardware they "
                    "come after installation and the sim-first plan is longer."
                )
            )
        )

    # Every assumed duration, once; an activity whose figures differ between
    # the plans (the shortened task stage) once per plan.
    physical_items = {item.key: item.activity for item in physical.activities}
    for item in sim.activities:
        activity = item.activity
        twin = physical_items.get(activity.key)
        same = twin is not None and (
            twin.duration_weeks_low,
            twin.duration_weeks_high,
        ) == (activity.duration_weeks_low, activity.duration_weeks_high)
        if twin is not None and twin.assumption and not same:
            lines.append(_assumed_line(twin, PLAN_NAMES["physical_first"]))
        if activity.assumption:
            differs = twin is not None and not same
            lines.append(
                _assumed_line(activity, PLAN_NAMES["sim_first"] if differs else None)
            )
    for item in sim.activities:
        activity = item.activity
        if activity.key not in MILESTONE_KEYS and not activity.cost_known:
            lines.append(
                Line(
                    text=gettext_noop(
                        "No cost entered for %(name)s: counted as unknown in the "
                        "totals."
                    ),
                    values={"name": activity.name},
                )
            )
    return tuple(lines)


def _assumed_line(activity: Activity, plan: str | None) -> Line:
    values: dict[str, str | int | float] = {
        "name": activity.name,
        "weeks": format_range(
            activity.duration_weeks_low, activity.duration_weeks_high
        ),
    }
    if plan is None:
        return Line(
            text=gettext_noop(
                "%(name)s: %(weeks)s weeks, an assumption: edit to your project."
            ),
            values=values,
        )
    return Line(
        text=gettext_noop(
            "%(name)s (%(plan)s): %(weeks)s weeks, an assumption: edit to your project."
        ),
        values={**values, "plan": plan},
    )


def _notes(inputs: PlanInputs, physical: Schedule) -> tuple[Line, ...]:
    notes = [
        Line(
            text=gettext_noop(
                "A simulation result is never a deployment gate: both plans end "
                "with staged validation on the real cell before the PoC starts."
            )
        ),
        Line(
            text=gettext_noop(
                "Simulation needs no fence and no certification and risks no "
                "accident, so it can validate the task before the guarding is "
                "installed; the physical phase still carries the guarding cost "
                "and lead time in both plans."
            )
        ),
    ]
    if inputs.maturity == "evaluation_aid_only":
        notes.append(
            Line(
                text=gettext_noop(
                    "For contact-rich manipulation simulation is an evaluation "
                    "aid: real demonstrations run beside it, and the validation "
                    "on the real cell keeps its full length."
                )
            )
        )
    if inputs.country == "KR":
        kcs = next(
            item.activity
            for item in physical.activities
            if item.activity.phase == "certification"
        )
        if kcs.certainty is not None:
            notes.append(
                Line(
                    text=gettext_noop(
                        "KCs: the %(weeks)s weeks for the robot's self-declaration "
                        "were quoted by one consultant (a single source); check "
                        "them with the certification body."
                    ),
                    values={
                        "weeks": format_range(
                            kcs.duration_weeks_low, kcs.duration_weeks_high
                        )
                    },
                )
            )
        if inputs.collaborative_mode is not None:
            notes.append(
                Line(
                    text=gettext_noop(
                        "The KIRIA collaborative-robot workplace certification "
                        "(the Art. 223 exemption route) is not scheduled: its "
                        "lead time was not found. Add it if you take that route."
                    )
                )
            )
    return tuple(notes)
