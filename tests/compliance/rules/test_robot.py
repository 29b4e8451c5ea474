"""ISO 10218:2025: the robot's class, the cybersecurity requirement, and the
robot's safety configuration against the one the signed revision froze."""

from __future__ import annotations

from compliance.rules import robot
from compliance.rules.facts import AssessmentFacts, FunctionFacts, SafetyConfigFacts
from compliance.rules.findings import Status
from tests.compliance.rules.cells import cell, machine_tending_cobot, only, run

UR = SafetyConfigFacts(kind="ur_checksum", value="1A2B3C4D")
FANUC = SafetyConfigFacts(kind="fanuc_dcs_signature", value="20231187")


def test_a_robot_faster_than_250_mm_s_is_class_ii():
    finding = only(robot.ROBOT_CLASS, cell(robot_max_speed_mm_s=2000))
    assert finding.status is Status.PASS
    assert "Class II" in finding.render()
    assert finding.numbers == {"max_speed_mm_s": 2000, "class_i_speed_mm_s": 250}


def test_class_i_is_never_concluded_without_the_measured_force():
    finding = only(robot.ROBOT_CLASS, cell(robot_max_speed_mm_s=250))
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "50 N" in finding.render()


def test_cybersecurity_always_asks_for_the_measures():
    finding = only(robot.CYBERSECURITY, cell())
    assert finding.status is Status.NEEDS_EVIDENCE
    assert any("IEC 62443" in d.render() for d in finding.details)


def test_no_configuration_finding_where_no_robot_function_carries_safeguarding():
    assert run(robot.SAFETY_CONFIGURATION, cell()) == []


def _signed(config=None):
    return AssessmentFacts(
        exists=True, signed=True, signed_revision=4, signed_safety_configuration=config
    )


def test_configuration_matching_the_signed_one_passes():
    facts = machine_tending_cobot(safety_configuration=UR, assessment=_signed(UR))
    finding = only(robot.SAFETY_CONFIGURATION, facts)
    assert finding.status is Status.PASS
    assert finding.values["revision"] == 4


def test_configuration_changed_since_signing_fails():
    facts = machine_tending_cobot(safety_configuration=FANUC, assessment=_signed(UR))
    finding = only(robot.SAFETY_CONFIGURATION, facts)
    assert finding.status is Status.FAIL
    text = finding.render()
    assert "20231187" in text and "1A2B3C4D" in text


def test_configuration_missing_unsigned_or_not_frozen_needs_evidence():
    for facts in (
        machine_tending_cobot(),  # collaborative: PFL rests on the robot
        machine_tending_cobot(
            safety_configuration=UR, assessment=AssessmentFacts(exists=True)
        ),
        machine_tending_cobot(safety_configuration=UR, assessment=_signed(None)),
    ):
        assert only(robot.SAFETY_CONFIGURATION, facts).status is Status.NEEDS_EVIDENCE


def test_safety_rated_limits_or_a_limit_function_also_ask_for_it():
    assert only(robot.SAFETY_CONFIGURATION, cell(safety_rated_limits=True))
    limit = FunctionFacts(
        key="function:1", label="Speed limit", safeguard="collaborative_limit"
    )
    assert only(robot.SAFETY_CONFIGURATION, cell(functions=(limit,)))
