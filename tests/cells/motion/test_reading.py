"""What every format shares (issue 32): the request's checks, the file's
bounds (5 MB, 100,000 motion lines, text only), the guess of a format, and
a 5 MB single line read in one pass whatever it holds."""

from __future__ import annotations

import ast
import gzip
from pathlib import Path

import pytest

from cells.motion.errors import ProgramError
from cells.motion.reading import (
    ERROR_CODES,
    FORMATS,
    MAX_FILE_BYTES,
    MAX_MOTION_LINES,
    MAX_STATEMENT_TOKENS,
    MAX_STATEMENTS,
    collect,
    guess_format,
    krl,
    rapid,
    read_program,
    urscript,
)
from cells.motion.reading.source import TEXT_MAX_CHARS
from tests.cells.motion.support import TARGET

MOVES = {
    "csv": "x,y,z,speed\n400,-300,300,1000\n",
    "urscript": "movel(p[0.40, -0.30, 0.30, 0, 3.14, 0], a=1.2, v=1.0)\n",
    "rapid": (
        "MODULE m\n  PROC main()\n    MoveL [[400,-300,300],[0,0,1,0],[0,0,0,0],"
        "[9E9,9E9,9E9,9E9,9E9,9E9]], v1000, z50, tool0;\n  ENDPROC\nENDMODULE\n"
    ),
    "krl": "DEF main()\n  $VEL.CP=1.0\n  LIN {X 400, Y -300, Z 300, A 0, B 0, C 0}\nEND\n",
}


@pytest.mark.parametrize("format", FORMATS)
def test_every_format_places_the_same_move(format):
    (move,) = read_program(MOVES[format].encode(), format=format).moves

    assert (move.kind, move.target, move.speed_mm_s) == ("linear", TARGET, 1000.0)


def test_an_unknown_format_or_unit_is_refused():
    with pytest.raises(ProgramError) as raised:
        read_program(b"", format="gcode")
    assert (raised.value.code, raised.value.params) == (
        "unknown_format",
        {"format": "gcode"},
    )

    with pytest.raises(ProgramError) as raised:
        read_program(MOVES["csv"].encode(), format="csv", units="inch")
    assert (raised.value.code, raised.value.params) == (
        "unknown_unit",
        {"unit": "inch"},
    )


def test_a_dat_goes_with_a_krl_program_only():
    with pytest.raises(ProgramError) as raised:
        read_program(MOVES["rapid"].encode(), format="rapid", dat_text="DEFDAT x")

    assert raised.value.code == "dat_not_krl"


@pytest.mark.parametrize("format", FORMATS)
def test_a_file_over_5_mb_is_refused(format):
    data = MOVES[format].encode().ljust(MAX_FILE_BYTES + 1, b"\n")

    with pytest.raises(ProgramError) as raised:
        read_program(data, format=format)

    assert raised.value.code == "too_large"
    assert raised.value.params == {
        "size_bytes": MAX_FILE_BYTES + 1,
        "limit_bytes": MAX_FILE_BYTES,
    }


@pytest.mark.parametrize(
    "data",
    [
        b"movel(p[0.4, 0, 0.3, 0, 0, 0])\nmovel(\x00\x01)\n",
        "movel(p[0.4, 0, 0.3, 0, 0, 0])\r\n".encode("utf-16"),
    ],
)
def test_a_binary_file_is_refused_naming_the_line(data):
    with pytest.raises(ProgramError) as raised:
        read_program(data, format="urscript")

    assert raised.value.code == "not_text"
    assert raised.value.line == (2 if data.startswith(b"movel") else 1)


def test_a_polyscope_urp_is_binary_and_refused():
    urp = gzip.compress(b"<URProgram><children/></URProgram>")

    with pytest.raises(ProgramError) as raised:
        read_program(urp, format="urscript")
    assert raised.value.code == "not_text"
    with pytest.raises(ProgramError) as raised:
        guess_format("pick.urp", urp)
    assert raised.value.code == "urp_file"


def test_latin_1_text_a_bom_and_any_line_ends_are_read():
    latin_1 = "; Greifer öffnen\r\nDEF main()\r\n$VEL.CP=1.0\r\nLIN {X 400, Y -300, Z 300}\rEND\r"
    utf_8 = "\ufeffmovel(p[0.4, -0.3, 0.3, 0, 0, 0], v=1) # Greifer öffnen\n"

    krl = read_program(latin_1.encode("latin-1"), format="krl")
    urscript = read_program(utf_8.encode("utf-8"), format="urscript")

    assert [(m.line, m.target) for m in krl.moves] == [(4, TARGET)]
    assert [(m.line, m.target) for m in urscript.moves] == [(1, TARGET)]


def test_more_than_100_000_motion_lines_are_refused_at_the_first_too_many():
    rows = "0,0,300\n" * (MAX_MOTION_LINES + 1)

    with pytest.raises(ProgramError) as raised:
        read_program(f"x,y,z\n{rows}".encode(), format="csv")

    assert raised.value.code == "too_many_motion_lines"
    assert raised.value.line == MAX_MOTION_LINES + 2  # the header is line 1
    assert raised.value.params == {"limit": MAX_MOTION_LINES}


def test_motions_not_checked_count_as_motion_lines_too(monkeypatch):
    monkeypatch.setattr(collect, "MAX_MOTION_LINES", 3)
    data = b"movel(p[0.4, 0, 0.3, 0, 0, 0])\nmovej([0, 0, 0, 0, 0, 0])\n" * 2

    with pytest.raises(ProgramError) as raised:
        read_program(data, format="urscript")

    assert (raised.value.code, raised.value.line) == ("too_many_motion_lines", 4)


@pytest.mark.parametrize(
    ("format", "module", "data"),
    [
        ("urscript", urscript, b"sleep(1)\n" * 4),
        ("rapid", rapid, b"WaitTime 1; " * 4),
        ("krl", krl, b"WAIT SEC 1\n" * 4),
    ],
)
def test_more_statements_than_the_bound_are_refused(monkeypatch, format, module, data):
    monkeypatch.setattr(module, "MAX_STATEMENTS", 3)

    with pytest.raises(ProgramError) as raised:
        read_program(data, format=format)

    assert raised.value.code == "too_many_statements"
    assert raised.value.params == {"limit": 3}


def test_the_statement_bound_is_well_above_the_motion_lines():
    # A program at the motion bound still has room for its IO and waits.
    assert MAX_STATEMENTS >= 2 * MAX_MOTION_LINES


LONG = MAX_FILE_BYTES - 100


@pytest.mark.parametrize(
    ("format", "line", "code"),
    [
        ("urscript", b"movel(p[" + b"1," * (LONG // 2), "statement_too_long"),
        ("urscript", b"x = " + b"(" * LONG, None),
        ("urscript", b'textmsg("' + b"\\\\" * (LONG // 2), None),
        ("urscript", b"movel(p[0.4, 0, 0.3, 0, 0, 0]) #" + b"#" * LONG, None),
        ("urscript", b"1e" * (LONG // 2), None),
        ("rapid", b"MoveL [[" + b"1," * (LONG // 2) + b"]];", "statement_too_long"),
        ("rapid", b'TPWrite "' + b"a" * LONG + b'";', None),
        ("rapid", b"SetDO " + b"a," * (LONG // 2), "unterminated"),
        ("rapid", b"x := " + b"[" * LONG + b";", None),
        ("krl", b"LIN {X " + b"1," * (LONG // 2), "statement_too_long"),
        ("krl", b"DECL E6POS XP1={" + b"X 1," * (LONG // 4), None),
        ("krl", b"$OUT[1]=" + b"1" * LONG, None),
        ("csv", b"x,y,z\n" + b"1" * LONG, "bad_row"),
        ("csv", b" " * LONG, "empty"),
    ],
    ids=lambda value: repr(value[:12]) if isinstance(value, bytes) else None,
)
def test_a_5_mb_single_line_is_read_in_one_pass(format, line, code):
    # No backtracking pattern, nothing quadratic: each of these would take
    # minutes otherwise. A motion statement past MAX_STATEMENT_TOKENS is
    # refused; any other is listed (its text cut short) or consumed.
    assert len(line) <= MAX_FILE_BYTES
    if code is not None:
        with pytest.raises(ProgramError) as raised:
            read_program(line, format=format)
        assert raised.value.code == code
        if code == "statement_too_long":
            assert raised.value.params == {"limit": MAX_STATEMENT_TOKENS}
        return
    program = read_program(line, format=format)
    assert program.moves == () or len(program.moves) == 1
    assert all(len(x.text) <= TEXT_MAX_CHARS for x in program.skipped)


@pytest.mark.parametrize(
    ("name", "format"),
    [
        ("waypoints.csv", "csv"),
        ("pick.script", "urscript"),
        ("MainModule.mod", "rapid"),
        ("MainModule.modx", "rapid"),
        ("OLD.PRG", "rapid"),
        ("cell.src", "krl"),
        ("cell.dat", None),  # a .dat goes with its .src
    ],
)
def test_the_format_is_guessed_from_the_extension(name, format):
    assert guess_format(name, b"") == format


@pytest.mark.parametrize("format", FORMATS)
def test_the_format_is_guessed_from_the_content_when_the_name_does_not_tell(format):
    assert guess_format("program.txt", MOVES[format].encode()) == format


@pytest.mark.parametrize(
    "data",
    [b"", b"hello world\n", b"\x00\x01\x02binary", b"name,price\nbolt,1.20\n"],
)
def test_nothing_is_guessed_when_nothing_tells(data):
    assert guess_format("program", data) is None


def test_every_error_code_raised_is_listed():
    # The caller words each code; a code not in the list would have no words.
    raised = set()
    for path in Path(read_program.__code__.co_filename).parents[1].rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "ProgramError"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                raised.add(node.args[0].value)

    assert raised == set(ERROR_CODES)
