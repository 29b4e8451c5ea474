"""The inputs and results of ``ts15066_path``: a robot program's path judged
per segment by ISO/TS 15066:2016 Annex A (power and force limiting) and 5.5.4
(speed and separation monitoring). The definitions are in ``ts15066_path``.

Every figure here names its source: the default contact reach is ISO 13855:2010
6.2.3's C = 850 mm (``iso13855_tables``), the clamping gaps ISO 13854's minimum
gaps (``iso13857_tables``), the bounds of the robot and the SSM terms those of
``ts15066_contact`` and ``ts15066``. The other bounds are no standard's figures
(said where they stand). Pure Python with pydantic, no Django.
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, model_validator

from compliance.calculators.base import CalcInput, CalcResult, Line
from compliance.calculators.iso13855_tables import ESPE_C_D_GT_40_MM, ESPE_D_GT_40
from compliance.calculators.iso13857_tables import TABLE4_OPENINGS
from compliance.calculators.ts15066 import SsmInput
from compliance.calculators.ts15066_contact import (
    CONTACT_AREA_MAX_CM2,
    CONTACT_AREA_MIN_CM2,
    MOVING_MASS_MAX_KG,
    MOVING_MASS_MIN_KG,
    PAYLOAD_MAX_KG,
)
from compliance.calculators.ts15066_tables import BodyRegion

# The clauses a result cites beside ISO/TS 15066 (PFL_CLAUSE, SSM_CLAUSE): the
# default contact reach, and the gaps a body part is crushed below. The edition
# of ISO 13854 is the one the reference's source names ("13854:2017").
REACH_CLAUSE = "ISO 13855:2010, 6.2.3 (C = 850 mm, the default contact reach)"
CLAMPING_CLAUSE = "ISO 13854:2017 (minimum gaps to avoid crushing)"

# Input bounds, not figures from a standard: they keep a program's check linear
# and finite and catch slips (metres typed as mm, a file of the wrong kind).
MAX_SEGMENTS = 200_000
MAX_STATIONS = 50
MAX_OBSTACLES = 500
MAX_FIELD_VERTICES = 200
COORDINATE_LIMIT_MM = 100_000
SPEED_MAX_MM_S = 10_000
REACH_MAX_MM = 10_000
MAX_INDEX = 10_000_000

# iso13855.json "normal_approach_espe" → "d_gt_40": S = 1600 T + 850, C = 850 mm
# (two sources); iso13857_tables.json Table 4, 40 < e ≤ 120 mm: s_r = 850 mm
# (two sources). The reference gives the figure, not its meaning: reading it as
# an arm's reach from where the body is stopped is ours.
DEFAULT_CONTACT_REACH_MM = float(ESPE_C_D_GT_40_MM)
DEFAULT_REACH_SOURCES = tuple(
    dict.fromkeys((*ESPE_D_GT_40.sources, *TABLE4_OPENINGS.sources))
)

# The ISO 13854 part whose minimum gap keeps each Annex A region from being
# crushed (iso13857_tables.json "iso13854_min_gaps_mm", one source). The hand's
# 100 mm, not the finger's 25 mm: the larger gap flags more.
CLAMPING_PART: dict[BodyRegion, str] = {
    BodyRegion.SKULL_FOREHEAD: "head",
    BodyRegion.FACE: "head",
    BodyRegion.NECK: "head",
    BodyRegion.BACK_SHOULDERS: "body",
    BodyRegion.CHEST: "body",
    BodyRegion.ABDOMEN: "body",
    BodyRegion.PELVIS: "body",
    BodyRegion.UPPER_ARMS_ELBOWS: "arm",
    BodyRegion.LOWER_ARMS_WRISTS: "arm",
    BodyRegion.HANDS_FINGERS: "hand",
    BodyRegion.THIGHS_KNEES: "leg",
    BodyRegion.LOWER_LEGS: "leg",
}
# A station with no regions recorded: the largest gap, the whole body's.
CLAMPING_PART_UNKNOWN = "body"

Verdict = Literal["fail", "measure", "not_checked", "pass"]
VERDICT_RANK: dict[str, int] = {"pass": 0, "not_checked": 1, "measure": 2, "fail": 3}
ObstacleKind = Literal["fence", "guard", "machine", "wall", "other"]


def _coordinate() -> Any:
    """A plan coordinate in mm, within ±100,000 mm (a FieldInfo)."""
    return Field(ge=-COORDINATE_LIMIT_MM, le=COORDINATE_LIMIT_MM)


def _label() -> Any:
    """A station's or an obstacle's label, as the plan shows it (a FieldInfo)."""
    return Field(min_length=1, max_length=100)


class PlanPointIn(CalcInput):
    """A point of the path in the cell's plan frame, in mm."""

    x_mm: StrictFloat = _coordinate()
    y_mm: StrictFloat = _coordinate()
    z_mm: StrictFloat = _coordinate()


class PlanVertexIn(CalcInput):
    """A corner of the protective field's boundary on the plan, in mm."""

    x_mm: StrictFloat = _coordinate()
    y_mm: StrictFloat = _coordinate()


class PathSegmentIn(CalcInput):
    """One straight move of the program at one programmed speed."""

    index: int = Field(ge=0, le=MAX_INDEX, description="Place in the program.")
    line: int = Field(ge=0, le=MAX_INDEX, description="Line of the program source.")
    start: PlanPointIn
    end: PlanPointIn
    speed_mm_s: StrictFloat | None = Field(
        gt=0, le=SPEED_MAX_MM_S, description="TCP speed; None: not known."
    )


class StationIn(CalcInput):
    """Where an operator stands on the plan, and what of them is exposed."""

    label: str = _label()
    x_mm: StrictFloat = _coordinate()
    y_mm: StrictFloat = _coordinate()
    body_regions: tuple[BodyRegion, ...] = Field(default=(), max_length=12)
    contact_reach_mm: StrictFloat | None = Field(
        default=None,
        gt=0,
        le=REACH_MAX_MM,
        description="Reach round the station where contact can happen; None: "
        "850 mm (ISO 13855:2010, 6.2.3, C for d > 40 mm).",
    )


class ObstacleIn(CalcInput):
    """A fixed part a body can be clamped against, as a line on the plan."""

    label: str = _label()
    kind: ObstacleKind
    x1_mm: StrictFloat = _coordinate()
    y1_mm: StrictFloat = _coordinate()
    x2_mm: StrictFloat = _coordinate()
    y2_mm: StrictFloat = _coordinate()


class ProtectiveFieldIn(CalcInput):
    """The scanner's protective field on the plan: a polygon or a circle."""

    polygon: tuple[PlanVertexIn, ...] | None = Field(
        default=None, min_length=3, max_length=MAX_FIELD_VERTICES
    )
    center: PlanVertexIn | None = None
    radius_mm: StrictFloat | None = Field(default=None, gt=0, le=COORDINATE_LIMIT_MM)

    @model_validator(mode="after")
    def _one_shape(self) -> ProtectiveFieldIn:
        circle = self.center is not None and self.radius_mm is not None
        partial = (self.center is None) != (self.radius_mm is None)
        if partial or circle == (self.polygon is not None):
            raise ValueError(
                "Give the protective field as a polygon, or as a center and a "
                "radius_mm, not both."
            )
        return self


def _ssm_field(name: str) -> Any:
    """The field of ``SsmInput``, its bounds and help with it: one definition.
    (A pydantic FieldInfo, typed ``Any`` as a field's default.)"""
    return copy.deepcopy(SsmInput.model_fields[name])


class PathSsmIn(CalcInput):
    """Speed and separation monitoring of the cell: ``SsmInput`` without the
    robot's speed, which each segment gives, and the scanner's field.

    v_h defaults to 1600 mm/s as in ``SsmInput``: the reference's "default_v_h"
    (ts15066_body_regions.json) and ISO 13855's walking approach speed K
    (iso13855.json "approach_speeds", two sources)."""

    human_speed_mm_s: StrictFloat = _ssm_field("human_speed_mm_s")
    reaction_time_ms: StrictFloat = _ssm_field("reaction_time_ms")
    stopping_time_ms: StrictFloat = _ssm_field("stopping_time_ms")
    stopping_distance_mm: StrictFloat | None = _ssm_field("stopping_distance_mm")
    detection_height_mm: StrictFloat | None = _ssm_field("detection_height_mm")
    intrusion_mm: StrictFloat | None = _ssm_field("intrusion_mm")
    human_uncertainty_mm: StrictFloat | None = _ssm_field("human_uncertainty_mm")
    robot_uncertainty_mm: StrictFloat | None = _ssm_field("robot_uncertainty_mm")
    field: ProtectiveFieldIn | None = None


class PathInput(CalcInput):
    """A robot program's path, the cell's stations and obstacles, the robot."""

    segments: tuple[PathSegmentIn, ...] = Field(min_length=1, max_length=MAX_SEGMENTS)
    stations: tuple[StationIn, ...] = Field(default=(), max_length=MAX_STATIONS)
    obstacles: tuple[ObstacleIn, ...] = Field(default=(), max_length=MAX_OBSTACLES)
    robot_moving_mass_kg: StrictFloat = Field(
        ge=MOVING_MASS_MIN_KG, le=MOVING_MASS_MAX_KG
    )
    payload_kg: StrictFloat = Field(ge=0, le=PAYLOAD_MAX_KG)
    contact_area_cm2: StrictFloat | None = Field(
        default=None, ge=CONTACT_AREA_MIN_CM2, le=CONTACT_AREA_MAX_CM2
    )
    ssm: PathSsmIn | None = None

    @model_validator(mode="after")
    def _labels_unique(self) -> PathInput:
        labels = [station.label for station in self.stations]
        if len(set(labels)) != len(labels):
            raise ValueError("stations: each station needs its own label.")
        return self


class SegmentResult(BaseModel):
    """One segment judged: compact, the figures as fields, a line per concern."""

    model_config = ConfigDict(frozen=True)

    index: int
    line: int
    length_mm: float  # 3D
    speed_mm_s: float | None
    nearest_station: str | None  # None: no station recorded
    nearest_station_distance_mm: float | None  # least plan distance
    contact_stations: tuple[str, ...]  # stations whose contact zone it enters
    pfl_verdict: Verdict  # never "measure"
    pfl_limit_mm_s: float | None  # permissible transient speed in the zone
    pfl_station: str | None  # the station whose limit governs
    clamping_verdict: Literal["measure", "pass"]
    clamping_obstacle: str | None
    clamping_station: str | None
    ssm_verdict: Verdict | None  # None: the cell uses no SSM
    ssm_separation_mm: float | None  # S_p at the segment's speed
    ssm_target: str | None  # the station, or the field, nearest for its S_p
    ssm_target_kind: Literal["station", "field"] | None
    ssm_shortfall_mm: float | None  # S_p − distance, > 0 on a fail
    ssm_limit_mm_s: float | None  # the speed at which S_p fits
    permissible_speed_mm_s: float | None  # the speed it may have; 0: none
    verdict: Verdict
    lines: tuple[Line, ...]


class StationLimit(BaseModel):
    """What the program is judged against at one station."""

    model_config = ConfigDict(frozen=True)

    label: str
    contact_reach_mm: float
    reach_basis: Literal["entered", "default"]
    transient_limit_mm_s: float | None  # None: no region, or none permitted
    governing_region: BodyRegion | None
    forbidden_regions: tuple[BodyRegion, ...]  # no transient contact permitted
    clamping_gap_mm: float
    clamping_body_part: str  # ISO 13854: body, head, leg, arm, hand
    obstacles_in_zone: tuple[str, ...]


class PathResult(CalcResult):
    """Every segment judged, the counts, and the cycle time as programmed and as
    limited to the speeds the segments may have."""

    segments: tuple[SegmentResult, ...]
    stations: tuple[StationLimit, ...]
    counts: dict[Verdict, int]
    worst_verdict: Verdict
    failing_lines: tuple[int, ...]
    measure_lines: tuple[int, ...]
    not_checked_lines: tuple[int, ...]
    pressure_checked: bool  # False: the PFL limits rest on the force route
    ssm_separation_at_rest_mm: float | None  # S_p at v = 0
    ssm_reaction_time_s: float | None  # S_p grows by v × T_r
    ssm_complete: bool | None
    ssm_unverified_terms: tuple[str, ...]
    cycle_time_programmed_s: float  # over the segments with a known speed
    cycle_time_limited_s: float | None  # None: a fail no speed can mend
    unknown_speed_lines: tuple[int, ...]
    cannot_be_slowed_lines: tuple[int, ...]  # fail at any speed
