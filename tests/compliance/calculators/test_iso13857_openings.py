"""ISO 13857:2019 Table 4: openings judged by their shape, rectangles as slots,
and the thumb-stop note for short slots (iso13857_tables.json,
table4_regular_openings_14plus: its description and notes)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from compliance.calculators.iso13857_openings import (
    REASON_OPENING_TOO_LARGE,
    REASON_THUMB_STOP,
    OpeningInput,
    opening,
)
from compliance.calculators.iso13857_tables import (
    THUMB_STOP_REDUCED_DISTANCE_MM,
    THUMB_STOP_SLOT_E_GT_MM,
    THUMB_STOP_SLOT_LENGTH_MM,
)


def hole(shape, e, length=None, d=None):
    return opening(
        OpeningInput(
            opening_shape=shape,
            opening_size_mm=e,
            opening_length_mm=length,
            distance_to_hazard_mm=d,
        )
    )


# --- a rectangular mesh is judged as what it is --------------------------------


def test_30_by_60_mesh_is_a_30_mm_slot_not_a_30_mm_square():
    # Table 4: e is "slot width / square side / round diameter": unequal sides
    # make a slot of width 30 → 20 < e ≤ 30: slot 850 mm (a 30 mm square would
    # need only 120 mm).
    result = hole("rectangle", 30, 60)
    assert result.judged_as == "slot"
    assert result.opening_e_mm == 30
    assert result.safety_distance_mm == 850
    assert hole("square", 30).safety_distance_mm == 120
    assert "30 × 60 mm → slot, e = 30 mm" in " | ".join(
        line.formula for line in result.steps
    )


def test_30_by_60_mesh_far_enough_passes_and_too_close_fails():
    assert hole("rectangle", 30, 60, d=900).verdict == "pass"
    assert hole("rectangle", 30, 60, d=900).sufficient is True
    result = hole("rectangle", 30, 60, d=150)  # below even the 200 mm of the note
    assert result.verdict == "fail"
    assert result.sufficient is False


def test_30_by_60_mesh_between_200_and_850_needs_evidence_for_the_thumb_stop():
    # notes[0]: "Slot 6 < e <= ... : if slot length <= 65 mm the thumb acts as a
    # stop and the distance can be reduced to 200 mm" - the width range is cut
    # off, so the reduction is neither applied nor ruled out.
    result = hole("rectangle", 30, 60, d=250)
    assert result.verdict == "needs_evidence"
    assert result.sufficient is None
    assert result.undetermined_reason == REASON_THUMB_STOP
    assert result.reduced_distance_mm == 200
    assert result.safety_distance_mm == 850


def test_a_long_slot_has_no_thumb_stop():
    # 30 × 100 mm: longer than 65 mm, so 850 mm applies in full.
    result = hole("rectangle", 30, 100, d=250)
    assert result.verdict == "fail"
    assert result.reduced_distance_mm is None


def test_rectangle_sides_in_either_order_give_the_same_answer():
    a, b = hole("rectangle", 60, 30, d=250), hole("rectangle", 30, 60, d=250)
    assert (a.judged_as, a.opening_e_mm, a.verdict) == (b.judged_as, 30, b.verdict)


def test_rectangle_with_equal_sides_is_a_square():
    # 40 x 40 mm square mesh -> 200 mm (table4 notes, ABB application).
    result = hole("rectangle", 40, 40, d=250)
    assert result.judged_as == "square"
    assert result.safety_distance_mm == 200
    assert result.verdict == "pass"
    assert hole("rectangle", 40, 40, d=199).verdict == "fail"


def test_a_nearly_square_rectangle_never_needs_more_than_its_enclosing_square():
    # 25 × 26 mm fits inside a 26 mm square: square 20 < e ≤ 30 → 120 mm, not
    # the 25 mm slot's 850 mm. 30 × 40 mm: the 40 mm square's 200 mm.
    result = hole("rectangle", 25, 26, d=130)
    assert (result.judged_as, result.opening_e_mm) == ("square", 26)
    assert result.safety_distance_mm == 120
    assert result.verdict == "pass"
    assert hole("rectangle", 30, 40).safety_distance_mm == 200
    assert hole("rectangle", 30, 40, d=190).verdict == "fail"
    assert hole("rectangle", 30, 40).reduced_distance_mm is None


# --- slots, squares, round holes ----------------------------------------------------


def test_short_slot_given_as_slot_gets_the_same_thumb_stop_check():
    assert hole("slot", 25, 60, d=300).verdict == "needs_evidence"
    assert hole("slot", 25, 60, d=850).verdict == "pass"
    assert hole("slot", 25, 60, d=199).verdict == "fail"


def test_slot_without_length_is_taken_as_long_and_asks_for_it():
    result = hole("slot", 25, d=300)
    assert result.verdict == "fail"
    assert any("give the slot's length" in w.text for w in result.warnings)


def test_thumb_stop_does_not_touch_slots_needing_200_mm_or_less():
    # Slot 12 < e ≤ 20: 120 mm (below 200); slot e ≤ 6: outside "6 < e".
    assert hole("slot", 15, 50, d=130).verdict == "pass"
    assert hole("slot", 15, 50, d=110).verdict == "fail"
    assert hole("slot", 5, 50).reduced_distance_mm is None
    assert hole("slot", 5, 50).safety_distance_mm == 10


def test_round_and_square_are_read_by_their_own_columns():
    # 30 < e ≤ 40: square 200, round 120.
    assert hole("square", 35, d=150).verdict == "fail"
    assert hole("round", 35, d=150).verdict == "pass"


def test_opening_over_120_mm_needs_evidence_when_a_distance_is_given():
    result = hole("rectangle", 150, 300, d=2000)
    assert result.safety_distance_mm is None
    assert result.reason == REASON_OPENING_TOO_LARGE
    assert result.verdict == "needs_evidence"
    assert result.sufficient is None


def test_the_rule_figures_match_the_reference_note(reference):
    note = "if slot length <= 65 mm the thumb acts as a stop"
    ref = reference("iso13857_tables.json")
    text = ref["table4_regular_openings_14plus"]["notes"][0]
    assert note in text
    assert f"Slot {THUMB_STOP_SLOT_E_GT_MM} < e" in text
    assert f"reduced to {THUMB_STOP_REDUCED_DISTANCE_MM} mm" in text
    assert THUMB_STOP_SLOT_LENGTH_MM == 65
    assert "200 mm" in REASON_THUMB_STOP and "65 mm" in REASON_THUMB_STOP


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"opening_shape": "rectangle", "opening_size_mm": 30}, "opening_length_mm"),
        ({"opening_shape": "square", "opening_size_mm": 30, "opening_length_mm": 60}, "opening_length_mm"),
        ({"opening_shape": "round", "opening_size_mm": 30, "opening_length_mm": 30}, "opening_length_mm"),
        ({"opening_shape": "slot", "opening_size_mm": 30, "opening_length_mm": 0}, "opening_length_mm"),
        ({"opening_shape": "hexagon", "opening_size_mm": 30}, "opening_shape"),
    ],
)  # fmt: skip
def test_inconsistent_shapes_are_rejected(data, field):
    with pytest.raises(ValidationError) as excinfo:
        OpeningInput(**data)
    assert field in str(excinfo.value)


# --- properties -----------------------------------------------------------------

sizes = st.floats(min_value=0.1, max_value=130, allow_nan=False)
lengths = st.floats(min_value=0.1, max_value=500, allow_nan=False)
distances = st.floats(min_value=0, max_value=5000, allow_nan=False)
RANK = {"fail": 0, "needs_evidence": 1, "pass": 2}


@settings(max_examples=300)
@given(e1=sizes, e2=sizes, length=lengths)
def test_widening_a_rectangle_never_lowers_the_required_distance(e1, e2, length):
    narrow, wide = sorted((e1, e2))
    s_narrow = hole("rectangle", narrow, max(length, wide)).safety_distance_mm
    s_wide = hole("rectangle", wide, max(length, wide)).safety_distance_mm
    if s_narrow is not None and s_wide is not None:
        assert s_wide >= s_narrow


@settings(max_examples=300)
@given(
    shape=st.sampled_from(["slot", "rectangle"]),
    e=sizes,
    length=lengths,
    d1=distances,
    d2=distances,
)
def test_moving_the_opening_away_never_worsens_the_verdict(shape, e, length, d1, d2):
    near, far = sorted((d1, d2))
    v_near = hole(shape, e, length, d=near).verdict
    v_far = hole(shape, e, length, d=far).verdict
    assert v_near is not None and v_far is not None
    assert RANK[v_far] >= RANK[v_near]


@settings(max_examples=300)
@given(e=sizes, l1=lengths, l2=lengths)
def test_lengthening_an_opening_never_lowers_the_required_distance(e, l1, l2):
    short, long_ = sorted((max(l1, e), max(l2, e)))
    s_short = hole("rectangle", e, short).safety_distance_mm
    s_long = hole("rectangle", e, long_).safety_distance_mm
    if s_short is not None and s_long is not None:
        assert s_long >= s_short
