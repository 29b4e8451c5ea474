"""ISO 13855:2010: positioning of safeguards with respect to approach speeds.

Minimum distance S = K × T + C from a detection zone to the hazard zone: K the
approach speed, T the overall stopping performance (device response +
controller + machine stopping time + any stated allowance), C the intrusion
distance.

- 6.2.3: ESPE (light curtain) approached at right angles, detection capability
  d ≤ 40 mm (6.2.3.2) and 40 < d ≤ 70 mm (6.2.3.3): ``iso13855-espe``.
- 6.2: multiple separate beams (1 to 4) with their heights:
  ``iso13855-multibeam``.
- 6.5 and Table 1: reaching over a vertical detection zone. The distance is
  S = max(S_RT, S_RO), S_RO = K × T + C_RO. Given the hazard height a (and for
  a light curtain the upper edge b) both calculators check it; without them
  they warn that it is not checked and give S_RT.

The parts live beside this module: S_RT in ``iso13855_reach_through``, C_RO and
S_RO in ``iso13855_reach_over``, S = max(...) and ``iso13855_vertical_zone``
(the entry point for the rule packs) in ``iso13855_vertical``; horizontal
detection zones and mats (6.3, 7) in ``iso13855_horizontal``, re-exported
here; interlocking guards in ``iso13855_interlock``. The 2024 revision (EN ISO
13855:2025) was not read in detail; figures are the 2010 ones as vendors
reproduce them, taken from the reference data ``iso13855.json`` and
``iso13855_additions.json`` via ``iso13855_tables``. Pure Python with pydantic,
no Django.
"""

from __future__ import annotations

from pydantic import Field, StrictFloat, StrictInt, field_validator

from compliance.calculators import iso13855_tables as tables
from compliance.calculators.base import CalcInput, Calculator, Line, gettext_noop
from compliance.calculators.iso13855_common import (
    ALLOWANCE,
    CONTROLLER_TIME,
    STANDARD,
    STOPPING_TIME,
    DistanceResult,
    overall_time,
    time_field,
)
from compliance.calculators.iso13855_horizontal import (
    CALCULATORS as HORIZONTAL_CALCULATORS,
)
from compliance.calculators.iso13855_horizontal import (
    MatInput,
    MatResult,
    ParallelInput,
    ParallelResult,
    iso13855_mat,
    iso13855_parallel,
)
from compliance.calculators.iso13855_reach_through import (
    CLAUSE_ESPE_COARSE,
    CLAUSE_ESPE_FINE,
    CLAUSE_MULTIBEAM,
    check_d,
    curtain_reach_through,
    multibeam_reach_through,
)
from compliance.calculators.iso13855_vertical import (
    HAZARD_HEIGHT,
    MAX_HEIGHT_MM,
    VerticalZoneInput,
    VerticalZoneResult,
    iso13855_vertical_zone,
    top_beam_step,
    vertical_result,
)

__all__ = [
    "CALCULATORS",
    "CLAUSE_ESPE_COARSE",
    "CLAUSE_ESPE_FINE",
    "CLAUSE_MULTIBEAM",
    "STANDARD",
    "DistanceResult",
    "EspeInput",
    "EspeResult",
    "MatInput",
    "MatResult",
    "MultibeamInput",
    "MultibeamResult",
    "ParallelInput",
    "ParallelResult",
    "VerticalZoneInput",
    "VerticalZoneResult",
    "iso13855_espe",
    "iso13855_mat",
    "iso13855_multibeam",
    "iso13855_parallel",
    "iso13855_vertical_zone",
]


# --- ESPE, normal approach ---------------------------------------------------


class EspeInput(CalcInput):
    """A light curtain (ESPE) approached at right angles to its detection zone."""

    detection_capability_mm: StrictFloat = Field(
        gt=0,
        # The limit is checked below with a message; shown to forms here.
        json_schema_extra={"maximum": tables.ESPE_D_MAX_MM},
        description=gettext_noop(
            "Detection capability d of the light curtain (its resolution, the "
            "smallest object it always detects), in millimetres. Covered: up to "
            "70 mm."
        ),
    )
    response_time_ms: StrictFloat = time_field(
        gettext_noop(
            "Response time of the light curtain (data sheet), in milliseconds."
        )
    )
    controller_time_ms: StrictFloat = time_field(CONTROLLER_TIME, optional=True)
    stopping_time_ms: StrictFloat = time_field(STOPPING_TIME)
    allowance_ms: StrictFloat = time_field(ALLOWANCE, optional=True)
    hazard_height_mm: StrictFloat | None = Field(
        default=None, ge=0, le=MAX_HEIGHT_MM, description=HAZARD_HEIGHT
    )
    upper_edge_height_mm: StrictFloat | None = Field(
        default=None,
        gt=0,
        le=MAX_HEIGHT_MM,
        description=gettext_noop(
            "Height b of the upper edge of the light curtain's detection zone above "
            "the floor, in mm, to check reaching over it. Optional: without it, "
            "reaching over is not checked."
        ),
    )

    @field_validator("detection_capability_mm")
    @classmethod
    def _covered(cls, d: float) -> float:
        check_d(d)
        return d


class EspeResult(VerticalZoneResult):
    """Minimum distance of a light curtain from the hazard zone."""


def iso13855_espe(inp: EspeInput) -> EspeResult:
    """S = K × T + C for an ESPE with a vertical detection zone (6.2.3), and
    S = max(S_RT, S_RO) when a and b are given (6.5, Table 1)."""
    t = overall_time(inp)
    a = inp.hazard_height_mm
    return vertical_result(
        EspeResult,
        curtain_reach_through(inp.detection_capability_mm, t[0]),
        t,
        None if a is None else (a, a),
        inp.upper_edge_height_mm,
    )


# --- multiple separate beams --------------------------------------------------


class MultibeamInput(CalcInput):
    """A multi-beam light grid (1 to 4 separate beams) guarding an access."""

    beam_count: StrictInt = Field(
        ge=1,
        le=4,
        description=gettext_noop(
            "Number of separate beams of the light grid (1 to 4)."
        ),
    )
    response_time_ms: StrictFloat = time_field(
        gettext_noop("Response time of the light grid (data sheet), in milliseconds.")
    )
    controller_time_ms: StrictFloat = time_field(CONTROLLER_TIME, optional=True)
    stopping_time_ms: StrictFloat = time_field(STOPPING_TIME)
    allowance_ms: StrictFloat = time_field(ALLOWANCE, optional=True)
    hazard_height_mm: StrictFloat | None = Field(
        default=None, ge=0, le=MAX_HEIGHT_MM, description=HAZARD_HEIGHT
    )
    upper_edge_height_mm: StrictFloat | None = Field(
        default=None,
        gt=0,
        le=MAX_HEIGHT_MM,
        description=gettext_noop(
            "Height b of the top beam above the floor, in mm, to check reaching "
            "over the grid. Optional: if the hazard height is given without it, "
            "the top beam of the standard arrangement for the beam count is used."
        ),
    )


class MultibeamResult(VerticalZoneResult):
    """Minimum distance of a multi-beam light grid and its beam heights."""

    beam_heights_mm: tuple[int, ...]


def iso13855_multibeam(inp: MultibeamInput) -> MultibeamResult:
    """S = 1600 T + C for multiple separate beams, with the beam heights (6.2),
    and S = max(S_RT, S_RO) when the hazard height is given (6.5, Table 1)."""
    t = overall_time(inp)
    a, b = inp.hazard_height_mm, inp.upper_edge_height_mm
    pre: tuple[Line, ...] = ()
    if a is not None and b is None:
        b, top_line = top_beam_step(inp.beam_count)
        pre = (top_line,)
    return vertical_result(
        MultibeamResult,
        multibeam_reach_through(inp.beam_count, t[0]),
        t,
        None if a is None else (a, a),
        b,
        pre_steps=pre,
        beam_heights_mm=tables.MULTIBEAM_HEIGHTS_MM[inp.beam_count],
    )


CALCULATORS: list[Calculator] = [
    Calculator(
        name="iso13855-espe",
        title=gettext_noop("Light curtain minimum distance (normal approach)"),
        summary=gettext_noop(
            "How far a light curtain must be from the hazard zone when people "
            "approach it head-on: S = K × T + C from its detection capability "
            "and the overall stopping time, and with the heights of the hazard "
            "and of the curtain's top edge also the reach over it: "
            "S = max(S_RT, S_RO)."
        ),
        standard=STANDARD,
        input_model=EspeInput,
        result_model=EspeResult,
        run=iso13855_espe,
        headline=(
            "minimum_distance_mm",
            "governs",
            "reach_through_distance_mm",
            "reach_over_distance_mm",
            "k_mm_s",
            "c_mm",
            "t_ms",
        ),
        # SICK C4000 example: d = 14 mm, T = 0.32 s → 512 mm (T split here into
        # device response and machine stopping time; only the sum matters).
        example={
            "detection_capability_mm": 14,
            "response_time_ms": 20,
            "stopping_time_ms": 300,
        },
    ),
    Calculator(
        name="iso13855-multibeam",
        title=gettext_noop("Multi-beam light grid minimum distance"),
        summary=gettext_noop(
            "How far a light grid of 1 to 4 separate beams must be from the "
            "hazard zone, at which heights its beams go, and with the hazard "
            "height also the reach over the top beam: S = max(S_RT, S_RO)."
        ),
        standard=STANDARD,
        input_model=MultibeamInput,
        result_model=MultibeamResult,
        run=iso13855_multibeam,
        headline=(
            "minimum_distance_mm",
            "governs",
            "reach_through_distance_mm",
            "reach_over_distance_mm",
            "beam_heights_mm",
            "t_ms",
        ),
        # Banner EZ-SCREEN Point (EU): 0.32 s stop + 0.024 s response → 1400.4 mm.
        example={"beam_count": 2, "response_time_ms": 24, "stopping_time_ms": 320},
    ),
    *HORIZONTAL_CALCULATORS,
]
