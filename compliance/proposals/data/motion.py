"""The robot programs of a proposal's cell (issue 32): each program's path on
the plan by verdict, the operator stations' contact zones, the failing moves
with the speed each may have, and the cycle time as programmed and as
limited. Judged from the cell's snapshot by ``compliance.rules.motion``, as
the findings are (``compliance.plan.programs.judged_paths``), so the plan,
the findings and the plans' activities agree.

Programs are named as the findings name them, "Robot program 1": their files'
names are the SA's, not the customer's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from compliance.calculators.ts15066_path import PathResult, SegmentResult
from compliance.plan.programs import Mode, judged_paths
from compliance.proposals.pdf.program_data import (
    LINES_PER_PIECE,
    MAX_PATH_POINTS,
    MAX_SLOW_SEGMENTS,
    ContactZone,
    PathPiece,
    PathVerdict,
    PlanPoint,
    ProgramPath,
    SlowSegment,
)
from compliance.rules.facts import CellFacts
from compliance.rules.motion import program_number, station_labels
from compliance.rules.motion_facts import ProgramFacts

# How finely the paths are drawn when they hold more points than the
# proposal carries: to a thousandth of their extent first (half a point on an
# A4 plan), coarser twice at a time, to a fiftieth at most (some 10 points).
FIRST_GRID_SHARE = 1 / 1000
COARSEST_GRID_SHARE = 1 / 50

Move = tuple[PathVerdict, PlanPoint, PlanPoint, int]  # verdict, ends, line


def program_paths(facts: CellFacts) -> dict[str, Any]:
    """The ``CellSection`` fields of the cell's robot programs: ``programs``,
    ``contact_zones``, ``slow_segments`` and ``slow_segments_more``; empty
    without a program."""
    if not facts.programs:
        return {}
    moves: list[list[Move]] = []
    paths: list[dict[str, Any]] = []
    slow: list[tuple[float, SlowSegment]] = []
    zones: dict[str, float] = {}
    for program in facts.programs:
        label = _("Robot program %(number)s") % {
            "number": program_number(facts, program)
        }
        judged = judged_paths(facts, program)
        verdicts, failing = _verdicts(program, judged, label)
        moves.append(
            [
                (verdicts[index], (x1, y1), (x2, y2), line)
                for index, (line, x1, y1, _z1, x2, y2, _z2, _v) in enumerate(
                    program.segments
                )
            ]
        )
        slow += failing
        first = judged[0][1] if judged else None
        paths.append(
            {
                "label": label,
                "cycle_time_programmed_s": _seconds(
                    first.cycle_time_programmed_s if first else None
                ),
                "cycle_time_limited_s": _seconds(
                    first.cycle_time_limited_s if first else None
                ),
                "failing_segments": len(failing),
            }
        )
        for _mode, result in judged:
            for station in result.stations:
                zones.setdefault(station.label, station.contact_reach_mm)
    pieces = bounded_pieces(moves, MAX_PATH_POINTS)
    slow.sort(key=lambda pair: -pair[0])  # the worst first, stable
    labels = station_labels(facts)
    return {
        "programs": tuple(
            ProgramPath(pieces=tuple(p), **path)
            for path, p in zip(paths, pieces, strict=True)
        ),
        "contact_zones": tuple(
            ContactZone(
                station=labels[station.key],
                x_mm=float(station.position_mm[0]),
                y_mm=float(station.position_mm[1]),
                radius_mm=zones[labels[station.key]],
            )
            for station in facts.stations
            if labels[station.key] in zones
        ),
        "slow_segments": tuple(row for _excess, row in slow[:MAX_SLOW_SEGMENTS]),
        "slow_segments_more": max(len(slow) - MAX_SLOW_SEGMENTS, 0),
    }


def _seconds(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def _speed(value: float | None) -> Decimal:
    return Decimal(str(round(value or 0.0, 1)))


def _verdicts(
    program: ProgramFacts, judged: list[tuple[Mode, PathResult]], label: str
) -> tuple[list[PathVerdict], list[tuple[float, SlowSegment]]]:
    """Each segment's verdict on the plan (fail for any mode, else measure
    where a person could be clamped, else other), and the failing ones with
    how far each is over the speed it may have."""
    verdicts: list[PathVerdict] = ["other"] * len(program.segments)
    worst: dict[int, tuple[SegmentResult, float | None, str]] = {}
    for mode, result in judged:
        for segment in result.segments:
            index = segment.index
            if mode == "pfl":
                fails = segment.pfl_verdict == "fail"
                limit, station = segment.pfl_limit_mm_s, segment.pfl_station
                if segment.clamping_verdict == "measure" and verdicts[index] == "other":
                    verdicts[index] = "measure"
            else:
                fails = segment.ssm_verdict == "fail"
                limit, station = segment.ssm_limit_mm_s, segment.ssm_target
            if not fails:
                continue
            verdicts[index] = "fail"
            # Where two limits fail a move, the lower is the speed it may have.
            known = worst.get(index)
            if known is None or (limit or 0.0) < (known[1] or 0.0):
                worst[index] = (segment, limit, station or "")
    failing = [
        (
            (segment.speed_mm_s or 0.0) - (limit or 0.0),
            SlowSegment(
                program=label,
                line=segment.line,
                speed_mm_s=_speed(segment.speed_mm_s),
                permissible_mm_s=_speed(limit),
                station=station,
            ),
        )
        for index, (segment, limit, station) in sorted(worst.items())
    ]
    return verdicts, failing


def bounded_pieces(
    programs: list[list[Move]], most_points: int
) -> list[list[PathPiece]]:
    """Each program's moves merged into polylines of one verdict, with at
    most ``most_points`` points in all: past that, the points are snapped to
    a grid, coarser while there are more (a thousandth of the paths' extent
    first, up to a fiftieth); a polyline drawn twice is kept once. A failing
    or measured move never vanishes by snapping: snapped to one point, it is
    kept as a dot. Past the coarsest grid (a path whose verdicts alternate
    thousands of times), the failing pieces are kept first, then the
    measured ones, then the others, in the programs' order."""
    points = [p for moves in programs for _v, a, b, _l in moves for p in (a, b)]
    if not points:
        return [[] for _ in programs]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
    grid = 0.0  # as they are, first
    while True:
        merged = [_merged(moves, grid) for moves in programs]
        total = sum(len(piece.points) for pieces in merged for piece in pieces)
        if total <= most_points or grid * 2 > span * COARSEST_GRID_SHARE:
            break
        grid = grid * 2 if grid else span * FIRST_GRID_SHARE
    if total > most_points:
        merged = _first_kept(merged, most_points)
    return [[piece.shown() for piece in pieces] for pieces in merged]


def _first_kept(merged: list[list[_Piece]], most_points: int) -> list[list[_Piece]]:
    """The pieces that fit ``most_points``: failing first, then measured,
    then the others, each in the programs' order."""
    kept: set[int] = set()
    left = most_points
    for verdict in ("fail", "measure", "other"):
        for pieces in merged:
            for piece in pieces:
                if piece.verdict == verdict and len(piece.points) <= left:
                    kept.add(id(piece))
                    left -= len(piece.points)
    return [[piece for piece in pieces if id(piece) in kept] for pieces in merged]


@dataclass
class _Piece:
    verdict: PathVerdict
    points: list[PlanPoint]
    lines: list[int] = field(default_factory=list)

    def shown(self) -> PathPiece:
        lines = list(dict.fromkeys(self.lines)) if self.verdict == "fail" else []
        return PathPiece(
            verdict=self.verdict,
            points_mm=tuple(self.points),
            lines=tuple(lines[:LINES_PER_PIECE]),
            more_lines=len(lines) > LINES_PER_PIECE,
        )


def _snap(point: PlanPoint, grid: float) -> PlanPoint:
    if not grid:
        return (round(point[0], 1), round(point[1], 1))
    return (
        round(round(point[0] / grid) * grid, 1),
        round(round(point[1] / grid) * grid, 1),
    )


def _merged(moves: list[Move], grid: float) -> list[_Piece]:
    pieces: list[_Piece] = []
    seen: dict[tuple, _Piece] = {}
    current: _Piece | None = None

    def close() -> None:
        if current is None:
            return
        if len(current.points) == 1:
            if current.verdict == "other":
                return
            current.points.append(current.points[0])  # a dot
        key = (current.verdict, tuple(current.points))
        if key in seen:  # drawn already: its lines are that piece's too
            seen[key].lines += current.lines
        else:
            seen[key] = current
            pieces.append(current)

    for verdict, start, end, line in moves:
        a, b = _snap(start, grid), _snap(end, grid)
        if (
            current is not None
            and verdict == current.verdict
            and current.points[-1] == a
        ):
            if b != a:
                current.points.append(b)
            current.lines.append(line)
            continue
        close()
        current = _Piece(verdict, [a] if a == b else [a, b], [line])
    close()
    return pieces
