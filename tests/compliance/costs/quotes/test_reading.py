"""Reading a supplier's quote from XLSX or CSV, and the template and export
that read back as written (issue 29). Pure: no database."""

from __future__ import annotations

import csv
import io
import random
import re
import time
import zipfile
from datetime import date
from decimal import Decimal

import pytest
from openpyxl import Workbook, load_workbook

from compliance.costs.quotes import reading
from compliance.costs.quotes.layout import (
    COLUMN_BY_LABEL,
    COLUMN_LABELS,
    HEADER_BY_LABEL,
    HEADER_LABELS,
    MAX_FILE_BYTES,
    MAX_LENGTHS,
    MAX_PROBLEMS,
    MAX_UNPACKED_BYTES,
    OTHER_SPELLINGS,
    label_key,
)
from compliance.costs.quotes.reading import (
    QuoteFile,
    QuoteFileError,
    QuoteRowIn,
    read_quote,
)
from compliance.costs.quotes.template import (
    FIRST_ITEM_ROW,
    KindLabel,
    TemplateWords,
    quote_template,
    quote_workbook,
)

KINDS = {
    "fence": "fence",
    "safety fence (mesh panels and posts)": "fence",
    "안전 펜스": "fence",
    "light_curtain": "light_curtain",
    "safety light curtain (iec 61496 type 4 or 2)": "light_curtain",
    "안전 라이트 커튼": "light_curtain",
}
HEADINGS = list(COLUMN_LABELS)  # the fields, in the template's order
ENGLISH = [COLUMN_LABELS[name] for name in HEADINGS]
# The Korean words the pages' translation should give (each one the reader
# knows; see ``reading.OTHER_SPELLINGS``).
KOREAN = {
    "Quote": "견적",
    "Supplier quote": "공급사 견적",
    "Supplier": "공급사",
    "Quote number": "견적 번호",
    "Quote date": "견적일",
    "Valid until": "유효기한",
    "optional": "선택",
    "Kind": "종류",
    "Maker": "제조사",
    "Part number": "부품 번호",
    "Model": "모델",
    "Description": "설명",
    "Unit": "단위",
    "Unit price": "단가",
    "Unit price to": "단가 상한",
    "Currency": "통화",
    "Minimum order": "최소 주문 수량",
    "Lead time (weeks)": "리드타임(주)",
    "piece": "개",
    "m": "m",
    "job": "건",
    "Item kinds": "품목 종류",
    "Safety fence (mesh panels and posts)": "안전 펜스",
}
FIRST = 8  # the first item row of ``sheet`` (as of the template)


def item(**values) -> list:
    """One row of the item table, in ``HEADINGS`` order."""
    row = {
        "part_number": "C4C-SA06010A10000",
        "unit": "piece",
        "price_low": "1200000",
        "currency": "KRW",
    } | values
    return [row.get(name) for name in HEADINGS]


def sheet(
    items,
    *,
    supplier="ACME Safety",
    number="Q-2026-001",
    quoted_on=date(2026, 11, 2),
    valid_until=None,
    headings=ENGLISH,
    labels=("Supplier", "Quote number", "Quote date", "Valid until"),
) -> list[list]:
    return [
        ["Supplier quote"],
        [labels[0], supplier],
        [labels[1], number],
        [labels[2], quoted_on],
        [labels[3], valid_until],
        [],
        list(headings),
        *items,
    ]


def xlsx(rows) -> bytes:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def as_csv(rows, *, delimiter=",", bom=True) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter)
    for row in rows:
        writer.writerow(
            [
                "" if v is None else v.isoformat() if isinstance(v, date) else v
                for v in row
            ]
        )
    return (("\ufeff" if bom else "") + out.getvalue()).encode()


def read(data: bytes, filename: str = "quote.xlsx") -> QuoteFile:
    return read_quote(data, filename, kinds=KINDS)


def problems(data: bytes, filename: str = "quote.xlsx") -> list[tuple]:
    with pytest.raises(QuoteFileError) as caught:
        read(data, filename)
    return [(p.row, p.column, p.message.render()) for p in caught.value.problems]


def rewrite(data: bytes, change) -> bytes:
    """The workbook with each member's bytes passed through ``change(name,
    bytes)``."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(data)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            target.writestr(info.filename, change(info.filename, source.read(info)))
    return out.getvalue()


# --- What reads --------------------------------------------------------------


def test_a_filled_in_template_reads_as_typed():
    book = load_workbook(io.BytesIO(quote_template(TemplateWords())))
    ws = book.worksheets[0]
    ws["B2"], ws["B3"] = "ACME Safety", "Q-2026-001"
    ws["B4"], ws["B5"] = date(2026, 11, 2), date(2027, 1, 31)
    ws.append(item(kind="Fence", part_number="", unit="m", price_low="60-120"))
    ws.append(
        item(
            maker="SICK",
            model="deTec4 Core",
            description="Light curtain, 14 mm",
            price_low=1_150_000,
            price_high=1_300_000,
            minimum_order=2,
            lead_time="4–6",
        )
    )
    out = io.BytesIO()
    book.save(out)

    quote = read(out.getvalue())

    assert quote == QuoteFile(
        supplier="ACME Safety",
        number="Q-2026-001",
        quoted_on=date(2026, 11, 2),
        valid_until=date(2027, 1, 31),
        rows=(
            QuoteRowIn(
                row=8,
                kind="fence",
                unit="m",
                price_low=Decimal("60.00"),
                price_high=Decimal("120.00"),
                currency="KRW",
            ),
            QuoteRowIn(
                row=9,
                maker="SICK",
                part_number="C4C-SA06010A10000",
                model="deTec4 Core",
                description="Light curtain, 14 mm",
                unit="piece",
                price_low=Decimal("1150000.00"),
                price_high=Decimal("1300000.00"),
                currency="KRW",
                minimum_order=Decimal("2.00"),
                lead_time_weeks_low=Decimal("4.0"),
                lead_time_weeks_high=Decimal("6.0"),
            ),
        ),
    )


def stored_quote(**changes) -> QuoteFile:
    return QuoteFile(
        supplier="ACME Safety",
        number="Q-2026-001",
        quoted_on=date(2026, 11, 2),
        valid_until=None,
        rows=(
            QuoteRowIn(
                row=8,
                kind="light_curtain",
                maker="SICK",
                part_number="00123",
                model="deTec4 Core",
                description="Light curtain, 14 mm; 설명",
                unit="piece",
                price_low=Decimal("1150000.50"),
                price_high=Decimal("1300000.00"),
                currency="KRW",
                minimum_order=Decimal("2.5"),
                lead_time_weeks_low=Decimal("4.5"),
                lead_time_weeks_high=Decimal("6"),
            ),
            QuoteRowIn(
                row=9,
                kind="fence",
                unit="m",
                price_low=Decimal("0"),
                price_high=Decimal("0"),
                currency="USD",
            ),
            QuoteRowIn(
                row=12,
                part_number="1-2",
                unit="job",
                price_low=Decimal("99.99"),
                price_high=Decimal("99.99"),
                currency="EUR",
                lead_time_weeks_low=Decimal("3"),
                lead_time_weeks_high=Decimal("3"),
            ),
        ),
    ).model_copy(update=changes)


@pytest.mark.parametrize(
    "words",
    [TemplateWords(), TemplateWords.translated(lambda s: KOREAN.get(s, s))],
    ids=["english", "korean"],
)
def test_an_export_reads_back_equal(words):
    quote = stored_quote(valid_until=date(2027, 1, 31))
    assert read(quote_workbook(quote, words)) == quote


def test_an_export_of_rows_out_of_place_writes_them_in_order_below_the_headings():
    quote = stored_quote()
    moved = quote.model_copy(
        update={
            "rows": tuple(
                r.model_copy(update={"row": n})
                for n, r in zip((3, 4, 5), quote.rows, strict=True)
            )
        }
    )
    read_back = read(quote_workbook(moved, TemplateWords()))
    assert [r.row for r in read_back.rows] == [8, 9, 10]
    assert [r.part_number for r in read_back.rows] == ["00123", "", "1-2"]


def test_the_korean_template_shows_korean_words_and_reads_back():
    words = TemplateWords.translated(lambda s: KOREAN.get(s, s))
    book = load_workbook(io.BytesIO(quote_template(words)))
    quote_sheet, guide = book.worksheets
    assert (quote_sheet.title, guide.title) == ("견적", "품목 종류")
    assert [c.value for c in quote_sheet[7]][:3] == ["종류", "제조사", "부품 번호"]
    # The kinds are listed by their Korean name and their English one.
    listed = {row[0]: row[1:] for row in guide.iter_rows(values_only=True)}
    assert listed["fence"] == ("안전 펜스", "Safety fence (mesh panels and posts)")


def test_korean_labels_units_currency_and_dates_read():
    headings = [KOREAN[COLUMN_LABELS[name]] for name in HEADINGS]
    data = xlsx(
        sheet(
            [
                item(kind="안전 펜스", part_number="", unit="m", currency="원"),
                item(unit="개", currency="KRW", lead_time="4~6주"),
                item(unit="식", currency="krw"),
            ],
            labels=("공급사", "견적 번호", "견적일", "유효기한"),
            quoted_on="2026. 11. 2.",
            valid_until="2027년 1월 31일",
            headings=headings,
        )
    )
    quote = read(data)
    assert (quote.quoted_on, quote.valid_until) == (
        date(2026, 11, 2),
        date(2027, 1, 31),
    )
    assert [(r.kind, r.unit, r.currency) for r in quote.rows] == [
        ("fence", "m", "KRW"),
        ("", "piece", "KRW"),
        ("", "job", "KRW"),
    ]
    assert (quote.rows[1].lead_time_weeks_low, quote.rows[1].lead_time_weeks_high) == (
        Decimal("4.0"),
        Decimal("6.0"),
    )


def test_columns_in_any_order_with_unknown_ones_and_blank_rows_between():
    headings = ["Notes", "Currency", "Unit price", "Unit", "Part number", "Amount"]
    data = xlsx(
        sheet(
            [
                ["call Kim", "USD", 12.5, "pcs", "A-1", 25],
                [],
                ["only a note", "  ", None, None, None, 99],
                ["", "EUR", "7", "ea", "B-2", None],
            ],
            headings=headings,
        )
    )
    rows = read(data).rows
    assert [(r.row, r.part_number, r.price_low, r.currency) for r in rows] == [
        (8, "A-1", Decimal("12.50"), "USD"),
        (11, "B-2", Decimal("7.00"), "EUR"),
    ]


def test_a_csv_with_a_bom_reads_like_the_sheet():
    rows = sheet([item(price_low="1,200.50", lead_time="4-6")])
    quote = read(as_csv(rows), "quote.csv")
    assert quote.supplier == "ACME Safety"
    assert quote.rows[0].price_low == Decimal("1200.50")
    assert read(as_csv(rows, bom=False), "quote.csv") == quote


def test_a_semicolon_csv_reads_but_its_comma_is_not_taken_for_thousands():
    rows = sheet([item(price_low="1 200"), item(price_low="1,200")])
    assert problems(as_csv(rows, delimiter=";"), "quote.csv") == [
        (
            9,
            "Unit price",
            "1,200 can be read more than one way: write it without thousands "
            "separators and with a point for decimals (e.g. 1200.50).",
        )
    ]
    single = read(as_csv(rows[:-1], delimiter=";"), "quote.csv")
    assert single.rows[0].price_low == Decimal("1200.00")


def test_a_csv_cell_escaped_with_an_apostrophe_reads_as_its_text():
    rows = sheet([item(description="'=1+1", model="'-40 C")])
    row = read(as_csv(rows), "quote.csv").rows[0]
    assert (row.description, row.model) == ("=1+1", "-40 C")


@pytest.mark.parametrize(
    ("written", "low", "high"),
    [
        ("1,200", "1200", "1200"),
        ("1 200", "1200", "1200"),
        ("1\u00a0200.5", "1200.5", "1200.5"),
        ("1,200–1,500", "1200", "1500"),
        ("1200-1500", "1200", "1500"),
        ("1 200 ~ 1 500", "1200", "1500"),
        (1200, "1200", "1200"),
        (0.1, "0.1", "0.1"),
    ],
)
def test_prices_read_with_thousands_separators_and_ranges(written, low, high):
    row = read(xlsx(sheet([item(price_low=written)]))).rows[0]
    assert (row.price_low, row.price_high) == (Decimal(low), Decimal(high))


def test_lead_times_read_as_one_figure_or_a_range():
    data = xlsx(
        sheet(
            [
                item(lead_time=3),
                item(lead_time="4–6"),
                item(lead_time="2.5-3 weeks"),
                item(lead_time=None),
            ]
        )
    )
    assert [
        (r.lead_time_weeks_low, r.lead_time_weeks_high) for r in read(data).rows
    ] == [
        (Decimal("3"), Decimal("3")),
        (Decimal("4"), Decimal("6")),
        (Decimal("2.5"), Decimal("3")),
        (None, None),
    ]


def test_a_thousand_random_prices_read_back_exactly():
    chance = random.Random(29)
    prices = [
        Decimal(chance.randrange(0, 10 ** chance.randint(1, 14))).scaleb(-2)
        for _ in range(1000)
    ]
    # As an XLSX writer stores them (numbers), and as typed text.
    as_numbers = [item(price_low=p) for p in prices]
    as_floats = [item(price_low=float(p)) for p in prices]
    as_text = [item(price_low=str(p)) for p in prices]
    for items in (as_numbers, as_floats, as_text):
        rows = read(xlsx(sheet(items))).rows
        assert [r.price_low for r in rows] == prices


def test_a_quote_exported_with_random_prices_reads_back_exactly():
    chance = random.Random(13)
    rows = tuple(
        QuoteRowIn(
            row=FIRST_ITEM_ROW + n,
            part_number=f"P-{n}",
            unit="piece",
            price_low=(low := Decimal(chance.randrange(10**12)).scaleb(-2)),
            price_high=low + Decimal(chance.randrange(10**6)).scaleb(-2),
            currency="USD",
        )
        for n in range(300)
    )
    quote = stored_quote(rows=rows)
    assert read(quote_workbook(quote, TemplateWords())) == quote


# --- Formulas ---------------------------------------------------------------


def test_a_formula_is_read_as_its_text_and_never_as_a_price():
    book = Workbook()
    for row in sheet([item(description="=1+1"), item(price_low="=1+1")]):
        book.active.append(row)
    assert book.active["E8"].data_type == "f"  # a real formula in the file
    out = io.BytesIO()
    book.save(out)
    assert problems(out.getvalue()) == [
        (9, "Unit price", "=1+1 is a formula, not a number: write the figure itself.")
    ]
    del book.active["G9"]
    book.active["G9"] = 5
    out = io.BytesIO()
    book.save(out)
    assert read(out.getvalue()).rows[0].description == "=1+1"


TEXTS_THAT_LOOK_LIKE_FORMULAS = [
    '=HYPERLINK("http://example.com","click")',
    "+1",
    "-1",
    "@x",
]


@pytest.mark.parametrize("text", TEXTS_THAT_LOOK_LIKE_FORMULAS)
def test_an_export_never_writes_a_formula_and_reads_back_the_text(text):
    quote = stored_quote()
    first = quote.rows[0].model_copy(
        update={"description": text, "maker": text, "model": text}
    )
    quote = quote.model_copy(
        update={"supplier": text, "number": text, "rows": (first,)}
    )
    data = quote_workbook(quote, TemplateWords())

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        xml = archive.read("xl/worksheets/sheet1.xml").decode()
        styles = archive.read("xl/styles.xml").decode()
    assert "<f>" not in xml and "<f " not in xml
    # Each is a string cell in a style with the quote prefix (as a typed
    # apostrophe is kept), so editing it keeps it text.
    quoted = re.findall(r"<xf [^>]*quotePrefix=\"1\"", styles)
    assert quoted
    book = load_workbook(io.BytesIO(data))
    for cell in ("B2", "B3", "B8", "D8", "E8"):
        assert book.worksheets[0][cell].data_type == "s"
        assert book.worksheets[0][cell].quotePrefix
    assert read(data) == quote


# --- What is refused ------------------------------------------------------


def refused(*items, **header) -> list[tuple]:
    return problems(xlsx(sheet(list(items), **header)))


def test_a_negative_price_is_refused():
    assert refused(item(price_low=-5)) == [(8, "Unit price", "-5 is below zero.")]
    assert refused(item(price_low="-5")) == [(8, "Unit price", "-5 is below zero.")]


def test_a_price_to_below_the_price_is_refused():
    assert refused(item(price_low=1500, price_high=1200)) == [
        (8, "Unit price to", "The unit price to, 1200, is below the unit price 1500.")
    ]
    assert refused(item(price_low="1500-1200")) == [
        (8, "Unit price", "The range 1500–1200 ends below its start.")
    ]


def test_a_range_given_twice_is_refused():
    assert refused(item(price_low="1200-1500", price_high=1600)) == [
        (
            8,
            "Unit price to",
            "The unit price is already a range: leave the unit price to empty, or "
            "give one figure in each.",
        )
    ]


def test_an_unknown_currency_is_refused():
    assert refused(item(currency="GBP")) == [
        (
            8,
            "Currency",
            "GBP is not a currency quotes are kept in: use KRW, USD or EUR.",
        )
    ]
    assert refused(item(currency=None)) == [(8, "Currency", "Give the Currency.")]


@pytest.mark.parametrize("text", ["call us", "1.200,50", "1,5", "12 EUR"])
def test_text_in_a_price_cell_is_refused(text):
    [(row, column, message)] = refused(item(price_low=text))
    assert (row, column) == (8, "Unit price")
    assert message.startswith(f"{text} ")
    assert "not a number" in message or "more than one way" in message


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (True, "TRUE is not a number"),
        ("nan", "nan is not a number"),
        ("inf", "inf is not a number"),
        (date(2026, 4, 6), "2026-04-06 is a date, not a number"),
    ],
)
def test_a_boolean_nan_infinity_or_date_is_not_a_price(value, message):
    [(row, column, text)] = refused(item(price_low=value))
    assert (row, column) == (8, "Unit price")
    assert text.startswith(message)


def test_more_decimal_places_than_the_model_keeps_are_refused():
    assert refused(
        item(price_low=12.345),
        item(price_low="1.200"),
        item(lead_time="4.25"),
        item(minimum_order="0.001"),
    ) == [
        (8, "Unit price", "12.345 has too many decimal places: at most 2."),
        (9, "Unit price", "1.200 has too many decimal places: at most 2."),
        (10, "Lead time (weeks)", "4.25 has too many decimal places: at most 1."),
        (11, "Minimum order", "0.001 has too many decimal places: at most 2."),
    ]


def test_a_price_too_large_for_the_model_is_refused():
    assert refused(item(price_low=10**12)) == [
        (
            8,
            "Unit price",
            "1000000000000 is too large: below 1,000,000,000,000.",
        )
    ]


def test_a_zero_minimum_order_is_refused():
    assert refused(item(minimum_order=0)) == [
        (8, "Minimum order", "The minimum order must be above zero.")
    ]


def test_a_lead_time_the_spreadsheet_turned_into_a_date_is_refused():
    [(row, column, message)] = refused(item(lead_time=date(2026, 4, 6)))
    assert (row, column) == (8, "Lead time (weeks)")
    assert message.startswith("2026-04-06 is a date, not a number")


def test_a_row_with_neither_part_number_nor_model_nor_kind_is_refused():
    assert refused(item(part_number=None, description="Light curtain")) == [
        (8, None, "The row names no part number, model or kind: give at least one.")
    ]


def test_an_unknown_kind_is_refused():
    assert refused(item(kind="Widget")) == [
        (
            8,
            "Kind",
            "Widget is not an item kind: use a key or a name from the list of item "
            "kinds.",
        )
    ]


def test_an_unknown_or_missing_unit_is_refused():
    assert refused(item(unit="box"), item(unit=None)) == [
        (8, "Unit", "box is not a unit: use piece, m or job."),
        (9, "Unit", "Give the Unit."),
    ]


def test_a_missing_price_is_refused():
    assert refused(item(price_low=None)) == [(8, "Unit price", "Give the Unit price.")]


@pytest.mark.parametrize("value", ["next week", "02/11/2026", 46000, "2026-13-01"])
def test_a_quote_date_that_is_not_a_date_is_refused(value):
    [(row, column, message)] = refused(item(), quoted_on=value)
    assert (row, column) == (4, "Quote date")
    assert message.endswith("is not a date: write it as YYYY-MM-DD.")


def test_the_quote_date_is_required_and_valid_until_not_before_it():
    assert refused(item(), quoted_on=None, valid_until=date(2027, 1, 1)) == [
        (4, "Quote date", "Give the Quote date.")
    ]
    assert refused(item(), valid_until=date(2026, 11, 1)) == [
        (
            5,
            "Valid until",
            "The quote is valid until 2026-11-01, before its date 2026-11-02.",
        )
    ]
    assert read(xlsx(sheet([item()], valid_until=None))).valid_until is None


def test_a_missing_supplier_or_quote_number_is_refused():
    assert refused(item(), supplier=None, number="  ") == [
        (2, "Supplier", "Give the Supplier."),
        (3, "Quote number", "Give the Quote number."),
    ]
    rows = sheet([item()])
    del rows[1]  # no supplier label at all
    assert problems(xlsx(rows)) == [(None, "Supplier", "Give the Supplier.")]


@pytest.mark.parametrize("name", ["maker", "part_number", "model", "description"])
def test_a_text_longer_than_the_model_keeps_is_refused(name):
    limit = MAX_LENGTHS[name]
    assert read(xlsx(sheet([item(**{name: "x" * limit})]))).rows
    column = COLUMN_LABELS[name]
    assert refused(item(**{name: "x" * (limit + 1)})) == [
        (8, column, f"{column} has {limit + 1} characters; at most {limit}.")
    ]


def test_a_supplier_or_number_longer_than_the_model_keeps_is_refused():
    assert refused(item(), supplier="s" * 121, number="n" * 61) == [
        (2, "Supplier", "Supplier has 121 characters; at most 120."),
        (3, "Quote number", "Quote number has 61 characters; at most 60."),
    ]


def test_the_lengths_are_the_models():
    from compliance.costs.quotes.models import QuoteRow, SupplierQuote

    for name, limit in MAX_LENGTHS.items():
        model = SupplierQuote if name in ("supplier", "number") else QuoteRow
        assert model._meta.get_field(name).max_length == limit, name


def test_more_than_ten_thousand_rows_are_refused_quickly():
    book = Workbook(write_only=True)
    ws = book.create_sheet()
    for row in sheet([]):
        ws.append(row)
    line = item()
    for _ in range(10_001):
        ws.append(line)
    out = io.BytesIO()
    book.save(out)
    started = time.perf_counter()
    assert problems(out.getvalue()) == [
        (
            FIRST + 10_000,
            None,
            "The item table has more than 10,000 rows: split the quote into "
            "smaller files.",
        )
    ]
    assert time.perf_counter() - started < 10


def test_a_file_over_the_size_limit_is_refused_unread():
    data = as_csv(sheet([item()])) + b" " * MAX_FILE_BYTES
    assert problems(data, "quote.csv") == [
        (
            None,
            None,
            "The file is larger than 5 MB: split the quote into smaller files.",
        )
    ]


def test_a_zip_bomb_is_refused_from_the_zip_directory(monkeypatch):
    padding = b" " * (MAX_UNPACKED_BYTES + 1)

    def inflate(name: str, data: bytes) -> bytes:
        if name == "xl/worksheets/sheet1.xml":
            return data.replace(b"<sheetData>", b"<sheetData>" + padding, 1)
        return data

    bomb = rewrite(xlsx(sheet([item()])), inflate)
    assert len(bomb) < 200_000

    def never(*args, **kwargs):
        raise AssertionError("openpyxl opened the bomb")

    monkeypatch.setattr(reading, "load_workbook", never)
    assert problems(bomb) == [
        (None, None, "The workbook unpacks to more than 50 MB: it is not a quote.")
    ]


NOT_A_QUOTE = (
    None,
    None,
    "This is neither an XLSX workbook nor a CSV file: save the quote as .xlsx or "
    "as CSV UTF-8.",
)
BROKEN = (
    None,
    None,
    "The workbook cannot be read: save it again as .xlsx (Excel workbook).",
)


@pytest.mark.parametrize(
    ("data", "filename", "problem"),
    [
        (b"%PDF-1.7\n...", "quote.pdf", NOT_A_QUOTE),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100, "quote.xls", NOT_A_QUOTE),
        (b"not a workbook", "quote.xlsx", NOT_A_QUOTE),
        (b"PK\x03\x04 truncated", "quote.xlsx", BROKEN),
    ],
    ids=["pdf", "xls", "text-named-xlsx", "broken-zip"],
)
def test_a_file_that_is_neither_xlsx_nor_csv_is_refused(data, filename, problem):
    assert problems(data, filename) == [problem]


def test_a_zip_that_is_not_a_workbook_is_refused():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("hello.txt", "hello")
    assert problems(out.getvalue()) == [BROKEN]


def test_a_csv_that_is_not_utf8_is_refused():
    data = "공급사,ACME\n".encode("cp949")
    assert problems(data, "quote.csv") == [
        (None, None, "The file is not UTF-8 text: save it as CSV UTF-8.")
    ]


def test_an_empty_table_is_refused():
    assert refused() == [(7, None, "The item table has no rows.")]


def test_a_table_without_its_headings_is_refused():
    rows = sheet([item()])
    rows[6] = ["What", "we", "offer"]
    assert problems(xlsx(rows)) == [
        (
            None,
            None,
            "No item table found: in the first 100 rows there is no row of column "
            "headings (Kind, Part number, Unit, Unit price, Currency …).",
        )
    ]


def test_missing_and_doubled_columns_are_refused():
    headings = ["Part number", "Unit", "Unit price", "Unit", "Notes"]
    assert problems(xlsx(sheet([["A-1", "ea", 5, "ea"]], headings=headings))) == [
        (7, "Unit", "The column Unit is given twice."),
        (7, "Currency", "The column Currency is missing."),
    ]
    headings = ["Maker", "Unit", "Unit price", "Currency"]
    assert problems(xlsx(sheet([["SICK", "ea", 5, "USD"]], headings=headings))) == [
        (
            7,
            None,
            "The table needs a Kind, Part number or Model column to tell what each "
            "row is.",
        )
    ]


def test_every_problem_is_listed_up_to_the_cap():
    found = problems(xlsx(sheet([item(currency="GBP", unit="box")] * 40)))
    assert len(found) == MAX_PROBLEMS + 1
    assert found[:2] == [
        (8, "Unit", "box is not a unit: use piece, m or job."),
        (
            8,
            "Currency",
            "GBP is not a currency quotes are kept in: use KRW, USD or EUR.",
        ),
    ]
    assert found[-1] == (None, None, "… and 30 more problems.")


def test_a_stale_dimension_does_not_hide_rows():
    data = rewrite(
        xlsx(sheet([item(), item(), item()])),
        lambda name, data: (
            re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:K8"', data)
            if name.startswith("xl/worksheets/")
            else data
        ),
    )
    assert [r.row for r in read(data).rows] == [8, 9, 10]


def test_the_labels_name_one_thing_each():
    spellings = [
        label_key(s)
        for labels in (HEADER_LABELS, COLUMN_LABELS)
        for name, label in labels.items()
        for s in (label, *OTHER_SPELLINGS.get(name, ()))
    ]
    assert len(spellings) == len(set(spellings))
    assert len(spellings) == len(HEADER_BY_LABEL) + len(COLUMN_BY_LABEL)
    # The Korean words the pages should use are among the spellings read.
    names = {label: name for name, label in (HEADER_LABELS | COLUMN_LABELS).items()}
    read_as = HEADER_BY_LABEL | COLUMN_BY_LABEL
    for english, korean in KOREAN.items():
        if english in names:
            assert read_as[label_key(korean)] == names[english], korean


def test_the_template_lists_the_catalogue_kinds_by_default():
    words = TemplateWords()
    assert words.kinds[0] == KindLabel(
        key="fence", names=("Safety fence (mesh panels and posts)",)
    )
