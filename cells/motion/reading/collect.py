"""What a reader builds a ``Program`` with: the names a program declares,
its routines, and the moves, motions not checked and statements skipped as
they come. Pure, no Django.

The path is followed routine by routine (a ``def``, ``PROC`` or ``DEF``
body; statements outside any, the file's own): a routine's moves join each
other in the order written, and the routines follow one another in the
order they end (a routine written inside another ends first). Calls are not
followed into the routine called: its moves are read where it is written.
So the path breaks (``Move.after_break``):

- at the first move of each routine after the first that moves;
- after a motion not checked (the robot is then somewhere unknown);
- after a call to a routine of the file that moves, itself or through the
  routines it calls (calls to routines not in the file are taken not to
  move the robot: they are listed, skipped, for the reader to see).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final

from cells.exchange import COORDINATE_LIMIT_MM
from cells.motion.errors import ProgramError
from cells.motion.path import Format, Listed, Move, MoveKind, Point, Program
from compliance.calculators.ts15066_path_models import SPEED_MAX_MM_S

MAX_MOTION_LINES = 100_000
# Routines written inside routines (URScript): Polyscope writes two levels.
MAX_NESTING = 32


class Marker:
    """A value a reader knows is there but cannot place."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


# Joint values: where the TCP ends up depends on the robot's kinematics.
JOINTS: Final = Marker("joint values")
# A value computed when the program runs (a function's result, a
# parameter, a variable assigned anything but a literal).
RUNTIME: Final = Marker("run time")


@dataclass(frozen=True, slots=True)
class Speed:
    """A declared speed (RAPID speeddata): the TCP's, None if not given."""

    mm_s: float | None


Value = Point | float | Speed | Marker


def positive_speed(value: float, *, line: int) -> float:
    """A speed as given, refused when zero or negative."""
    if value <= 0:
        raise ProgramError("speed_not_positive", line=line, speed=value)
    return value


def bounded_speed(value_mm_s: float, *, line: int) -> float:
    """A TCP speed in mm/s, refused past what a robot moves (and what the
    check takes, ``ts15066_path_models.SPEED_MAX_MM_S``): most likely a unit
    mistake."""
    positive_speed(value_mm_s, line=line)
    if value_mm_s > SPEED_MAX_MM_S:
        raise ProgramError(
            "speed_too_high",
            line=line,
            speed_mm_s=round(value_mm_s, 1),
            limit_mm_s=SPEED_MAX_MM_S,
        )
    return value_mm_s


@dataclass(eq=False, slots=True)
class _Routine:
    name: str | None
    # In order: a Move, a call (the routine's name) or None (a break).
    items: list[Move | str | None] = field(default_factory=list)
    moves: bool = False


@dataclass(frozen=True, slots=True)
class _Call:
    line: int
    text: str
    name: str


class Collector:
    """Builds a ``Program`` statement by statement (see the module)."""

    def __init__(self, format: Format) -> None:
        self.format = format
        self._root = _Routine(None)
        self._open: list[_Routine] = [self._root]
        self._ended: list[_Routine] = []
        self._scopes: list[dict[str, Value]] = [{}]
        self._not_checked: list[Listed] = []
        self._skipped: list[Listed | _Call] = []
        self._motions = 0

    # Names

    def declare(self, name: str, value: Value, *, everywhere: bool = False) -> None:
        """``name`` holds ``value`` from here on, in the routine being read
        (or, ``everywhere``, in the whole file)."""
        self._scopes[0 if everywhere else -1][name] = value

    def known(self, name: str) -> Value | None:
        for scope in reversed(self._scopes):
            if name in scope:
                return scope[name]
        return None

    def lookup(self, name: str, *, line: int) -> Value:
        """What ``name`` holds; a name not declared before this line:
        ``ProgramError("undeclared_name", name=)``."""
        value = self.known(name)
        if value is None:
            raise ProgramError("undeclared_name", line=line, name=name[:60])
        return value

    # Routines

    def begin(self, name: str, parameters: list[str], *, line: int) -> None:
        """A routine's body starts; its parameters are known there, as
        values computed when it runs."""
        if len(self._open) > MAX_NESTING:
            raise ProgramError("too_deep", line=line, limit=MAX_NESTING)
        self._open.append(_Routine(name))
        self._scopes.append(dict.fromkeys(parameters, RUNTIME))

    def end(self) -> None:
        """The innermost routine's body ends (nothing when none is open)."""
        if len(self._open) > 1:
            self._ended.append(self._open.pop())
            self._scopes.pop()

    @property
    def in_routine(self) -> bool:
        return len(self._open) > 1

    # Statements

    def move(
        self,
        *,
        line: int,
        kind: MoveKind,
        target: Point,
        via: Point | None = None,
        speed_mm_s: float | None,
        text: str,
    ) -> None:
        """A placed move. Coordinates past ``COORDINATE_LIMIT_MM`` (100 m,
        the plan's own bound) are refused: most likely a unit mistake."""
        self._count(line)
        for point in (target, via):
            if point is None:
                continue
            for value in (point.x_mm, point.y_mm, point.z_mm):
                if abs(value) > COORDINATE_LIMIT_MM:
                    raise ProgramError(
                        "coordinate_out_of_range",
                        line=line,
                        value_mm=value,
                        limit_mm=COORDINATE_LIMIT_MM,
                    )
        if speed_mm_s is not None:
            bounded_speed(speed_mm_s, line=line)
        routine = self._open[-1]
        routine.moves = True
        routine.items.append(Move(line, kind, target, via, speed_mm_s, text))

    def not_checked(self, *, line: int, text: str, reason: str) -> None:
        """A motion that cannot be placed: listed, and the path breaks."""
        self._count(line)
        routine = self._open[-1]
        routine.moves = True
        routine.items.append(None)
        self._not_checked.append(Listed(line, text, reason))

    def skip(self, *, line: int, text: str) -> None:
        self._skipped.append(Listed(line, text, "not_motion"))

    def call(self, *, line: int, text: str, name: str) -> None:
        """A statement calling ``name``: a routine of the file (skipped as
        "call", and the path breaks there if it moves), or not ("not_motion").
        Decided at the end, when every routine is known."""
        self._open[-1].items.append(name)
        self._skipped.append(_Call(line, text, name))

    def _count(self, line: int) -> None:
        self._motions += 1
        if self._motions > MAX_MOTION_LINES:
            raise ProgramError(
                "too_many_motion_lines", line=line, limit=MAX_MOTION_LINES
            )

    def program(self) -> Program:
        routines = [*self._ended, *reversed(self._open)]
        names = {routine.name for routine in routines if routine.name is not None}
        moving = _moving(routines)
        moves: list[Move] = []
        for routine in routines:
            broken = True
            for item in routine.items:
                if isinstance(item, Move):
                    if broken and moves:
                        item = replace(item, after_break=True)
                    moves.append(item)
                    broken = False
                elif item is None or item in moving:
                    broken = True
        skipped = [
            Listed(item.line, item.text, "call" if item.name in names else "not_motion")
            if isinstance(item, _Call)
            else item
            for item in self._skipped
        ]
        return Program(
            self.format, tuple(moves), tuple(self._not_checked), tuple(skipped)
        )


def _moving(routines: list[_Routine]) -> set[str]:
    """The routines that move the robot: with a motion of their own, or
    calling one that moves (followed through the calls, each once)."""
    callers: dict[str, set[str]] = {}
    moving: set[str] = set()
    for routine in routines:
        if routine.name is None:
            continue
        if routine.moves:
            moving.add(routine.name)
        for item in routine.items:
            if isinstance(item, str):
                callers.setdefault(item, set()).add(routine.name)
    waiting = list(moving)
    while waiting:
        for caller in callers.get(waiting.pop(), ()):
            if caller not in moving:
                moving.add(caller)
                waiting.append(caller)
    return moving
