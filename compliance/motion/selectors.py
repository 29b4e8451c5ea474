"""Reads of the Motion tab (issue 32): a cell's robot programs, and each
one's path judged where people are.

The judgement is the one the PFL and SSM findings make:
``compliance.rules.motion.program_path`` on the cell's snapshot, for speed
and separation monitoring with the first scanner placed on the plan when the
cell uses it. It is kept under the content version of the cell's inputs
(``compliance.rules.results.kept``; the programs and stations are part of
it), so the tab, the segments API, the annotated file and the findings
agree, and a program of 10,000 segments is judged once per change, not per
page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from django.db.models import QuerySet

from cells.models import Cell
from cells.motion.models import MotionProgram
from compliance.calculators.base import Line
from compliance.calculators.ts15066_path import (
    VERDICT_RANK,
    PathResult,
    SegmentResult,
)
from compliance.rules.facts import CellFacts, DeviceFacts
from compliance.rules.motion import program_path
from compliance.rules.motion_facts import ProgramFacts
from compliance.rules.results import cell_snapshot, kept

# Raised when what is kept changes shape: a value of the old shape is then
# never read as a new one.
FORMAT = 1
VERDICTS = ("fail", "measure", "not_checked", "pass")


class JudgedSegment(NamedTuple):
    """One segment as the tab and the API read it: the calculator's
    ``SegmentResult`` as a plain tuple, its lines as (text, values, formula).
    Kept for a program's every segment, read back from the cache: a tuple
    is read back thirty times as fast as the model."""

    index: int
    line: int
    verdict: str
    nearest_station: str | None
    nearest_station_distance_mm: float | None
    pfl_limit_mm_s: float | None
    pfl_station: str | None
    clamping_verdict: str
    clamping_obstacle: str | None
    ssm_verdict: str | None
    ssm_separation_mm: float | None
    ssm_shortfall_mm: float | None
    permissible_speed_mm_s: float | None
    lines: tuple[tuple[str, tuple[tuple[str, str | int | float], ...], str], ...]

    @classmethod
    def of(cls, segment: SegmentResult) -> JudgedSegment:
        return cls(
            *(getattr(segment, name) for name in cls._fields[:-1]),
            tuple(
                (line.text, tuple(line.values.items()), line.formula)
                for line in segment.lines
            ),
        )

    def explained(self, translate: Callable[[str], str]) -> list[str]:
        """Why the segment has its verdict, in the reader's language."""
        return [
            Line(text=text, values=dict(values), formula=formula).render(translate)
            for text, values, formula in self.lines
        ]


@dataclass(frozen=True)
class Judgement:
    """A program's path on the plan as the rules judge it: the program as
    the snapshot holds it (its segments on the plan), each segment judged
    (``segments``; none when it cannot be judged, ``why``), the result's
    totals (the calculator's result without its segments), the scanner
    speed and separation monitoring was judged with, and each station's
    contact zone on the plan (label, x, y, reach in mm) as the result names
    the stations."""

    program: ProgramFacts
    totals: PathResult | None
    segments: tuple[JudgedSegment, ...]
    why: str
    scanner: str | None
    zones: tuple[tuple[str, float, float, float], ...]

    @property
    def verdicts(self) -> tuple[str, ...]:
        """Each segment's verdict, in program order."""
        if self.totals is None:
            return ("not_checked",) * len(self.program.segments)
        return tuple(s.verdict for s in self.segments)


@dataclass(frozen=True)
class Summary:
    """A program's verdicts at a glance, for the list of programs."""

    worst: str | None  # None: it cannot be judged
    counts: dict[str, int]
    failing_lines: tuple[int, ...]
    segments: int


def ssm_scanner(facts: CellFacts) -> DeviceFacts | None:
    """The scanner a program's speed and separation monitoring is judged
    with: the first laser scanner placed on the plan, when the cell uses the
    mode and its layout can be analysed (as the SSM rule judges paths)."""
    if "ssm" not in facts.collaborative_modes or facts.layout is None:
        return None
    return next(
        (d for d in facts.devices_of("laser_scanner") if d.position_mm is not None),
        None,
    )


def judge(facts: CellFacts, program: ProgramFacts) -> Judgement:
    """``program`` judged on the snapshot ``facts`` (not kept: ``judgement``
    keeps it)."""
    scanner = ssm_scanner(facts)
    result, why = program_path(facts, program, scanner)
    zones: tuple[tuple[str, float, float, float], ...] = ()
    if result is not None:
        # The result's stations are the snapshot's, in its order, under the
        # labels the result gives them.
        zones = tuple(
            (limit.label, station.position_mm[0], station.position_mm[1], reach)
            for station, limit in zip(facts.stations, result.stations, strict=True)
            if (reach := limit.contact_reach_mm)
        )
    return Judgement(
        program=program,
        totals=None if result is None else result.model_copy(update={"segments": ()}),
        segments=()
        if result is None
        else tuple(map(JudgedSegment.of, result.segments)),
        why=why,
        scanner=scanner.label if scanner is not None and result is not None else None,
        zones=zones,
    )


def _key(program_pk: int) -> str:
    return f"motion:{FORMAT}:{program_pk}"


def judgement(cell: Cell, program_pk: int) -> Judgement | None:
    """The program ``program_pk`` of ``cell`` judged (kept), for a cell read
    with ``cells.selectors.cell_with_layout``; None when the snapshot has no
    such program (another cell's, or one removed meanwhile)."""

    def compute() -> Judgement | None:
        facts = cell_snapshot(cell)
        key = f"program:{program_pk}"
        program = next((p for p in facts.programs if p.key == key), None)
        return None if program is None else judge(facts, program)

    return kept(cell, _key(program_pk), compute)


def summary(judged: Judgement) -> Summary:
    totals = judged.totals
    if totals is None:
        return Summary(None, {}, (), len(judged.program.segments))
    return Summary(
        worst=totals.worst_verdict,
        counts={v: totals.counts.get(v, 0) for v in VERDICTS},
        failing_lines=totals.failing_lines,
        segments=len(judged.segments),
    )


def summaries(cell: Cell) -> dict[int, Summary]:
    """Each program the cell's snapshot judges, by its id: its worst
    verdict and counts (kept; each program's judgement is kept with it)."""

    def compute() -> dict[int, Summary]:
        found = {}
        for program in cell_snapshot(cell).programs:
            pk = int(program.key.partition(":")[2])
            judged = judgement(cell, pk)
            if judged is not None:
                found[pk] = summary(judged)
        return found

    return kept(cell, f"motion:{FORMAT}:summaries", compute)


def cell_programs(cell: Cell) -> QuerySet[MotionProgram]:
    """The cell's own programs, in the order the rules read them, without
    their files and paths (the list needs neither)."""
    return (
        MotionProgram.objects.filter(cell=cell)
        .select_related("imported_by")
        .defer("data", "segments", "not_checked", "skipped")
        .order_by("imported_at", "id")
    )


def worst_first(summaries_by_pk: dict[int, Summary], pks: list[int]) -> int | None:
    """The program to show first: the one whose worst verdict is worst, the
    first imported of those."""
    if not pks:
        return None
    return max(
        pks,
        key=lambda pk: (
            VERDICT_RANK.get(worst, 0)
            if (worst := getattr(summaries_by_pk.get(pk), "worst", None))
            else 0,
            -pks.index(pk),
        ),
    )
