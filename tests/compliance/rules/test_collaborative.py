"""ISO/TS 15066 collaborative modes: PFL, SSM, hand guiding, monitored stop."""

from __future__ import annotations

import pytest

from compliance.rules.collaborative import HAND_GUIDING, MODE, PFL, SRMS, SSM
from compliance.rules.facts import AssessmentFacts
from compliance.rules.findings import RuleCertainty, Status
from tests.compliance.rules.cells import (
    cell,
    device,
    machine_tending_cobot,
    only,
    run,
)

# --- the mode ---------------------------------------------------------------------


def test_cobot_without_a_mode_needs_evidence_and_industrial_robot_is_skipped():
    cobot = machine_tending_cobot(collaborative_mode=None)
    assert only(MODE, cobot).status is Status.NEEDS_EVIDENCE
    assert run(MODE, cell()) == []
    assert only(MODE, machine_tending_cobot()).status is Status.PASS


# --- power and force limiting -------------------------------------------------------


def test_pfl_at_250_mm_s_passes_both_contact_regions():
    # Reference computed check values (M 20 kg, m_L 1 kg, transient):
    # hands/fingers 1.3555 m/s, lower arms/wrists 1.2299 m/s.
    findings = run(PFL, machine_tending_cobot())
    assert [f.status for f in findings] == [Status.PASS, Status.PASS]
    assert [f.numbers for f in findings] == [
        {"speed_mm_s": 250, "permissible_mm_s": 1355.5},
        {"speed_mm_s": 250, "permissible_mm_s": 1229.9},
    ]
    assert [f.values["region"] for f in findings] == [
        "Hands and fingers",
        "Lower arms and wrist joints",
    ]


def test_pfl_at_1300_mm_s_fails_only_the_lower_arms():
    findings = run(PFL, machine_tending_cobot(programmed_speed_mm_s=1300))
    assert [f.status for f in findings] == [Status.PASS, Status.FAIL]
    assert findings[1].numbers == {"speed_mm_s": 1300, "permissible_mm_s": 1229.9}


def test_pfl_uses_the_maximum_speed_when_none_is_programmed():
    findings = run(PFL, machine_tending_cobot(programmed_speed_mm_s=None))
    assert findings[0].numbers["speed_mm_s"] == 1000
    assert "maximum speed" in findings[0].details[0].text


def test_pfl_certainty_follows_the_body_model():
    hands, arms = run(PFL, machine_tending_cobot())
    # The hands' lowest pressure area is a non-dominant one, read in one source.
    assert hands.certainty is RuleCertainty.TO_BE_CONFIRMED
    assert arms.certainty is RuleCertainty.SECONDARY_SOURCES


def test_pfl_without_contact_regions_needs_evidence():
    facts = machine_tending_cobot(assessment=AssessmentFacts(exists=True))
    assert only(PFL, facts).status is Status.NEEDS_EVIDENCE


def test_pfl_contact_with_the_face_fails():
    facts = machine_tending_cobot(assessment=AssessmentFacts(contact_regions=("face",)))
    finding = only(PFL, facts)
    assert finding.status is Status.FAIL
    assert "face" in finding.message
    assert "permissible_mm_s" not in finding.numbers


def test_pfl_is_skipped_in_other_modes():
    assert run(PFL, machine_tending_cobot(collaborative_mode="ssm")) == []


# --- speed and separation monitoring -----------------------------------------------


def _ssm(field_mm=1000, **kw):
    fields = {
        "collaborative_mode": "ssm",
        "robot_stopping_time_ms": 300,
        "robot_stopping_distance_mm": 150,
        "programmed_speed_mm_s": 1000,
        "devices": (
            device(
                "sc",
                "laser_scanner",
                response_time_ms=100,
                protective_field_mm=field_mm,
            ),
        ),
    }
    return machine_tending_cobot(**(fields | kw))


def test_ssm_field_beyond_the_separation_distance_is_a_warning():
    # S_p = 1600 x (0.1 + 0.3) + 1000 x 0.1 + 150 = 640 + 100 + 150 = 890 mm,
    # without C, Z_d and Z_r, which are not recorded.
    finding = only(SSM, _ssm(1000))
    assert finding.status is Status.WARNING
    assert finding.numbers == {"protective_field_mm": 1000, "required_mm": 890}
    assert "Z_d" in finding.message


def test_ssm_field_short_of_the_separation_distance_fails():
    finding = only(SSM, _ssm(800))
    assert finding.status is Status.FAIL
    assert finding.numbers == {"protective_field_mm": 800, "required_mm": 890}


@pytest.mark.parametrize(
    "missing",
    [
        {"robot_stopping_time_ms": None},
        {"robot_stopping_distance_mm": None},
        {"devices": (device("sc", "laser_scanner", protective_field_mm=900),)},
    ],
)
def test_ssm_with_missing_figures_needs_evidence(missing):
    finding = only(SSM, _ssm(**missing))
    assert finding.status is Status.NEEDS_EVIDENCE
    assert len(finding.details) == 1


def test_ssm_without_a_scanner_fails():
    assert only(SSM, _ssm(devices=())).status is Status.FAIL


# --- hand guiding and safety-rated monitored stop -----------------------------------


def test_hand_guiding_needs_an_enabling_device_and_an_emergency_stop():
    complete = machine_tending_cobot(
        collaborative_mode="hand_guiding",
        devices=(device("en", "enabling_device"), device("es", "emergency_stop")),
    )
    assert only(HAND_GUIDING, complete).status is Status.PASS
    partial = machine_tending_cobot(
        collaborative_mode="hand_guiding", devices=(device("es", "emergency_stop"),)
    )
    finding = only(HAND_GUIDING, partial)
    assert finding.status is Status.FAIL
    assert [line.text for line in finding.details] == [
        "An enabling device near the end effector"
    ]
    assert finding.certainty is RuleCertainty.TO_BE_CONFIRMED


def test_monitored_stop_needs_a_safety_controller():
    with_controller = machine_tending_cobot(collaborative_mode="srms")
    assert only(SRMS, with_controller).status is Status.PASS
    without = machine_tending_cobot(collaborative_mode="srms", devices=())
    assert only(SRMS, without).status is Status.NEEDS_EVIDENCE
