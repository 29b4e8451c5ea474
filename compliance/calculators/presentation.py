"""How calculator inputs and results are labelled and formatted on the pages.

Field names carry their units (``stopping_time_ms``, ``max_speed_mm_s``); this
module turns them into a label and a unit, and formats values by unit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _
from pydantic import BaseModel

from compliance.calculators.citations import citation_text

# Unit suffixes of field names, longest first, and how they are written.
UNITS: tuple[tuple[str, str], ...] = (
    ("_n_cm2", "N/cm²"),
    ("_n_mm", "N/mm"),
    ("_per_hour", "1/h"),
    ("_mm_s", "mm/s"),
    ("_per_h", "1/h"),
    ("_mm", "mm"),
    ("_ms", "ms"),
    ("_kg", "kg"),
    ("_cm2", "cm²"),
    ("_n", "N"),
    ("_j", "J"),
)

# Decimals shown per unit: enough to check a figure, no false precision.
DECIMALS = {"mm": 0, "mm/s": 0, "ms": 0, "N": 0, "N/cm²": 0, "N/mm": 0, "kg": 2, "J": 2}

# Labels of fields whose name alone reads badly; others are derived from the name.
LABELS = {
    "plr": _("Required performance level PLr"),
    "plr_low_probability": _("PLr with low probability of occurrence"),
    "sil": _("Corresponding SIL"),
    "pfhd_min_per_h": _("PFHd from"),
    "pfhd_max_per_h": _("PFHd below"),
    "minimum_distance_mm": _("Minimum distance S"),
    "k_mm_s": _("Approach speed K"),
    "c_mm": _("Intrusion distance C"),
    "t_ms": _("Overall stopping performance T"),
    "horizontal_distance_mm": _("Required horizontal distance c"),
    "safety_distance_mm": _("Required safety distance sr"),
    "max_speed_mm_s": _("Maximum permissible speed"),
    "force_limit_n": _("Force limit"),
    "pressure_limit_n_cm2": _("Pressure limit"),
    "separation_distance_mm": _("Protective separation distance Sp"),
    "severity": _("Severity of injury (S)"),
    "frequency": _("Frequency and/or duration of exposure (F)"),
    "avoidance": _("Possibility of avoiding the hazard (P)"),
    "low_probability": _("Low probability of occurrence of the hazardous event"),
    "detection_capability_mm": _("Detection capability d"),
    "hazard_height_mm": _("Height of the hazard zone a"),
    "structure_height_mm": _("Height of the protective structure b"),
    "body_region": _("Body region"),
    "contact": _("Kind of contact"),
    "risk": _("Risk"),
    "allowance_ms": _("Allowance"),
    "area": _("Body area"),
    "band_e_min_mm": _("Opening size band from"),
    "band_e_max_mm": _("Opening size band up to"),
    "beam_count": _("Number of beams"),
    "beam_heights_mm": _("Beam heights"),
    "body_effective_mass_kg": _("Effective mass of the body region m_H"),
    "column_b_mm": _("Table column b"),
    "contact_area_cm2": _("Contact area"),
    "controller_time_ms": _("Safety controller time"),
    "distance_to_hazard_mm": _("Distance to the hazard"),
    "field_height_mm": _("Height of the detection field H"),
    "governing_limit": _("Governing limit"),
    "human_speed_mm_s": _("Human approach speed v_h"),
    "human_uncertainty_mm": _("Position uncertainty of the person Z_d"),
    "intrusion_mm": _("Intrusion distance C"),
    "max_detection_capability_mm": _("Largest detection capability allowed"),
    "max_energy_j": _("Maximum energy transferred"),
    "opening_shape": _("Shape of the opening"),
    "opening_size_mm": _("Size of the opening e"),
    "payload_kg": _("Payload m_L"),
    "pressure_area": _("Body area of the pressure limit"),
    "pressure_area_name": _("Body area of the pressure limit"),
    "reaction_time_ms": _("Reaction time T_r"),
    "reduced_mass_kg": _("Reduced mass μ"),
    "response_time_ms": _("Response time of the device"),
    "robot_effective_mass_kg": _("Effective mass of the robot m_R"),
    "robot_moving_mass_kg": _("Moving mass of the robot M"),
    "robot_speed_mm_s": _("Robot speed v_r"),
    "robot_uncertainty_mm": _("Position uncertainty of the robot Z_r"),
    "row_a_mm": _("Table row a"),
    "sh_mm": _("Person's approach during reaction and stopping S_h"),
    "sil_certainty": _("Certainty of the SIL correspondence"),
    "speed_from_force_mm_s": _("Speed allowed by the force limit"),
    "speed_from_pressure_mm_s": _("Speed allowed by the pressure limit"),
    "spring_constant_n_mm": _("Spring constant k"),
    "sr_mm": _("Robot travel during reaction S_r"),
    "ss_mm": _("Robot stopping distance S_s"),
    "step_height_mm": _("Height of the step"),
    "stopping_distance_mm": _("Robot stopping distance S_s"),
    "stopping_time_ms": _("Stopping time of the machine"),
    "sufficient": _("Sufficient"),
    "table": _("Table"),
    "table_a4_energy_j": _("Energy limit of Table A.4"),
    "zd_mm": _("Position uncertainty of the person Z_d"),
    "zr_mm": _("Position uncertainty of the robot Z_r"),
    # ISO 13849-1 verification (pl-verify, b10d-mttfd).
    "pl": _("Performance level reached PL"),
    "pfhd_per_hour": _("PFHd of the safety function"),
    "pfhd_min_per_hour": _("PFHd from"),
    "pfhd_max_per_hour": _("PFHd below"),
    "combination": _("How the subsystems combine"),
    "meets_plr": _("Meets the PLr"),
    "k1_source": _("Table K.1 used"),
    "label": _("Name"),
    "category": _("Category"),
    "mttfd_years": _("MTTFd of each channel (years)"),
    "mttfd_channel2_years": _("MTTFd of channel 2 (years)"),
    "b10d_cycles": _("B10d (cycles)"),
    "days_per_year": _("Operating days per year d_op"),
    "hours_per_day": _("Operating hours per day h_op"),
    "cycle_time_s": _("Cycle time t_cycle (s)"),
    "dcavg_percent": _("Average diagnostic coverage DCavg (%)"),
    "ccf_points": _("CCF score (points)"),
    "ccf_measures": _("CCF measures taken (Annex F)"),
    "n_op_per_year": _("Operations per year n_op"),
    "mttfd_capped_years": _("MTTFd a channel counts (years)"),
    "t10d_years": _("T10d, replace the part after (years)"),
    "mttfd_band": _("MTTFd band"),
    # ISO 13855 (ESPE, multi-beam, interlocks).
    "c_ro_column_b_mm": _("Table 1 column b (reaching over)"),
    "c_ro_mm": _("Intrusion distance reaching over C_RO"),
    "c_ro_row_a_mm": _("Table 1 row a (reaching over)"),
    "determinable": _("Distance can be determined"),
    "governs": _("Governing distance"),
    "reach_over_checked": _("Reaching over checked"),
    "reach_over_distance_mm": _("Distance against reaching over S_RO"),
    "reach_through_distance_mm": _("Distance against reaching through S_RT"),
    "upper_edge_height_mm": _("Height of the upper edge of the detection zone"),
    "guard_locking_required": _("Guard locking required"),
    "intrusion_distance_mm": _("Intrusion distance C"),
    "overall_stopping_time_ms": _("Overall stopping time T"),
    # ISO 13857 (reaching over, openings, the gap under a guard).
    "hazard_lower_mm": _("Lowest height of the hazard zone"),
    "rows_a_mm": _("Table rows a read"),
    "judged_as": _("Judged as"),
    "opening_e_mm": _("Size of the opening e"),
    "opening_length_mm": _("Length of the opening"),
    "reduced_distance_mm": _("Reduced distance"),
    "verdict": _("Verdict"),
    "gap_height_mm": _("Height of the gap under the guard"),
    "lower_limb_distance_mm": _("Distance against reaching with the lower limbs"),
    "upper_limb_distance_mm": _("Distance against reaching with the upper limbs"),
    "upper_limbs_excluded": _("Upper limbs cannot reach through"),
    "whole_body_access": _("Whole-body access"),
    # ISO/TS 15066 (power and force limiting, speed and separation).
    "energy_checked": _("Energy limit checked"),
    "pressure_checked": _("Pressure limit checked"),
    "evidence_required": _("Evidence required"),
    "force_from_pressure_n": _("Force allowed by the pressure limit"),
    "speed_from_energy_mm_s": _("Speed allowed by the energy limit"),
    "c_basis": _("Basis of the intrusion distance C"),
    "c_from_height_mm": _("Intrusion distance C from the field height"),
    "complete": _("Every term known"),
    "detection_height_mm": _("Height of the detection field H"),
    "unverified_terms": _("Terms not yet verified"),
    "subsystems": _("Subsystems"),
    # ISO 13855:2024 (S = K × T + D_DS + Z).
    "edition": _("Edition"),
    "known_minimum_mm": _("Minimum distance at least"),
    "d_ds_mm": _("Detection-zone distance D_DS"),
    "z_mm": _("Supplement Z"),
    "supplement_z_mm": _("Supplement Z for measurement and reflection errors"),
    "reach_through_mm": _("Reaching through D_DT"),
    "reach_over_mm": _("Reaching over D_DO"),
    "reach_under_mm": _("Reaching under D_DU"),
    "reach_under_checked": _("Reaching under checked"),
    "gap_beneath_mm": _("Gap beneath the detection zone"),
    "distance_2010_mm": _("The same distance by ISO 13855:2010"),
}

# Values that are ids rather than words.
VALUE_LABELS = {
    "two_sources": _("two public sources"),
    "one_source": _("one public source"),
    "force": _("force"),
    "pressure": _("pressure"),
    "pfhd_sum": _("sum of the subsystems' PFHd"),
    "series_table": _("series table (lowest PL and how many have it)"),
    "reach_through": _("reaching through"),
    "reach_over": _("reaching over"),
    "reach_under": _("reaching under"),
    "entered": _("entered"),
    "detection_height": _("from the height of the detection field"),
    "missing": _("missing (taken as 0)"),
    "pass": _("Pass"),
    "fail": _("Fail"),
    "needs_evidence": _("Needs evidence"),
    "Table 1": _("Table 1"),
    "Table 2": _("Table 2"),
    "slot": _("Slot"),
    "square": _("Square"),
    "round": _("Round"),
    "rectangle": _("Rectangle (two unequal sides)"),
}


def shown_citation(citation: str) -> str:
    """A citation of a standard or a law (a calculator's clause, a rule's or
    a finding's) in the reader's language."""
    korean = (get_language() or "").startswith("ko")
    return citation_text(citation, gettext, korean=korean)


# Inputs that share a name with a result field but mean the actual, not the required.
INPUT_LABELS = {
    "horizontal_distance_mm": _("Actual horizontal distance c in the layout"),
    "distance_to_hazard_mm": _("Actual distance to the hazard"),
    "pfhd_per_hour": _("PFHd stated by the maker"),
    "pl": _("PL stated by the maker"),
}


@dataclass(frozen=True)
class FieldLabel:
    label: Any  # a lazy translation: forms are built once, rendered in any language
    unit: str


def split_unit(name: str) -> tuple[str, str]:
    for suffix, unit in UNITS:
        if name.endswith(suffix):
            return name[: -len(suffix)], unit
    return name, ""


def field_label(name: str, *, is_input: bool = False) -> FieldLabel:
    stem, unit = split_unit(name)
    if is_input and name in INPUT_LABELS:
        return FieldLabel(INPUT_LABELS[name], unit)
    if name in LABELS:
        return FieldLabel(LABELS[name], unit)
    # A field without a label of its own: readable, though untranslated.
    words = stem.replace("_", " ").strip()
    return FieldLabel(words[:1].upper() + words[1:], unit)


SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def scientific(value: float) -> str:
    """1e-06 as '1.0 × 10⁻⁶', the way PFHd figures are written."""
    mantissa, exponent = f"{value:.1e}".split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(SUPERSCRIPT)}"


def display_value(name: str, value: Any, labels: dict[str, str] | None = None) -> str:
    """A result value as the page shows it, in the active language's format."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, tuple | list):
        return ", ".join(display_value(name, item, labels) for item in value)
    if isinstance(value, int | float):
        _stem, unit = split_unit(name)
        if unit == "1/h" or (value and abs(value) < 1e-3):
            return scientific(value)
        if isinstance(value, float) and not math.isfinite(value):
            return str(value)
        decimals = DECIMALS.get(unit, 0 if isinstance(value, int) else 2)
        return number_format(
            round(value, decimals), decimals, use_l10n=True, force_grouping=True
        )
    text = str(value)
    if text in VALUE_LABELS:
        return str(VALUE_LABELS[text])
    return gettext((labels or {}).get(text, text))


BASE_FIELDS = {"clause", "steps", "warnings", "certainty", "sources"}


@dataclass(frozen=True)
class ShownValue:
    name: str
    label: Any
    value: str
    unit: str


def _is_reason(name: str) -> bool:
    return name == "reason" or name.endswith("_reason")


def present_result(calculator, result) -> dict[str, Any]:
    """What a page shows of a result: headline figures first, then the rest
    (without echoing the inputs), reasons where a figure could not be given,
    the working and warnings translated, and how sure the figures are."""
    labels = dict(calculator.choice_labels)

    def shown(name: str, value: Any) -> ShownValue:
        label = field_label(name)
        unit = "" if value is None or isinstance(value, str | bool) else label.unit
        return ShownValue(name, label.label, display_value(name, value, labels), unit)

    fields = [n for n in type(result).model_fields if n not in BASE_FIELDS]
    values = {n: getattr(result, n) for n in fields}
    inputs = set(calculator.input_model.model_fields)
    plain = {n: v for n, v in values.items() if not _is_reason(n) and not _is_table(v)}
    return {
        "headline": [shown(n, plain[n]) for n in calculator.headline if n in plain],
        "details": [
            shown(n, v)
            for n, v in plain.items()
            if n not in calculator.headline and n not in inputs
        ],
        "reasons": [gettext(v) for n, v in values.items() if _is_reason(n) and v],
        "clause": shown_citation(result.clause),
        "steps": [line.render(gettext) for line in result.steps],
        "warnings": [line.render(gettext) for line in result.warnings],
        "one_source": result.certainty == "one_source",
        "sources": result.sources,
    }


def _is_table(value: Any) -> bool:
    return (
        isinstance(value, tuple | list)
        and bool(value)
        and isinstance(value[0], BaseModel)
    )
