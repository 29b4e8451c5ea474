"""The look shared by the builder and its charts: colours, sizes and how
figures are written. Colours are immutable; paragraph styles are made fresh
for each PDF by the builder, never shared between calls."""

from __future__ import annotations

from datetime import date
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm

from compliance.documents.fonts import BOLD, REGULAR

__all__ = ["BOLD", "REGULAR"]

PAGE_WIDTH, PAGE_HEIGHT = A4
PAGE_MARGIN_X = 22 * mm
PAGE_MARGIN_TOP = 26 * mm
PAGE_MARGIN_BOTTOM = 22 * mm
CONTENT_WIDTH = PAGE_WIDTH - 2 * PAGE_MARGIN_X

# Restrained: ink and greys, one navy accent, brick for what needs attention.
INK = colors.HexColor("#1f2933")
MUTED = colors.HexColor("#616e7c")
RULE = colors.HexColor("#cbd2d9")
FAINT = colors.HexColor("#e4e7eb")
PANEL = colors.HexColor("#f3f5f7")
HEADER_FILL = colors.HexColor("#e9edf2")
ACCENT = colors.HexColor("#1f3a5f")
ACCENT_LIGHT = colors.HexColor("#c9d6e6")
CRITICAL = colors.HexColor("#b4432f")
CRITICAL_LIGHT = colors.HexColor("#ecc2b9")
SLATE = colors.HexColor("#52606d")
SLATE_LIGHT = colors.HexColor("#c3cad3")
HAZARD_FILL = colors.HexColor("#fbece8")
DEVICE = colors.HexColor("#2c6e9b")
WHITE = colors.white

STATUS_COLOURS = {
    "pass": colors.HexColor("#2f7d4f"),
    "fail": CRITICAL,
    "warning": colors.HexColor("#a8661a"),
    "needs_evidence": colors.HexColor("#4a6fa5"),
}


MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def long_date(day: date, language: str) -> str:
    """A date as a reader of ``language`` writes it: 2026년 12월 1일, 1 December 2026."""
    if language == "ko":
        return f"{day.year}년 {day.month}월 {day.day}일"
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def number(value: Decimal | int | float) -> str:
    """A figure with grouped thousands and no trailing zeros: 38,000,000; 9.75."""
    if isinstance(value, float):
        value = Decimal(repr(value))
    if isinstance(value, int):
        return f"{value:,}"
    text = format(value.quantize(Decimal("0.01")).normalize(), ",f")
    return "0" if text in {"-0", "0"} else text


def number_range(low: Decimal | int, high: Decimal | int) -> str:
    if low == high:
        return number(low)
    return f"{number(low)}–{number(high)}"


def money_range(currency: str, low: Decimal, high: Decimal) -> str:
    return f"{currency} {number_range(low, high)}"


HALF_WEEK = Decimal("0.5")


def weeks_range(low: Decimal | int, high: Decimal | int) -> str:
    """Weeks to the half-week, rounded outwards so the range still holds the
    plan's (7.75–15.25 -> 7.5–15.5)."""
    low = (Decimal(low) / HALF_WEEK).to_integral_value(ROUND_FLOOR) * HALF_WEEK
    high = (Decimal(high) / HALF_WEEK).to_integral_value(ROUND_CEILING) * HALF_WEEK
    return number_range(low, high)
