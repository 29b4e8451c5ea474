"""ABB RAPID modules read into placed moves (issue 32): robtargets in mm,
speeddata's v_tcp, statements over several lines, ``!`` comments."""

from __future__ import annotations

import pytest

from cells.motion.errors import ProgramError
from cells.motion.path import Listed, Move, Point
from tests.cells.motion.support import TARGET, line_of, program_text, read

P10 = "[[400,-300,300],[0,0,1,0],[0,0,0,0],[9E9,9E9,9E9,9E9,9E9,9E9]]"


def module(body: str, data: str = "") -> str:
    """A module declaring p10 (and ``data``) with ``body`` as PROC main."""
    body = program_text(body).replace("\n", "\n    ")
    data = program_text(data).replace("\n", "\n  ")
    return (
        "MODULE MainModule\n"
        f"  CONST robtarget p10 := {P10};\n"
        f"  {data}\n"
        "  PROC main()\n"
        f"    {body}\n"
        "  ENDPROC\n"
        "ENDMODULE\n"
    )


def test_a_movel_to_a_declared_robtarget_is_the_same_move_as_urscripts():
    text = module("MoveL p10, v1000, z50, tool0;")

    program = read(text, "rapid")

    assert program.format == "rapid"
    assert program.moves == (
        Move(
            line=line_of(text, "MoveL"),
            kind="linear",
            target=TARGET,
            via=None,
            speed_mm_s=1000.0,
            text="MoveL p10, v1000, z50, tool0;",
        ),
    )
    assert program.not_checked == () and program.skipped == ()


def test_a_robtarget_literal_in_the_instruction_is_placed_too():
    program = read(module(f"MoveL {P10}, v200, fine, tool0;"), "rapid")

    assert (program.moves[0].target, program.moves[0].speed_mm_s) == (TARGET, 200.0)


@pytest.mark.parametrize(
    ("speed", "speed_mm_s"),
    [
        ("v5", 5.0),
        ("v7000", 7000.0),
        ("vslow", 250.0),  # declared: [v_tcp, v_ori, v_leax, v_reax]
        ("[120, 500, 5000, 1000]", 120.0),
        ("v1000 \\V:=1234", 1234.0),  # given with the speed, it replaces v_tcp
        ("v1000 \\T:=3", None),  # a duration: the speed follows from it
        ("vmax", None),  # the robot's own maximum, not a RAPID figure
    ],
)
def test_the_tcp_speed_is_the_speeddatas_v_tcp(speed, speed_mm_s):
    text = module(
        f"MoveL p10, {speed}, z50, tool0;",
        data="CONST speeddata vslow := [250, 500, 5000, 1000];",
    )

    assert read(text, "rapid").moves[0].speed_mm_s == speed_mm_s


def test_a_statement_may_run_over_lines_and_is_numbered_from_its_first():
    text = module(
        """
        MoveL Offs(p10, 0, 0,
                   100),  ! 100 mm above; a comment
              v500, fine, tool0;
        """
    )

    (move,) = read(text, "rapid").moves

    assert move.line == line_of(text, "MoveL Offs")
    assert move.target == Point(400.0, -300.0, 400.0)
    assert move.text == "MoveL Offs(p10, 0, 0, 100), v500, fine, tool0;"


def test_a_movec_is_an_arc_through_its_cirpoint_to_its_topoint():
    text = module(
        "MoveC [[500,-200,300],[0,0,1,0],[0,0,0,0],[9E9,9E9,9E9,9E9,9E9,9E9]], "
        "p10, v100, z10, tool0;"
    )

    (move,) = read(text, "rapid").moves

    assert (move.kind, move.via, move.target, move.speed_mm_s) == (
        "circular",
        Point(500.0, -200.0, 300.0),
        TARGET,
        100.0,
    )


def test_a_movej_is_placed_with_its_tcp_speed_unknown():
    (move,) = read(module("MoveJ p10, v1000, z50, tool0;"), "rapid").moves

    assert (move.kind, move.target, move.speed_mm_s) == ("joint", TARGET, None)


def test_moves_not_placed_are_listed_not_checked_with_their_lines():
    text = module(
        """
        MoveAbsJ [[0,0,0,0,90,0],[9E9,9E9,9E9,9E9,9E9,9E9]], v1000, z50, tool0;
        MoveL p10, v1000, z50, tool0 \\WObj:=wobj_table;
        MoveL RelTool(p10, 0, 0, -100), v100, fine, tool0;
        SearchL \\Stop, di1, sp, p10, v100, tool0;
        MoveL p10, v100, fine, tool0 \\WObj:=wobj0;
        """
    )

    program = read(text, "rapid")

    assert [(x.line, x.reason) for x in program.not_checked] == [
        (line_of(text, "MoveAbsJ"), "joint_values"),
        (line_of(text, "wobj_table"), "work_object"),
        (line_of(text, "RelTool"), "expression"),
        (line_of(text, "SearchL"), "unsupported_motion"),
    ]
    # wobj0 is the base frame; the robot's position before it is unknown.
    assert [(m.line, m.after_break) for m in program.moves] == [
        (line_of(text, "wobj0"), False)
    ]


def test_skipped_statements_are_listed_with_their_lines_and_structure_is_not():
    text = module(
        """
        ! comments and declarations are structure
        VAR num count := 0;
        SetDO do_gripper, 1;
        WaitTime 0.5; TPWrite "a ; or a ! is no end";
        IF count > 3 THEN
          MoveL p10, v1000, fine, tool0;
        ENDIF
        """
    )

    program = read(text, "rapid")

    assert program.skipped == (
        Listed(line_of(text, "SetDO"), "SetDO do_gripper, 1;", "not_motion"),
        Listed(line_of(text, "WaitTime"), "WaitTime 0.5;", "not_motion"),
        Listed(
            line_of(text, "TPWrite"), 'TPWrite "a ; or a ! is no end";', "not_motion"
        ),
        Listed(line_of(text, "IF count"), "IF count > 3 THEN", "not_motion"),
        Listed(line_of(text, "ENDIF"), "ENDIF", "not_motion"),
    )
    assert [m.line for m in program.moves] == [line_of(text, "MoveL p10")]


def test_a_robtarget_assigned_a_known_point_is_placed_and_one_computed_is_not():
    text = module(
        """
        pick := Offs(p10, 0, 0, 100);
        MoveL pick, v100, fine, tool0;
        pick := CRobT();
        MoveL pick, v100, fine, tool0;
        """,
        data="VAR robtarget pick;",
    )

    program = read(text, "rapid")

    assert [m.target for m in program.moves] == [Point(400.0, -300.0, 400.0)]
    assert [(x.text, x.reason) for x in program.not_checked] == [
        ("MoveL pick, v100, fine, tool0;", "expression")
    ]
    assert [x.text for x in program.skipped] == ["pick := CRobT();"]


def test_a_compact_if_reads_its_instruction():
    text = module("IF di_part = 1 MoveL p10, v300, fine, tool0;")

    (move,) = read(text, "rapid").moves

    assert (move.target, move.speed_mm_s) == (TARGET, 300.0)


def test_rapid_ignores_case():
    text = (
        f"module m\n  const ROBTARGET P10 := {P10};\n"
        "  proc main()\n    movel p10, V1000, Z50, TOOL0;\n  endproc\nendmodule\n"
    )

    assert read(text, "rapid").moves[0].target == TARGET


def test_routines_are_read_in_file_order_a_call_to_one_that_moves_breaks_the_path():
    text = program_text(
        f"""
        MODULE Cell
          CONST robtarget p10 := {P10};
          PROC main()
            MoveJ Offs(p10, 0, 0, 200), v1000, z50, tool0;
            Path_10;
            MoveL Offs(p10, 0, 0, 200), v1000, z50, tool0;
          ENDPROC
          PROC Path_10()
            MoveL p10, v100, fine, tool0;
          ENDPROC
        ENDMODULE
        """
    )

    program = read(text, "rapid")

    assert [(m.line, m.after_break) for m in program.moves] == [
        (4, False),
        (6, True),  # after Path_10, the robot is at p10, not where main left it
        (9, True),  # Path_10 starts a path of its own
    ]
    assert program.skipped == (Listed(5, "Path_10;", "call"),)


def test_the_header_of_an_old_prg_file_is_structure():
    text = "%%%\n  VERSION:1\n  LANGUAGE:ENGLISH\n%%%\n\n" + module(
        "MoveL p10, v1000, z50, tool0;"
    )

    program = read(text, "rapid")

    assert program.skipped == () and len(program.moves) == 1


@pytest.mark.parametrize(
    ("statement", "code", "params"),
    [
        (
            "MoveL [[400,-300,300,0,0],[0,0,1,0],[0,0,0,0],[9E9,9E9,9E9,9E9,9E9,9E9]], v100, z10, tool0;",
            "pose_numbers",
            {"part": "trans", "expected": 3, "found": 5},
        ),
        (
            "MoveL [[400,-300,300],[0,0,1,0],[0,0,0,0]], v100, z10, tool0;",
            "pose_numbers",
            {"part": "robtarget", "expected": 4, "found": 3},
        ),
        ("MoveL p10, v1000 \\V:=0, z50, tool0;", "speed_not_positive", {"speed": 0.0}),
        (
            "MoveL p10, [-100, 500, 5000, 1000], z50, tool0;",
            "speed_not_positive",
            {"speed": -100.0},
        ),
        (
            "MoveL p10, [100, 500, 5000], z50, tool0;",
            "speed_numbers",
            {"expected": 4, "found": 3},
        ),
        ("MoveL p20, v1000, z50, tool0;", "undeclared_name", {"name": "p20"}),
        ("MoveL p10, vfast, z50, tool0;", "undeclared_name", {"name": "vfast"}),
        ("MoveL p10;", "syntax", {"detail": "movel"}),
        (
            "MoveL Offs(p10, 0, 0, 100, v1000, z50, tool0;",
            "syntax",
            {"detail": "brackets"},
        ),
    ],
)
def test_a_bad_statement_is_an_error_naming_its_line(statement, code, params):
    text = module(statement)

    with pytest.raises(ProgramError) as raised:
        read(text, "rapid")

    assert (raised.value.code, raised.value.line) == (code, line_of(text, statement))
    assert raised.value.params == params


def test_a_declared_speed_of_zero_is_an_error_at_its_declaration():
    text = module(
        "MoveL p10, v100, fine, tool0;", "CONST speeddata v0 := [0, 0, 0, 0];"
    )

    with pytest.raises(ProgramError) as raised:
        read(text, "rapid")

    assert (raised.value.code, raised.value.line) == ("speed_not_positive", 3)


def test_a_statement_left_without_its_semicolon_is_an_error_naming_where_it_starts():
    text = "MODULE m\n  PROC main()\n    MoveL p10, v100,\n  fine, tool0\n"

    with pytest.raises(ProgramError) as raised:
        read(text, "rapid")

    assert (raised.value.code, raised.value.line) == ("unterminated", 3)
