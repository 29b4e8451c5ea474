"""ISO/TS 15066 collaborative modes: PFL, SSM, hand guiding, monitored stop."""

from __future__ import annotations

import pytest

from compliance.rules.collaborative import HAND_GUIDING, MODE, PFL, SRMS, SSM
from compliance.rules.engine import evaluate
from compliance.rules.facts import AssessmentFacts, ContactFacts
from compliance.rules.findings import RuleCertainty, Status
from tests.compliance.rules.cells import (
    CENTRE,
    cell,
    device,
    machine_tending_cobot,
    only,
    run,
    square_layout,
)

# --- the mode ---------------------------------------------------------------------


def test_cobot_without_a_mode_needs_evidence_and_industrial_robot_is_skipped():
    cobot = machine_tending_cobot(collaborative_modes=())
    assert only(MODE, cobot).status is Status.NEEDS_EVIDENCE
    assert run(MODE, cell()) == []
    assert only(MODE, machine_tending_cobot()).status is Status.PASS


def test_a_cell_using_ssm_and_pfl_gets_the_findings_of_both_and_mode_names_both():
    # SSM guards the loading zone, PFL the hand-over task: each is checked.
    both = _ssm(1000, collaborative_modes=("ssm", "pfl"))

    assert only(SSM, both).numbers["required_mm"] == 890
    assert [f.values["region"] for f in run(PFL, both)] == [
        "Hands and fingers",
        "Lower arms and wrist joints",
    ]
    mode = only(MODE, both)
    assert mode.status is Status.PASS
    assert mode.values == {"count": 2}
    assert [line.render() for line in mode.details] == [
        "speed and separation monitoring",
        "power and force limiting",
    ]


def test_the_facts_refuse_a_mode_given_twice():
    with pytest.raises(ValueError, match="given twice"):
        machine_tending_cobot(collaborative_modes=("pfl", "pfl"))


# --- power and force limiting -------------------------------------------------------


def test_pfl_with_regions_only_gives_the_force_limit_but_needs_the_contact_area():
    # Reference computed check values (M 20 kg, m_L 1 kg, transient):
    # hands/fingers 1.3555 m/s, lower arms/wrists 1.2299 m/s by the force
    # route. Without a contact area the pressure limit is not checked: no pass.
    findings = run(PFL, machine_tending_cobot())
    assert [f.status for f in findings] == [Status.NEEDS_EVIDENCE] * 2
    assert [f.numbers for f in findings] == [
        {"speed_mm_s": 250, "permissible_mm_s": 1355.5},
        {"speed_mm_s": 250, "permissible_mm_s": 1229.9},
    ]
    assert [f.values["region"] for f in findings] == [
        "Hands and fingers",
        "Lower arms and wrist joints",
    ]
    assert "contact area" in findings[0].render()


def test_pfl_at_1300_mm_s_fails_the_lower_arms_even_by_the_force_route():
    findings = run(PFL, machine_tending_cobot(programmed_speed_mm_s=1300))
    assert [f.status for f in findings] == [Status.NEEDS_EVIDENCE, Status.FAIL]
    assert findings[1].numbers == {"speed_mm_s": 1300, "permissible_mm_s": 1229.9}


def _contact(area_cm2, contact="transient", region="hands_fingers", speed=1200):
    return machine_tending_cobot(
        programmed_speed_mm_s=speed,
        assessment=AssessmentFacts(
            exists=True,
            signed=True,
            contact_regions=(region,),
            contacts=(
                ContactFacts(
                    hazard_key="h1",
                    hazard_label="Taking a part from the gripper",
                    body_region=region,
                    contact=contact,
                    contact_area_cm2=area_cm2,
                ),
            ),
        ),
    )


def test_pfl_checks_pressure_over_the_tools_smallest_edge():
    # Regression: a 0.5 cm² edge at 1,200 mm/s passed on the force route
    # (1,355.5 mm/s). Pressure: 380 N/cm² (back of the non-dominant hand, the
    # lowest of the hand's areas) x 0.5 cm² = 190 N, v = 190 / sqrt(0.56897 x
    # 75,000) = 919.8 mm/s (968.2 mm/s for the dominant hand at 400 N/cm²).
    finding = only(PFL, _contact(0.5))
    assert finding.status is Status.FAIL
    assert finding.numbers == {"speed_mm_s": 1200, "permissible_mm_s": 919.8}
    assert finding.values["route"] == "pressure"
    passing = only(PFL, _contact(0.5, speed=250))
    assert passing.status is Status.PASS
    assert passing.subject_label == "Hands and fingers: Taking a part from the gripper"


def test_pfl_clamping_gives_no_speed_and_asks_for_a_measurement():
    finding = only(PFL, _contact(2.0, contact="quasi_static", speed=100))
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "permissible_mm_s" not in finding.numbers
    assert "ISO/PAS 5672" in finding.render()


def test_pfl_contact_of_unrecorded_kind_needs_evidence():
    finding = only(PFL, _contact(5.0, contact=None, speed=250))
    assert finding.status is Status.NEEDS_EVIDENCE


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
    assert run(PFL, machine_tending_cobot(collaborative_modes=("ssm",))) == []


# --- speed and separation monitoring -----------------------------------------------


def _ssm(field_mm=1000, **kw):
    """A cobot with SSM, its scanner at the robot's base, the south side of
    its fence open."""
    fields = {
        "collaborative_modes": ("ssm",),
        "layout": square_layout(radius_mm=1600, drop=("south",)),
        "robot_stopping_time_ms": 300,
        "robot_stopping_distance_mm": 150,
        "programmed_speed_mm_s": 1000,
        "devices": (
            device(
                "sc",
                "laser_scanner",
                response_time_ms=100,
                protective_field_mm=field_mm,
                position_mm=CENTRE,
            ),
        ),
    }
    return machine_tending_cobot(**(fields | kw))


def test_ssm_without_the_fields_height_leaves_c_out_and_needs_evidence():
    # S_p = 1600 x (0.1 + 0.3) + 1000 x 0.1 + 150 = 640 + 100 + 150 = 890 mm,
    # without C, Z_d and Z_r: never a pass on a distance with terms left at 0.
    finding = only(SSM, _ssm(1000))
    assert finding.status is Status.NEEDS_EVIDENCE
    assert finding.numbers == {
        "protective_field_mm": 1000,
        "required_mm": 890,
        "c_mm": 0,
    }
    assert "Z_d" in finding.render()


def test_ssm_intrusion_distance_comes_from_the_fields_height():
    # Regression: C was 0. A field 300 mm above the floor: C = 1200 - 0.4 x 300
    # = 1,080 mm (ISO 13855), so S_p = 890 + 1,080 = 1,970 mm.
    scanner = device(
        "sc",
        "laser_scanner",
        response_time_ms=100,
        protective_field_mm=1500,
        field_height_mm=300,
        position_mm=CENTRE,
    )
    finding = only(SSM, _ssm(devices=(scanner,)))
    assert finding.status is Status.NEEDS_EVIDENCE  # Z_d and Z_r at 0
    assert finding.numbers == {
        "protective_field_mm": 1500,
        "required_mm": 1970,
        "c_mm": 1080,
    }


def test_ssm_field_short_of_the_separation_distance_fails():
    # 800 mm round the base does not even leave the 1,600 mm zone: every open
    # approach fails on the plan, and the SSM verdict with them.
    results = evaluate(_ssm(800))
    finding = next(f for r in results if r.rule.id == SSM.id for f in r.findings)
    assert finding.status is Status.FAIL
    assert finding.numbers["required_mm"] == 890


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


def test_hand_guiding_needs_an_enabling_device_an_emergency_stop_and_monitored_speed():
    # Regression: any e-stop anywhere passed hand guiding.
    complete = machine_tending_cobot(
        collaborative_modes=("hand_guiding",),
        devices=(device("en", "enabling_device"), device("es", "emergency_stop")),
    )
    finding = only(HAND_GUIDING, complete)
    assert finding.status is Status.NEEDS_EVIDENCE  # the monitored speed
    assert "monitored speed" in finding.render()
    partial = machine_tending_cobot(
        collaborative_modes=("hand_guiding",), devices=(device("es", "emergency_stop"),)
    )
    finding = only(HAND_GUIDING, partial)
    assert finding.status is Status.FAIL
    assert [line.text for line in finding.details] == [
        "An enabling device near the end effector"
    ]
    assert finding.certainty is RuleCertainty.TO_BE_CONFIRMED


def test_monitored_stop_needs_a_presence_sensing_device_not_just_a_controller():
    # Regression: any safety controller passed the monitored stop.
    with_controller = machine_tending_cobot(collaborative_modes=("srms",))
    assert only(SRMS, with_controller).status is Status.FAIL
    with_curtain = machine_tending_cobot(
        collaborative_modes=("srms",), devices=(device("lc", "light_curtain"),)
    )
    finding = only(SRMS, with_curtain)
    assert finding.status is Status.NEEDS_EVIDENCE  # the monitored standstill
    assert "standstill" in finding.render()


def test_a_pfl_pass_says_the_energy_limit_was_checked_only_when_it_was():
    # Regression (issue 30): every pass said "the lowest of the force,
    # pressure and energy limits", though the reference has a Table A.4
    # energy value for few regions (the back and shoulders' 2.5 J): the hands
    # are checked against force and pressure only.
    hands = only(PFL, _contact(5.0, speed=200))
    assert hands.status is Status.PASS
    said = hands.render()
    assert "the energy limit is not checked" in said
    assert "energy limits" not in said
    back = only(PFL, _contact(5.0, region="back_shoulders", speed=200))
    assert back.status is Status.PASS
    assert "the lowest of the force, pressure and energy limits" in back.render()


def test_a_pfl_finding_asks_for_each_piece_of_evidence_once():
    # Regression (issue 30): the calculator's evidence notes were carried
    # twice, once among its warnings and once again as the finding's notes.
    finding = only(PFL, _contact(5.0, speed=200))
    texts = [note.text for note in finding.notes]
    assert len(texts) == len(set(texts)), texts
    asked = [t for t in texts if t.startswith("Evidence required: the Table A.4")]
    assert len(asked) == 1
