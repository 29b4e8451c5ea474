"""Reading a supplier's quote from the file it came in: an XLSX workbook or a
CSV file. Pure Python (stdlib, pydantic, openpyxl), no Django.

The layout (``template`` writes it): on the first sheet, a block of labelled
cells at the top (the label in column A, its value in column B: supplier,
quote number, quote date, valid until), then the item table under a row of
column headings, found by their labels in English or Korean, in any order.
Unknown columns and the other sheets are passed by. A CSV file has the same
layout as the first sheet.

Every cell is checked before anything is returned: ``QuoteFileError`` names
each problem by row and column (the first ``MAX_PROBLEMS``, then how many
more), and nothing of the file is kept. Money is Decimal from the cell to the
result, never a float's arithmetic: a number cell's float is read through its
shortest repr, which gives back the figure typed; text is read as written. A
formula is read as its text and never run: in a text column it is the text,
in a figure's column it is refused.

The limits and labels are in ``layout`` (the template writes the same), the
reading of one cell in ``cell_values``.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from openpyxl import load_workbook
from pydantic import BaseModel, ConfigDict, Field, model_validator

from compliance.calculators.base import Line, format_number, gettext_noop
from compliance.costs.catalogue import (
    Currency,
    Money,
    Quantity,
    Unit,
    Weeks,
    check_range,
)
from compliance.costs.quotes.cell_values import (
    BLANK,
    Cell,
    CellProblem,
    cell_text,
    is_blank,
    read_date,
    read_figures,
)
from compliance.costs.quotes.layout import (
    COLUMN_BY_LABEL,
    COLUMN_LABELS,
    CURRENCY_BY_SPELLING,
    EXCEL_MAX_ROWS,
    FORMULA_STARTS,
    HEADER_BY_LABEL,
    HEADER_LABELS,
    IDENTITY_COLUMNS,
    MAX_COLUMNS,
    MAX_FILE_BYTES,
    MAX_HEADER_ROW,
    MAX_LENGTHS,
    MAX_PROBLEMS,
    MAX_ROWS,
    MAX_UNPACKED_BYTES,
    ORDER_CEILING,
    ORDER_PLACES,
    PRICE_CEILING,
    PRICE_PLACES,
    REQUIRED_COLUMNS,
    UNIT_BY_SPELLING,
    WEEKS_CEILING,
    WEEKS_PLACES,
    label_key,
)

# --- Messages ---------------------------------------------------------------

TOO_BIG = gettext_noop(
    "The file is larger than %(limit)s MB: split the quote into smaller files."
)
UNPACKS_TOO_BIG = gettext_noop(
    "The workbook unpacks to more than %(limit)s MB: it is not a quote."
)
NOT_A_QUOTE_FILE = gettext_noop(
    "This is neither an XLSX workbook nor a CSV file: save the quote as .xlsx "
    "or as CSV UTF-8."
)
NOT_A_WORKBOOK = gettext_noop(
    "The workbook cannot be read: save it again as .xlsx (Excel workbook)."
)
NOT_UTF8 = gettext_noop("The file is not UTF-8 text: save it as CSV UTF-8.")
NOT_CSV = gettext_noop("The file is not readable CSV: %(error)s")
NO_TABLE = gettext_noop(
    "No item table found: in the first %(limit)s rows there is no row of column "
    "headings (Kind, Part number, Unit, Unit price, Currency …)."
)
MISSING_COLUMN = gettext_noop("The column %(column)s is missing.")
TWICE_COLUMN = gettext_noop("The column %(column)s is given twice.")
NO_IDENTITY_COLUMN = gettext_noop(
    "The table needs a Kind, Part number or Model column to tell what each row is."
)
TWICE_LABEL = gettext_noop("%(column)s is given twice.")
EMPTY_TABLE = gettext_noop("The item table has no rows.")
TOO_MANY_ROWS = gettext_noop(
    "The item table has more than %(limit)s rows: split the quote into smaller files."
)
MORE_PROBLEMS = gettext_noop("… and %(count)s more problems.")
MISSING_VALUE = gettext_noop("Give the %(column)s.")
VALID_BEFORE_DATE = gettext_noop(
    "The quote is valid until %(until)s, before its date %(date)s."
)
TOO_LONG = gettext_noop("%(column)s has %(length)s characters; at most %(limit)s.")
UNKNOWN_KIND = gettext_noop(
    "%(value)s is not an item kind: use a key or a name from the list of item kinds."
)
UNKNOWN_UNIT = gettext_noop("%(value)s is not a unit: use piece, m or job.")
UNKNOWN_CURRENCY = gettext_noop(
    "%(value)s is not a currency quotes are kept in: use KRW, USD or EUR."
)
NOTHING_TO_MATCH = gettext_noop(
    "The row names no part number, model or kind: give at least one."
)
NOT_ABOVE_ZERO = gettext_noop("The minimum order must be above zero.")
PRICE_TO_BELOW = gettext_noop(
    "The unit price to, %(high)s, is below the unit price %(low)s."
)
RANGE_TWICE = gettext_noop(
    "The unit price is already a range: leave the unit price to empty, or give "
    "one figure in each."
)


# --- What a file reads as ---------------------------------------------------


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class QuoteRowIn(_Frozen):
    """One item of the quote as read: its row in the file (1-based), what it
    is, and its unit price (low = high for one figure) in its currency."""

    row: int = Field(ge=1)
    kind: str = ""  # a catalogue key, or ""
    maker: str = ""
    part_number: str = ""
    model: str = ""
    description: str = ""
    unit: Unit
    price_low: Money
    price_high: Money
    currency: Currency
    minimum_order: Quantity | None = None
    lead_time_weeks_low: Weeks | None = None
    lead_time_weeks_high: Weeks | None = None

    @model_validator(mode="after")
    def _ranges(self) -> QuoteRowIn:
        check_range(self.price_low, self.price_high, "unit price")
        check_range(self.lead_time_weeks_low, self.lead_time_weeks_high, "lead time")
        return self


class QuoteFile(_Frozen):
    """A quote as its file reads: who gave it, its number and dates, and its
    items in the order of the file."""

    supplier: str
    number: str
    quoted_on: date
    valid_until: date | None = None
    rows: tuple[QuoteRowIn, ...]


class FileProblem(_Frozen):
    """One thing wrong with the file: the row (None: the file as a whole),
    the column as headed in the file (or the label expected; None: the whole
    row) and what is wrong, for the pages to render in the reader's
    language."""

    row: int | None = None
    column: str | None = None
    message: Line


class QuoteFileError(ValueError):
    """The file was not read; ``problems`` says why, each row and column at
    fault."""

    def __init__(self, problems: Sequence[FileProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(_problem_text(p) for p in self.problems))


def _problem_text(problem: FileProblem) -> str:
    where = ", ".join(
        part
        for part in (
            f"row {problem.row}" if problem.row else "",
            problem.column or "",
        )
        if part
    )
    return f"{where}: {problem.message.render()}" if where else problem.message.render()


# --- Reading ----------------------------------------------------------------


def read_quote(data: bytes, filename: str, *, kinds: Mapping[str, str]) -> QuoteFile:
    """The quote in ``data`` (an XLSX workbook or a CSV file named
    ``filename``). ``kinds`` maps each spelling of an item kind (stripped and
    casefolded: a catalogue key, its English name, its translated name) to
    its catalogue key. Raises ``QuoteFileError`` listing every problem."""
    try:
        if len(data) > MAX_FILE_BYTES:
            raise _Refused(TOO_BIG, limit=MAX_FILE_BYTES // 2**20)
        if data.startswith(b"PK\x03\x04"):
            return _read_xlsx(data, kinds)
        if filename.casefold().endswith((".csv", ".txt")):
            return _read_csv(data, kinds)
        raise _Refused(NOT_A_QUOTE_FILE)
    except _Refused as refused:
        raise QuoteFileError([FileProblem(message=refused.message)]) from None


class _Refused(Exception):
    """The file as a whole cannot be read."""

    def __init__(self, text: str, /, **values: str | int) -> None:
        super().__init__(text)
        self.message = Line(text=text, values=values)


# A sheet's rows ``first``..``last`` that are not blank in ``columns``
# (0-based), with the cells of those columns.
Rows = Callable[[int, int | None, Sequence[int]], Iterator[tuple[int, list[Cell]]]]


def _read_xlsx(data: bytes, kinds: Mapping[str, str]) -> QuoteFile:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise _Refused(NOT_A_WORKBOOK) from exc
    if unpacked > MAX_UNPACKED_BYTES:
        raise _Refused(UNPACKS_TOO_BIG, limit=MAX_UNPACKED_BYTES // 2**20)
    try:
        # data_only=False: a formula comes back as its text and is never
        # evaluated (nor its cached result trusted).
        book = load_workbook(
            io.BytesIO(data), read_only=True, data_only=False, keep_links=False
        )
    except Exception as exc:  # openpyxl raises many kinds for a broken file
        raise _Refused(NOT_A_WORKBOOK) from exc
    try:
        if not book.worksheets:
            raise _Refused(NOT_A_WORKBOOK)
        sheet = book.worksheets[0]
        # The stored dimension may be stale: read the rows actually there.
        sheet.reset_dimensions()
        return _Reader(_XlsxRows(sheet), kinds, comma_groups=True).read()
    finally:
        book.close()


class _XlsxRows:
    def __init__(self, sheet) -> None:
        self.sheet = sheet

    def __call__(
        self, first: int, last: int | None, columns: Sequence[int]
    ) -> Iterator[tuple[int, list[Cell]]]:
        rows = self.sheet.iter_rows(
            min_row=first, max_row=last, max_col=max(columns) + 1
        )
        try:
            for number, cells in enumerate(rows, start=first):
                if number > EXCEL_MAX_ROWS:
                    raise _Refused(NOT_A_WORKBOOK)
                picked = [cells[i] for i in columns]
                if all(cell.value is None for cell in picked):
                    continue
                yield number, [Cell(c.value, c.data_type == "f") for c in picked]
        except _Refused:
            raise
        except Exception as exc:  # a read-only sheet is parsed as it is read
            raise _Refused(NOT_A_WORKBOOK) from exc


def _read_csv(data: bytes, kinds: Mapping[str, str]) -> QuoteFile:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _Refused(NOT_UTF8) from exc
    # Comma-separated as a rule; a file saved where the comma is the decimal
    # point is separated by semicolons (or tabs): the delimiter is the one
    # under which the heading row is found.
    for delimiter in (",", ";", "\t"):
        rows = _CsvRows(text, delimiter)
        head = rows(1, MAX_HEADER_ROW, range(MAX_COLUMNS))
        if _heading_row(list(head)) is not None:
            break
    else:
        rows = _CsvRows(text, ",")
    # Where the comma is the decimal point, "1,200" may be 1.2: not guessed.
    return _Reader(rows, kinds, comma_groups=rows.delimiter == ",").read()


class _CsvRows:
    def __init__(self, text: str, delimiter: str) -> None:
        self.text, self.delimiter = text, delimiter

    def __call__(
        self, first: int, last: int | None, columns: Sequence[int]
    ) -> Iterator[tuple[int, list[Cell]]]:
        records = csv.reader(
            io.StringIO(self.text, newline=""), delimiter=self.delimiter
        )
        try:
            for number, record in enumerate(records, start=1):
                if last is not None and number > last:
                    break
                if number < first:
                    continue
                picked = [
                    _csv_cell(record[i]) if i < len(record) else BLANK for i in columns
                ]
                if all(cell is BLANK for cell in picked):
                    continue
                yield number, picked
        except csv.Error as exc:
            raise _Refused(NOT_CSV, error=str(exc)) from exc


def _csv_cell(text: str) -> Cell:
    text = text.strip()
    if not text:
        return BLANK
    # A CSV written for a spreadsheet escapes text that would run as a
    # formula with an apostrophe (as the device library's CSV does).
    if text.startswith("'") and text[1:].startswith((*FORMULA_STARTS, "'")):
        text = text[1:]
    return Cell(text)


def _heading_row(
    head: list[tuple[int, list[Cell]]],
) -> tuple[int, dict[str, list[tuple[int, str]]]] | None:
    """The row of column headings (the first with at least three known) and
    where each known heading stands: (index, heading as in the file)."""
    for number, cells in head:
        found: dict[str, list[tuple[int, str]]] = {}
        for index, cell in enumerate(cells):
            heading = cell_text(cell)
            name = COLUMN_BY_LABEL.get(label_key(heading)) if heading else None
            if name:
                found.setdefault(name, []).append((index, heading))
        if len(found) >= 3:
            return number, found
    return None


class _Reader:
    """Reads one sheet's rows, collecting every problem."""

    def __init__(self, rows: Rows, kinds: Mapping[str, str], *, comma_groups: bool):
        self.rows = rows
        self.kinds = kinds
        self.comma_groups = comma_groups
        self.problems: list[FileProblem] = []
        self.count = 0  # every problem, kept or not
        self.headings: dict[str, str] = {}  # as the file heads them
        self.places: dict[str, int] = {}  # their 0-based column

    def problem(
        self,
        row: int | None,
        column: str | None,
        text: str,
        /,
        **values: str | int,
    ) -> None:
        self.count += 1
        if len(self.problems) < MAX_PROBLEMS:
            message = Line(text=text, values=values)
            self.problems.append(FileProblem(row=row, column=column, message=message))

    def refusal(self) -> QuoteFileError:
        problems = list(self.problems)
        if self.count > len(problems):
            more = Line(
                text=MORE_PROBLEMS, values={"count": self.count - len(problems)}
            )
            problems.append(FileProblem(message=more))
        return QuoteFileError(problems)

    def read(self) -> QuoteFile:
        head = list(self.rows(1, MAX_HEADER_ROW, range(MAX_COLUMNS)))
        table = _heading_row(head)
        end = table[0] if table else MAX_HEADER_ROW + 1
        header = self.header_block([(n, cells) for n, cells in head if n < end])
        rows: list[QuoteRowIn] = []
        if table is None:
            self.problem(None, None, NO_TABLE, limit=MAX_HEADER_ROW)
        elif self.columns(*table):
            rows = self.items(table[0])
        if self.count:
            raise self.refusal()
        return QuoteFile(rows=tuple(rows), **header)

    # The header block

    def header_block(self, head: list[tuple[int, list[Cell]]]) -> dict[str, Any]:
        found: dict[str, tuple[int | None, str, Cell]] = {}
        for number, cells in head:
            label = cell_text(cells[0])
            name = HEADER_BY_LABEL.get(label_key(label)) if label else None
            if name is None:
                continue
            if name in found:
                self.problem(number, label, TWICE_LABEL, column=label)
                continue
            found[name] = (number, label, cells[1])
        for name in HEADER_LABELS:
            found.setdefault(name, (None, HEADER_LABELS[name], BLANK))
        supplier = self.header_text(*found["supplier"], MAX_LENGTHS["supplier"])
        number = self.header_text(*found["number"], MAX_LENGTHS["number"])
        quoted_on = self.header_date(*found["quoted_on"], required=True)
        valid_until = self.header_date(*found["valid_until"], required=False)
        if quoted_on and valid_until and valid_until < quoted_on:
            row, label, _cell = found["valid_until"]
            self.problem(
                row,
                label,
                VALID_BEFORE_DATE,
                until=valid_until.isoformat(),
                date=quoted_on.isoformat(),
            )
        return {
            "supplier": supplier,
            "number": number,
            "quoted_on": quoted_on,
            "valid_until": valid_until,
        }

    def header_text(self, row: int | None, label: str, cell: Cell, limit: int) -> str:
        text = cell_text(cell)
        if not text:
            self.problem(row, label, MISSING_VALUE, column=label)
        elif len(text) > limit:
            self.too_long(row, label, text, limit)
        return text

    def header_date(
        self, row: int | None, label: str, cell: Cell, *, required: bool
    ) -> date | None:
        if is_blank(cell):
            if required:
                self.problem(row, label, MISSING_VALUE, column=label)
            return None
        try:
            return read_date(cell)
        except CellProblem as bad:
            self.problem(row, label, bad.text, **bad.values)
            return None

    # The item table

    def columns(self, number: int, found: dict[str, list[tuple[int, str]]]) -> bool:
        """Note where each column stands; False (with the problems) when the
        table cannot be read."""
        start = self.count
        for name, places in found.items():
            if len(places) > 1:
                heading = places[1][1]
                self.problem(number, heading, TWICE_COLUMN, column=heading)
            self.headings[name] = places[0][1]
        for name in REQUIRED_COLUMNS:
            if name not in found:
                label = COLUMN_LABELS[name]
                self.problem(number, label, MISSING_COLUMN, column=label)
        if not any(name in found for name in IDENTITY_COLUMNS):
            self.problem(number, None, NO_IDENTITY_COLUMN)
        self.places = {name: places[0][0] for name, places in found.items()}
        return self.count == start

    def items(self, heading_row: int) -> list[QuoteRowIn]:
        names = list(self.places)
        indexes = [self.places[name] for name in names]
        read: list[QuoteRowIn] = []
        seen = 0
        for number, cells in self.rows(heading_row + 1, None, indexes):
            row = dict(zip(names, cells, strict=True))
            if all(is_blank(cell) for cell in cells):
                continue
            seen += 1
            if seen > MAX_ROWS:
                self.problem(number, None, TOO_MANY_ROWS, limit=f"{MAX_ROWS:,}")
                break
            item = self.item(number, row)
            if item is not None:
                read.append(item)
        if not seen:
            self.problem(heading_row, None, EMPTY_TABLE)
        return read

    def heading(self, name: str) -> str:
        return self.headings.get(name, COLUMN_LABELS[name])

    def too_long(self, row: int | None, column: str, text: str, limit: int) -> None:
        self.problem(
            row, column, TOO_LONG, column=column, length=len(text), limit=limit
        )

    def item(self, number: int, cells: dict[str, Cell]) -> QuoteRowIn | None:
        start = self.count

        def text(name: str) -> str:
            return cell_text(cells.get(name, BLANK))

        kind_text = text("kind")
        kind = self.kinds.get(kind_text.casefold(), "") if kind_text else ""
        if kind_text and not kind:
            self.problem(number, self.heading("kind"), UNKNOWN_KIND, value=kind_text)
        values: dict[str, object] = {"row": number, "kind": kind}
        for name in ("maker", "part_number", "model", "description"):
            values[name] = value = text(name)
            if len(value) > MAX_LENGTHS[name]:
                self.too_long(number, self.heading(name), value, MAX_LENGTHS[name])
        values["unit"] = self.choice(
            number, "unit", text("unit"), UNIT_BY_SPELLING, UNKNOWN_UNIT
        )
        values["currency"] = self.choice(
            number, "currency", text("currency"), CURRENCY_BY_SPELLING, UNKNOWN_CURRENCY
        )
        self.prices(number, cells, values)
        order = self.figures(
            number, "minimum_order", cells, ORDER_PLACES, ORDER_CEILING
        )
        if order is not None and order[0] == 0:
            self.problem(number, self.heading("minimum_order"), NOT_ABOVE_ZERO)
        values["minimum_order"] = order[0] if order else None
        weeks = self.figures(
            number, "lead_time", cells, WEEKS_PLACES, WEEKS_CEILING, ranged=True
        )
        values["lead_time_weeks_low"], values["lead_time_weeks_high"] = weeks or (
            None,
            None,
        )
        if not (values["part_number"] or values["model"] or kind_text):
            self.problem(number, None, NOTHING_TO_MATCH)
        if self.count > start:
            return None
        return QuoteRowIn.model_validate(values)

    def choice(
        self,
        number: int,
        name: str,
        text: str,
        spellings: Mapping[str, str],
        unknown: str,
    ) -> str | None:
        column = self.heading(name)
        if not text:
            self.problem(number, column, MISSING_VALUE, column=column)
            return None
        found = spellings.get(text.casefold())
        if found is None:
            self.problem(number, column, unknown, value=text)
        return found

    def prices(self, number: int, cells: dict[str, Cell], values: dict) -> None:
        column = self.heading("price_low")
        price = None
        if is_blank(cells.get("price_low", BLANK)):
            self.problem(number, column, MISSING_VALUE, column=column)
        else:
            price = self.figures(
                number, "price_low", cells, PRICE_PLACES, PRICE_CEILING, ranged=True
            )
        to = self.figures(number, "price_high", cells, PRICE_PLACES, PRICE_CEILING)
        if price is None:
            return
        low, high = price
        if to is not None:
            column = self.heading("price_high")
            if low != high:
                self.problem(number, column, RANGE_TWICE)
                return
            high = to[0]
            if high < low:
                self.problem(
                    number,
                    column,
                    PRICE_TO_BELOW,
                    high=format_number(high),
                    low=format_number(low),
                )
                return
        values["price_low"], values["price_high"] = low, high

    def figures(
        self,
        number: int,
        name: str,
        cells: dict[str, Cell],
        places: int,
        ceiling: Decimal,
        *,
        ranged: bool = False,
    ) -> tuple[Decimal, Decimal] | None:
        """The figure (low = high) or range of a cell, None when it is blank or
        wrong (the problem noted)."""
        cell = cells.get(name, BLANK)
        if is_blank(cell):
            return None
        try:
            return read_figures(
                cell,
                places=places,
                ceiling=ceiling,
                ranged=ranged,
                comma_groups=self.comma_groups,
                weeks=name == "lead_time",
            )
        except CellProblem as bad:
            self.problem(number, self.heading(name), bad.text, **bad.values)
            return None
