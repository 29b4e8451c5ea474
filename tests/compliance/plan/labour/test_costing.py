"""Work costed as effort × rate (issue 29): both ends, the rate valid on the
day, the organisation's own rate before the public ones, a missing rate
named and never assumed, fees added, conversion only at a recorded rate.

The organisation's rates here are made up for the tests; the public ones
are those of ``../shared/reference/costs.json`` (public_figures_2026_12)."""

from __future__ import annotations

import random
from datetime import date
from decimal import Decimal

from compliance.plan.labour.costing import (
    PUBLIC_RATES,
    Effort,
    Fee,
    Missing,
    Rate,
    effort_part,
    rates_for,
    work_cost,
)

DAY = date(2026, 12, 6)


def _own(role="safety_engineering", low=95000, high=120000, **more):
    return Rate(
        role=role,
        unit=more.pop("unit", "hour"),
        low=Decimal(low),
        high=Decimal(high),
        currency=more.pop("currency", "KRW"),
        source=more.pop("source", "Test rate card"),
        valid_from=more.pop("valid_from", date(2026, 1, 1)),
        **more,
    )


def _same(amount, code):
    return amount if code == "KRW" else None


def test_effort_times_rate_takes_both_ends():
    # 16-24 h × KRW 95,000-120,000 per hour = 1,520,000-2,880,000
    cost = work_cost(
        [Effort("safety_engineering", "hour", Decimal(16), Decimal(24))],
        [_own()],
        DAY,
        "KRW",
        _same,
    )
    assert (cost.low, cost.high) == (Decimal(1_520_000), Decimal(2_880_000))
    text = [line.render() for line in cost.lines]
    assert text[0] == (
        "16–24 hours of Safety engineering × KRW 95,000–120,000 per hour"
    )
    assert text[1] == ("Safety engineering rate valid from 2026-01-01: Test rate card")


def test_an_effort_per_safety_function_counts_the_cells_functions():
    # 2-4 h per function × 5 functions × KRW 95,000-120,000 = 950,000-2,400,000
    effort = Effort(
        "safety_engineering", "hour", Decimal(2), Decimal(4), per="safety_function"
    )
    cost = work_cost([effort], [_own()], DAY, "KRW", _same, functions=5)
    assert (cost.low, cost.high) == (Decimal(950_000), Decimal(2_400_000))
    assert "× 5 safety functions" in cost.lines[0].render()
    # A cell without functions has no cost for it, and says why.
    none = work_cost([effort], [_own()], DAY, "KRW", _same, functions=0)
    assert not none.known
    assert "no safety function yet" in none.lines[-1].render()


def test_the_latest_own_rate_valid_on_the_day_is_used():
    old = _own(low=80000, high=80000, valid_from=date(2026, 1, 1))
    new = _own(low=90000, high=90000, valid_from=date(2026, 7, 1))
    ended = _own(
        low=70000,
        high=70000,
        valid_from=date(2025, 1, 1),
        valid_until=date(2025, 12, 31),
    )
    rates = [old, new, ended]
    assert rates_for(rates, "safety_engineering", "hour", date(2026, 6, 30)) == [old]
    assert rates_for(rates, "safety_engineering", "hour", date(2026, 7, 1)) == [new]
    assert rates_for(rates, "safety_engineering", "hour", date(2025, 6, 1)) == [ended]
    # Before any rate starts, none: nothing is assumed.
    assert rates_for(rates, "safety_engineering", "hour", date(2024, 1, 1)) == []


def test_public_rates_are_used_only_where_the_organisation_has_none():
    effort = Effort("programming", "hour", Decimal(10), Decimal(20))
    # Public: EUR 50-100 (undated) and EUR 70-120 (2023), weinsolutions.de:
    # the cost spans them, 10 × 50 = 500 to 20 × 120 = 2,400.
    public = work_cost([effort], PUBLIC_RATES, DAY, "EUR", lambda a, c: a)
    assert (public.low, public.high) == (Decimal(500), Decimal(2400))
    rendered = " ".join(line.render() for line in public.lines)
    assert "public figure, article estimate" in rendered
    assert "weinsolutions.de" in rendered
    own = _own(role="programming", low=90, high=90, currency="EUR")
    mine = work_cost([effort], [own, *PUBLIC_RATES], DAY, "EUR", lambda a, c: a)
    assert (mine.low, mine.high) == (Decimal(900), Decimal(1800))
    assert "public figure" not in " ".join(line.render() for line in mine.lines)


def test_a_role_without_a_rate_leaves_the_activity_without_a_cost():
    parts = [
        Effort("commissioning", "hour", Decimal(8), Decimal(16)),
        Fee(Decimal(1000), Decimal(2000), "KRW", "Test offer"),
    ]
    cost = work_cost(parts, [_own()], DAY, "KRW", _same)
    # A sum of the fee alone would look complete: no cost, the reason named.
    assert not cost.known
    assert cost.low is None and cost.high is None
    assert cost.lines[-1].render() == (
        "No Commissioning rate per hour valid on 2026-12-06: record the "
        "organisation's rate to cost this work."
    )


def test_an_effort_in_days_is_never_costed_at_an_hourly_rate():
    # No hours per day are assumed: a day's effort needs a day rate.
    result = effort_part(
        Effort("safety_engineering", "day", Decimal(2), Decimal(3)), [_own()], DAY
    )
    assert isinstance(result, Missing)
    day_rate = _own(unit="day", low=760000, high=960000)
    cost = work_cost(
        [Effort("safety_engineering", "day", Decimal(2), Decimal(3))],
        [_own(), day_rate],
        DAY,
        "KRW",
        _same,
    )
    assert (cost.low, cost.high) == (Decimal(1_520_000), Decimal(2_880_000))


def test_fees_and_efforts_add_up_and_convert_at_recorded_rates_only():
    rates = {"KRW": Decimal(1350), "EUR": Decimal("0.9"), "USD": Decimal(1)}

    def convert(amount, code):
        if code not in rates:
            return None
        return amount * rates["KRW"] / rates[code]

    parts = [
        Effort("safety_engineering", "hour", Decimal(16), Decimal(24)),
        Fee(Decimal(1000), Decimal(2000), "EUR", "Test notified body"),
    ]
    cost = work_cost(parts, [_own()], DAY, "KRW", convert)
    # EUR 1,000-2,000 at 1,350 KRW and 0.9 EUR per USD = KRW 1,500,000-3,000,000
    assert (cost.low, cost.high) == (Decimal(3_020_000), Decimal(5_880_000))
    missing = work_cost(parts, [_own()], DAY, "KRW", _same)
    assert not missing.known
    assert "No exchange rate from EUR to KRW" in missing.lines[-1].render()


def test_random_efforts_sum_as_decimal_exactly():
    # Money stays Decimal: 200 random efforts and fees, summed by the core,
    # equal the sum worked out here, end by end.
    rng = random.Random(29)
    rate = _own(low="95000.50", high="120000.25")
    parts, low, high = [], Decimal(0), Decimal(0)
    for _ in range(200):
        if rng.random() < 0.5:
            a = Decimal(rng.randint(0, 400)) / 10
            b = a + Decimal(rng.randint(0, 400)) / 10
            parts.append(Effort("safety_engineering", "hour", a, b))
            low += a * Decimal("95000.50")
            high += b * Decimal("120000.25")
        else:
            a = Decimal(rng.randint(0, 10**8)) / 100
            b = a + Decimal(rng.randint(0, 10**8)) / 100
            parts.append(Fee(a, b, "KRW", "Test"))
            low, high = low + a, high + b
    cost = work_cost(parts, [rate], DAY, "KRW", _same)
    assert (cost.low, cost.high) == (low, high)
    assert isinstance(cost.low, Decimal) and isinstance(cost.high, Decimal)
