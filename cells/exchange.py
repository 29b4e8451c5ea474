"""The cell exchange document: one JSON document holding a whole cell.

Pure pydantic, no Django. Exported by ``GET /api/v1/cells/{id}/export/`` and
read back by ``POST /api/v1/cells/import/``; the round trip is lossless. The
``format`` string is versioned: a reader refuses a format it does not know.
Fields added later have defaults, so that older documents still read.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from cells.applications import (
    APPLICATION_FOR_TASK_TYPE,
    DEFAULT_APPLICATION,
    TASK_TYPE_BY_APPLICATION,
    TASK_TYPE_CODES,
    Application,
    TaskType,
)
from compliance.calculators.ts15066_tables import BodyRegion

FORMAT = "cell-safety-planner/1"

# The bounds of a plan, stated once: the models (validators and database
# checks), the forms, the API's serializers, this document and the drawing all
# use these. A figure past one is a typo or an attack, not a cell; refusing it
# keeps 10^300 out of the geometry, the drawing and the database.
#
# Every coordinate lies within 100 m of the plan's origin (a cell, not a
# country), and every length, height and distance on the plan is at most 100 m.
COORDINATE_LIMIT_MM = 100_000
# A stopping or response time: at most a minute (as the calculators' MAX_TIME_MS).
TIME_LIMIT_MS = 60_000
# A robot's speed: at most 20 m/s, faster than any (as the SSM calculator's v_r).
SPEED_LIMIT_MM_S = 20_000
# The beams of a light grid or curtain: a curtain of 14 mm resolution 3 m high
# has about 250.
BEAM_COUNT_LIMIT = 1_000
# The corners of a drawn hazard zone: a robot's maximum space traced by hand,
# arcs included, needs tens (a circle in steps of 3.6 degrees: 100).
POLYGON_MAX_CORNERS = 100
# The elements of one cell: a large palletising or welding cell has a few
# dozen of each. The perimeter checks compare each guard piece with each
# corner of the zone, so the caps bound the work of every page: a cell at
# every cap, with a zone of 100 corners, answers its page in about a second
# and its SVG in half that (measured; 200 of each and 200 corners: 2-4 s).
MAX_GUARD_SEGMENTS = 100
MAX_OPENINGS = 100  # in the whole cell, over all its segments
MAX_DEVICES = 100
MAX_OPERATOR_STATIONS = 50
# Why a hazard zone is smaller than the robot's maximum space: a few sentences
# naming the safety-rated limit that holds the robot within it.
ZONE_REDUCTION_MAX_LENGTH = 500


def maximum_space_radius_mm(
    *, reach_mm: int, end_effector_mm: int = 0, workpiece_mm: int = 0
) -> int:
    """The robot's maximum space as a radius round its base (ISO 10218): its
    reach plus the end effector plus the largest workpiece it holds."""
    return reach_mm + (end_effector_mm or 0) + (workpiece_mm or 0)


def zone_radius_mm(
    *, maximum_space_mm: int, radius_mm: int | None, reduction_recorded: bool
) -> int:
    """The radius the zone is measured from: the one typed when it holds the
    robot's maximum space, or, smaller, when the safety-rated limit that keeps
    the robot within it is recorded; else the maximum space. A smaller radius
    typed without that record is not taken: every distance to the zone would
    be measured too generously by the difference."""
    if radius_mm and (radius_mm >= maximum_space_mm or reduction_recorded):
        return radius_mm
    return maximum_space_mm


def _not_a_boolean(value: Any) -> Any:
    """Pydantic's lax mode reads ``true`` as the integer 1: a client's mistake
    would become a figure. Refused, as the API's numbers refuse it
    (``cells.api.fields.StrictFloatField``, DRF's IntegerField and
    DecimalField); a number written as a string is still read, as there."""
    if isinstance(value, bool):
        raise PydanticCustomError(
            "number_type", "Input should be a number, not true or false"
        )
    return value


# Every number of the document refuses a boolean. The check comes after the
# bounds so that it runs before them, and the bounds stay plain JSON Schema
# (minimum, maximum) in the API's schema.
_NOT_A_BOOLEAN = BeforeValidator(_not_a_boolean)
Coordinate = Annotated[
    int, Field(ge=-COORDINATE_LIMIT_MM, le=COORDINATE_LIMIT_MM), _NOT_A_BOOLEAN
]
Length = Annotated[int, Field(ge=0, le=COORDINATE_LIMIT_MM), _NOT_A_BOOLEAN]
PositiveLength = Annotated[int, Field(gt=0, le=COORDINATE_LIMIT_MM), _NOT_A_BOOLEAN]
Time = Annotated[int, Field(ge=0, le=TIME_LIMIT_MS), _NOT_A_BOOLEAN]
PositiveTime = Annotated[int, Field(gt=0, le=TIME_LIMIT_MS), _NOT_A_BOOLEAN]
Speed = Annotated[int, Field(gt=0, le=SPEED_LIMIT_MM_S), _NOT_A_BOOLEAN]
Index = Annotated[int, Field(ge=0), _NOT_A_BOOLEAN]
BeamCount = Annotated[int, Field(ge=0, le=BEAM_COUNT_LIMIT), _NOT_A_BOOLEAN]
# pydantic's Decimal refuses a boolean by itself; checked the same all the same.
Kilograms = Annotated[Decimal, _NOT_A_BOOLEAN]
CollaborativeMode = Literal["srms", "hand_guiding", "ssm", "pfl"]


class _Doc(BaseModel):
    # An exported document has every field: the API schema says so (a field
    # with a default may still be left out of a document that is imported).
    model_config = ConfigDict(
        extra="forbid", frozen=True, json_schema_serialization_defaults_required=True
    )


class PointDoc(_Doc):
    x_mm: Coordinate
    y_mm: Coordinate


class RobotDoc(_Doc):
    manufacturer: str = Field(min_length=1, max_length=100)
    model: str = Field(min_length=1, max_length=100)
    kind: Literal["industrial", "collaborative"]
    payload_kg: Kilograms = Field(gt=0, max_digits=7, decimal_places=2)
    reach_mm: PositiveLength
    max_tcp_speed_mm_s: Speed
    moving_mass_kg: Kilograms = Field(gt=0, max_digits=8, decimal_places=2)
    # Beyond the flange: the tool, then the largest workpiece it holds.
    end_effector_mm: Length = 0
    workpiece_mm: Length = 0
    stopping_time_ms: PositiveTime | None = None
    stopping_distance_mm: Length | None = None
    programmed_speed_mm_s: Speed | None = None
    # Safety-rated speed, zone or force limits carry part of the safeguarding:
    # the record a hazard zone smaller than the maximum space rests on.
    safety_rated_limits: bool = False
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
    radius_mm: PositiveLength | None = None
    height_mm: Length | None = None  # the highest point
    lower_mm: Length = 0  # the lowest point above the floor
    polygon_mm: list[tuple[Coordinate, Coordinate]] = Field(
        default_factory=list, max_length=POLYGON_MAX_CORNERS
    )
    # Why the zone is smaller than the robot's maximum space (with the robot's
    # safety_rated_limits): empty when it is not.
    reduction_reason: str = Field(default="", max_length=ZONE_REDUCTION_MAX_LENGTH)


class OpeningDoc(_Doc):
    label: str = Field(default="", max_length=30)
    offset_mm: Length
    width_mm: PositiveLength
    lower_edge_mm: Length
    upper_edge_mm: PositiveLength
    purpose: Literal["material_entry", "operator_access", "maintenance_door"]


class GuardSegmentDoc(_Doc):
    label: str = Field(default="", max_length=30)
    start: PointDoc
    end: PointDoc
    height_mm: PositiveLength
    bottom_gap_mm: Length = 0  # floor to the lower edge
    kind: Literal["fence", "wall", "machine_body"]
    mesh_opening_mm: PositiveLength | None = None
    openings: list[OpeningDoc] = Field(default_factory=list, max_length=MAX_OPENINGS)


class OperatorStationDoc(_Doc):
    label: str = Field(min_length=1, max_length=60)
    x_mm: Coordinate
    y_mm: Coordinate
    # ISO/TS 15066 body regions exposed there, and how far round it the robot
    # can touch the person (None: the arm's reach the standard gives).
    exposed_regions: list[BodyRegion] = Field(default_factory=list, max_length=12)
    contact_reach_mm: PositiveLength | None = None


class OpeningRef(_Doc):
    """An opening by its place in the document: segment and opening index."""

    segment: Index
    opening: Index


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
    response_time_ms: Time | None = None
    iec61496_type: Literal[2, 3, 4] | None = None
    guard_locking: bool = False
    existing: bool = False
    kcs_certified: bool | None = None
    kcs_certificate_no: str = Field(default="", max_length=40)
    detection_capability_mm: Length | None = None
    beam_count: BeamCount | None = None
    protective_field_mm: Length | None = None
    # On the plan. Light curtain / grid: the ends of its detection line; safety
    # mat: opposite corners; laser scanner: its position (x1, y1) only.
    x1_mm: Coordinate | None = None
    y1_mm: Coordinate | None = None
    x2_mm: Coordinate | None = None
    y2_mm: Coordinate | None = None
    # Light curtain / grid: heights of the lowest and highest beam.
    detection_lower_mm: Length | None = None
    detection_upper_mm: Length | None = None
    # Laser scanner: height of the protective field.
    field_height_mm: Length | None = None
    # ISO 13855:2024: the device's supplement Z and a curtain's D_DO (at most
    # 2,000 mm each, as on the device).
    supplement_z_mm: Annotated[int, Field(ge=0, le=2_000), _NOT_A_BOOLEAN] | None = None
    reach_over_ddo_mm: Annotated[int, Field(ge=0, le=2_000), _NOT_A_BOOLEAN] | None = (
        None
    )


class CellDocument(_Doc):
    """A whole cell: robot, task, hazard zone and perimeter layout."""

    format: Literal["cell-safety-planner/1"] = FORMAT
    name: str = Field(min_length=1, max_length=200)
    task_description: str = Field(default="", max_length=300)
    # What the cell does (cells.applications). A document from before
    # applications has only its task type: the application that stood for it
    # is read instead.
    application: Application = DEFAULT_APPLICATION
    # Follows from the application, written for the readers of before
    # applications; read only from a document that has no application.
    task_type: TaskType = "structured_pick_place"
    robot: RobotDoc
    robot_base: PointDoc
    # How the robot's base frame is turned on the plan (counter-clockwise
    # from the plan's x axis): a robot program is drawn by it.
    robot_base_rotation_deg: Annotated[int, Field(ge=-180, le=180), _NOT_A_BOOLEAN] = 0
    hazard_zone: HazardZoneDoc
    guard_segments: list[GuardSegmentDoc] = Field(
        default_factory=list, max_length=MAX_GUARD_SEGMENTS
    )
    operator_stations: list[OperatorStationDoc] = Field(
        default_factory=list, max_length=MAX_OPERATOR_STATIONS
    )
    devices: list[DeviceDoc] = Field(default_factory=list, max_length=MAX_DEVICES)

    @model_validator(mode="before")
    @classmethod
    def _task_type_from_application(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        if data.get("application") is None:
            task_type = data.get("task_type", "structured_pick_place")
            if not isinstance(task_type, str):
                pass  # refused as a task type below
            elif task_type in APPLICATION_FOR_TASK_TYPE:
                data = {**data, "application": APPLICATION_FOR_TASK_TYPE[task_type]}
            elif task_type in TASK_TYPE_CODES:
                raise ValueError(
                    f"Give the application: the task type {task_type!r} stands "
                    "for several."
                )
        application = data.get("application")
        if isinstance(application, str) and application in TASK_TYPE_BY_APPLICATION:
            # The application decides: a task type that says otherwise is
            # replaced, so the two never contradict each other.
            data = {**data, "task_type": TASK_TYPE_BY_APPLICATION[application]}
        return data

    @field_validator("guard_segments")
    @classmethod
    def _openings_capped(cls, segments: list[GuardSegmentDoc]) -> list[GuardSegmentDoc]:
        count = sum(len(s.openings) for s in segments)
        if count > MAX_OPENINGS:
            raise ValueError(
                f"A cell has at most {MAX_OPENINGS} openings; this one has {count}."
            )
        return segments

    @property
    def hazard_zone_radius_mm(self) -> int:
        """The circle's radius (``zone_radius_mm``): as given when it holds the
        robot's maximum space (ISO 10218), its reach plus the end effector and
        the largest workpiece, or when a smaller one rests on a recorded
        safety-rated limit; else that maximum space."""
        robot, zone = self.robot, self.hazard_zone
        return zone_radius_mm(
            maximum_space_mm=maximum_space_radius_mm(
                reach_mm=robot.reach_mm,
                end_effector_mm=robot.end_effector_mm,
                workpiece_mm=robot.workpiece_mm,
            ),
            radius_mm=zone.radius_mm,
            reduction_recorded=robot.safety_rated_limits
            and bool(zone.reduction_reason.strip()),
        )
