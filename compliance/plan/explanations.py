"""What a comparison of the two plans says in words: what simulation can
retire for the cell's task (as its application is planned) and what it can
never prove, every assumption the comparison rests on (each activity whose
duration or cost has no public figure), and the notes beside the verdict.

Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from decimal import Decimal

from cells.applications import APPLICATION_LABELS
from compliance.calculators.base import Line, format_number, format_range, gettext_noop
from compliance.plan.inputs import (
    CE_CONFORMITY,
    KIRIA_CERTIFICATION,
    SIM_REDUCTION_CAP,
    PlanInputs,
)
from compliance.plan.schedule import (
    KCS_CERTIFICATION,
    MILESTONE_KEYS,
    PLAN_NAMES,
    Activity,
    Schedule,
)

# --- what simulation can and cannot do --------------------------------------------


def _percent(value: Decimal) -> str:
    return format_number(value * 100)


def sim_can_retire(inputs: PlanInputs) -> tuple[Line, ...]:
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


def cannot_prove(inputs: PlanInputs) -> tuple[Line, ...]:
    pfl = (
        gettext_noop(
            "Physical force and pressure measurement for power and force "
            "limiting, against the ISO/TS 15066 limits (now in ISO "
            "10218-2:2025): still required on the real cell in both plans."
        )
        if "pfl" in inputs.collaborative_modes
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


def assumption_lines(
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
    if inputs.country != "KR" and not inputs.ce_conformity:
        lines.append(
            Line(
                text=gettext_noop(
                    "No certification step is scheduled for %(country)s: the "
                    "plans cover Korea's KCs and KIRIA certifications and the "
                    "CE conformity assessment in the EU and the EEA only. Add "
                    "one if your jurisdiction needs it."
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
        if (
            activity.key not in MILESTONE_KEYS
            and not activity.part_of
            and not activity.cost_known
        ):
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


def plan_notes(inputs: PlanInputs, physical: Schedule) -> tuple[Line, ...]:
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
                    "For this application (%(application)s) simulation is an "
                    "evaluation aid: real demonstrations run beside it, and the "
                    "validation on the real cell keeps its full length."
                ),
                values={"application": APPLICATION_LABELS[inputs.application]},
            )
        )
    if inputs.country == "KR":
        kcs = physical.get(KCS_CERTIFICATION).activity
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
    if inputs.kiria_certification:
        notes.extend(_kiria_notes(physical.get(KIRIA_CERTIFICATION).activity))
    if inputs.ce_conformity:
        notes.extend(_ce_notes(physical.get(CE_CONFORMITY).activity))
    return tuple(notes)


_KIRIA_UNKNOWN = {
    # (duration assumed, fee unknown) -> what is said of them
    (True, True): gettext_noop(
        "No public fee or lead time was found for the KIRIA certification: its "
        "%(weeks)s weeks are an assumption and its fee is to be quoted."
    ),
    (True, False): gettext_noop(
        "No public lead time was found for the KIRIA certification: its "
        "%(weeks)s weeks are an assumption."
    ),
    (False, True): gettext_noop(
        "No public fee was found for the KIRIA certification: its fee is to be quoted."
    ),
}


def _kiria_notes(kiria: Activity) -> list[Line]:
    """Why the KIRIA certification is where it is in both plans, and which of
    its figures no public source gives."""
    notes = [
        Line(
            text=gettext_noop(
                "KIRIA: without the Art. 223 fence, the collaborative cell needs "
                "the KIRIA collaborative-robot workplace certification, an audit "
                "of the installed cell, so both plans schedule it after the "
                "validation on the real cell and before the PoC starts."
            )
        )
    ]
    unknown = _KIRIA_UNKNOWN.get((kiria.assumption, not kiria.cost_known))
    if unknown is not None:
        weeks = format_range(kiria.duration_weeks_low, kiria.duration_weeks_high)
        notes.append(Line(text=unknown, values={"weeks": weeks}))
    return notes


_CE_UNKNOWN = {
    # (duration assumed, cost unknown) -> what is said of them
    (True, True): gettext_noop(
        "No public duration or cost was found for the CE conformity assessment "
        "and technical file: its %(weeks)s weeks are an assumption and its cost "
        "is to be quoted."
    ),
    (True, False): gettext_noop(
        "No public duration was found for the CE conformity assessment and "
        "technical file: its %(weeks)s weeks are an assumption."
    ),
    (False, True): gettext_noop(
        "No public cost was found for the CE conformity assessment and technical "
        "file: its cost is to be quoted."
    ),
}


def _ce_notes(ce: Activity) -> list[Line]:
    """Why the CE conformity assessment is where it is in both plans, and
    which of its figures no public source gives."""
    notes = [
        Line(
            text=gettext_noop(
                "CE: the integrator is the manufacturer of the assembled cell and "
                "its declaration of conformity covers the installed cell, so both "
                "plans schedule the conformity assessment and the technical file "
                "after the validation on the real cell and before the PoC starts."
            )
        )
    ]
    unknown = _CE_UNKNOWN.get((ce.assumption, not ce.cost_known))
    if unknown is not None:
        weeks = format_range(ce.duration_weeks_low, ce.duration_weeks_high)
        notes.append(Line(text=unknown, values={"weeks": weeks}))
    return notes
