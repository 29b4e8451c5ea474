"""The gap under a fence: ISO 13857 Table 7 (lower limbs, slots) with Table 4
(upper limbs, slots). Figures from iso13857_tables.json:
table7_lower_limbs_slot_rows (one source), table4_regular_openings_14plus,
iso13854_min_gaps_mm, ground_clearance_table (null)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from compliance.calculators.base import Certainty
from compliance.calculators.iso13857_gaps import (
    CALCULATORS,
    NOTE_CRUSHING,
    REASON_LOWER_UNKNOWN,
    REASON_NO_GAP,
    REASON_UPPER_UNKNOWN,
    REASON_WHOLE_BODY,
    GapUnderGuardInput,
    gap_under_guard,
)
from compliance.calculators.iso13857_tables import (
    ISO13854_MIN_GAPS_MM,
    TABLE4_OPENINGS,
    WHOLE_BODY_ACCESS_MM,
)


def gap(e, d=None, *, arms_excluded=False):
    return gap_under_guard(
        GapUnderGuardInput(
            gap_height_mm=e, distance_to_hazard_mm=d, upper_limbs_excluded=arms_excluded
        )
    )


def test_100_mm_gap_needs_1100_mm_and_passes_at_1200():
    # Table 7: slot 95 < e ≤ 180 → 1100; Table 4: slot 40 < e ≤ 120 → 850.
    result = gap(100, 1200)
    assert result.lower_limb_distance_mm == 1100
    assert result.upper_limb_distance_mm == 850
    assert result.safety_distance_mm == 1100
    assert result.verdict == "pass"
    assert result.sufficient is True
    assert result.certainty == Certainty.ONE_SOURCE  # Table 7: one source


def test_100_mm_gap_fails_at_1000_mm():
    result = gap(100, 1000)
    assert result.verdict == "fail"
    assert result.sufficient is False


def test_50_mm_gap_an_arm_reaches_further_than_a_foot():
    # Table 7: 35 < e ≤ 60 → 180 mm; Table 4 slot 40 < e ≤ 120 → 850 mm.
    result = gap(50, 500)
    assert (result.lower_limb_distance_mm, result.upper_limb_distance_mm) == (180, 850)
    assert result.safety_distance_mm == 850
    assert result.verdict == "fail"
    assert gap(50, 850).verdict == "pass"


def test_50_mm_gap_with_arms_ruled_out_needs_only_table_7():
    result = gap(50, 500, arms_excluded=True)
    assert result.safety_distance_mm == 180
    assert result.upper_limb_distance_mm is None
    assert result.verdict == "pass"
    assert gap(50, 170, arms_excluded=True).verdict == "fail"


def test_gap_of_35_mm_or_less_needs_evidence_for_the_lower_limbs():
    # Table 7 rows for e ≤ 35 are null in the reference.
    result = gap(30, 900)
    assert result.lower_limb_distance_mm is None
    assert result.upper_limb_distance_mm == 850  # Table 4 slot 20 < e ≤ 30
    assert result.safety_distance_mm is None
    assert result.verdict == "needs_evidence"
    assert result.sufficient is None
    assert result.undetermined_reason == REASON_LOWER_UNKNOWN
    # ... but a known requirement that is not met is a fail.
    assert gap(30, 500).verdict == "fail"
    assert gap(30, 5000, arms_excluded=True).verdict == "needs_evidence"


def test_gap_over_120_mm_needs_evidence_for_the_arm():
    # Table 4 stops at 120 mm; Table 7 gives 1100 mm for 95 < e ≤ 180.
    result = gap(150, 1200)
    assert result.lower_limb_distance_mm == 1100
    assert result.upper_limb_distance_mm is None
    assert result.verdict == "needs_evidence"
    assert result.undetermined_reason == REASON_UPPER_UNKNOWN
    assert gap(150, 1000).verdict == "fail"
    assert gap(150, 1200, arms_excluded=True).verdict == "pass"


def test_gap_over_180_mm_lets_the_whole_body_through():
    # whole_body_access_mm.slot = 180.
    result = gap(200, 5000)
    assert result.whole_body_access is True
    assert result.verdict == "fail"
    assert result.reason == REASON_WHOLE_BODY
    # 180 mm is still Table 7's last row (an arm's reach is unknown above 120).
    assert gap(180, 1100, arms_excluded=True).verdict == "pass"
    assert gap(180, 1100).verdict == "needs_evidence"


def test_guard_down_to_the_floor_has_no_gap():
    result = gap(0)
    assert result.verdict == "pass"
    assert result.reason == REASON_NO_GAP


def test_every_result_names_the_missing_ground_clearance_table_and_crushing():
    result = gap(100, 1200)
    assert any("ground-clearance table" in w.text for w in result.warnings)
    assert any(w.text == NOTE_CRUSHING for w in result.warnings)
    assert result.clause.startswith("ISO 13857:2019, 4.3 (Table 7")


def test_sentences_quote_the_reference_figures():
    assert f"{WHOLE_BODY_ACCESS_MM['slot']} mm" in REASON_WHOLE_BODY
    assert f"{TABLE4_OPENINGS.max_opening_mm} mm" in REASON_UPPER_UNKNOWN
    for part, words in (("toes", "the toes"), ("foot", "the foot"), ("leg", "the leg")):
        assert f"{ISO13854_MIN_GAPS_MM[part]} mm for {words}" in NOTE_CRUSHING


def test_table7_and_gaps_match_the_reference_file(reference):
    from compliance.calculators.iso13857_tables import (
        GROUND_CLEARANCE_VALUES,
        TABLE7_LOWER_LIMB_SLOTS,
    )

    ref = reference("iso13857_tables.json")
    rows = ref["table7_lower_limbs_slot_rows"]
    assert [(r.e_gt_mm, r.e_le_mm, r.s_r_mm) for r in TABLE7_LOWER_LIMB_SLOTS] == [
        (r["e_gt_mm"], r["e_le_mm"], r["s_r_mm"]) for r in rows["rows"]
    ]
    assert rows["whole_body_access_mm"] == WHOLE_BODY_ACCESS_MM
    assert rows["square_round_rows"] is None
    gaps = {k: v for k, v in ref["iso13854_min_gaps_mm"].items() if type(v) is int}
    assert gaps == ISO13854_MIN_GAPS_MM
    assert ref["ground_clearance_table"]["values"] is GROUND_CLEARANCE_VALUES is None


def test_bad_input_is_rejected_naming_the_field():
    for data, field in (
        ({"gap_height_mm": -1}, "gap_height_mm"),
        ({"gap_height_mm": 100, "distance_to_hazard_mm": -1}, "distance_to_hazard_mm"),
        ({"gap_height_mm": 100, "gap_mm": 1}, "gap_mm"),
    ):
        with pytest.raises(ValidationError) as excinfo:
            GapUnderGuardInput(**data)
        assert field in str(excinfo.value)


def test_registry_example_is_the_100_mm_gap():
    calc = CALCULATORS[0]
    result = calc.run(calc.input_model(**calc.example))
    assert result.safety_distance_mm == 1100
    assert result.verdict == "pass"
    for name in calc.headline:
        assert name in calc.result_model.model_fields


gaps = st.floats(min_value=0, max_value=400, allow_nan=False)
distances = st.floats(min_value=0, max_value=5000, allow_nan=False)
RANK = {"fail": 0, "needs_evidence": 1, "pass": 2}


@settings(max_examples=300)
@given(e=gaps, d1=distances, d2=distances, arms=st.booleans())
def test_moving_the_hazard_away_never_worsens_the_verdict(e, d1, d2, arms):
    near, far = sorted((d1, d2))
    v_near = gap(e, near, arms_excluded=arms).verdict
    v_far = gap(e, far, arms_excluded=arms).verdict
    assert v_near is not None and v_far is not None
    assert RANK[v_far] >= RANK[v_near]


@settings(max_examples=300)
@given(e1=gaps, e2=gaps, arms=st.booleans())
def test_a_higher_gap_never_needs_less_distance(e1, e2, arms):
    low, high = sorted((e1, e2))
    s_low = gap(low, arms_excluded=arms).safety_distance_mm
    s_high = gap(high, arms_excluded=arms).safety_distance_mm
    if s_low is not None and s_high is not None:
        assert s_high >= s_low
