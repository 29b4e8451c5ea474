"""ISO 13855:2010: reaching through a vertical detection zone, S_RT = K × T + C.

- 6.2.3: a light curtain (ESPE) approached at right angles, by its detection
  capability d: d ≤ 40 mm (6.2.3.2: C = 8 × (d − 14), K = 2000 mm/s, or
  1600 mm/s above 500 mm) and 40 < d ≤ 70 mm (6.2.3.3: K = 1600 mm/s,
  C = 850 mm).
- 6.2: multiple separate beams (1 to 4), K = 1600 mm/s, C = 850 mm (one beam:
  1200 mm).

The figures are from the reference data ``iso13855.json`` via
``iso13855_tables``. ``iso13855_vertical`` combines S_RT with reaching over.
Pure Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from compliance.calculators import iso13855_tables as tables
from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.iso13855_common import distance, line, num

CLAUSE_ESPE_FINE = "ISO 13855:2010, 6.2.3.2 (ESPE, detection capability ≤ 40 mm)"
CLAUSE_ESPE_COARSE = "ISO 13855:2010, 6.2.3.3 (ESPE, detection capability 40–70 mm)"
CLAUSE_MULTIBEAM = "ISO 13855:2010, 6.2 (multiple separate beams)"


def check_d(d: float | None) -> float | None:
    if d is not None and d > tables.ESPE_D_MAX_MM:
        raise ValueError(
            gettext_noop(
                "detection_capability_mm: the ESPE normal-approach formulas of "
                "ISO 13855:2010 cover a detection capability up to 70 mm "
                "(d ≤ 40 mm for hand detection, 40 < d ≤ 70 mm for arm and body "
                "detection); for coarser devices use the multiple-beam calculator"
            )
        )
    return d


# --- reaching through: S_RT ---------------------------------------------------


@dataclass(frozen=True)
class ReachThrough:
    """S_RT = K × T + C by detection capability or beam count, with working."""

    s_mm: float
    k_mm_s: int
    c_mm: float
    clause: str
    steps: tuple[Line, ...]
    warnings: tuple[Line, ...]
    groups: tuple[tables.Sourced, ...]


def curtain_reach_through(d: float, t_ms: float) -> ReachThrough:
    """6.2.3: a light curtain of detection capability d."""
    if d > tables.ESPE_D_HAND_MAX_MM:
        k_mm_s = tables.K_WALKING_MM_S
        c_mm = float(tables.ESPE_C_D_GT_40_MM)
        s_mm, formula = distance(k_mm_s, t_ms, c_mm)
        text = gettext_noop(
            "Detection capability over 40 mm: K = 1600 mm/s, C = 850 mm"
        )
        return ReachThrough(
            s_mm,
            k_mm_s,
            c_mm,
            CLAUSE_ESPE_COARSE,
            (line(text, formula),),
            (),
            (tables.APPROACH_SPEEDS, tables.ESPE_D_GT_40),
        )

    c_raw = tables.ESPE_C_PER_MM * (d - tables.ESPE_C_D_OFFSET_MM)
    c_mm = max(0.0, c_raw)
    c_formula = f"C = 8 × ({num(d)} − 14) = {num(c_raw)} mm"
    if c_raw < 0:
        c_formula += f" → C = {num(c_mm)} mm"
    steps = [
        line(
            gettext_noop("Intrusion distance C = 8 × (d − 14), not below 0"), c_formula
        )
    ]
    s_fast, formula = distance(tables.K_HAND_ARM_MM_S, t_ms, c_mm)
    steps.append(line(gettext_noop("First with K = 2000 mm/s"), formula))
    k_mm_s = tables.K_HAND_ARM_MM_S
    if s_fast > tables.ESPE_S_SWITCH_MM:
        k_mm_s = tables.K_WALKING_MM_S
        s_slow, formula = distance(k_mm_s, t_ms, c_mm)
        s_mm = max(s_slow, float(tables.ESPE_S_SWITCH_MM))
        steps.append(
            line(
                gettext_noop(
                    "S is over 500 mm: recalculate with K = 1600 mm/s, "
                    "but not less than 500 mm"
                ),
                f"{formula} → S = max({num(s_slow)}, 500) = {num(s_mm)} mm",
            )
        )
    elif s_fast < tables.ESPE_S_MIN_MM:
        s_mm = float(tables.ESPE_S_MIN_MM)
        steps.append(
            line(
                gettext_noop("S is below the minimum of 100 mm, so S = 100 mm"),
                f"S = max({num(s_fast)}, 100) = {num(s_mm)} mm",
            )
        )
    else:
        s_mm = s_fast
        steps.append(
            line(
                gettext_noop("S is between 100 mm and 500 mm, so it is used as it is"),
                f"100 ≤ {num(s_fast)} ≤ 500",
            )
        )
    return ReachThrough(
        s_mm,
        k_mm_s,
        c_mm,
        CLAUSE_ESPE_FINE,
        tuple(steps),
        (),
        (tables.APPROACH_SPEEDS, tables.ESPE_D_LE_40),
    )


def multibeam_reach_through(beam_count: int, t_ms: float) -> ReachThrough:
    """6.2: multiple separate beams (1 to 4)."""
    k_mm_s = tables.K_WALKING_MM_S
    heights = tables.MULTIBEAM_HEIGHTS_MM[beam_count]
    warnings = []
    if beam_count == 1:
        c_mm = float(tables.SINGLE_BEAM_C_MM)
        c_text = gettext_noop("Single beam: K = 1600 mm/s, C = 1200 mm")
        s_code, _ = distance(k_mm_s, t_ms, tables.SINGLE_BEAM_C_CODE_MM)
        warnings.append(
            line(
                gettext_noop(
                    "Sources differ for a single beam: vendor manuals give "
                    "C = 1200 mm, one public code source keeps C = 850 mm. The "
                    "larger value, 1200 mm, is used; with 850 mm S would be "
                    "%(s_code)s mm."
                ),
                s_code=num(s_code),
            )
        )
    else:
        c_mm = float(tables.MULTIBEAM_C_MM)
        c_text = gettext_noop("2 to 4 beams: K = 1600 mm/s, C = 850 mm")
    s_mm, formula = distance(k_mm_s, t_ms, c_mm)
    steps = (
        line(c_text, formula),
        line(
            gettext_noop("Beam heights above the reference plane (floor)"),
            " / ".join(f"{h} mm" for h in heights),
        ),
    )
    return ReachThrough(
        s_mm,
        k_mm_s,
        c_mm,
        CLAUSE_MULTIBEAM,
        steps,
        tuple(warnings),
        (tables.APPROACH_SPEEDS, tables.MULTIBEAM),
    )
