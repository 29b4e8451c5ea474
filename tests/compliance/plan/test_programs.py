"""The sim-first plan verifies a robot program's flagged lines (issue 32):
a program with failing or measured segments, or joint moves, adds an
activity naming its lines, which says the real cell is then measured; it
takes no weeks nor cost of its own (it is part of the simulation of the PFL
speeds), and a program with nothing to verify adds none."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from cells.selectors import cell_with_layout
from compliance.costs import selectors as cost_selectors
from compliance.plan.comparison import compare
from compliance.plan.inputs import PlanInputs, ProgramCheck
from compliance.plan.schedule import SIM_PFL, SIM_RESULT, SIM_SSM
from compliance.plan.selectors import plan_inputs
from compliance.plan.sim_first import sim_first_activities
from tests.cells.motion.test_findings import cobot, imported, program

__all__ = ["cobot"]  # the fixture, used by name


def _inputs(modes=("pfl",), *programs: ProgramCheck) -> PlanInputs:
    return PlanInputs(
        country="JP",
        application="machine_tending",
        collaborative_modes=modes,
        programs=programs,
    )


def _program_activities(inputs: PlanInputs):
    return [a for a in sim_first_activities(inputs) if a.key.startswith("sim_program")]


def test_a_failing_program_adds_its_verification_naming_the_lines():
    inputs = _inputs(("pfl",), ProgramCheck(number=1, failing_lines=(3, 7)))
    (activity,) = _program_activities(inputs)
    assert activity.key == "sim_program_1"
    assert activity.title() == (
        "Robot program 1, lines 3, 7: verify in simulation, then measure force "
        "and pressure on the real cell"
    )
    # Between the simulation of the PFL speeds and the simulation's result.
    by_key = {a.key: a for a in sim_first_activities(inputs)}
    assert activity.depends_on == (SIM_PFL,)
    assert by_key[SIM_RESULT].depends_on == ("sim_program_1",)
    # A simulation result is no deployment gate: the real cell is measured.
    assert "not a deployment gate" in activity.basis
    assert "measured on the real cell" in activity.basis


def test_a_passing_program_adds_none():
    assert _program_activities(_inputs(("pfl",), ProgramCheck(number=1))) == []


def test_measured_lines_and_joint_moves_are_verified_too_one_line_said_so():
    inputs = _inputs(
        ("pfl",),
        ProgramCheck(number=1, measure_lines=(5,)),
        ProgramCheck(number=2, joint_lines=(2, 4, 9, 11)),
    )
    first, second = _program_activities(inputs)
    assert first.title().startswith("Robot program 1, line 5: verify in simulation")
    assert second.title().startswith("Robot program 2, lines 2, 4, 9, …: verify")


def test_an_ssm_cell_measures_stopping_and_separation():
    (activity,) = _program_activities(
        _inputs(("ssm",), ProgramCheck(number=1, failing_lines=(3,)))
    )
    assert activity.part_of == SIM_SSM
    assert activity.title().endswith(
        "then measure stopping and separation on the real cell"
    )


def test_a_cell_that_does_not_collaborate_has_no_such_activity():
    inputs = _inputs((), ProgramCheck(number=1, failing_lines=(3,)))
    assert _program_activities(inputs) == []


def test_the_verification_takes_no_weeks_nor_cost_of_its_own():
    plain = compare(_inputs(("pfl",)))
    flagged = compare(_inputs(("pfl",), ProgramCheck(number=1, failing_lines=(3,))))
    for measure in ("total_weeks_low", "total_weeks_high"):
        assert getattr(flagged.sim_first.schedule, measure) == getattr(
            plain.sim_first.schedule, measure
        )
    assert flagged.sim_first.unknown_cost_keys == plain.sim_first.unknown_cost_keys
    assert not any("Robot program" in line.render() for line in flagged.assumptions)


@pytest.mark.django_db
def test_the_api_names_it_in_full(owner, cobot):
    imported(cobot, owner, program("1.0"))
    client = APIClient()
    client.force_authenticate(owner)
    plan = client.get(f"/api/v1/cells/{cobot.pk}/plan/").json()
    names = {
        a["activity"]["key"]: a["activity"]["name"]
        for a in plan["sim_first"]["schedule"]["activities"]
    }
    assert names["sim_program_1"] == (
        "Robot program 1, line 3: verify in simulation, then measure force and "
        "pressure on the real cell"
    )


@pytest.mark.django_db
def test_a_slow_program_leaves_the_plan_as_it_was(owner, cobot):
    imported(cobot, owner, program("0.25"))
    cell = cell_with_layout(owner, cobot.pk)
    inputs = plan_inputs(cell, cost_selectors.line_items(cell))
    assert inputs.programs == (ProgramCheck(number=1),)
    assert _program_activities(inputs) == []
