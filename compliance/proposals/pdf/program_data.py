"""The robot programs in a proposal's data (issue 32): each program's path on
the plan by verdict, bounded in points, the operator stations' contact zones
and the failing moves, for ``data.CellSection``. Pure pydantic, no Django."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Frozen(BaseModel):
    # As ``data._Frozen``.
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


# How much of the robot programs a proposal carries: the points of their
# paths on the plan, all programs together (a path of more is simplified),
# and the failing moves listed.
MAX_PATH_POINTS = 4_000
MAX_SLOW_SEGMENTS = 20
LINES_PER_PIECE = 3
PathVerdict = Literal["fail", "measure", "other"]
PlanPoint = tuple[float, float]


class PathPiece(_Frozen):
    """Consecutive straight moves of a robot program with one verdict, as a
    polyline on the plan (mm, the document's axes): "fail" faster than a
    person at a station may be touched (or too close for speed and
    separation monitoring), "measure" where a person could be clamped,
    "other" the rest."""

    verdict: PathVerdict
    points_mm: tuple[PlanPoint, ...] = Field(min_length=2)
    # The program's lines the piece draws, of a failing piece only (the plan
    # names them beside it), at most ``LINES_PER_PIECE``.
    lines: tuple[int, ...] = Field(default=(), max_length=LINES_PER_PIECE)
    more_lines: bool = False  # it draws more lines than those


class ProgramPath(_Frozen):
    """A robot program's path on the plan, named as the findings name it
    ("Robot program 1", never by its file), and its cycle time: the straight
    moves whose speed is known, as programmed and with the failing ones
    slowed to the speed each may have (None: a move no speed mends)."""

    label: str
    pieces: tuple[PathPiece, ...] = ()
    cycle_time_programmed_s: float | None = Field(default=None, ge=0)
    cycle_time_limited_s: float | None = Field(default=None, ge=0)
    failing_segments: int = Field(default=0, ge=0)


class ContactZone(_Frozen):
    """The reach round an operator station where the robot can touch the
    person (ISO/TS 15066, by default ISO 13855's 850 mm), on the plan."""

    station: str
    x_mm: float
    y_mm: float
    radius_mm: float = Field(gt=0)


class SlowSegment(_Frozen):
    """A failing move of a robot program: its line, the speed programmed and
    the speed it may have within reach of the station that governs."""

    program: str  # "Robot program 1"
    line: int = Field(ge=0)
    speed_mm_s: Decimal = Field(ge=0)
    permissible_mm_s: Decimal = Field(ge=0)  # 0: no speed is permitted
    station: str = ""
