"""URScript programs read into placed moves (issue 32): poses in metres and
m/s become millimetres and mm/s, joint values are listed as not checked
with their lines, everything else as skipped."""

from __future__ import annotations

import pytest

from cells.motion.errors import ProgramError
from cells.motion.path import Listed, Move, Point
from tests.cells.motion.support import TARGET, line_of, program_text, read


def test_a_movel_to_a_pose_literal_is_a_linear_move_in_mm_at_its_speed_in_mm_s():
    text = program_text(
        """
        def main():
          # to the conveyor
          movel(p[0.40, -0.30, 0.30, 0, 3.14, 0], a=1.2, v=1.0)
        end
        """
    )

    program = read(text, "urscript")

    assert program.format == "urscript"
    assert program.moves == (
        Move(
            line=3,
            kind="linear",
            target=TARGET,
            via=None,
            speed_mm_s=1000.0,
            text="movel(p[0.40, -0.30, 0.30, 0, 3.14, 0], a=1.2, v=1.0)",
        ),
    )
    assert program.not_checked == () and program.skipped == ()


@pytest.mark.parametrize(
    ("arguments", "speed_mm_s"),
    [
        ("a=1.2, v=0.25", 250.0),
        ("1.2, 0.5", 500.0),  # positional: pose, a, v
        ("v=1.1", 1100.0),  # exact: not 1100.0000000000002
        ("a=1.2", 250.0),  # the signature's default v=0.25
        ("a=1.2, v=0.25, t=2", None),  # a duration: the speed follows from it
        ("v=0.5, t=0", 500.0),
    ],
)
def test_the_tcp_speed_is_v_in_m_s(arguments, speed_mm_s):
    program = read(f"movel(p[0.4, -0.3, 0.3, 0, 3.14, 0], {arguments})", "urscript")

    assert program.moves[0].speed_mm_s == speed_mm_s


def test_a_speed_may_be_a_name_assigned_a_number():
    program = read("slow = 0.1\nmovel(p[0.4, -0.3, 0.3, 0, 0, 0], v=slow)", "urscript")

    assert program.moves[0].speed_mm_s == pytest.approx(100.0)


def test_a_movej_to_joint_values_is_listed_not_checked_with_its_line():
    text = program_text(
        """
        def main():
          movej([0, -1.57, 1.57, 0, 0, 0], a=1.4, v=1.05)
          home_q = [0, -1.57, 0, 0, 0, 0]
          movej(home_q)
          movel(home_q)
        end
        """
    )

    program = read(text, "urscript")

    assert program.moves == ()
    assert program.not_checked == (
        Listed(2, "movej([0, -1.57, 1.57, 0, 0, 0], a=1.4, v=1.05)", "joint_values"),
        Listed(4, "movej(home_q)", "joint_values"),
        Listed(5, "movel(home_q)", "joint_values"),
    )


def test_a_movej_to_a_pose_is_placed_with_its_tcp_speed_unknown():
    text = program_text(
        """
        movej(p[0.4, -0.3, 0.3, 0, 3.14, 0], a=1.4, v=1.05)
        movej(get_inverse_kin(p[0.4, -0.3, 0.3, 0, 3.14, 0], qnear=[0, -1.57, 0, 0, 0, 0]), a=1.4, v=1.05)
        """
    )

    moves = read(text, "urscript").moves

    assert [(m.line, m.kind, m.target, m.speed_mm_s) for m in moves] == [
        (1, "joint", TARGET, None),
        (2, "joint", TARGET, None),
    ]


def test_named_poses_are_read_where_they_are_assigned():
    text = program_text(
        """
        pick = p[0.4, -0.3, 0.3, 0, 3.14, 0]
        def main():
          global place = p[0.1, 0.2, 0.05, 0, 3.14, 0]
          movel(pick, v=0.25)
          movep(place, a=1.2, v=0.5, r=0.01)
        end
        """
    )

    moves = read(text, "urscript").moves

    assert [(m.kind, m.target, m.speed_mm_s) for m in moves] == [
        ("linear", TARGET, 250.0),
        ("process", Point(100.0, 200.0, 50.0), 500.0),
    ]


def test_a_movec_is_an_arc_through_its_via_point_to_its_target():
    program = read(
        "movec(p[0.5, 0.1, 0.3, 0, 0, 0], p[0.4, -0.3, 0.3, 0, 0, 0], a=1.2, v=0.1, r=0, mode=1)",
        "urscript",
    )

    (move,) = program.moves
    assert (move.kind, move.via, move.target, move.speed_mm_s) == (
        "circular",
        Point(500.0, 100.0, 300.0),
        TARGET,
        100.0,
    )


def test_a_target_computed_at_run_time_is_not_checked():
    text = program_text(
        """
        def pick(target):
          movel(pose_trans(target, p[0, 0, 0.1, 0, 0, 0]))
          movel(target)
          movel(get_actual_tcp_pose())
          speedl([0, 0, 0.1, 0, 0, 0], a=0.5)
        end
        """
    )

    program = read(text, "urscript")

    assert program.moves == ()
    assert [(x.line, x.reason) for x in program.not_checked] == [
        (2, "expression"),
        (3, "expression"),
        (4, "expression"),
        (5, "unsupported_motion"),
    ]


def test_other_statements_are_skipped_with_their_lines_and_structure_is_not():
    text = program_text(
        """
        def main():
          # comments, blank lines, def and end, Polyscope's markers and the
          # assignments read are structure

          $ 1 "Robot Program"
          set_tcp(p[0, 0, 0.1, 0, 0, 0])
          speed = 0.25
          while (True):
            set_digital_out(1, True)
            movel(p[0.4, -0.3, 0.3, 0, 3.14, 0], v=speed)
            sleep(0.5)  # wait for the gripper
            i = i + 1
          end
          textmsg("done # not a comment")
        end
        """
    )

    program = read(text, "urscript")

    assert [(x.line, x.text, x.reason) for x in program.skipped] == [
        (6, "set_tcp(p[0, 0, 0.1, 0, 0, 0])", "not_motion"),
        (8, "while (True):", "not_motion"),
        (9, "set_digital_out(1, True)", "not_motion"),
        (11, "sleep(0.5)", "not_motion"),
        (12, "i = i + 1", "not_motion"),
        (14, 'textmsg("done # not a comment")', "not_motion"),
    ]
    assert [m.line for m in program.moves] == [line_of(text, "movel")]


def test_routines_are_read_in_file_order_a_call_to_one_that_moves_breaks_the_path():
    text = program_text(
        """
        def approach():
          movel(p[0.1, 0, 0.3, 0, 0, 0])
        end
        def open_gripper():
          set_digital_out(0, True)
        end
        def main():
          movel(p[0.2, 0, 0.3, 0, 0, 0])
          open_gripper()
          movel(p[0.3, 0, 0.3, 0, 0, 0])
          approach()
          movel(p[0.4, 0, 0.3, 0, 0, 0])
        end
        """
    )

    program = read(text, "urscript")

    assert [(m.target.x_mm, m.after_break) for m in program.moves] == [
        (100.0, False),
        (200.0, True),  # another routine: not reached from approach's end
        (300.0, False),  # open_gripper does not move the robot
        (400.0, True),  # approach does: the robot is not where main left it
    ]
    assert [(x.text, x.reason) for x in program.skipped] == [
        ("set_digital_out(0, True)", "not_motion"),
        ("open_gripper()", "call"),
        ("approach()", "call"),
    ]


def test_a_routine_written_inside_another_ends_first():
    text = program_text(
        """
        def main():
          movel(p[0.1, 0, 0.3, 0, 0, 0])
          def helper():
            movel(p[0.9, 0, 0.3, 0, 0, 0])
          end
          movel(p[0.2, 0, 0.3, 0, 0, 0])
        end
        """
    )

    moves = read(text, "urscript").moves

    assert [(m.target.x_mm, m.after_break) for m in moves] == [
        (900.0, False),
        (100.0, True),
        (200.0, False),  # main goes on from where it was, not from helper's
    ]


def test_a_pose_changed_in_part_is_no_longer_placed():
    text = "p1 = p[0.4, -0.3, 0.3, 0, 0, 0]\np1[2] = 0.5\nmovel(p1)"

    program = read(text, "urscript")

    assert [(x.line, x.reason) for x in program.not_checked] == [(3, "expression")]


@pytest.mark.parametrize(
    ("statement", "code", "params"),
    [
        (
            "movel(p[0.4, -0.3, 0.3, 0, 3.14], v=0.25)",
            "pose_numbers",
            {"expected": 6, "found": 5},
        ),
        ("pose = p[0.4, -0.3, 0.3, 0, 0]", "pose_numbers", {"expected": 6, "found": 5}),
        (
            "movel(p[0.4, -0.3, 0.3, 0, 3.14, 0], v=0)",
            "speed_not_positive",
            {"speed": 0.0},
        ),
        (
            "movel(p[0.4, -0.3, 0.3, 0, 3.14, 0], v=-0.25)",
            "speed_not_positive",
            {"speed": -0.25},
        ),
        ("movel(target, v=0.25)", "undeclared_name", {"name": "target"}),
        (
            "movel(p[0.4, -0.3, 0.3, 0, 0, 0], v=fast)",
            "undeclared_name",
            {"name": "fast"},
        ),
        ("movel(a=1.2, v=0.25)", "syntax", {"detail": "pose"}),
        ("movel(p[0.4, -0.3, 0.3, 0, 0, 0], w=1)", "syntax", {"detail": "w"}),
        ("movel(p[0.4, -0.3, 0.3, 0, 0, 0]", "syntax", {"detail": "movel"}),
        ("movel(p[400, -300, 300, 0, 0, 0])", "coordinate_out_of_range", None),
    ],
)
def test_a_bad_statement_is_an_error_naming_its_line(statement, code, params):
    text = f"def main():\n  # first\n  {statement}\nend\n"

    with pytest.raises(ProgramError) as raised:
        read(text, "urscript")

    assert (raised.value.code, raised.value.line) == (code, 3)
    if params is not None:
        assert raised.value.params == params


def test_a_name_used_before_it_is_assigned_is_an_error():
    text = "movel(pick)\npick = p[0.4, -0.3, 0.3, 0, 0, 0]\n"

    with pytest.raises(ProgramError) as raised:
        read(text, "urscript")

    assert (raised.value.code, raised.value.line) == ("undeclared_name", 1)
