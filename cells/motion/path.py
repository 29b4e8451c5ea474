"""A robot program's moves, and the straight pieces of its path. Pure, no
Django.

``cells.motion.reading`` reads a program into a ``Program``: its placed
moves (each a target in the robot's base frame, in millimetres, with the
TCP speed when the program gives it), the motions it could not place (listed
as not checked, never dropped) and the other statements (listed as skipped).
``segments`` turns the placed moves into the straight pieces a check walks
along; ``to_plan`` puts a point of the base frame on the cell's plan.

Where the path is not known, no piece is made up:

- The robot's position before the program is unknown: the first move gives
  no segment, it only places the robot.
- A motion that cannot be placed (joint values, a target computed when the
  program runs...) leaves the robot somewhere unknown: the next placed move
  starts a new path (``Move.after_break``); nothing joins across.
- A joint move (URScript ``movej`` to a pose, RAPID ``MoveJ``, KRL ``PTP``)
  is interpolated in joint space: between its ends the TCP follows a curve
  that depends on the robot's kinematics, not the straight segment drawn for
  it. Its segments keep the kind ``"joint"`` so a check can say so.
- An arc is cut into chords lying inside it: the arc bulges past its chords
  by at most ``ARC_TOLERANCE_MM``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from cells.motion.errors import ProgramError

__all__ = [
    "ARC_TOLERANCE_MM",
    "FORMATS",
    "MAX_CHORDS_PER_ARC",
    "MAX_SEGMENTS",
    "MOVE_KINDS",
    "NOT_CHECKED_REASONS",
    "SKIPPED_REASONS",
    "Format",
    "Listed",
    "Move",
    "MoveKind",
    "NotCheckedReason",
    "Point",
    "Program",
    "Segment",
    "SkippedReason",
    "arc_points",
    "segments",
    "to_plan",
]

# How far a chord may lie inside the arc it stands for: the DXF reader's
# FLATTEN_TOLERANCE_MM (cells.layout_dxf.reading), for the same reason.
# Small against the distances the plan is judged by (ISO 13857:2019 Tables
# 1 and 2 step the horizontal distance c by 100 mm; ISO 13855 minimum
# distances are hundreds of millimetres), and below the repeatability of
# a taught point's surroundings (fences, fixtures) as drawn.
ARC_TOLERANCE_MM = 5.0
# Chords of one arc at most: within 5 mm for a full circle up to 4.1 m of
# radius, a half circle up to 8.3 m, past any industrial robot's reach. A
# larger arc is cut into this many even chords, which then lie further in.
MAX_CHORDS_PER_ARC = 64
# Segments of one program at most: a program of MAX_MOTION_LINES (100,000)
# straight moves gives as many; arcs add chords. Past this the path is
# refused rather than built (some 200 bytes a segment); the same bound as
# the path check's (compliance.calculators.ts15066_path_models).
MAX_SEGMENTS = 200_000

Format = Literal["csv", "urscript", "rapid", "krl"]
FORMATS: tuple[str, ...] = get_args(Format)
# linear: straight (URScript movel, RAPID MoveL, KRL LIN, CSV waypoints);
# process: straight at constant speed, blended (URScript movep); circular:
# an arc through ``via`` (movec, MoveC, CIRC); joint: interpolated in joint
# space (movej to a pose, MoveJ, PTP).
MoveKind = Literal["linear", "process", "circular", "joint"]
MOVE_KINDS: tuple[str, ...] = get_args(MoveKind)
NotCheckedReason = Literal[
    "joint_values",  # movej/movel to joint values, MoveAbsJ, PTP to axis values
    "expression",  # a target the program computes when it runs
    "work_object",  # RAPID \WObj other than wobj0: another frame than the base's
    "unsupported_motion",  # speedl, servoj, LIN_REL, CIRC with CA, SPL...
]
NOT_CHECKED_REASONS: tuple[str, ...] = get_args(NotCheckedReason)
SkippedReason = Literal[
    "not_motion",  # IO, waits, logic, calls to routines not in the file
    "call",  # a call to a routine of the file, read where it is written
]
SKIPPED_REASONS: tuple[str, ...] = get_args(SkippedReason)


@dataclass(frozen=True, slots=True)
class Point:
    """A TCP position in millimetres, in the frame the caller says (the
    robot's base frame as read; the plan's after ``to_plan``)."""

    x_mm: float
    y_mm: float
    z_mm: float


@dataclass(frozen=True, slots=True)
class Move:
    """A motion statement placed at its target: ``line`` is where it starts
    in the file (1-based), ``text`` the statement as written (stripped, on
    one line, at most 200 characters). ``via`` is a circular move's
    auxiliary point. ``speed_mm_s`` is the programmed TCP speed; None when
    the program does not give it (joint moves, a time given instead...).
    ``after_break`` is True when the robot does not come from the move
    listed before it (see ``segments``); the first move never has one."""

    line: int
    kind: MoveKind
    target: Point
    via: Point | None
    speed_mm_s: float | None
    text: str
    after_break: bool = False


@dataclass(frozen=True, slots=True)
class Listed:
    """A statement not placed: a motion not checked, or a statement skipped
    (``NOT_CHECKED_REASONS``, ``SKIPPED_REASONS``)."""

    line: int
    text: str
    reason: str


@dataclass(frozen=True, slots=True)
class Program:
    """What a program file gives: its placed moves in path order (each
    routine's in the order written, routines in the order they end), the
    motions not checked and the statements skipped, in file order."""

    format: Format
    moves: tuple[Move, ...]
    not_checked: tuple[Listed, ...]
    skipped: tuple[Listed, ...]


@dataclass(frozen=True, slots=True)
class Segment:
    """A straight piece of the TCP's path: numbered from 0 along the
    program, with the line, speed and kind of the move it belongs to."""

    index: int
    line: int
    start: Point
    end: Point
    speed_mm_s: float | None
    kind: MoveKind


def segments(program: Program, *, max_segments: int = MAX_SEGMENTS) -> list[Segment]:
    """The straight pieces of the program's path, from each placed move's
    previous position to its target; a circular move's arc in chords
    (``arc_points``), each chord with the move's line and speed; an arc whose
    three points are in a line (or coincide) as one straight piece.

    The first move, and each move after a break (``Move.after_break``),
    gives no piece: where the robot comes from is unknown. A move that goes
    nowhere (its target where it starts) gives none either: the TCP sweeps
    nothing. More than ``max_segments`` pieces: ``ProgramError
    ("too_many_segments", line=, limit=)``."""
    found: list[Segment] = []
    previous: Point | None = None
    for move in program.moves:
        start = None if move.after_break else previous
        previous = move.target
        if start is None:
            continue
        points = None
        if move.kind == "circular" and move.via is not None:
            points = arc_points(start, move.via, move.target)
        for a, b in itertools.pairwise(points or [start, move.target]):
            if a == b:
                continue
            if len(found) >= max_segments:
                raise ProgramError(
                    "too_many_segments", line=move.line, limit=max_segments
                )
            found.append(
                Segment(len(found), move.line, a, b, move.speed_mm_s, move.kind)
            )
    return found


Vector = tuple[float, float, float]


def _sub(a: Point, b: Point) -> Vector:
    return (a.x_mm - b.x_mm, a.y_mm - b.y_mm, a.z_mm - b.z_mm)


def _cross(a: Vector, b: Vector) -> Vector:
    return (
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    )


def _dot(a: Vector, b: Vector) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _scaled(a: Vector, k: float) -> Vector:
    return (a[0] * k, a[1] * k, a[2] * k)


def arc_points(
    start: Point,
    via: Point,
    end: Point,
    *,
    tolerance_mm: float = ARC_TOLERANCE_MM,
    max_chords: int = MAX_CHORDS_PER_ARC,
) -> list[Point] | None:
    """The ends of the chords along the arc of the circle through the three
    points, from ``start`` through ``via`` to ``end`` (both included), each
    chord within ``tolerance_mm`` of the arc (its sagitta r(1 - cos a/2) for
    a chord over the angle a) and over at most a quarter turn, at most
    ``max_chords`` of them. None when the points make no arc: in a line, or
    two of them the same.

    The circle through three points: with a = start - end, b = via - end,
    its centre is end + ((|a|² b - |b|² a) × (a × b)) / (2 |a × b|²). The arc
    runs counter-clockwise round the normal (via - start) × (end - via), the
    way a triangle inscribed in a circle turns as the circle is followed."""
    a, b = _sub(start, end), _sub(via, end)
    axb = _cross(a, b)
    d = _dot(axb, axb)
    aa, bb = _dot(a, a), _dot(b, b)
    if d <= 1e-18 * aa * bb:
        return None
    ab = (bb * a[0] - aa * b[0], bb * a[1] - aa * b[1], bb * a[2] - aa * b[2])
    # (|a|² b - |b|² a) × (a × b) = -((|b|² a - |a|² b) × (a × b))
    offset = _scaled(_cross(ab, axb), -1 / (2 * d))
    centre = (end.x_mm + offset[0], end.y_mm + offset[1], end.z_mm + offset[2])
    u = (
        start.x_mm - centre[0],
        start.y_mm - centre[1],
        start.z_mm - centre[2],
    )
    radius = math.sqrt(_dot(u, u))
    u = _scaled(u, 1 / radius)
    normal = _cross(_sub(via, start), _sub(end, via))
    normal = _scaled(normal, 1 / math.sqrt(_dot(normal, normal)))
    w = _cross(normal, u)
    to_end = (end.x_mm - centre[0], end.y_mm - centre[1], end.z_mm - centre[2])
    span = math.atan2(_dot(to_end, w), _dot(to_end, u)) % (2 * math.pi)
    step = math.pi / 2
    if tolerance_mm < radius:
        step = min(step, 2 * math.acos(1 - tolerance_mm / radius))
    count = min(max(1, math.ceil(span / step - 1e-9)), max_chords)
    points = [start]
    for k in range(1, count):
        t = span * k / count
        c, s = math.cos(t) * radius, math.sin(t) * radius
        points.append(
            Point(
                centre[0] + c * u[0] + s * w[0],
                centre[1] + c * u[1] + s * w[1],
                centre[2] + c * u[2] + s * w[2],
            )
        )
    points.append(end)
    return points


def to_plan(
    point: Point,
    *,
    base_x_mm: float,
    base_y_mm: float,
    base_z_mm: float = 0,
    rotation_deg: float,
) -> Point:
    """A point of the robot's base frame on the cell's plan: turned about z
    by ``rotation_deg`` (counter-clockwise, from the plan's x axis to the
    base frame's, as ``Cell.robot_base_rotation_deg``), then moved to the
    base's position on the plan (and height above the floor). Quarter turns
    are exact."""
    cos, sin = _cos_sin(rotation_deg)
    return Point(
        base_x_mm + point.x_mm * cos - point.y_mm * sin,
        base_y_mm + point.x_mm * sin + point.y_mm * cos,
        base_z_mm + point.z_mm,
    )


_QUARTER_TURNS = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))


def _cos_sin(degrees: float) -> tuple[float, float]:
    quarters, rest = divmod(degrees, 90)
    if rest == 0:
        return _QUARTER_TURNS[int(quarters) % 4]
    radians = math.radians(degrees)
    return math.cos(radians), math.sin(radians)


def rows_on_plan(
    rows: Iterable[Sequence],
    *,
    base_x_mm: float,
    base_y_mm: float,
    rotation_deg: float,
) -> list[tuple[int, float, float, float, float, float, float, float | None]]:
    """Stored segment rows ``[line, x1, y1, z1, x2, y2, z2, speed, kind]`` of
    the robot's base frame as ``(line, x1, y1, z1, x2, y2, z2, speed)`` on the
    plan (as ``to_plan``, the turn computed once for all)."""
    cos, sin = _cos_sin(rotation_deg)
    found = []
    for line, x1, y1, z1, x2, y2, z2, speed, *_kind in rows:
        found.append(
            (
                int(line),
                base_x_mm + x1 * cos - y1 * sin,
                base_y_mm + x1 * sin + y1 * cos,
                float(z1),
                base_x_mm + x2 * cos - y2 * sin,
                base_y_mm + x2 * sin + y2 * cos,
                float(z2),
                None if speed is None else float(speed),
            )
        )
    return found
