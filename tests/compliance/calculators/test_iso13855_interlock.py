"""ISO 13855: interlocking guards without guard locking, S = 1600 mm/s × T + C
(iso13855_additions.json, interlocking_guards_without_locking)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from compliance.calculators.base import Certainty
from compliance.calculators.iso13855_interlock import (
    CALCULATORS,
    InterlockInput,
    iso13855_interlock,
)
from compliance.calculators.registry import CALCULATORS as REGISTRY


def door(t, d=None, c=0):
    return iso13855_interlock(
        InterlockInput(
            overall_stopping_time_ms=t, distance_to_hazard_mm=d, intrusion_distance_mm=c
        )
    )


def test_door_500_mm_away_with_420_ms_fails_and_needs_672_mm():
    # The safety engineer's regression: 1600 × 0.42 = 672 mm > 500 mm.
    result = door(420, 500)
    assert result.minimum_distance_mm == 672
    assert result.sufficient is False
    assert result.guard_locking_required is True
    assert any("ISO 14119" in line.text for line in result.steps)
    assert (result.k_mm_s, result.c_mm, result.t_ms) == (1600, 0, 420)


def test_door_far_enough_passes_without_guard_locking():
    result = door(420, 700)
    assert result.sufficient is True
    assert result.guard_locking_required is False
    assert not any("ISO 14119" in line.text for line in result.steps)
    assert door(420, 672).sufficient is True  # exactly S is enough


def test_without_an_actual_distance_only_s_is_given():
    result = door(250)
    assert result.minimum_distance_mm == 400  # 1600 × 0.25
    assert result.sufficient is None
    assert result.guard_locking_required is None


def test_reach_through_the_opening_adds_c():
    # C from ISO 13857 where a hand can be pushed through, e.g. 120 mm:
    # 1600 × 0.42 + 120 = 792 mm.
    result = door(420, 700, c=120)
    assert result.minimum_distance_mm == 792
    assert result.sufficient is False
    assert not any("C = 0 holds only" in w.text for w in result.warnings)
    assert any("C = 0 holds only" in w.text for w in door(420).warnings)


def test_result_carries_clause_certainty_and_sources():
    result = door(420, 500)
    assert "interlocking guards without guard locking" in result.clause
    assert result.certainty is Certainty.TWO_SOURCES  # GT + ABB
    assert len(result.sources) == 3
    assert "S ≥ 672 mm" in " | ".join(line.formula for line in result.steps)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"overall_stopping_time_ms": 0}, "overall_stopping_time_ms"),
        ({"overall_stopping_time_ms": 100, "distance_to_hazard_mm": -1}, "distance_to_hazard_mm"),
        ({"overall_stopping_time_ms": 100, "intrusion_distance_mm": -1}, "intrusion_distance_mm"),
        ({"overall_stopping_time_ms": 100, "door_mm": 1}, "door_mm"),
    ],
)  # fmt: skip
def test_bad_input_is_rejected_naming_the_field(data, field):
    with pytest.raises(ValidationError) as excinfo:
        InterlockInput(**data)
    assert field in {str(loc) for err in excinfo.value.errors() for loc in err["loc"]}


def test_registered_and_its_example_is_the_regression():
    assert REGISTRY["iso13855-interlock"] is CALCULATORS[0]
    calc = CALCULATORS[0]
    result = calc.run(calc.input_model(**calc.example))
    assert result.minimum_distance_mm == 672
    assert result.sufficient is False
    for name in calc.headline:
        assert name in calc.result_model.model_fields


times = st.floats(min_value=1, max_value=10_000, allow_nan=False)
distances = st.floats(min_value=0, max_value=20_000, allow_nan=False)


@settings(max_examples=200)
@given(t=times, d1=distances, d2=distances)
def test_moving_the_door_away_never_turns_pass_into_fail(t, d1, d2):
    near, far = sorted((d1, d2))
    if door(t, near).sufficient:
        assert door(t, far).sufficient


@settings(max_examples=200)
@given(t1=times, t2=times)
def test_a_longer_stopping_time_never_needs_less_distance(t1, t2):
    short, long_ = sorted((t1, t2))
    assert door(long_).minimum_distance_mm >= door(short).minimum_distance_mm
