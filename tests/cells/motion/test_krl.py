"""KUKA KRL programs read into placed moves (issue 32): frames in mm,
$VEL.CP in m/s for LIN and CIRC only, points declared in the .dat."""

from __future__ import annotations

import pytest

from cells.motion.errors import ProgramError
from cells.motion.path import Listed, Move, Point
from tests.cells.motion.support import TARGET, line_of, program_text, read

DAT = program_text(
    """
    &ACCESS RVP
    DEFDAT cell
    DECL E6POS XP1={X 400.0,Y -300.0,Z 300.0,A 0.0,B 90.0,C 0.0,S 6,T 27,E1 0.0,E2 0.0,E3 0.0,E4 0.0,E5 0.0,E6 0.0}
    DECL E6AXIS XP2={A1 0.0,A2 -90.0,A3 90.0,A4 0.0,A5 0.0,A6 0.0,E1 0.0,E2 0.0,E3 0.0,E4 0.0,E5 0.0,E6 0.0}
    DECL LDAT LCPDAT1={VEL 2.0,ACC 100.0,APO_DIST 100.0,APO_FAC 50.0,ORI_TYP #VAR}
    ENDDAT
    """
)


def test_a_lin_after_vel_cp_is_the_same_move_as_urscripts():
    text = program_text(
        """
        DEF cell()
          $VEL.CP=1.0
          LIN {X 400, Y -300, Z 300, A 0, B 0, C 0}
        END
        """
    )

    program = read(text, "krl")

    assert program.format == "krl"
    assert program.moves == (
        Move(
            line=3,
            kind="linear",
            target=TARGET,
            via=None,
            speed_mm_s=1000.0,
            text="LIN {X 400, Y -300, Z 300, A 0, B 0, C 0}",
        ),
    )
    assert program.not_checked == () and program.skipped == ()


def test_vel_cp_applies_to_the_cartesian_moves_after_it_and_never_to_ptp():
    text = program_text(
        """
        DEF cell()
          LIN {X 400, Y -300, Z 300} C_DIS
          $VEL.CP=0.25
          PTP {X 400, Y -300, Z 300, A 0, B 0, C 0} C_PTP
          LIN {X 400, Y -300, Z 300}
          $VEL={CP 0.5, ORI1 200, ORI2 200}
          LIN {E6POS: X 400, Y -300, Z 300}
          SLIN {X 400, Y -300, Z 300} WITH $VEL = {CP 2}
          BAS(#CP_PARAMS, 2)
          LIN {X 400, Y -300, Z 300}
        END
        """
    )

    moves = read(text, "krl").moves

    assert [(m.kind, m.speed_mm_s) for m in moves] == [
        ("linear", None),  # no $VEL.CP yet
        ("joint", None),  # joint-interpolated: $VEL.CP is not its speed
        ("linear", 250.0),
        ("linear", 500.0),
        ("linear", None),  # its WITH clause sets a speed not read
        ("linear", None),  # BAS set it from arguments not read
    ]


def test_each_routine_starts_with_its_speed_unknown():
    text = program_text(
        """
        DEF cell()
          $VEL.CP=0.25
          LIN {X 400, Y -300, Z 300}
        END
        DEF approach()
          LIN {X 400, Y -300, Z 300}
        END
        """
    )

    assert [m.speed_mm_s for m in read(text, "krl").moves] == [250.0, None]


def test_points_declared_in_the_dat_or_the_src_are_placed():
    text = program_text(
        """
        DEF cell()
          DECL E6POS XLOCAL={X 100, Y 200, Z 50, A 0, B 0, C 0}
          $VEL.CP=0.5
          LIN XP1 C_DIS
          LIN xlocal
        END
        """
    )

    program = read(text, "krl", dat_text=DAT)

    assert [(m.target, m.speed_mm_s) for m in program.moves] == [
        (TARGET, 500.0),
        (Point(100.0, 200.0, 50.0), 500.0),
    ]


def test_axis_values_are_listed_not_checked_with_their_lines():
    text = program_text(
        """
        DEF cell()
          PTP XHOME
          PTP {A1 0, A2 -90, A3 90, A4 0, A5 0, A6 0}
          PTP XP2
          PTP $AXIS_ACT
        END
        """
    )

    program = read(text, "krl", dat_text=DAT)

    assert program.moves == ()
    assert program.not_checked == (
        Listed(2, "PTP XHOME", "joint_values"),
        Listed(3, "PTP {A1 0, A2 -90, A3 90, A4 0, A5 0, A6 0}", "joint_values"),
        Listed(4, "PTP XP2", "joint_values"),
        Listed(5, "PTP $AXIS_ACT", "expression"),
    )


def test_a_circ_is_an_arc_through_its_auxiliary_point():
    text = program_text(
        """
        DEF cell()
          $VEL.CP=0.1
          CIRC {X 500, Y -200, Z 300}, {X 400, Y -300, Z 300} C_DIS
          CIRC {X 500, Y -200, Z 300}, XP1, CA 270
          LIN_REL {Z 100}
        END
        """
    )

    program = read(text, "krl", dat_text=DAT)

    (move,) = program.moves
    assert (move.kind, move.via, move.target, move.speed_mm_s) == (
        "circular",
        Point(500.0, -200.0, 300.0),
        TARGET,
        100.0,
    )
    assert [(x.line, x.reason) for x in program.not_checked] == [
        (4, "unsupported_motion"),  # CA: it ends past its target
        (5, "unsupported_motion"),
    ]


def test_skipped_lines_are_listed_with_their_lines_and_structure_is_not():
    text = program_text(
        """
        &ACCESS RVP
        &REL 1
        DEF cell( )
          ;FOLD INI
          INT count
          BAS (#INITMOV,0 )
          ;ENDFOLD
          $OUT[1]=TRUE ; open the gripper
          WAIT SEC 0.5
          IF count > 3 THEN
            lin {x 400, y -300, z 300}
          ENDIF
        END
        """
    )

    program = read(text, "krl")

    assert [(x.line, x.text, x.reason) for x in program.skipped] == [
        (6, "BAS (#INITMOV,0 )", "not_motion"),
        (8, "$OUT[1]=TRUE", "not_motion"),
        (9, "WAIT SEC 0.5", "not_motion"),
        (10, "IF count > 3 THEN", "not_motion"),
        (12, "ENDIF", "not_motion"),
    ]
    assert [m.line for m in program.moves] == [line_of(text, "lin {x")]


def test_a_call_to_a_def_that_moves_breaks_the_path():
    text = program_text(
        """
        DEF cell()
          LIN {X 100, Y 0, Z 300}
          approach()
          LIN {X 200, Y 0, Z 300}
        END
        DEF approach()
          PTP XHOME
        END
        """
    )

    program = read(text, "krl")

    assert [m.after_break for m in program.moves] == [False, True]
    assert program.skipped == (Listed(3, "approach()", "call"),)


@pytest.mark.parametrize(
    ("statement", "code", "params"),
    [
        ("LIN {X 400, Y -300}", "pose_components", {"missing": ["z"]}),
        ("LIN {X 400, Y -300, Z 300, Q 1}", "pose_components", {"unknown": "q"}),
        ("LIN {X 400, X 300, Z 300}", "pose_components", {"repeated": "x"}),
        ("$VEL.CP=0", "speed_not_positive", {"speed": 0.0}),
        ("$VEL.CP=-0.2", "speed_not_positive", {"speed": -0.2}),
        ("LIN XP1", "undeclared_name", {"name": "xp1"}),
        ("LIN {X 400, Y -300, Z 300", "syntax", {"detail": "brackets"}),
    ],
)
def test_a_bad_statement_is_an_error_naming_its_line(statement, code, params):
    text = f"DEF cell()\n  ; first\n  {statement}\nEND\n"

    with pytest.raises(ProgramError) as raised:
        read(text, "krl")

    assert (raised.value.code, raised.value.line) == (code, 3)
    assert raised.value.params == params


def test_an_error_in_the_dat_says_so():
    dat = "DEFDAT cell\nDECL E6POS XP1={X 400,Y -300,Z 300\nENDDAT\n"

    with pytest.raises(ProgramError) as raised:
        read("DEF cell()\nEND\n", "krl", dat_text=dat)

    assert (raised.value.code, raised.value.line) == ("syntax", 2)
    assert raised.value.params["file"] == "dat"
