"""ISO 13857:2019 calculators: reaching over (Tables 1 and 2) and reaching
through regular openings (Table 4). Expected figures are written out literally,
each with the reference entry it comes from (iso13857_tables.json)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from compliance.calculators.base import Certainty
from compliance.calculators.iso13857 import (
    CALCULATORS,
    REASON_BELOW_MINIMUM,
    REASON_HIGH_RISK_BELOW_1400,
    REASON_OPENING_TOO_LARGE,
    REASON_OUT_OF_REACH,
    OpeningInput,
    ReachOverInput,
    fence_height_note,
    opening,
    reach_over,
)
from compliance.calculators.iso13857_tables import (
    REACH_OVER_RULES,
    REACHING_UPWARDS,
    SRC_TROAX,
    TABLE1_LOW_RISK,
    TABLE2_HIGH_RISK,
    TABLE4_OPENINGS,
)


def over(a, b, risk, c=None):
    return reach_over(
        ReachOverInput(
            hazard_height_mm=a,
            structure_height_mm=b,
            risk=risk,
            horizontal_distance_mm=c,
        )
    )


def through(shape, e, d=None):
    return opening(
        OpeningInput(opening_shape=shape, opening_size_mm=e, distance_to_hazard_mm=d)
    )


# --- Reaching over: Table 2 cells corroborated by the Troax survey ----------


@pytest.mark.parametrize(
    ("a", "b", "c"),
    [
        # table2_high_risk.verified_cells (Troax survey as cited in CODE13857)
        (2000, 1400, 1100),
        (1000, 1400, 1000),
        (400, 1400, 400),
        (1400, 1800, 800),
        (1000, 1800, 0),
        (2600, 2000, 500),
        (2600, 2200, 400),
        (2600, 2500, 100),
    ],
)
def test_high_risk_corroborated_cell_is_read_with_two_sources(a, b, c):
    result = over(a, b, "high")
    assert result.horizontal_distance_mm == c
    assert result.table == "Table 2"
    assert result.row_a_mm == a
    assert result.column_b_mm == b
    assert result.certainty == Certainty.TWO_SOURCES
    assert result.warnings == ()
    assert SRC_TROAX in result.sources


def test_high_risk_2000_mm_structure_needs_no_distance_up_to_1000_mm_hazard():
    # verified cell: a <= 1000, b = 2000 -> c = 0 (Troax survey)
    for a in (0, 200, 400, 600, 800, 1000):
        assert over(a, 2000, "high").horizontal_distance_mm == 0
    # between two corroborated rows is still corroborated
    assert over(900, 2000, "high").certainty == Certainty.TWO_SOURCES


def test_high_risk_2200_mm_structure_needs_no_distance_up_to_1600_mm_hazard():
    # verified cell: a <= 1600, b = 2200 -> c = 0 (Troax survey)
    for a in (0, 800, 1200, 1600):
        assert over(a, 2200, "high").horizontal_distance_mm == 0
        assert over(a, 2200, "high").certainty == Certainty.TWO_SOURCES


def test_high_risk_2700_mm_structure_needs_no_distance_at_any_hazard_height():
    # verified cell: all a, b = 2700 -> c = 0 (Troax survey)
    for a in (0, 1300, 2200, 2600, 2699):
        result = over(a, 2700, "high")
        assert result.horizontal_distance_mm == 0
        assert result.certainty == Certainty.TWO_SOURCES


def test_uncorroborated_table2_cell_is_one_source_with_a_warning():
    result = over(1400, 1600, "high")
    assert result.horizontal_distance_mm == 900
    assert result.certainty == Certainty.ONE_SOURCE
    assert "not corroborated" in result.warnings[0].text
    assert "a = 1,400 mm, b = 1,600 mm" in result.warnings[0].formula


def test_mixed_bracket_with_one_uncorroborated_row_is_one_source():
    # rows 1600 (corroborated 0) and 1800 (not corroborated 0) at b = 2200
    result = over(1700, 2200, "high")
    assert result.horizontal_distance_mm == 0
    assert result.certainty == Certainty.ONE_SOURCE


# --- Reaching over: Table 1 (one source, a = 0 row doubtful) ----------------


def test_low_risk_is_always_one_source_with_a_warning():
    result = over(1400, 1800, "low")
    assert result.horizontal_distance_mm == 100
    assert result.table == "Table 1"
    assert result.certainty == Certainty.ONE_SOURCE
    assert any("one public source" in w.text for w in result.warnings)
    assert result.clause == "ISO 13857:2019, 4.2.2 (Table 1)"


@pytest.mark.parametrize(("a", "c"), [(0, 500), (100, 500)])
def test_low_risk_use_of_the_doubtful_a_0_row_is_warned(a, c):
    result = over(a, 1200, "low")
    assert result.horizontal_distance_mm == c
    assert result.row_a_mm == 0
    assert any("doubtful" in w.text for w in result.warnings)


def test_low_risk_rows_clear_of_a_0_carry_no_doubtful_row_warning():
    result = over(300, 1200, "low")
    assert not any("doubtful" in w.text for w in result.warnings)


@pytest.mark.parametrize(
    ("a", "b", "c"),
    [
        # table1_low_risk rows (JS_T1), read at exact rows and columns
        (1000, 1000, 1400),
        (1000, 1600, 300),
        (2000, 2000, 350),
        (2200, 2200, 250),
        (2400, 2400, 100),
        (2400, 2500, 0),
        (800, 1400, 600),
    ],
)
def test_low_risk_exact_cells(a, b, c):
    assert over(a, b, "low").horizontal_distance_mm == c


# --- Reaching over: between rows and columns (no interpolation) -------------


def test_between_rows_the_row_giving_the_larger_distance_is_used():
    # low risk, rows 200 (c = 200) and 400 (c = 300) at b = 1200: 300, not 250
    result = over(300, 1200, "low")
    assert result.horizontal_distance_mm == 300
    assert result.row_a_mm == 400
    # high risk, rows 600 (800) and 800 (900) at b = 1400: the upper row
    assert over(700, 1400, "high").horizontal_distance_mm == 900
    # high risk, rows 2400 (600) and 2600 (500) at b = 2000: the lower row
    result = over(2500, 2000, "high")
    assert result.horizontal_distance_mm == 600
    assert result.row_a_mm == 2400


def test_between_columns_the_lower_structure_column_is_used():
    # high risk a = 2000: columns 1400 (1100) and 1600 (900): 1100, not 1000
    result = over(2000, 1500, "high")
    assert result.horizontal_distance_mm == 1100
    assert result.column_b_mm == 1400
    # low risk a = 1000: columns 1200 (1000) and 1400 (900)
    assert over(1000, 1399, "low").horizontal_distance_mm == 1000


def test_steps_show_the_row_and_column_used():
    result = over(1500, 1650, "high")
    assert result.horizontal_distance_mm == 900
    formulas = " | ".join(step.formula for step in result.steps)
    assert "b = 1,650 mm → column b = 1,600 mm" in formulas
    assert "between rows a = 1,400 mm (c = 900 mm) and a = 1,600 mm" in formulas
    assert "c = 900 mm" in formulas


def test_structure_above_the_last_column_reads_the_last_column():
    assert over(2400, 3000, "low").column_b_mm == 2500
    assert over(2400, 3000, "low").horizontal_distance_mm == 0
    assert over(2600, 2699, "high").horizontal_distance_mm == 100  # column 2500


def test_hazard_just_below_the_reaching_upwards_height_uses_the_top_rows():
    # low: rows 2400 (100) and 2500 (0) at b = 1000
    assert over(2499.9, 1000, "low").horizontal_distance_mm == 100
    # high: rows 2600 (700) and 2700 (0) at b = 1400
    assert over(2699, 1400, "high").horizontal_distance_mm == 700


# --- Reaching over: no distance (out of reach, structure too low) -----------


@pytest.mark.parametrize(("risk", "h"), [("low", 2500), ("high", 2700)])
def test_hazard_at_the_reaching_upwards_height_needs_no_reach_over_distance(risk, h):
    # reaching_upwards: low 2500 mm, high 2700 mm (GT, SFG, CODE13857)
    result = over(h, 1000, risk)
    assert result.horizontal_distance_mm is None
    assert result.reason == REASON_OUT_OF_REACH[risk]
    assert "reaching upwards" in result.reason
    assert str(h) in result.reason
    assert result.sufficient is None
    assert over(h, 1000, risk, c=0).sufficient is True
    assert result.clause == "ISO 13857:2019, 4.2.1 (reaching upwards)"
    assert result.certainty == Certainty.TWO_SOURCES


def test_low_risk_structure_under_1000_mm_is_too_low():
    result = over(1000, 999.9, "low")
    assert result.horizontal_distance_mm is None
    assert result.reason == REASON_BELOW_MINIMUM["low"]
    assert "1000 mm" in result.reason
    assert result.sufficient is None
    assert over(1000, 999.9, "low", c=5000).sufficient is False
    # exactly 1000 mm is the first column
    assert over(1000, 1000, "low").horizontal_distance_mm == 1400


def test_high_risk_structure_under_1400_mm_gives_no_distance():
    result = over(1000, 1399, "high")
    assert result.horizontal_distance_mm is None
    assert result.reason == REASON_HIGH_RISK_BELOW_1400
    assert "1400 mm" in result.reason
    assert over(1000, 1399, "high", c=5000).sufficient is False
    # exactly 1400 mm is allowed (verified cell a = 1000, b = 1400 -> 1000)
    assert over(1000, 1400, "high").horizontal_distance_mm == 1000


def test_high_risk_structure_under_1000_mm_names_both_limits():
    result = over(1000, 800, "high")
    assert result.reason == REASON_BELOW_MINIMUM["high"]
    assert "1000 mm" in result.reason
    assert "1400 mm" in result.reason


def test_reasons_quote_the_reference_figures():
    for risk, text in REASON_OUT_OF_REACH.items():
        assert f"{REACHING_UPWARDS.min_height_mm[risk]} mm" in text
    for text in REASON_BELOW_MINIMUM.values():
        assert f"{REACH_OVER_RULES.min_structure_height_mm} mm" in text
    high_min = f"{REACH_OVER_RULES.high_risk_min_structure_height_mm} mm"
    assert high_min in REASON_HIGH_RISK_BELOW_1400
    assert high_min in REASON_BELOW_MINIMUM["high"]
    assert f"{TABLE4_OPENINGS.max_opening_mm} mm" in REASON_OPENING_TOO_LARGE


def test_actual_horizontal_distance_is_checked_against_the_table():
    assert over(1400, 1800, "high", c=800).sufficient is True
    assert over(1400, 1800, "high", c=799).sufficient is False
    assert over(1400, 1800, "high").sufficient is None


# --- Openings: Table 4 ------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "e", "s_r"),
    [
        # table4_regular_openings_14plus rows (CODE13857 + SFG), at band edges
        ("slot", 4, 2),
        ("square", 4, 2),
        ("round", 4, 2),
        ("slot", 6, 10),
        ("square", 6, 5),
        ("round", 6, 5),
        ("slot", 8, 20),
        ("square", 8, 15),
        ("round", 8, 5),
        ("slot", 10, 80),
        ("square", 10, 25),
        ("round", 10, 20),
        ("slot", 12, 100),
        ("square", 12, 80),
        ("round", 12, 80),
        ("slot", 20, 120),
        ("square", 20, 120),
        ("round", 20, 120),
        ("slot", 30, 850),
        ("square", 30, 120),
        ("round", 30, 120),
        ("slot", 40, 850),
        ("square", 40, 200),
        ("round", 40, 120),
        ("slot", 120, 850),
        ("square", 120, 850),
        ("round", 120, 850),
    ],
)
def test_opening_at_the_top_edge_of_each_band(shape, e, s_r):
    result = through(shape, e)
    assert result.safety_distance_mm == s_r
    assert result.band_e_max_mm == e
    assert result.certainty == Certainty.TWO_SOURCES


@pytest.mark.parametrize(
    ("shape", "e", "s_r"),
    [
        ("square", 4.1, 5),
        ("slot", 6.01, 20),
        ("square", 12.5, 120),
        ("slot", 20.5, 850),
        ("square", 30.5, 200),
        ("round", 40.1, 850),
        ("round", 0.5, 2),
    ],
)
def test_opening_just_above_a_band_edge_takes_the_next_band(shape, e, s_r):
    assert through(shape, e).safety_distance_mm == s_r


def test_40_mm_square_mesh_needs_200_mm():
    # table4 notes: "40 x 40 mm square mesh -> 200 mm (ABB application, cited
    # in CODE13857)"
    result = through("square", 40, d=250)
    assert result.safety_distance_mm == 200
    assert result.sufficient is True
    assert result.clause == "ISO 13857:2019, 4.2.4 (Table 4, persons 14 years and over)"
    assert through("square", 40, d=199).sufficient is False


def test_opening_over_120_mm_is_sent_to_reaching_over():
    # table4 notes: "Openings > 120 mm: treat as reaching over (Table 1/2)."
    result = through("square", 120.5, d=2000)
    assert result.safety_distance_mm is None
    assert result.reason == REASON_OPENING_TOO_LARGE
    assert "reaching-over" in result.reason
    assert result.sufficient is None


def test_opening_at_120_mm_warns_it_is_the_edge_of_table_4():
    assert any("largest size" in w.text for w in through("round", 120).warnings)


def test_slot_needing_850_mm_mentions_the_thumb_stop_without_applying_it():
    result = through("slot", 25)
    assert result.safety_distance_mm == 850
    assert any("thumb" in w.text for w in result.warnings)
    assert not any("thumb" in w.text for w in through("square", 25).warnings)
    assert not any("thumb" in w.text for w in through("slot", 15).warnings)


# --- Bad input --------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "data", "field"),
    [
        (ReachOverInput, {"hazard_height_mm": 1, "structure_height_mm": 1400, "risk": "medium"}, "risk"),
        (ReachOverInput, {"hazard_height_mm": -1, "structure_height_mm": 1400, "risk": "low"}, "hazard_height_mm"),
        (ReachOverInput, {"hazard_height_mm": 1, "structure_height_mm": 0, "risk": "low"}, "structure_height_mm"),
        (ReachOverInput, {"hazard_height_mm": 1, "structure_height_mm": 1400, "risk": "low", "horizontal_distance_mm": -5}, "horizontal_distance_mm"),
        (ReachOverInput, {"hazard_height_mm": 1, "structure_height_mm": 1400, "risk": "low", "fence_mm": 1}, "fence_mm"),
        (OpeningInput, {"opening_shape": "triangle", "opening_size_mm": 10}, "opening_shape"),
        (OpeningInput, {"opening_shape": "slot", "opening_size_mm": 0}, "opening_size_mm"),
        (OpeningInput, {"opening_shape": "slot", "opening_size_mm": 10, "distance_to_hazard_mm": -1}, "distance_to_hazard_mm"),
    ],
)  # fmt: skip
def test_bad_input_is_rejected_naming_the_field(model, data, field):
    with pytest.raises(ValidationError) as excinfo:
        model(**data)
    assert field in {str(loc) for err in excinfo.value.errors() for loc in err["loc"]}


# --- Properties -------------------------------------------------------------

heights = st.floats(min_value=0, max_value=3000, allow_nan=False)
structures = st.floats(min_value=900, max_value=3500, allow_nan=False)
risks = st.sampled_from(["low", "high"])
shapes = st.sampled_from(["slot", "square", "round"])
sizes = st.floats(min_value=0.1, max_value=130, allow_nan=False)


@settings(max_examples=200)
@given(a=heights, b1=structures, b2=structures, risk=risks)
def test_a_taller_structure_never_needs_a_larger_distance(a, b1, b2, risk):
    low_b, high_b = sorted((b1, b2))
    c_low = over(a, low_b, risk).horizontal_distance_mm
    c_high = over(a, high_b, risk).horizontal_distance_mm
    if c_low is not None and c_high is not None:
        assert c_high <= c_low


@settings(max_examples=200)
@given(shape=shapes, e1=sizes, e2=sizes)
def test_a_larger_opening_never_needs_a_smaller_distance(shape, e1, e2):
    small, large = sorted((e1, e2))
    s_small = through(shape, small).safety_distance_mm
    s_large = through(shape, large).safety_distance_mm
    if s_small is not None and s_large is not None:
        assert s_large >= s_small


@settings(max_examples=200)
@given(a=heights, b=structures)
def test_high_risk_never_needs_less_than_low_risk(a, b):
    low = over(a, b, "low").horizontal_distance_mm
    high = over(a, b, "high").horizontal_distance_mm
    if low is not None and high is not None:
        assert high >= low


def test_high_risk_never_needs_less_than_low_risk_on_every_table_point():
    for a in sorted({r.a_mm for r in TABLE1_LOW_RISK.rows + TABLE2_HIGH_RISK.rows}):
        for b in TABLE2_HIGH_RISK.b_columns_mm:
            low = over(a, b, "low").horizontal_distance_mm
            high = over(a, b, "high").horizontal_distance_mm
            if low is not None and high is not None:
                assert high >= low, (a, b)


@settings(max_examples=200)
@given(
    a=st.floats(min_value=0, max_value=2699, allow_nan=False), b=structures, risk=risks
)
def test_between_rows_never_less_than_either_neighbouring_row(a, b, risk):
    table = TABLE1_LOW_RISK if risk == "low" else TABLE2_HIGH_RISK
    result = over(a, b, risk)
    if result.horizontal_distance_mm is None:
        return
    lower = max(r.a_mm for r in table.rows if r.a_mm <= a)
    upper = min(r.a_mm for r in table.rows if r.a_mm >= a)
    for row_a in (lower, upper):
        neighbour = over(row_a, b, risk).horizontal_distance_mm
        if neighbour is not None:
            assert result.horizontal_distance_mm >= neighbour


def test_each_table_row_is_non_increasing_with_structure_height():
    # the "lower column gives the larger c" rounding relies on this
    for table in (TABLE1_LOW_RISK, TABLE2_HIGH_RISK):
        for row in table.rows:
            assert list(row.c_mm) == sorted(row.c_mm, reverse=True), row.a_mm


# --- Data copied faithfully, registry entries, plain data ---------------------


def test_tables_match_the_reference_file(reference):
    ref = reference("iso13857_tables.json")
    t1 = ref["table1_low_risk"]
    for row in t1["rows"]:
        ours = next(r for r in TABLE1_LOW_RISK.rows if r.a_mm == row["a_mm"])
        # the reference's tenth (b = 2700) column is dropped: all zero
        assert list(ours.c_mm) == row["c_mm"][:9]
        assert row["c_mm"][9] == 0
    assert len(TABLE1_LOW_RISK.rows) == len(t1["rows"])
    t2 = ref["table2_high_risk"]
    assert list(TABLE2_HIGH_RISK.b_columns_mm) == t2["b_columns_mm"]
    assert {r.a_mm: list(r.c_mm) for r in TABLE2_HIGH_RISK.rows} == {
        row["a_mm"]: row["c_mm"] for row in t2["rows"]
    }
    assert len(TABLE2_HIGH_RISK.corroborated) == len(t2["verified_cells"])
    for cell in TABLE2_HIGH_RISK.corroborated:
        for row in TABLE2_HIGH_RISK.rows:
            if cell.a_from_mm <= row.a_mm <= cell.a_to_mm:
                assert TABLE2_HIGH_RISK.cell(row.a_mm, cell.b_mm) == cell.c_mm
    t4 = ref["table4_regular_openings_14plus"]["rows"]
    assert [
        (r.e_max_mm, r.s_r_mm["slot"], r.s_r_mm["square"], r.s_r_mm["round"])
        for r in TABLE4_OPENINGS.rows
    ] == [(r["e_max_mm"], r["slot_mm"], r["square_mm"], r["round_mm"]) for r in t4]
    upwards = ref["reaching_upwards"]
    assert REACHING_UPWARDS.min_height_mm == {
        "low": upwards["low_risk_min_height_h_mm"],
        "high": upwards["high_risk_min_height_h_mm"],
    }


@pytest.mark.parametrize("calc", CALCULATORS, ids=lambda c: c.name)
def test_registry_entry_runs_its_example(calc):
    result = calc.run(calc.input_model(**calc.example))
    assert isinstance(result, calc.result_model)
    assert result.clause.startswith("ISO 13857:2019")
    assert result.steps
    assert result.sources
    for name in calc.headline:
        assert name in calc.result_model.model_fields


def test_registry_examples_give_the_worked_figures():
    by_name = {c.name: c for c in CALCULATORS}
    reach = by_name["iso13857-reach-over"]
    result = reach.run(reach.input_model(**reach.example))
    assert result.horizontal_distance_mm == 800
    assert result.sufficient is True
    mesh = by_name["iso13857-opening"]
    assert mesh.run(mesh.input_model(**mesh.example)).safety_distance_mm == 200


def test_fence_height_note_gives_the_korean_height_and_robot_clearance():
    note = fence_height_note()
    assert note.korea_fence_height.value_mm == 1800
    assert note.korea_fence_height.confirmed_two_sources is True
    assert note.robot_fence_clearance.range_mm == (120, 200)
    assert note.robot_fence_clearance.confirmed_two_sources is False
    assert note.reaching_upwards.min_height_mm["high"] == 2700
