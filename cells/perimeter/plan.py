"""A cell's plan as the perimeter analysis reads it, built in one place from
whatever holds the cell (its rows, its exchange document, a guarding concept),
and analysed once per plan. Pure Python, no Django.

The rules (``compliance.rules.cell_facts``) and the drawing
(``cells.drawing``) both take their ``Layout`` from ``plan_layout`` and their
analysis from ``analysed``: the gaps the plan draws are the gaps the findings
name, because they are the same object, not two computations that must agree.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from cells.perimeter.analysis import analyse_perimeter
from cells.perimeter.inputs import HazardZone, Layout, Opening, Point, Segment
from cells.perimeter.results import PerimeterResult


class PlanOpening(NamedTuple):
    """An opening of a guard segment, measured along it from its start."""

    key: str
    offset_mm: float
    width_mm: float
    lower_edge_mm: float
    upper_edge_mm: float


class PlanSegment(NamedTuple):
    """A guard segment on the plan with its openings."""

    key: str
    start: Point
    end: Point
    height_mm: float
    bottom_gap_mm: float
    kind: str
    openings: Sequence[PlanOpening] = ()


def plan_layout(zone: HazardZone, segments: Iterable[PlanSegment]) -> Layout:
    """The ``Layout`` of a plan. A segment of no length guards nothing and is
    left out (the forms refuse one; a cell written before they did, or
    straight into the database, still draws and is judged), with its
    openings."""
    kept = [
        s
        for s in segments
        if (float(s.start[0]), float(s.start[1])) != (float(s.end[0]), float(s.end[1]))
    ]
    return Layout(
        zone=zone,
        segments=tuple(
            Segment(
                key=s.key,
                start=(float(s.start[0]), float(s.start[1])),
                end=(float(s.end[0]), float(s.end[1])),
                height_mm=float(s.height_mm),
                lower_edge_mm=float(s.bottom_gap_mm or 0),
                kind=s.kind,
            )
            for s in kept
        ),
        openings=tuple(
            Opening(
                key=o.key,
                segment_key=s.key,
                offset_mm=float(o.offset_mm),
                width_mm=float(o.width_mm),
                lower_edge_mm=float(o.lower_edge_mm),
                upper_edge_mm=float(o.upper_edge_mm),
            )
            for s in kept
            for o in s.openings
        ),
    )


@functools.lru_cache(maxsize=32)
def analysed(layout: Layout) -> PerimeterResult:
    """``analyse_perimeter`` of ``layout``, kept for the same plan: however
    many rules, the drawing and the proposal's summary ask, once."""
    return analyse_perimeter(layout)
