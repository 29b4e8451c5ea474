"""International baseline: ISO 10218-2 risk assessment, ISO 13857 reaching
over a guard (Table 2) and through fence mesh (Table 4)."""

from __future__ import annotations

from compliance.rules.baseline import MESH, REACH_OVER, RISK_ASSESSMENT
from compliance.rules.facts import AssessmentFacts
from compliance.rules.findings import RuleCertainty, Status
from tests.compliance.rules.cells import cell, only, run, segment

# --- ISO 10218-2:2025 -----------------------------------------------------------


def test_signed_risk_assessment_passes():
    facts = cell(assessment=AssessmentFacts(exists=True, signed=True))
    assert only(RISK_ASSESSMENT, facts).status is Status.PASS


def test_missing_or_unsigned_risk_assessment_needs_evidence():
    assert only(RISK_ASSESSMENT, cell()).status is Status.NEEDS_EVIDENCE
    unsigned = cell(assessment=AssessmentFacts(exists=True))
    assert only(RISK_ASSESSMENT, unsigned).status is Status.NEEDS_EVIDENCE


# --- ISO 13857 reaching over (Table 2, high risk) -------------------------------


def _over(height_mm, distance_mm, hazard_mm=1400, lower_mm=None):
    # By default a zone at the one height a, to read one cell of Table 2.
    return cell(
        hazard_zone_height_mm=hazard_mm,
        hazard_zone_lower_mm=hazard_mm if lower_mm is None else lower_mm,
        segments=(
            segment(height_mm=height_mm, horizontal_distance_to_hazard_mm=distance_mm),
        ),
    )


def test_reach_over_passes_when_the_hazard_is_far_enough():
    # Table 2 cell a = 1400, b = 1800 -> c = 800 (corroborated, Troax survey).
    finding = only(REACH_OVER, _over(1800, 900))
    assert finding.status is Status.PASS
    assert finding.numbers == {
        "height_mm": 1800,
        "hazard_height_mm": 1400,
        "distance_mm": 900,
        "required_mm": 800,
    }
    assert finding.certainty is RuleCertainty.SECONDARY_SOURCES
    assert "Table 2" in finding.citation


def test_reach_over_fails_when_the_hazard_is_too_close():
    finding = only(REACH_OVER, _over(1800, 600))
    assert finding.status is Status.FAIL
    assert finding.numbers["required_mm"] == 800
    assert finding.numbers["distance_mm"] == 600
    assert any("800 mm" in line.formula for line in finding.details)


def test_reach_over_fails_for_a_guard_too_low_for_high_risk():
    # Below 1,400 mm a high-risk structure gives no distance to rely on.
    finding = only(REACH_OVER, _over(1200, 2000))
    assert finding.status is Status.FAIL
    assert "1400 mm" in finding.message
    assert "required_mm" not in finding.numbers


def test_reach_over_takes_the_worst_height_the_zone_occupies():
    # Regression: a zone from 0 to 2,600 mm behind a 1,400 mm guard was
    # checked at 2,600 mm only (700 mm); Table 2's worst row in the range asks
    # 1,100 mm.
    finding = only(REACH_OVER, _over(1400, 900, hazard_mm=2600, lower_mm=0))
    assert finding.status is Status.FAIL
    assert finding.numbers["required_mm"] == 1100
    assert "from 0 to 2,600 mm" in finding.render()
    passing = only(REACH_OVER, _over(1400, 1100, hazard_mm=2600, lower_mm=0))
    assert passing.status is Status.PASS


def test_hazard_out_of_reach_upwards_passes():
    finding = only(REACH_OVER, _over(1800, 0, hazard_mm=2700))
    assert finding.status is Status.PASS
    assert "2700 mm" in finding.message


def test_reach_over_needs_the_hazard_height_and_the_distance():
    facts = cell(segments=(segment(),))
    finding = only(REACH_OVER, facts)
    assert finding.status is Status.NEEDS_EVIDENCE
    assert len(finding.details) == 2


def test_reach_over_with_an_uncorroborated_cell_is_to_be_confirmed():
    # Table 2 cell a = 1200, b = 1800 -> c = 700 rests on one source.
    finding = only(REACH_OVER, _over(1800, 2000, hazard_mm=1200))
    assert finding.numbers["required_mm"] == 700
    assert finding.certainty is RuleCertainty.TO_BE_CONFIRMED


# --- ISO 13857 Table 4: fence mesh ---------------------------------------------


def _mesh(mesh_mm, distance_mm=None, kind="fence"):
    return cell(
        segments=(
            segment(
                kind=kind,
                mesh_opening_mm=mesh_mm,
                horizontal_distance_to_hazard_mm=distance_mm,
            ),
        )
    )


def test_40_mm_mesh_needs_200_mm_from_the_hazard():
    passing = only(MESH, _mesh(40, 250))
    assert passing.status is Status.PASS
    assert passing.numbers == {
        "mesh_opening_mm": 40,
        "distance_mm": 250,
        "required_mm": 200,
    }
    failing = only(MESH, _mesh(40, 150))
    assert failing.status is Status.FAIL
    assert failing.numbers["required_mm"] == 200


def test_fence_without_a_recorded_mesh_needs_evidence():
    assert only(MESH, _mesh(None, 500)).status is Status.NEEDS_EVIDENCE


def test_walls_without_mesh_are_not_checked():
    assert run(MESH, _mesh(None, 500, kind="wall")) == []


def test_mesh_larger_than_table_4_is_referred_to_reaching_over():
    finding = only(MESH, _mesh(150, 2000))
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "120 mm" in finding.message
