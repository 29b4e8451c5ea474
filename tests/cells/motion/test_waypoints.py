"""CSV waypoints read into placed moves (issue 32): the header names the
columns and may state their units; an ambiguous header is refused."""

from __future__ import annotations

import pytest

from cells.motion.errors import ProgramError
from cells.motion.path import Move, Point, segments
from cells.motion.reading import read_program
from tests.cells.motion.support import TARGET


def read(text: str, **options):
    return read_program(text.encode(), format="csv", **options)


@pytest.mark.parametrize(
    ("table", "units"),
    [
        ("x,y,z,speed_mm_s\n400,-300,300,1000\n", None),
        ("x,y,z,speed\n400,-300,300,1000\n", None),  # mm and mm/s unless stated
        ("x,y,z,speed\n400,-300,300,1000\n", "mm"),
        ("x,y,z,speed_mm_s\n0.4,-0.3,0.3,1000\n", "m"),
        ("x_m,y_m,z_m,speed_m_s\n0.4,-0.3,0.3,1\n", None),
        ("x_m,y_m,z_m,speed_m_s\n0.4,-0.3,0.3,1\n", "m"),
        ("X (mm);Y (mm);Z (mm);TCP speed [mm/s]\n400,0;-300;300;1000\n", None),
        ("x\ty\tz\tspeed\n400\t-300\t300\t1000\n", None),
    ],
)
def test_a_row_is_the_same_move_as_the_other_formats(table, units):
    program = read(table, units=units)

    assert program.format == "csv"
    assert program.moves == (
        Move(2, "linear", TARGET, None, 1000.0, table.splitlines()[1]),
    )


def test_a_coordinate_unit_given_leaves_the_speed_in_mm_s_unless_stated():
    program = read("x,y,z,speed\n0.4,-0.3,0.3,250\n", units="m")

    assert (program.moves[0].target, program.moves[0].speed_mm_s) == (TARGET, 250.0)


def test_tool_and_orientation_are_kept_in_the_text_and_a_first_time_gives_no_speed():
    row = "400,-300,300,,gripper,1.5,0,3.14,0"

    program = read(f"x,y,z,speed,tool,time_s,rx,ry,rz\n{row}\n")

    assert program.moves == (Move(2, "linear", TARGET, None, None, row),)


@pytest.mark.parametrize(
    ("header", "times"),
    [
        ("time_s", ("0", "0.6", "0.6")),
        ("time_ms", ("0", "600", "600")),
        ("time", ("2", "2.6", "2.6")),
    ],
)
def test_a_rows_time_gives_its_moves_speed_where_no_speed_is_written(header, times):
    # As a simulation exports a path: 600 mm in 0.6 s is 1,000 mm/s; a
    # written speed wins; a row that stays put is a dwell, with no speed.
    table = (
        f"x,y,z,speed,{header}\n"
        f"400,300,300,,{times[0]}\n"
        f"400,-300,300,,{times[1]}\n"
        f"400,-300,300,,{times[2]}\n"
        "400,300,300,250,9\n"
    )
    speeds = [m.speed_mm_s for m in read(table).moves]
    assert speeds == [None, pytest.approx(1000.0), None, 250.0]


def test_a_time_that_does_not_grow_is_refused_with_its_line():
    with pytest.raises(ProgramError) as caught:
        read("x,y,z,time_s\n400,300,300,1.0\n400,-300,300,0.5\n")
    assert (caught.value.code, caught.value.line) == ("time_not_increasing", 3)


def test_a_speed_past_ten_metres_a_second_is_refused_as_a_unit_mistake():
    # 20 m/s written as mm/s (20,000), or as URScript's v=20.
    with pytest.raises(ProgramError) as caught:
        read("x,y,z,speed_m_s\n400,300,300,20\n")
    assert (caught.value.code, caught.value.line) == ("speed_too_high", 2)
    assert caught.value.params["limit_mm_s"] == 10_000
    with pytest.raises(ProgramError) as caught:
        read_program(
            b"movel(p[0.4, -0.3, 0.3, 0, 3.14, 0], a=1.2, v=20)\n", format="urscript"
        )
    assert (caught.value.code, caught.value.line) == ("speed_too_high", 1)


def test_blank_and_comment_lines_keep_the_line_numbers_of_the_file():
    text = "# exported from the simulation\nx,y,z\n\n0,0,300\n# pick\n400,-300,300\n"

    program = read(text)

    assert [m.line for m in program.moves] == [4, 6]
    assert program.skipped == () and program.not_checked == ()
    assert len(segments(program)) == 1


@pytest.mark.parametrize(
    ("table", "units", "code", "params"),
    [
        ("", None, "empty", {}),
        ("400,-300,300\n", None, "no_header", {}),
        ("x,y,z,spd\n", None, "unknown_column", {"column": "spd"}),
        ("x_cm,y_cm,z_cm\n", None, "unknown_unit", {"column": "x_cm", "unit": "cm"}),
        (
            "x,y,z,speed_km_h\n",
            None,
            "unknown_unit",
            {"column": "speed_km_h", "unit": "km_h"},
        ),
        ("x_mm,y_m,z_mm\n", None, "mixed_units", {}),
        ("x_mm,y,z\n", None, "mixed_units", {}),
        ("x_mm,y_mm,z_mm\n", "m", "units_conflict", {"header": "mm", "given": "m"}),
        (
            "x,y,z,speed_mm_s,speed_m_s\n",
            None,
            "duplicate_column",
            {"column": "speed_m_s"},
        ),
        ("x,y,speed\n", None, "missing_column", {"column": "z"}),
    ],
)
def test_an_ambiguous_header_is_refused_with_a_clear_code(table, units, code, params):
    with pytest.raises(ProgramError) as raised:
        read(table, units=units)

    assert raised.value.code == code
    assert raised.value.params == params
    assert raised.value.line == (None if code == "empty" else 1)


@pytest.mark.parametrize(
    ("row", "code", "params"),
    [
        ("400,-300,300", "row_fields", {"expected": 4, "found": 3}),
        ("400,-300,abc,1000", "not_a_number", {"column": "z", "text": "abc"}),
        ("400,-300,,1000", "not_a_number", {"column": "z", "text": ""}),
        ("400,-300,nan,1000", "not_a_number", {"column": "z", "text": "nan"}),
        ("400,-300,300,0", "speed_not_positive", {"speed": 0.0}),
        ("400,-300,300,-50", "speed_not_positive", {"speed": -50.0}),
    ],
)
def test_a_bad_row_is_an_error_naming_its_line(row, code, params):
    with pytest.raises(ProgramError) as raised:
        read(f"x,y,z,speed\n0,0,300,100\n{row}\n")

    assert (raised.value.code, raised.value.line) == (code, 3)
    assert raised.value.params == params


def test_a_row_in_metres_read_as_millimetres_is_caught_by_the_coordinate_bound():
    # 400 m: the file was in mm and "m" was chosen.
    with pytest.raises(ProgramError) as raised:
        read("x,y,z\n400,-300,300\n", units="m")

    assert (raised.value.code, raised.value.line) == ("coordinate_out_of_range", 2)


def test_a_point_is_where_it_was_written():
    program = read("x_mm,y_mm,z_mm\n1.5,2.25,-3\n")

    assert program.moves[0].target == Point(1.5, 2.25, -3.0)
