"""The PoC schedule: forward pass, critical paths, and the physical-first plan."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from pydantic import ValidationError

from compliance.calculators.base import Certainty
from compliance.plan.inputs import (
    ASSUMPTION_DEFAULTS,
    CostRange,
    PlanInputs,
    WeeksRange,
)
from compliance.plan.physical import physical_first_activities
from compliance.plan.schedule import (
    ASSUMPTION_NOTE,
    INSTALLATION,
    KCS_CERTIFICATION,
    POC_START,
    PROCUREMENT,
    RISK_ASSESSMENT,
    VALIDATION_PFL,
    VALIDATION_STOPPING,
    VALIDATION_TASK,
    Activity,
    longest_lead_time,
    schedule,
)

ROOT = Path(__file__).resolve().parents[3]
D = Decimal


def _act(key, low, high, *deps):
    return Activity(
        key=key,
        name=key.upper(),
        phase="planning",
        duration_weeks_low=D(low),
        duration_weeks_high=D(high),
        depends_on=deps,
        source="test",
    )


def _weeks(low, high):
    return WeeksRange(low=D(low), high=D(high))


# --- the scheduler -------------------------------------------------------------


def test_small_dag_has_its_known_totals_and_critical_paths():
    # a → b → d and a → c → d. Low: b (4) is longer than c (1); high: c (8)
    # is longer than b (5).
    plan = schedule(
        [
            _act("d", "1", "1", "b", "c"),  # given first: order is not assumed
            _act("a", "2", "3"),
            _act("b", "4", "5", "a"),
            _act("c", "1", "8", "a"),
        ]
    )

    assert plan.total_weeks_low == D(7)
    assert plan.total_weeks_high == D(12)
    assert plan.critical_path_low == ("a", "b", "d")
    assert plan.critical_path_high == ("a", "c", "d")
    assert [item.key for item in plan.activities] == ["a", "b", "c", "d"]
    c = plan.get("c")
    assert (c.start_low, c.finish_low, c.float_low) == (D(2), D(3), D(3))
    assert (c.start_high, c.finish_high, c.float_high) == (D(3), D(11), D(0))
    assert c.critical_high and not c.critical_low
    b = plan.get("b")
    assert (b.start_high, b.finish_high, b.float_high) == (D(3), D(8), D(3))
    assert plan.get("d").start_high == D(11)


def test_critical_path_ends_with_a_closing_milestone():
    plan = schedule([_act("a", "1", "2"), _act("end", "0", "0", "a")])
    assert plan.critical_path_high == ("a", "end")
    assert plan.total_weeks_high == D(2)


def test_fractional_weeks_stay_exact():
    plan = schedule([_act("a", "0.1", "0.2"), _act("b", "0.2", "0.2", "a")])
    assert plan.total_weeks_low == D("0.3")  # not 0.30000000000000004
    assert plan.total_weeks_high == D("0.4")


def test_empty_plan_takes_no_weeks():
    plan = schedule([])
    assert (plan.total_weeks_low, plan.total_weeks_high) == (0, 0)
    assert plan.critical_path_high == ()


def test_cycle_is_rejected_naming_its_activities():
    with pytest.raises(ValueError, match="cycle") as error:
        schedule(
            [
                _act("start", "1", "1"),
                _act("a", "1", "1", "start", "c"),
                _act("b", "1", "1", "a"),
                _act("c", "1", "1", "b"),
            ]
        )
    message = str(error.value)
    assert all(name in message for name in ("a", "b", "c"))
    assert "start" not in message


def test_self_dependency_is_a_cycle():
    with pytest.raises(ValueError, match="dependency cycle: a → a"):
        schedule([_act("a", "1", "1", "a")])


def test_unknown_dependency_is_rejected_naming_it():
    with pytest.raises(ValueError, match="b depends on missing"):
        schedule([_act("a", "1", "1"), _act("b", "1", "1", "a", "missing")])


def test_duplicate_key_is_rejected():
    with pytest.raises(ValueError, match="duplicate activity key: a"):
        schedule([_act("a", "1", "1"), _act("a", "2", "2")])


def test_activity_rejects_high_below_low_and_negative_weeks():
    with pytest.raises(ValidationError, match="below"):
        _act("a", "3", "2")
    with pytest.raises(ValidationError):
        _act("a", "-1", "2")


def test_sourced_duration_must_name_its_source():
    with pytest.raises(ValidationError, match="names its source"):
        Activity(
            key="a",
            name="A",
            phase="planning",
            duration_weeks_low=D(1),
            duration_weeks_high=D(2),
        )


def test_assumed_duration_carries_the_edit_note():
    activity = Activity(
        key="a",
        name="A",
        phase="planning",
        duration_weeks_low=D(1),
        duration_weeks_high=D(2),
        assumption=True,
    )
    assert activity.note == ASSUMPTION_NOTE
    assert "edit to your project" in activity.note


def test_cost_needs_both_ends_and_a_currency():
    common = {
        "key": "a",
        "name": "A",
        "phase": "planning",
        "duration_weeks_low": D(1),
        "duration_weeks_high": D(1),
        "source": "test",
    }
    with pytest.raises(ValidationError, match="both cost_low and cost_high"):
        Activity(cost_low=D(1), **common)
    with pytest.raises(ValidationError, match="currency"):
        Activity(cost_low=D(1), cost_high=D(2), **common)


def test_longest_lead_time_is_the_longest_of_each_end():
    assert longest_lead_time([(D(2), D(3)), (D(6), D(8)), (D(4), D(10))]) == (
        D(6),
        D(10),
    )
    assert longest_lead_time([]) is None


# --- the physical-first plan ------------------------------------------------------


def _inputs(**kw):
    kw.setdefault("country", "JP")  # no certification step scheduled
    kw.setdefault("task_type", "structured_pick_place")
    return PlanInputs(**kw)


def _keys(activities):
    return [a.key for a in activities]


def test_physical_first_in_korea_schedules_kcs_beside_procurement():
    activities = {a.key: a for a in physical_first_activities(_inputs(country="KR"))}

    kcs = activities[KCS_CERTIFICATION]
    assert (kcs.duration_weeks_low, kcs.duration_weeks_high) == (D(3), D(4))
    assert kcs.certainty is Certainty.ONE_SOURCE
    assert not kcs.assumption
    assert "single" in kcs.note
    assert "gcnq.co.kr" in kcs.source
    assert kcs.depends_on == (RISK_ASSESSMENT,)
    assert activities[PROCUREMENT].depends_on == (RISK_ASSESSMENT,)
    assert set(activities[INSTALLATION].depends_on) == {PROCUREMENT, KCS_CERTIFICATION}


def test_physical_first_elsewhere_has_no_kcs():
    for country in ("DE", "US", "JP"):
        keys = _keys(physical_first_activities(_inputs(country=country)))
        assert KCS_CERTIFICATION not in keys


def test_physical_first_runs_in_order_to_poc_start():
    keys = _keys(physical_first_activities(_inputs()))
    assert keys == [
        RISK_ASSESSMENT,
        PROCUREMENT,
        INSTALLATION,
        VALIDATION_STOPPING,
        VALIDATION_TASK,
        POC_START,
    ]


def test_pfl_adds_force_and_pressure_measurement():
    activities = physical_first_activities(_inputs(collaborative_modes=("pfl",)))
    pfl = next(a for a in activities if a.key == VALIDATION_PFL)
    assert "force and pressure" in pfl.name
    assert "ISO/TS 15066" in pfl.basis
    assert activities[-1].depends_on == (VALIDATION_PFL,)
    for modes in ((), ("ssm",), ("srms",), ("hand_guiding", "ssm")):
        keys = _keys(physical_first_activities(_inputs(collaborative_modes=modes)))
        assert VALIDATION_PFL not in keys


def test_defaults_are_flagged_as_assumptions_never_as_sourced():
    activities = physical_first_activities(_inputs(country="KR"))
    for activity in activities:
        if activity.key in ASSUMPTION_DEFAULTS:
            assert activity.assumption, activity.key
            assert activity.certainty is None
            assert activity.note == ASSUMPTION_NOTE
            assert activity.source == ""


def test_known_totals_when_kcs_is_longer_than_procurement():
    inputs = _inputs(
        country="KR",
        procurement_lead_time_weeks_low=D(2),
        procurement_lead_time_weeks_high=D(3),
        durations={
            RISK_ASSESSMENT: _weeks(2, 2),
            INSTALLATION: _weeks(1, 1),
            VALIDATION_STOPPING: _weeks(1, 1),
            VALIDATION_TASK: _weeks(2, 2),
        },
    )
    plan = schedule(physical_first_activities(inputs))

    # 2 risk assessment + max(procurement 2–3, KCs 3–4) + 1 + 1 + 2
    assert (plan.total_weeks_low, plan.total_weeks_high) == (D(9), D(10))
    assert plan.critical_path_high == (
        RISK_ASSESSMENT,
        KCS_CERTIFICATION,
        INSTALLATION,
        VALIDATION_STOPPING,
        VALIDATION_TASK,
        POC_START,
    )
    assert plan.get(PROCUREMENT).float_high == D(1)


def test_lead_time_from_line_items_is_sourced_not_assumed():
    low, high = longest_lead_time([(D(2), D(3)), (D(6), D(8))])
    inputs = _inputs(
        procurement_lead_time_weeks_low=low,
        procurement_lead_time_weeks_high=high,
        procurement_lead_time_source="Line items: light curtain, fence",
    )
    procurement = physical_first_activities(inputs)[1]
    assert (procurement.duration_weeks_low, procurement.duration_weeks_high) == (
        D(6),
        D(8),
    )
    assert not procurement.assumption
    assert procurement.source == "Line items: light curtain, fence"


def test_missing_lead_time_falls_back_to_a_flagged_assumption():
    procurement = physical_first_activities(_inputs())[1]
    assert procurement.assumption
    assert (procurement.duration_weeks_low, procurement.duration_weeks_high) == (
        D(4),
        D(12),
    )


def test_entered_durations_replace_the_assumption():
    inputs = _inputs(durations={INSTALLATION: WeeksRange(low=D(2), high=D(5))})
    installation = next(
        a for a in physical_first_activities(inputs) if a.key == INSTALLATION
    )
    assert not installation.assumption
    assert installation.note == ""
    assert installation.source == "Entered for this project"
    assert installation.duration_weeks_high == D(5)


def test_entered_kcs_weeks_are_no_longer_one_source():
    inputs = _inputs(country="KR", kcs_weeks_low=D(5), kcs_weeks_high=D(6))
    kcs = next(
        a for a in physical_first_activities(inputs) if a.phase == "certification"
    )
    assert kcs.certainty is None
    assert kcs.duration_weeks_high == D(6)


def test_costs_are_carried_onto_their_activities():
    inputs = _inputs(
        costs={RISK_ASSESSMENT: CostRange(low=D(3000), high=D(5000), currency="EUR")}
    )
    risk = physical_first_activities(inputs)[0]
    assert (risk.cost_low, risk.cost_high, risk.currency) == (
        D(3000),
        D(5000),
        "EUR",
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"durations": {"nonsense": _weeks(1, 2)}}, "unknown activities: nonsense"),
        ({"durations": {PROCUREMENT: _weeks(1, 2)}}, "unknown activities"),
        ({"costs": {"nonsense": {"low": 1, "high": 1, "currency": "EUR"}}}, "costs"),
        (
            {
                "costs": {
                    RISK_ASSESSMENT: {"low": 1, "high": 1, "currency": "EUR"},
                    INSTALLATION: {"low": 1, "high": 1, "currency": "KRW"},
                }
            },
            "one currency",
        ),
        ({"procurement_lead_time_weeks_low": D(2)}, "or neither"),
        ({"kcs_weeks_low": D(4), "kcs_weeks_high": D(3)}, "below"),
        ({"country": "Korea"}, "country"),
    ],
)
def test_inputs_reject_what_they_cannot_plan(change, message):
    with pytest.raises(ValidationError, match=message):
        _inputs(**change)


# --- purity -------------------------------------------------------------------


def test_plan_modules_import_only_stdlib_and_pydantic():
    code = (
        "import sys; before = set(sys.modules); "
        "import compliance.plan.schedule, compliance.plan.comparison; "
        "new = {m.split('.')[0] for m in set(sys.modules) - before}; "
        "print(' '.join(sorted(n for n in new if n not in sys.stdlib_module_names)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    # _sysconfigdata_* is the interpreter's own build data, loaded by sysconfig.
    third_party = {
        name for name in result.stdout.split() if not name.startswith("_sysconfig")
    }
    assert "django" not in third_party
    allowed = {
        "cells",  # cells.applications, pure: what the application is planned as
        "compliance",
        "pydantic",
        "pydantic_core",
        "typing_extensions",
        "typing_inspection",
        "annotated_types",
    }
    assert third_party <= allowed, third_party - allowed
