"""One cell of a quote's file read as text, a date or a figure. Pure Python,
no Django.

Figures are Decimal from the cell on: a number cell's float is read through
its shortest repr (the figure typed; ``Decimal(repr(x))``, never arithmetic on
the float), text as written, with thousands grouped by commas or spaces; a
decimal comma is never guessed. A formula is its text, never a figure.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from compliance.calculators.base import format_number, gettext_noop

NOT_A_DATE = gettext_noop("%(value)s is not a date: write it as YYYY-MM-DD.")
NOT_A_NUMBER = gettext_noop(
    "%(value)s is not a number: write the figure alone, with a point for "
    "decimals (e.g. 1200.50)."
)
A_FORMULA = gettext_noop(
    "%(value)s is a formula, not a number: write the figure itself."
)
AMBIGUOUS_NUMBER = gettext_noop(
    "%(value)s can be read more than one way: write it without thousands "
    "separators and with a point for decimals (e.g. 1200.50)."
)
A_DATE_NOT_A_NUMBER = gettext_noop(
    "%(value)s is a date, not a number: the spreadsheet may have turned a range "
    "into a date; format the column as text and write it again (e.g. 4-6)."
)
TOO_MANY_PLACES = gettext_noop(
    "%(value)s has too many decimal places: at most %(places)s."
)
NEGATIVE = gettext_noop("%(value)s is below zero.")
TOO_LARGE = gettext_noop("%(value)s is too large: below %(limit)s.")
RANGE_BACKWARDS = gettext_noop("The range %(low)s–%(high)s ends below its start.")


class Cell:
    """A cell's value as the file holds it, and whether it is a formula."""

    __slots__ = ("formula", "value")

    def __init__(self, value: object, formula: bool = False) -> None:
        self.value = value
        self.formula = formula


BLANK = Cell(None)


def cell_text(cell: Cell) -> str:
    """A cell as text: a formula as written, a whole number without ".0"."""
    value = cell.value
    if cell.formula:
        return formula_text(value)
    if value is None:
        return ""
    if isinstance(value, str):
        # Control characters pasted in are invisible, and an XLSX cannot hold
        # them: dropped, so that every text read can be written back.
        return ILLEGAL_CHARACTERS_RE.sub("", value).strip()
    if isinstance(value, bool):
        return str(value).upper()
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    if isinstance(value, datetime):
        if value.time() == time(0):
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, date | time):
        return value.isoformat()
    return str(value).strip()


def formula_text(value: object) -> str:
    # An array formula comes as an object holding its text.
    text = getattr(value, "text", value)
    return str(text).strip()


def is_blank(cell: Cell) -> bool:
    """Empty or only spaces (a formula is never blank)."""
    return not cell.formula and (
        cell.value is None or (isinstance(cell.value, str) and not cell.value.strip())
    )


_RANGE = re.compile(r"(-?[^-–—~]+?)\s*[-–—~]\s*(-?[^-–—~]+)")
_PLAIN = re.compile(r"\d+(?:\.\d*)?|\.\d+")
_COMMA_GROUPS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_SPACE_GROUPS = re.compile(r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:\.\d+)?")
_SEPARATED = re.compile(r"[\d.,' \u00a0\u202f]+")
_WEEKS = re.compile(r"\s*(?:weeks?|wks?|주)\.?$", re.IGNORECASE)
_DATE = re.compile(
    r"(\d{4})\s*[-./년]\s*(\d{1,2})\s*[-./월]\s*(\d{1,2})\s*[.일]?", re.IGNORECASE
)


class CellProblem(Exception):
    """What is wrong with a cell: an English message (``gettext_noop``) and
    its values."""

    def __init__(self, text: str, /, **values: str | int) -> None:
        super().__init__(text)
        self.text, self.values = text, values


def read_date(cell: Cell) -> date:
    """A date cell, or a date written year first (2026-11-02, 2026.11.02,
    2026. 11. 2., 2026년 11월 2일); raises ``CellProblem``. Day-month orders
    are not guessed."""
    value = cell.value
    if not cell.formula:
        if isinstance(value, datetime):
            return value.date()
        if isinstance(value, date):
            return value
        if isinstance(value, str) and (found := _DATE.fullmatch(value.strip())):
            try:
                return date(*(int(part) for part in found.groups()))
            except ValueError:
                pass
    raise CellProblem(NOT_A_DATE, value=cell_text(cell))


def read_figures(
    cell: Cell,
    *,
    places: int,
    ceiling: Decimal,
    ranged: bool = False,
    comma_groups: bool = True,
    weeks: bool = False,
) -> tuple[Decimal, Decimal]:
    """A cell's figure as (low, high), low = high for one figure, quantized
    to ``places``; with ``ranged``, "1200-1500" (or –, —, ~) is a range; with
    ``weeks``, a trailing "weeks" or "주" is allowed. Not below zero, below
    ``ceiling``; raises ``CellProblem``. ``comma_groups``: a comma may group
    thousands (not where the comma is the decimal point)."""
    value = cell.value
    shown = cell_text(cell)
    if cell.formula:
        raise CellProblem(A_FORMULA, value=shown)
    if isinstance(value, datetime | date | time | timedelta):
        raise CellProblem(A_DATE_NOT_A_NUMBER, value=shown)
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise CellProblem(NOT_A_NUMBER, value=shown)
    if isinstance(value, int):
        figures = [Decimal(value)]
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise CellProblem(NOT_A_NUMBER, value=shown)
        # The shortest repr is the figure typed (a float never enters the
        # arithmetic).
        figures = [Decimal(repr(value))]
    else:
        text = _WEEKS.sub("", shown) if weeks else shown
        found = _RANGE.fullmatch(text) if ranged else None
        parts = found.groups() if found else (text,)
        figures = [_figure(part, shown, comma_groups) for part in parts]
    for figure in figures:
        if figure < 0:
            raise CellProblem(NEGATIVE, value=shown)
        exponent = figure.as_tuple().exponent
        if isinstance(exponent, int) and -exponent > places:
            raise CellProblem(TOO_MANY_PLACES, value=shown, places=places)
        if figure >= ceiling:
            raise CellProblem(TOO_LARGE, value=shown, limit=f"{ceiling:,}")
    low, high = abs(figures[0]), abs(figures[-1])  # no "-0"
    if high < low:
        raise CellProblem(
            RANGE_BACKWARDS, low=format_number(low), high=format_number(high)
        )
    step = Decimal(1).scaleb(-places)
    return low.quantize(step), high.quantize(step)


def _figure(part: str, shown: str, comma_groups: bool) -> Decimal:
    """One figure written as text: thousands grouped by commas or spaces are
    read; a decimal comma is never guessed."""
    part = part.strip()
    sign = "-" if part.startswith("-") else ""
    body = part.removeprefix("-").strip()
    if _PLAIN.fullmatch(body):
        digits = body
    elif _COMMA_GROUPS.fullmatch(body):
        if not comma_groups:
            raise CellProblem(AMBIGUOUS_NUMBER, value=shown)
        digits = body.replace(",", "")
    elif _SPACE_GROUPS.fullmatch(body):
        digits = re.sub(r"\s", "", body)
    elif _SEPARATED.fullmatch(body):
        raise CellProblem(AMBIGUOUS_NUMBER, value=shown)
    else:
        raise CellProblem(NOT_A_NUMBER, value=shown)
    return Decimal(sign + digits)
