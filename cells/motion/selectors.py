"""Reads of the motion feature: a robot program's file annotated with the
speed each failing line may have (issue 32).

The path is judged where people are by the rules, on the cell's snapshot
(``compliance.rules.motion.program_path``), and kept per change by
``compliance.motion.selectors.judgement``, which the Motion tab, the
segments API and this file's annotations read (the findings make the same
judgement). This room, below the rules, only writes its result into the
file."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from cells.motion.models import MotionProgram


class JudgedSegment(Protocol):
    """A segment as judged (``compliance.calculators.ts15066_path``'s
    SegmentResult, or the rows the Motion tab keeps of it)."""

    @property
    def line(self) -> int: ...
    @property
    def verdict(self) -> str: ...
    @property
    def permissible_speed_mm_s(self) -> float | None: ...


# How each format writes a comment line.
COMMENT = {"urscript": "#", "rapid": "!", "krl": ";"}


def annotated(program: MotionProgram, segments: Iterable[JudgedSegment]) -> bytes:
    """The program's file with a comment above each line whose segment fails,
    giving the speed it may have; every other byte as imported, so the robot
    programmer can review the difference. (CSV has no comments: not for it.)"""
    mark = COMMENT[program.format]
    limits: dict[int, float] = {}
    for segment in segments:
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
