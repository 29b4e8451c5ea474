"""What the findings mark on a cell's plan, for the cell page, the DXF export
and the proposal alike: each device's required minimum distance from the
hazard zone (ISO 13855), the openings that fail to be guarded, and the
approaches no protective field covers."""

from __future__ import annotations

from collections.abc import Iterable

from cells.drawing import Requirement
from cells.models import Cell
from cells.perimeter.approach import Point, contour
from cells.selectors import zone_of
from compliance.rules import results, safeguarding, scanning, sensing
from compliance.rules.findings import Finding, Status
from compliance.rules.sensing_2024 import MINIMUM_DISTANCE_2024

# The findings that give a device's required minimum distance from the hazard
# zone (ISO 13855): sensing devices, and interlocked doors without guard locking.
DISTANCE_RULES = frozenset(
    {
        sensing.MINIMUM_DISTANCE.id,
        MINIMUM_DISTANCE_2024.id,
        sensing.INTERLOCK_DISTANCE.id,
    }
)


def distance_requirements(cell: Cell) -> list[Requirement]:
    """The minimum distance each device of a cell loaded by
    ``cells.selectors.cell_with_layout`` is required to keep from the hazard
    zone (from the cell's findings, computed once per change of the cell)."""

    def required() -> list[tuple[str, int, str]]:
        return [
            (
                finding.subject_key,
                int(finding.required_mm),
                str(finding.status),
            )
            for finding in results.cell_finding_list(cell)
            if finding.rule_id in DISTANCE_RULES and finding.required_mm is not None
        ]

    index_of = {f"device:{d.pk}": i for i, d in enumerate(cell.devices.all())}
    return [
        Requirement(device_index=index_of[key], required_mm=mm, status=status)
        for key, mm, status in results.kept(cell, "distances", required)
        if key in index_of
    ]


def failing_openings(
    cell: Cell, findings: Iterable[Finding]
) -> tuple[tuple[int, int], ...]:
    """The openings of a cell loaded with its layout that fail to be guarded
    (no device closes them, or the device that does fails its own checks), by
    (segment index, opening index) on the plan."""
    failing = {
        finding.subject_key
        for finding in findings
        if finding.rule_id == safeguarding.OPENINGS_GUARDED.id
        and finding.status is Status.FAIL
    }
    return tuple(
        (s_index, o_index)
        for s_index, segment in enumerate(cell.segments.all())
        for o_index, opening in enumerate(segment.openings.all())
        if f"opening:{opening.pk}" in failing
    )


def uncovered_approaches(
    cell: Cell, findings: Iterable[Finding]
) -> list[tuple[list[Point], int]]:
    """The approaches to the zone no protective field covers, as the
    drawing takes them: the line S out from the zone along each side or
    opening that fails, and that S."""
    failing = [
        f
        for f in findings
        if f.rule_id == scanning.APPROACHES.id
        and f.status is Status.FAIL
        and {"from_deg", "to_deg"} <= set(f.numbers)
        and f.required_mm is not None
    ]
    if not failing:
        return []
    zone = zone_of(cell)
    return [
        (
            contour(
                zone,
                float(f.required_mm),
                float(f.numbers["from_deg"]),
                float(f.numbers["to_deg"]),
            ),
            int(f.required_mm),
        )
        for f in failing
    ]


def plan_marks(cell: Cell) -> dict:
    """What the findings draw on the cell's plan, as ``layout_drawing``
    takes it: each opening's verdict and the approaches left open."""
    findings = results.cell_finding_list(cell)
    return {
        "opening_status": dict.fromkeys(failing_openings(cell, findings), "fail"),
        "uncovered": uncovered_approaches(cell, findings),
    }
