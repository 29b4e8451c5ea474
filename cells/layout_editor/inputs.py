"""What the plan's drawing tools send, as pydantic models.

The bounds here only keep numbers to what the database can hold: the plan's
own bounds (100 m about the origin) are checked by the models' validators, so
that a drawn point off the plan is refused with the same message as a typed
one.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

# A 32-bit integer column holds it; anything past 100 m is refused later anyway.
Mm = Annotated[int, Field(ge=-2_000_000_000, le=2_000_000_000)]
Point = tuple[Mm, Mm]
Id = Annotated[int, Field(ge=1, le=2**63 - 1)]
GuardKindName = Literal["fence", "wall", "machine_body"]
ElementKindName = Literal["segment", "opening", "device", "station", "zone"]


class _Input(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class SegmentsInput(_Input):
    points: Annotated[list[Point], Field(min_length=2, max_length=200)]
    closed: bool = False
    kind: GuardKindName = "fence"
    height_mm: Mm | None = None


class RectangleInput(_Input):
    a: Point
    b: Point
    kind: GuardKindName = "fence"
    height_mm: Mm | None = None


class CornerInput(_Input):
    source: Point = Field(alias="from")
    target: Point = Field(alias="to")


class MoveInput(_Input):
    kind: ElementKindName
    id: Annotated[int, Field(ge=0, le=2**63 - 1)]
    dx: Mm
    dy: Mm


class OpeningInput(_Input):
    """A new opening (``segment``, ``a`` and ``b``) or one slid along its
    segment (``id`` and ``at``, where its middle goes)."""

    segment: Id | None = None
    a: Point | None = None
    b: Point | None = None
    id: Id | None = None
    at: Point | None = None


class DeviceInput(_Input):
    kind: Literal["light_curtain", "multibeam", "safety_mat", "laser_scanner"]
    points: Annotated[list[Point], Field(min_length=1, max_length=2)]


class StationInput(_Input):
    at: Point


class ZoneInput(_Input):
    points: Annotated[list[Point], Field(min_length=3, max_length=200)]


class DeleteInput(_Input):
    """An element deleted; the hazard zone (id 0) is reset to the reach."""

    kind: Literal["segment", "opening", "device", "station", "zone"]
    id: Annotated[int, Field(ge=0, le=2**63 - 1)]


class NoInput(_Input):
    pass
