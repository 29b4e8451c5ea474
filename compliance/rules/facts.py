"""The facts about one robot cell that the rule packs check. Pure pydantic.

Lengths are in millimetres, times in milliseconds, speeds in mm/s and masses in
kg; every field name carries its unit. ``None`` means "not recorded": a rule
that needs a missing figure answers ``needs_evidence`` rather than guessing.
The web layer builds these models from the database; nothing here knows about
Django.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    field_validator,
    model_validator,
)

from cells.perimeter import Layout
from cells.perimeter.closure import LineClosure
from compliance.calculators.ts15066_tables import BodyRegion
from compliance.rules.motion_facts import ProgramFacts, StationFacts

RobotKind = Literal["industrial", "collaborative"]
CollaborativeMode = Literal["srms", "hand_guiding", "ssm", "pfl"]
SegmentKind = Literal["fence", "wall", "machine_body"]
OpeningPurpose = Literal["material_entry", "operator_access", "maintenance_door"]
DeviceKind = Literal[
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

# Presence-sensing protective devices (감응형 방호장치, Art. 223): they detect a
# person rather than keep one out.
SENSING_DEVICE_KINDS: frozenset[str] = frozenset(
    {"light_curtain", "multibeam", "safety_mat", "laser_scanner"}
)

CELL_SUBJECT = "cell"  # subject key of findings about the cell as a whole

PerformanceLevel = Literal["a", "b", "c", "d", "e"]
# The maker's identity of the robot controller's safety configuration.
SafetyConfigKind = Literal[
    "ur_checksum",  # Universal Robots safety checksum
    "abb_safemove_crc",  # ABB SafeMove configuration CRC
    "kuka_safeoperation_checksum",  # KUKA SafeOperation checksum
    "fanuc_dcs_signature",  # FANUC DCS signature number
    "other",  # another maker's
]
# EU: the Annex I listing of the machinery and the conformity assessment
# procedure chosen (Regulation (EU) 2023/1230 Art. 25; Directive 2006/42/EC
# Art. 12 and Annex IV).
AnnexCategory = Literal["not_listed", "part_a", "part_b"]
ConformityProcedure = Literal[
    "internal_control",  # module A / Directive Annex VIII
    "type_examination",  # modules B + C / Directive Annex IX
    "full_quality_assurance",  # module H / Directive Annex X
    "unit_verification",  # module G (Regulation only)
]
CertificateKind = Literal["kiria_cobot_workplace"]
Point = tuple[float, float]


class _Facts(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class SegmentFacts(_Facts):
    """One straight piece of the perimeter guard: a fence panel run, a wall, or
    the body of a machine that closes the perimeter."""

    key: str = Field(min_length=1)
    label: str
    kind: SegmentKind
    height_mm: float = Field(gt=0)
    length_mm: float = Field(ge=0)
    # Horizontal distance c from the guard to the nearest point of the hazard
    # zone (ISO 13857 reaching over and through openings).
    horizontal_distance_to_hazard_mm: float | None = Field(default=None, ge=0)
    # Fence mesh size e (square mesh, the clear opening), None if not recorded.
    mesh_opening_mm: float | None = Field(default=None, gt=0)
    # Where it stands on the plan (None in hand-built facts without a plan).
    start_mm: Point | None = None
    end_mm: Point | None = None
    # The gap between the floor and the guard's lower edge.
    bottom_gap_mm: float = Field(default=0, ge=0)


class OpeningFacts(_Facts):
    """A gap in a guard segment, e.g. a conveyor infeed or an access door."""

    key: str = Field(min_length=1)
    label: str
    segment_key: str
    purpose: OpeningPurpose
    width_mm: float = Field(gt=0)
    lower_edge_mm: float = Field(ge=0)
    upper_edge_mm: float = Field(gt=0)
    distance_to_hazard_mm: float | None = Field(default=None, ge=0)
    # Its two ends on the plan.
    start_mm: Point | None = None
    end_mm: Point | None = None

    @model_validator(mode="after")
    def _edges_in_order(self) -> OpeningFacts:
        if self.upper_edge_mm <= self.lower_edge_mm:
            raise ValueError(
                f"opening {self.key}: upper_edge_mm must be above lower_edge_mm"
            )
        return self


class LibraryPrice(_Facts):
    """The organisation's device-library entry a cell device was chosen from,
    as far as the bill of materials prices from it: its name, and its price
    range and lead time with their source and date when it has them (a price
    needs both ends and a currency; ``None``: to be quoted)."""

    key: str = Field(min_length=1)
    name: str = Field(min_length=1)  # maker and model (and function)
    price_low: Decimal | None = Field(default=None, ge=0)
    price_high: Decimal | None = Field(default=None, ge=0)
    currency: Literal["KRW", "USD", "EUR"] | None = None
    price_source: str = ""
    price_date: date | None = None
    lead_time_weeks_low: Decimal | None = Field(default=None, ge=0)
    lead_time_weeks_high: Decimal | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _whole_ranges(self) -> LibraryPrice:
        if (self.price_low is None) != (self.price_high is None):
            raise ValueError(f"library device {self.key}: half a price range")
        if self.price_low is not None and self.currency is None:
            raise ValueError(f"library device {self.key}: a price needs a currency")
        if (self.lead_time_weeks_low is None) != (self.lead_time_weeks_high is None):
            raise ValueError(f"library device {self.key}: half a lead-time range")
        return self

    @property
    def priced(self) -> bool:
        return self.price_low is not None


class DeviceFacts(_Facts):
    """A safety device of the cell, linked to the opening it guards if any."""

    key: str = Field(min_length=1)
    label: str
    kind: DeviceKind
    opening_key: str | None = None
    iec61496_type: Literal[2, 3, 4] | None = None
    kcs_certified: bool | None = None  # None: not recorded
    kcs_certificate_no: str = ""  # the record that counts (OSH Act Art. 84)
    response_time_ms: float | None = Field(default=None, gt=0)
    detection_capability_mm: float | None = Field(default=None, gt=0)
    beam_count: int | None = Field(default=None, ge=1)
    # Laser scanner: the radius of its protective field round the scanner, as
    # drawn on the plan at ``position_mm`` (None: not placed).
    protective_field_mm: float | None = Field(default=None, gt=0)
    position_mm: Point | None = None
    # Laser scanner: the protective field's height above the floor.
    field_height_mm: float | None = Field(default=None, ge=0)
    # Light curtain / grid: the heights of its lowest and highest beam.
    detection_lower_mm: float | None = Field(default=None, ge=0)
    detection_upper_mm: float | None = Field(default=None, gt=0)
    # Interlocked door with guard locking (ISO 14119).
    guard_locking: bool = False
    # ISO 13855:2024: the supplement Z for the device's measurement and
    # reflection errors (data sheet; 0 if none), and the reach-over distance
    # D_DO from the 2024 table as the engineer read it in their copy.
    supplement_z_mm: float | None = Field(default=None, ge=0)
    reach_over_ddo_mm: float | None = Field(default=None, ge=0)
    # Already in place at the customer's: checked, but not bought.
    existing: bool = False
    # Measured on the plan from where the device is drawn (light curtain or
    # grid: its detection line; mat: its outer edge; scanner: its position) to
    # the hazard zone; None when the device is not placed. Never typed.
    distance_to_hazard_mm: float | None = Field(default=None, ge=0)
    placed: bool = False
    inside_hazard_zone: bool = False
    # A light curtain or grid drawn on the plan and linked to an opening: how
    # its detection line stands to that opening (``cells.perimeter.closure``);
    # None otherwise.
    closure: LineClosure | None = None
    # The highest PLr of the hazards whose measures in the signed revision rely
    # on this device; None when no signed hazard names it.
    plr_served: PerformanceLevel | None = None
    # The device-library entry it was chosen from (None: not chosen from the
    # library); the bill of materials prices the device from it.
    library: LibraryPrice | None = None


class ContactFacts(_Facts):
    """One possible contact of the robot with a person, as the signed risk
    assessment records it (ISO/TS 15066 Annex A)."""

    hazard_key: str
    hazard_label: str
    body_region: str
    contact: Literal["transient", "quasi_static"] | None = None  # None: not recorded
    contact_area_cm2: float | None = Field(default=None, gt=0)


class AssessmentFacts(_Facts):
    """What the cell's risk assessment records, as far as the rules need it.

    Whatever relaxes a rule (the low-fence justification, the contact regions,
    the conformity route) is taken from the latest SIGNED revision only: a
    draft's text changes no verdict. ``pending`` names what a newer unsigned
    revision records beyond that, so a finding can say it is pending there.
    """

    exists: bool = False
    signed: bool = False
    # The number of the latest signed revision, and of a newer draft (if any).
    signed_revision: int | None = Field(default=None, ge=1)
    draft_revision: int | None = Field(default=None, ge=1)
    # The signed revision records why, given the robot's range of motion, a
    # guard lower than 1.8 m carries no height-related risk (Art. 223).
    low_fence_justified: bool = False
    # ISO/TS 15066 body region ids the signed revision says may be contacted,
    # and each possible contact with its kind and area where recorded.
    contact_regions: tuple[str, ...] = ()
    contacts: tuple[ContactFacts, ...] = ()
    # The signed revision names conformity with KS B ISO 10218 / ISO/TS 15066
    # as the route for a collaborative robot without the Art. 223 fence. Text
    # only: the route itself also rests on a certificate record
    # (``CellFacts.certificates``).
    conformity_route_recorded: bool = False
    # What the newer draft records that the signed revision does not:
    # "low_fence_justification", "conformity_route", "contact_regions".
    pending: tuple[str, ...] = ()
    # The life-cycle phases of the signed revision's hazards (ISO 12100 5.4).
    phases: tuple[str, ...] = ()
    # Frozen with the latest signed revision at signing (None: signed before
    # this was recorded, or no signed revision): the robot's safety
    # configuration assessed, and the fingerprint of the cell as assessed.
    signed_safety_configuration: SafetyConfigFacts | None = None
    signed_cell_fingerprint: str | None = None

    @field_validator("contact_regions")
    @classmethod
    def _known_regions(cls, regions: tuple[str, ...]) -> tuple[str, ...]:
        known = {region.value for region in BodyRegion}
        unknown = [r for r in regions if r not in known]
        if unknown:
            raise ValueError(
                f"contact_regions: unknown ISO/TS 15066 body region(s) "
                f"{', '.join(unknown)}; use one of {', '.join(sorted(known))}"
            )
        return tuple(dict.fromkeys(regions))


class SafetyConfigFacts(_Facts):
    """The identity of the robot controller's safety configuration, as the
    maker shows it (a checksum, CRC or signature): kind and value."""

    kind: SafetyConfigKind
    value: str = Field(min_length=1, max_length=64)

    def label(self) -> str:
        return f"{self.kind}:{self.value}"


class ConformityFacts(_Facts):
    """EU: how the cell, as machinery, goes to its CE marking, as recorded."""

    annex_category: AnnexCategory | None = None  # None: not recorded
    procedure: ConformityProcedure | None = None
    # Designed to harmonised standards (or common specifications) that cover
    # all the relevant essential requirements: the presumption of conformity.
    harmonised_standards: bool | None = None


class EditionFacts(_Facts):
    """The edition of each standard the project computes with."""

    iso13855: Literal["2010", "2024"] = "2010"
    iso10218: Literal["2025"] = "2025"
    iso13849_1: Literal["2023"] = "2023"

    def as_dict(self) -> dict[str, str]:
        return self.model_dump()


class CertificateFacts(_Facts):
    """A certificate on file for the cell, as recorded from the certificate
    itself, e.g. the KIRIA collaborative-robot workplace safety certificate."""

    kind: CertificateKind
    number: str = Field(min_length=1)
    issuing_body: str = Field(min_length=1)
    issued_on: date
    valid_until: date  # the last day it is valid
    scope: str = ""  # what it covers, as it states it

    @model_validator(mode="after")
    def _valid_after_issued(self) -> CertificateFacts:
        if self.valid_until <= self.issued_on:
            raise ValueError(
                f"certificate {self.number}: valid_until must be after issued_on"
            )
        return self

    def valid_on(self, day: date) -> bool:
        """In force on ``day``, both ends included."""
        return self.issued_on <= day <= self.valid_until


class FunctionFacts(_Facts):
    """A safety function of the cell (ISO 13849-1) with what decides it: the
    PLr of the hazards it mitigates in the signed revision, the PL its
    subsystems reach as computed, and its validation record (ISO 13849-2)."""

    key: str = Field(min_length=1)  # "function:7"
    label: str
    safeguard: str
    device_key: str | None = None  # the device of the safeguard, "device:3"
    plr: PerformanceLevel | None = None  # from the signed revision; None: none
    plr_pending: PerformanceLevel | None = None  # from a newer draft only
    pl: PerformanceLevel | None = None  # None: the figures are incomplete
    subsystem_count: int = Field(default=0, ge=0)
    # Its input and output subsystems: what it uses of the safety controller.
    inputs: int = Field(default=0, ge=0)
    outputs: int = Field(default=0, ge=0)
    # The validation plan's tests: how many have a failed or no passed record.
    tests_failed: int = Field(default=0, ge=0)
    tests_missing: int = Field(default=0, ge=0)
    one_source: bool = False  # the PL rests on a figure from one source


class CellFacts(_Facts):
    """One robot cell as the rule packs see it."""

    country: str = Field(pattern=r"^[A-Z]{2}$")  # ISO 3166-1 alpha-2
    robot_kind: RobotKind
    robot_max_speed_mm_s: float = Field(gt=0)
    robot_stopping_time_ms: float | None = Field(default=None, gt=0)
    robot_stopping_distance_mm: float | None = Field(default=None, ge=0)
    robot_moving_mass_kg: float = Field(gt=0)
    payload_kg: float = Field(ge=0)
    hazard_zone_height_mm: float | None = Field(default=None, ge=0)
    hazard_zone_lower_mm: float = Field(default=0, ge=0)
    # The hazard zone on the plan: a circle or a polygon (None: no plan).
    zone_centre_mm: Point | None = None
    zone_radius_mm: float | None = Field(default=None, gt=0)
    zone_polygon_mm: tuple[Point, ...] = ()
    # The plan as the perimeter analysis reads it (``cells.perimeter``): the
    # zone, the guard segments and the openings. None: no plan recorded.
    layout: Layout | None = None
    # Each mode for its own zone or task; empty: no collaborative operation.
    collaborative_modes: tuple[CollaborativeMode, ...] = ()
    programmed_speed_mm_s: float | None = Field(default=None, gt=0)
    segments: tuple[SegmentFacts, ...] = ()
    openings: tuple[OpeningFacts, ...] = ()
    devices: tuple[DeviceFacts, ...] = ()
    assessment: AssessmentFacts = AssessmentFacts()
    certificates: tuple[CertificateFacts, ...] = ()
    functions: tuple[FunctionFacts, ...] = ()
    # The day the check is made, given by the caller (a certificate's validity
    # is judged on it); None: not known, so no certificate counts as valid.
    checked_on: date | None = None
    # The editions of the standards the project computes with.
    editions: EditionFacts = EditionFacts()
    # When the cell is planned to be put into service (EU: the Directive or
    # the Regulation); None: not recorded.
    planned_start: date | None = None
    # The robot controller's safety configuration identity (None: not
    # recorded), and whether safety-rated robot functions (speed, zone or
    # force limits) carry part of the safeguarding, as the cell records it.
    safety_configuration: SafetyConfigFacts | None = None
    safety_rated_limits: bool = False
    conformity: ConformityFacts = ConformityFacts()
    # Where people stand on the plan, and the robot's programs' paths on it
    # (issue 32): with a program, PFL and SSM are judged segment by segment.
    stations: tuple[StationFacts, ...] = ()
    programs: tuple[ProgramFacts, ...] = ()
    _devices_by_opening: dict[str, tuple[DeviceFacts, ...]] | None = PrivateAttr(
        default=None
    )
    # Each program's path judged, by (program, scanner), once per snapshot
    # (``compliance.rules.motion.program_path``).
    _paths: dict = PrivateAttr(default_factory=dict)

    @field_validator("collaborative_modes")
    @classmethod
    def _modes_distinct(
        cls, modes: tuple[CollaborativeMode, ...]
    ) -> tuple[CollaborativeMode, ...]:
        if len(set(modes)) != len(modes):
            raise ValueError("a collaborative mode is given twice")
        return modes

    @model_validator(mode="after")
    def _references_resolve(self) -> CellFacts:
        keys = [
            item.key
            for group in (
                self.segments,
                self.openings,
                self.devices,
                self.stations,
                self.programs,
            )
            for item in group
        ]
        duplicates = sorted(k for k, n in Counter(keys).items() if n > 1)
        if duplicates or CELL_SUBJECT in keys:
            raise ValueError(
                f"keys must be unique and not '{CELL_SUBJECT}': "
                f"{', '.join(duplicates) or CELL_SUBJECT}"
            )
        segment_keys = {s.key for s in self.segments}
        for opening in self.openings:
            if opening.segment_key not in segment_keys:
                raise ValueError(
                    f"opening {opening.key}: unknown segment_key {opening.segment_key}"
                )
        opening_keys = {o.key for o in self.openings}
        for device in self.devices:
            if device.opening_key is not None and device.opening_key not in (
                opening_keys
            ):
                raise ValueError(
                    f"device {device.key}: unknown opening_key {device.opening_key}"
                )
        return self

    def devices_of(self, *kinds: str) -> tuple[DeviceFacts, ...]:
        """The devices of the given kinds, in recorded order."""
        return tuple(d for d in self.devices if d.kind in kinds)

    def devices_for(self, opening_key: str) -> tuple[DeviceFacts, ...]:
        """The devices linked to one opening (in recorded order)."""
        if opening_key is None:
            return tuple(d for d in self.devices if d.opening_key is None)
        if self._devices_by_opening is None:
            # Asked once per opening by several rules: indexed once.
            index: dict[str, list[DeviceFacts]] = {}
            for device in self.devices:
                if device.opening_key is not None:
                    index.setdefault(device.opening_key, []).append(device)
            self._devices_by_opening = {k: tuple(v) for k, v in index.items()}
        return self._devices_by_opening.get(opening_key, ())

    @property
    def robot_speed_mm_s(self) -> float:
        """The speed to check with: the programmed speed if recorded, else the
        robot's maximum (the cautious choice)."""
        return self.programmed_speed_mm_s or self.robot_max_speed_mm_s

    def cell_fingerprint(self) -> str:
        """What the findings about the cell's guarding rest on (robot figures,
        hazard zone, segments, openings, devices as drawn), as 16 hex digits:
        compared with the fingerprint frozen at signing, it tells whether the
        cell changed since it was assessed."""
        data = self.model_dump(
            mode="json",
            include={
                "robot_kind",
                "robot_max_speed_mm_s",
                "robot_stopping_time_ms",
                "robot_moving_mass_kg",
                "payload_kg",
                "hazard_zone_height_mm",
                "hazard_zone_lower_mm",
                "zone_centre_mm",
                "zone_radius_mm",
                "zone_polygon_mm",
                "collaborative_modes",
                "programmed_speed_mm_s",
                "segments",
                "openings",
                "devices",
            },
        )
        if self.programs:
            # A program changed since signing changes what was assessed.
            data["programs"] = [p.sha256 for p in self.programs]
        for device in data.get("devices", []):
            # What the assessment, the library or a certificate says of a
            # device is not the device as drawn.
            for field in (
                "plr_served",
                "library",
                "kcs_certified",
                "kcs_certificate_no",
            ):
                device.pop(field, None)
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def controller_time_ms(self) -> float:
        """The largest recorded safety-controller response time, 0 if none."""
        return max(_times(self.devices_of("safety_controller")), default=0.0)


def _times(devices: Iterable[DeviceFacts]) -> list[float]:
    return [d.response_time_ms for d in devices if d.response_time_ms is not None]
