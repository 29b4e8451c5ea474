"""Risk level from the ISO 13849-1 risk graph, and residual-risk acceptability."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from compliance.assessment.hazards.risk import (
    RISK_LEVELS,
    Acceptability,
    band,
    estimate,
    pl_at_least,
    residual_acceptable,
)
from compliance.calculators.base import Certainty


# Every row of "risk_graph" in iso13849_risk_graph.json (two sources each), with
# this product's level band for the PLr.
@pytest.mark.parametrize(
    ("severity", "frequency", "avoidance", "plr", "level", "colour"),
    [
        ("S1", "F1", "P1", "a", "low", "green"),
        ("S1", "F1", "P2", "b", "low", "green"),
        ("S1", "F2", "P1", "b", "low", "green"),
        ("S1", "F2", "P2", "c", "medium", "amber"),
        ("S2", "F1", "P1", "c", "medium", "amber"),
        ("S2", "F1", "P2", "d", "high", "orange"),
        ("S2", "F2", "P1", "d", "high", "orange"),
        ("S2", "F2", "P2", "e", "very_high", "red"),
    ],
)
def test_risk_graph_combination_gives_reference_plr_and_level(
    severity, frequency, avoidance, plr, level, colour
):
    result = estimate(severity, frequency, avoidance)
    assert result.plr == plr
    assert result.effective_plr == plr
    assert result.plr_low_probability is None
    assert result.level == level
    assert result.colour == colour
    assert result.certainty == Certainty.TWO_SOURCES
    assert "Annex A" in result.clause


def test_level_bands_cover_every_pl_once_and_say_they_are_not_a_standard():
    assert [pl for b in RISK_LEVELS for pl in b.plrs] == ["a", "b", "c", "d", "e"]
    assert band("a").level == band("b").level == "low"
    assert "not taken from a standard" in estimate("S1", "F1", "P1").basis
    with pytest.raises(ValueError):
        band("f")  # type: ignore[arg-type]


def test_low_probability_is_shown_but_not_applied_unless_accepted():
    result = estimate("S2", "F2", "P2", low_probability=True)
    assert result.plr == "e"
    assert result.plr_low_probability == "d"
    assert not result.low_probability_applied
    assert result.effective_plr == "e"
    assert result.level == "very_high"
    assert any("not applied" in s.text for s in result.steps)


def test_accepted_low_probability_lowers_the_level_with_the_plr():
    result = estimate(
        "S2", "F2", "P2", low_probability=True, apply_low_probability=True
    )
    assert result.plr == "e"
    assert result.low_probability_applied
    assert result.effective_plr == "d"
    assert result.level == "high"
    assert result.colour == "orange"
    # the calculator's warning that the reduction must be justified is kept
    assert any("justified" in w.text for w in result.warnings)


def test_accepting_a_reduction_without_low_probability_changes_nothing():
    result = estimate("S2", "F1", "P2", apply_low_probability=True)
    assert not result.low_probability_applied
    assert result.plr_low_probability is None
    assert result.effective_plr == "d"
    assert result.level == "high"


def test_low_probability_cannot_lower_pl_a():
    result = estimate(
        "S1", "F1", "P1", low_probability=True, apply_low_probability=True
    )
    assert result.effective_plr == "a"
    assert result.level == "low"


def test_estimate_rejects_a_parameter_outside_the_risk_graph():
    with pytest.raises(ValidationError):
        estimate("S3", "F1", "P1")  # type: ignore[arg-type]


def test_estimate_serialises_its_working_as_readable_lines():
    data = estimate("S2", "F1", "P1").model_dump(mode="json")
    assert data["level"] == "medium"
    assert data["steps"][0] == "Risk graph (Annex A) gives PLr c: S2 → F1 → P1 → PLr c"
    assert (
        data["steps"][-1]
        == "Risk level (product scale, not a standard): PLr c → medium"
    )


def test_estimate_is_immutable():
    result = estimate("S1", "F1", "P1")
    with pytest.raises(ValidationError):
        result.level = "high"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("claimed", "required", "ok"),
    [
        ("e", "d", True),
        ("d", "d", True),
        ("c", "d", False),
        ("a", "b", False),
        ("b", "a", True),
        ("a", "e", False),
        ("e", "a", True),
    ],
)
def test_pl_at_least_orders_a_to_e(claimed, required, ok):
    assert pl_at_least(claimed, required) is ok


@pytest.mark.parametrize(("claimed", "required"), [("D", "d"), ("d", "f"), ("", "a")])
def test_pl_at_least_rejects_unknown_levels(claimed, required):
    with pytest.raises(ValueError):
        pl_at_least(claimed, required)


# A hazard whose one measure is a safeguard (step 2 of ISO 12100:2010 6.1).
GUARDED = ("safeguarding",)


def _codes(result: Acceptability) -> list[str]:
    return [r.code for r in result.reasons]


def test_unestimated_hazard_is_not_acceptable():
    result = residual_acceptable(None, None, measures_pl_ok=True, measure_steps=())
    assert not result.acceptable
    assert _codes(result) == ["not_estimated", "residual_not_estimated"]
    assert result.reasons[0].render() == "The hazard's risk has not been estimated."


def test_missing_residual_estimate_is_not_taken_as_no_risk():
    result = residual_acceptable(
        estimate("S1", "F1", "P1"), None, measures_pl_ok=True, measure_steps=()
    )
    assert not result.acceptable
    assert _codes(result) == ["residual_not_estimated"]


@pytest.mark.parametrize(
    ("params", "acceptable"),
    [
        (("S1", "F1", "P1"), True),  # a: low
        (("S1", "F2", "P1"), True),  # b: low
        (("S2", "F1", "P1"), True),  # c: medium
        (("S2", "F1", "P2"), False),  # d: high
        (("S2", "F2", "P2"), False),  # e: very high
    ],
)
def test_residual_level_high_or_very_high_is_not_acceptable(params, acceptable):
    initial = estimate("S2", "F2", "P2")
    result = residual_acceptable(
        initial, estimate(*params), measures_pl_ok=True, measure_steps=GUARDED
    )
    assert result.acceptable is acceptable
    assert _codes(result) == ([] if acceptable else ["residual_level_too_high"])


def test_residual_level_reason_names_the_level_translated():
    result = residual_acceptable(
        estimate("S2", "F2", "P2"),
        estimate("S2", "F2", "P2"),
        measures_pl_ok=True,
        measure_steps=(),
    )
    assert result.reasons[0].render() == (
        "The residual risk level is Very high: reduce it to low or medium."
    )
    german = {
        "The residual risk level is %(level)s: reduce it to low or medium.": (
            "Das Restrisiko ist %(level)s."
        ),
        "Very high": "sehr hoch",
    }
    assert result.reasons[0].render(lambda s: german.get(s, s)) == (
        "Das Restrisiko ist sehr hoch."
    )


def test_measure_below_its_plr_makes_residual_risk_not_acceptable():
    low = estimate("S1", "F1", "P1")
    result = residual_acceptable(
        low,
        low,
        measures_pl_ok=pl_at_least(claimed="c", required="d"),
        measure_steps=GUARDED,
    )
    assert not result.acceptable
    assert _codes(result) == ["measure_pl_below_plr"]


def test_every_reason_that_applies_is_listed():
    result = residual_acceptable(
        estimate("S2", "F2", "P2"),
        estimate("S2", "F2", "P1"),
        measures_pl_ok=False,
        measure_steps=GUARDED,
    )
    assert _codes(result) == ["residual_level_too_high", "measure_pl_below_plr"]


def test_acceptable_residual_risk_has_no_reasons_and_states_its_basis():
    result = residual_acceptable(
        estimate("S2", "F2", "P2"),
        estimate("S1", "F1", "P2"),
        measures_pl_ok=True,
        measure_steps=GUARDED,
    )
    assert result.acceptable
    assert result.reasons == ()
    assert "not taken from a standard" in result.basis


# --- ISO 12100:2010 6.1: information for use comes last ---------------------------

INFORMATION_ONLY = ("information_for_use",)


def test_serious_residual_risk_reduced_only_by_information_for_use_is_not_acceptable():
    # Residual S2 F1 P1: PLr c, a medium level the level rule alone accepts.
    result = residual_acceptable(
        estimate("S2", "F2", "P2"),
        estimate("S2", "F1", "P1"),
        measures_pl_ok=True,
        measure_steps=INFORMATION_ONLY * 2,
    )
    assert not result.acceptable
    assert _codes(result) == ["serious_risk_information_only"]
    text = result.reasons[0].render()
    assert "cannot be the only reduction of a serious risk" in text
    assert "ISO 12100:2010, 6.1" in text


def test_information_only_reason_is_translated():
    result = residual_acceptable(
        estimate("S2", "F2", "P2"),
        estimate("S2", "F1", "P1"),
        measures_pl_ok=True,
        measure_steps=INFORMATION_ONLY,
    )
    german = {result.reasons[0].text: "Nur Benutzerinformation reicht nicht."}
    assert result.reasons[0].render(lambda s: german.get(s, s)) == (
        "Nur Benutzerinformation reicht nicht."
    )


@pytest.mark.parametrize(
    ("residual", "steps"),
    [
        # Serious, but a safeguard or a design measure does the reducing.
        (("S2", "F1", "P1"), ("information_for_use", "safeguarding")),
        (("S2", "F1", "P1"), ("inherently_safe_design",)),
        # Slight injury (S1): information for use alone may do.
        (("S1", "F2", "P1"), INFORMATION_ONLY),
    ],
)
def test_information_for_use_is_acceptable_beside_another_step_or_for_slight_harm(
    residual, steps
):
    result = residual_acceptable(
        estimate("S2", "F2", "P2"),
        estimate(*residual),
        measures_pl_ok=True,
        measure_steps=steps,
    )
    assert result.acceptable, _codes(result)


def test_information_for_use_is_the_step_id_of_the_catalogue_and_the_model():
    from compliance.assessment.hazards import catalogue
    from compliance.assessment.hazards.risk import INFORMATION_FOR_USE
    from compliance.assessment.models import MeasureStep

    assert catalogue.step(INFORMATION_FOR_USE).number == 3
    assert MeasureStep.INFORMATION_FOR_USE == INFORMATION_FOR_USE


# --- A lower residual risk needs a measure ----------------------------------------


def test_residual_risk_lowered_without_a_measure_is_flagged():
    # S2 F2 P1 (PLr d) re-estimated S1 F1 P1 (PLr a) with nothing done.
    result = residual_acceptable(
        estimate("S2", "F2", "P1"),
        estimate("S1", "F1", "P1"),
        measures_pl_ok=True,
        measure_steps=(),
    )
    assert not result.acceptable
    assert _codes(result) == ["residual_lowered_without_measure"]
    assert "lowered without a measure" in result.reasons[0].render()


@pytest.mark.parametrize(
    ("initial", "residual", "steps"),
    [
        # Unchanged with no measure: the risk is what it was, and low.
        (("S1", "F1", "P1"), ("S1", "F1", "P1"), ()),
        # Other parameters, same PLr (b): not lowered.
        (("S1", "F2", "P1"), ("S1", "F1", "P2"), ()),
        # Lowered by a measure.
        (("S2", "F2", "P1"), ("S1", "F1", "P1"), GUARDED),
    ],
)
def test_residual_risk_not_lowered_or_lowered_by_a_measure_is_acceptable(
    initial, residual, steps
):
    result = residual_acceptable(
        estimate(*initial),
        estimate(*residual),
        measures_pl_ok=True,
        measure_steps=steps,
    )
    assert result.acceptable, _codes(result)
