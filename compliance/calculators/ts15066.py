"""ISO/TS 15066:2016 Robots and robotic devices — Collaborative robots.

- ``ts15066-pfl``: power and force limiting, Annex A, for one possible contact
  (body region, transient or quasi-static, contact area): the permissible speed
  is the lowest of the force, pressure and energy routes; quasi-static contact
  gives only the limits to measure. The calculation is in ``ts15066_contact``
  and re-exported here.
- ``ts15066-ssm``: speed and separation monitoring, 5.5.4: the protective
  separation distance S_p = S_h + S_r + S_s + C + Z_d + Z_r in its constant-speed
  form, S_h = v_h·(T_r + T_s), S_r = v_r·T_r. The intrusion distance C of a
  horizontal protective field at height H is C = 1200 − 0.4·H, not below
  850 mm, H at most 1000 mm (ISO 13855:2010, 6.3). A term left at zero is named
  in ``unverified_terms`` and S_p is then not ``complete``.

Figures and formulas are from the reference data ``ts15066_body_regions.json``
and, for C, ``iso13855.json`` "parallel_approach" (both copied into
``ts15066_tables``). Speeds are in mm/s, times in ms, distances in mm.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictFloat

from compliance.calculators.base import (
    CalcInput,
    CalcResult,
    Calculator,
    Certainty,
    Line,
    gettext_noop,
)
from compliance.calculators.ts15066_contact import (
    MEASUREMENT_METHOD,
    PFL_CLAUSE,
    PflContactInput,
    PflInput,
    PflResult,
    _line,
    _num,
    _unique,
    body_region_table,
    pfl_contact,
    ts15066_pfl,
)
from compliance.calculators.ts15066_tables import (
    HORIZONTAL_C_BASE_MM,
    HORIZONTAL_C_MIN_MM,
    HORIZONTAL_C_PER_MM_H,
    HORIZONTAL_CRAWL_UNDER_H_MM,
    HORIZONTAL_D_OFFSET_MM,
    HORIZONTAL_FIELD_CERTAINTY,
    HORIZONTAL_FIELD_CLAUSE,
    HORIZONTAL_FIELD_SOURCES,
    HORIZONTAL_H_MAX_MM,
    HORIZONTAL_H_PER_MM_D,
    SSM_FORMULA_SOURCES,
    BodyArea,
    BodyRegion,
    BodyRegionRow,
)

__all__ = [
    "CALCULATORS",
    "DEFAULT_HUMAN_SPEED_MM_S",
    "MEASUREMENT_METHOD",
    "PFL_CLAUSE",
    "SSM_CLAUSE",
    "BodyArea",
    "BodyRegion",
    "BodyRegionRow",
    "PflContactInput",
    "PflInput",
    "PflResult",
    "SsmInput",
    "SsmResult",
    "body_region_table",
    "pfl_contact",
    "ts15066_pfl",
    "ts15066_ssm",
]

SSM_CLAUSE = (
    "ISO/TS 15066:2016, 5.5.4 (speed and separation monitoring: protective "
    "separation distance, constant-speed form)"
)

# The reference's default human approach speed ("default_v_h": 1600 mm/s).
DEFAULT_HUMAN_SPEED_MM_S = 1600

# Input bounds, not figures from a standard: they keep S_p finite and catch
# slips, with the API answering 400 naming the field.
# - v_h ≥ 100 mm/s: slower is no walking or reaching person, most likely m/s
#   typed as mm/s (1.6 for 1600), which would shrink S_h a thousandfold.
# - H ≤ 1000 mm: ISO 13855 "parallel_approach" H_max_mm; above it the
#   horizontal-zone C does not apply.
# - The other ceilings are those the calculator always had.
HUMAN_SPEED_MIN_MM_S = 100

C_BASIS = Literal["entered", "detection_height", "missing"]


class SsmInput(CalcInput):
    """Speeds, times and allowances for the protective separation distance.

    A distance left out (None) or at 0 is taken as 0 in S_p and named in the
    result's ``unverified_terms``: it is never silently complete.
    """

    human_speed_mm_s: StrictFloat = Field(
        default=DEFAULT_HUMAN_SPEED_MM_S,
        ge=HUMAN_SPEED_MIN_MM_S,
        le=5000,
        description=gettext_noop(
            "v_h: speed of the person approaching the robot, in mm/s (1600 mm/s "
            "unless the risk assessment justifies another value; 100 to 5000)."
        ),
    )
    robot_speed_mm_s: StrictFloat = Field(
        ge=0,
        le=20000,
        description=gettext_noop(
            "v_r: speed of the robot towards the person, in mm/s (0 to 20000)."
        ),
    )
    reaction_time_ms: StrictFloat = Field(
        ge=0,
        le=10000,
        description=gettext_noop(
            "T_r: time from the person's detection to the start of the robot's "
            "stop (sensor, controller), in ms (0 to 10000)."
        ),
    )
    stopping_time_ms: StrictFloat = Field(
        ge=0,
        le=10000,
        description=gettext_noop(
            "T_s: time the robot takes to stop once stopping starts, in ms "
            "(0 to 10000)."
        ),
    )
    stopping_distance_mm: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=10000,
        description=gettext_noop(
            "S_s: distance the robot travels while stopping, in mm (from the "
            "robot's stopping data for this speed and payload; 0 to 10000)."
        ),
    )
    detection_height_mm: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=HORIZONTAL_H_MAX_MM,
        description=gettext_noop(
            "H: height of the scanner's horizontal protective field above the "
            "floor, in mm (0 to 1000). Gives the intrusion distance "
            "C = 1200 − 0.4 × H, not below 850 mm (ISO 13855:2010, 6.3)."
        ),
    )
    intrusion_mm: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=2000,
        description=gettext_noop(
            "C: intrusion distance, how far a body part can reach past the "
            "detection zone before it is detected, in mm (0 to 2000). With a "
            "detection height too, the larger C is used."
        ),
    )
    human_uncertainty_mm: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=2000,
        description=gettext_noop(
            "Z_d: sensor uncertainty in the person's position, in mm (0 to 2000)."
        ),
    )
    robot_uncertainty_mm: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=2000,
        description=gettext_noop(
            "Z_r: uncertainty in the robot's measured position, in mm (0 to 2000)."
        ),
    )


class SsmResult(CalcResult):
    """The protective separation distance S_p and each of its terms."""

    separation_distance_mm: float
    complete: bool  # False: some term was left at 0, see unverified_terms
    unverified_terms: tuple[str, ...]  # e.g. ("C", "Z_d", "Z_r"), each left at 0
    sh_mm: float
    sr_mm: float
    ss_mm: float
    c_mm: float
    c_basis: C_BASIS  # entered, from the detection height, or missing (0)
    c_from_height_mm: float | None  # ISO 13855 C for the detection height
    zd_mm: float
    zr_mm: float
    # One line per unverified term (also in warnings).
    evidence_required: tuple[Line, ...] = ()


_UNVERIFIED = {
    "S_s": gettext_noop(
        "Needs evidence: no stopping distance S_s is given; use the robot's "
        "stopping distance for this speed and payload."
    ),
    "C": gettext_noop(
        "Needs evidence: the intrusion distance C is not given and there is no "
        "detection height H to compute it from (ISO 13855:2010, 6.3: "
        "C = 1200 − 0.4 × H for a horizontal field)."
    ),
    "Z_d": gettext_noop(
        "Needs evidence: the position uncertainty of the person Z_d is not given "
        "(the sensor's measurement tolerance)."
    ),
    "Z_r": gettext_noop(
        "Needs evidence: the position uncertainty of the robot Z_r is not given "
        "(the tolerance of its measured position)."
    ),
    "T_r": gettext_noop(
        "Needs evidence: the reaction time T_r is 0 ms; use the sensor's "
        "response time plus the controller's."
    ),
    "T_s": gettext_noop(
        "Needs evidence: the stopping time T_s is 0 ms; use the robot's stopping "
        "time for this speed and payload."
    ),
}
_UNVERIFIED_ZERO = {
    "S_s": gettext_noop(
        "Needs evidence: the stopping distance is 0 mm although the robot moves: "
        "use the robot's stopping distance for this speed and payload."
    ),
    "C": gettext_noop(
        "Needs evidence: the intrusion distance C is 0 mm; give it, or the "
        "detection height H of a horizontal field to compute it from "
        "(ISO 13855:2010, 6.3)."
    ),
    "Z_d": gettext_noop(
        "Needs evidence: the position uncertainty of the person Z_d is 0 mm; no "
        "sensor measures without tolerance."
    ),
    "Z_r": gettext_noop(
        "Needs evidence: the position uncertainty of the robot Z_r is 0 mm; no "
        "robot measures its position without tolerance."
    ),
}


def _intrusion(inp: SsmInput) -> tuple[float, C_BASIS, float | None, list[Line]]:
    """C (mm), where it came from, the ISO 13855 C for H, and the steps."""
    steps: list[Line] = []
    c_height = None
    if inp.detection_height_mm is not None:
        h = inp.detection_height_mm
        c_raw = HORIZONTAL_C_BASE_MM - HORIZONTAL_C_PER_MM_H * h
        c_height = max(c_raw, float(HORIZONTAL_C_MIN_MM))
        steps.append(
            _line(
                gettext_noop(
                    "Intrusion distance of a horizontal protective field at height "
                    "H (ISO 13855:2010, 6.3): C = 1200 − 0.4 × H, not below 850 mm"
                ),
                f"C = 1200 − 0.4 × {_num(h)} mm = {_num(c_raw)} mm → "
                f"C = max({_num(c_raw)}, 850) = {_num(c_height)} mm",
            )
        )
    entered = inp.intrusion_mm
    if c_height is not None and (entered is None or c_height >= entered):
        if entered is not None:
            steps.append(
                _line(
                    gettext_noop(
                        "The intrusion distance entered is not larger than the "
                        "one for the detection height: the larger governs"
                    ),
                    f"C = max({_num(entered)}, {_num(c_height)}) = {_num(c_height)} mm",
                )
            )
        return c_height, "detection_height", c_height, steps
    if entered is not None:
        if c_height is not None:
            steps.append(
                _line(
                    gettext_noop(
                        "The intrusion distance entered is larger than the one for "
                        "the detection height: the larger governs"
                    ),
                    f"C = max({_num(entered)}, {_num(c_height)}) = {_num(entered)} mm",
                )
            )
        return entered, "entered", c_height, steps
    return 0.0, "missing", None, steps


def ts15066_ssm(inp: SsmInput) -> SsmResult:
    """Protective separation distance, constant-speed form (ISO/TS 15066 5.5.4)."""
    v_h, v_r = inp.human_speed_mm_s, inp.robot_speed_mm_s
    t_r, t_s = inp.reaction_time_ms / 1000, inp.stopping_time_ms / 1000
    s_h = v_h * (t_r + t_s)
    s_r = v_r * t_r
    c, c_basis, c_height, c_steps = _intrusion(inp)
    s_s = inp.stopping_distance_mm or 0.0
    z_d = inp.human_uncertainty_mm or 0.0
    z_r = inp.robot_uncertainty_mm or 0.0
    s_p = s_h + s_r + s_s + c + z_d + z_r

    # Every term left at zero is named; a stationary robot (v_r = 0) has no
    # stopping distance, so S_s = 0 is then a figure, not a gap.
    given = {
        "S_s": inp.stopping_distance_mm,
        "C": None if c_basis == "missing" else c,
        "Z_d": inp.human_uncertainty_mm,
        "Z_r": inp.robot_uncertainty_mm,
    }
    unverified: list[str] = []
    evidence: list[Line] = []
    for term, value in given.items():
        if value is None or (value == 0 and not (term == "S_s" and v_r == 0)):
            unverified.append(term)
            texts = _UNVERIFIED if value is None else _UNVERIFIED_ZERO
            evidence.append(_line(texts[term]))
    for term, value in (("T_r", t_r), ("T_s", t_s)):
        if value == 0:
            unverified.append(term)
            evidence.append(_line(_UNVERIFIED[term]))

    total_text, total_values = gettext_noop("Protective separation distance"), {}
    if unverified:
        total_text = gettext_noop(
            "Protective separation distance, not complete: %(terms)s left at 0"
        )
        total_values = {"terms": ", ".join(unverified)}
    steps = (
        _line(
            gettext_noop("Times converted to seconds"),
            f"T_r = {_num(inp.reaction_time_ms)} ms / 1,000 = {_num(t_r, 6)} s; "
            f"T_s = {_num(inp.stopping_time_ms)} ms / 1,000 = {_num(t_s, 6)} s",
        ),
        _line(
            gettext_noop(
                "Constant-speed form: the person and the robot are taken to move at "
                "constant speed during the reaction and stopping times"
            )
        ),
        _line(
            gettext_noop(
                "Distance the person covers during the reaction and stopping time"
            ),
            f"S_h = v_h × (T_r + T_s) = {_num(v_h)} mm/s × ({_num(t_r, 6)} s + "
            f"{_num(t_s, 6)} s) = {_num(s_h)} mm",
        ),
        _line(
            gettext_noop("Distance the robot covers during the reaction time"),
            f"S_r = v_r × T_r = {_num(v_r)} mm/s × {_num(t_r, 6)} s = {_num(s_r)} mm",
        ),
        _line(
            gettext_noop("Robot stopping distance (from the stopping data)"),
            f"S_s = {_num(s_s)} mm",
        ),
        *c_steps,
        _line(
            gettext_noop("Intrusion distance and position uncertainties"),
            f"C = {_num(c)} mm; Z_d = {_num(z_d)} mm; Z_r = {_num(z_r)} mm",
        ),
        _line(
            total_text,
            f"S_p = S_h + S_r + S_s + C + Z_d + Z_r = {_num(s_h)} + {_num(s_r)} + "
            f"{_num(s_s)} + {_num(c)} + {_num(z_d)} + {_num(z_r)} = {_num(s_p)} mm",
            **total_values,
        ),
    )
    warnings: list[Line] = []
    if v_h < DEFAULT_HUMAN_SPEED_MM_S:
        warnings.append(
            _line(
                gettext_noop(
                    "The human speed %(v_h)s mm/s is below the usual 1600 mm/s; "
                    "justify the lower value in the risk assessment."
                ),
                v_h=_num(v_h),
            )
        )
    clause, sources, certainty = SSM_CLAUSE, SSM_FORMULA_SOURCES, Certainty.TWO_SOURCES
    if inp.detection_height_mm is not None:
        warnings += _height_warnings(inp.detection_height_mm)
        clause = f"{SSM_CLAUSE}; C: {HORIZONTAL_FIELD_CLAUSE}"
        sources = _unique(SSM_FORMULA_SOURCES, HORIZONTAL_FIELD_SOURCES)
        if HORIZONTAL_FIELD_CERTAINTY is Certainty.ONE_SOURCE:
            certainty = Certainty.ONE_SOURCE
    return SsmResult(
        clause=clause,
        steps=steps,
        warnings=(*warnings, *evidence),
        certainty=certainty,
        sources=sources,
        separation_distance_mm=s_p,
        complete=not unverified,
        unverified_terms=tuple(unverified),
        sh_mm=s_h,
        sr_mm=s_r,
        ss_mm=s_s,
        c_mm=c,
        c_basis=c_basis,
        c_from_height_mm=c_height,
        zd_mm=z_d,
        zr_mm=z_r,
        evidence_required=tuple(evidence),
    )


def _height_warnings(h: float) -> list[Line]:
    """What the ISO 13855 horizontal-field C assumes about the scanner."""
    d_max = h / HORIZONTAL_H_PER_MM_D + HORIZONTAL_D_OFFSET_MM
    warnings = [
        _line(
            gettext_noop(
                "C = 1200 − 0.4 × H holds only if the scanner detects at that "
                "height: its detection capability must be d ≤ H / 15 + 50 = "
                "%(d_max)s mm (ISO 13855:2010, 6.3); check its data sheet."
            ),
            d_max=_num(d_max),
        )
    ]
    if h > HORIZONTAL_CRAWL_UNDER_H_MM:
        warnings.append(
            _line(
                gettext_noop(
                    "The field is more than 300 mm above the floor (H = %(h)s mm): "
                    "a person may crawl under it undetected. Assess this risk in "
                    "the risk assessment."
                ),
                h=_num(h),
            )
        )
    return warnings


# Readable names for the body model's ids, for pickers.
CHOICE_LABELS = {
    "transient": gettext_noop("Transient (impact, the person can recoil)"),
    "quasi_static": gettext_noop("Quasi-static (clamping or crushing)"),
    "energy": gettext_noop("energy (Table A.4)"),
    **{row.region_id: row.name for row in body_region_table()},
    **{
        str(area.area_id): area.name
        for row in body_region_table()
        for area in row.areas
    },
}

SSM_CHOICE_LABELS = {
    "entered": gettext_noop("entered"),
    "detection_height": gettext_noop("from the detection height (ISO 13855)"),
    "missing": gettext_noop("not given (0)"),
}

CALCULATORS: list[Calculator] = [
    Calculator(
        name="ts15066-pfl",
        title=gettext_noop("Power and force limiting: maximum permissible speed"),
        summary=gettext_noop(
            "Maximum relative speed at which the robot of a collaborative "
            "application may touch a body region in a transient (impact) "
            "contact: the lowest of the speeds the "
            "ISO/TS 15066 force, pressure and energy limits allow. Quasi-static "
            "(clamping) contact gives no speed, only the limits to measure."
        ),
        standard="ISO/TS 15066:2016",
        input_model=PflInput,
        result_model=PflResult,
        run=ts15066_pfl,
        headline=(
            "max_speed_mm_s",
            "governing_limit",
            "force_limit_n",
            "pressure_limit_n_cm2",
        ),
        choice_labels=CHOICE_LABELS,
        # Reference computed check value "hands_fingers" (M 20 kg, m_L 1 kg).
        example={
            "body_region": "hands_fingers",
            "robot_moving_mass_kg": 20.0,
            "payload_kg": 1.0,
            "contact": "transient",
        },
    ),
    Calculator(
        name="ts15066-ssm",
        title=gettext_noop("Speed and separation monitoring: separation distance"),
        summary=gettext_noop(
            "Protective separation distance a robot must keep from a person so it "
            "can stop before contact (ISO/TS 15066 speed and separation monitoring)."
        ),
        standard="ISO/TS 15066:2016",
        input_model=SsmInput,
        result_model=SsmResult,
        run=ts15066_ssm,
        headline=("separation_distance_mm", "complete", "unverified_terms"),
        choice_labels=SSM_CHOICE_LABELS,
        # The review's example: today's inputs (S_p = 890 mm without C) with the
        # scanner field at H = 300 mm, so C = 1200 − 0.4 × 300 = 1080 mm and
        # S_p = 1970 mm; Z_d and Z_r stay unverified.
        example={
            "human_speed_mm_s": 1600,
            "robot_speed_mm_s": 1000,
            "reaction_time_ms": 100,
            "stopping_time_ms": 300,
            "stopping_distance_mm": 150,
            "detection_height_mm": 300,
        },
    ),
]
