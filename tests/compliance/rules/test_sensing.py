"""ISO 13855 minimum distances of sensing devices and their IEC 61496 type."""

from __future__ import annotations

import pytest

from compliance.rules.facts import AssessmentFacts
from compliance.rules.findings import RuleCertainty, Status
from compliance.rules.sensing import DEVICE_TYPE, MINIMUM_DISTANCE
from tests.compliance.rules.cells import cell, device, only, opening, run, segment


def _curtain(distance_mm=700, **kw):
    fields = {
        "response_time_ms": 20,
        "detection_capability_mm": 14,
        "distance_to_hazard_mm": distance_mm,
    }
    return device("lc", "light_curtain", **(fields | kw))


def test_sick_c4000_figures_need_512_mm_and_700_mm_passes():
    # d = 14 mm, T = 20 + 300 ms = 0.32 s: 2000 x 0.32 = 640 > 500, so
    # S = 1600 x 0.32 = 512 mm (SICK C4000 operating instructions p.41).
    finding = only(MINIMUM_DISTANCE, cell(devices=(_curtain(700),)))
    assert finding.status is Status.PASS
    assert finding.numbers == {"required_mm": 512, "t_ms": 320, "distance_mm": 700}
    assert finding.certainty is RuleCertainty.SECONDARY_SOURCES
    assert "6.2.3" in finding.citation


def test_light_curtain_closer_than_required_fails():
    finding = only(MINIMUM_DISTANCE, cell(devices=(_curtain(400),)))
    assert finding.status is Status.FAIL
    assert finding.numbers["required_mm"] == 512
    assert finding.numbers["distance_mm"] == 400


def test_safety_controller_time_is_added_to_t():
    # T = 20 + 12 + 300 = 332 ms: S = 1600 x 0.332 = 531.2 -> 532 mm.
    facts = cell(
        devices=(
            _curtain(700),
            device("plc", "safety_controller", response_time_ms=12),
        )
    )
    finding = only(MINIMUM_DISTANCE, facts)
    assert finding.numbers["t_ms"] == 332
    assert finding.numbers["required_mm"] == 532


def test_multibeam_follows_the_banner_example():
    # Banner EZ-SCREEN Point: 0.32 s stop + 0.024 s response -> 1400.4 mm.
    facts = cell(
        robot_stopping_time_ms=320,
        devices=(
            device(
                "mb",
                "multibeam",
                beam_count=2,
                response_time_ms=24,
                distance_to_hazard_mm=1400,
            ),
        ),
    )
    finding = only(MINIMUM_DISTANCE, facts)
    assert finding.status is Status.FAIL  # 1400 < 1400.4, rounded up to 1401
    assert finding.numbers["required_mm"] == 1401


def test_safety_mat_needs_1600_t_plus_1200():
    # T = 30 + 200 ms: S = 1600 x 0.23 + 1200 = 1568 mm.
    facts = cell(
        robot_stopping_time_ms=200,
        devices=(
            device(
                "mat", "safety_mat", response_time_ms=30, distance_to_hazard_mm=1600
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
    ],
)
def test_missing_times_or_detection_capability_need_evidence(facts_kw, device_kw):
    facts = cell(devices=(_curtain(**device_kw),), **facts_kw)
    finding = only(MINIMUM_DISTANCE, facts)
    assert finding.status is Status.NEEDS_EVIDENCE
    assert len(finding.details) == 1


def test_without_a_distance_the_required_one_is_still_given():
    finding = only(MINIMUM_DISTANCE, cell(devices=(_curtain(None),)))
    assert finding.status is Status.NEEDS_EVIDENCE
    assert finding.numbers["required_mm"] == 512


def test_curtain_in_an_opening_uses_the_openings_distance():
    facts = cell(
        segments=(segment(),),
        openings=(opening(distance_to_hazard_mm=450),),
        devices=(_curtain(None, opening_key="o1"),),
    )
    finding = only(MINIMUM_DISTANCE, facts)
    assert finding.status is Status.FAIL
    assert finding.numbers["distance_mm"] == 450
    assert "opening" in finding.details[0].text


def test_coarse_curtain_outside_the_formulas_needs_evidence():
    finding = only(
        MINIMUM_DISTANCE, cell(devices=(_curtain(detection_capability_mm=90),))
    )
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "70 mm" in finding.render()


def test_scanner_field_distance_is_asked_for_outside_ssm():
    facts = cell(devices=(device("sc", "laser_scanner"),))
    assert only(MINIMUM_DISTANCE, facts).status is Status.NEEDS_EVIDENCE
    ssm = cell(
        devices=(device("sc", "laser_scanner"),),
        collaborative_mode="ssm",
        assessment=AssessmentFacts(),
    )
    assert run(MINIMUM_DISTANCE, ssm) == []


# --- IEC 61496 type ---------------------------------------------------------------


def test_device_type_recorded_passes_and_missing_needs_evidence():
    facts = cell(
        devices=(
            device("lc", "light_curtain", iec61496_type=4),
            device("sc", "laser_scanner"),
            device("mat", "safety_mat"),
        )
    )
    findings = run(DEVICE_TYPE, facts)
    assert [(f.subject_key, f.status) for f in findings] == [
        ("lc", Status.PASS),
        ("sc", Status.NEEDS_EVIDENCE),
    ]
    assert findings[0].numbers == {"iec61496_type": 4}
    assert findings[0].certainty is RuleCertainty.TO_BE_CONFIRMED
