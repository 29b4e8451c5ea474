"""Importing Annex K Table K.1 from an organisation's licensed copy.

No public source reproduced Table K.1 (iso13849_pl_verification.json: every
cell null), so every table here is MADE UP for the tests: the numbers only
have the shape of the real table (PFHd falling as the MTTFd rises) and are not
ISO data.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from compliance.calculators.base import Certainty
from compliance.calculators.iso13849_k1 import (
    HEADER,
    K1ImportError,
    K1Row,
    K1Table,
    k1_pfhd,
    parse_k1_csv,
    to_csv,
)
from compliance.calculators.iso13849_verify import (
    CALCULATORS,
    PlVerifyInput,
    pl_verify,
)

FAKE = "FAKE TEST TABLE - not ISO data"
HEADER_LINE = (
    "mttfd_years,cat_B,cat_1,cat_2_low,cat_2_medium,cat_3_low,cat_3_medium,cat_4_high"
)
# Made-up values, NOT Table K.1.
FAKE_CSV = "\n".join(
    [
        HEADER_LINE,
        "3,9e-05,,8e-05,7e-05,6e-05,5e-05,",
        "10,3e-05,,2.5e-05,2e-05,1.5e-05,1e-05,",
        "27,9e-06,,8e-06,3e-06,2e-06,5e-07,",
        "30,,2e-06,7e-06,2.5e-06,1.5e-06,9e-08,9e-09",
        "50,,1.5e-06,6e-06,2e-06,1e-06,4e-08,5e-09",
        "100,,1e-06,5e-06,1.5e-06,8e-07,2e-08,2e-09",
    ]
)


@pytest.fixture
def table() -> K1Table:
    return parse_k1_csv(FAKE_CSV, source=FAKE)


def verify(*subsystems, k1=None, plr=None):
    return pl_verify(PlVerifyInput(subsystems=subsystems, plr=plr), k1)


def test_header_is_the_documented_one():
    assert ",".join(HEADER) == HEADER_LINE


def test_a_csv_is_parsed_into_rows(table):
    assert table.source == FAKE
    assert [row.mttfd_years for row in table.rows] == [3, 10, 27, 30, 50, 100]
    assert table.rows[0].cat_1 is None  # not applicable below 30 years
    assert table.rows[4].cat_3_medium == 4e-08


def test_export_round_trips(table):
    assert parse_k1_csv(to_csv(table), source=table.source) == table
    assert to_csv(table).splitlines()[0] == HEADER_LINE


def test_a_byte_order_mark_crlf_blank_lines_and_spaces_are_accepted():
    text = (
        "\ufeff" + FAKE_CSV.replace("\n", "\r\n").replace("30,,", "30 , ,") + "\r\n\r\n"
    )
    assert len(parse_k1_csv(text, source=FAKE).rows) == 6


# --- Row-level errors ------------------------------------------------------------


def errors_of(text: str, source: str = FAKE) -> list[tuple[int, str]]:
    with pytest.raises(K1ImportError) as excinfo:
        parse_k1_csv(text, source=source)
    return excinfo.value.errors


def test_a_wrong_header_is_reported_on_line_1():
    errors = errors_of("mttfd,B,1\n3,1e-5,1e-5")
    assert errors == [(1, "the header must be exactly: " + HEADER_LINE)]


def test_an_empty_file_is_reported():
    assert errors_of("")[0][0] == 1


def test_a_table_without_rows_is_reported():
    assert errors_of(HEADER_LINE + "\n") == [(0, "the table has no rows")]


def test_every_broken_row_is_reported_with_its_line():
    text = "\n".join(
        [
            HEADER_LINE,
            "3,9e-05,,8e-05,7e-05,6e-05,5e-05,",
            "10,abc,,2.5e-05,2e-05,1.5e-05,1e-05,",  # line 3: not a number
            "20,3e-05,,2.5e-05,2e-05,1.5e-05,1e-05",  # line 4: 7 values
            "30,,2e-06,9e-05,2.5e-06,1.5e-06,9e-08,9e-09",  # line 5: cat_2_low rises
            "30,,2e-06,7e-06,2.5e-06,1.5e-06,9e-08,9e-09",  # line 6: MTTFd repeats
            "50,,1.5e-06,6e-06,2e-06,1e-06,4e-08,0.001",  # line 7: PFHd too big
            "3000,,1e-06,5e-06,1.5e-06,8e-07,2e-08,2e-09",  # line 8: MTTFd too big
            "60,,,,,,,",  # line 9: no value
        ]
    )
    errors = errors_of(text)
    lines = [line for line, _message in errors]
    assert lines == [3, 4, 5, 6, 7, 8, 9]
    messages = dict(errors)
    assert "cat_B: 'abc' is not a number" in messages[3]
    assert "expected 8 values, found 7" in messages[4]
    # Line 3's good values still count: cat_2_low was 2.5e-5 at 10 years.
    assert "cat_2_low: the PFHd rises from 2.5e-05 at MTTFd 10 years" in messages[5]
    assert "does not increase" in messages[6]
    assert "cat_4_high: a PFHd of 0.001" in messages[7]
    assert "outside 3 to 2500 years" in messages[8]
    assert "no PFHd value" in messages[9]


@pytest.mark.parametrize("value", ["0", "-1e-7", "nan", "inf", "1e-4"])
def test_a_pfhd_must_lie_between_0_and_1e_4(value):
    errors = errors_of(f"{HEADER_LINE}\n10,{value},,,,,,")
    assert errors[0][0] == 2


def test_more_than_200_rows_are_refused():
    rows = [f"{3 + i * 10},1e-05,,,,,," for i in range(201)]
    errors = errors_of("\n".join([HEADER_LINE, *rows]))
    assert errors[-1] == (202, "the table has more than 200 rows")


def test_a_file_over_64_kb_is_refused():
    errors = errors_of(HEADER_LINE + "\n" + " " * 70_000)
    assert errors == [(0, "the file is larger than 64 KB")]


def test_the_table_must_name_whose_copy_it_is():
    assert errors_of(FAKE_CSV, source="  ")[0][0] == 0


def test_a_table_built_directly_is_checked_too():
    with pytest.raises(ValidationError, match="never rise"):
        K1Table(
            source=FAKE,
            rows=(K1Row(mttfd_years=10, cat_B=1e-5), K1Row(mttfd_years=20, cat_B=2e-5)),
        )
    with pytest.raises(ValidationError, match="increase"):
        K1Table(source=FAKE, rows=(K1Row(mttfd_years=10), K1Row(mttfd_years=10)))


# --- Lookup ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mttfd", "row", "pfhd"),
    [(61.55, 50, 4e-08), (50, 50, 4e-08), (99.9, 50, 4e-08), (2500, 100, 2e-08)],
)
def test_lookup_reads_the_row_at_or_below_the_mttfd(table, mttfd, row, pfhd):
    reading = k1_pfhd(table, "cat_3_medium", mttfd)
    assert (reading.row_mttfd_years, reading.pfhd_per_hour) == (row, pfhd)
    assert "conservative" in reading.line.text
    assert FAKE in reading.line.render()


def test_lookup_below_the_first_row_or_in_an_empty_cell_gives_nothing(table):
    assert k1_pfhd(table, "cat_3_medium", 2.5).pfhd_per_hour is None
    assert k1_pfhd(table, "cat_1", 10).pfhd_per_hour is None


def test_lookup_of_an_unknown_column_is_an_error(table):
    with pytest.raises(ValueError):
        k1_pfhd(table, "cat_5", 50)


# --- In the verification --------------------------------------------------------------


CAT3 = {"category": "3", "mttfd_years": 61.55, "dcavg_percent": 95, "ccf_points": 80}


def test_table_k1_gives_a_designed_subsystem_its_pfhd_and_pl(table):
    without = verify(CAT3).subsystems[0]
    with_k1 = verify(CAT3, k1=table).subsystems[0]
    assert (without.pl, without.pfhd_basis, without.pfhd_per_hour) == (
        "d",
        "pl_range",
        None,
    )
    # The made-up row of 50 years gives 4e-8 /h: PL e, which the simplified
    # table cannot give for Category 3.
    assert (with_k1.pl, with_k1.pfhd_basis, with_k1.pfhd_per_hour) == (
        "e",
        "table_k1",
        4e-08,
    )
    assert with_k1.pfhd_min_per_hour == with_k1.pfhd_max_per_hour == 4e-08
    assert with_k1.certainty is Certainty.ONE_SOURCE  # one imported copy


def test_with_table_k1_the_function_sums_every_pfhd_and_names_the_table(table):
    (calc,) = CALCULATORS
    result = pl_verify(calc.input_model.model_validate(calc.example), table)
    # Contactors: MTTFd 61.55 y, Cat 3, DC 99 → the DC-medium column: 4e-8.
    assert result.combination == "pfhd_sum"
    assert result.pfhd_per_hour == pytest.approx(3.7e-9 + 2.31e-9 + 4e-8)
    assert result.pl == "e"
    assert result.k1_source == FAKE


def test_the_pl_from_table_k1_stays_within_the_category(table):
    # A made-up table whose Cat 2 value would mean PL e: Category 2 stops at d.
    k1 = K1Table(source=FAKE, rows=(K1Row(mttfd_years=30, cat_2_medium=5e-8),))
    cat2 = {"category": "2", "mttfd_years": 40, "dcavg_percent": 95, "ccf_points": 70}
    (sub,) = verify(cat2, k1=k1).subsystems
    assert (sub.pl, sub.pfhd_per_hour) == ("d", 5e-08)
    assert any("PL e → d" in s.formula for s in sub.steps)


def test_a_cat_b_channel_with_mttfd_high_is_read_below_30_years(table):
    (sub,) = verify({"category": "B", "mttfd_years": 80}, k1=table).subsystems
    # Row 27 years of the made-up table: 9e-6 /h, PL b.
    assert (sub.pl, sub.pfhd_per_hour) == ("b", 9e-06)


def test_without_a_value_in_table_k1_the_simplified_procedure_is_used():
    k1 = K1Table(source=FAKE, rows=(K1Row(mttfd_years=30, cat_3_low=1e-6),))
    (sub,) = verify(CAT3, k1=k1).subsystems
    assert (sub.pl, sub.pfhd_basis) == ("d", "pl_range")
    assert any("gives no PFHd in column cat_3_medium" in s.render() for s in sub.steps)
    assert verify(CAT3, k1=k1).k1_source is None


def test_certified_subsystems_ignore_table_k1(table):
    result = verify({"pl": "e", "pfhd_per_hour": 3.7e-9}, k1=table)
    assert result.subsystems[0].pfhd_basis == "maker"
    assert result.k1_source is None


def test_a_function_table_k1_puts_below_pl_a_is_refused(table):
    # Two Cat B subsystems at MTTFd 5 y: each 9e-5 /h in the made-up table.
    cat_b = {"category": "B", "mttfd_years": 5}
    inp = PlVerifyInput(subsystems=[cat_b, cat_b])  # fine without a table: PL a
    assert pl_verify(inp).pl == "a"
    with pytest.raises(ValidationError) as excinfo:
        pl_verify(inp, table)
    assert excinfo.value.errors()[0]["loc"] == ("subsystems",)
    assert "does not reach PL a" in str(excinfo.value)
