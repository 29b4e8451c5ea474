"""Reading waypoints from a CSV table. Pure, no Django.

The table's first row (blank lines and lines starting with ``#`` aside)
names its columns; each row after it is a waypoint the TCP moves to in a
straight line from the one before (kind "linear"). Columns are separated
by commas, or by semicolons or tabs when the header uses those and no
comma (then a decimal comma is read too: ``400,5``).

The header convention. A column's name is compared without case, with any
run of characters other than letters and digits read as ``_`` (so
``X (mm)``, ``x [mm]`` and ``x_mm`` are the same); it is a quantity, then
optionally its unit:

- ``x``, ``y``, ``z`` (required): ``x_mm`` or ``x_m``; written alone, the
  unit is the ``units`` argument, or millimetres when none is given (the
  issue's waypoint format: "x, y, z in mm"). All three state the same unit
  or none (``mixed_units``); a unit stated and a different one given is
  refused (``units_conflict``).
- ``speed`` or ``tcp_speed`` (optional, the TCP's): ``speed_mm_s`` or
  ``speed_m_s``; written alone it is mm/s, whatever the coordinates'
  unit. An empty cell is a speed not given (None).
- ``time`` (``time_s``, ``time_ms``; alone, seconds), optional: each
  waypoint's time from the start, as a simulation exports it. Where a row
  gives no speed, its move's speed is its length over the time since the
  row before; times must grow from row to row (``time_not_increasing``).
- ``tool`` and the orientation ``rx``, ``ry``, ``rz`` (``_rad``, ``_deg``)
  are allowed and kept in the text only.

Refused, naming the column: any other column (``unknown_column``: a
misspelt speed column is not silently dropped), a unit not of its quantity
(``unknown_unit``), a column twice (``duplicate_column``, ``speed_mm_s``
beside ``speed_m_s`` too), coordinates in different units (``mixed_units``),
a header that is a row of numbers (``no_header``). A row of another length
than the header is ``row_fields``; a coordinate that is not a number
``not_a_number``.
"""

from __future__ import annotations

import csv
import math
import re

from cells.motion.errors import ProgramError
from cells.motion.path import Point, Program
from cells.motion.reading.collect import Collector
from cells.motion.reading.source import clip, parse_number

UNITS = ("mm", "m")
# Each quantity and the units it may state (with the power of ten to mm or
# mm/s; None for a column only kept in the text).
_QUANTITIES: dict[str, dict[str | None, int | None]] = {
    "x": {"mm": 0, "m": 3, None: None},
    "y": {"mm": 0, "m": 3, None: None},
    "z": {"mm": 0, "m": 3, None: None},
    "speed": {"mm_s": 0, "m_s": 3, None: 0},
    "tcp_speed": {"mm_s": 0, "m_s": 3, None: 0},
    "tool": {None: None},
    "time": {"s": None, "ms": None, None: None},
    "rx": {"rad": None, "deg": None, None: None},
    "ry": {"rad": None, "deg": None, None: None},
    "rz": {"rad": None, "deg": None, None: None},
}
# Longest first: "tcp_speed_m_s" is tcp_speed in m/s, not t...
_BY_LENGTH = sorted(_QUANTITIES, key=len, reverse=True)
_SEPARATORS = re.compile(r"[^0-9a-z]++")


def column(name: str, *, line: int) -> tuple[str, str | None]:
    """A header cell as (quantity, unit stated or None)."""
    normal = _SEPARATORS.sub("_", name.casefold()).strip("_")
    for quantity in _BY_LENGTH:
        if normal == quantity:
            return quantity, None
        if normal.startswith(quantity + "_"):
            unit = normal[len(quantity) + 1 :]
            if unit not in _QUANTITIES[quantity]:
                raise ProgramError(
                    "unknown_unit", line=line, column=name[:40], unit=unit[:20]
                )
            return quantity, unit
    raise ProgramError("unknown_column", line=line, column=name[:40])


def read(lines: list[str], *, units: str | None) -> Program:
    collector = Collector("csv")
    rows = [
        (number_, text)
        for number_, text in enumerate(lines, start=1)
        if text.strip() and not text.lstrip().startswith("#")
    ]
    if not rows:
        raise ProgramError("empty")
    header_line, header_text = rows[0]
    delimiter = delimiter_of(header_text)
    reader = csv.reader((text for _n, text in rows), delimiter=delimiter)
    try:
        header = next(reader)
        columns = _columns(header, header_line)
        scale = _scale(columns, units, line=header_line)
        previous: tuple[Point, float | None] | None = None
        for row in reader:
            number_, text = rows[reader.line_num - 1]
            target, speed, time_s = _waypoint(columns, scale, row, number_, delimiter)
            if speed is None and time_s is not None and previous is not None:
                speed = _speed_from_time(previous, target, time_s, line=number_)
            collector.move(
                line=number_,
                kind="linear",
                target=target,
                speed_mm_s=speed,
                text=clip(text),
            )
            previous = (target, time_s)
    except csv.Error as error:
        raise ProgramError("bad_row", line=rows[reader.line_num - 1][0]) from error
    return collector.program()


def delimiter_of(header: str) -> str:
    """The header's separator: a comma, else a semicolon, else a tab."""
    if "," in header:
        return ","
    if ";" in header:
        return ";"
    return "\t" if "\t" in header else ","


def _columns(header: list[str], line: int) -> dict[str, tuple[int, str | None]]:
    """Each quantity's (position, unit stated)."""
    if header and parse_number(header[0]) is not None:
        raise ProgramError("no_header", line=line)
    found: dict[str, tuple[int, str | None]] = {}
    for position, name in enumerate(header):
        quantity, unit = column(name, line=line)
        if quantity == "tcp_speed":
            quantity = "speed"
        if quantity in found:
            raise ProgramError("duplicate_column", line=line, column=name[:40])
        found[quantity] = (position, unit)
    for quantity in ("x", "y", "z"):
        if quantity not in found:
            raise ProgramError("missing_column", line=line, column=quantity)
    return found


def _scale(
    columns: dict[str, tuple[int, str | None]], units: str | None, *, line: int
) -> dict[str, int]:
    """The power of ten from each read column's unit to mm (mm/s)."""
    stated = {columns[axis][1] for axis in ("x", "y", "z")}
    if len(stated) > 1:
        raise ProgramError("mixed_units", line=line)
    unit = stated.pop()
    if unit is not None and units is not None and unit != units:
        raise ProgramError("units_conflict", line=line, header=unit, given=units)
    unit = unit or units or "mm"
    scale = dict.fromkeys(("x", "y", "z"), _QUANTITIES["x"][unit] or 0)
    if "speed" in columns:
        scale["speed"] = _QUANTITIES["speed"][columns["speed"][1]] or 0
    return scale


def _waypoint(
    columns: dict[str, tuple[int, str | None]],
    scale: dict[str, int],
    row: list[str],
    line: int,
    delimiter: str,
) -> tuple[Point, float | None, float | None]:
    """A row as (the point, its speed in mm/s, its time in s), the speed and
    time None where the row gives none."""
    if len(row) != len(columns):
        raise ProgramError(
            "row_fields", line=line, expected=len(columns), found=len(row)
        )
    values: dict[str, float | None] = {}
    for quantity in (*scale, *(("time",) if "time" in columns else ())):
        cell = row[columns[quantity][0]].strip()
        if delimiter != "," and "," in cell and "." not in cell:
            cell = cell.replace(",", ".", 1)
        if quantity in ("speed", "time") and not cell:
            values[quantity] = None
            continue
        value = parse_number(cell, scale=scale.get(quantity, 0))
        if value is None:
            raise ProgramError(
                "not_a_number", line=line, column=quantity, text=cell[:40]
            )
        values[quantity] = value
    x, y, z = values["x"], values["y"], values["z"]
    assert x is not None and y is not None and z is not None
    time_s = values.get("time")
    if time_s is not None and columns["time"][1] == "ms":
        time_s /= 1000
    return Point(x, y, z), values.get("speed"), time_s


def _speed_from_time(
    previous: tuple[Point, float | None], target: Point, time_s: float, *, line: int
) -> float | None:
    """The speed of a move whose row gives no speed but its time: its length
    over the time since the row before (None: that row gave no time, or the
    TCP stays where it is, a dwell). Times must grow where the TCP moves."""
    start, start_s = previous
    if start_s is None:
        return None
    length = math.dist(
        (start.x_mm, start.y_mm, start.z_mm), (target.x_mm, target.y_mm, target.z_mm)
    )
    # Going back in time, or moving in no time (at an infinite speed).
    if time_s < start_s or (time_s == start_s and length > 0):
        raise ProgramError("time_not_increasing", line=line, time=time_s)
    return length / (time_s - start_s) if length > 0 else None
