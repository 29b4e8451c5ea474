"""ISO/TS 15066:2016 Robots and robotic devices — Collaborative robots.

- ``ts15066-pfl``: power and force limiting, Annex A: the body model (Table A.2
  force and pressure limits, Table A.3 effective spring constant k and effective
  body mass m_H), the transient factor of 2 (Table A.2 footnote c, not for the
  skull, forehead and face), and the energy-transfer formulas giving the maximum
  permissible relative speed v = F / √(μ·k), with m_R = M/2 + m_L and
  μ = (1/m_H + 1/m_R)⁻¹, and the energy E = F²/(2k) (Table A.4).
- ``ts15066-ssm``: speed and separation monitoring, 5.5.4: the protective
  separation distance S_p = S_h + S_r + S_s + C + Z_d + Z_r in its constant-speed
  form, S_h = v_h·(T_r + T_s), S_r = v_r·T_r.

Figures and formulas are from /work/shared/reference/ts15066_body_regions.json
(see ts15066_tables.py). Speeds are in mm/s at the interface; the formulas are
worked in SI (k in N/m, v in m/s) and converted in the steps.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field, model_validator

from compliance.calculators.base import (
    CalcInput,
    CalcResult,
    Calculator,
    Certainty,
    Line,
    fmt,
    gettext_noop,
)
from compliance.calculators.ts15066_tables import (
    BODY_MODEL_SOURCES,
    BODY_REGIONS,
    PFL_FORMULA_SOURCES,
    PRESSURE_PROBE_SIDE_CM,
    REGIONS_BY_ID,
    SSM_FORMULA_SOURCES,
    TABLE_A4_ENERGY_READ_J,
    TABLE_A4_SOURCES,
    TRANSIENT_MULTIPLIER,
    TRANSIENT_MULTIPLIER_SOURCES,
    BodyArea,
    BodyAreaRow,
    BodyRegion,
    BodyRegionRow,
)

PFL_CLAUSE = (
    "ISO/TS 15066:2016, Annex A (Table A.2 limits, Table A.3 k and m_H, "
    "Table A.4 energy; maximum relative speed v = F/√(μk))"
)
SSM_CLAUSE = (
    "ISO/TS 15066:2016, 5.5.4 (speed and separation monitoring: protective "
    "separation distance, constant-speed form)"
)

# The reference's default human approach speed ("default_v_h": 1600 mm/s).
DEFAULT_HUMAN_SPEED_MM_S = 1600


def body_region_table() -> tuple[BodyRegionRow, ...]:
    """The Annex A body model, one frozen row per region (built once at import)."""
    return BODY_REGIONS


def _num(value: float, digits: int = 3) -> str:
    """An input figure as typed: up to ``digits`` decimals, no trailing zeros."""
    text = fmt(value, digits)
    return text.rstrip("0").rstrip(".") if "." in text else text


def _unique(*groups: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s for group in groups for s in group))


# --------------------------------------------------------------------------
# Power and force limiting (Annex A)
# --------------------------------------------------------------------------


class PflInput(CalcInput):
    """A possible contact between the robot and one body region."""

    body_region: BodyRegion = Field(
        description=gettext_noop(
            "The body region the robot could touch (ISO/TS 15066 Annex A body model)."
        )
    )
    robot_moving_mass_kg: float = Field(
        gt=0,
        le=2000,
        description=gettext_noop("M: total mass of the robot's moving parts, in kg."),
    )
    payload_kg: float = Field(
        ge=0,
        le=1000,
        description=gettext_noop("m_L: payload including tool and workpiece, in kg."),
    )
    contact: Literal["transient", "quasi_static"] = Field(
        description=gettext_noop(
            "Transient: a free impact the person can recoil from. Quasi-static: "
            "clamping or crushing, the person cannot move away."
        )
    )
    contact_area_cm2: float | None = Field(
        default=None,
        gt=0,
        le=1000,
        description=gettext_noop(
            "Contact area of the robot part that would touch, in cm². Optional: "
            "when given, the speed from the pressure limit is also computed."
        ),
    )
    area: BodyArea | None = Field(
        default=None,
        description=gettext_noop(
            "A specific body area within the region (e.g. the palm of the "
            "dominant hand). Optional: without it the lowest pressure limit of "
            "the region is used."
        ),
    )

    @model_validator(mode="after")
    def _area_belongs_to_region(self) -> PflInput:
        if self.area is not None:
            allowed = [a.area_id.value for a in REGIONS_BY_ID[self.body_region].areas]
            if self.area.value not in allowed:
                raise ValueError(
                    f"area: '{self.area.value}' is not an area of body_region "
                    f"'{self.body_region.value}'; choose one of {', '.join(allowed)}."
                )
        return self


class PflResult(CalcResult):
    """Limits and the maximum permissible relative speed for one body region."""

    body_region: BodyRegion
    contact: Literal["transient", "quasi_static"]
    max_speed_mm_s: float | None  # None: see max_speed_reason
    max_speed_reason: str | None  # English, marked with gettext_noop
    speed_from_force_mm_s: float | None
    speed_from_pressure_mm_s: float | None  # only with a contact area
    governing_limit: Literal["force", "pressure"] | None
    force_limit_n: float | None
    pressure_limit_n_cm2: float | None
    pressure_area: BodyArea  # the area whose pressure limit is reported
    pressure_area_name: str  # English, marked with gettext_noop
    robot_effective_mass_kg: float
    body_effective_mass_kg: float
    reduced_mass_kg: float
    spring_constant_n_mm: float
    max_energy_j: float | None
    table_a4_energy_j: float | None  # Table A.4 value where the reference read one


def _pressure_area(
    region: BodyRegionRow, area: BodyArea | None
) -> tuple[BodyAreaRow, list[BodyAreaRow]]:
    """The chosen area, or the region's lowest quasi-static pressure (and ties)."""
    if area is not None:
        row = next(a for a in region.areas if a.area_id == area)
        return row, [row]
    lowest = min(a.pressure_quasi_static_n_cm2 for a in region.areas)
    tied = [a for a in region.areas if a.pressure_quasi_static_n_cm2 == lowest]
    return tied[0], tied


def _line(text: str, formula: str = "", **values: str | int | float) -> Line:
    """One step or warning; ``text`` is already marked with gettext_noop."""
    return Line(text=text, formula=formula, values=values)


def ts15066_pfl(inp: PflInput) -> PflResult:
    """Maximum permissible relative speed for a contact (ISO/TS 15066 Annex A)."""
    region = REGIONS_BY_ID[inp.body_region]
    transient = inp.contact == "transient"
    steps: list[Line] = []
    warnings: list[Line] = []
    certainty = region.certainty

    # Masses and stiffness (formulas: m_R, μ; Table A.3: m_H, k).
    big_m, m_l = inp.robot_moving_mass_kg, inp.payload_kg
    m_r = big_m / 2 + m_l
    m_h = region.body_effective_mass_kg
    mu = 1 / (1 / m_h + 1 / m_r)
    k_n_mm = region.spring_constant_n_mm
    k_n_m = k_n_mm * 1000
    steps += [
        _line(
            gettext_noop("Effective mass of the robot, m_R = M/2 + m_L"),
            f"m_R = {_num(big_m)} kg / 2 + {_num(m_l)} kg = {_num(m_r, 4)} kg",
        ),
        _line(
            gettext_noop("Effective body mass, %(region)s (Table A.3)"),
            f"m_H = {_num(m_h)} kg",
            region=region.name,
        ),
        _line(
            gettext_noop("Reduced mass of the two-body system"),
            f"μ = (1/m_H + 1/m_R)⁻¹ = (1/{_num(m_h)} kg + 1/{_num(m_r, 4)} kg)⁻¹ "
            f"= {fmt(mu, 4)} kg",
        ),
        _line(
            gettext_noop("Effective spring constant, %(region)s (Table A.3), in N/m"),
            f"k = {fmt(k_n_mm)} N/mm × 1,000 = {fmt(k_n_m)} N/m",
            region=region.name,
        ),
    ]

    # Limits (Table A.2): the force of the region, the pressure of one area.
    area_row, tied = _pressure_area(region, inp.area)
    if inp.area is None:
        steps.append(
            _line(
                gettext_noop(
                    "No body area chosen: the lowest pressure limit of the region "
                    "governs, at %(areas)s"
                ),
                areas=", ".join(a.name for a in tied),
            )
        )
    if area_row.certainty is Certainty.ONE_SOURCE:
        certainty = Certainty.ONE_SOURCE
        warnings.append(
            _line(
                gettext_noop(
                    "The pressure limit for %(area)s rests on one source (Table A.2 "
                    "non-dominant hand values, read in one public note only); "
                    "confirm it against the licensed standard."
                ),
                area=area_row.name,
            )
        )
    f_qs = region.force_quasi_static_n
    p_qs = area_row.pressure_quasi_static_n_cm2
    steps.append(
        _line(
            gettext_noop("Quasi-static limits (Table A.2), %(area)s"),
            f"F_QS = {fmt(f_qs)} N; p_QS = {fmt(p_qs)} N/cm²",
            area=area_row.name,
        )
    )

    force: float | None
    pressure: float | None
    reason: str | None = None
    if transient:
        force, pressure = region.force_transient_n, area_row.pressure_transient_n_cm2
        if region.transient_permitted and force is not None and pressure is not None:
            steps.append(
                _line(
                    gettext_noop(
                        "Transient limits: up to twice the quasi-static values "
                        "(Table A.2, footnote c)"
                    ),
                    f"F_T = {TRANSIENT_MULTIPLIER} × {fmt(f_qs)} N = {fmt(force)} N; "
                    f"p_T = {TRANSIENT_MULTIPLIER} × {fmt(p_qs)} N/cm² = "
                    f"{fmt(pressure)} N/cm²",
                )
            )
        else:
            force = pressure = None
            reason = gettext_noop(
                "No transient contact is permitted with the skull, forehead or face: "
                "the factor of 2 for transient contact does not apply there "
                "(Table A.2, footnote c) and no transient limit exists."
            )
    else:
        force, pressure = f_qs, p_qs
        steps.append(
            _line(
                gettext_noop(
                    "Quasi-static contact (clamping): the person cannot move away, so "
                    "the limits above bound the clamping force itself, which the "
                    "robot's force limiting must keep below them. The speed below is "
                    "the relative speed whose energy equals F_QS²/(2k), as the "
                    "Annex A formulas give; it does not replace measuring the "
                    "clamping force and pressure"
                )
            )
        )
        if not region.transient_permitted:
            reason = gettext_noop(
                "Contact with the face, skull and forehead is not permissible "
                "(ISO/TS 15066 A.3.2 as reported by the reference): no speed is "
                "given; the quasi-static limits are shown for information only."
            )
    if not region.transient_permitted:
        warnings.append(
            _line(
                gettext_noop(
                    "Contact with this body region (%(region)s) is not permissible "
                    "and no transient contact is permitted there: design the cell so "
                    "that it cannot happen."
                ),
                region=region.name,
            )
        )

    # Speeds: v = F / √(μ·k), and p·A / √(μ·k) with a contact area; the lower wins.
    v_force_mm_s = v_pressure_mm_s = max_speed = energy = None
    governing: Literal["force", "pressure"] | None = None
    if reason is None and force is not None and pressure is not None:
        root = math.sqrt(mu * k_n_m)
        v_f = force / root
        v_force_mm_s = v_f * 1000
        steps.append(
            _line(
                gettext_noop("Maximum relative speed from the force limit"),
                f"v_F = {'F_T' if transient else 'F_QS'} / √(μ·k) = {fmt(force)} N / "
                f"√({fmt(mu, 4)} kg × {fmt(k_n_m)} N/m) = {fmt(v_f, 4)} m/s "
                f"= {fmt(v_force_mm_s, 1)} mm/s",
            )
        )
        governing, max_speed, f_gov = "force", v_force_mm_s, force
        if inp.contact_area_cm2 is not None:
            area_cm2 = inp.contact_area_cm2
            f_p = pressure * area_cm2
            v_p = f_p / root
            v_pressure_mm_s = v_p * 1000
            steps.append(
                _line(
                    gettext_noop(
                        "Maximum relative speed from the pressure limit over the "
                        "contact area"
                    ),
                    f"F_p = p × A = {fmt(pressure)} N/cm² × {_num(area_cm2)} cm² = "
                    f"{_num(f_p)} N; v_p = F_p / √(μ·k) = {_num(f_p)} N / "
                    f"√({fmt(mu, 4)} kg × {fmt(k_n_m)} N/m) = {fmt(v_p, 4)} m/s "
                    f"= {fmt(v_pressure_mm_s, 1)} mm/s",
                )
            )
            if v_pressure_mm_s < v_force_mm_s:
                governing, max_speed, f_gov = "pressure", v_pressure_mm_s, f_p
            steps.append(
                _line(
                    gettext_noop("The lower speed governs: the pressure limit")
                    if governing == "pressure"
                    else gettext_noop("The lower speed governs: the force limit"),
                    f"v_max = min({fmt(v_force_mm_s, 1)} mm/s, "
                    f"{fmt(v_pressure_mm_s, 1)} mm/s) = {fmt(max_speed, 1)} mm/s",
                )
            )
            if area_cm2 < PRESSURE_PROBE_SIDE_CM**2:
                warnings.append(
                    _line(
                        gettext_noop(
                            "The contact area is smaller than the 1.4 cm × 1.4 cm "
                            "probe the pressure limits were measured with "
                            "(%(probe)s cm²): sharp or pointed parts need special "
                            "care and measurement."
                        ),
                        probe=fmt(PRESSURE_PROBE_SIDE_CM**2, 2),
                    )
                )
        energy = f_gov**2 / (2 * k_n_m)
        steps.append(
            _line(
                gettext_noop("Maximum energy transferred, E = F²/(2k) = ½·μ·v²"),
                f"E = ({_num(f_gov)} N)² / (2 × {fmt(k_n_m)} N/m) = {fmt(energy, 4)} J",
            )
        )

    table_a4 = TABLE_A4_ENERGY_READ_J.get(inp.body_region.value)
    if transient and table_a4 is not None and region.force_transient_n is not None:
        e_ft = region.force_transient_n**2 / (2 * k_n_m)
        steps.append(
            _line(
                gettext_noop(
                    "Comparison with Table A.4 (read in one source only), "
                    "%(region)s: the TS gives E ≤ %(table)s J; the formula with the "
                    "transient force limit gives %(computed)s J, the difference is "
                    "the TS's rounding"
                ),
                f"E = ({fmt(region.force_transient_n)} N)² / (2 × {fmt(k_n_m)} N/m) "
                f"= {fmt(e_ft, 4)} J",
                region=region.name,
                table=fmt(table_a4, 2),
                computed=fmt(e_ft, 2),
            )
        )

    warnings += [
        _line(
            gettext_noop(
                "No published worked example of this calculation was found; the "
                "check values it is tested against are arithmetic from the Annex A "
                "formulas, not results printed in ISO/TS 15066."
            )
        ),
        _line(
            gettext_noop(
                "This calculation is not a validation: the forces and pressures "
                "must be measured on the real cell (force and pressure "
                "measurement at each possible contact)."
            )
        ),
    ]
    sources = _unique(
        region.sources,
        area_row.sources,
        PFL_FORMULA_SOURCES,
        BODY_MODEL_SOURCES,
        TRANSIENT_MULTIPLIER_SOURCES if transient else (),
        TABLE_A4_SOURCES if transient and table_a4 is not None else (),
    )
    return PflResult(
        clause=PFL_CLAUSE,
        steps=tuple(steps),
        warnings=tuple(warnings),
        certainty=certainty,
        sources=sources,
        body_region=inp.body_region,
        contact=inp.contact,
        max_speed_mm_s=max_speed,
        max_speed_reason=reason,
        speed_from_force_mm_s=v_force_mm_s,
        speed_from_pressure_mm_s=v_pressure_mm_s,
        governing_limit=governing,
        force_limit_n=force,
        pressure_limit_n_cm2=pressure,
        pressure_area=area_row.area_id,
        pressure_area_name=area_row.name,
        robot_effective_mass_kg=m_r,
        body_effective_mass_kg=m_h,
        reduced_mass_kg=mu,
        spring_constant_n_mm=k_n_mm,
        max_energy_j=energy,
        table_a4_energy_j=table_a4,
    )


# --------------------------------------------------------------------------
# Speed and separation monitoring (5.5.4)
# --------------------------------------------------------------------------


class SsmInput(CalcInput):
    """Speeds, times and allowances for the protective separation distance."""

    human_speed_mm_s: float = Field(
        default=DEFAULT_HUMAN_SPEED_MM_S,
        gt=0,
        le=5000,
        description=gettext_noop(
            "v_h: speed of the person approaching the robot, in mm/s (1600 mm/s "
            "unless the risk assessment justifies another value)."
        ),
    )
    robot_speed_mm_s: float = Field(
        ge=0,
        le=20000,
        description=gettext_noop(
            "v_r: speed of the robot towards the person, in mm/s."
        ),
    )
    reaction_time_ms: float = Field(
        ge=0,
        le=10000,
        description=gettext_noop(
            "T_r: time from the person's detection to the start of the robot's "
            "stop (sensor, controller), in ms."
        ),
    )
    stopping_time_ms: float = Field(
        ge=0,
        le=10000,
        description=gettext_noop(
            "T_s: time the robot takes to stop once stopping starts, ms."
        ),
    )
    stopping_distance_mm: float = Field(
        ge=0,
        le=10000,
        description=gettext_noop(
            "S_s: distance the robot travels while stopping, in mm (from the "
            "robot's stopping data for this speed and payload)."
        ),
    )
    intrusion_mm: float = Field(
        default=0,
        ge=0,
        le=2000,
        description=gettext_noop(
            "C: intrusion distance, how far a body part can reach past the "
            "detection zone before it is detected, in mm."
        ),
    )
    human_uncertainty_mm: float = Field(
        default=0,
        ge=0,
        le=2000,
        description=gettext_noop(
            "Z_d: sensor uncertainty in the person's position, in mm."
        ),
    )
    robot_uncertainty_mm: float = Field(
        default=0,
        ge=0,
        le=2000,
        description=gettext_noop(
            "Z_r: uncertainty in the robot's measured position, in mm."
        ),
    )


class SsmResult(CalcResult):
    """The protective separation distance S_p and each of its terms."""

    separation_distance_mm: float
    sh_mm: float
    sr_mm: float
    ss_mm: float
    c_mm: float
    zd_mm: float
    zr_mm: float


def ts15066_ssm(inp: SsmInput) -> SsmResult:
    """Protective separation distance, constant-speed form (ISO/TS 15066 5.5.4)."""
    v_h, v_r = inp.human_speed_mm_s, inp.robot_speed_mm_s
    t_r, t_s = inp.reaction_time_ms / 1000, inp.stopping_time_ms / 1000
    s_h = v_h * (t_r + t_s)
    s_r = v_r * t_r
    s_s, c = inp.stopping_distance_mm, inp.intrusion_mm
    z_d, z_r = inp.human_uncertainty_mm, inp.robot_uncertainty_mm
    s_p = s_h + s_r + s_s + c + z_d + z_r
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
        _line(
            gettext_noop("Intrusion distance and position uncertainties"),
            f"C = {_num(c)} mm; Z_d = {_num(z_d)} mm; Z_r = {_num(z_r)} mm",
        ),
        _line(
            gettext_noop("Protective separation distance"),
            f"S_p = S_h + S_r + S_s + C + Z_d + Z_r = {_num(s_h)} + {_num(s_r)} + "
            f"{_num(s_s)} + {_num(c)} + {_num(z_d)} + {_num(z_r)} = {_num(s_p)} mm",
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
    if s_s == 0 and v_r > 0 and t_s > 0:
        warnings.append(
            _line(
                gettext_noop(
                    "The stopping distance is 0 mm although the robot moves and "
                    "needs time to stop: use the robot's stopping distance for this "
                    "speed and payload."
                )
            )
        )
    return SsmResult(
        clause=SSM_CLAUSE,
        steps=steps,
        warnings=tuple(warnings),
        certainty=Certainty.TWO_SOURCES,
        sources=SSM_FORMULA_SOURCES,
        separation_distance_mm=s_p,
        sh_mm=s_h,
        sr_mm=s_r,
        ss_mm=s_s,
        c_mm=c,
        zd_mm=z_d,
        zr_mm=z_r,
    )


# Readable names for the body model's ids, for pickers.
CHOICE_LABELS = {
    "transient": gettext_noop("Transient (impact, the person can recoil)"),
    "quasi_static": gettext_noop("Quasi-static (clamping or crushing)"),
    **{row.region_id: row.name for row in body_region_table()},
    **{
        str(area.area_id): area.name
        for row in body_region_table()
        for area in row.areas
    },
}

CALCULATORS: list[Calculator] = [
    Calculator(
        name="ts15066-pfl",
        title=gettext_noop("Power and force limiting: maximum permissible speed"),
        summary=gettext_noop(
            "Maximum relative speed at which a collaborative robot may touch a body "
            "region without exceeding the ISO/TS 15066 force, pressure and energy "
            "limits, for transient (impact) or quasi-static (clamping) contact."
        ),
        standard="ISO/TS 15066:2016",
        input_model=PflInput,
        result_model=PflResult,
        run=ts15066_pfl,
        headline=("max_speed_mm_s", "force_limit_n", "pressure_limit_n_cm2"),
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
        headline=("separation_distance_mm",),
        example={
            "human_speed_mm_s": 1600,
            "robot_speed_mm_s": 1000,
            "reaction_time_ms": 100,
            "stopping_time_ms": 300,
            "stopping_distance_mm": 150,
        },
    ),
]
