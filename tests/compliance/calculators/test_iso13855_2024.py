"""ISO 13855:2024: S = K × T + D_DS + Z, orthogonal and parallel approach.

The reference (``iso13855_additions.json`` ``edition_2024``) gives the 2024
formula and its terms but no worked example of its own. The examples here
are the reference's worked examples (``iso13855.json`` ``worked_examples``)
and vendor supplements (``general_formula`` note: Leuze Z_SM = 100 mm, SICK
Z_R = 350 mm) carried through the 2024 formula, the expected values worked out
by hand and written below.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from compliance.calculators.base import Certainty
from compliance.calculators.iso13855_2024 import (
    CALCULATORS,
    Orthogonal2024Input,
    Parallel2024Input,
    Summed2024Input,
    iso13855_2024_orthogonal,
    iso13855_2024_parallel,
    iso13855_2024_summed,
)
from compliance.calculators.registry import CALCULATORS as REGISTRY


def _orthogonal(**kw):
    fields = {"response_time_ms": 10.0, "supplement_z_mm": 0.0}
    return iso13855_2024_orthogonal(Orthogonal2024Input(**(fields | kw)))


def _parallel(**kw):
    fields = {"response_time_ms": 80.0, "supplement_z_mm": 0.0}
    return iso13855_2024_parallel(Parallel2024Input(**(fields | kw)))


# --- orthogonal: reaching through ---------------------------------------------


def test_sick_c4000_example_under_2024_with_no_supplement_is_512_mm():
    # d = 14 mm, T = 0.32 s (SICK C4000): D_DT = 8 × (14 − 14) = 0; 2000 × 0.32
    # = 640 > 500, so 1600 × 0.32 + 0 + 0 = 512 mm, as by 2010.
    result = _orthogonal(detection_capability_mm=14.0, stopping_time_ms=310.0)
    assert result.minimum_distance_mm == 512
    assert result.k_mm_s == 1600
    assert result.reach_through_mm == 0
    assert result.governs == "reach_through"
    assert result.edition == "2024"
    assert result.clause.startswith("ISO 13855:2024 (EN ISO 13855:2025), 6")


def test_fsddsk_example_stays_at_k_2000_and_a_supplement_adds_to_s():
    # d = 14 mm, T = 0.165 s: 2000 × 0.165 = 330 mm; Z = 100 mm (Leuze Z_SM)
    # gives 430 mm, still ≤ 500 so K stays 2000.
    assert _orthogonal(
        detection_capability_mm=14.0, stopping_time_ms=155.0
    ).minimum_distance_mm == pytest.approx(330)
    result = _orthogonal(
        detection_capability_mm=14.0, stopping_time_ms=155.0, supplement_z_mm=100.0
    )
    assert result.minimum_distance_mm == pytest.approx(430)
    assert result.k_mm_s == 2000
    assert result.z_mm == 100


def test_a_supplement_can_push_s_past_500_and_switch_k():
    # T = 0.2 s, d = 30 mm: D_DT = 8 × 16 = 128; Z = 350 mm (SICK Z_R):
    # 2000 × 0.2 + 128 + 350 = 878 > 500 → 1600 × 0.2 + 128 + 350 = 798 mm.
    result = _orthogonal(
        detection_capability_mm=30.0, stopping_time_ms=190.0, supplement_z_mm=350.0
    )
    assert result.reach_through_mm == 128
    assert result.k_mm_s == 1600
    assert result.minimum_distance_mm == pytest.approx(798)


def test_short_stop_keeps_the_least_distance_of_100_mm():
    # d = 14 mm, T = 0.03 s: 2000 × 0.03 = 60 mm → at least 100 mm.
    result = _orthogonal(detection_capability_mm=14.0, stopping_time_ms=20.0)
    assert result.minimum_distance_mm == 100


def test_middle_band_uses_208_plus_12_per_mm_and_at_least_500_mm():
    # d = 50 mm: D_DT = 208 + 12 × 10 = 328; T = 0.05 s: 100 + 328 = 428 → 500.
    result = _orthogonal(detection_capability_mm=50.0, stopping_time_ms=40.0)
    assert result.reach_through_mm == 328
    assert result.minimum_distance_mm == 500
    # T = 0.2 s: 2000 × 0.2 + 328 = 728 > 500 → 1600 × 0.2 + 328 = 648 mm.
    assert _orthogonal(
        detection_capability_mm=50.0, stopping_time_ms=190.0
    ).minimum_distance_mm == pytest.approx(648)


def test_coarse_band_is_850_with_k_1600_like_the_banner_example():
    # d = 70 mm, T = 0.344 s (Banner EZ-SCREEN Point EU example, C = 850):
    # 1600 × 0.344 + 850 = 1400.4 mm.
    result = _orthogonal(
        detection_capability_mm=70.0, response_time_ms=24.0, stopping_time_ms=320.0
    )
    assert result.reach_through_mm == 850
    assert result.k_mm_s == 1600
    assert result.minimum_distance_mm == pytest.approx(1400.4)


def test_detection_capability_above_120_is_refused_with_its_field():
    with pytest.raises(ValidationError, match="detection_capability_mm"):
        Orthogonal2024Input(
            detection_capability_mm=121.0,
            response_time_ms=10.0,
            stopping_time_ms=100.0,
            supplement_z_mm=0.0,
        )


# --- orthogonal: reaching under and over -----------------------------------------


def test_reaching_under_governs_when_the_gap_beneath_is_large():
    # d = 14 mm, H_DB = 300 mm: D_DU = 8 × (14 + 300 − 14) = 2400 mm; T = 0.32 s:
    # 2000 × 0.32 + 2400 > 500 → 1600 × 0.32 + 2400 = 2912 mm.
    result = _orthogonal(
        detection_capability_mm=14.0, stopping_time_ms=310.0, gap_beneath_mm=300.0
    )
    assert result.reach_under_mm == 2400
    assert result.governs == "reach_under"
    assert result.minimum_distance_mm == pytest.approx(2912)
    assert result.reach_under_checked


def test_a_curtain_down_to_the_floor_reaches_under_no_further_than_through():
    # H_DB = 0: D_DU = 8 × (30 − 14) = 128 = D_DT.
    result = _orthogonal(
        detection_capability_mm=30.0, stopping_time_ms=90.0, gap_beneath_mm=0.0
    )
    assert result.reach_under_mm == result.reach_through_mm == 128
    assert result.minimum_distance_mm == pytest.approx(2000 * 0.1 + 128)


def test_gap_above_300_mm_needs_evidence_with_what_is_known():
    result = _orthogonal(
        detection_capability_mm=14.0, stopping_time_ms=310.0, gap_beneath_mm=400.0
    )
    assert result.minimum_distance_mm is None
    assert not result.determinable
    assert "300 mm" in result.undetermined_reason
    assert result.known_minimum_mm == 512


def test_reach_over_is_taken_from_the_user_and_governs_when_largest():
    # D_DO given as 750 mm (the user's copy of the 2024 table): T = 0.3312 s,
    # 1600 × 0.3312 + 750 = 1279.92 mm (the wenglor figures, now as D_DO).
    result = _orthogonal(
        detection_capability_mm=14.0,
        response_time_ms=31.2,
        stopping_time_ms=300.0,
        reach_over_mm=750.0,
    )
    assert result.governs == "reach_over"
    assert result.reach_over_checked
    assert result.minimum_distance_mm == pytest.approx(1279.92)


def test_without_d_do_and_h_db_the_result_warns_they_are_not_checked():
    result = _orthogonal(detection_capability_mm=14.0, stopping_time_ms=310.0)
    warnings = " ".join(w.render() for w in result.warnings)
    assert not result.reach_over_checked and not result.reach_under_checked
    assert "Reaching over the detection zone is not checked" in warnings
    assert "Reaching under the detection zone is not checked" in warnings


def test_the_2024_figures_say_they_rest_on_one_source():
    result = _orthogonal(detection_capability_mm=14.0, stopping_time_ms=310.0)
    assert result.certainty is Certainty.ONE_SOURCE
    assert any("free interpretations" in s for s in result.sources)
    assert any("secondary sources" in w.render() for w in result.warnings)


# --- parallel approach --------------------------------------------------------------


def test_parallel_2024_is_flat_1200_plus_z_where_2010_took_1200_minus_0_4_h():
    # The 2010 calculator's example: H = 300 mm, d = 70 mm, T = 0.48 s; with
    # Leuze's Z_SM = 100 mm: 1600 × 0.48 + 1200 + 100 = 2068 mm. By 2010:
    # C = 1200 − 0.4 × 300 = 1080, S = 768 + 1080 = 1848 mm.
    result = _parallel(
        field_height_mm=300.0,
        detection_capability_mm=70.0,
        stopping_time_ms=400.0,
        supplement_z_mm=100.0,
    )
    assert result.minimum_distance_mm == pytest.approx(2068)
    assert result.distance_2010_mm == pytest.approx(1848)
    assert result.d_ds_mm == 1200
    assert result.k_mm_s == 1600
    assert result.edition == "2024"
    assert result.clause.startswith("ISO 13855:2024 (EN ISO 13855:2025), 6.3")
    assert result.certainty is Certainty.ONE_SOURCE


def test_parallel_2024_warns_about_access_below_a_field_above_200_mm():
    high = _parallel(
        field_height_mm=250.0, detection_capability_mm=50.0, stopping_time_ms=400.0
    )
    low = _parallel(
        field_height_mm=150.0, detection_capability_mm=50.0, stopping_time_ms=400.0
    )
    assert any("more than 200 mm" in w.render() for w in high.warnings)
    assert not any("more than 200 mm" in w.render() for w in low.warnings)
    # S does not depend on H in 2024: 1600 × 0.48 + 1200 = 1968 mm both times.
    assert high.minimum_distance_mm == low.minimum_distance_mm == pytest.approx(1968)


def test_parallel_field_too_low_for_its_resolution_is_refused_by_field():
    # d = 70 mm needs H_D ≥ 15 × 20 = 300 mm.
    with pytest.raises(ValidationError, match="field_height_mm"):
        Parallel2024Input(
            field_height_mm=200.0,
            detection_capability_mm=70.0,
            response_time_ms=80.0,
            stopping_time_ms=400.0,
            supplement_z_mm=0.0,
        )
    with pytest.raises(ValidationError, match="field_height_mm"):
        Parallel2024Input(
            field_height_mm=1001.0,
            detection_capability_mm=70.0,
            response_time_ms=80.0,
            stopping_time_ms=400.0,
            supplement_z_mm=0.0,
        )


# --- for the rule packs -------------------------------------------------------------


def test_summed_parallel_mat_on_the_floor():
    # T = 0.23 s, Z = 0: 1600 × 0.23 + 1200 = 1568 mm (2010 mat: the same).
    result = iso13855_2024_summed(
        Summed2024Input(
            approach="parallel", overall_stopping_time_ms=230.0, supplement_z_mm=0.0
        )
    )
    assert result.minimum_distance_mm == pytest.approx(1568)


def test_summed_orthogonal_matches_the_calculator():
    result = iso13855_2024_summed(
        Summed2024Input(
            approach="orthogonal",
            overall_stopping_time_ms=320.0,
            supplement_z_mm=0.0,
            detection_capability_mm=14.0,
        )
    )
    assert result.minimum_distance_mm == 512


def test_summed_input_refuses_a_curtain_without_its_detection_capability():
    with pytest.raises(ValidationError, match="detection_capability_mm"):
        Summed2024Input(
            approach="orthogonal", overall_stopping_time_ms=320.0, supplement_z_mm=0.0
        )


def test_calculators_are_registered_with_examples_that_compute():
    for calc in CALCULATORS:
        assert REGISTRY[calc.name] is calc
        assert calc.standard == "ISO 13855:2024"
        result = calc.run(calc.input_model.model_validate(calc.example))
        assert result.minimum_distance_mm is not None
