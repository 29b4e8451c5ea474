"""The library's CSV (pure): what is written reads back the same, and what
cannot be read is an error naming its row and column."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from compliance.safety_functions.library import csv_io
from compliance.safety_functions.library.catalogue import STARTING_ENTRIES
from compliance.safety_functions.library.csv_io import (
    COLUMNS,
    LibraryFileError,
    read_library_csv,
    write_library_csv,
)

HEADER = "key,kind,maker,model,pl,pfhd_per_hour,response_time_ms\r\n"


def read(text: str):
    return read_library_csv(text.encode("utf-8"))


def errors_of(text: str) -> list[tuple[int, str]]:
    return [(e.row, e.column) for e in read(text).errors]


def test_the_starting_entries_read_back_as_written():
    rows = [
        {**e.as_fields(), "price_low": Decimal("1200.50"), "price_high": Decimal(1500)}
        for e in STARTING_ENTRIES
    ]
    rows[0] |= {"currency": "EUR", "price_date": date(2026, 11, 2), "notes": "=1+2"}
    parsed = read_library_csv(write_library_csv(rows).encode("utf-8-sig"))
    assert parsed.errors == ()
    assert len(parsed.rows) == len(rows)
    for written, row in zip(rows, parsed.rows, strict=True):
        for name in COLUMNS:
            expected = written.get(name)
            got = row.values[name]
            if expected in (None, ""):
                assert got in (None, ""), (name, got)
            else:
                assert got == expected, (written["key"], name, got, expected)
    # A text a spreadsheet would run as a formula is written quoted, read back.
    assert "'=1+2" in write_library_csv(rows[:1])
    assert parsed.rows[0].values["notes"] == "=1+2"


def test_rows_are_numbered_as_a_spreadsheet_numbers_them():
    text = HEADER + "A-1,light_curtain,SICK,C4C,e,3.7E-09,13\r\n"
    text += "A-2,light_curtain,SICK,C4C,x,3.7E-09,13\r\n"
    assert errors_of(text) == [(3, "pl")]


def test_each_bad_cell_is_an_error_of_its_row_and_column():
    text = HEADER
    text += "A-1,light_curtain,SICK,C4C,PL f,3.7E-09,13\r\n"  # no PL f
    text += "A-2,conveyor,SICK,C4C,e,3.7E-09,13\r\n"  # unknown kind
    text += "A-3,light_curtain,,C4C,e,3.7E-09,13\r\n"  # maker missing
    text += "A-4,light_curtain,SICK,C4C,e,3;7E-09,1,5\r\n"  # not numbers, extra cell
    assert errors_of(text) == [
        (2, "pl"),
        (3, "kind"),
        (4, "maker"),
        (5, ""),
        (5, "pfhd_per_hour"),
    ]
    message = read(text).errors[0].message.render()
    assert "PL f is not one of a, b, c, d, e" in message


def test_lenient_spellings_of_choices_are_read():
    text = HEADER.replace("\r\n", ",iec61496_type,category\r\n")
    text += "A-1,light_curtain,SICK,C4C,PL E,3.7e-9,13,Type 4,b\r\n"
    (row,) = read(text).rows
    assert (row.values["pl"], row.values["iec61496_type"]) == ("e", 4)
    assert row.values["category"] == "B"
    assert row.values["pfhd_per_hour"] == 3.7e-9


def test_a_key_given_twice_is_an_error_of_the_second_row():
    text = HEADER + "A-1,light_curtain,S,M,,,\r\n" + "A-1,multibeam,S,M,,,\r\n"
    parsed = read(text)
    assert [(e.row, e.column) for e in parsed.errors] == [(3, "key")]
    assert "row 2" in parsed.errors[0].message.render()


def test_unknown_missing_and_repeated_columns_are_errors_of_the_header():
    assert errors_of("key,kind,maker,colour\r\nA,other,S,M\r\n") == [
        (1, "colour"),
        (1, "model"),
    ]
    assert errors_of("key,kind,maker,model,pl,pl\r\n") == [(1, "pl")]


def test_empty_lines_are_skipped_and_blank_cells_are_empty():
    text = HEADER + "\r\n" + "A-1,light_curtain,S,M,,,\r\n,,,,,,\r\n"
    (row,) = read(text).rows
    assert row.values["pl"] == "" and row.values["pfhd_per_hour"] is None


@pytest.mark.parametrize(
    "data",
    [
        b"x" * (csv_io.MAX_BYTES + 1),
        (HEADER + "A,other,S,M,,,\r\n" * (csv_io.MAX_ROWS + 1)).encode(),
        b"\xff\xfekey",
        b"",
    ],
    ids=["too big", "too many rows", "not utf-8", "empty"],
)
def test_a_file_that_cannot_be_read_is_refused_as_a_whole(data):
    with pytest.raises(LibraryFileError):
        read_library_csv(data)


def test_not_a_number_and_not_finite_are_refused():
    for value in ("1,5", "nan", "inf", "abc"):
        with pytest.raises(csv_io.CellError):
            csv_io.read_cell("pfhd_per_hour", value)
        with pytest.raises(csv_io.CellError):
            csv_io.read_cell("price_low", value)
    with pytest.raises(csv_io.CellError):
        csv_io.read_cell("price_date", "02/11/2026")
    with pytest.raises(csv_io.CellError):
        csv_io.read_cell("detection_capability_mm", "14.5")
