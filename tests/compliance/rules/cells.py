"""Small hand-built cells for the rule tests (no database)."""

from __future__ import annotations

from typing import Any

from cells import perimeter
from cells.perimeter.closure import LineClosure
from compliance.rules.facts import (
    AssessmentFacts,
    CellFacts,
    DeviceFacts,
    OpeningFacts,
    SegmentFacts,
)
from compliance.rules.findings import Finding, Rule


def segment(key: str = "s1", **kw: Any) -> SegmentFacts:
    fields = {
        "label": key.upper(),
        "kind": "fence",
        "height_mm": 1800,
        "length_mm": 3000,
    }
    return SegmentFacts(key=key, **(fields | kw))


def opening(key: str = "o1", **kw: Any) -> OpeningFacts:
    fields = {
        "label": "Conveyor infeed",
        "segment_key": "s1",
        "purpose": "material_entry",
        "width_mm": 800,
        "lower_edge_mm": 300,
        "upper_edge_mm": 1200,
    }
    return OpeningFacts(key=key, **(fields | kw))


def across(width_mm: float = 800, *, offset_mm: float = 0, **kw: Any) -> LineClosure:
    """A detection line across the whole of an opening ``width_mm`` wide, in
    its guard's plane (``offset_mm`` from it: then its sides are open)."""
    fields = {
        "spans": True,
        "in_plane": offset_mm == 0,
        "covered_from_mm": 0,
        "covered_to_mm": width_mm,
        "opening_from_mm": 0,
        "opening_to_mm": width_mm,
        "offset_mm": offset_mm,
        "open_sides_mm": (offset_mm, offset_mm) if offset_mm else (),
    }
    return LineClosure(**(fields | kw))


def device(key: str, kind: str, **kw: Any) -> DeviceFacts:
    return DeviceFacts(key=key, kind=kind, **({"label": key.upper()} | kw))


def cell(**kw: Any) -> CellFacts:
    """An industrial robot cell in Korea; override any field."""
    fields = {
        "country": "KR",
        "robot_kind": "industrial",
        "robot_max_speed_mm_s": 2000,
        "robot_stopping_time_ms": 300,
        "robot_moving_mass_kg": 300,
        "payload_kg": 50,
    }
    return CellFacts(**(fields | kw))


SIDE_MM = 5000  # the hand-built palletiser's square fence
CENTRE = (2500.0, 2500.0)
REACH_MM = 1600  # so every side is 900 mm from the hazard zone


def square_layout(
    side_mm: float = SIDE_MM,
    radius_mm: float = REACH_MM,
    *,
    openings: tuple[perimeter.Opening, ...] = (),
    drop: tuple[str, ...] = (),
    upper_mm: float | None = 1400,
) -> perimeter.Layout:
    """A square fence round a circular zone; ``drop`` leaves sides out."""
    corners = {
        "north": ((0.0, side_mm), (side_mm, side_mm)),
        "east": ((side_mm, side_mm), (side_mm, 0.0)),
        "south": ((side_mm, 0.0), (0.0, 0.0)),
        "west": ((0.0, 0.0), (0.0, side_mm)),
    }
    centre = (side_mm / 2, side_mm / 2)
    return perimeter.Layout(
        zone=perimeter.CircleZone(
            centre=centre, radius_mm=radius_mm, upper_mm=upper_mm
        ),
        segments=tuple(
            perimeter.Segment(key=key, start=start, end=end, height_mm=1800)
            for key, (start, end) in corners.items()
            if key not in drop
        ),
        openings=openings,
    )


def palletising_cell() -> CellFacts:
    """The demo palletising cell: 1,800 mm fence all round, 900 mm from the
    hazard zone (0 to 1,400 mm high); a conveyor opening in the east fence
    guarded by a light curtain (response 20 ms, detection 14 mm, SICK C4000
    figures) and a maintenance door with an interlock; robot stopping time
    300 ms."""
    sides = tuple(
        segment(
            key,
            label=label,
            height_mm=1800,
            length_mm=SIDE_MM,
            horizontal_distance_to_hazard_mm=900,
            mesh_opening_mm=40,
        )
        for key, label in (
            ("north", "North fence"),
            ("east", "East fence"),
            ("south", "South fence"),
            ("west", "West fence"),
        )
    )
    layout = square_layout(
        openings=(
            perimeter.Opening(
                key="infeed",
                segment_key="east",
                offset_mm=2000,
                width_mm=800,
                lower_edge_mm=300,
                upper_edge_mm=1200,
            ),
            perimeter.Opening(
                key="door",
                segment_key="south",
                offset_mm=3000,
                width_mm=900,
                upper_edge_mm=1800,
            ),
        )
    )
    return cell(
        hazard_zone_height_mm=1400,
        segments=sides,
        layout=layout,
        openings=(
            opening(
                "infeed",
                label="Conveyor infeed",
                segment_key="east",
                distance_to_hazard_mm=900,
            ),
            opening(
                "door",
                label="Maintenance door",
                segment_key="south",
                purpose="maintenance_door",
                width_mm=900,
                lower_edge_mm=0,
                upper_edge_mm=1800,
                distance_to_hazard_mm=900,
            ),
        ),
        devices=(
            device(
                "lc1",
                "light_curtain",
                label="Infeed light curtain",
                opening_key="infeed",
                iec61496_type=4,
                kcs_certificate_no="CB-2026-0412",
                response_time_ms=20,
                detection_capability_mm=14,
                detection_lower_mm=300,
                detection_upper_mm=1200,
                distance_to_hazard_mm=900,
                placed=True,
                closure=across(),
                plr_served="d",
            ),
            device(
                "door1",
                "interlocked_door",
                label="Door interlock",
                opening_key="door",
            ),
            device("estop", "emergency_stop", label="E-stop"),
        ),
        assessment=AssessmentFacts(exists=True, signed=True, signed_revision=1),
    )


def machine_tending_cobot(**kw: Any) -> CellFacts:
    """A cobot tending a machine with power and force limiting, no fence;
    masses as in the reference's computed check values (M 20 kg, m_L 1 kg)."""
    fields = {
        "robot_kind": "collaborative",
        "robot_max_speed_mm_s": 1000,
        "robot_stopping_time_ms": 150,
        "robot_moving_mass_kg": 20,
        "payload_kg": 1,
        "collaborative_modes": ("pfl",),
        "programmed_speed_mm_s": 250,
        "devices": (
            device("estop", "emergency_stop", label="Teach pendant E-stop"),
            device("ctrl", "safety_controller", label="Robot safety controller"),
        ),
        "assessment": AssessmentFacts(
            exists=True,
            signed=True,
            contact_regions=("hands_fingers", "lower_arms_wrists"),
            conformity_route_recorded=True,
        ),
    }
    return cell(**(fields | kw))


def run(rule: Rule, facts: CellFacts) -> list[Finding]:
    return list(rule.evaluate(facts))


def only(rule: Rule, facts: CellFacts) -> Finding:
    findings = run(rule, facts)
    assert len(findings) == 1, findings
    return findings[0]
