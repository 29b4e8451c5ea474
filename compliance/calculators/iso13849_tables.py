"""ISO 13849-1 tables as typed data, copied from the project's reference data.

Every figure here comes from the reference data ``iso13849_risk_graph.json``
(the key is named beside each table), together with the public sources that
reproduce it and whether two independent sources agree
(``confirmed_two_sources``). The standard itself was not read: these are the
values as vendors and public code reproduce them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PerformanceLevel = Literal["a", "b", "c", "d", "e"]
Severity = Literal["S1", "S2"]
Frequency = Literal["F1", "F2"]
Avoidance = Literal["P1", "P2"]

# From the lowest (a) to the highest (e) performance level.
PL_ORDER: tuple[PerformanceLevel, ...] = ("a", "b", "c", "d", "e")

# Source descriptions, verbatim from the reference file's "sources" map.
CODE_RG = (
    "Public open-source code (TypeScript course code: requiredPL, PFH_RANGE, "
    "mttfdClass, dcClass, achievedPL simplified table)"
)
BREAKPILOT = "breakpilot GitHub commit message 'S2·F1·P1→PLr c'"
KEYENCE = (
    "Keyence safety guide (ISO 13849-1 risk graph, PFHd table, MTTFd/DC bands, "
    "CCF >= 65)"
)
FESTO12 = (
    "https://festo.com/PDF_Flip/safety/en/files/assets/basic-html/page12.html "
    "(MTTFd bands, DC bands, PFHd per PL)"
)
FESTO13 = (
    "https://festo.com/PDF_Flip/safety/en/files/assets/basic-html/page13.html "
    "(risk graph S/F/P definitions)"
)
CONTRINEX = "Contrinex safety guide (risk graph figure)"
CHARGER = (
    "http://www.charger.com.tw/12_standards/02_en/ (ISO 13849-1 Annex A text: "
    "probability of occurrence may lower PLr by one level)"
)
DIAZILLA = (
    "https://diazilla.com/doc/411868/amendment-of-en-iso-13849-1--a-survey-of-the-"
    "essential (2015 amendment survey: probability of occurrence of hazardous "
    "event considered in PLr)"
)
SCHNEIDER = "Schneider Electric eXLhoist manual (PFHd per PL; SIL PFH ranges)"
JUMO = (
    "JUMO safetyM STB/STW manual sec. 6.13 (PL->SIL: a none, b 1, c 1, d 2, e 3) "
    "https://www.manualsdir.com/manuals/563590/"
)
WIKI = "jherrodthomas GitHub wiki (PL<->SIL mapping)"
LENZE = (
    "https://www.lenze.com/de-de/application-knowledge-base/artikel/282055/0 "
    "(SIL PFH ranges high demand)"
)


@dataclass(frozen=True)
class RiskGraphRow:
    """One path through the Annex A risk graph: S, F, P → required PL."""

    severity: Severity
    frequency: Frequency
    avoidance: Avoidance
    plr: PerformanceLevel
    sources: tuple[str, ...]
    confirmed_two_sources: bool


_GRAPH_SOURCES = (CODE_RG, FESTO13, CONTRINEX)

# "risk_graph": all eight rows, each confirmed_two_sources = true.
RISK_GRAPH: tuple[RiskGraphRow, ...] = (
    RiskGraphRow("S1", "F1", "P1", "a", _GRAPH_SOURCES, True),
    RiskGraphRow("S1", "F1", "P2", "b", _GRAPH_SOURCES, True),
    RiskGraphRow("S1", "F2", "P1", "b", _GRAPH_SOURCES, True),
    RiskGraphRow("S1", "F2", "P2", "c", _GRAPH_SOURCES, True),
    RiskGraphRow("S2", "F1", "P1", "c", (*_GRAPH_SOURCES, BREAKPILOT, KEYENCE), True),
    RiskGraphRow("S2", "F1", "P2", "d", _GRAPH_SOURCES, True),
    RiskGraphRow("S2", "F2", "P1", "d", _GRAPH_SOURCES, True),
    RiskGraphRow("S2", "F2", "P2", "e", _GRAPH_SOURCES, True),
)


@dataclass(frozen=True)
class PfhdRange:
    """Average probability of a dangerous failure per hour for one PL.

    ``pfhd_min_per_h`` is inclusive, ``pfhd_max_per_h`` exclusive.
    """

    pl: PerformanceLevel
    pfhd_min_per_h: float
    pfhd_max_per_h: float


# "pl_pfhd_per_hour" (pfhd_min, pfhd_max_excl); pl_pfhd_confirmed_two_sources = true.
PL_PFHD: dict[PerformanceLevel, PfhdRange] = {
    "a": PfhdRange("a", 1e-05, 0.0001),
    "b": PfhdRange("b", 3e-06, 1e-05),
    "c": PfhdRange("c", 1e-06, 3e-06),
    "d": PfhdRange("d", 1e-07, 1e-06),
    "e": PfhdRange("e", 1e-08, 1e-07),
}
PL_PFHD_SOURCES = (KEYENCE, FESTO12, SCHNEIDER, CODE_RG)
PL_PFHD_CONFIRMED_TWO_SOURCES = True

# "pl_to_sil": "a has no SIL equivalent"; confirmed_two_sources = true.
PL_TO_SIL: dict[PerformanceLevel, int | None] = {
    "a": None,
    "b": 1,
    "c": 1,
    "d": 2,
    "e": 3,
}
PL_TO_SIL_SOURCES = (JUMO, WIKI)
PL_TO_SIL_CONFIRMED_TWO_SOURCES = True

# "sil_pfh_high_demand" [min, max] per hour; confirmed_two_sources = true.
# SIL 4 exists in IEC 61508 only and has no PL, so it is left out here.
SIL_PFH_HIGH_DEMAND: dict[int, tuple[float, float]] = {
    1: (1e-06, 1e-05),
    2: (1e-07, 1e-06),
    3: (1e-08, 1e-07),
}
SIL_PFH_SOURCES = (SCHNEIDER, LENZE)
SIL_PFH_CONFIRMED_TWO_SOURCES = True

# "parameters" → "probability_of_occurrence_modifier": since the 2015 amendment
# a low probability of occurrence may lower the PLr by one level. 2015 wording
# confirmed by two sources; the 2023 wording was not read.
PROBABILITY_MODIFIER_SOURCES = (CHARGER, DIAZILLA)
PROBABILITY_MODIFIER_CONFIRMED_TWO_SOURCES = True
PROBABILITY_MODIFIER_LEVELS = 1  # "may be reduced by one level"

# "parameters" → S, F, P definitions (all confirmed_two_sources = true).
PARAMETER_SOURCES = (FESTO13, KEYENCE, CONTRINEX)
