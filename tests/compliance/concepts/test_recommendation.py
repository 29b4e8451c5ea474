"""The recommendation a safety engineer would sign (issue 27): only concepts
without a fail are ranked; "cheapest" or "soonest" only where the ranges do
not overlap; a concept with an open fail is never recommended."""

from __future__ import annotations

from decimal import Decimal

from compliance.concepts.comparison import Column, Money, recommend


def _column(key, *, fails=0, low=None, high=None, weeks=(4, 6), open_=0):
    cost = (
        Money(currency="KRW", low=Decimal(low), high=Decimal(high))
        if low is not None
        else None
    )
    return Column(
        key=key,
        name=key.title(),
        fails=fails,
        needs_evidence=open_,
        cost=cost,
        weeks_low=Decimal(weeks[0]),
        weeks_high=Decimal(weeks[1]),
    )


def _said(recommendation) -> str:
    return " ".join(line.render() for line in recommendation.lines)


def test_overlapping_cost_ranges_make_no_clear_difference():
    result = recommend(
        [
            _column("fenced", low=30_000_000, high=45_000_000),
            _column("hybrid", low=40_000_000, high=55_000_000),
        ]
    )
    assert "No clear difference in cost" in _said(result)
    assert "costs least" not in _said(result)


def test_a_range_wholly_below_the_others_is_the_cheapest():
    result = recommend(
        [
            _column("fenced", low=30_000_000, high=35_000_000),
            _column("hybrid", low=40_000_000, high=55_000_000),
        ]
    )
    assert "Fenced costs least" in _said(result)
    assert result.recommended == "fenced"


def test_a_concept_with_a_fail_is_never_recommended_however_cheap():
    result = recommend(
        [
            _column("collaborative", fails=1, low=1, high=2, weeks=(1, 2)),
            _column("fenced", low=30_000_000, high=35_000_000),
        ]
    )
    assert result.recommended == "fenced"
    assert result.excluded == ("collaborative",)
    assert "Collaborative is not recommended: 1 check(s) fail." in _said(result)


def test_no_concept_without_a_fail_means_no_recommendation():
    result = recommend([_column("a", fails=2), _column("b", fails=1)])
    assert result.recommended is None and result.ranked == ()
    assert "none can be recommended" in _said(result)


def test_cost_not_priced_in_one_currency_is_not_compared():
    result = recommend(
        [_column("fenced", low=1, high=2), _column("hybrid")]  # hybrid unpriced
    )
    assert "Cost cannot be compared yet" in _said(result)


def test_time_to_the_poc_overlapping_is_no_clear_difference():
    result = recommend(
        [
            _column("a", low=1, high=2, weeks=(4, 8)),
            _column("b", low=1, high=2, weeks=(6, 10)),
        ]
    )
    assert "No clear difference in time to the PoC" in _said(result)


def test_no_concept_designed_says_nothing():
    result = recommend([])
    assert result.recommended is None and result.lines == ()


def _krw(low, high) -> Money:
    return Money(currency="KRW", low=Decimal(low), high=Decimal(high))


def test_the_work_outside_the_lines_is_compared_as_the_parts_are():
    # Fenced: lines KRW 1,000,000-2,000,000 and work 5,000,000-6,000,000
    # (6,000,000-8,000,000 in all); collaborative: lines 3,000,000-4,000,000
    # and work 500,000-600,000 (3,500,000-4,600,000 in all). On parts alone
    # the fenced cell would be cheapest; with the work it is the other.
    fenced = _column("fenced", low=1_000_000, high=2_000_000).model_copy(
        update={"work": _krw(5_000_000, 6_000_000)}
    )
    cobot = _column("cobot", low=3_000_000, high=4_000_000).model_copy(
        update={"work": _krw(500_000, 600_000)}
    )
    result = recommend([fenced, cobot])
    assert "Cobot costs least" in _said(result)
    parts_only = recommend(
        [
            _column("fenced", low=1_000_000, high=2_000_000),
            _column("cobot", low=3_000_000, high=4_000_000),
        ]
    )
    assert "Fenced costs least" in _said(parts_only)


def test_work_without_a_cost_stops_the_cost_comparison_and_says_so():
    fenced = _column("fenced", low=1_000_000, high=2_000_000).model_copy(
        update={"work": _krw(5_000_000, 6_000_000)}
    )
    cobot = _column("cobot", low=3_000_000, high=4_000_000).model_copy(
        update={"work": _krw(500_000, 600_000), "work_unknown": 1}
    )
    said = _said(recommend([fenced, cobot]))
    assert "costs least" not in said
    assert (
        "Cost cannot be compared yet: the work of these concepts' plans is not "
        "all costed in the currency of their lines."
    ) in said
