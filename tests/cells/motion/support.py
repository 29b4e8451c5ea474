"""Programs written in the tests, and where their lines are."""

from __future__ import annotations

import textwrap

from cells.motion.path import Point
from cells.motion.reading import read_program

# The move every format's test writes: to (400, -300, 300) mm at 1 m/s.
TARGET = Point(400.0, -300.0, 300.0)


def program_text(text: str) -> str:
    """A program as written in a test: dedented, without the first newline."""
    return textwrap.dedent(text).removeprefix("\n")


def line_of(text: str, fragment: str) -> int:
    """The 1-based line of ``text`` where ``fragment`` first stands."""
    for number, line in enumerate(text.split("\n"), start=1):
        if fragment in line:
            return number
    raise AssertionError(f"{fragment!r} is not in the program")


def read(text: str, format: str, **options):
    return read_program(program_text(text).encode(), format=format, **options)


def issue_cobot(cell, *, mode: str = "pfl"):
    """The issue's cobot (33.5 kg moving, 5 kg payload) at the plan's origin,
    collaborating by ``mode``; an operator loading 600 mm from the path's
    end of the issue's program, the chest exposed."""
    from cells.models import OperatorStation

    cell.robot_kind = "collaborative"
    cell.collaborative_modes = [mode]
    cell.moving_mass_kg, cell.payload_kg = 33.5, 5
    cell.robot_base_x_mm = cell.robot_base_y_mm = 0
    cell.robot_base_rotation_deg = 0
    cell.save()
    OperatorStation.objects.create(
        cell=cell, label="Load", x_mm=400, y_mm=-900, exposed_regions=["chest"]
    )
    return cell


def with_ssm_scanner(cell):
    """Speed and separation monitoring with a scanner at the base, its field
    4 m round it: the robot stops in 300 ms over 200 mm, the scanner answers
    in 80 ms and the safety controller in 20 ms."""
    from cells.models import Device

    cell.collaborative_modes = ["ssm"]
    cell.stopping_time_ms, cell.stopping_distance_mm = 300, 200
    cell.save()
    Device.objects.create(
        cell=cell,
        kind="laser_scanner",
        label="Scanner A",
        response_time_ms=80,
        protective_field_mm=4000,
        field_height_mm=300,
        x1_mm=0,
        y1_mm=0,
    )
    Device.objects.create(
        cell=cell, kind="safety_controller", label="Controller", response_time_ms=20
    )
    return cell
