"""ISO 13855:2010, 6.5 and Table 1: reaching over a vertical detection zone,
S = max(S_RT, S_RO). Expected figures are written out literally, each with the
reference entry it comes from (iso13855_additions.json)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from compliance.calculators import iso13855_tables as tables
from compliance.calculators.base import Certainty
from compliance.calculators.iso13855 import (
    EspeInput,
    MultibeamInput,
    VerticalZoneInput,
    iso13855_espe,
    iso13855_multibeam,
    iso13855_vertical_zone,
)
from compliance.calculators.iso13855_reach_over import (
    REASON_A_OUTSIDE,
    REASON_B_OUTSIDE,
    REASON_MISPRINT,
    lookup_c_ro,
)


def espe(d, a=None, b=None, response=31.2, stop=300):
    return iso13855_espe(
        EspeInput(
            detection_capability_mm=d,
            response_time_ms=response,
            stopping_time_ms=stop,
            hazard_height_mm=a,
            upper_edge_height_mm=b,
        )
    )


def zone(kind="light_curtain", t=320, lower=0, upper=2600, **kw):
    return iso13855_vertical_zone(
        VerticalZoneInput(
            device_kind=kind,
            overall_stopping_time_ms=t,
            hazard_lower_mm=lower,
            hazard_upper_mm=upper,
            **kw,
        )
    )


def formulas(result):
    return " | ".join(line.formula for line in result.steps)


# --- the worked example (s_max_rule.worked_example, wenglor SEFG) -------------
# T = 0.3312 s (31.2 ms response + 300 ms stopping), a = b = 1600 mm,
# C_RO = 750, S_RT = 657.92 → d = 30 mm (1600 × 0.3312 + 8 × (30 − 14)), S_RO =
# 1412.4 with K 2000, 1279.92 with K 1600, S = 1279.92 mm.


def test_wenglor_worked_example_reaching_over_governs():
    result = espe(30, a=1600, b=1600)
    assert result.reach_through_distance_mm == pytest.approx(657.92)
    assert result.c_ro_mm == 750
    assert result.reach_over_distance_mm == pytest.approx(1279.92)
    assert result.minimum_distance_mm == pytest.approx(1279.92)
    assert result.governs == "reach_over"
    assert (result.k_mm_s, result.c_mm) == (1600, 750)
    assert result.reach_over_checked is True
    assert result.determinable is True
    assert "1,412.4 mm" in formulas(result)  # the K = 2000 step
    assert "S ≥ 1,280 mm" in formulas(result)
    # (1600, 1600) is the cell a second source confirms; the S = max rule and
    # the d ≤ 40 formula have two sources too.
    assert result.certainty is Certainty.TWO_SOURCES
    assert result.clause.startswith("ISO 13855:2010, 6.2.3.2")
    assert "Table 1" in result.clause


def test_wenglor_remedy_with_a_higher_field_needs_less():
    # Same example, field raised: "C_RO = 450 mm" (the b = 1800 column).
    result = espe(30, a=1600, b=1800)
    assert result.c_ro_mm == 450
    assert result.reach_over_distance_mm == pytest.approx(979.92)
    assert result.minimum_distance_mm == pytest.approx(979.92)
    # (1600, 1800) matches wenglor only by inference: one source.
    assert result.certainty is Certainty.ONE_SOURCE
    assert any("one full public copy" in w.text for w in result.warnings)


def test_reaching_through_governs_when_the_hazard_is_out_of_reach_over():
    # Row a = 2600 is all 0: S_RO = 1600 × 0.3312 + 0 = 529.92 < S_RT = 657.92.
    result = espe(30, a=2600, b=1600)
    assert result.c_ro_mm == 0
    assert result.reach_over_distance_mm == pytest.approx(529.92)
    assert result.minimum_distance_mm == pytest.approx(657.92)
    assert result.governs == "reach_through"
    assert result.c_mm == 128


def test_device_passing_on_s_rt_alone_now_needs_s_ro():
    # The reviewer's finding: d = 14 mm, T = 0.32 s gives S_RT = 512 mm, but a
    # hazard at 1400 mm behind a curtain topped at 1400 mm needs C_RO = 850:
    # S_RO = 1600 × 0.32 + 850 = 1362 mm.
    result = espe(14, a=1400, b=1400, response=20, stop=300)
    assert result.reach_through_distance_mm == 512
    assert result.minimum_distance_mm == 1362
    assert result.governs == "reach_over"


# --- Table 1 lookup: rounding -------------------------------------------------


def test_upper_edge_between_columns_is_rounded_down():
    # b = 1650 → column 1600 (C_RO never rises with b): a = 1600 → 750.
    lookup = lookup_c_ro(1600, 1600, 1650)
    assert (lookup.column_b_mm, lookup.c_ro_mm) == (1600, 750)
    assert "b = 1,650 mm → column b = 1,600 mm" in lookup.steps[0].formula


def test_hazard_height_between_rows_takes_the_larger_row():
    # a = 1100 between rows 1000 (1150) and 1200 (1200) at b = 1000: 1200, the
    # upper row; a = 2100 between 2000 (700) and 2200 (600) at b = 1600: 700,
    # the lower row (rounding a up would give 600).
    assert lookup_c_ro(1100, 1100, 1000).c_ro_mm == 1200
    lookup = lookup_c_ro(2100, 2100, 1600)
    assert (lookup.c_ro_mm, lookup.row_a_mm) == (700, 2000)


def test_hazard_range_takes_the_worst_row():
    # Column 1100, rows 0…2500: the largest C_RO is 1100 (rows 1200-1600).
    lookup = lookup_c_ro(0, 2500, 1100)
    assert lookup.c_ro_mm == 1100
    assert lookup.row_a_mm == 1200
    assert lookup.rows_a_mm[0] == 0 and lookup.rows_a_mm[-1] == 2500


@pytest.mark.parametrize(
    ("a", "b", "c_ro"),
    [
        # c_ro_table_2010 rows (Schmersal), read at exact cells
        (200, 900, 600),
        (400, 1000, 700),
        (1000, 1300, 750),
        (1400, 1400, 850),
        (2200, 2200, 250),
        (2500, 2400, 100),
        (2400, 2600, 0),
    ],
)
def test_exact_cells(a, b, c_ro):
    assert lookup_c_ro(a, a, b).c_ro_mm == c_ro


# --- needs evidence: no value in the table --------------------------------------


def test_misprinted_cell_gives_no_distance_and_needs_evidence():
    # known_defect: a = 1200, b = 1300 printed "85"; b = 1350 rounds down to it.
    result = espe(30, a=1200, b=1350)
    assert result.minimum_distance_mm is None
    assert result.determinable is False
    assert result.undetermined_reason == REASON_MISPRINT
    assert result.reach_over_distance_mm is None
    assert result.governs is None
    assert result.reach_through_distance_mm == pytest.approx(657.92)
    # The reference's cautious bound is shown, not used: 529.92 + 1000.
    assert any("1,529.92 mm" in w.formula for w in result.warnings)


def test_range_over_the_misprinted_cell_needs_evidence():
    result = zone(
        lower=1000, upper=1400, upper_edge_height_mm=1300, detection_capability_mm=14
    )
    assert result.minimum_distance_mm is None
    assert result.undetermined_reason == REASON_MISPRINT


@pytest.mark.parametrize(
    ("a", "b", "reason"),
    [
        (1600, 850, REASON_B_OUTSIDE),  # b below 900 mm
        (1600, 2700, REASON_B_OUTSIDE),  # b above 2600 mm
        (2700, 1600, REASON_A_OUTSIDE),  # a above 2600 mm
    ],
)
def test_outside_the_table_is_not_extrapolated(a, b, reason):
    result = espe(30, a=a, b=b)
    assert result.minimum_distance_mm is None
    assert result.determinable is False
    assert result.undetermined_reason == reason


def test_single_beam_reached_over_at_750_mm_needs_evidence():
    # One beam at 750 mm (multibeam_heights_mm): below the 900 mm column.
    result = iso13855_multibeam(
        MultibeamInput(
            beam_count=1,
            response_time_ms=10,
            stopping_time_ms=20,
            hazard_height_mm=1000,
        )
    )
    assert result.minimum_distance_mm is None
    assert result.undetermined_reason == REASON_B_OUTSIDE
    assert "b = 750 mm" in formulas(result)


def test_reasons_quote_the_reference_figures():
    assert f"{tables.C_RO_B_COLUMNS_MM[0]} mm" in REASON_B_OUTSIDE
    assert f"{tables.C_RO_B_COLUMNS_MM[-1]} mm" in REASON_B_OUTSIDE
    assert f"{max(tables.C_RO_ROWS_MM)} mm" in REASON_A_OUTSIDE
    assert f"a = {tables.C_RO_DEFECT_A_MM} mm" in REASON_MISPRINT
    assert f"b = {tables.C_RO_DEFECT_B_MM} mm" in REASON_MISPRINT
    assert f"'{tables.C_RO_DEFECT_PRINTED}'" in REASON_MISPRINT
    low, high = tables.C_RO_DEFECT_RANGE_MM
    assert f"{low} mm and {high} mm" in REASON_MISPRINT


# --- multiple beams -------------------------------------------------------------


def test_multibeam_uses_its_top_beam_when_b_is_not_given():
    # 3 beams, top at 1100 mm; a = 1400 → C_RO = 1100. T = 0.03 s:
    # S_RT = 1600 × 0.03 + 850 = 898; S_RO = 1600 × 0.03 + 1100 = 1148.
    result = iso13855_multibeam(
        MultibeamInput(
            beam_count=3,
            response_time_ms=10,
            stopping_time_ms=20,
            hazard_height_mm=1400,
        )
    )
    assert result.c_ro_column_b_mm == 1100
    assert result.reach_through_distance_mm == 898
    assert result.minimum_distance_mm == 1148
    assert result.governs == "reach_over"
    assert result.beam_heights_mm == (300, 700, 1100)


def test_multibeam_hazard_low_enough_keeps_s_rt():
    # 4 beams, top 1200; a = 200 → C_RO 0: S_RO = 2000 × 0.03 = 60 < 898.
    result = iso13855_multibeam(
        MultibeamInput(
            beam_count=4, response_time_ms=10, stopping_time_ms=20, hazard_height_mm=200
        )
    )
    assert result.minimum_distance_mm == 898
    assert result.governs == "reach_through"


def test_s_ro_kept_at_500_after_the_switch_is_warned():
    # Row a = 2600 (C_RO 0) at T = 260 ms: 2000 × 0.26 = 520 > 500, then
    # 1600 × 0.26 = 416 → kept at 500 (cautious: the reference states that floor
    # for S_RT only). S_RT = 1600 × 0.26 + 128 = 544 still governs.
    result = espe(30, a=2600, b=1600, response=10, stop=250)
    assert result.reach_over_distance_mm == 500
    assert result.minimum_distance_mm == pytest.approx(544)
    assert any("cautious bound" in w.text for w in result.warnings)


# --- the rule packs' entry point --------------------------------------------------


def test_vertical_zone_light_curtain_over_a_range():
    # d = 14, T = 320 ms: S_RT = 512. Column 1600 over rows 0…2600: the largest
    # C_RO is 750 (rows 1600, 1800): S_RO = 1600 × 0.32 + 750 = 1262 mm.
    result = zone(detection_capability_mm=14, upper_edge_height_mm=1600)
    assert result.reach_through_distance_mm == 512
    assert result.c_ro_mm == 750
    assert result.c_ro_row_a_mm == 1600
    assert result.minimum_distance_mm == 1262
    assert result.governs == "reach_over"
    assert result.certainty is Certainty.ONE_SOURCE  # most cells: one source


def test_vertical_zone_multibeam_defaults_to_the_top_beam():
    # 2 beams (400 / 900): b = 900; rows 0…1000 at column 900: max 1200 (1000).
    result = zone("multibeam", t=30, upper=1000, beam_count=2)
    assert result.c_ro_column_b_mm == 900
    assert result.c_ro_mm == 1200
    assert result.minimum_distance_mm == 1248  # 1600 × 0.03 + 1200


@pytest.mark.parametrize(
    ("kw", "field"),
    [
        ({"detection_capability_mm": 14}, "upper_edge_height_mm"),
        ({"upper_edge_height_mm": 1600}, "detection_capability_mm"),
        ({"detection_capability_mm": 80, "upper_edge_height_mm": 1600}, "detection_capability_mm"),
    ],
)  # fmt: skip
def test_vertical_zone_light_curtain_needs_its_figures(kw, field):
    with pytest.raises(ValidationError) as excinfo:
        zone(**kw)
    assert field in str(excinfo.value)


def test_vertical_zone_rejects_a_range_upside_down_and_a_grid_without_beams():
    with pytest.raises(ValidationError, match="hazard_upper_mm"):
        zone(
            lower=1000, upper=500, detection_capability_mm=14, upper_edge_height_mm=1600
        )
    with pytest.raises(ValidationError, match="beam_count"):
        zone("multibeam")


# --- properties -----------------------------------------------------------------

heights = st.floats(min_value=0, max_value=2600, allow_nan=False)
edges = st.floats(min_value=900, max_value=2600, allow_nan=False)
times = st.floats(min_value=1, max_value=2000, allow_nan=False)


@settings(max_examples=200)
@given(a=heights, b1=edges, b2=edges)
def test_raising_the_detection_zone_never_needs_more_c_ro(a, b1, b2):
    low, high = sorted((b1, b2))
    c_low = lookup_c_ro(a, a, low).c_ro_mm
    c_high = lookup_c_ro(a, a, high).c_ro_mm
    if c_low is not None and c_high is not None:
        assert c_high <= c_low


@settings(max_examples=200)
@given(a1=heights, a2=heights, a=heights, b=edges)
def test_a_range_never_needs_less_than_any_height_in_it(a1, a2, a, b):
    lower, upper = sorted((a1, a2))
    inside = min(max(a, lower), upper)
    ranged = lookup_c_ro(lower, upper, b).c_ro_mm
    single = lookup_c_ro(inside, inside, b).c_ro_mm
    if single is None:
        assert ranged is None  # the range reads that cell too
    elif ranged is not None:
        assert ranged >= single


@settings(max_examples=200)
@given(d=st.floats(min_value=1, max_value=70), a=heights, b=edges, t=times)
def test_s_is_never_below_either_distance(d, a, b, t):
    result = espe(d, a=a, b=b, response=t, stop=10)
    if result.determinable:
        assert result.minimum_distance_mm is not None
        assert result.reach_over_distance_mm is not None
        assert result.minimum_distance_mm >= result.reach_through_distance_mm
        assert result.minimum_distance_mm >= result.reach_over_distance_mm
    else:
        assert result.minimum_distance_mm is None
        assert result.undetermined_reason


@settings(max_examples=100)
@given(a=heights, b=edges, t1=times, t2=times)
def test_a_longer_stopping_time_never_gives_a_shorter_s_ro(a, b, t1, t2):
    short, long_ = sorted((t1, t2))
    fast = espe(14, a=a, b=b, response=short, stop=10)
    slow = espe(14, a=a, b=b, response=long_, stop=10)
    if fast.determinable:
        assert fast.reach_over_distance_mm is not None
        assert slow.reach_over_distance_mm is not None
        assert slow.reach_over_distance_mm >= fast.reach_over_distance_mm


# --- data copied faithfully -------------------------------------------------------


def test_c_ro_table_matches_the_reference_file(reference):
    ref = reference("iso13855_additions.json")
    table = ref["c_ro_table_2010"]
    assert list(tables.C_RO_B_COLUMNS_MM) == table["b_columns_mm"]
    assert {
        row["a_mm"]: tuple(row["C_RO_mm_by_b"][str(b)] for b in table["b_columns_mm"])
        for row in table["rows"]
    } == tables.C_RO_ROWS_MM
    defect = table["known_defect"]
    assert (
        defect["cell"]["a_mm"],
        defect["cell"]["b_mm"],
    ) == (tables.C_RO_DEFECT_A_MM, tables.C_RO_DEFECT_B_MM)
    assert defect["printed"] == tables.C_RO_DEFECT_PRINTED
    assert defect["conservative_fallback_mm"] == tables.C_RO_DEFECT_FALLBACK_MM
    assert table["confirmed_two_sources"] is tables.C_RO_TABLE.confirmed_two_sources
    assert ref["s_max_rule"]["confirmed_two_sources"] is True
    guards = ref["interlocking_guards_without_locking"]
    assert guards["K_mm_s"] == tables.INTERLOCK_K_MM_S
    assert guards["confirmed_two_sources"] is tables.INTERLOCK.confirmed_two_sources
    assert set(tables.C_RO_TABLE.sources) <= set(table["source"])
    assert set(tables.S_MAX_RULE.sources) <= set(ref["s_max_rule"]["source"])
    assert set(tables.INTERLOCK.sources) <= set(guards["source"])
