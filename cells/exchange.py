"""The cell exchange document: one JSON document holding a whole cell.

Pure pydantic, no Django. Exported by ``GET /api/v1/cells/{id}/export/`` and
read back by ``POST /api/v1/cells/import/``; the round trip is lossless. The
``format`` string is versioned: a reader refuses a format it does not know.
Fields added later have defaults, so that older documents still read.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

FORMAT = "cell-safety-planner/1"

# Every coordinate of a plan lies within 100 m of its origin (a cell, not a
# country); lengths on the plan are bounded alike. ``cells.models`` applies the
# same bound to what is stored.
COORDINATE_LIMIT_MM = 100_000

Coordinate = Annotated[int, Field(ge=-COORDINATE_LIMIT_MM, le=COORDINATE_LIMIT_MM)]
Length = Annotated[int, Field(ge=0, le=COORDINATE_LIMIT_MM)]
CollaborativeMode = Literal["srms", "hand_guiding", "ssm", "pfl"]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PointDoc(_Doc):
    x_mm: Coordinate
    y_mm: Coordinate


class RobotDoc(_Doc):
    manufacturer: str = Field(min_length=1, max_length=100)
    model: str = Field(min_length=1, max_length=100)
    kind: Literal["industrial", "collaborative"]
    payload_kg: Decimal = Field(gt=0, max_digits=7, decimal_places=2)
    reach_mm: int = Field(gt=0)
    max_tcp_speed_mm_s: int = Field(gt=0)
    moving_mass_kg: Decimal = Field(gt=0, max_digits=8, decimal_places=2)
    # Beyond the flange: the tool, then the largest workpiece it holds.
    end_effector_mm: Length = 0
    workpiece_mm: Length = 0
    stopping_time_ms: int | None = Field(default=None, gt=0)
    stopping_distance_mm: int | None = Field(default=None, ge=0)
    programmed_speed_mm_s: int | None = Field(default=None, gt=0)
    # Each mode for its own zone or task; none: not collaborative.
    collaborative_modes: list[CollaborativeMode] = Field(
        default_factory=list, max_length=4
    )

    @model_validator(mode="before")
    @classmethod
    def _one_mode_before(cls, data: Any) -> Any:
        """A document from before several modes has one ``collaborative_mode``
        string ("" for none): it reads as the list of that mode."""
        if isinstance(data, dict) and "collaborative_mode" in data:
            data = dict(data)
            mode = data.pop("collaborative_mode")
            if "collaborative_modes" in data:
                raise ValueError(
                    "give collaborative_modes only, not collaborative_mode too"
                )
            data["collaborative_modes"] = [mode] if mode else []
        return data


class HazardZoneDoc(_Doc):
    shape: Literal["circle", "polygon"]
    radius_mm: int | None = Field(default=None, gt=0)
    height_mm: int | None = Field(default=None, ge=0)  # the highest point
    lower_mm: Length = 0  # the lowest point above the floor
    polygon_mm: list[tuple[Coordinate, Coordinate]] = Field(default_factory=list)


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
    bottom_gap_mm: int = Field(default=0, ge=0)  # floor to the lower edge
    kind: Literal["fence", "wall", "machine_body"]
    mesh_opening_mm: int | None = Field(default=None, gt=0)
    openings: list[OpeningDoc] = Field(default_factory=list)


class OperatorStationDoc(_Doc):
    label: str = Field(min_length=1, max_length=60)
    x_mm: Coordinate
    y_mm: Coordinate


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
    iec61496_type: Literal[2, 3, 4] | None = None
    guard_locking: bool = False
    existing: bool = False
    kcs_certified: bool | None = None
    kcs_certificate_no: str = Field(default="", max_length=40)
    detection_capability_mm: int | None = Field(default=None, ge=0)
    beam_count: int | None = Field(default=None, ge=0)
    protective_field_mm: int | None = Field(default=None, ge=0)
    # On the plan. Light curtain / grid: the ends of its detection line; safety
    # mat: opposite corners; laser scanner: its position (x1, y1) only.
    x1_mm: Coordinate | None = None
    y1_mm: Coordinate | None = None
    x2_mm: Coordinate | None = None
    y2_mm: Coordinate | None = None
    # Light curtain / grid: heights of the lowest and highest beam.
    detection_lower_mm: int | None = Field(default=None, ge=0)
    detection_upper_mm: int | None = Field(default=None, ge=0)
    # Laser scanner: height of the protective field.
    field_height_mm: int | None = Field(default=None, ge=0)


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

    @property
    def hazard_zone_radius_mm(self) -> int:
        """The circle's radius: as given, else the robot's maximum space (ISO
        10218-2), its reach plus the end effector and the largest workpiece."""
        robot = self.robot
        return self.hazard_zone.radius_mm or (
            robot.reach_mm + robot.end_effector_mm + robot.workpiece_mm
        )
