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
