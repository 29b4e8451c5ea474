"""ISO 13855:2010: horizontal detection zones (walking approach, K = 1600 mm/s).

- 6.3: a detection zone parallel to the approach, e.g. a safety laser
  scanner's field: S = 1600 × T + (1200 − 0.4 × H), C not below 850 mm.
- 7: pressure-sensitive mats and floors: S = 1600 × T + 1200.

The figures are the 2010 ones as vendors reproduce them, taken from the
reference data ``iso13855.json`` via ``iso13855_tables``. Pure Python with
pydantic, no Django.
"""

from __future__ import annotations

from pydantic import Field, StrictFloat, field_validator, model_validator

from compliance.calculators import iso13855_tables as tables
from compliance.calculators.base import (
    CalcInput,
    Calculator,
    Line,
    gettext_noop,
)
from compliance.calculators.iso13855_common import (
    ALLOWANCE,
    CONTROLLER_TIME,
    STANDARD,
    STOPPING_TIME,
    DistanceResult,
    distance,
    distance_result,
    line,
    num,
    overall_time,
    parallel_intrusion,
    time_field,
)

CLAUSE_PARALLEL = "ISO 13855:2010, 6.3 (detection zone parallel to the approach)"
CLAUSE_MAT = "ISO 13855:2010, 7 (pressure-sensitive mats and floors)"


# --- pressure-sensitive mats and floors ------------------------------------


class MatInput(CalcInput):
    """A pressure-sensitive mat or floor in front of the hazard zone."""

    response_time_ms: StrictFloat = time_field(
        gettext_noop(
            "Response time of the mat and its control unit (data sheet), in "
            "milliseconds."
        )
    )
    controller_time_ms: StrictFloat = time_field(CONTROLLER_TIME, optional=True)
    stopping_time_ms: StrictFloat = time_field(STOPPING_TIME)
    allowance_ms: StrictFloat = time_field(ALLOWANCE, optional=True)
    step_height_mm: StrictFloat | None = Field(
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
    t_ms, t_line = overall_time(inp)
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
            line(
                gettext_noop("Mat on a step: C = 1200 − 0.4 × H, kept at least 850 mm"),
                f"C = 1200 − 0.4 × {num(h)} = {num(c_step)} mm → "
                f"C = max({num(c_step)}, 850) = {num(c_mm)} mm",
            )
        )
        warnings.append(
            line(
                gettext_noop(
                    "The reduction of C for a mat on a step is applied as the "
                    "reference states it (C = 1200 − 0.4 H); it gives no lower "
                    "limit for C, so the limit for horizontal detection zones "
                    "(C at least 850 mm, ISO 13855:2010, 6.3) is kept as a "
                    "cautious bound. Check the step rule against the standard."
                )
            )
        )
    s_mm, formula = distance(k_mm_s, t_ms, c_mm)
    steps += [
        line(
            gettext_noop("Walking approach: K = 1600 mm/s, C = %(c)s mm"),
            formula,
            c=num(c_mm),
        ),
        line(
            gettext_noop(
                "The mat must be at least 750 mm deep in the direction of approach"
            ),
            f"depth ≥ {tables.MAT_MIN_DEPTH_MM} mm",
        ),
    ]
    return distance_result(
        MatResult, (s_mm, k_mm_s, c_mm, t_ms), CLAUSE_MAT, steps, warnings, groups
    )


# --- parallel approach (horizontal detection zone) --------------------------


def _min_height(d_mm: float) -> float:
    # H ≥ 15 (d − 50); H may be 0 if d ≤ 50.
    return max(0.0, tables.PARALLEL_H_PER_MM_D * (d_mm - tables.PARALLEL_D_OFFSET_MM))


class ParallelInput(CalcInput):
    """A horizontal detection zone, e.g. a safety laser scanner's field."""

    field_height_mm: StrictFloat = Field(
        ge=0,
        json_schema_extra={"maximum": tables.PARALLEL_H_MAX_MM},
        description=gettext_noop(
            "Height H of the detection zone above the floor, in millimetres "
            "(at most 1000 mm)."
        ),
    )
    detection_capability_mm: StrictFloat = Field(
        gt=0,
        description=gettext_noop(
            "Detection capability d of the device at that height (its "
            "resolution), in millimetres."
        ),
    )
    response_time_ms: StrictFloat = time_field(
        gettext_noop(
            "Response time of the scanner or light curtain (data sheet), in "
            "milliseconds."
        )
    )
    controller_time_ms: StrictFloat = time_field(CONTROLLER_TIME, optional=True)
    stopping_time_ms: StrictFloat = time_field(STOPPING_TIME)
    allowance_ms: StrictFloat = time_field(ALLOWANCE, optional=True)

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
                f"{num(self.detection_capability_mm)} the field must be at least "
                f"15 × (d − 50) = {num(h_min)} mm above the floor (ISO 13855:2010, "
                f"6.3); raise the field or use a finer device"
            )
        return self


class ParallelResult(DistanceResult):
    """Minimum distance from the hazard zone to the outer edge of the field."""

    max_detection_capability_mm: float  # coarsest d allowed at this height


def iso13855_parallel(inp: ParallelInput) -> ParallelResult:
    """S = 1600 T + (1200 − 0.4 H), C not below 850 mm (6.3)."""
    t_ms, t_line = overall_time(inp)
    k_mm_s = tables.K_WALKING_MM_S
    h = inp.field_height_mm
    d = inp.detection_capability_mm
    d_max = h / tables.PARALLEL_H_PER_MM_D + tables.PARALLEL_D_OFFSET_MM
    c_raw, c_mm = parallel_intrusion(h)
    s_mm, formula = distance(k_mm_s, t_ms, c_mm)
    steps = [
        t_line,
        line(
            gettext_noop("Field height fits the detection capability: d ≤ H / 15 + 50"),
            f"{num(d)} mm ≤ {num(h)} / 15 + 50 = {num(d_max)} mm",
        ),
        line(
            gettext_noop("Intrusion distance C = 1200 − 0.4 × H, not below 850"),
            f"C = 1200 − 0.4 × {num(h)} = {num(c_raw)} mm → "
            f"C = max({num(c_raw)}, 850) = {num(c_mm)} mm",
        ),
        line(gettext_noop("Walking approach: K = 1600 mm/s"), formula),
    ]
    warnings = []
    if h > tables.PARALLEL_CRAWL_UNDER_H_MM:
        warnings.append(
            line(
                gettext_noop(
                    "The field is more than 300 mm above the floor (H = %(h)s mm): "
                    "a person may crawl under it undetected. Assess this risk in "
                    "the risk assessment."
                ),
                h=num(h),
            )
        )
    return distance_result(
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
