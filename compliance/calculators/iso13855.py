"""ISO 13855:2010: positioning of safeguards with respect to approach speeds.

Minimum distance S = K × T + C from a detection zone to the hazard zone: K the
approach speed, T the overall stopping performance (device response +
controller + machine stopping time + any stated allowance), C the intrusion
distance.

- 6.2.3: ESPE (light curtain) approached at right angles, detection capability
  d ≤ 40 mm (6.2.3.2) and 40 < d ≤ 70 mm (6.2.3.3).
- 6.2: multiple separate beams (1 to 4) with their heights.
- 6.3: detection zone parallel to the approach (e.g. a laser scanner's field).
- 7: pressure-sensitive mats and floors.

Reaching over a vertical detection zone (C_RO, Table 1) is not computed: that
table is not in the reference data, so ESPE and multi-beam results warn that it
must be checked. The 2024 revision (EN ISO 13855:2025) was not read in detail;
figures are the 2010 ones as vendors reproduce them, taken from
``/work/shared/reference/iso13855.json`` via ``iso13855_tables``.
"""

from __future__ import annotations

import math
from typing import Any, TypeVar

from pydantic import Field, field_validator, model_validator

from compliance.calculators import iso13855_tables as tables
from compliance.calculators.base import (
    CalcInput,
    CalcResult,
    Calculator,
    Certainty,
    Line,
    fmt,
    gettext_noop,
)

STANDARD = "ISO 13855:2010"
CLAUSE_ESPE_FINE = "ISO 13855:2010, 6.2.3.2 (ESPE, detection capability ≤ 40 mm)"
CLAUSE_ESPE_COARSE = "ISO 13855:2010, 6.2.3.3 (ESPE, detection capability 40–70 mm)"
CLAUSE_MULTIBEAM = "ISO 13855:2010, 6.2 (multiple separate beams)"
CLAUSE_PARALLEL = "ISO 13855:2010, 6.3 (detection zone parallel to the approach)"
CLAUSE_MAT = "ISO 13855:2010, 7 (pressure-sensitive mats and floors)"

# Sanity bound on each time input (one minute), not a value from the standard:
# it only rejects typing errors such as seconds entered as milliseconds × 1000.
MAX_TIME_MS = 60_000


# --- shared input fields and working ---------------------------------------


_CONTROLLER_TIME = gettext_noop(
    "Response time of the safety controller or relay between the device and the "
    "machine, in milliseconds (0 if none)."
)
_STOPPING_TIME = gettext_noop(
    "Stopping time of the machine, from the stop signal to standstill, in "
    "milliseconds (measured, or from the machine maker)."
)
_ALLOWANCE = gettext_noop(
    "Any extra time you add to the overall stopping performance, e.g. for brake "
    "wear, in milliseconds (0 if none)."
)


def _time(description: str, *, optional: bool = False) -> Any:
    """A time input in ms; ``description`` is marked with gettext_noop."""
    if optional:
        return Field(default=0, ge=0, le=MAX_TIME_MS, description=description)
    return Field(gt=0, le=MAX_TIME_MS, description=description)


def _n(value: float) -> str:
    """A number with as few decimals as it needs (at most four)."""
    for digits in range(5):
        if abs(round(value, digits) - value) < 1e-9:
            return fmt(value, digits)
    return fmt(value, 4)


def _line(text: str, formula: str = "", **values: str | int | float) -> Line:
    # ``text`` is marked with gettext_noop by the caller.
    return Line(text=text, formula=formula, values=values)


def _overall_time(
    inp: EspeInput | MultibeamInput | MatInput | ParallelInput,
) -> tuple[float, Line]:
    parts = (
        inp.response_time_ms,
        inp.controller_time_ms,
        inp.stopping_time_ms,
        inp.allowance_ms,
    )
    t_ms = sum(parts)
    line = _line(
        gettext_noop(
            "Overall stopping performance T = device response + controller + "
            "machine stopping time + allowance"
        ),
        f"T = {' + '.join(_n(p) for p in parts)} = {_n(t_ms)} ms = {_n(t_ms / 1000)} s",
    )
    return t_ms, line


def _distance(k_mm_s: int, t_ms: float, c_mm: float) -> tuple[float, str]:
    # K in mm/s times T in ms, divided once by 1000, keeps exact products exact.
    s_mm = k_mm_s * t_ms / 1000 + c_mm
    k, t, c, s = _n(k_mm_s), _n(t_ms / 1000), _n(c_mm), _n(s_mm)
    return s_mm, f"S = {k} mm/s × {t} s + {c} mm = {s} mm"


def _rounded_up(s_mm: float) -> Line:
    # Rounding away from the hazard only; round(…, 6) drops float noise first.
    return _line(
        gettext_noop(
            "Place the detection zone at least this far from the hazard zone "
            "(rounded up to the next whole millimetre)"
        ),
        f"S ≥ {fmt(math.ceil(round(s_mm, 6)))} mm",
    )


def _reach_over_warning() -> Line:
    return _line(
        gettext_noop(
            "Reaching over the detection zone is not checked: C must also be at "
            "least C_RO from ISO 13855:2010 Table 1, which depends on the height "
            "of the hazard zone and of the top edge of the detection zone. That "
            "table is not in the reference data; check it against the standard."
        )
    )


class DistanceResult(CalcResult):
    """A minimum distance S = K × T + C with its parts."""

    minimum_distance_mm: float
    k_mm_s: int
    c_mm: float
    t_ms: float


R = TypeVar("R", bound=DistanceResult)


def _result(
    cls: type[R],
    distance: tuple[float, int, float, float],
    clause: str,
    steps: list[Line],
    warnings: list[Line],
    groups: tuple[tables.Sourced, ...],
    **extra: Any,
) -> R:
    """The result with S, K, C and T, the working and the sources behind it."""
    s_mm, k_mm_s, c_mm, t_ms = distance
    confirmed = all(g.confirmed_two_sources for g in groups)
    return cls(
        minimum_distance_mm=s_mm,
        k_mm_s=k_mm_s,
        c_mm=c_mm,
        t_ms=t_ms,
        clause=clause,
        steps=(*steps, _rounded_up(s_mm)),
        warnings=tuple(warnings),
        certainty=Certainty.TWO_SOURCES if confirmed else Certainty.ONE_SOURCE,
        sources=tuple(dict.fromkeys(s for g in groups for s in g.sources)),
        **extra,
    )


# --- ESPE, normal approach ---------------------------------------------------


class EspeInput(CalcInput):
    """A light curtain (ESPE) approached at right angles to its detection zone."""

    detection_capability_mm: float = Field(
        gt=0,
        # The limit is checked below with a message; shown to forms here.
        json_schema_extra={"maximum": tables.ESPE_D_MAX_MM},
        description=gettext_noop(
            "Detection capability d of the light curtain (its resolution, the "
            "smallest object it always detects), in millimetres. Covered: up to "
            "70 mm."
        ),
    )
    response_time_ms: float = _time(
        gettext_noop(
            "Response time of the light curtain (data sheet), in milliseconds."
        )
    )
    controller_time_ms: float = _time(_CONTROLLER_TIME, optional=True)
    stopping_time_ms: float = _time(_STOPPING_TIME)
    allowance_ms: float = _time(_ALLOWANCE, optional=True)

    @field_validator("detection_capability_mm")
    @classmethod
    def _covered(cls, d: float) -> float:
        if d > tables.ESPE_D_MAX_MM:
            raise ValueError(
                gettext_noop(
                    "detection_capability_mm: the ESPE normal-approach formulas of "
                    "ISO 13855:2010 cover a detection capability up to 70 mm "
                    "(d ≤ 40 mm for hand detection, 40 < d ≤ 70 mm for arm and body "
                    "detection); for coarser devices use the multiple-beam calculator"
                )
            )
        return d


class EspeResult(DistanceResult):
    """Minimum distance of a light curtain from the hazard zone."""


def iso13855_espe(inp: EspeInput) -> EspeResult:
    """S = K × T + C for an ESPE with a vertical detection zone (6.2.3)."""
    t_ms, t_line = _overall_time(inp)
    d = inp.detection_capability_mm
    steps = [t_line]
    if d > tables.ESPE_D_HAND_MAX_MM:
        k_mm_s = tables.K_WALKING_MM_S
        c_mm = float(tables.ESPE_C_D_GT_40_MM)
        s_mm, formula = _distance(k_mm_s, t_ms, c_mm)
        steps.append(
            _line(
                gettext_noop(
                    "Detection capability over 40 mm: K = 1600 mm/s, C = 850 mm"
                ),
                formula,
            )
        )
        return _result(
            EspeResult,
            (s_mm, k_mm_s, c_mm, t_ms),
            CLAUSE_ESPE_COARSE,
            steps,
            [_reach_over_warning()],
            (tables.APPROACH_SPEEDS, tables.ESPE_D_GT_40),
        )

    c_raw = tables.ESPE_C_PER_MM * (d - tables.ESPE_C_D_OFFSET_MM)
    c_mm = max(0.0, c_raw)
    c_formula = f"C = 8 × ({_n(d)} − 14) = {_n(c_raw)} mm"
    if c_raw < 0:
        c_formula += f" → C = {_n(c_mm)} mm"
    steps.append(
        _line(
            gettext_noop("Intrusion distance C = 8 × (d − 14), not below 0"), c_formula
        )
    )
    s_fast, formula = _distance(tables.K_HAND_ARM_MM_S, t_ms, c_mm)
    steps.append(_line(gettext_noop("First with K = 2000 mm/s"), formula))
    if s_fast > tables.ESPE_S_SWITCH_MM:
        k_mm_s = tables.K_WALKING_MM_S
        s_slow, formula = _distance(k_mm_s, t_ms, c_mm)
        s_mm = max(s_slow, tables.ESPE_S_SWITCH_MM)
        steps.append(
            _line(
                gettext_noop(
                    "S is over 500 mm: recalculate with K = 1600 mm/s, "
                    "but not less than 500 mm"
                ),
                f"{formula} → S = max({_n(s_slow)}, 500) = {_n(s_mm)} mm",
            )
        )
    elif s_fast < tables.ESPE_S_MIN_MM:
        k_mm_s = tables.K_HAND_ARM_MM_S
        s_mm = float(tables.ESPE_S_MIN_MM)
        steps.append(
            _line(
                gettext_noop("S is below the minimum of 100 mm, so S = 100 mm"),
                f"S = max({_n(s_fast)}, 100) = {_n(s_mm)} mm",
            )
        )
    else:
        k_mm_s = tables.K_HAND_ARM_MM_S
        s_mm = s_fast
        steps.append(
            _line(
                gettext_noop("S is between 100 mm and 500 mm, so it is used as it is"),
                f"100 ≤ {_n(s_fast)} ≤ 500",
            )
        )
    return _result(
        EspeResult,
        (s_mm, k_mm_s, c_mm, t_ms),
        CLAUSE_ESPE_FINE,
        steps,
        [_reach_over_warning()],
        (tables.APPROACH_SPEEDS, tables.ESPE_D_LE_40),
    )


# --- multiple separate beams --------------------------------------------------


class MultibeamInput(CalcInput):
    """A multi-beam light grid (1 to 4 separate beams) guarding an access."""

    beam_count: int = Field(
        ge=1,
        le=4,
        description=gettext_noop(
            "Number of separate beams of the light grid (1 to 4)."
        ),
    )
    response_time_ms: float = _time(
        gettext_noop("Response time of the light grid (data sheet), in milliseconds.")
    )
    controller_time_ms: float = _time(_CONTROLLER_TIME, optional=True)
    stopping_time_ms: float = _time(_STOPPING_TIME)
    allowance_ms: float = _time(_ALLOWANCE, optional=True)


class MultibeamResult(DistanceResult):
    """Minimum distance of a multi-beam light grid and its beam heights."""

    beam_heights_mm: tuple[int, ...]


def iso13855_multibeam(inp: MultibeamInput) -> MultibeamResult:
    """S = 1600 T + C for multiple separate beams, with the beam heights (6.2)."""
    t_ms, t_line = _overall_time(inp)
    k_mm_s = tables.K_WALKING_MM_S
    heights = tables.MULTIBEAM_HEIGHTS_MM[inp.beam_count]
    warnings = [_reach_over_warning()]
    if inp.beam_count == 1:
        c_mm = float(tables.SINGLE_BEAM_C_MM)
        c_text = gettext_noop("Single beam: K = 1600 mm/s, C = 1200 mm")
        s_code, _ = _distance(k_mm_s, t_ms, tables.SINGLE_BEAM_C_CODE_MM)
        warnings.append(
            _line(
                gettext_noop(
                    "Sources differ for a single beam: vendor manuals give "
                    "C = 1200 mm, one public code source keeps C = 850 mm. The "
                    "larger value, 1200 mm, is used; with 850 mm S would be "
                    "%(s_code)s mm."
                ),
                s_code=_n(s_code),
            )
        )
    else:
        c_mm = float(tables.MULTIBEAM_C_MM)
        c_text = gettext_noop("2 to 4 beams: K = 1600 mm/s, C = 850 mm")
    s_mm, formula = _distance(k_mm_s, t_ms, c_mm)
    steps = [
        t_line,
        _line(c_text, formula),
        _line(
            gettext_noop("Beam heights above the reference plane (floor)"),
            " / ".join(f"{h} mm" for h in heights),
        ),
    ]
    return _result(
        MultibeamResult,
        (s_mm, k_mm_s, c_mm, t_ms),
        CLAUSE_MULTIBEAM,
        steps,
        warnings,
        (tables.APPROACH_SPEEDS, tables.MULTIBEAM),
        beam_heights_mm=heights,
    )


# --- pressure-sensitive mats and floors ------------------------------------


class MatInput(CalcInput):
    """A pressure-sensitive mat or floor in front of the hazard zone."""

    response_time_ms: float = _time(
        gettext_noop(
            "Response time of the mat and its control unit (data sheet), in "
            "milliseconds."
        )
    )
    controller_time_ms: float = _time(_CONTROLLER_TIME, optional=True)
    stopping_time_ms: float = _time(_STOPPING_TIME)
    allowance_ms: float = _time(_ALLOWANCE, optional=True)
    step_height_mm: float | None = Field(
        default=None,
        ge=0,
        json_schema_extra={"maximum": tables.PARALLEL_H_MAX_MM},
        description=gettext_noop(
            "If the mat lies on a step, the height of the step above the floor "
            "in millimetres (at most 1000 mm); leave empty if it lies on the floor."
        ),
    )

    @field_validator("step_height_mm")
    @classmethod
    def _step_covered(cls, h: float | None) -> float | None:
        if h is not None and h > tables.PARALLEL_H_MAX_MM:
            raise ValueError(
                gettext_noop(
                    "step_height_mm: a mat on a step higher than 1000 mm is outside "
                    "what is covered here (a horizontal detection zone may be at "
                    "most 1000 mm above the floor, ISO 13855:2010, 6.3)"
                )
            )
        return h


class MatResult(DistanceResult):
    """Minimum distance from the hazard zone to the far edge of the mat."""


def iso13855_mat(inp: MatInput) -> MatResult:
    """S = 1600 T + 1200 for pressure-sensitive mats and floors (clause 7)."""
    t_ms, t_line = _overall_time(inp)
    k_mm_s = tables.K_WALKING_MM_S
    groups: tuple[tables.Sourced, ...] = (tables.APPROACH_SPEEDS, tables.MATS)
    steps = [t_line]
    warnings: list[Line] = []
    h = inp.step_height_mm
    c_mm = float(tables.MAT_C_MM)
    if h:
        c_step = tables.MAT_C_MM - tables.MAT_STEP_C_PER_MM_H * h
        c_mm = max(c_step, float(tables.PARALLEL_C_MIN_MM))
        groups = (*groups, tables.PARALLEL)
        steps.append(
            _line(
                gettext_noop("Mat on a step: C = 1200 − 0.4 × H, kept at least 850 mm"),
                f"C = 1200 − 0.4 × {_n(h)} = {_n(c_step)} mm → "
                f"C = max({_n(c_step)}, 850) = {_n(c_mm)} mm",
            )
        )
        warnings.append(
            _line(
                gettext_noop(
                    "The reduction of C for a mat on a step is applied as the "
                    "reference states it (C = 1200 − 0.4 H); it gives no lower "
                    "limit for C, so the limit for horizontal detection zones "
                    "(C at least 850 mm, ISO 13855:2010, 6.3) is kept as a "
                    "cautious bound. Check the step rule against the standard."
                )
            )
        )
    s_mm, formula = _distance(k_mm_s, t_ms, c_mm)
    steps += [
        _line(
            gettext_noop("Walking approach: K = 1600 mm/s, C = %(c)s mm"),
            formula,
            c=_n(c_mm),
        ),
        _line(
            gettext_noop(
                "The mat must be at least 750 mm deep in the direction of approach"
            ),
            f"depth ≥ {tables.MAT_MIN_DEPTH_MM} mm",
        ),
    ]
    return _result(
        MatResult, (s_mm, k_mm_s, c_mm, t_ms), CLAUSE_MAT, steps, warnings, groups
    )


# --- parallel approach (horizontal detection zone) --------------------------


def _min_height(d_mm: float) -> float:
    # H ≥ 15 (d − 50); H may be 0 if d ≤ 50.
    return max(0.0, tables.PARALLEL_H_PER_MM_D * (d_mm - tables.PARALLEL_D_OFFSET_MM))


class ParallelInput(CalcInput):
    """A horizontal detection zone, e.g. a safety laser scanner's field."""

    field_height_mm: float = Field(
        ge=0,
        json_schema_extra={"maximum": tables.PARALLEL_H_MAX_MM},
        description=gettext_noop(
            "Height H of the detection zone above the floor, in millimetres "
            "(at most 1000 mm)."
        ),
    )
    detection_capability_mm: float = Field(
        gt=0,
        description=gettext_noop(
            "Detection capability d of the device at that height (its "
            "resolution), in millimetres."
        ),
    )
    response_time_ms: float = _time(
        gettext_noop(
            "Response time of the scanner or light curtain (data sheet), in "
            "milliseconds."
        )
    )
    controller_time_ms: float = _time(_CONTROLLER_TIME, optional=True)
    stopping_time_ms: float = _time(_STOPPING_TIME)
    allowance_ms: float = _time(_ALLOWANCE, optional=True)

    @field_validator("field_height_mm")
    @classmethod
    def _height_covered(cls, h: float) -> float:
        if h > tables.PARALLEL_H_MAX_MM:
            raise ValueError(
                gettext_noop(
                    "field_height_mm: a horizontal detection zone may be at most "
                    "1000 mm above the floor (ISO 13855:2010, 6.3); higher fields "
                    "cannot be placed by this rule"
                )
            )
        return h

    @model_validator(mode="after")
    def _height_fits_detection_capability(self) -> ParallelInput:
        h_min = _min_height(self.detection_capability_mm)
        if self.field_height_mm < h_min:
            raise ValueError(
                f"field_height_mm: with detection_capability_mm = "
                f"{_n(self.detection_capability_mm)} the field must be at least "
                f"15 × (d − 50) = {_n(h_min)} mm above the floor (ISO 13855:2010, "
                f"6.3); raise the field or use a finer device"
            )
        return self


class ParallelResult(DistanceResult):
    """Minimum distance from the hazard zone to the outer edge of the field."""

    max_detection_capability_mm: float  # coarsest d allowed at this height


def iso13855_parallel(inp: ParallelInput) -> ParallelResult:
    """S = 1600 T + (1200 − 0.4 H), C not below 850 mm (6.3)."""
    t_ms, t_line = _overall_time(inp)
    k_mm_s = tables.K_WALKING_MM_S
    h = inp.field_height_mm
    d = inp.detection_capability_mm
    d_max = h / tables.PARALLEL_H_PER_MM_D + tables.PARALLEL_D_OFFSET_MM
    c_raw = tables.PARALLEL_C_BASE_MM - tables.PARALLEL_C_PER_MM_H * h
    c_mm = max(c_raw, float(tables.PARALLEL_C_MIN_MM))
    s_mm, formula = _distance(k_mm_s, t_ms, c_mm)
    steps = [
        t_line,
        _line(
            gettext_noop("Field height fits the detection capability: d ≤ H / 15 + 50"),
            f"{_n(d)} mm ≤ {_n(h)} / 15 + 50 = {_n(d_max)} mm",
        ),
        _line(
            gettext_noop("Intrusion distance C = 1200 − 0.4 × H, not below 850"),
            f"C = 1200 − 0.4 × {_n(h)} = {_n(c_raw)} mm → "
            f"C = max({_n(c_raw)}, 850) = {_n(c_mm)} mm",
        ),
        _line(gettext_noop("Walking approach: K = 1600 mm/s"), formula),
    ]
    warnings = []
    if h > tables.PARALLEL_CRAWL_UNDER_H_MM:
        warnings.append(
            _line(
                gettext_noop(
                    "The field is more than 300 mm above the floor (H = %(h)s mm): "
                    "a person may crawl under it undetected. Assess this risk in "
                    "the risk assessment."
                ),
                h=_n(h),
            )
        )
    return _result(
        ParallelResult,
        (s_mm, k_mm_s, c_mm, t_ms),
        CLAUSE_PARALLEL,
        steps,
        warnings,
        (tables.APPROACH_SPEEDS, tables.PARALLEL),
        max_detection_capability_mm=d_max,
    )


CALCULATORS: list[Calculator] = [
    Calculator(
        name="iso13855-espe",
        title=gettext_noop("Light curtain minimum distance (normal approach)"),
        summary=gettext_noop(
            "How far a light curtain must be from the hazard zone when people "
            "approach it head-on: S = K × T + C from its detection capability "
            "and the overall stopping time."
        ),
        standard=STANDARD,
        input_model=EspeInput,
        result_model=EspeResult,
        run=iso13855_espe,
        headline=("minimum_distance_mm", "k_mm_s", "c_mm", "t_ms"),
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
            "hazard zone, and at which heights its beams go."
        ),
        standard=STANDARD,
        input_model=MultibeamInput,
        result_model=MultibeamResult,
        run=iso13855_multibeam,
        headline=("minimum_distance_mm", "beam_heights_mm", "t_ms"),
        # Banner EZ-SCREEN Point (EU): 0.32 s stop + 0.024 s response → 1400.4 mm.
        example={"beam_count": 2, "response_time_ms": 24, "stopping_time_ms": 320},
    ),
    Calculator(
        name="iso13855-mat",
        title=gettext_noop("Safety mat minimum distance"),
        summary=gettext_noop(
            "How far the far edge of a pressure-sensitive mat or floor must be "
            "from the hazard zone: S = 1600 × T + 1200 mm."
        ),
        standard=STANDARD,
        input_model=MatInput,
        result_model=MatResult,
        run=iso13855_mat,
        headline=("minimum_distance_mm", "c_mm", "t_ms"),
        example={"response_time_ms": 30, "stopping_time_ms": 200},
    ),
    Calculator(
        name="iso13855-parallel",
        title=gettext_noop("Horizontal field minimum distance (parallel approach)"),
        summary=gettext_noop(
            "How far a horizontal detection zone, such as a safety laser "
            "scanner's field, must reach from the hazard zone: "
            "S = 1600 × T + (1200 − 0.4 × H)."
        ),
        standard=STANDARD,
        input_model=ParallelInput,
        result_model=ParallelResult,
        run=iso13855_parallel,
        headline=("minimum_distance_mm", "c_mm", "t_ms"),
        example={
            "field_height_mm": 300,
            "detection_capability_mm": 70,
            "response_time_ms": 80,
            "stopping_time_ms": 400,
        },
    ),
]
