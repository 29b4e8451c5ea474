"""ISO 13857:2019, 4.2.2: reaching over for a hazard zone that spans a range
of heights: the worst (largest c) row over every a in the range (Tables 1
and 2 of iso13857_tables.json)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from compliance.calculators.base import Certainty
from compliance.calculators.iso13857 import (
    REASON_OUT_OF_REACH,
    ReachOverInput,
    reach_over,
)

heights = st.floats(min_value=0, max_value=3000, allow_nan=False)
structures = st.floats(min_value=900, max_value=3500, allow_nan=False)
risks = st.sampled_from(["low", "high"])


def over(a, b, risk, c=None):
    return reach_over(
        ReachOverInput(
            hazard_height_mm=a,
            structure_height_mm=b,
            risk=risk,
            horizontal_distance_mm=c,
        )
    )


def over_range(lower, upper, b, risk, c=None):
    return reach_over(
        ReachOverInput(
            hazard_lower_mm=lower,
            hazard_height_mm=upper,
            structure_height_mm=b,
            risk=risk,
            horizontal_distance_mm=c,
        )
    )


def test_zone_from_floor_to_2600_behind_1400_mm_guard_needs_1100_mm():
    # The safety engineer's regression: Table 2, b = 1400, rows 0…2600; the
    # worst rows (a = 1200 … 2000) need 1100 mm, the top point alone 700 mm.
    result = over_range(0, 2600, 1400, "high")
    assert result.horizontal_distance_mm == 1100
    assert result.row_a_mm == 1200
    assert result.rows_a_mm[0] == 0 and result.rows_a_mm[-1] == 2600
    assert over(2600, 1400, "high").horizontal_distance_mm == 700  # one height
    assert over_range(0, 2600, 1400, "high", c=1100).sufficient is True
    assert over_range(0, 2600, 1400, "high", c=800).sufficient is False
    assert result.certainty == Certainty.ONE_SOURCE  # most cells: one source
    assert "a = 0 … 2,600 mm" in " | ".join(step.formula for step in result.steps)


def test_zone_range_on_low_risk_table_1():
    # Table 1, b = 1400, rows 0…2400: the largest c is 900 (rows 1000-1800).
    result = over_range(0, 2400, 1400, "low")
    assert result.horizontal_distance_mm == 900
    assert any("doubtful" in w.text for w in result.warnings)  # row a = 0
    assert not any(
        "doubtful" in w.text for w in over_range(200, 2400, 1400, "low").warnings
    )


def test_zone_reaching_above_the_upwards_height_checks_the_part_below():
    # Table 2, b = 1400, 2000…3000: rows 2000-2700 → 1100 (row 2000).
    assert over_range(2000, 3000, 1400, "high").horizontal_distance_mm == 1100
    # Wholly at or above 2700 mm: out of reach upwards.
    result = over_range(2700, 3000, 1400, "high")
    assert result.horizontal_distance_mm is None
    assert result.reason == REASON_OUT_OF_REACH["high"]


def test_zone_range_between_rows_reads_the_rows_either_side():
    # 700…900 at b = 1400 (Table 2): rows 600 (800), 800 (900), 1000 (1000).
    result = over_range(700, 900, 1400, "high")
    assert result.rows_a_mm == (600, 800, 1000)
    assert result.horizontal_distance_mm == 1000


def test_zone_range_upside_down_is_rejected():
    with pytest.raises(ValidationError) as excinfo:
        over_range(1500, 1000, 1400, "high")
    assert "hazard_lower_mm" in str(excinfo.value)


@settings(max_examples=200)
@given(a1=heights, a2=heights, b1=structures, b2=structures, risk=risks)
def test_raising_the_guard_never_needs_more_for_a_zone(a1, a2, b1, b2, risk):
    lower, upper = sorted((a1, a2))
    low_b, high_b = sorted((b1, b2))
    c_low = over_range(lower, upper, low_b, risk).horizontal_distance_mm
    c_high = over_range(lower, upper, high_b, risk).horizontal_distance_mm
    if c_low is not None and c_high is not None:
        assert c_high <= c_low


@settings(max_examples=200)
@given(a1=heights, a2=heights, a=heights, b=structures, risk=risks)
def test_a_zone_never_needs_less_than_any_height_in_it(a1, a2, a, b, risk):
    lower, upper = sorted((a1, a2))
    inside = min(max(a, lower), upper)
    ranged = over_range(lower, upper, b, risk).horizontal_distance_mm
    single = over(inside, b, risk).horizontal_distance_mm
    if ranged is not None and single is not None:
        assert ranged >= single


@settings(max_examples=200)
@given(
    a=heights, b=structures, risk=risks, c1=st.floats(0, 5000), c2=st.floats(0, 5000)
)
def test_moving_the_guard_away_never_turns_pass_into_fail(a, b, risk, c1, c2):
    near, far = sorted((c1, c2))
    if over_range(0, a, b, risk, c=near).sufficient:
        assert over_range(0, a, b, risk, c=far).sufficient
