"""ISO 13849-1, Annex K, Table K.1: importing an organisation's licensed copy.

Table K.1 gives the average PFHd per MTTFd of each channel for each category
and DCavg band; it is the numerical form of the simplified figure (Figure 5 in
2015, Figure 12 in 2023) and gives the exact PFHd a designed subsystem reaches.
Its numbers were not found in any public source, so none are shipped here: an
organisation types them in from its licensed copy of the standard (or exports
them from IFA SISTEMA) as CSV, and names whose copy it is.

The CSV has exactly the header
``mttfd_years,cat_B,cat_1,cat_2_low,cat_2_medium,cat_3_low,cat_3_medium,cat_4_high``
then one row per MTTFd (years, strictly increasing, 3 to 2500) with a PFHd per
hour in each column (0 < PFHd < 10⁻⁴), empty where the category is not defined
for that MTTFd. Within a column the PFHd never rises as the MTTFd rises. Every
broken row is reported with its line number. Pure Python with pydantic, no
Django.
"""

from __future__ import annotations

import bisect
import csv
import io
import itertools
import math
from dataclasses import dataclass
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from compliance.calculators import iso13849_verification_tables as vt
from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.iso13849_b10d import num

CLAUSE = "ISO 13849-1:2015, Annex K (Table K.1)"

HEADER: tuple[str, ...] = ("mttfd_years", *vt.K1_COLUMN_KEYS)
MAX_ROWS = 200
MAX_BYTES = 64 * 1024
MAX_SOURCE_CHARS = 200
MIN_MTTFD_YEARS = vt.MTTFD_MIN_YEARS
MAX_MTTFD_YEARS = vt.MTTFD_CAP_YEARS["4"]
MAX_PFHD = 1e-4  # exclusive: PL a ends there

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def sci(value: float) -> str:
    """A PFHd written as ``3.7 × 10⁻⁹`` (up to four significant digits)."""
    mantissa, exponent = f"{value:.3e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    power = f"10{str(int(exponent)).translate(_SUPERSCRIPT)}"
    return power if mantissa == "1" else f"{mantissa} × {power}"


_Pfhd = Field(default=None, gt=0, lt=MAX_PFHD)


class K1Row(BaseModel):
    """One row of Table K.1: an MTTFd of each channel and the PFHd per column
    (None where the category is not defined for that MTTFd)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    mttfd_years: float = Field(ge=MIN_MTTFD_YEARS, le=MAX_MTTFD_YEARS)
    cat_B: float | None = _Pfhd
    cat_1: float | None = _Pfhd
    cat_2_low: float | None = _Pfhd
    cat_2_medium: float | None = _Pfhd
    cat_3_low: float | None = _Pfhd
    cat_3_medium: float | None = _Pfhd
    cat_4_high: float | None = _Pfhd

    def pfhd(self, column_key: str) -> float | None:
        return getattr(self, column_key)


class K1Table(BaseModel):
    """An organisation's copy of Table K.1, with whose licensed copy it is."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str = Field(min_length=1, max_length=MAX_SOURCE_CHARS)
    rows: tuple[K1Row, ...] = Field(min_length=1, max_length=MAX_ROWS)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        # The same rules as the CSV import, for a table built another way.
        problems = _table_problems(self.rows)
        if problems:
            raise ValueError(problems[0][1])
        return self


class K1ImportError(ValueError):
    """A Table K.1 CSV that cannot be imported: ``errors`` lists (line, message),
    line 0 meaning the file as a whole."""

    def __init__(self, errors: list[tuple[int, str]]):
        self.errors = errors
        super().__init__("; ".join(f"line {n}: {m}" if n else m for n, m in errors))


def _table_problems(rows: tuple[K1Row, ...]) -> list[tuple[int, str]]:
    """(row index + 1, message) for every ordering rule a table breaks."""
    problems: list[tuple[int, str]] = []
    for index, (before, after) in enumerate(itertools.pairwise(rows)):
        if after.mttfd_years <= before.mttfd_years:
            problems.append(
                (index + 2, "mttfd_years must increase strictly from row to row")
            )
    for key in vt.K1_COLUMN_KEYS:
        last: tuple[float, float] | None = None
        for index, row in enumerate(rows):
            value = row.pfhd(key)
            if value is None:
                continue
            if last is not None and value > last[1]:
                problems.append((index + 1, _rises(key, last, row.mttfd_years, value)))
            last = (row.mttfd_years, value)
    return problems


def _rises(key: str, last: tuple[float, float], mttfd: float, value: float) -> str:
    return (
        f"{key}: the PFHd rises from {last[1]:g} at MTTFd {last[0]:g} years to "
        f"{value:g} at {mttfd:g} years; it must never rise as the MTTFd rises"
    )


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def parse_k1_csv(text: str, *, source: str) -> K1Table:
    """A Table K.1 from CSV text; raises K1ImportError listing every broken row."""
    source = source.strip()
    if not source or len(source) > MAX_SOURCE_CHARS:
        raise K1ImportError(
            [
                (
                    0,
                    f"name whose licensed copy the table is (1 to {MAX_SOURCE_CHARS} "
                    "characters)",
                )
            ]
        )
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise K1ImportError([(0, f"the file is larger than {MAX_BYTES // 1024} KB")])
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff")))
    header = next(reader, None)
    if header is None or [cell.strip() for cell in header] != list(HEADER):
        raise K1ImportError([(1, "the header must be exactly: " + ",".join(HEADER))])

    errors: list[tuple[int, str]] = []
    rows: list[K1Row] = []
    last_mttfd: float | None = None
    last_pfhd: dict[str, tuple[float, float]] = {}
    count = 0
    for cells in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in cells):
            continue  # blank lines are ignored
        count += 1
        if count > MAX_ROWS:
            errors.append((line, f"the table has more than {MAX_ROWS} rows"))
            break
        if len(cells) != len(HEADER):
            errors.append((line, f"expected {len(HEADER)} values, found {len(cells)}"))
            continue
        row_errors: list[str] = []
        mttfd = _number(cells[0].strip())
        mttfd_ok = False
        if mttfd is None:
            row_errors.append(f"mttfd_years: '{cells[0].strip()}' is not a number")
        elif not MIN_MTTFD_YEARS <= mttfd <= MAX_MTTFD_YEARS:
            row_errors.append(
                f"mttfd_years: {mttfd:g} is outside {MIN_MTTFD_YEARS:g} to "
                f"{MAX_MTTFD_YEARS:g} years"
            )
        elif last_mttfd is not None and mttfd <= last_mttfd:
            row_errors.append(
                f"mttfd_years: {mttfd:g} does not increase on the row before "
                f"({last_mttfd:g})"
            )
        else:
            mttfd_ok = True
            last_mttfd = mttfd
        values: dict[str, float | None] = {}
        for key, cell in zip(vt.K1_COLUMN_KEYS, cells[1:], strict=True):
            cell = cell.strip()
            if not cell:
                values[key] = None
                continue
            value = _number(cell)
            if value is None:
                row_errors.append(f"{key}: '{cell}' is not a number")
            elif not 0 < value < MAX_PFHD:
                row_errors.append(
                    f"{key}: a PFHd of {value:g} per hour is outside 0 to 1e-04 "
                    "(exclusive)"
                )
            else:
                values[key] = value
        if mttfd_ok:
            # Checked against the last value of the column on a good row.
            for key, value in values.items():
                if value is None:
                    continue
                before = last_pfhd.get(key)
                if before is not None and value > before[1]:
                    row_errors.append(_rises(key, before, mttfd, value))
                else:
                    last_pfhd[key] = (mttfd, value)
        if not row_errors and all(v is None for v in values.values()):
            row_errors.append("the row has no PFHd value")
        if row_errors:
            errors.extend((line, message) for message in row_errors)
            continue
        rows.append(K1Row(mttfd_years=mttfd, **values))
    if not rows and not errors:
        errors.append((0, "the table has no rows"))
    if errors:
        raise K1ImportError(errors)
    return K1Table(source=source, rows=tuple(rows))


def to_csv(table: K1Table) -> str:
    """The table as CSV in the import format (round-trips through parse_k1_csv)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for row in table.rows:
        writer.writerow(
            [
                repr(row.mttfd_years),
                *(
                    "" if (v := row.pfhd(key)) is None else repr(v)
                    for key in HEADER[1:]
                ),
            ]
        )
    return out.getvalue()


@dataclass(frozen=True)
class K1Reading:
    """A PFHd read from Table K.1 (None where the table has no value)."""

    pfhd_per_hour: float | None
    row_mttfd_years: float | None
    line: Line


def k1_pfhd(table: K1Table, column_key: str, mttfd_years: float) -> K1Reading:
    """The PFHd in ``column_key`` at the row with the largest MTTFd not above
    ``mttfd_years``: conservative, since the PFHd falls as the MTTFd rises."""
    if column_key not in vt.K1_COLUMN_KEYS:
        raise ValueError(f"unknown Table K.1 column {column_key!r}")
    keys = [row.mttfd_years for row in table.rows]
    index = bisect.bisect_right(keys, mttfd_years) - 1
    if index < 0:
        return K1Reading(
            None,
            None,
            Line(
                text=gettext_noop(
                    "Table K.1 (%(source)s) has no row at or below an MTTFd of "
                    "%(mttfd)s years"
                ),
                values={"source": table.source, "mttfd": num(mttfd_years)},
            ),
        )
    row = table.rows[index]
    value = row.pfhd(column_key)
    if value is None:
        return K1Reading(
            None,
            row.mttfd_years,
            Line(
                text=gettext_noop(
                    "Table K.1 (%(source)s) gives no PFHd in column %(column)s at "
                    "the row of %(row)s years"
                ),
                values={
                    "source": table.source,
                    "column": column_key,
                    "row": num(row.mttfd_years),
                },
            ),
        )
    return K1Reading(
        value,
        row.mttfd_years,
        Line(
            text=gettext_noop(
                "Table K.1 (%(source)s), column %(column)s: the row with the "
                "largest MTTFd not above the channel's is read (conservative)"
            ),
            values={"source": table.source, "column": column_key},
            formula=(
                f"MTTFd {num(mttfd_years)} years → row {num(row.mttfd_years)} "
                f"years: PFHd = {sci(value)} /h"
            ),
        ),
    )
