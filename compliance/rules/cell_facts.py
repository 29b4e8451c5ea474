"""The cell as the rule packs see it: ``CellFacts`` built from the database.

Distances to the hazard zone are measured on the plan: from each guard segment
or opening to the zone's circle or polygon (0 where it reaches into the zone).
"""

from __future__ import annotations

from cells import geometry
from cells.models import Cell
from compliance.assessment import selectors
from compliance.assessment.models import Assessment, RevisionStatus
from compliance.rules.facts import (
    AssessmentFacts,
    CellFacts,
    DeviceFacts,
    OpeningFacts,
    SegmentFacts,
)


def _distance(cell: Cell, a: geometry.Point, b: geometry.Point) -> float:
    if cell.hazard_zone_shape == "polygon" and len(cell.hazard_zone_polygon_mm) >= 3:
        polygon = [(float(x), float(y)) for x, y in cell.hazard_zone_polygon_mm]
        return geometry.distance_to_polygon(a, b, polygon)
    centre = (float(cell.robot_base_x_mm), float(cell.robot_base_y_mm))
    return geometry.distance_to_circle(
        a, b, centre, cell.hazard_zone_effective_radius_mm
    )


def _records(revision) -> dict[str, object]:
    regions = revision.hazards.exclude(body_region="").values_list(
        "body_region", flat=True
    )
    return {
        "low_fence_justification": bool(revision.low_guard_justification.strip()),
        "conformity_route": bool(revision.conformity_route.strip()),
        "contact_regions": tuple(sorted(set(regions))),
    }


def _assessment(cell: Cell) -> AssessmentFacts:
    """What the cell's latest signed revision records for the checks, and what
    a newer draft adds (pending, changing no verdict)."""
    assessment = Assessment.objects.filter(cell=cell).first()
    if assessment is None:
        return AssessmentFacts()
    signed = (
        assessment.revisions.filter(status=RevisionStatus.SIGNED)
        .order_by("-number")
        .first()
    )
    current = selectors.current_revision(assessment)
    draft = current if signed is None or current.number > signed.number else None
    kept = _records(signed) if signed else {}
    pending = []
    if draft is not None:
        for key, value in _records(draft).items():
            if value and value != kept.get(key):
                pending.append(key)
    return AssessmentFacts(
        exists=True,
        signed=signed is not None,
        signed_revision=signed.number if signed else None,
        draft_revision=draft.number if draft else None,
        low_fence_justified=bool(kept.get("low_fence_justification")),
        contact_regions=kept.get("contact_regions", ()),
        conformity_route_recorded=bool(kept.get("conformity_route")),
        pending=tuple(pending),
    )


def cell_facts(cell: Cell) -> CellFacts:
    """Facts of a cell loaded with its layout (``cells.selectors.cell_with_layout``)."""
    segments, openings = [], []
    for segment in cell.segments.all():
        start, end = segment.start, segment.end
        segments.append(
            SegmentFacts(
                key=f"segment:{segment.pk}",
                label=str(segment),
                kind=segment.kind,
                height_mm=segment.height_mm,
                length_mm=segment.length_mm,
                horizontal_distance_to_hazard_mm=_distance(cell, start, end),
                mesh_opening_mm=segment.mesh_opening_mm,
            )
        )
        for opening in segment.openings.all():
            a = geometry.point_along(start, end, opening.offset_mm)
            b = geometry.point_along(start, end, opening.offset_mm + opening.width_mm)
            openings.append(
                OpeningFacts(
                    key=f"opening:{opening.pk}",
                    label=f"{segment} / {opening}",
                    segment_key=f"segment:{segment.pk}",
                    purpose=opening.purpose,
                    width_mm=opening.width_mm,
                    lower_edge_mm=opening.lower_edge_mm,
                    upper_edge_mm=opening.upper_edge_mm,
                    distance_to_hazard_mm=_distance(cell, a, b),
                )
            )
    devices = [
        DeviceFacts(
            key=f"device:{device.pk}",
            label=device.label,
            kind=device.kind,
            opening_key=f"opening:{device.opening_id}" if device.opening_id else None,
            iec61496_type=device.iec61496_type,
            kcs_certified=device.kcs_certified,
            response_time_ms=device.response_time_ms or None,
            detection_capability_mm=device.detection_capability_mm or None,
            beam_count=device.beam_count or None,
            protective_field_mm=device.protective_field_mm or None,
        )
        for device in cell.devices.all()
    ]
    return CellFacts(
        country=cell.project.country,
        robot_kind=cell.robot_kind,
        robot_max_speed_mm_s=cell.max_tcp_speed_mm_s,
        robot_stopping_time_ms=cell.stopping_time_ms or None,
        robot_stopping_distance_mm=cell.stopping_distance_mm,
        robot_moving_mass_kg=float(cell.moving_mass_kg),
        payload_kg=float(cell.payload_kg),
        hazard_zone_height_mm=cell.hazard_zone_height_mm,
        collaborative_mode=cell.collaborative_mode or None,
        programmed_speed_mm_s=cell.programmed_speed_mm_s or None,
        segments=tuple(segments),
        openings=tuple(openings),
        devices=tuple(devices),
        assessment=_assessment(cell),
    )
