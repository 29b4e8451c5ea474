"""A finding's compared figures as the proposal writes them: "required
1,800 mm", the figure's name in the reader's language, the number without
trailing zeros and grouped by thousands."""

from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext as _

from compliance.rules.figures import FIGURE_NAMES

# Units of the figures findings compare, by the suffix of their key.
UNIT_SUFFIXES = (("_mm_s", "mm/s"), ("_mm", "mm"), ("_ms", "ms"), ("_kg", "kg"))


def number_line(key: str, value) -> str:
    """A compared figure as a short line: "required 1,800 mm"."""
    for suffix, unit in UNIT_SUFFIXES:
        if key.endswith(suffix):
            return f"{_figure_name(key.removesuffix(suffix))} {num(value)} {unit}"
    return f"{_figure_name(key)} {num(value)}"


def _figure_name(name: str) -> str:
    """A figure's name in the reader's language (its key's words if unknown)."""
    known = FIGURE_NAMES.get(name)
    return _(known) if known else name.replace("_", " ")


def num(value) -> str:
    """A figure without trailing zeros, grouped by thousands: 1,800 or 20.5."""
    if isinstance(value, float):
        value = Decimal(repr(value))
    value = Decimal(value).normalize()
    return f"{value:,f}" if value == value.to_integral() else f"{value:,}"
