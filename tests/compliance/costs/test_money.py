"""Money: Decimal arithmetic, currency conversion with the caller's rates,
totals as ranges, rounding for display, and the user's edits.

Exchange rates here are made up for the tests (units per 1 USD); the app has
no default rates.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from pydantic import ValidationError

from compliance.costs.catalogue import CATALOGUE_BY_KEY
from compliance.costs.derivation import derive_line_items
from compliance.costs.line_items import (
    Override,
    apply_overrides,
    catalogue_item,
    custom_item,
)
from compliance.costs.money import convert, round_range, totals
from tests.compliance.rules.cells import cell, segment

RATES = {"KRW": Decimal("1350"), "EUR": Decimal("0.92")}


def test_convert_usd_to_krw():
    assert convert(Decimal("100"), "USD", "KRW", RATES) == Decimal("135000")


def test_convert_between_two_non_usd_currencies_goes_through_usd():
    result = convert(Decimal("3000"), "EUR", "KRW", RATES)
    assert result == Decimal("3000") * Decimal("1350") / Decimal("0.92")
    assert isinstance(result, Decimal)


def test_convert_to_the_same_currency_needs_no_rate():
    assert convert(Decimal("12.34"), "EUR", "EUR", {}) == Decimal("12.34")


def test_unknown_currency_is_refused():
    with pytest.raises(ValueError, match="unknown currency 'GBP'"):
        convert(Decimal(1), "GBP", "USD", RATES)


def test_missing_rate_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match=r"no exchange rate for EUR.*per 1 USD"):
        convert(Decimal(1), "EUR", "USD", {"KRW": Decimal(1350)})


@pytest.mark.parametrize(
    "rates",
    [{"EUR": 0.92}, {"EUR": Decimal(0)}, {"EUR": Decimal(-1)}, {"USD": Decimal(2)}],
)
def test_bad_rates_are_refused(rates):
    with pytest.raises(ValueError):
        convert(Decimal(1), "EUR", "USD", {"EUR": Decimal("0.92")} | rates)


def test_float_amount_is_refused():
    with pytest.raises(ValueError, match="Decimal"):
        convert(1.5, "USD", "USD", {})


def test_totals_are_a_range_with_unknown_count():
    items = (
        custom_item(
            key="a",
            description="Fence",
            quantity=Decimal("15.0"),
            unit="m",
            price_low=Decimal(60),
            price_high=Decimal(120),
            currency="USD",
        ),
        catalogue_item(
            CATALOGUE_BY_KEY["risk_assessment"], key="ra", quantity=Decimal(1)
        ),
        custom_item(key="b", description="Scanner", quantity=1, unit="piece"),
        custom_item(key="c", description="Dropped", quantity=0, unit="piece"),
    )
    result = totals(items, "USD", RATES)
    eur_low = Decimal(3000) / Decimal("0.92")
    eur_high = Decimal(5000) / Decimal("0.92")
    assert result.low == Decimal(900) + eur_low
    assert result.high == Decimal(1800) + eur_high
    assert result.unknown_count == 1
    assert result.currency == "USD"
    assert [line.total_low for line in result.lines][2:] == [None, None]
    assert result.rates == {"EUR": Decimal("0.92")}
    # 4,160.87-7,234.78 shown outwards to two significant figures.
    assert (result.rounded_low, result.rounded_high) == (Decimal(4100), Decimal(7300))


def test_totals_need_the_rates_of_the_currencies_used():
    items = derive_line_items(cell(segments=(segment(),)))
    with pytest.raises(ValueError, match="no exchange rate for EUR"):
        totals(items, "USD", {"KRW": Decimal(1350)})


def test_totals_in_an_unknown_currency_are_refused():
    with pytest.raises(ValueError, match="unknown currency"):
        totals((), "JPY", RATES)


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        ("3260.87", "5434.78", ("3200", "5500")),
        ("0", "960", ("0", "960")),
        ("900", "1800", ("900", "1800")),
        ("0.0123", "0.0456", ("0.012", "0.046")),
        ("123456", "987654", ("120000", "990000")),
    ],
)
def test_round_range_rounds_outwards(low, high, expected):
    result = round_range(Decimal(low), Decimal(high))
    assert result == tuple(Decimal(e) for e in expected)
    assert all("E" not in str(value) for value in result)


def test_round_range_refuses_an_inverted_range():
    with pytest.raises(ValueError):
        round_range(Decimal(2), Decimal(1))


def test_override_quantity_recomputes_the_totals():
    items = derive_line_items(cell(segments=(segment(length_mm=10000),)))
    edited = apply_overrides(items, {"fence:1800": Override(quantity=Decimal(12))})
    fence = next(i for i in edited if i.key == "fence:1800")
    assert (fence.total_low, fence.total_high) == (Decimal(720), Decimal(1440))
    assert fence.basis == "planning_range"


def test_override_price_of_an_unknown_line_makes_it_the_users():
    items = derive_line_items(cell())
    edited = apply_overrides(
        items,
        {
            "safety_controller": Override(
                price_low=Decimal(2000),
                price_high=Decimal(2500),
                currency="USD",
                source="Quote 2026-05",
            ),
            "no_longer_derived": Override(quantity=Decimal(1)),
        },
    )
    controller = next(i for i in edited if i.key == "safety_controller")
    assert controller.basis == "user"
    assert controller.source == "Quote 2026-05"
    assert controller.total_high == Decimal(2500)
    assert controller.price_note == ""
    assert len(edited) == len(items)


def test_override_with_one_end_of_a_price_on_an_unknown_line_is_refused():
    items = derive_line_items(cell())
    with pytest.raises(ValueError):
        apply_overrides(
            items,
            {"emergency_stop": Override(price_low=Decimal(1), currency="USD")},
        )


def test_override_currency_change_needs_both_prices():
    items = derive_line_items(cell())
    with pytest.raises(ValueError, match="new currency"):
        apply_overrides(
            items,
            {"risk_assessment": Override(price_low=Decimal(1), currency="KRW")},
        )


def test_negative_override_is_refused():
    with pytest.raises(ValidationError):
        Override(quantity=Decimal(-1))


@pytest.mark.parametrize(
    "fields",
    [
        {"price_low": Decimal(-5), "price_high": Decimal(5), "currency": "USD"},
        {"quantity": Decimal(-1)},
        {"price_low": 1.5, "price_high": Decimal(2), "currency": "USD"},
    ],
)
def test_custom_item_rejects_negative_or_float_figures(fields):
    base = {"key": "x", "description": "Thing", "quantity": 1, "unit": "piece"}
    with pytest.raises(ValidationError):
        custom_item(**(base | fields))


def test_custom_item_without_price_is_to_be_quoted():
    item = custom_item(key="x", description="Thing", quantity=2, unit="piece")
    assert item.basis == "unknown"
    assert item.total_low is None
    assert item.price_note == "price to be quoted"
