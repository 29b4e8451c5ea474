"""ISO 13855 minimum distances: ESPE, multiple beams, mats, parallel approach."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from compliance.calculators.base import Certainty
from compliance.calculators.iso13855 import (
    CALCULATORS,
    EspeInput,
    MatInput,
    MultibeamInput,
    ParallelInput,
    iso13855_espe,
    iso13855_mat,
    iso13855_multibeam,
    iso13855_parallel,
)

ROOT = Path(__file__).resolve().parents[3]


def _espe(**kw):
    return iso13855_espe(EspeInput(**kw))


def _formulas(result):
    return " | ".join(line.formula for line in result.steps)


# --- worked examples from iso13855.json "worked_examples" -------------------
# Where an example gives only the total T, it is split here into 10 ms of
# device response plus the rest as machine stopping time: only the sum counts.


def test_sick_c4000_example_recomputes_with_k_1600():
    # SICK C4000 operating instructions p.41: d = 14 mm, T = 0.32 s → 512 mm
    # (2000 × 0.32 = 640 > 500, so 1600 × 0.32 = 512).
    result = _espe(
        detection_capability_mm=14, response_time_ms=10, stopping_time_ms=310
    )
    assert result.minimum_distance_mm == 512
    assert result.k_mm_s == 1600
    assert result.c_mm == 0
    assert result.t_ms == 320


def test_fsddsk_example_stays_with_k_2000():
    # fsddsk.com light-curtain guide: d = 14 mm, T = 0.165 s → 330 mm.
    result = _espe(
        detection_capability_mm=14, response_time_ms=10, stopping_time_ms=155
    )
    assert result.minimum_distance_mm == 330
    assert result.k_mm_s == 2000


def test_qjkh_example_is_220_4_mm_rounded_up_to_221():
    # industrialsafetysensor.com (QJKH): d = 14 mm, T = 0.1102 s → 220.4 mm,
    # published rounded up as 221 mm.
    result = _espe(
        detection_capability_mm=14, response_time_ms=10, stopping_time_ms=100.2
    )
    assert result.minimum_distance_mm == pytest.approx(220.4)
    assert "S ≥ 221 mm" in _formulas(result)


@pytest.mark.parametrize("beam_count", [2, 3, 4])
def test_wenglor_sb4_multibeam_example(beam_count):
    # wenglor SB4 light grid manual: T = 0.03 s, S = 1600 T + 850 = 898 mm
    # (the beam count is not stated; every 2-4 beam grid uses that formula).
    result = iso13855_multibeam(
        MultibeamInput(beam_count=beam_count, response_time_ms=10, stopping_time_ms=20)
    )
    assert result.minimum_distance_mm == 898
    assert (result.k_mm_s, result.c_mm) == (1600, 850)


def test_banner_ez_screen_point_eu_example_as_multibeam():
    # Banner EZ-SCREEN Point manual (EU): machine stop 0.32 s + device
    # response 0.024 s, S = 1600 T + 850 = 1400.4 mm (published as 1400 mm).
    result = iso13855_multibeam(
        MultibeamInput(beam_count=2, response_time_ms=24, stopping_time_ms=320)
    )
    assert result.minimum_distance_mm == pytest.approx(1400.4)
    assert result.t_ms == 344


def test_banner_ez_screen_point_eu_example_as_coarse_espe():
    # Same Banner figures through the ESPE route for 40 < d ≤ 70 mm, which uses
    # the same S = 1600 T + 850.
    result = _espe(
        detection_capability_mm=50, response_time_ms=24, stopping_time_ms=320
    )
    assert result.minimum_distance_mm == pytest.approx(1400.4)
    assert result.clause.startswith("ISO 13855:2010, 6.2.3.3")


# The Banner US example (63 in/s, ANSI B11.19) and the Korean press exam item
# (D = 1.6 (Tl + Ts), no C) are not ISO 13855 formulas and are not calculators
# here.

# --- ESPE procedure -----------------------------------------------------------


def test_espe_short_distance_is_raised_to_the_100_mm_floor():
    result = _espe(detection_capability_mm=14, response_time_ms=10, stopping_time_ms=30)
    assert result.minimum_distance_mm == 100  # 2000 × 0.04 = 80 < 100
    assert result.k_mm_s == 2000


def test_espe_recomputed_distance_is_never_below_500_mm():
    # 2000 × 0.26 + 0 = 520 > 500, then 1600 × 0.26 = 416 → kept at 500 mm.
    result = _espe(
        detection_capability_mm=14, response_time_ms=10, stopping_time_ms=250
    )
    assert result.minimum_distance_mm == 500
    assert result.k_mm_s == 1600


def test_espe_intrusion_distance_is_8_times_d_minus_14():
    # d = 30 mm: C = 8 × 16 = 128 mm; 2000 × 0.1 + 128 = 328 mm.
    result = _espe(detection_capability_mm=30, response_time_ms=10, stopping_time_ms=90)
    assert result.c_mm == 128
    assert result.minimum_distance_mm == 328


def test_espe_intrusion_distance_is_not_below_zero_for_fine_resolution():
    result = _espe(detection_capability_mm=10, response_time_ms=10, stopping_time_ms=90)
    assert result.c_mm == 0
    assert result.minimum_distance_mm == 200


def test_espe_controller_time_and_allowance_add_to_t():
    result = _espe(
        detection_capability_mm=14,
        response_time_ms=10,
        controller_time_ms=15,
        stopping_time_ms=100,
        allowance_ms=25,
    )
    assert result.t_ms == 150
    assert result.minimum_distance_mm == 300


def test_espe_warns_that_reaching_over_is_not_checked():
    result = _espe(detection_capability_mm=14, response_time_ms=10, stopping_time_ms=90)
    assert any(
        "C_RO" in w.text and "ISO 13855:2010 Table 1" in w.text for w in result.warnings
    )
    assert result.reach_over_checked is False
    assert result.governs == "reach_through"
    assert result.reach_through_distance_mm == result.minimum_distance_mm == 200


def test_espe_with_only_one_of_the_two_heights_still_warns_and_keeps_s_rt():
    # Reaching over needs both a and b; with one of them S stays S_RT (200 mm).
    for heights in ({"hazard_height_mm": 1600}, {"upper_edge_height_mm": 1600}):
        result = _espe(
            detection_capability_mm=14,
            response_time_ms=10,
            stopping_time_ms=90,
            **heights,
        )
        assert result.minimum_distance_mm == 200
        assert result.reach_over_checked is False
        assert any("not checked" in w.text for w in result.warnings)


def test_espe_result_carries_clause_steps_certainty_and_sources():
    result = _espe(detection_capability_mm=14, response_time_ms=10, stopping_time_ms=90)
    assert result.clause.startswith("ISO 13855:2010, 6.2.3.2")
    assert result.steps and all(line.render() for line in result.steps)
    assert result.certainty is Certainty.TWO_SOURCES
    assert result.sources


def test_espe_detection_capability_beyond_70_mm_is_rejected():
    with pytest.raises(ValidationError) as excinfo:
        EspeInput(detection_capability_mm=80, response_time_ms=10, stopping_time_ms=90)
    error = excinfo.value.errors()[0]
    assert error["loc"] == ("detection_capability_mm",)
    assert "up to 70 mm" in error["msg"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("detection_capability_mm", 0),
        ("response_time_ms", 0),
        ("stopping_time_ms", -5),
        ("controller_time_ms", -1),
        ("allowance_ms", -1),
        ("stopping_time_ms", 600_000),
    ],
)
def test_espe_nonsense_input_is_rejected_naming_the_field(field, value):
    data = {
        "detection_capability_mm": 14,
        "response_time_ms": 10,
        "stopping_time_ms": 90,
    }
    with pytest.raises(ValidationError) as excinfo:
        EspeInput(**{**data, field: value})
    assert excinfo.value.errors()[0]["loc"] == (field,)


# --- multiple beams -------------------------------------------------------------


@pytest.mark.parametrize(
    ("beam_count", "heights"),
    [
        (1, (750,)),
        (2, (400, 900)),
        (3, (300, 700, 1100)),
        (4, (300, 600, 900, 1200)),
    ],
)
def test_multibeam_gives_the_beam_heights(beam_count, heights):
    result = iso13855_multibeam(
        MultibeamInput(beam_count=beam_count, response_time_ms=10, stopping_time_ms=20)
    )
    assert result.beam_heights_mm == heights


def test_single_beam_uses_c_1200_and_warns_about_the_conflict():
    result = iso13855_multibeam(
        MultibeamInput(beam_count=1, response_time_ms=10, stopping_time_ms=20)
    )
    assert result.c_mm == 1200
    assert result.minimum_distance_mm == 1248  # 1600 × 0.03 + 1200
    conflict = [w for w in result.warnings if "Sources differ" in w.text]
    assert conflict and conflict[0].values["s_code"] == "898"
    assert any("C_RO" in w.text for w in result.warnings)


@pytest.mark.parametrize("beam_count", [0, 5])
def test_beam_count_outside_1_to_4_is_rejected(beam_count):
    with pytest.raises(ValidationError) as excinfo:
        MultibeamInput(beam_count=beam_count, response_time_ms=10, stopping_time_ms=20)
    assert excinfo.value.errors()[0]["loc"] == ("beam_count",)


# --- pressure-sensitive mats ----------------------------------------------------


def test_mat_distance_is_1600_t_plus_1200():
    result = iso13855_mat(MatInput(response_time_ms=30, stopping_time_ms=270))
    assert result.minimum_distance_mm == 1680  # 1600 × 0.3 + 1200
    assert (result.k_mm_s, result.c_mm) == (1600, 1200)
    assert result.clause.startswith("ISO 13855:2010, 7")
    assert result.certainty is Certainty.TWO_SOURCES
    assert "depth ≥ 750 mm" in _formulas(result)
    assert result.warnings == ()


def test_mat_on_a_step_reduces_c_by_0_4_h_with_a_warning():
    result = iso13855_mat(
        MatInput(response_time_ms=30, stopping_time_ms=270, step_height_mm=200)
    )
    assert result.c_mm == 1120  # 1200 − 0.4 × 200
    assert result.minimum_distance_mm == 1600
    assert any("on a step" in w.text for w in result.warnings)


def test_mat_on_a_high_step_keeps_c_at_850():
    result = iso13855_mat(
        MatInput(response_time_ms=30, stopping_time_ms=270, step_height_mm=1000)
    )
    assert result.c_mm == 850


def test_mat_step_above_1000_mm_is_rejected():
    with pytest.raises(ValidationError) as excinfo:
        MatInput(response_time_ms=30, stopping_time_ms=270, step_height_mm=1200)
    assert excinfo.value.errors()[0]["loc"] == ("step_height_mm",)


# --- parallel approach ----------------------------------------------------------


def _parallel(**kw):
    return iso13855_parallel(ParallelInput(**kw))


def test_parallel_distance_is_1600_t_plus_1200_minus_0_4_h():
    result = _parallel(
        field_height_mm=300,
        detection_capability_mm=70,
        response_time_ms=80,
        stopping_time_ms=420,
    )
    assert result.c_mm == 1080  # 1200 − 0.4 × 300
    assert result.minimum_distance_mm == 1880  # 1600 × 0.5 + 1080
    assert result.max_detection_capability_mm == 70  # 300 / 15 + 50
    assert result.clause.startswith("ISO 13855:2010, 6.3")
    assert result.certainty is Certainty.TWO_SOURCES
    assert result.warnings == ()


def test_parallel_c_is_not_below_850():
    result = _parallel(
        field_height_mm=1000,
        detection_capability_mm=50,
        response_time_ms=80,
        stopping_time_ms=420,
    )
    assert result.c_mm == 850  # 1200 − 400 = 800 → 850
    assert result.minimum_distance_mm == 1650


def test_parallel_field_on_the_floor_is_allowed_for_d_up_to_50():
    result = _parallel(
        field_height_mm=0,
        detection_capability_mm=50,
        response_time_ms=80,
        stopping_time_ms=420,
    )
    assert result.c_mm == 1200


def test_parallel_warns_about_crawling_under_above_300_mm():
    result = _parallel(
        field_height_mm=301,
        detection_capability_mm=70,
        response_time_ms=80,
        stopping_time_ms=420,
    )
    assert any("crawl under" in w.text for w in result.warnings)


def test_parallel_field_above_1000_mm_is_rejected_with_the_limit():
    with pytest.raises(ValidationError) as excinfo:
        ParallelInput(
            field_height_mm=1100,
            detection_capability_mm=50,
            response_time_ms=80,
            stopping_time_ms=420,
        )
    error = excinfo.value.errors()[0]
    assert error["loc"] == ("field_height_mm",)
    assert "at most 1000 mm" in error["msg"]


def test_parallel_field_too_low_for_its_detection_capability_is_rejected():
    # d = 70 mm needs H ≥ 15 × (70 − 50) = 300 mm.
    with pytest.raises(ValidationError) as excinfo:
        ParallelInput(
            field_height_mm=200,
            detection_capability_mm=70,
            response_time_ms=80,
            stopping_time_ms=420,
        )
    message = excinfo.value.errors()[0]["msg"]
    assert "field_height_mm" in message and "300 mm" in message


# --- properties -----------------------------------------------------------------

_time = st.floats(min_value=0.5, max_value=5000, allow_nan=False)
_d_espe = st.floats(min_value=0.5, max_value=70, allow_nan=False)


@settings(max_examples=200)
@given(d=_d_espe, response=_time, stop_a=_time, stop_b=_time)
def test_espe_longer_stopping_time_never_gives_shorter_distance(
    d, response, stop_a, stop_b
):
    short, long_ = sorted((stop_a, stop_b))
    a = _espe(
        detection_capability_mm=d, response_time_ms=response, stopping_time_ms=short
    )
    b = _espe(
        detection_capability_mm=d, response_time_ms=response, stopping_time_ms=long_
    )
    assert b.minimum_distance_mm >= a.minimum_distance_mm


@settings(max_examples=200)
@given(d_a=_d_espe, d_b=_d_espe, response=_time, stop=_time)
def test_espe_coarser_detection_never_gives_shorter_distance(d_a, d_b, response, stop):
    fine, coarse = sorted((d_a, d_b))
    a = _espe(
        detection_capability_mm=fine, response_time_ms=response, stopping_time_ms=stop
    )
    b = _espe(
        detection_capability_mm=coarse, response_time_ms=response, stopping_time_ms=stop
    )
    assert b.minimum_distance_mm >= a.minimum_distance_mm


@settings(max_examples=100)
@given(beams=st.integers(1, 4), response=_time, stop_a=_time, stop_b=_time)
def test_multibeam_longer_stopping_time_never_gives_shorter_distance(
    beams, response, stop_a, stop_b
):
    short, long_ = sorted((stop_a, stop_b))
    a = iso13855_multibeam(
        MultibeamInput(
            beam_count=beams, response_time_ms=response, stopping_time_ms=short
        )
    )
    b = iso13855_multibeam(
        MultibeamInput(
            beam_count=beams, response_time_ms=response, stopping_time_ms=long_
        )
    )
    assert b.minimum_distance_mm >= a.minimum_distance_mm


@settings(max_examples=100)
@given(
    step=st.none() | st.floats(min_value=0, max_value=1000),
    response=_time,
    stop_a=_time,
    stop_b=_time,
)
def test_mat_longer_stopping_time_never_gives_shorter_distance(
    step, response, stop_a, stop_b
):
    short, long_ = sorted((stop_a, stop_b))
    a = iso13855_mat(
        MatInput(response_time_ms=response, stopping_time_ms=short, step_height_mm=step)
    )
    b = iso13855_mat(
        MatInput(response_time_ms=response, stopping_time_ms=long_, step_height_mm=step)
    )
    assert b.minimum_distance_mm >= a.minimum_distance_mm


@settings(max_examples=100)
@given(
    height=st.floats(min_value=0, max_value=1000),
    d_fraction=st.floats(min_value=0.01, max_value=0.999),
    response=_time,
    stop_a=_time,
    stop_b=_time,
)
def test_parallel_longer_stopping_time_never_gives_shorter_distance(
    height, d_fraction, response, stop_a, stop_b
):
    d = d_fraction * (height / 15 + 50)  # always within what the height allows
    short, long_ = sorted((stop_a, stop_b))
    common = {
        "field_height_mm": height,
        "detection_capability_mm": d,
        "response_time_ms": response,
    }
    a = _parallel(**common, stopping_time_ms=short)
    b = _parallel(**common, stopping_time_ms=long_)
    assert b.minimum_distance_mm >= a.minimum_distance_mm


# --- registry and purity --------------------------------------------------------


def test_calculator_entries_run_their_examples():
    names = [calc.name for calc in CALCULATORS]
    assert names == [
        "iso13855-espe",
        "iso13855-multibeam",
        "iso13855-mat",
        "iso13855-parallel",
    ]
    for calc in CALCULATORS:
        result = calc.run(calc.input_model(**calc.example))
        assert result.minimum_distance_mm > 0
        assert all(name in calc.result_model.model_fields for name in calc.headline)
    espe = CALCULATORS[0]
    assert espe.run(espe.input_model(**espe.example)).minimum_distance_mm == 512


@pytest.mark.parametrize(
    "module",
    [
        "compliance.calculators.iso13855",
        "compliance.calculators.iso13855_common",
        "compliance.calculators.iso13855_horizontal",
        "compliance.calculators.iso13855_interlock",
        "compliance.calculators.iso13855_reach_over",
        "compliance.calculators.iso13855_reach_through",
        "compliance.calculators.iso13855_vertical",
        "compliance.calculators.iso13849",
        "compliance.calculators.iso13857",
        "compliance.calculators.iso13857_gaps",
        "compliance.calculators.iso13857_openings",
    ],
)
def test_module_imports_no_django(module):
    code = (
        f"import sys, {module}; print(any(m.startswith('django') for m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "False"
