"""ISO 13849-1:2023: required performance level (PLr) from the risk graph.

The risk graph (Annex A) reads the required performance level of a safety
function from three parameters: severity of injury S, frequency and/or
exposure time F, and possibility of avoiding the hazard P. Since the 2015
amendment a low probability of occurrence of the hazardous event may lower the
PLr by one level. The target PFHd range per PL and the PL ↔ SIL correspondence
(IEC 62061) are given alongside.

ISO 13849-1:2023 (the 4th edition, which cancels and replaces the 2015 one)
is the edition cited. For this calculator it changes nothing: the PLr is read
from S, F and P with the outcomes of the 2015 edition's Annex A (the 2023
text itself was not read; the edition's changes for the app are listed in
``compliance.calculators.editions``). IEC 62061 SIL *assignment* (its Se × Cl matrix)
is deliberately not implemented: that matrix is not in the reference data.

Figures from the reference data ``iso13849_risk_graph.json`` via
``iso13849_tables``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field, StrictBool

from compliance.calculators import iso13849_tables as tables
from compliance.calculators.base import (
    CalcInput,
    CalcResult,
    Calculator,
    Certainty,
    Line,
    gettext_noop,
)
from compliance.calculators.iso13849_tables import (
    Avoidance,
    Frequency,
    PerformanceLevel,
    Severity,
)

STANDARD = "ISO 13849-1:2023"
CLAUSE = (
    "ISO 13849-1:2023, risk graph for the required performance level (Annex A "
    "of the 2015 edition)"
)

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _sci(value: float) -> str:
    """A probability per hour written as ``3 × 10⁻⁶``."""
    mantissa, exponent = f"{value:.0e}".split("e")
    power = f"10{str(int(exponent)).translate(_SUPERSCRIPT)}"
    return power if mantissa == "1" else f"{mantissa} × {power}"


def _unique(*groups: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s for group in groups for s in group))


class PlrInput(CalcInput):
    """The three risk-graph parameters of one safety function."""

    severity: Severity = Field(
        description=gettext_noop(
            "Severity of injury. S1: slight (normally reversible) injury. "
            "S2: serious (normally irreversible) injury, including death."
        )
    )
    frequency: Frequency = Field(
        description=gettext_noop(
            "Frequency and/or duration of exposure to the hazard. F1: seldom to "
            "less often and/or the exposure time is short. F2: frequent to "
            "continuous and/or the exposure time is long. Guidance only, not a "
            "rule of the standard: interventions more often than once per hour "
            "are usually counted as frequent."
        )
    )
    avoidance: Avoidance = Field(
        description=gettext_noop(
            "Possibility of avoiding the hazard or limiting the harm. "
            "P1: possible under specific conditions. P2: scarcely possible."
        )
    )
    low_probability: StrictBool = Field(
        default=False,
        description=gettext_noop(
            "Tick if the probability of occurrence of the hazardous event is low "
            "and the risk assessment justifies it; the PLr may then be lowered "
            "by one level."
        ),
    )


class PlrResult(CalcResult):
    """The required performance level, its PFHd target and its SIL counterpart."""

    plr: PerformanceLevel
    plr_low_probability: PerformanceLevel | None = None
    pfhd_min_per_h: float  # inclusive
    pfhd_max_per_h: float  # exclusive
    sil: int | None  # None for PL a: it has no SIL equivalent
    sil_certainty: Certainty


def _graph_row(inp: PlrInput) -> tables.RiskGraphRow:
    for row in tables.RISK_GRAPH:
        if (row.severity, row.frequency, row.avoidance) == (
            inp.severity,
            inp.frequency,
            inp.avoidance,
        ):
            return row
    raise LookupError("the risk graph covers every S, F, P combination")


def _lower(pl: PerformanceLevel, levels: int) -> PerformanceLevel:
    return tables.PL_ORDER[max(0, tables.PL_ORDER.index(pl) - levels)]


def _pfhd_formula(pl: PerformanceLevel) -> str:
    band = tables.PL_PFHD[pl]
    return (
        f"PL {pl}: {_sci(band.pfhd_min_per_h)} /h ≤ PFHd "
        f"< {_sci(band.pfhd_max_per_h)} /h"
    )


def plr(inp: PlrInput) -> PlrResult:
    """Required performance level from the ISO 13849-1 Annex A risk graph."""
    row = _graph_row(inp)
    band = tables.PL_PFHD[row.plr]
    sil = tables.PL_TO_SIL[row.plr]
    steps = [
        Line(
            text=gettext_noop("Risk graph (Annex A) gives PLr %(plr)s"),
            values={"plr": row.plr},
            formula=f"{inp.severity} → {inp.frequency} → {inp.avoidance} → PLr {row.plr}",
        ),
        Line(
            text=gettext_noop(
                "Target average probability of a dangerous failure per hour"
            ),
            formula=_pfhd_formula(row.plr),
        ),
        (
            Line(
                text=gettext_noop("Corresponding safety integrity level (IEC 62061)"),
                formula=f"PL {row.plr} ↔ SIL {sil}",
            )
            if sil is not None
            else Line(
                text=gettext_noop(
                    "PL %(plr)s has no SIL equivalent in IEC 62061",
                ),
                values={"plr": row.plr},
            )
        ),
    ]
    warnings = [
        Line(
            text=gettext_noop(
                "The risk graph is read as in the 2015 edition's Annex A; the 2023 "
                "edition's text was not read, and its changes recorded for the "
                "app (the safety requirements specification and validation now "
                "in Part 1) leave the outcome unchanged."
            )
        )
    ]
    sources = _unique(row.sources, tables.PL_PFHD_SOURCES, tables.PL_TO_SIL_SOURCES)
    confirmed = row.confirmed_two_sources and tables.PL_PFHD_CONFIRMED_TWO_SOURCES

    reduced: PerformanceLevel | None = None
    if inp.low_probability:
        reduced = _lower(row.plr, tables.PROBABILITY_MODIFIER_LEVELS)
        if reduced == row.plr:
            steps.append(
                Line(
                    text=gettext_noop(
                        "Low probability of occurrence: PL a is the lowest level, "
                        "so the PLr stays a"
                    ),
                    formula="PLr a → a",
                )
            )
        else:
            steps.append(
                Line(
                    text=gettext_noop(
                        "Low probability of occurrence: the PLr may be lowered "
                        "by one level"
                    ),
                    formula=f"PLr {row.plr} → {reduced}",
                )
            )
            steps.append(
                Line(
                    text=gettext_noop("Target PFHd of the lowered PLr"),
                    formula=_pfhd_formula(reduced),
                )
            )
        warnings.append(
            Line(
                text=gettext_noop(
                    "Lowering the PLr for a low probability of occurrence must be "
                    "justified in the risk assessment; the risk-graph value PLr "
                    "%(plr)s is the default. The rule is confirmed for the 2015 "
                    "edition; its 2023 wording was not read."
                ),
                values={"plr": row.plr},
            )
        )
        sources = _unique(sources, tables.PROBABILITY_MODIFIER_SOURCES)
        confirmed = confirmed and tables.PROBABILITY_MODIFIER_CONFIRMED_TWO_SOURCES

    sil_certainty = (
        Certainty.TWO_SOURCES
        if tables.PL_TO_SIL_CONFIRMED_TWO_SOURCES
        else Certainty.ONE_SOURCE
    )
    confirmed = confirmed and sil_certainty is Certainty.TWO_SOURCES
    return PlrResult(
        plr=row.plr,
        plr_low_probability=reduced,
        pfhd_min_per_h=band.pfhd_min_per_h,
        pfhd_max_per_h=band.pfhd_max_per_h,
        sil=sil,
        sil_certainty=sil_certainty,
        clause=CLAUSE,
        steps=tuple(steps),
        warnings=tuple(warnings),
        certainty=Certainty.TWO_SOURCES if confirmed else Certainty.ONE_SOURCE,
        sources=sources,
    )


@dataclass(frozen=True)
class PlTableRow:
    """One row of the reference table: a PL, its PFHd range and its SIL."""

    pl: PerformanceLevel
    pfhd_min_per_h: float  # inclusive
    pfhd_max_per_h: float  # exclusive
    sil: int | None  # None: PL a has no SIL equivalent
    sil_pfh_min_per_h: float | None  # the SIL's own PFH range (high demand)
    sil_pfh_max_per_h: float | None
    certainty: Certainty
    sources: tuple[str, ...]


def pl_table() -> tuple[PlTableRow, ...]:
    """PL → PFHd range → SIL, from PL a to PL e, for a reference table."""
    confirmed = (
        tables.PL_PFHD_CONFIRMED_TWO_SOURCES
        and tables.PL_TO_SIL_CONFIRMED_TWO_SOURCES
        and tables.SIL_PFH_CONFIRMED_TWO_SOURCES
    )
    sources = _unique(
        tables.PL_PFHD_SOURCES, tables.PL_TO_SIL_SOURCES, tables.SIL_PFH_SOURCES
    )
    rows = []
    for pl in tables.PL_ORDER:
        band = tables.PL_PFHD[pl]
        sil = tables.PL_TO_SIL[pl]
        sil_pfh = tables.SIL_PFH_HIGH_DEMAND[sil] if sil is not None else None
        rows.append(
            PlTableRow(
                pl=pl,
                pfhd_min_per_h=band.pfhd_min_per_h,
                pfhd_max_per_h=band.pfhd_max_per_h,
                sil=sil,
                sil_pfh_min_per_h=sil_pfh[0] if sil_pfh else None,
                sil_pfh_max_per_h=sil_pfh[1] if sil_pfh else None,
                certainty=Certainty.TWO_SOURCES if confirmed else Certainty.ONE_SOURCE,
                sources=sources,
            )
        )
    return tuple(rows)


# What the risk-graph parameters mean (iso13849_risk_graph.json, "parameters").
PARAMETER_LABELS = {
    "S1": gettext_noop("S1: slight (normally reversible) injury"),
    "S2": gettext_noop("S2: serious (normally irreversible) injury, including death"),
    "F1": gettext_noop("F1: seldom to less often and/or exposure time is short"),
    "F2": gettext_noop("F2: frequent to continuous and/or exposure time is long"),
    "P1": gettext_noop("P1: possible under specific conditions"),
    "P2": gettext_noop("P2: scarcely possible"),
}

CALCULATORS: list[Calculator] = [
    Calculator(
        name="plr",
        title=gettext_noop("Required performance level (risk graph)"),
        summary=gettext_noop(
            "Reads the required performance level PLr of a safety function from "
            "the ISO 13849-1 risk graph: severity, frequency of exposure and "
            "possibility of avoidance. Shows the target failure rate and the "
            "matching SIL."
        ),
        standard=STANDARD,
        input_model=PlrInput,
        result_model=PlrResult,
        run=plr,
        headline=("plr", "plr_low_probability", "sil"),
        choice_labels=PARAMETER_LABELS,
        # Serious injury, frequent access, avoidance scarcely possible: PLr e.
        example={"severity": "S2", "frequency": "F2", "avoidance": "P2"},
    ),
]
