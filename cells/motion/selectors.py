"""Reads of the motion feature: a robot program's path on the cell's plan,
judged segment by segment where people are (issue 32).

``program_judgement`` hands the calculator (``compliance.calculators.
ts15066_path``) what the cell records: the path turned and moved by the
robot base, the operator stations with their exposed body regions and
contact reach, the guards as the obstacles a person could be clamped
against, the robot's moving mass and payload. Power and force limiting and
clamping are judged here; the separation of speed and separation monitoring
needs the scanner's and controller's times the rules gather, and is judged
with the cell's findings (not here yet)."""

from __future__ import annotations

from cells.models import Cell
from cells.motion.models import MotionProgram
from cells.motion.path import Point, to_plan
from cells.selectors import load_layout
from compliance.calculators.ts15066_path import (
    ObstacleIn,
    PathInput,
    PathResult,
    PathSegmentIn,
    PlanPointIn,
    StationIn,
    ts15066_path,
)

OBSTACLE_KINDS = {"fence": "fence", "wall": "wall", "machine_body": "machine"}


def plan_point(cell: Cell, x: float, y: float, z: float) -> Point:
    """A point of the robot's base frame on the cell's plan."""
    return to_plan(
        Point(x, y, z),
        base_x_mm=cell.robot_base_x_mm,
        base_y_mm=cell.robot_base_y_mm,
        rotation_deg=cell.robot_base_rotation_deg,
    )


def plan_segments(cell: Cell, program: MotionProgram) -> list[PathSegmentIn]:
    """The program's stored segments on the plan, as the calculator takes them."""
    found = []
    for index, (line, x1, y1, z1, x2, y2, z2, speed, _kind) in enumerate(
        program.segments
    ):
        a, b = plan_point(cell, x1, y1, z1), plan_point(cell, x2, y2, z2)
        found.append(
            PathSegmentIn(
                index=index,
                line=line,
                start=PlanPointIn(x_mm=a.x_mm, y_mm=a.y_mm, z_mm=a.z_mm),
                end=PlanPointIn(x_mm=b.x_mm, y_mm=b.y_mm, z_mm=b.z_mm),
                speed_mm_s=None if speed is None else float(speed),
            )
        )
    return found


def program_judgement(cell: Cell, program: MotionProgram) -> PathResult | None:
    """The program's path judged on the cell's plan; None when it has no
    segment (one placed move, or only joint moves)."""
    segments = plan_segments(cell, program)
    if not segments:
        return None
    load_layout(cell)
    return ts15066_path(
        PathInput(
            segments=tuple(segments),
            stations=tuple(
                StationIn(
                    label=station.label,
                    x_mm=float(station.x_mm),
                    y_mm=float(station.y_mm),
                    body_regions=tuple(station.exposed_regions),
                    contact_reach_mm=None
                    if station.contact_reach_mm is None
                    else float(station.contact_reach_mm),
                )
                for station in cell.stations.all()
            ),
            obstacles=tuple(
                ObstacleIn(
                    label=str(segment)[:60],
                    kind=OBSTACLE_KINDS.get(segment.kind, "other"),
                    x1_mm=float(segment.start_x_mm),
                    y1_mm=float(segment.start_y_mm),
                    x2_mm=float(segment.end_x_mm),
                    y2_mm=float(segment.end_y_mm),
                )
                for segment in cell.segments.all()
            ),
            robot_moving_mass_kg=float(cell.moving_mass_kg),
            payload_kg=float(cell.payload_kg),
        )
    )


# How each format writes a comment line.
COMMENT = {"urscript": "#", "rapid": "!", "krl": ";"}


def annotated(program: MotionProgram, result: PathResult | None) -> bytes:
    """The program's file with a comment above each line whose segment fails,
    giving the speed it may have; every other byte as imported, so the robot
    programmer can review the difference. (CSV has no comments: None.)"""
    mark = COMMENT[program.format]
    limits: dict[int, float] = {}
    for segment in result.segments if result else ():
        if segment.verdict == "fail" and segment.permissible_speed_mm_s is not None:
            limit = segment.permissible_speed_mm_s
            limits[segment.line] = min(limit, limits.get(segment.line, limit))
    data = bytes(program.data)
    out: list[bytes] = []
    for number, line in enumerate(data.splitlines(keepends=True), start=1):
        if number in limits:
            indent = line[: len(line) - len(line.lstrip())]
            newline = b"\r\n" if line.endswith(b"\r\n") else b"\n"
            limit = limits[number]
            words = (
                f"{mark} Cell Safety Planner: slow this move to at most "
                f"{limit:.0f} mm/s ({limit / 1000:.3f} m/s) where a person can be "
                "touched (ISO/TS 15066 Annex A)"
                if limit > 0
                else f"{mark} Cell Safety Planner: no speed is permitted here; "
                "move the path away from the person (ISO/TS 15066 Annex A)"
            )
            out.append(indent + words.encode("ascii") + newline)
        out.append(line)
    return b"".join(out)
