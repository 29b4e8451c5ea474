"""ISO/TS 15066:2016 Annex A: power and force limiting for one possible contact.

A possible contact is a body region, transient (a free impact the person can
recoil from) or quasi-static (clamping), and the contact area of the robot part
that would touch (for an edge, its smallest edge given as an area in cm²).

- Transient contact: the maximum permissible relative speed is the lowest of
  three routes, each from the Annex A energy-transfer model with m_R = M/2 + m_L
  and μ = (1/m_H + 1/m_R)⁻¹ (Table A.3 gives k and m_H):
  the force route v = F_T/√(μk) (Table A.2 force limit, doubled for transient
  contact by its footnote c), the pressure route v = p_T·A/√(μk) (Table A.2
  pressure limit over the contact area) and, where the reference read a Table
  A.4 value, the energy route v = √(2E/μ).
- Quasi-static contact gives no speed: the free-body model does not fit a body
  that cannot recoil. The result gives the quasi-static force and pressure
  limits that the clamping must be measured against (ISO/PAS 5672 test methods).

Figures and formulas are from the reference data ``ts15066_body_regions.json``
(see ``ts15066_tables``). Speeds are in mm/s at the interface; the formulas are
worked in SI (k in N/m, v in m/s) and converted in the steps.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field, StrictFloat, model_validator

from compliance.calculators.base import (
    CalcInput,
    CalcResult,
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
    TABLE_A4_CERTAINTY,
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
    "Table A.4 energy; maximum relative speed v = F/√(μk), v = √(2E/μ))"
)
# iso10218_2025_additions.json "body_model_limits_location": where ISO
# 10218-2:2025, which took ISO/TS 15066 in, holds the body-model limits (Annex
# M; measurement in 6.3.3 and Annex N) - one secondary source, low certainty.
BODY_MODEL_IN_10218 = gettext_noop(
    "ISO 10218-2:2025 took these limits in from ISO/TS 15066: one secondary "
    "source places the body-model limits in its Annex M and their measurement "
    "in 6.3.3 and Annex N (not confirmed). The figures here are those of ISO/TS "
    "15066:2016 Annex A."
)
BODY_MODEL_IN_10218_SOURCE = (
    "public code citing blog.robotiq.com (ISO 10218-2:2025 article): body-model "
    "limits 'in ISO 10218-2:2025 Annex M', PFMD measurement in 6.3.3 and Annex "
    "N. Secondary, unverified; the Robotiq blog itself not read"
)
# Named by the review as the method for measuring contact forces and pressures;
# the reference data does not cover it, so no figure is taken from it.
MEASUREMENT_METHOD = "ISO/PAS 5672"

Contact = Literal["transient", "quasi_static"]
Route = Literal["force", "pressure", "energy"]

# Input bounds. They are not figures from a standard: they keep the arithmetic
# finite and catch slips (grams typed as kilograms, mm² as cm²), with the API
# answering 400 naming the field. Before, any M > 0 was accepted and 5e-324 kg
# made 1/m_R infinite, μ = 0 and v = F/√0 a division by zero (a 500).
# - M ≥ 0.1 kg: below the moving parts of any robot arm, so only a slip is
#   refused; m_R ≥ 0.05 kg keeps μ and √(μk) well away from zero.
# - M ≤ 2000 kg and m_L ≤ 1000 kg: the ceilings the calculator always had,
#   generous for any robot, let alone a power and force limited one.
# - A ≥ 0.01 cm² (1 mm²): a smaller figure is a point, not an area; the pressure
#   limits were measured with a 1.4 cm × 1.4 cm probe and the result warns below
#   that. A ≤ 1000 cm²: the ceiling the calculator had; far larger areas only
#   leave the force route governing.
MOVING_MASS_MIN_KG = 0.1
MOVING_MASS_MAX_KG = 2000
PAYLOAD_MAX_KG = 1000
CONTACT_AREA_MIN_CM2 = 0.01
CONTACT_AREA_MAX_CM2 = 1000


def body_region_table() -> tuple[BodyRegionRow, ...]:
    """The Annex A body model, one frozen row per region (built once at import)."""
    return BODY_REGIONS


def _num(value: float, digits: int = 3) -> str:
    """An input figure as typed: up to ``digits`` decimals, no trailing zeros."""
    text = fmt(value, digits)
    return text.rstrip("0").rstrip(".") if "." in text else text


def _unique(*groups: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s for group in groups for s in group))


def _line(text: str, formula: str = "", **values: str | int | float) -> Line:
    """One step or warning; ``text`` is already marked with gettext_noop."""
    return Line(text=text, formula=formula, values=values)


_AREA_HELP = gettext_noop(
    "Contact area of the robot part that would touch, in cm² (0.01 to 1000); for "
    "an edge, give its smallest edge as an area (length × width in contact). "
    "With it the pressure limit is checked too."
)


class PflInput(CalcInput):
    """A possible contact between the robot and one body region."""

    body_region: BodyRegion = Field(
        description=gettext_noop(
            "The body region the robot could touch (ISO/TS 15066 Annex A body model)."
        )
    )
    robot_moving_mass_kg: StrictFloat = Field(
        ge=MOVING_MASS_MIN_KG,
        le=MOVING_MASS_MAX_KG,
        description=gettext_noop(
            "M: total mass of the robot's moving parts, in kg (0.1 to 2000)."
        ),
    )
    payload_kg: StrictFloat = Field(
        ge=0,
        le=PAYLOAD_MAX_KG,
        description=gettext_noop(
            "m_L: payload including tool and workpiece, in kg (0 to 1000)."
        ),
    )
    contact: Contact = Field(
        description=gettext_noop(
            "Transient: a free impact the person can recoil from. Quasi-static: "
            "clamping or crushing, the person cannot move away."
        )
    )
    contact_area_cm2: StrictFloat | None = Field(
        default=None,
        ge=CONTACT_AREA_MIN_CM2,
        le=CONTACT_AREA_MAX_CM2,
        description=_AREA_HELP,
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


class PflContactInput(PflInput):
    """One possible contact as the risk assessment records it: the contact area
    is required, so the pressure limit is always checked."""

    contact_area_cm2: StrictFloat = Field(
        ge=CONTACT_AREA_MIN_CM2, le=CONTACT_AREA_MAX_CM2, description=_AREA_HELP
    )


class PflResult(CalcResult):
    """Limits and the maximum permissible relative speed for one possible contact."""

    body_region: BodyRegion
    contact: Contact
    max_speed_mm_s: float | None  # None: see max_speed_reason
    max_speed_reason: str | None  # English, marked with gettext_noop
    governing_limit: Route | None  # the route giving max_speed_mm_s
    speed_from_force_mm_s: float | None  # v = F/√(μk)
    speed_from_pressure_mm_s: float | None  # v = p·A/√(μk), with a contact area
    speed_from_energy_mm_s: float | None  # v = √(2E/μ), with a Table A.4 value
    pressure_checked: bool  # False: no pressure route (no contact area, or no speed)
    energy_checked: bool  # False: no energy route (no Table A.4 value, or no speed)
    force_limit_n: float | None  # F_T (transient) or F_QS (quasi-static)
    pressure_limit_n_cm2: float | None  # p_T or p_QS of pressure_area
    force_from_pressure_n: float | None  # p × A, with a contact area
    pressure_area: BodyArea  # the area whose pressure limit is reported
    pressure_area_name: str  # English, marked with gettext_noop
    robot_effective_mass_kg: float
    body_effective_mass_kg: float
    reduced_mass_kg: float
    spring_constant_n_mm: float
    max_energy_j: float | None  # ½·μ·v² at max_speed_mm_s
    table_a4_energy_j: float | None  # Table A.4 value where the reference read one
    # What must still be shown before the contact is accepted (also in warnings).
    evidence_required: tuple[Line, ...] = ()


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


_GOVERNS = {
    "force": gettext_noop("The lowest speed governs: the force limit"),
    "pressure": gettext_noop("The lowest speed governs: the pressure limit"),
    "energy": gettext_noop("The lowest speed governs: the energy limit of Table A.4"),
}
_NOT_PERMISSIBLE_TRANSIENT = gettext_noop(
    "No transient contact is permitted with the skull, forehead or face: "
    "the factor of 2 for transient contact does not apply there "
    "(Table A.2, footnote c) and no transient limit exists."
)
_NOT_PERMISSIBLE_QUASI_STATIC = gettext_noop(
    "Contact with the face, skull and forehead is not permissible "
    "(ISO/TS 15066 A.3.2 as reported by the reference): no speed is "
    "given; the quasi-static limits are shown for information only."
)
_QUASI_STATIC_REASON = gettext_noop(
    "No permissible speed is given for quasi-static (clamping) contact: the Annex A "
    "energy model v = F/√(μk) describes a free body that recoils, which a clamped "
    "body cannot. The clamping force and pressure must be measured (ISO/PAS 5672) "
    "and kept below the quasi-static limits."
)


def ts15066_pfl(inp: PflInput) -> PflResult:
    """Maximum permissible relative speed for a contact (ISO/TS 15066 Annex A)."""
    region = REGIONS_BY_ID[inp.body_region]
    transient = inp.contact == "transient"
    area_cm2 = inp.contact_area_cm2
    steps: list[Line] = []
    warnings: list[Line] = []
    evidence: list[Line] = []
    certainty = region.certainty

    # Masses and stiffness (formulas: m_R, μ; Table A.3: m_H, k). The bounds on
    # M keep m_R ≥ 0.05 kg, so μ > 0 and every division below is safe.
    big_m, m_l = inp.robot_moving_mass_kg, inp.payload_kg
    m_r = big_m / 2 + m_l
    m_h = region.body_effective_mass_kg
    mu = 1 / (1 / m_h + 1 / m_r)
    k_n_mm = region.spring_constant_n_mm
    k_n_m = k_n_mm * 1000

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

    force: float | None = f_qs
    pressure: float | None = p_qs
    reason: str | None = None
    if not region.transient_permitted:
        if transient:
            force = pressure = None
            reason = _NOT_PERMISSIBLE_TRANSIENT
        else:
            reason = _NOT_PERMISSIBLE_QUASI_STATIC
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
    elif transient:
        force, pressure = region.force_transient_n, area_row.pressure_transient_n_cm2
        steps.append(
            _line(
                gettext_noop(
                    "Transient limits: up to twice the quasi-static values "
                    "(Table A.2, footnote c)"
                ),
                f"F_T = {TRANSIENT_MULTIPLIER} × {fmt(f_qs)} N = {fmt(force or 0)} N; "
                f"p_T = {TRANSIENT_MULTIPLIER} × {fmt(p_qs)} N/cm² = "
                f"{fmt(pressure or 0)} N/cm²",
            )
        )
    else:
        reason = _QUASI_STATIC_REASON

    f_p = pressure * area_cm2 if pressure is not None and area_cm2 is not None else None
    if f_p is not None:
        steps.append(
            _line(
                gettext_noop("Force the pressure limit allows over the contact area"),
                f"F_p = p × A = {fmt(pressure or 0)} N/cm² × {_num(area_cm2 or 0)} "
                f"cm² = {_num(f_p)} N",
            )
        )
    if area_cm2 is not None and area_cm2 < PRESSURE_PROBE_SIDE_CM**2:
        warnings.append(
            _line(
                gettext_noop(
                    "The contact area is smaller than the 1.4 cm × 1.4 cm probe the "
                    "pressure limits were measured with (%(probe)s cm²): sharp or "
                    "pointed parts need special care and measurement."
                ),
                probe=fmt(PRESSURE_PROBE_SIDE_CM**2, 2),
            )
        )

    table_a4 = TABLE_A4_ENERGY_READ_J.get(inp.body_region.value)
    speeds: dict[Route, float] = {}
    energy: float | None = None
    if reason is None and transient and force is not None:
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
                gettext_noop(
                    "Effective spring constant, %(region)s (Table A.3), in N/m"
                ),
                f"k = {fmt(k_n_mm)} N/mm × 1,000 = {fmt(k_n_m)} N/m",
                region=region.name,
            ),
        ]
        speeds, energy = _transient_routes(
            region, force, f_p, table_a4, mu, k_n_m, steps, warnings
        )
        if "energy" in speeds and TABLE_A4_CERTAINTY is Certainty.ONE_SOURCE:
            certainty = Certainty.ONE_SOURCE  # the speed rests on Table A.4 too
        if f_p is None:
            evidence.append(
                _line(
                    gettext_noop(
                        "Evidence required: the contact area (or the tool's smallest "
                        "edge, as an area in cm²). Without it the pressure limit is "
                        "not checked and the speed is only an upper bound, not the "
                        "permissible speed."
                    )
                )
            )
        if table_a4 is None:
            evidence.append(
                _line(
                    gettext_noop(
                        "Evidence required: the Table A.4 energy limit for "
                        "%(region)s, from the licensed standard. It is not in the "
                        "reference data; the TS rounds it (back and shoulders: "
                        "2.5 J against F_T²/(2k) = 2.52 J), so it may lower the "
                        "speed slightly."
                    ),
                    region=region.name,
                )
            )
    if region.transient_permitted and force is not None and pressure is not None:
        limits = {"force": fmt(force), "pressure": fmt(pressure)}
        if transient:
            text = gettext_noop(
                "Evidence required: this calculation is not a validation. Measure "
                "the force and pressure of this contact on the real cell "
                "(ISO/PAS 5672) and show they stay below F_T = %(force)s N and "
                "p_T = %(pressure)s N/cm²."
            )
        elif f_p is None:
            text = gettext_noop(
                "Evidence required: measure the clamping force and pressure of "
                "this contact on the real cell (ISO/PAS 5672) and show they stay "
                "below F_QS = %(force)s N and p_QS = %(pressure)s N/cm²."
            )
        else:
            text = gettext_noop(
                "Evidence required: measure the clamping force and pressure of "
                "this contact on the real cell (ISO/PAS 5672) and show they stay "
                "below F_QS = %(force)s N and p_QS = %(pressure)s N/cm² (over "
                "%(area)s cm², a force of at most %(f_p)s N)."
            )
            limits |= {"area": _num(area_cm2 or 0), "f_p": _num(f_p)}
        evidence.append(_line(text, **limits))

    governing: Route | None = min(speeds, key=speeds.__getitem__) if speeds else None
    max_speed = speeds[governing] if governing else None
    if speeds:
        warnings.append(
            _line(
                gettext_noop(
                    "No published worked example of this calculation was found; the "
                    "check values it is tested against are arithmetic from the "
                    "Annex A formulas, not results printed in ISO/TS 15066."
                )
            )
        )
    warnings.append(_line(BODY_MODEL_IN_10218))
    sources = _unique(
        region.sources,
        area_row.sources,
        PFL_FORMULA_SOURCES,
        BODY_MODEL_SOURCES,
        (BODY_MODEL_IN_10218_SOURCE,),
        TRANSIENT_MULTIPLIER_SOURCES if transient else (),
        TABLE_A4_SOURCES if "energy" in speeds else (),
    )
    return PflResult(
        clause=PFL_CLAUSE,
        steps=tuple(steps),
        warnings=(*warnings, *evidence),
        certainty=certainty,
        sources=sources,
        body_region=inp.body_region,
        contact=inp.contact,
        max_speed_mm_s=max_speed,
        max_speed_reason=reason,
        governing_limit=governing,
        speed_from_force_mm_s=speeds.get("force"),
        speed_from_pressure_mm_s=speeds.get("pressure"),
        speed_from_energy_mm_s=speeds.get("energy"),
        pressure_checked="pressure" in speeds,
        energy_checked="energy" in speeds,
        force_limit_n=force,
        pressure_limit_n_cm2=pressure,
        force_from_pressure_n=f_p,
        pressure_area=area_row.area_id,
        pressure_area_name=area_row.name,
        robot_effective_mass_kg=m_r,
        body_effective_mass_kg=m_h,
        reduced_mass_kg=mu,
        spring_constant_n_mm=k_n_mm,
        max_energy_j=energy,
        table_a4_energy_j=table_a4,
        evidence_required=tuple(evidence),
    )


def _transient_routes(
    region: BodyRegionRow,
    force: float,
    f_p: float | None,
    table_a4: float | None,
    mu: float,
    k_n_m: float,
    steps: list[Line],
    warnings: list[Line],
) -> tuple[dict[Route, float], float]:
    """The speed of each route (mm/s) and the energy at the lowest; adds steps."""
    root = math.sqrt(mu * k_n_m)
    root_text = f"√({fmt(mu, 4)} kg × {fmt(k_n_m)} N/m)"
    speeds: dict[Route, float] = {"force": force / root * 1000}
    steps.append(
        _line(
            gettext_noop("Force route: maximum relative speed from the force limit"),
            f"v_F = F_T / √(μ·k) = {fmt(force)} N / {root_text} = "
            f"{fmt(speeds['force'] / 1000, 4)} m/s = {fmt(speeds['force'], 1)} mm/s",
        )
    )
    if f_p is not None:
        speeds["pressure"] = f_p / root * 1000
        steps.append(
            _line(
                gettext_noop(
                    "Pressure route: maximum relative speed from the pressure limit "
                    "over the contact area"
                ),
                f"v_p = F_p / √(μ·k) = {_num(f_p)} N / {root_text} = "
                f"{fmt(speeds['pressure'] / 1000, 4)} m/s = "
                f"{fmt(speeds['pressure'], 1)} mm/s",
            )
        )
    else:
        steps.append(
            _line(gettext_noop("Pressure route: not checked, no contact area is given"))
        )
    e_force = force**2 / (2 * k_n_m)
    if table_a4 is not None:
        speeds["energy"] = math.sqrt(2 * table_a4 / mu) * 1000
        steps += [
            _line(
                gettext_noop(
                    "Energy route: Table A.4 (read in one source only), %(region)s, "
                    "gives E ≤ %(table)s J; the force limit gives %(computed)s J, "
                    "the difference is the TS's rounding"
                ),
                f"E_F = F_T²/(2k) = ({fmt(force)} N)² / (2 × {fmt(k_n_m)} N/m) "
                f"= {fmt(e_force, 4)} J",
                region=region.name,
                table=fmt(table_a4, 2),
                computed=fmt(e_force, 2),
            ),
            _line(
                gettext_noop(
                    "Energy route: maximum relative speed from the energy limit"
                ),
                f"v_E = √(2E/μ) = √(2 × {fmt(table_a4, 2)} J / {fmt(mu, 4)} kg) = "
                f"{fmt(speeds['energy'] / 1000, 4)} m/s = "
                f"{fmt(speeds['energy'], 1)} mm/s",
            ),
        ]
        warnings.append(
            _line(
                gettext_noop(
                    "The Table A.4 energy limit of %(region)s (%(table)s J) was read "
                    "in one source only; confirm it against the licensed standard."
                ),
                region=region.name,
                table=fmt(table_a4, 2),
            )
        )
    else:
        steps.append(
            _line(
                gettext_noop(
                    "Energy route: not checked, the reference data has no Table A.4 "
                    "value for %(region)s"
                ),
                region=region.name,
            )
        )
    governing = min(speeds, key=speeds.__getitem__)
    v_max = speeds[governing]
    listed = ", ".join(f"{fmt(v, 1)} mm/s" for v in speeds.values())
    steps.append(
        _line(_GOVERNS[governing], f"v_max = min({listed}) = {fmt(v_max, 1)} mm/s")
    )
    if governing == "energy" and table_a4 is not None:
        energy = table_a4
        formula = f"E = E_A.4 = {fmt(energy, 2)} J"
    else:
        f_gov = force if governing == "force" else (f_p or 0.0)
        energy = f_gov**2 / (2 * k_n_m)
        formula = (
            f"E = ({_num(f_gov)} N)² / (2 × {fmt(k_n_m)} N/m) = {fmt(energy, 4)} J"
        )
    steps.append(
        _line(gettext_noop("Maximum energy transferred, E = F²/(2k) = ½·μ·v²"), formula)
    )
    return speeds, energy


def pfl_contact(inp: PflContactInput) -> PflResult:
    """One possible contact as the rules check it: the permissible speed is the
    lowest of the force, pressure and (where read) energy routes; quasi-static
    contact gives no speed, only the limits to measure against."""
    return ts15066_pfl(inp)
