"""The device library as CSV: written for a spreadsheet, read back with an
error for each row and column that cannot be read. Pure Python, no Django.

One row per entry under a header of column names (``COLUMNS``). ``key``,
``kind``, ``maker`` and ``model`` are required; any other column may be left
out, and a row then leaves that field of an existing entry as it is. Rows are
numbered as a spreadsheet numbers them: the header is row 1. Reading checks
what a cell can hold (a number, one of the choices, an ISO date); the bounds
of each figure are the model's, checked where the rows are saved.

Text that a spreadsheet would run as a formula (starting with ``=``, ``+``,
``-``, ``@``), or that starts with an apostrophe itself, is written with a
leading apostrophe, which reading removes again, so an export read back
changes nothing.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from compliance.calculators.base import Line, gettext_noop
from compliance.safety_functions.library.catalogue import (
    CATEGORIES,
    CURRENCIES,
    IEC61496_TYPES,
    LIBRARY_KINDS,
    PERFORMANCE_LEVELS,
)

MAX_BYTES = 1_000_000
MAX_ROWS = 2_000

TEXT, CHOICE, INTEGER, FLOAT, DECIMAL, DATE = (
    "text",
    "choice",
    "integer",
    "float",
    "decimal",
    "date",
)

# Column name -> how its cells are read. In this order in an export.
COLUMNS: dict[str, str] = {
    "key": TEXT,
    "kind": CHOICE,
    "maker": TEXT,
    "model": TEXT,
    "part_number": TEXT,
    "function": TEXT,
    "iec61496_type": CHOICE,
    "pl": CHOICE,
    "category": CHOICE,
    "sil": CHOICE,
    "pfhd_per_hour": FLOAT,
    "b10d_cycles": FLOAT,
    "mttfd_years": FLOAT,
    "dcavg_percent": FLOAT,
    "response_time_ms": DECIMAL,
    "detection_capability_mm": INTEGER,
    "range_m": DECIMAL,
    "protective_height_mm": INTEGER,
    "certificates": TEXT,
    "kcs_certificate_no": TEXT,
    "price_low": DECIMAL,
    "price_high": DECIMAL,
    "currency": CHOICE,
    "price_source": TEXT,
    "price_date": DATE,
    "lead_time_weeks_low": DECIMAL,
    "lead_time_weeks_high": DECIMAL,
    "data_source": TEXT,
    "notes": TEXT,
}
REQUIRED = ("key", "kind", "maker", "model")
CHOICES: dict[str, tuple[Any, ...]] = {
    "kind": LIBRARY_KINDS,
    "iec61496_type": IEC61496_TYPES,
    "pl": PERFORMANCE_LEVELS,
    "category": CATEGORIES,
    "sil": (1, 2, 3),
    "currency": CURRENCIES,
}
# An empty cell of a text or choice column is "" in the model, of any other None.
BLANK_AS_TEXT = frozenset(
    name
    for name, kind in COLUMNS.items()
    if kind == TEXT or (kind == CHOICE and isinstance(CHOICES[name][0], str))
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class RowError:
    """What cannot be read in one cell (or row) of the file. ``row`` counts
    as a spreadsheet does, the header being row 1; ``column`` is "" when the
    error is about the whole row."""

    row: int
    column: str
    message: Line


@dataclass(frozen=True)
class LibraryRow:
    """One row read: its number and the values of the columns the file has."""

    row: int
    values: dict[str, Any] = field(default_factory=dict)


class LibraryFileError(ValueError):
    """The file as a whole cannot be read: too big, not UTF-8, no header."""

    def __init__(self, message: Line) -> None:
        super().__init__(message.render())
        self.message = message


@dataclass(frozen=True)
class LibraryCsv:
    rows: tuple[LibraryRow, ...]
    errors: tuple[RowError, ...]


def read_library_csv(data: bytes) -> LibraryCsv:
    """The rows of a library CSV, and every error found in them. Raises
    ``LibraryFileError`` when the file cannot be read at all."""
    if len(data) > MAX_BYTES:
        raise LibraryFileError(
            Line(
                text=gettext_noop(
                    "The file is larger than %(limit)s bytes: split it into "
                    "smaller files."
                ),
                values={"limit": f"{MAX_BYTES:,}"},
            )
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LibraryFileError(
            Line(text=gettext_noop("The file is not UTF-8 text: save it as CSV UTF-8."))
        ) from exc
    try:
        records = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        raise LibraryFileError(
            Line(
                text=gettext_noop("The file is not readable CSV: %(error)s"),
                values={"error": str(exc)},
            )
        ) from exc
    if not records or not any(cell.strip() for cell in records[0]):
        raise LibraryFileError(
            Line(text=gettext_noop("The file has no header row of column names."))
        )
    if len(records) - 1 > MAX_ROWS:
        raise LibraryFileError(
            Line(
                text=gettext_noop(
                    "The file has more than %(limit)s rows: split it into "
                    "smaller files."
                ),
                values={"limit": f"{MAX_ROWS:,}"},
            )
        )
    header = [cell.strip().lower() for cell in records[0]]
    errors = _header_errors(header)
    if errors:
        return LibraryCsv(rows=(), errors=tuple(errors))
    rows: list[LibraryRow] = []
    seen: dict[str, int] = {}
    for index, record in enumerate(records[1:], start=2):
        if not any(cell.strip() for cell in record):
            continue  # an empty line
        values, row_errors = _read_row(index, header, record)
        errors += row_errors
        key = values.get("key")
        if key:
            if key in seen:
                errors.append(
                    RowError(
                        index,
                        "key",
                        Line(
                            text=gettext_noop(
                                "The key %(key)s is already used in row %(first)s: "
                                "each entry needs its own."
                            ),
                            values={"key": key, "first": seen[key]},
                        ),
                    )
                )
            seen.setdefault(key, index)
        rows.append(LibraryRow(row=index, values=values))
    return LibraryCsv(rows=tuple(rows), errors=tuple(errors))


def _header_errors(header: list[str]) -> list[RowError]:
    errors = []
    for name in header:
        if name not in COLUMNS:
            errors.append(
                RowError(
                    1,
                    name,
                    Line(
                        text=gettext_noop(
                            "Unknown column %(column)s: the columns are those of "
                            "an export."
                        ),
                        values={"column": name or "(empty)"},
                    ),
                )
            )
    for name in sorted({n for n in header if header.count(n) > 1 and n in COLUMNS}):
        errors.append(
            RowError(
                1,
                name,
                Line(
                    text=gettext_noop("The column %(column)s is given twice."),
                    values={"column": name},
                ),
            )
        )
    for name in REQUIRED:
        if name not in header:
            errors.append(
                RowError(
                    1,
                    name,
                    Line(
                        text=gettext_noop("The column %(column)s is missing."),
                        values={"column": name},
                    ),
                )
            )
    return errors


def _read_row(
    index: int, header: list[str], record: list[str]
) -> tuple[dict[str, Any], list[RowError]]:
    values: dict[str, Any] = {}
    errors: list[RowError] = []
    if len(record) > len(header):
        errors.append(
            RowError(
                index,
                "",
                Line(
                    text=gettext_noop(
                        "The row has %(count)s cells, more than the %(columns)s "
                        "columns of the header."
                    ),
                    values={"count": len(record), "columns": len(header)},
                ),
            )
        )
    for position, name in enumerate(header):
        raw = record[position].strip() if position < len(record) else ""
        try:
            values[name] = read_cell(name, raw)
        except CellError as exc:
            errors.append(RowError(index, name, exc.message))
    for name in REQUIRED:
        if name in values and values[name] in ("", None):
            errors.append(
                RowError(
                    index,
                    name,
                    Line(
                        text=gettext_noop("Give the %(column)s."),
                        values={"column": name},
                    ),
                )
            )
    return values, errors


class CellError(ValueError):
    def __init__(self, message: Line) -> None:
        super().__init__(message.render())
        self.message = message


NOT_A_NUMBER = gettext_noop(
    "%(value)s is not a number: use a point for decimals and no thousands "
    "separators (e.g. 1.5E-08)."
)


def read_cell(column: str, raw: str) -> Any:
    """The value of one cell of ``column``; raises ``CellError``."""
    kind = COLUMNS[column]
    if raw == "":
        return "" if column in BLANK_AS_TEXT else None
    if kind == TEXT:
        if raw.startswith("'") and raw[1:].startswith((*FORMULA_STARTS, "'")):
            return raw[1:]
        return raw
    if kind == CHOICE:
        return _choice(column, raw)
    if kind == DATE:
        try:
            return date.fromisoformat(raw)
        except ValueError as exc:
            raise CellError(
                Line(
                    text=gettext_noop(
                        "%(value)s is not a date: write it as YYYY-MM-DD."
                    ),
                    values={"value": raw},
                )
            ) from exc
    return _number(kind, raw)


def _choice(column: str, raw: str) -> Any:
    choices = CHOICES[column]
    text = raw
    if column == "pl" and text.lower().startswith("pl"):
        text = text[2:].strip()  # "PL d" as well as "d"
    if column == "iec61496_type" and text.lower().startswith("type"):
        text = text[4:].strip()  # "Type 4" as well as "4"
    if column == "pl":
        text = text.lower()
    elif column in ("category", "currency"):
        text = text.upper()
    if isinstance(choices[0], int):
        try:
            value: Any = int(text)
        except ValueError:
            value = None
    else:
        value = text
    if value not in choices:
        raise CellError(
            Line(
                text=gettext_noop("%(value)s is not one of %(choices)s."),
                values={"value": raw, "choices": ", ".join(str(c) for c in choices)},
            )
        )
    return value


def _number(kind: str, raw: str) -> Any:
    message = Line(text=NOT_A_NUMBER, values={"value": raw})
    if kind == INTEGER:
        try:
            return int(raw)
        except ValueError as exc:
            raise CellError(
                Line(
                    text=gettext_noop("%(value)s is not a whole number."),
                    values={"value": raw},
                )
            ) from exc
    if kind == FLOAT:
        try:
            value = float(raw)
        except ValueError as exc:
            raise CellError(message) from exc
        if not math.isfinite(value):
            raise CellError(message)
        return value
    try:
        number = Decimal(raw)
    except InvalidOperation as exc:
        raise CellError(message) from exc
    if not number.is_finite():
        raise CellError(message)
    return number


def write_library_csv(entries: Iterable[Mapping[str, Any]]) -> str:
    """The entries (each a mapping of the columns) as CSV text, with the
    header, for a spreadsheet."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for entry in entries:
        writer.writerow([write_cell(name, entry.get(name)) for name in COLUMNS])
    return out.getvalue()


def write_cell(column: str, value: Any) -> str:
    if value is None or value == "":
        return ""
    kind = COLUMNS[column]
    if kind == TEXT:
        text = str(value)
        return f"'{text}" if text.startswith((*FORMULA_STARTS, "'")) else text
    if kind == DATE:
        return value.isoformat()
    if kind == FLOAT:
        number = float(value)
        if number.is_integer() and abs(number) < 1e15:
            return str(int(number))
        return repr(number)
    if kind == DECIMAL:
        return format(Decimal(value).normalize(), "f")
    return str(value)
