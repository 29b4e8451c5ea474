"""Money of a cell's plan: currency conversion, totals and display ranges.

Money is ``Decimal``, never float. ``convert`` and ``totals`` take exchange
rates from the caller as units of each currency per 1 USD; there are no
default rates. Totals are ranges with a count of unpriced lines, and
``round_range`` rounds them outwards for display.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

from pydantic import BaseModel, ConfigDict, computed_field

from compliance.calculators.base import Line
from compliance.costs.catalogue import (
    CURRENCIES,
    Currency,
)
from compliance.costs.line_items import LineItem

# --- Money: conversion, totals, display ranges ------------------------------


def _decimal(value: object, what: str) -> Decimal:
    if isinstance(value, float | bool) or not isinstance(value, Decimal | int):
        raise ValueError(
            f"{what} must be a Decimal (or int), not {type(value).__name__}"
        )
    number = Decimal(value)
    if not number.is_finite():
        raise ValueError(f"{what} must be finite")
    return number


def _check_currency(code: str) -> None:
    if code not in CURRENCIES:
        raise ValueError(
            f"unknown currency {code!r}: use one of {', '.join(CURRENCIES)}"
        )


def _rate(code: str, rates: Mapping[str, Decimal]) -> Decimal:
    """Units of ``code`` per 1 USD, from the caller's rates (USD is 1)."""
    if code == "USD":
        if "USD" in rates and _decimal(rates["USD"], "rates['USD']") != 1:
            raise ValueError("rates['USD'] must be 1: rates are per 1 USD")
        return Decimal(1)
    if code not in rates:
        raise ValueError(
            f"no exchange rate for {code}: pass rates[{code!r}] as units of {code} "
            "per 1 USD"
        )
    rate = _decimal(rates[code], f"rates[{code!r}]")
    if rate <= 0:
        raise ValueError(f"rates[{code!r}] must be positive, not {rate}")
    return rate


def convert(
    amount: Decimal,
    from_currency: str,
    to_currency: str,
    rates: Mapping[str, Decimal],
) -> Decimal:
    """``amount`` in ``from_currency`` expressed in ``to_currency``, exactly as
    Decimal arithmetic allows (no rounding here).

    ``rates`` are the caller's: units of each currency per 1 USD, e.g.
    ``{"KRW": Decimal("1350"), "EUR": Decimal("0.92")}``; USD is 1 and may be
    left out. There are no default rates. Raises ValueError for an unknown
    currency, a missing or non-positive rate, or a float.
    """
    value = _decimal(amount, "amount")
    _check_currency(from_currency)
    _check_currency(to_currency)
    if from_currency == to_currency:
        return value
    return value * _rate(to_currency, rates) / _rate(from_currency, rates)


def round_range(
    low: Decimal, high: Decimal, significant: int = 2
) -> tuple[Decimal, Decimal]:
    """A range for display: ``low`` rounded down and ``high`` rounded up to
    ``significant`` figures, so the shown range still holds the exact one
    (3,260.87-5,434.78 -> 3,200-5,500). Keep the exact figures in the model."""
    if significant < 1:
        raise ValueError("significant must be at least 1")
    if low > high:
        raise ValueError(f"low {low} is above high {high}")
    return _round_sig(low, significant, ROUND_FLOOR), _round_sig(
        high, significant, ROUND_CEILING
    )


def _round_sig(value: Decimal, significant: int, rounding: str) -> Decimal:
    if value == 0:
        return Decimal(0)
    exponent = value.adjusted() - (significant - 1)
    quantum = Decimal(1).scaleb(exponent)
    rounded = (value / quantum).to_integral_value(rounding=rounding) * quantum
    return Decimal(int(rounded)) if exponent >= 0 else rounded.quantize(quantum)


class TotalLine(BaseModel):
    """One line's total in the totals' currency; None when it has no price."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    description: Line
    total_low: Decimal | None
    total_high: Decimal | None


class Totals(BaseModel):
    """A plan's cost as a range in one currency, never a single figure.

    ``low``/``high`` sum the priced lines exactly; ``unknown_count`` says how
    many lines (quantity above 0) have no price and are not in the sum.
    ``rates`` are the exchange rates used (units per 1 USD).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    low: Decimal
    high: Decimal
    unknown_count: int
    currency: Currency
    lines: tuple[TotalLine, ...]
    rates: dict[str, Decimal] = {}

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rounded_low(self) -> Decimal:
        """``low`` rounded down to two significant figures, for display."""
        return round_range(self.low, self.high)[0]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rounded_high(self) -> Decimal:
        """``high`` rounded up to two significant figures, for display."""
        return round_range(self.low, self.high)[1]


def totals(
    items: Iterable[LineItem], currency: str, rates: Mapping[str, Decimal]
) -> Totals:
    """The lines' totals converted to ``currency`` with the caller's ``rates``
    (units per 1 USD; see ``convert``). Only the rates of currencies that
    occur are needed. Lines with quantity 0 add nothing and are not counted
    as unknown."""
    _check_currency(currency)
    low = high = Decimal(0)
    unknown = 0
    used: dict[str, Decimal] = {}
    lines = []
    for item in items:
        line_low = line_high = None
        if item.total_low is not None and item.total_high is not None:
            assert item.currency is not None  # checked by LineItem
            line_low = convert(item.total_low, item.currency, currency, rates)
            line_high = convert(item.total_high, item.currency, currency, rates)
            low += line_low
            high += line_high
            if item.currency != currency:
                for code in {item.currency, currency} - {"USD"}:
                    used[code] = _rate(code, rates)
        elif item.quantity > 0:
            unknown += 1
        lines.append(
            TotalLine(
                key=item.key,
                description=item.description,
                total_low=line_low,
                total_high=line_high,
            )
        )
    return Totals(
        low=low,
        high=high,
        unknown_count=unknown,
        currency=currency,  # type: ignore[arg-type]  # checked above
        lines=tuple(lines),
        rates=used,
    )
