"""The cell exchange document: one JSON document holding a whole cell.

Pure pydantic, no Django. Exported by ``GET /api/v1/cells/{id}/export/`` and
read back by ``POST /api/v1/cells/import/``; the round trip is lossless. The
``format`` string is versioned: a reader refuses a format it does not know.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

FORMAT = "cell-safety-planner/1"


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PointDoc(_Doc):
    x_mm: int
    y_mm: int


class RobotDoc(_Doc):
    manufacturer: str = Field(min_length=1, max_length=100)
    model: str = Field(min_length=1, max_length=100)
    kind: Literal["industrial", "collaborative"]
    payload_kg: Decimal = Field(gt=0, max_digits=7, decimal_places=2)
    reach_mm: int = Field(gt=0)
    max_tcp_speed_mm_s: int = Field(gt=0)
    moving_mass_kg: Decimal = Field(gt=0, max_digits=8, decimal_places=2)
    stopping_time_ms: int | None = Field(default=None, gt=0)
    stopping_distance_mm: int | None = Field(default=None, ge=0)
    programmed_speed_mm_s: int | None = Field(default=None, gt=0)
    collaborative_mode: Literal["", "srms", "hand_guiding", "ssm", "pfl"] = ""


class HazardZoneDoc(_Doc):
    shape: Literal["circle", "polygon"]
    radius_mm: int | None = Field(default=None, gt=0)
    height_mm: int | None = Field(default=None, ge=0)
    polygon_mm: list[tuple[int, int]] = Field(default_factory=list)


class OpeningDoc(_Doc):
    label: str = Field(default="", max_length=30)
    offset_mm: int = Field(ge=0)
    width_mm: int = Field(gt=0)
    lower_edge_mm: int = Field(ge=0)
    upper_edge_mm: int = Field(gt=0)
    purpose: Literal["material_entry", "operator_access", "maintenance_door"]


class GuardSegmentDoc(_Doc):
    label: str = Field(default="", max_length=30)
    start: PointDoc
    end: PointDoc
    height_mm: int = Field(gt=0)
    kind: Literal["fence", "wall", "machine_body"]
    mesh_opening_mm: int | None = Field(default=None, gt=0)
    openings: list[OpeningDoc] = Field(default_factory=list)


class OperatorStationDoc(_Doc):
    label: str = Field(min_length=1, max_length=60)
    x_mm: int
    y_mm: int


class OpeningRef(_Doc):
    """An opening by its place in the document: segment and opening index."""

    segment: int = Field(ge=0)
    opening: int = Field(ge=0)


class DeviceDoc(_Doc):
    label: str = Field(min_length=1, max_length=60)
    kind: Literal[
        "light_curtain",
        "multibeam",
        "safety_mat",
        "laser_scanner",
        "interlocked_door",
        "emergency_stop",
        "enabling_device",
        "safety_controller",
        "other",
    ]
    opening: OpeningRef | None = None
    claimed_pl: Literal["", "a", "b", "c", "d", "e"] = ""
    response_time_ms: int | None = Field(default=None, ge=0)
    iec61496_type: Literal[2, 4] | None = None
    kcs_certified: bool | None = None
    detection_capability_mm: int | None = Field(default=None, ge=0)
    beam_count: int | None = Field(default=None, ge=0)
    protective_field_mm: int | None = Field(default=None, ge=0)


class CellDocument(_Doc):
    """A whole cell: robot, task, hazard zone and perimeter layout."""

    format: Literal["cell-safety-planner/1"] = FORMAT
    name: str = Field(min_length=1, max_length=200)
    task_description: str = Field(default="", max_length=300)
    task_type: Literal[
        "mobile_locomotion", "structured_pick_place", "contact_rich_manipulation"
    ] = "structured_pick_place"
    robot: RobotDoc
    robot_base: PointDoc
    hazard_zone: HazardZoneDoc
    guard_segments: list[GuardSegmentDoc] = Field(default_factory=list)
    operator_stations: list[OperatorStationDoc] = Field(default_factory=list)
    devices: list[DeviceDoc] = Field(default_factory=list)
