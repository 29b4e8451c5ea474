"""ISO 13855 minimum distances of sensing devices and their IEC 61496 type."""

from __future__ import annotations

import pytest

from compliance.rules.facts import AssessmentFacts
from compliance.rules.findings import RuleCertainty, Status
from compliance.rules.sensing import DEVICE_TYPE, INTERLOCK_DISTANCE, MINIMUM_DISTANCE
from tests.compliance.rules.cells import (
    across,
    cell,
    device,
    only,
    opening,
    run,
    segment,
)

# A hazard zone from the floor up to 1,400 mm, as in the SICK example's cell.
ZONE = {"hazard_zone_height_mm": 1400}


def _curtain(distance_mm=700, **kw):
    fields = {
        "response_time_ms": 20,
        "detection_capability_mm": 14,
        "distance_to_hazard_mm": distance_mm,
        "placed": distance_mm is not None,
        "detection_lower_mm": 300,
        "detection_upper_mm": 2000,
    }
    return device("lc", "light_curtain", **(fields | kw))


def test_sick_c4000_figures_need_512_mm_and_700_mm_passes():
    # d = 14 mm, T = 20 + 300 ms = 0.32 s: 2000 x 0.32 = 640 > 500, so
    # S_RT = 1600 x 0.32 = 512 mm (SICK C4000 operating instructions p.41).
    # Top beam at 2,000 mm over a zone up to 1,400 mm: C_RO = 0 (Table 1), so
    # reaching through governs.
    finding = only(MINIMUM_DISTANCE, cell(devices=(_curtain(700),), **ZONE))
    assert finding.status is Status.PASS
    assert finding.numbers == {"required_mm": 512, "t_ms": 320, "distance_mm": 700}
    assert "Table 1" in finding.citation or "C_RO" in finding.render()


def test_reaching_over_a_low_curtain_governs():
    # Regression: a curtain and a 4-beam grid passed on S_RT alone. Top beam
    # at 1,400 mm over a zone 0-1,400 mm: C_RO = 850 mm (Table 1), S_RO =
    # 1600 x 0.32 + 850 = 1,362 mm, so 700 mm fails.
    finding = only(
        MINIMUM_DISTANCE,
        cell(devices=(_curtain(700, detection_upper_mm=1400),), **ZONE),
    )
    assert finding.status is Status.FAIL
    assert finding.numbers == {"required_mm": 1362, "t_ms": 320, "distance_mm": 700}


def test_the_fence_above_an_opening_is_what_must_be_reached_over():
    # The curtain spans an infeed (up to 1,200 mm) in an 1,800 mm fence, over a
    # zone 0-2,200 mm: b = 1,800 mm, C_RO = 550 mm, S = 512 + 550 = 1,062 mm.
    facts = cell(
        hazard_zone_height_mm=2200,
        segments=(segment(),),
        openings=(opening(distance_to_hazard_mm=1100),),
        devices=(
            _curtain(1100, opening_key="o1", detection_upper_mm=1200, closure=across()),
        ),
    )
    finding = only(MINIMUM_DISTANCE, facts)
    assert finding.status is Status.PASS
    assert finding.numbers["required_mm"] == 1062


def test_a_curtain_in_front_of_its_opening_is_reached_over_at_its_own_top():
    # Regression (issue 27): the same curtain moved in front of the fence was
    # still reached over at the fence's 1,800 mm. Standing 300 mm in front of
    # it, a person reaches over its top beam: b = 1,200 mm over a zone 0 to
    # 2,200 mm, C_RO = 1,000 mm (Table 1, column b = 1,200, the largest over
    # the rows a = 0 to 2,200: rows 1,200 to 1,600), S = 512 + 1,000 = 1,512 mm.
    facts = cell(
        hazard_zone_height_mm=2200,
        segments=(segment(),),
        openings=(opening(distance_to_hazard_mm=1400),),
        devices=(
            _curtain(
                1100,
                opening_key="o1",
                detection_upper_mm=1200,
                closure=across(offset_mm=300),
            ),
        ),
    )
    finding = only(MINIMUM_DISTANCE, facts)
    assert finding.numbers["required_mm"] == 1512
    assert finding.status is Status.FAIL


def test_light_curtain_closer_than_required_fails():
    finding = only(MINIMUM_DISTANCE, cell(devices=(_curtain(400),), **ZONE))
    assert finding.status is Status.FAIL
    assert finding.numbers["required_mm"] == 512
    assert finding.numbers["distance_mm"] == 400


def test_a_curtain_inside_the_hazard_zone_fails_and_never_reads_as_0_mm_passed():
    curtain = _curtain(0, inside_hazard_zone=True)
    finding = only(MINIMUM_DISTANCE, cell(devices=(curtain,), **ZONE))
    assert finding.status is Status.FAIL
    assert "inside the hazard zone" in finding.render()


def test_safety_controller_time_is_added_to_t():
    # T = 20 + 12 + 300 = 332 ms: S = 1600 x 0.332 = 531.2 -> 532 mm.
    facts = cell(
        devices=(
            _curtain(700),
            device("plc", "safety_controller", response_time_ms=12),
        ),
        **ZONE,
    )
    finding = only(MINIMUM_DISTANCE, facts)
    assert finding.numbers["t_ms"] == 332
    assert finding.numbers["required_mm"] == 532


def test_multibeam_follows_the_banner_example_and_reaching_over_it():
    # Banner EZ-SCREEN Point: 0.32 s stop + 0.024 s response -> S_RT 1400.4
    # mm. Its two beams (400 and 900 mm) can be reached over: the top beam at
    # 900 mm under a zone up to 1,400 mm gives C_RO = 1,200 mm, S = 1,750.4.
    facts = cell(
        robot_stopping_time_ms=320,
        devices=(
            device(
                "mb",
                "multibeam",
                beam_count=2,
                response_time_ms=24,
                distance_to_hazard_mm=1600,
                placed=True,
            ),
        ),
        **ZONE,
    )
    finding = only(MINIMUM_DISTANCE, facts)
    assert finding.status is Status.FAIL  # 1600 < 1750.4, rounded up to 1751
    assert finding.numbers["required_mm"] == 1751


def test_safety_mat_needs_1600_t_plus_1200():
    # T = 30 + 200 ms: S = 1600 x 0.23 + 1200 = 1568 mm.
    facts = cell(
        robot_stopping_time_ms=200,
        devices=(
            device(
                "mat",
                "safety_mat",
                response_time_ms=30,
                distance_to_hazard_mm=1600,
                placed=True,
            ),
        ),
    )
    finding = only(MINIMUM_DISTANCE, facts)
    assert finding.status is Status.PASS
    assert finding.numbers["required_mm"] == 1568


@pytest.mark.parametrize(
    ("facts_kw", "device_kw"),
    [
        ({"robot_stopping_time_ms": None}, {}),
        ({}, {"response_time_ms": None}),
        ({}, {"detection_capability_mm": None}),
        ({}, {"detection_upper_mm": None}),
        ({"hazard_zone_height_mm": None}, {}),
    ],
)
def test_missing_figures_need_evidence(facts_kw, device_kw):
    facts = cell(devices=(_curtain(**device_kw),), **(ZONE | facts_kw))
    finding = only(MINIMUM_DISTANCE, facts)
    assert finding.status is Status.NEEDS_EVIDENCE
    assert len(finding.details) == 1


def test_a_device_not_placed_on_the_plan_needs_evidence_with_the_required_distance():
    # Regression: the distance was taken from the opening, reading 0 mm when
    # the opening lay inside the zone. Now it is measured from the device.
    finding = only(MINIMUM_DISTANCE, cell(devices=(_curtain(None),), **ZONE))
    assert finding.status is Status.NEEDS_EVIDENCE
    assert finding.numbers["required_mm"] == 512
    assert "not placed on the plan" in finding.render()


def test_a_curtain_in_an_opening_is_not_given_the_openings_distance():
    facts = cell(
        segments=(segment(),),
        openings=(opening(distance_to_hazard_mm=0),),
        devices=(_curtain(None, opening_key="o1"),),
        **ZONE,
    )
    finding = only(MINIMUM_DISTANCE, facts)
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "distance_mm" not in finding.numbers


def test_coarse_curtain_outside_the_formulas_needs_evidence():
    finding = only(
        MINIMUM_DISTANCE,
        cell(devices=(_curtain(detection_capability_mm=90),), **ZONE),
    )
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "70 mm" in finding.render()


def test_scanner_field_distance_is_asked_for_outside_ssm():
    facts = cell(devices=(device("sc", "laser_scanner"),))
    assert only(MINIMUM_DISTANCE, facts).status is Status.NEEDS_EVIDENCE
    ssm = cell(
        devices=(device("sc", "laser_scanner"),),
        collaborative_modes=("ssm",),
        assessment=AssessmentFacts(),
    )
    assert run(MINIMUM_DISTANCE, ssm) == []
    ssm_and_pfl = ssm.model_copy(update={"collaborative_modes": ("pfl", "ssm")})
    assert run(MINIMUM_DISTANCE, ssm_and_pfl) == []


# --- interlocked guards without guard locking ------------------------------------


def _door(distance_mm, **kw):
    return cell(
        robot_stopping_time_ms=420,
        segments=(segment(),),
        openings=(
            opening(
                purpose="maintenance_door",
                lower_edge_mm=0,
                upper_edge_mm=1800,
                distance_to_hazard_mm=distance_mm,
            ),
        ),
        devices=(device("door", "interlocked_door", opening_key="o1", **kw),),
    )


def test_interlocked_door_too_close_without_guard_locking_fails():
    # Regression: 500 mm from the hazard with T = 420 ms passed; S = 1600 x
    # 0.42 = 672 mm (ISO 13855, interlocking guards without guard locking).
    finding = only(INTERLOCK_DISTANCE, _door(500))
    assert finding.status is Status.FAIL
    assert finding.numbers == {"required_mm": 672, "distance_mm": 500, "t_ms": 420}
    assert "guard locking" in finding.render()


def test_interlocked_door_far_enough_passes():
    finding = only(INTERLOCK_DISTANCE, _door(700))
    assert finding.status is Status.PASS
    assert finding.numbers["required_mm"] == 672


def test_guard_locking_lifts_the_distance():
    finding = only(INTERLOCK_DISTANCE, _door(100, guard_locking=True))
    assert finding.status is Status.PASS
    assert "ISO 14119" in finding.render()


def test_door_without_stopping_time_needs_evidence():
    facts = _door(700).model_copy(update={"robot_stopping_time_ms": None})
    assert only(INTERLOCK_DISTANCE, facts).status is Status.NEEDS_EVIDENCE


# --- IEC 61496 type ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "iec_type", "plr", "status"),
    [
        ("light_curtain", 2, "d", Status.FAIL),  # Type 2: at most PL c
        ("light_curtain", 2, "c", Status.PASS),
        ("laser_scanner", 3, "d", Status.PASS),  # Type 3 scanners: PL d
        ("laser_scanner", 3, "e", Status.FAIL),
        ("light_curtain", 4, "e", Status.PASS),
    ],
)
def test_device_type_limits_the_pl_it_can_carry(kind, iec_type, plr, status):
    facts = cell(devices=(device("d", kind, iec61496_type=iec_type, plr_served=plr),))
    finding = only(DEVICE_TYPE, facts)
    assert finding.status is status
    assert finding.numbers == {"iec61496_type": iec_type}


def test_device_type_without_a_signed_plr_or_a_type_needs_evidence():
    facts = cell(
        devices=(
            device("lc", "light_curtain", iec61496_type=4),
            device("sc", "laser_scanner"),
            device("mat", "safety_mat"),
        )
    )
    findings = run(DEVICE_TYPE, facts)
    assert [(f.subject_key, f.status) for f in findings] == [
        ("lc", Status.NEEDS_EVIDENCE),
        ("sc", Status.NEEDS_EVIDENCE),
    ]
    assert findings[0].certainty is RuleCertainty.SECONDARY_SOURCES
