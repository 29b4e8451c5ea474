"""Sim-first against physical-first: the sim-first plan, task maturity, what
simulation cannot prove, and a verdict that claims only what the numbers show."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from pydantic import ValidationError

from compliance.plan.comparison import compare
from compliance.plan.inputs import CostRange, PlanInputs, WeeksRange
from compliance.plan.physical import physical_first_activities
from compliance.plan.schedule import (
    INSTALLATION,
    POC_START,
    PROCUREMENT,
    REAL_DEMONSTRATIONS,
    RISK_ASSESSMENT,
    SIM_MODEL,
    SIM_PFL,
    SIM_REACH_CYCLE,
    SIM_RESULT,
    SIM_SSM,
    VALIDATION_PFL,
    VALIDATION_STOPPING,
    VALIDATION_TASK,
    schedule,
)
from compliance.plan.sim_first import sim_first_activities

D = Decimal
TASK_TYPES = ("mobile_locomotion", "structured_pick_place", "contact_rich_manipulation")


def _inputs(**kw):
    kw.setdefault("country", "JP")  # no certification step scheduled
    kw.setdefault("task_type", "mobile_locomotion")
    return PlanInputs(**kw)


def _by_key(activities):
    return {a.key: a for a in activities}


def _texts(lines):
    return [line.render() for line in lines]


def _weeks(value):
    return WeeksRange(low=D(value), high=D(value))


def _eur(value):
    return CostRange(low=D(value), high=D(value), currency="EUR")


# Fixed durations (low = high) so the expected totals can be written down.
FIXED = {
    RISK_ASSESSMENT: _weeks(2),
    INSTALLATION: _weeks(2),
    VALIDATION_STOPPING: _weeks(1),
    VALIDATION_TASK: _weeks(6),
    SIM_MODEL: _weeks(2),
    SIM_REACH_CYCLE: _weeks(1),
}
FIXED_LEAD_TIME = {
    "procurement_lead_time_weeks_low": D(10),
    "procurement_lead_time_weeks_high": D(10),
}


# --- the sim-first plan ------------------------------------------------------------


def test_simulation_starts_at_week_0_beside_procurement():
    plan = schedule(sim_first_activities(_inputs(collaborative_modes=("ssm",))))

    assert plan.get(SIM_MODEL).start_low == 0
    assert plan.get(SIM_MODEL).start_high == 0
    assert plan.get(SIM_SSM).activity.phase == "simulation"
    # Procurement does not wait for the simulation: it runs beside it.
    assert plan.get(PROCUREMENT).activity.depends_on == (RISK_ASSESSMENT,)
    assert SIM_RESULT in plan.get(INSTALLATION).activity.depends_on


def test_simulation_validates_the_modes_fields_and_speeds():
    ssm = _by_key(sim_first_activities(_inputs(collaborative_modes=("ssm",))))
    pfl = _by_key(sim_first_activities(_inputs(collaborative_modes=("pfl",))))
    assert SIM_SSM in ssm and SIM_PFL not in ssm
    assert SIM_PFL in pfl and SIM_SSM not in pfl
    for plan in (ssm, pfl):
        assert SIM_REACH_CYCLE in plan
        assert all(a.assumption for a in plan.values() if a.phase == "simulation")


def test_a_cell_using_ssm_and_pfl_simulates_both():
    both = _by_key(sim_first_activities(_inputs(collaborative_modes=("ssm", "pfl"))))
    assert SIM_SSM in both and SIM_PFL in both


def test_physical_validation_is_never_skipped_in_sim_first():
    for task_type in TASK_TYPES:
        inputs = _inputs(task_type=task_type, collaborative_modes=("pfl",))
        sim = _by_key(sim_first_activities(inputs))
        for key in (VALIDATION_STOPPING, VALIDATION_TASK, VALIDATION_PFL):
            assert key in sim, (task_type, key)
        # The PoC starts after the real cell is validated, not after simulation.
        assert sim[POC_START].depends_on == (VALIDATION_PFL,)
        assert SIM_RESULT not in sim[POC_START].depends_on


def test_well_transferring_task_shortens_only_the_task_stage():
    inputs = _inputs(collaborative_modes=("pfl",))
    physical = _by_key(physical_first_activities(inputs))
    sim = _by_key(sim_first_activities(inputs))

    assert sim[VALIDATION_TASK].duration_weeks_low == D("0.5")
    assert sim[VALIDATION_TASK].duration_weeks_high == D("1.5")
    assert sim[VALIDATION_TASK].assumption
    for key in (VALIDATION_STOPPING, VALIDATION_PFL):
        assert sim[key].duration_weeks_low == physical[key].duration_weeks_low
        assert sim[key].duration_weeks_high == physical[key].duration_weeks_high


def test_contact_rich_task_keeps_the_full_physical_validation():
    inputs = _inputs(
        task_type="contact_rich_manipulation", collaborative_modes=("pfl",)
    )
    physical = _by_key(physical_first_activities(inputs))
    sim = _by_key(sim_first_activities(inputs))

    for key in (VALIDATION_STOPPING, VALIDATION_TASK, VALIDATION_PFL):
        assert sim[key].duration_weeks_low == physical[key].duration_weeks_low
        assert sim[key].duration_weeks_high == physical[key].duration_weeks_high
    assert REAL_DEMONSTRATIONS in sim
    assert REAL_DEMONSTRATIONS in sim[VALIDATION_TASK].depends_on

    result = compare(inputs)
    assert result.maturity == "evaluation_aid_only"
    assert "evaluation aid" in result.maturity_line.render()
    retire = " ".join(_texts(result.sim_can_retire))
    assert "evaluation aid" in retire
    assert "nothing about the physical validation shrinks" in retire
    assert "real demonstrations" in retire
    assert "evaluation aid" in result.sim_first.first_result_label
    assert any("evaluation aid" in text for text in _texts(result.notes))


def test_contact_rich_task_refuses_any_simulation_shortening():
    with pytest.raises(ValidationError, match="exceeds 0"):
        _inputs(
            task_type="contact_rich_manipulation", sim_validation_reduction=D("0.1")
        )


def test_maturity_caps_what_simulation_can_retire():
    assert compare(_inputs(task_type="mobile_locomotion")).maturity == "transfers_well"
    partly = compare(_inputs(task_type="structured_pick_place"))
    assert partly.maturity == "partly"
    assert "25 %" in " ".join(_texts(partly.sim_can_retire))
    with pytest.raises(ValidationError, match=r"exceeds 0\.25"):
        _inputs(task_type="structured_pick_place", sim_validation_reduction=D("0.5"))
    # Less is always allowed, and then said to be entered, not assumed.
    entered = compare(
        _inputs(task_type="structured_pick_place", sim_validation_reduction=D("0.1"))
    )
    assert any("10 % as entered" in text for text in _texts(entered.assumptions))


@pytest.mark.parametrize("task_type", TASK_TYPES)
@pytest.mark.parametrize("modes", [(), ("ssm",), ("pfl",), ("ssm", "pfl")])
def test_what_simulation_cannot_prove_is_always_listed(task_type, modes):
    text = " ".join(
        _texts(
            compare(
                _inputs(task_type=task_type, collaborative_modes=modes)
            ).cannot_prove
        )
    )
    assert "Contact dynamics" in text
    assert "Real stopping times" in text
    assert "force and pressure measurement" in text
    assert "ISO/TS 15066" in text


def test_simulation_is_never_a_deployment_gate():
    result = compare(_inputs())
    notes = _texts(result.notes)
    assert any("never a deployment gate" in text for text in notes)
    assert any("staged validation on the real cell" in text for text in notes)
    assert result.sim_first.first_result_label == "validated in simulation only"
    assert result.physical_first.first_result_label == "validated on the real cell"


# --- figures -----------------------------------------------------------------------


def test_weeks_to_first_result_and_poc_start():
    result = compare(_inputs(durations=FIXED, **FIXED_LEAD_TIME))
    physical, sim = result.physical_first, result.sim_first

    # Physical: 2 + 10 + 2 + 1 + 6; its first result is the real-cell validation.
    assert (physical.first_result_weeks_low, physical.first_result_weeks_high) == (
        D(21),
        D(21),
    )
    assert (physical.poc_start_weeks_low, physical.poc_start_weeks_high) == (
        D(21),
        D(21),
    )
    # Sim-first: the simulation phase ends after 2 + 1; the task stage halves.
    assert (sim.first_result_weeks_low, sim.first_result_weeks_high) == (D(3), D(3))
    assert (sim.poc_start_weeks_low, sim.poc_start_weeks_high) == (D(18), D(18))


def test_costs_sum_what_is_known_and_count_the_unknown():
    result = compare(
        _inputs(
            costs={
                RISK_ASSESSMENT: CostRange(low=D(3000), high=D(5000), currency="EUR"),
                PROCUREMENT: CostRange(low=D(10000), high=D(20000), currency="EUR"),
            }
        )
    )
    physical = result.physical_first
    assert (physical.cost_known_low, physical.cost_known_high) == (
        D(13000),
        D(25000),
    )
    assert physical.currency == "EUR"
    assert set(physical.unknown_cost_keys) == {
        INSTALLATION,
        VALIDATION_STOPPING,
        VALIDATION_TASK,
    }
    assert SIM_MODEL in result.sim_first.unknown_cost_keys
    assert POC_START not in result.sim_first.unknown_cost_keys
    assert any(
        "No cost entered for Installation" in text
        for text in _texts(result.assumptions)
    )


# --- honesty ---------------------------------------------------------------------


def _verdict(result, measure):
    return next(item for item in result.verdict if item.measure == measure)


def test_overlapping_ranges_show_no_advantage():
    result = compare(_inputs())  # the defaults: PoC start 8.5–22.5 against 9–24
    poc = _verdict(result, "poc_start")
    assert poc.outcome == "no_advantage_shown"
    text = poc.line.render()
    assert "overlap" in text
    assert "no advantage shown" in text
    assert "8.5–22.5" in text and "9–24" in text


def test_separated_ranges_state_the_advantage_with_the_numbers():
    result = compare(_inputs(durations=FIXED, **FIXED_LEAD_TIME))
    poc = _verdict(result, "poc_start")
    assert poc.outcome == "sim_first_ahead"
    text = poc.line.render()
    assert "sim-first 18, physical-first 21" in text
    assert "at least 3 weeks earlier" in text


def test_an_earlier_result_in_simulation_is_labelled_as_such():
    result = compare(_inputs(durations=FIXED, **FIXED_LEAD_TIME))
    first = _verdict(result, "first_validated_result")
    assert first.outcome == "sim_first_ahead"
    text = first.line.render()
    assert "after 3 weeks, validated in simulation only" in text
    assert "not a physical validation" in text
    assert "no deployment gate" in text


def test_advantage_needs_both_ends_of_the_range():
    # Sim-first is lower at both ends (8.5–22.5 against 9–24) but the ranges
    # overlap: no advantage is claimed.
    result = compare(_inputs())
    assert (
        result.sim_first.poc_start_weeks_low < result.physical_first.poc_start_weeks_low
    )
    assert (
        result.sim_first.poc_start_weeks_high
        < result.physical_first.poc_start_weeks_high
    )
    assert _verdict(result, "poc_start").outcome == "no_advantage_shown"


def test_cost_is_not_compared_while_costs_are_unknown():
    result = compare(_inputs(costs={PROCUREMENT: _eur(10000)}))
    cost = _verdict(result, "cost")
    assert cost.outcome == "not_comparable"
    assert "no cost advantage shown" in cost.line.render()


def _all_costs(task_validation):
    return {
        RISK_ASSESSMENT: _eur(1000),
        PROCUREMENT: _eur(10000),
        INSTALLATION: _eur(2000),
        VALIDATION_STOPPING: _eur(1000),
        VALIDATION_TASK: task_validation,
        SIM_MODEL: _eur(1000),
        SIM_REACH_CYCLE: _eur(1000),
    }


def test_simulation_that_costs_more_than_it_saves_is_said_to_cost_more():
    # Physical 18,000; sim-first 18,000 - 2,000 (half the task stage) + 2,000
    # (simulation) = 18,000: equal, so no advantage.
    equal = compare(_inputs(costs=_all_costs(_eur(4000))))
    assert _verdict(equal, "cost").outcome == "no_advantage_shown"

    # Physical 16,000; sim-first 16,000 - 1,000 + 2,000 = 17,000.
    dearer = compare(_inputs(costs=_all_costs(_eur(2000))))
    cost = _verdict(dearer, "cost")
    assert cost.outcome == "physical_first_ahead"
    assert "at least 1,000 EUR cheaper" in cost.line.render()


def test_clearly_cheaper_sim_first_is_stated_with_the_numbers():
    # Physical 34,000; sim-first 34,000 - 10,000 + 2,000 = 26,000.
    result = compare(_inputs(costs=_all_costs(_eur(20000))))
    assert (result.physical_first.cost_known_low, result.sim_first.cost_known_low) == (
        D(34000),
        D(26000),
    )
    cost = _verdict(result, "cost")
    assert cost.outcome == "sim_first_ahead"
    text = cost.line.render()
    assert "sim-first 26,000 EUR, physical-first 34,000 EUR" in text
    assert "at least 8,000 EUR cheaper" in text


def test_overlapping_cost_ranges_show_no_advantage():
    costs = _all_costs(_eur(20000))
    costs[PROCUREMENT] = CostRange(low=D(10000), high=D(30000), currency="EUR")
    result = compare(_inputs(costs=costs))
    cost = _verdict(result, "cost")
    assert cost.outcome == "no_advantage_shown"
    assert "no advantage shown" in cost.line.render()


def test_summary_claims_nothing_when_nothing_is_shown():
    # Contact-rich and PFL: the simulation phase is no shorter than the
    # physical path, costs unknown.
    result = compare(
        _inputs(
            task_type="contact_rich_manipulation",
            durations={SIM_MODEL: WeeksRange(low=D(20), high=D(30))},
        )
    )
    assert all(item.outcome != "sim_first_ahead" for item in result.verdict)
    assert "No advantage is shown" in result.summary.render()


# --- assumptions and editing -------------------------------------------------------


def test_every_assumption_used_is_stated():
    result = compare(
        _inputs(country="KR", collaborative_modes=("pfl",), kiria_certification=True)
    )
    assumptions = " ".join(_texts(result.assumptions))
    for plan in (result.physical_first, result.sim_first):
        for item in plan.schedule.activities:
            if item.activity.assumption:
                assert item.activity.name in assumptions, item.key
    assert "edit to your project" in assumptions
    # The one-source KCs figure is a sourced figure, flagged in the notes.
    notes = " ".join(_texts(result.notes))
    assert "one consultant" in notes
    assert "KIRIA" in notes


def test_non_korean_plan_says_no_certification_step_is_scheduled():
    result = compare(_inputs(country="US"))
    assert any(
        "No certification step is scheduled for US" in text
        for text in _texts(result.assumptions)
    )


def test_edited_inputs_change_the_comparison():
    first = compare(_inputs())
    edited = first.inputs.model_copy(
        update={"durations": {INSTALLATION: WeeksRange(low=D(4), high=D(4))}}
    )
    second = compare(PlanInputs.model_validate(edited.model_dump()))

    assert second.physical_first.schedule.get(INSTALLATION).activity.assumption is False
    assert not any(
        text.startswith("Installation of the robot")
        for text in _texts(second.assumptions)
    )
    assert second.physical_first.poc_start_weeks_low == D(12)


def test_comparison_serialises_to_readable_json():
    data = json.loads(compare(_inputs(country="KR")).model_dump_json())
    assert data["verdict"][1]["line"].startswith("Weeks to PoC start")
    assert data["physical_first"]["schedule"]["critical_path_high"][0] == (
        RISK_ASSESSMENT
    )


def test_line_items_without_lead_time_are_called_out():
    result = compare(
        _inputs(
            procurement_lead_time_weeks_low=D(6),
            procurement_lead_time_weeks_high=D(8),
            procurement_items_without_lead_time=2,
        )
    )
    assert any(
        text.startswith("2 line items have no lead time")
        for text in _texts(result.assumptions)
    )
