"""Minimum distances by ISO 13855:2024 for projects computing with it: the
parallel approach of a scanner's field and of a mat, a light curtain's reach
through, under and over; the 2010 rule stays with 2010 projects."""

from __future__ import annotations

import pytest

from compliance.rules.engine import evaluate
from compliance.rules.facts import EditionFacts
from compliance.rules.findings import RuleCertainty, Status
from compliance.rules.sensing_2024 import MINIMUM_DISTANCE_2024
from tests.compliance.rules.cells import cell, device, only, palletising_cell, run

EDITION_2024 = EditionFacts(iso13855="2024")


def scanner(**kw):
    fields = {
        "label": "Area scanner",
        "response_time_ms": 80,
        "detection_capability_mm": 70,
        "field_height_mm": 300,
        "protective_field_mm": 2100,
        "supplement_z_mm": 100,
        "iec61496_type": 3,
    }
    return device("sc1", "laser_scanner", **(fields | kw))


def with_devices(*devices, **kw):
    # Robot stopping time 400 ms: T = 80 + 400 = 480 ms, as the calculator's
    # worked example (H = 300 mm, d = 70 mm).
    return cell(
        robot_stopping_time_ms=400, editions=EDITION_2024, devices=devices, **kw
    )


def test_scanner_field_by_the_2024_parallel_rule():
    # S = 1600 × 0.48 + 1200 + Z 100 = 2068 mm ≤ the 2,100 mm field: pass.
    finding = only(MINIMUM_DISTANCE_2024, with_devices(scanner()))
    assert finding.status is Status.PASS
    assert finding.numbers["required_mm"] == 2068
    assert finding.numbers["d_ds_mm"] == 1200
    assert finding.citation.startswith("ISO 13855:2024 (EN ISO 13855:2025), 6.3")
    assert finding.certainty is RuleCertainty.TO_BE_CONFIRMED  # one source
    assert any("more than 200 mm" in n.render() for n in finding.notes)


def test_scanner_field_too_short_fails():
    finding = only(
        MINIMUM_DISTANCE_2024, with_devices(scanner(protective_field_mm=1900))
    )
    assert finding.status is Status.FAIL
    assert finding.numbers == {
        "required_mm": 2068,
        "t_ms": 480,
        "z_mm": 100,
        "d_ds_mm": 1200,
        "distance_mm": 1900,
    }


def test_without_the_supplement_z_the_check_needs_evidence():
    finding = only(MINIMUM_DISTANCE_2024, with_devices(scanner(supplement_z_mm=None)))
    assert finding.status is Status.NEEDS_EVIDENCE
    assert any("supplement Z" in d.render() for d in finding.details)


def _curtain(**kw):
    fields = {
        "label": "Infeed curtain",
        "response_time_ms": 20,
        "detection_capability_mm": 14,
        "detection_lower_mm": 0,
        "detection_upper_mm": 1800,
        "supplement_z_mm": 0,
        "placed": True,
        "distance_to_hazard_mm": 700,
    }
    return device("lc1", "light_curtain", **(fields | kw))


def test_curtain_without_d_do_needs_evidence_when_far_enough_otherwise():
    # T = 20 + 300 ms: S without reaching over = 1600 × 0.32 = 512 mm ≤ 700.
    facts = cell(editions=EDITION_2024, devices=(_curtain(),))
    finding = only(MINIMUM_DISTANCE_2024, facts)
    assert finding.status is Status.NEEDS_EVIDENCE
    assert finding.numbers["required_mm"] == 512
    assert "D_DO" in finding.render()


def test_curtain_too_close_even_before_reaching_over_fails():
    facts = cell(editions=EDITION_2024, devices=(_curtain(distance_to_hazard_mm=400),))
    assert only(MINIMUM_DISTANCE_2024, facts).status is Status.FAIL


def test_curtain_with_d_do_recorded_passes_or_fails_on_the_whole_s():
    # D_DO 750 mm: 2000 × 0.32 + 750 > 500 → 1600 × 0.32 + 750 = 1262 mm.
    far = cell(
        editions=EDITION_2024,
        devices=(_curtain(reach_over_ddo_mm=750, distance_to_hazard_mm=1300),),
    )
    finding = only(MINIMUM_DISTANCE_2024, far)
    assert finding.status is Status.PASS
    assert finding.numbers["required_mm"] == 1262
    near = cell(
        editions=EDITION_2024,
        devices=(_curtain(reach_over_ddo_mm=750, distance_to_hazard_mm=1000),),
    )
    assert only(MINIMUM_DISTANCE_2024, near).status is Status.FAIL


def test_curtain_with_a_gap_beneath_counts_reaching_under():
    # Lowest beam 300 mm: D_DU = 8 × (14 + 300 − 14) = 2400; S = 512 + 2400.
    facts = cell(
        editions=EDITION_2024,
        devices=(
            _curtain(
                detection_lower_mm=300, reach_over_ddo_mm=0, distance_to_hazard_mm=3000
            ),
        ),
    )
    finding = only(MINIMUM_DISTANCE_2024, facts)
    assert finding.numbers["required_mm"] == 2912
    assert finding.status is Status.PASS


def test_mat_takes_the_parallel_rule_at_floor_level():
    mat = device(
        "mat1",
        "safety_mat",
        label="Mat",
        response_time_ms=30,
        supplement_z_mm=0,
        placed=True,
        distance_to_hazard_mm=1900,
    )
    # T = 30 + 300 = 330 ms: 1600 × 0.33 + 1200 = 1728 mm ≤ 1900.
    finding = only(MINIMUM_DISTANCE_2024, cell(editions=EDITION_2024, devices=(mat,)))
    assert finding.status is Status.PASS
    assert finding.numbers["required_mm"] == 1728
    assert any("mats was not read" in n.render() for n in finding.notes)


def test_multibeam_grid_needs_evidence_under_2024():
    grid = device("g1", "multibeam", label="Grid", beam_count=3, response_time_ms=10)
    finding = only(MINIMUM_DISTANCE_2024, cell(editions=EDITION_2024, devices=(grid,)))
    assert finding.status is Status.NEEDS_EVIDENCE


@pytest.mark.parametrize(
    ("edition", "rule_id"),
    [("2010", "INTL-13855-distance"), ("2024", "INTL-13855-2024-distance")],
)
def test_only_the_projects_edition_of_iso_13855_is_applied(edition, rule_id):
    facts = palletising_cell().model_copy(
        update={"editions": EditionFacts(iso13855=edition)}
    )
    ids = {rule.id for rule, _ in evaluate(facts)}
    other = {"INTL-13855-distance", "INTL-13855-2024-distance"} - {rule_id}
    assert rule_id in ids and not ids & other


def test_a_scanner_checked_by_ssm_is_left_to_that_rule():
    facts = with_devices(scanner(), collaborative_modes=("ssm",))
    assert run(MINIMUM_DISTANCE_2024, facts) == []
