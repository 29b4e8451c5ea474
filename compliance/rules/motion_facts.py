"""The operator stations and the robot programs of a cell as the rules see
them (issue 32): where people stand and what of them is exposed, and the
path the robot's programs move along, on the plan. Pure pydantic.

A program's segments are on the plan already (the robot base's place and
rotation applied when the snapshot is read), one plain tuple per straight
move: ``(line, x1, y1, z1, x2, y2, z2, speed)`` in mm and mm/s, the speed
None where the program does not give it. Plain tuples, not models: a
program may hold 200,000 of them.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from compliance.calculators.ts15066_tables import BodyRegion

Point = tuple[float, float]

# (line, x1, y1, z1, x2, y2, z2, speed_mm_s or None), on the plan.
PlanSegment = tuple[int, float, float, float, float, float, float, float | None]


class _Facts(BaseModel):
    # As ``compliance.rules.facts``, which imports these.
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class StationFacts(_Facts):
    """An operator station drawn on the plan: where a person stands, the
    ISO/TS 15066 body regions the SA recorded as exposed there, and the reach
    round it where contact can happen (None: the calculator's default)."""

    key: str = Field(min_length=1)  # "station:4"
    label: str
    position_mm: Point
    exposed_regions: tuple[BodyRegion, ...] = ()
    contact_reach_mm: float | None = Field(default=None, gt=0)


class ProgramFacts(_Facts):
    """A robot program imported into the cell (or, for a guarding concept,
    into the drawn cell it is a variant of), its path on the plan."""

    key: str = Field(min_length=1)  # "program:2"
    label: str  # its file name
    format: str
    sha256: str
    segments: tuple[PlanSegment, ...] = ()
    # Moves that cannot be placed without the robot's kinematics (joint
    # values): (line, reason); never silently dropped.
    not_checked: tuple[tuple[int, str], ...] = ()

    @property
    def joint_move_lines(self) -> tuple[int, ...]:
        return tuple(line for line, _reason in self.not_checked)
