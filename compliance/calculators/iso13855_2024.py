"""ISO 13855:2024 (EN ISO 13855:2025): positioning of safeguards, the 2024 model.

S = K × T + D_DS + Z, where D_DS is the distance a body part can move toward
the hazard before it is detected and Z a supplement for the device's own
errors (a scanner's measurement error, reflections). The formula is worked
out in ``distance_2024`` only (the 2010 figures shown beside it come from
``iso13855_common``, the 2010 edition's):

- 6 (detection zone orthogonal to the approach, e.g. a light curtain): D_DS is
  the largest of reaching through (D_DT, by the detection capability d),
  reaching over (D_DO, from a table of the hazard height and the top of the
  detection zone) and reaching under (D_DU, by the gap beneath the zone):
  ``iso13855-2024-orthogonal``;
- 6.3 (detection zone parallel to the approach, e.g. a scanner's field):
  K = 1600 mm/s, a flat D_DS = 1200 mm, the field's height H_D at least
  15 (d − 50) and at most 1000 mm, and above 200 mm a risk of undetected
  access below it: ``iso13855-2024-parallel``.

The figures are from the reference data ``iso13855_additions.json``
(``edition_2024``, via ``iso13855_tables``): the formula rests on two
sources, K on one per case, D_DT and D_DU on one code source whose author
calls them "free interpretations", the parallel approach on one source. The
2024 D_DO table is not in the reference: the user gives D_DO from their copy
of the standard, or reaching over is not checked (a rule then needs
evidence). Results name the edition and carry the certainty of the figures
they used. Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictFloat, field_validator, model_validator

from compliance.calculators import iso13855_tables as tables
from compliance.calculators.base import (
    CalcInput,
    CalcResult,
    Calculator,
    Line,
    gettext_noop,
)
from compliance.calculators.iso13855_common import (
    ALLOWANCE,
    CONTROLLER_TIME,
    MAX_TIME_MS,
    MIN_TIME_MS,
    STOPPING_TIME,
    certainty_of,
    distance,
    line,
    num,
    overall_time,
    parallel_intrusion,
    rounded_up,
    rounded_up_mm,
    sources_of,
    time_field,
)

STANDARD_2024 = "ISO 13855:2024"
EDITION = "2024"
CLAUSE_ORTHOGONAL_2024 = (
    "ISO 13855:2024 (EN ISO 13855:2025), 6 (detection zone orthogonal to the "
    "approach): S = K × T + D_DS + Z, D_DS = max(D_DT, D_DO, D_DU)"
)
CLAUSE_PARALLEL_2024 = (
    "ISO 13855:2024 (EN ISO 13855:2025), 6.3 (detection zone parallel to the "
    "approach): S = K × T + D_DS + Z"
)

# Sanity bounds on what is typed in, not values from the standard.
MAX_SUPPLEMENT_MM = 2_000
MAX_HEIGHT_MM = 10_000

SUPPLEMENT_Z = gettext_noop(
    "Supplement Z for the device's measurement and reflection errors, in mm, "
    "from its data sheet (for example a scanner's measurement error, or "
    "retroreflectors near its field); 0 if the maker gives none."
)


SYMBOLS = {"reach_through": "D_DT", "reach_over": "D_DO", "reach_under": "D_DU"}


def _time_total(inp) -> tuple[float, Line]:
    return overall_time(inp)


# --- the parts of D_DS --------------------------------------------------------


def reach_through(d_mm: float) -> tuple[float, float, int | None, Line]:
    """D_DT by the detection capability d: (D_DT, the least S, a fixed K or
    None for the 2000/1600 procedure, the working)."""
    if d_mm <= tables.D_DT_FINE_MAX_MM:
        d_dt = max(0.0, tables.ESPE_C_PER_MM * (d_mm - tables.ESPE_C_D_OFFSET_MM))
        return (
            d_dt,
            float(tables.S_MIN_FINE_MM),
            None,
            line(
                gettext_noop("Reaching through, d ≤ 40 mm: D_DT = 8 × (d − 14)"),
                f"D_DT = 8 × ({num(d_mm)} − 14) = {num(d_dt)} mm",
            ),
        )
    if d_mm <= tables.D_DT_MID_MAX_MM:
        d_dt = tables.D_DT_MID_BASE_MM + tables.D_DT_MID_PER_MM * (
            d_mm - tables.D_DT_FINE_MAX_MM
        )
        return (
            d_dt,
            float(tables.S_MIN_MID_MM),
            None,
            line(
                gettext_noop(
                    "Reaching through, 40 < d ≤ 55 mm: D_DT = 208 + 12 × (d − 40), "
                    "S at least 500 mm"
                ),
                f"D_DT = 208 + 12 × ({num(d_mm)} − 40) = {num(d_dt)} mm",
            ),
        )
    return (
        float(tables.D_DT_COARSE_MM),
        0.0,
        tables.K_WALKING_MM_S,
        line(
            gettext_noop("Reaching through, 55 < d ≤ 120 mm: D_DT = 850 mm, K = 1600"),
            f"D_DT = {tables.D_DT_COARSE_MM} mm",
        ),
    )


def reach_under(d_mm: float, gap_mm: float) -> tuple[float | None, Line]:
    """D_DU = 8 × (d + H_DB − 14) for a gap H_DB beneath the detection zone of
    at most 300 mm; None above (the formula does not cover it)."""
    if gap_mm > tables.D_DU_GAP_MAX_MM:
        return None, line(
            gettext_noop(
                "Reaching under: the gap beneath the detection zone is %(gap)s mm, "
                "above the 300 mm the formula covers; D_DU cannot be worked out "
                "here (needs evidence from the standard's table)"
            ),
            gap=num(gap_mm),
        )
    d_du = max(0.0, tables.ESPE_C_PER_MM * (d_mm + gap_mm - tables.ESPE_C_D_OFFSET_MM))
    return d_du, line(
        gettext_noop("Reaching under: D_DU = 8 × (d + H_DB − 14), H_DB ≤ 300 mm"),
        f"D_DU = 8 × ({num(d_mm)} + {num(gap_mm)} − 14) = {num(d_du)} mm",
    )


def distance_2024(k_mm_s: int, t_ms: float, d_ds_mm: float, z_mm: float) -> float:
    """S = K × T + D_DS + Z: the one place the 2024 formula is worked out."""
    # K in mm/s times T in ms, divided once by 1000, as the 2010 ``distance``.
    return k_mm_s * t_ms / 1000 + d_ds_mm + z_mm


def with_speed(
    t_ms: float, d_ds_mm: float, z_mm: float, s_min_mm: float, k_fixed: int | None
) -> tuple[float, int, list[Line]]:
    """S = K × T + D_DS + Z with K chosen: 2000 mm/s, or 1600 mm/s where that
    gives more than 500 mm (then at least 500 mm, as in the 2010 edition);
    never below the least S of the detection capability."""

    def s(k: int) -> float:
        return distance_2024(k, t_ms, d_ds_mm, z_mm)

    def formula(k: int, value: float) -> str:
        return (
            f"S = {k} mm/s × {num(t_ms / 1000)} s + {num(d_ds_mm)} mm + "
            f"{num(z_mm)} mm = {num(value)} mm"
        )

    if k_fixed is not None:
        value = s(k_fixed)
        return (
            value,
            k_fixed,
            [
                line(
                    gettext_noop("Walking approach: K = 1600 mm/s"),
                    formula(k_fixed, value),
                )
            ],
        )
    hand = s(tables.K_HAND_ARM_MM_S)
    steps = [
        line(
            gettext_noop("Hand approach first: K = 2000 mm/s"),
            formula(tables.K_HAND_ARM_MM_S, hand),
        )
    ]
    if hand <= tables.ESPE_S_SWITCH_MM:
        value = max(hand, s_min_mm)
        if value > hand:
            steps.append(
                line(
                    gettext_noop("Not less than the least distance for this d"),
                    f"S = max({num(hand)}, {num(s_min_mm)}) = {num(value)} mm",
                )
            )
        return value, tables.K_HAND_ARM_MM_S, steps
    walk = s(tables.K_WALKING_MM_S)
    value = max(walk, float(tables.ESPE_S_SWITCH_MM), s_min_mm)
    steps.append(
        line(
            gettext_noop(
                "More than 500 mm: K = 1600 mm/s, S not less than 500 mm (the "
                "2010 edition's floor, kept as the 2024 sources do not state one)"
            ),
            f"{formula(tables.K_WALKING_MM_S, walk)} → S = {num(value)} mm",
        )
    )
    return value, tables.K_WALKING_MM_S, steps


# --- results --------------------------------------------------------------------


class Result2024(CalcResult):
    """A minimum distance by ISO 13855:2024.

    ``minimum_distance_mm`` is S, or None when a part of D_DS could not be
    worked out (``determinable`` False, ``undetermined_reason`` says why):
    needs evidence, never a pass. ``known_minimum_mm`` is what S is at least
    from the parts that could be worked out.
    """

    edition: Literal["2024"] = EDITION
    minimum_distance_mm: float | None
    known_minimum_mm: float
    k_mm_s: int
    d_ds_mm: float
    z_mm: float
    t_ms: float
    determinable: bool = True
    undetermined_reason: str | None = None

    @property
    def known_minimum_rounded_up_mm(self) -> int:
        """What S is at least, rounded up to the next whole millimetre."""
        return rounded_up_mm(self.known_minimum_mm)


class Orthogonal2024Result(Result2024):
    """S for a detection zone approached at right angles (a light curtain)."""

    reach_through_mm: float  # D_DT
    reach_over_mm: float | None = None  # D_DO, given by the user
    reach_under_mm: float | None = None  # D_DU
    governs: Literal["reach_through", "reach_over", "reach_under"]
    reach_over_checked: bool = False
    reach_under_checked: bool = False


class Parallel2024Result(Result2024):
    """S for a detection zone parallel to the approach (a scanner's field)."""

    max_detection_capability_mm: float | None = None  # coarsest d at this height
    # The same figures by ISO 13855:2010 6.3 (C = 1200 − 0.4 H, at least 850).
    distance_2010_mm: float | None = None


# --- orthogonal ----------------------------------------------------------------


class Orthogonal2024Input(CalcInput):
    """A light curtain approached at right angles, by the 2024 model."""

    detection_capability_mm: StrictFloat = Field(
        gt=0,
        json_schema_extra={"maximum": tables.D_DT_MAX_MM},
        description=gettext_noop(
            "Detection capability d of the light curtain, in millimetres. "
            "Covered: up to 120 mm."
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
    supplement_z_mm: StrictFloat = Field(
        ge=0, le=MAX_SUPPLEMENT_MM, description=SUPPLEMENT_Z
    )
    gap_beneath_mm: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=MAX_HEIGHT_MM,
        description=gettext_noop(
            "Height H_DB of the lowest edge of the detection zone above the floor, "
            "in mm, to check reaching under it. Optional: without it, reaching "
            "under is not checked."
        ),
    )
    reach_over_mm: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=MAX_SUPPLEMENT_MM,
        description=gettext_noop(
            "D_DO, the reach-over distance from the ISO 13855:2024 table for the "
            "hazard's height and the top of the detection zone, in mm, from your "
            "copy of the standard (the app's reference data do not hold that "
            "table). Optional: without it, reaching over is not checked."
        ),
    )

    @field_validator("detection_capability_mm")
    @classmethod
    def _covered(cls, d: float) -> float:
        if d > tables.D_DT_MAX_MM:
            raise ValueError(
                gettext_noop(
                    "detection_capability_mm: above 120 mm is not covered by the "
                    "reach-through formula of the 2024 edition as the reference "
                    "gives it"
                )
            )
        return d


def iso13855_2024_orthogonal(inp: Orthogonal2024Input) -> Orthogonal2024Result:
    """S = K × T + D_DS + Z, D_DS = max(D_DT, D_DO, D_DU) (ISO 13855:2024, 6)."""
    t_ms, t_line = _time_total(inp)
    d = inp.detection_capability_mm
    z = inp.supplement_z_mm
    d_dt, s_min, k_fixed, dt_line = reach_through(d)
    steps: list[Line] = [t_line, dt_line]
    warnings: list[Line] = []
    groups: list[tables.Sourced] = [
        tables.FORMULA_2024,
        tables.K_2024_ORTHOGONAL,
        tables.D_DT_2024,
    ]
    parts: dict[str, float] = {"reach_through": d_dt}
    undetermined: str | None = None

    d_du: float | None = None
    if inp.gap_beneath_mm is None:
        warnings.append(
            line(
                gettext_noop(
                    "Reaching under the detection zone is not checked: give the "
                    "height of its lowest edge above the floor (H_DB)."
                )
            )
        )
    else:
        d_du, du_line = reach_under(d, inp.gap_beneath_mm)
        steps.append(du_line)
        groups.append(tables.D_DU_2024)
        if d_du is None:
            undetermined = gettext_noop(
                "the gap beneath the detection zone is above 300 mm: D_DU is not "
                "covered by the formula the reference gives"
            )
        else:
            parts["reach_under"] = d_du

    if inp.reach_over_mm is None:
        warnings.append(
            line(
                gettext_noop(
                    "Reaching over the detection zone is not checked: the 2024 "
                    "D_DO table is not in the app's reference data (the 2010 "
                    "Table 1 may differ). Give D_DO from your copy of the "
                    "standard."
                )
            )
        )
    else:
        parts["reach_over"] = inp.reach_over_mm
        steps.append(
            line(
                gettext_noop(
                    "Reaching over: D_DO as given from the standard's table "
                    "(entered by the user, not from the reference data)"
                ),
                f"D_DO = {num(inp.reach_over_mm)} mm",
            )
        )

    governs = max(parts, key=lambda key: parts[key])
    d_ds = parts[governs]
    steps.append(
        line(
            gettext_noop("D_DS is the largest of reaching through, over and under"),
            "D_DS = max("
            + ", ".join(
                f"{SYMBOLS[name]} {num(value)}" for name, value in parts.items()
            )
            + f") = {num(d_ds)} mm",
        )
    )
    if z:
        steps.append(
            line(
                gettext_noop("Supplement Z from the device's data sheet"),
                f"Z = {num(z)} mm",
            )
        )
    s_mm, k_mm_s, k_steps = with_speed(t_ms, d_ds, z, s_min, k_fixed)
    steps += k_steps
    warnings.append(_one_source_warning())
    result = {
        "known_minimum_mm": s_mm,
        "k_mm_s": k_mm_s,
        "d_ds_mm": d_ds,
        "z_mm": z,
        "t_ms": t_ms,
        "reach_through_mm": d_dt,
        "reach_over_mm": inp.reach_over_mm,
        "reach_under_mm": d_du,
        "governs": governs,
        "reach_over_checked": inp.reach_over_mm is not None,
        "reach_under_checked": d_du is not None,
        "clause": CLAUSE_ORTHOGONAL_2024,
        "warnings": tuple(warnings),
        "certainty": certainty_of(tuple(groups)),
        "sources": sources_of(tuple(groups)),
    }
    if undetermined is not None:
        steps.append(
            line(
                gettext_noop(
                    "S cannot be determined without D_DU: at least %(s)s mm from "
                    "the parts worked out; this needs evidence"
                ),
                s=num(s_mm),
            )
        )
        return Orthogonal2024Result(
            minimum_distance_mm=None,
            determinable=False,
            undetermined_reason=undetermined,
            steps=tuple(steps),
            **result,
        )
    return Orthogonal2024Result(
        minimum_distance_mm=s_mm, steps=(*steps, rounded_up(s_mm)), **result
    )


def _one_source_warning() -> Line:
    return line(
        gettext_noop(
            "The 2024 figures rest on secondary sources: the formula on two, K "
            "on one per case, D_DT and D_DU on one code source whose author calls "
            "them free interpretations. Check them against your copy of ISO "
            "13855:2024."
        )
    )


# --- parallel -------------------------------------------------------------------


def min_field_height(d_mm: float) -> float:
    """H_D ≥ 15 (d − 50); 0 when d ≤ 50."""
    return max(0.0, tables.PARALLEL_H_PER_MM_D * (d_mm - tables.PARALLEL_D_OFFSET_MM))


def parallel_distance(
    t_ms: float, z_mm: float, height_mm: float | None
) -> tuple[float, list[Line], list[Line]]:
    """S = 1600 × T + 1200 + Z for a horizontal detection zone at ``height_mm``
    (None: on the floor, e.g. a mat), its working and its warnings."""
    k = tables.K_WALKING_MM_S
    d_ds = tables.PARALLEL_2024_D_DS_MM
    s_mm = distance_2024(k, t_ms, d_ds, z_mm)
    steps = [
        line(
            gettext_noop(
                "Parallel approach: K = 1600 mm/s, D_DS = 1200 mm, whatever the "
                "field's height (2010: C = 1200 − 0.4 × H)"
            ),
            f"S = {k} mm/s × {num(t_ms / 1000)} s + {d_ds} mm + {num(z_mm)} mm = "
            f"{num(s_mm)} mm",
        )
    ]
    warnings = []
    if height_mm is not None and height_mm > tables.PARALLEL_2024_CRAWL_UNDER_H_MM:
        warnings.append(
            line(
                gettext_noop(
                    "The field is more than 200 mm above the floor (H_D = %(h)s mm): "
                    "a person may reach or crawl under it undetected. Assess this "
                    "risk in the risk assessment (the 2010 edition set this at "
                    "300 mm)."
                ),
                h=num(height_mm),
            )
        )
    return s_mm, steps, warnings


class Parallel2024Input(CalcInput):
    """A horizontal detection zone (a scanner's field), by the 2024 model."""

    field_height_mm: StrictFloat = Field(
        ge=0,
        json_schema_extra={"maximum": tables.PARALLEL_2024_H_MAX_MM},
        description=gettext_noop(
            "Height H_D of the detection zone above the floor, in millimetres "
            "(at most 1000 mm)."
        ),
    )
    detection_capability_mm: StrictFloat = Field(
        gt=0,
        le=MAX_HEIGHT_MM,
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
    supplement_z_mm: StrictFloat = Field(
        ge=0, le=MAX_SUPPLEMENT_MM, description=SUPPLEMENT_Z
    )

    @field_validator("field_height_mm")
    @classmethod
    def _height_covered(cls, h: float) -> float:
        if h > tables.PARALLEL_2024_H_MAX_MM:
            raise ValueError(
                gettext_noop(
                    "field_height_mm: a detection zone parallel to the approach may "
                    "be at most 1000 mm above the floor (ISO 13855:2024, 6.3)"
                )
            )
        return h

    @model_validator(mode="after")
    def _height_fits(self) -> Parallel2024Input:
        h_min = min_field_height(self.detection_capability_mm)
        if self.field_height_mm < h_min:
            raise ValueError(
                f"field_height_mm: with detection_capability_mm = "
                f"{num(self.detection_capability_mm)} the field must be at least "
                f"15 × (d − 50) = {num(h_min)} mm above the floor (ISO 13855:2024, "
                f"6.3); raise the field or use a finer device"
            )
        return self


def iso13855_2024_parallel(inp: Parallel2024Input) -> Parallel2024Result:
    """S = 1600 × T + 1200 + Z (ISO 13855:2024, 6.3)."""
    t_ms, t_line = _time_total(inp)
    h = inp.field_height_mm
    d = inp.detection_capability_mm
    d_max = h / tables.PARALLEL_H_PER_MM_D + tables.PARALLEL_D_OFFSET_MM
    s_mm, steps, warnings = parallel_distance(t_ms, inp.supplement_z_mm, h)
    # The 2010 figures beside it, by the 2010 edition's own formula.
    _, c_2010 = parallel_intrusion(h)
    s_2010, _ = distance(tables.K_WALKING_MM_S, t_ms, c_2010)
    groups = (tables.FORMULA_2024, tables.K_2024_PARALLEL, tables.PARALLEL_2024)
    steps = [
        t_line,
        line(
            gettext_noop(
                "Field height fits the detection capability: H_D ≥ 15 × (d − 50)"
            ),
            f"{num(h)} mm ≥ 15 × ({num(d)} − 50) = {num(min_field_height(d))} mm",
        ),
        *steps,
        line(
            gettext_noop(
                "For comparison, ISO 13855:2010, 6.3: C = 1200 − 0.4 × H, not "
                "below 850, no Z"
            ),
            f"S_2010 = 1600 mm/s × {num(t_ms / 1000)} s + {num(c_2010)} mm = "
            f"{num(s_2010)} mm",
        ),
        rounded_up(s_mm),
    ]
    warnings.append(
        line(
            gettext_noop(
                "The 2024 parallel-approach rule rests on one public source (the "
                "2024 text as gt-engineering reproduces it). Check it against your "
                "copy of ISO 13855:2024."
            )
        )
    )
    return Parallel2024Result(
        minimum_distance_mm=s_mm,
        known_minimum_mm=s_mm,
        k_mm_s=tables.K_WALKING_MM_S,
        d_ds_mm=float(tables.PARALLEL_2024_D_DS_MM),
        z_mm=inp.supplement_z_mm,
        t_ms=t_ms,
        max_detection_capability_mm=d_max,
        distance_2010_mm=s_2010,
        clause=CLAUSE_PARALLEL_2024,
        steps=tuple(steps),
        warnings=tuple(warnings),
        certainty=certainty_of(groups),
        sources=sources_of(groups),
    )


# --- for the rule packs: a summed T -------------------------------------------------


class Summed2024Input(CalcInput):
    """A device with T already summed, for the rule packs: a light curtain
    (orthogonal) or a horizontal zone (a scanner's field, or a mat at
    ``field_height_mm`` 0 with no detection capability)."""

    approach: Literal["orthogonal", "parallel"]
    overall_stopping_time_ms: StrictFloat = Field(ge=MIN_TIME_MS, le=4 * MAX_TIME_MS)
    supplement_z_mm: StrictFloat = Field(ge=0, le=MAX_SUPPLEMENT_MM)
    detection_capability_mm: StrictFloat | None = Field(default=None, gt=0)
    gap_beneath_mm: StrictFloat | None = Field(default=None, ge=0, le=MAX_HEIGHT_MM)
    reach_over_mm: StrictFloat | None = Field(default=None, ge=0, le=MAX_SUPPLEMENT_MM)
    field_height_mm: StrictFloat | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _complete(self) -> Summed2024Input:
        if self.approach == "orthogonal":
            if self.detection_capability_mm is None:
                raise ValueError(
                    "detection_capability_mm: a light curtain needs its detection "
                    "capability"
                )
            if self.detection_capability_mm > tables.D_DT_MAX_MM:
                raise ValueError(
                    "detection_capability_mm: above 120 mm is not covered by the "
                    "2024 reach-through formula as the reference gives it"
                )
        else:
            h = self.field_height_mm or 0.0
            if h > tables.PARALLEL_2024_H_MAX_MM:
                raise ValueError(
                    "field_height_mm: a horizontal detection zone may be at most "
                    "1000 mm above the floor (ISO 13855:2024, 6.3)"
                )
            d = self.detection_capability_mm
            if d is not None and h < min_field_height(d):
                raise ValueError(
                    f"field_height_mm: with a detection capability of {num(d)} mm "
                    f"the field must be at least {num(min_field_height(d))} mm "
                    f"above the floor (ISO 13855:2024, 6.3)"
                )
        return self


class _Summed:
    """T given as a whole: what ``overall_time`` reads."""

    def __init__(self, t_ms: float) -> None:
        self.response_time_ms = t_ms
        self.controller_time_ms = 0.0
        self.stopping_time_ms = 0.0
        self.allowance_ms = 0.0


def iso13855_2024_summed(inp: Summed2024Input) -> Result2024:
    """The 2024 distance of a device whose T is already summed (rule packs)."""
    if inp.approach == "orthogonal":
        assert inp.detection_capability_mm is not None  # the validator's promise
        return iso13855_2024_orthogonal(
            Orthogonal2024Input.model_construct(
                detection_capability_mm=inp.detection_capability_mm,
                response_time_ms=inp.overall_stopping_time_ms,
                controller_time_ms=0.0,
                stopping_time_ms=0.0,
                allowance_ms=0.0,
                supplement_z_mm=inp.supplement_z_mm,
                gap_beneath_mm=inp.gap_beneath_mm,
                reach_over_mm=inp.reach_over_mm,
            )
        )
    t_ms = inp.overall_stopping_time_ms
    h = inp.field_height_mm
    s_mm, steps, warnings = parallel_distance(t_ms, inp.supplement_z_mm, h)
    groups = (tables.FORMULA_2024, tables.K_2024_PARALLEL, tables.PARALLEL_2024)
    return Result2024(
        minimum_distance_mm=s_mm,
        known_minimum_mm=s_mm,
        k_mm_s=tables.K_WALKING_MM_S,
        d_ds_mm=float(tables.PARALLEL_2024_D_DS_MM),
        z_mm=inp.supplement_z_mm,
        t_ms=t_ms,
        clause=CLAUSE_PARALLEL_2024,
        steps=(
            line(
                gettext_noop("Overall stopping performance T"),
                f"T = {num(t_ms)} ms = {num(t_ms / 1000)} s",
            ),
            *steps,
            rounded_up(s_mm),
        ),
        warnings=tuple(warnings),
        certainty=certainty_of(groups),
        sources=sources_of(groups),
    )


CALCULATORS: list[Calculator] = [
    Calculator(
        name="iso13855-2024-orthogonal",
        title=gettext_noop("Light curtain minimum distance (ISO 13855:2024)"),
        summary=gettext_noop(
            "The 2024 model for a light curtain approached head-on: S = K × T + "
            "D_DS + Z, with D_DS the largest of reaching through, over and under "
            "the detection zone and Z the device's supplement."
        ),
        standard=STANDARD_2024,
        input_model=Orthogonal2024Input,
        result_model=Orthogonal2024Result,
        run=iso13855_2024_orthogonal,
        headline=(
            "minimum_distance_mm",
            "governs",
            "reach_through_mm",
            "reach_under_mm",
            "reach_over_mm",
            "k_mm_s",
            "z_mm",
            "t_ms",
        ),
        # SICK C4000 (iso13855.json worked_examples): d = 14 mm, T = 0.32 s; by
        # 2024 D_DT = 0, so with Z = 0 S is the 2010 result, 512 mm.
        example={
            "detection_capability_mm": 14,
            "response_time_ms": 20,
            "stopping_time_ms": 300,
            "supplement_z_mm": 0,
        },
    ),
    Calculator(
        name="iso13855-2024-parallel",
        title=gettext_noop(
            "Horizontal field minimum distance, parallel approach (ISO 13855:2024)"
        ),
        summary=gettext_noop(
            "The 2024 model for a horizontal detection zone such as a safety "
            "laser scanner's field: S = 1600 × T + 1200 + Z, whatever the "
            "field's height; the 2010 result beside it."
        ),
        standard=STANDARD_2024,
        input_model=Parallel2024Input,
        result_model=Parallel2024Result,
        run=iso13855_2024_parallel,
        headline=(
            "minimum_distance_mm",
            "distance_2010_mm",
            "d_ds_mm",
            "z_mm",
            "t_ms",
        ),
        # The 2010 calculator's example (H = 300 mm, d = 70 mm, T = 0.48 s) with
        # Leuze's Z_SM = 100 mm: S = 768 + 1200 + 100 = 2068 mm (2010: 1848 mm).
        example={
            "field_height_mm": 300,
            "detection_capability_mm": 70,
            "response_time_ms": 80,
            "stopping_time_ms": 400,
            "supplement_z_mm": 100,
        },
    ),
]
