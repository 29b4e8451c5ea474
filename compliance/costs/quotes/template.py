"""The supplier-quote workbook: the empty template to fill in and a stored
quote exported in the same layout, so that an export reads back as it was.
Pure Python (pydantic, openpyxl), no Django.

The first sheet ("Quote") holds the header block (label in column A, value
in column B) and the item table under its row of column headings; the
second lists the instructions and the item kinds, and the reader passes it
by. Every word written comes from ``TemplateWords`` (English by default; the
pages fill it in the reader's language).

Text a spreadsheet would run as a formula ("=HYPERLINK(…)", "+1", "-1",
"@x") is written as a string cell marked with a quote prefix, as a typed
leading apostrophe is stored: shown and kept as text, never run, and read
back as the same text.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import date
from decimal import Decimal
from itertools import pairwise

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.worksheet.datavalidation import DataValidation
from pydantic import BaseModel, ConfigDict

from compliance.calculators.base import format_range, gettext_noop
from compliance.costs.catalogue import CATALOGUE, CURRENCIES
from compliance.costs.quotes.layout import (
    COLUMN_LABELS,
    FORMULA_STARTS,
    HEADER_LABELS,
    MAX_FILE_BYTES,
    MAX_ROWS,
)
from compliance.costs.quotes.reading import QuoteFile, QuoteRowIn

# Where things stand on the first sheet (1-based rows).
TITLE_ROW = 1
HEADER_ROWS = {"supplier": 2, "number": 3, "quoted_on": 4, "valid_until": 5}
HEADING_ROW = 7
FIRST_ITEM_ROW = 8
# The item table's columns, in order, with their widths.
COLUMNS: tuple[tuple[str, int], ...] = (
    ("kind", 22),
    ("maker", 16),
    ("part_number", 20),
    ("model", 20),
    ("description", 40),
    ("unit", 8),
    ("price_low", 14),
    ("price_high", 14),
    ("currency", 9),
    ("minimum_order", 10),
    ("lead_time", 12),
)
# Typed into a number cell, "4-6" or a part number "1-2" turns into a date
# and "00123" loses its zeros: these columns are text.
TEXT_COLUMNS = frozenset({"part_number", "model", "lead_time"})
PRICE_FORMAT = "#,##0.00"
DATE_FORMAT = "yyyy-mm-dd"

LABEL_FONT = Font(bold=True)
TITLE_FONT = Font(bold=True, size=14)
HINT_FONT = Font(italic=True, color="616E7C")
HEADING_FILL = PatternFill("solid", fgColor="E9EDF2")


class KindLabel(BaseModel):
    """One item kind of the catalogue as the template lists it: its key and
    the names a row may give instead."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    names: tuple[str, ...] = ()


DEFAULT_KINDS = tuple(KindLabel(key=e.key, names=(e.name,)) for e in CATALOGUE)


class TemplateWords(BaseModel):
    """Every word the workbook shows, English by default. The instructions
    may hold ``%(name)s`` placeholders: any other word of this model (e.g.
    ``%(price_low)s``), ``%(rows)s`` and ``%(megabytes)s`` (the limits) and
    ``%(currencies)s``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sheet: str = gettext_noop("Quote")
    title: str = gettext_noop("Supplier quote")
    supplier: str = HEADER_LABELS["supplier"]
    number: str = HEADER_LABELS["number"]
    quoted_on: str = HEADER_LABELS["quoted_on"]
    valid_until: str = HEADER_LABELS["valid_until"]
    optional: str = gettext_noop("optional")
    kind: str = COLUMN_LABELS["kind"]
    maker: str = COLUMN_LABELS["maker"]
    part_number: str = COLUMN_LABELS["part_number"]
    model: str = COLUMN_LABELS["model"]
    description: str = COLUMN_LABELS["description"]
    unit: str = COLUMN_LABELS["unit"]
    price_low: str = COLUMN_LABELS["price_low"]
    price_high: str = COLUMN_LABELS["price_high"]
    currency: str = COLUMN_LABELS["currency"]
    minimum_order: str = COLUMN_LABELS["minimum_order"]
    lead_time: str = COLUMN_LABELS["lead_time"]
    piece: str = gettext_noop("piece")
    metre: str = gettext_noop("m")
    job: str = gettext_noop("job")
    kinds_sheet: str = gettext_noop("Item kinds")
    instructions: str = gettext_noop("How to fill in the quote")
    how_fill: str = gettext_noop(
        "Fill in the sheet “%(sheet)s”: at the top the supplier, the quote "
        "number, the quote date and, if the quote has one, the date it is valid "
        "until; then one row per item under the column headings. Other columns "
        "may be added: they are not read."
    )
    how_identify: str = gettext_noop(
        "Each item needs a part number, a model or a kind (a key or a name from "
        "the list below), and its unit, unit price and currency."
    )
    how_units: str = gettext_noop(
        "Unit: %(piece)s, %(metre)s or %(job)s. Currency: %(currencies)s."
    )
    how_prices: str = gettext_noop(
        "Write figures with a point for decimals and at most two decimal places "
        "in a price; thousands may be grouped (1,200.50). A price range goes "
        "under %(price_low)s and %(price_high)s, or in one cell (1200-1500)."
    )
    how_lead_time: str = gettext_noop(
        "%(lead_time)s: one figure or a range (4-6), in weeks."
    )
    how_formulas: str = gettext_noop(
        "Formulas are read as their text and never calculated: write the figures "
        "themselves."
    )
    how_limits: str = gettext_noop(
        "At most %(rows)s items; the file at most %(megabytes)s MB. The first "
        "sheet may also be saved as CSV UTF-8."
    )
    key: str = gettext_noop("Key")
    name: str = gettext_noop("Name")
    kinds: tuple[KindLabel, ...] = DEFAULT_KINDS

    @classmethod
    def translated(
        cls, translate: Callable[[str], str], kinds: Iterable[KindLabel] | None = None
    ) -> TemplateWords:
        """Every word in ``translate``'s language; each kind listed by its
        translated name and then its English one."""
        words = cls()
        texts = {
            name: translate(value)
            for name, value in words
            if isinstance(value, str) and value
        }
        listed = tuple(
            KindLabel(
                key=kind.key,
                names=tuple(
                    dict.fromkeys([*(translate(n) for n in kind.names), *kind.names])
                ),
            )
            for kind in (words.kinds if kinds is None else kinds)
        )
        return cls(**texts, kinds=listed)

    def fill(self, text: str) -> str:
        """An instruction with its placeholders filled."""
        values = {n: v for n, v in self if isinstance(v, str)}
        values |= {
            "rows": f"{MAX_ROWS:,}",
            "megabytes": str(MAX_FILE_BYTES // 2**20),
            "currencies": ", ".join(CURRENCIES),
        }
        try:
            return text % values
        except (KeyError, ValueError, TypeError):
            return text  # a translation that breaks its placeholders


def quote_template(words: TemplateWords) -> bytes:
    """The empty template, in ``words``' language."""
    return _workbook(words, None)


def quote_workbook(quote: QuoteFile, words: TemplateWords) -> bytes:
    """``quote`` in the template's layout: read back, it gives ``quote``
    again (each row on the row it was read from, when they fit below the
    headings in order)."""
    return _workbook(words, quote)


def _workbook(words: TemplateWords, quote: QuoteFile | None) -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.title = _sheet_title(words.sheet, "Quote")
    guide = book.create_sheet(_sheet_title(words.kinds_sheet, "Item kinds"))
    _header_block(sheet, words, quote)
    rows = quote.rows if quote else ()
    last = _items(sheet, words, rows)
    kinds_at = _guide(guide, words)
    _validations(sheet, guide.title, words, kinds_at, last)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _put(sheet, row: int, column: int, value: object, number_format: str = ""):
    """Write one cell; text never runs as a formula."""
    if isinstance(value, str):
        value = ILLEGAL_CHARACTERS_RE.sub("", value)
    cell = sheet.cell(row=row, column=column, value=value)
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        cell.data_type = "s"
        cell.quotePrefix = True
    if number_format:
        cell.number_format = number_format
    return cell


def _header_block(sheet, words: TemplateWords, quote: QuoteFile | None) -> None:
    _put(sheet, TITLE_ROW, 1, words.title).font = TITLE_FONT
    values: dict[str, str | date | None] = {
        "supplier": quote.supplier if quote else None,
        "number": quote.number if quote else None,
        "quoted_on": quote.quoted_on if quote else None,
        "valid_until": quote.valid_until if quote else None,
    }
    for name, row in HEADER_ROWS.items():
        _put(sheet, row, 1, getattr(words, name)).font = LABEL_FONT
        is_date = name in ("quoted_on", "valid_until")
        _put(sheet, row, 2, values[name], DATE_FORMAT if is_date else "@")
    _put(sheet, HEADER_ROWS["valid_until"], 3, words.optional).font = HINT_FONT


def _items(sheet, words: TemplateWords, rows: Sequence[QuoteRowIn]) -> int:
    """The headings and the rows; the last row written."""
    for index, (name, width) in enumerate(COLUMNS, start=1):
        cell = _put(sheet, HEADING_ROW, index, getattr(words, name))
        cell.font = LABEL_FONT
        cell.fill = HEADING_FILL
        cell.alignment = Alignment(wrap_text=True, vertical="top")
        letter = get_column_letter(index)
        sheet.column_dimensions[letter].width = width
        if name in TEXT_COLUMNS:
            sheet.column_dimensions[letter].number_format = "@"
    units = {"piece": words.piece, "m": words.metre, "job": words.job}
    numbers = [r.row for r in rows]
    in_place = (
        bool(numbers)
        and numbers[0] >= FIRST_ITEM_ROW
        and all(a < b for a, b in pairwise(numbers))
    )
    last = HEADING_ROW
    for offset, item in enumerate(rows):
        last = item.row if in_place else FIRST_ITEM_ROW + offset
        values = {
            "kind": item.kind,
            "maker": item.maker,
            "part_number": item.part_number,
            "model": item.model,
            "description": item.description,
            "unit": units[item.unit],
            # Written as numbers; at most 14 digits, they read back exactly.
            "price_low": item.price_low,
            "price_high": None
            if item.price_high == item.price_low
            else item.price_high,
            "currency": item.currency,
            "minimum_order": item.minimum_order,
            "lead_time": _weeks(item.lead_time_weeks_low, item.lead_time_weeks_high),
        }
        for index, (name, _width) in enumerate(COLUMNS, start=1):
            number_format = ""
            if name in TEXT_COLUMNS:
                number_format = "@"
            elif name.startswith("price"):
                number_format = PRICE_FORMAT
            value = values[name]
            _put(sheet, last, index, None if value == "" else value, number_format)
    sheet.freeze_panes = f"A{FIRST_ITEM_ROW}"
    return last


def _weeks(low: Decimal | None, high: Decimal | None) -> str | None:
    if low is None or high is None:
        return None
    return format_range(low, high)


def _guide(sheet, words: TemplateWords) -> tuple[int, int] | None:
    """The instructions and the item kinds; the rows of the kinds' names."""
    _put(sheet, 1, 1, words.instructions).font = TITLE_FONT
    lines = (
        words.how_fill,
        words.how_identify,
        words.how_units,
        words.how_prices,
        words.how_lead_time,
        words.how_formulas,
        words.how_limits,
    )
    for row, line in enumerate(lines, start=2):
        cell = _put(sheet, row, 1, words.fill(line))
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    heading = len(lines) + 3
    names = max((len(k.names) for k in words.kinds), default=1) or 1
    _put(sheet, heading, 1, words.key).font = LABEL_FONT
    for column in range(2, names + 2):
        _put(sheet, heading, column, words.name).font = LABEL_FONT
    for row, kind in enumerate(words.kinds, start=heading + 1):
        _put(sheet, row, 1, kind.key)
        for column, name in enumerate(kind.names, start=2):
            _put(sheet, row, column, name)
    sheet.column_dimensions["A"].width = 28
    for column in range(2, names + 2):
        sheet.column_dimensions[get_column_letter(column)].width = 44
    if not words.kinds:
        return None
    return heading + 1, heading + len(words.kinds)


def _validations(
    sheet,
    guide_title: str,
    words: TemplateWords,
    kinds_at: tuple[int, int] | None,
    last: int,
) -> None:
    """Drop-down lists for the kind, unit and currency; other spellings are
    still accepted (no error shown)."""
    end = max(FIRST_ITEM_ROW + MAX_ROWS - 1, last)
    lists: list[tuple[str, str]] = [("currency", '"' + ",".join(CURRENCIES) + '"')]
    units = (words.piece, words.metre, words.job)
    if not any("," in u or '"' in u for u in units):
        lists.append(("unit", '"' + ",".join(units) + '"'))
    if kinds_at and any(k.names for k in words.kinds):
        first, final = kinds_at
        lists.append(("kind", f"{quote_sheetname(guide_title)}!$B${first}:$B${final}"))
    letters = {
        name: get_column_letter(i) for i, (name, _w) in enumerate(COLUMNS, start=1)
    }
    for name, formula in lists:
        validation = DataValidation(
            type="list", formula1=formula, allow_blank=True, showErrorMessage=False
        )
        validation.add(f"{letters[name]}{FIRST_ITEM_ROW}:{letters[name]}{end}")
        sheet.add_data_validation(validation)


def _sheet_title(text: str, fallback: str) -> str:
    """A sheet name Excel accepts: at most 31 characters, none of []:*?/\\."""
    title = re.sub(r"[\[\]:*?/\\]", "", text).strip("' ")[:31]
    return title or fallback
