"""The sim-first plan of a robot cell: a simulation phase (model the cell;
validate reach, cycle time, SSM fields and PFL speeds in simulation) from week
0 beside the risk assessment and procurement, then the physical phase as in
the physical-first plan, its validation on the real cell shortened only as far
as the task's sim-to-real maturity allows and never skipped: a simulation
result is never a deployment gate. Where the cell's cost lines ask for the
KIRIA workplace certification (Korea, a collaborative cell without the Art.
223 fence), it follows the validation on the real cell in this plan too: it
audits the installed cell, which no simulation stands in for. So does the CE
conformity assessment and technical file of a cell in the EU / EEA: the
declaration of conformity covers the installed cell.

A collaborative cell's robot programs with segments that fail, are to be
measured, or are joint moves not checked (issue 32) are each verified in the
simulation of the PFL speeds (or of the SSM fields), by line, before the
real cell is measured at those lines: an activity per program, with no time
or cost of its own (it is part of that simulation step).

Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from compliance.calculators.base import gettext_noop
from compliance.plan.inputs import PlanInputs, ProgramCheck
from compliance.plan.physical import physical_first_activities, planned_activity
from compliance.plan.schedule import (
    INSTALLATION,
    ONE,
    REAL_DEMONSTRATIONS,
    SIM_MODEL,
    SIM_PFL,
    SIM_PROGRAM,
    SIM_REACH_CYCLE,
    SIM_RESULT,
    SIM_SSM,
    VALIDATION_TASK,
    ZERO,
    Activity,
)

# --- the sim-first plan --------------------------------------------------------


def sim_first_activities(inputs: PlanInputs) -> tuple[Activity, ...]:
    """The sim-first plan: a simulation phase from week 0, beside the risk
    assessment and procurement; installation waits for its result; then the
    same staged validation on the real cell, of which only the task stage may
    shrink, by ``inputs.reduction`` (none where simulation is an evaluation
    aid only, the contact-rich and process applications, which get real
    demonstrations beside simulation instead)."""
    # One simulation engineer: the simulation tasks run one after another.
    simulation = [planned_activity(inputs, SIM_MODEL)]
    steps = [SIM_REACH_CYCLE]
    if "ssm" in inputs.collaborative_modes:
        steps.append(SIM_SSM)
    if "pfl" in inputs.collaborative_modes:
        steps.append(SIM_PFL)
    for key in steps:
        simulation.append(planned_activity(inputs, key, (simulation[-1].key,)))
    if steps[-1] in (SIM_SSM, SIM_PFL):
        for program in inputs.programs:
            if program.lines:
                simulation.append(
                    program_activity(program, steps[-1], simulation[-1].key)
                )
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
    aid_only = inputs.maturity == "evaluation_aid_only"
    if aid_only:
        # On a bench robot beside simulation, from week 0 (an assumption).
        simulation.append(planned_activity(inputs, REAL_DEMONSTRATIONS))

    physical: list[Activity] = []
    for activity in physical_first_activities(inputs):
        if activity.key == INSTALLATION:
            # The cell is built as simulated.
            activity = _replace(activity, depends_on=(*activity.depends_on, SIM_RESULT))
        elif activity.key == VALIDATION_TASK:
            if aid_only:
                activity = _replace(
                    activity, depends_on=(*activity.depends_on, REAL_DEMONSTRATIONS)
                )
            elif inputs.reduction > 0:
                activity = _shortened(activity, ONE - inputs.reduction)
        physical.append(activity)
    return (*simulation, *physical)


# A program's lines named in its activity; the findings and the Motion tab
# list them all.
LINES_NAMED = 3
# By the simulation step it is part of, for one line and for several.
PROGRAM_NAMES = {
    (SIM_PFL, False): gettext_noop(
        "Robot program %(number)s, line %(lines)s: verify in simulation, then "
        "measure force and pressure on the real cell"
    ),
    (SIM_PFL, True): gettext_noop(
        "Robot program %(number)s, lines %(lines)s: verify in simulation, then "
        "measure force and pressure on the real cell"
    ),
    (SIM_SSM, False): gettext_noop(
        "Robot program %(number)s, line %(lines)s: verify in simulation, then "
        "measure stopping and separation on the real cell"
    ),
    (SIM_SSM, True): gettext_noop(
        "Robot program %(number)s, lines %(lines)s: verify in simulation, then "
        "measure stopping and separation on the real cell"
    ),
}
PROGRAM_BASES = {
    SIM_PFL: gettext_noop(
        "The program's segments that move faster than a person at an operator "
        "station may be touched, where a person could be clamped, and its joint "
        "moves, which cannot be placed on the plan, verified line by line in the "
        "simulation of the PFL speeds. No duration or cost of its own: it is part "
        "of that simulation. A result in simulation is not a deployment gate: "
        "force and pressure are measured on the real cell at those lines."
    ),
    SIM_SSM: gettext_noop(
        "The program's segments that come too close to an operator station or "
        "to the protective field's boundary for their speed, and its joint "
        "moves, which cannot be placed on the plan, verified line by line in the "
        "simulation of the SSM fields. No duration or cost of its own: it is part "
        "of that simulation. A result in simulation is not a deployment gate: "
        "stopping and separation are measured on the real cell."
    ),
}


def program_activity(program: ProgramCheck, step: str, after: str) -> Activity:
    """Verifying ``program``'s flagged lines in the simulation ``step``
    (SIM_PFL or SIM_SSM), after the activity ``after``: no weeks of its own,
    no figure being known for it (it is part of ``step``)."""
    lines = program.lines
    shown = ", ".join(str(line) for line in lines[:LINES_NAMED])
    if len(lines) > LINES_NAMED:
        shown += ", …"
    return Activity(
        key=f"{SIM_PROGRAM}_{program.number}",
        name=PROGRAM_NAMES[(step, len(lines) > 1)],
        name_values={"number": program.number, "lines": shown},
        phase="simulation",
        duration_weeks_low=ZERO,
        duration_weeks_high=ZERO,
        depends_on=(after,),
        basis=PROGRAM_BASES[step],
        part_of=step,
    )


def _replace(activity: Activity, **changes: Any) -> Activity:
    # The cost's lines are kept as they are (dumped, they would be text).
    data = activity.model_dump(exclude={"note", "cost_basis"})
    # Those left out of a dump are carried over as they are.
    kept = {
        "cost_basis": activity.cost_basis,
        "name_values": activity.name_values,
        "part_of": activity.part_of,
    }
    return Activity.model_validate({**data, **kept, **changes})


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
