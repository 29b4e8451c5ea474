"""ISO 13849-1 verification tables as typed data, copied from the reference data.

What verifying the PL a safety function reaches needs: the simplified procedure
(Category + DCavg band + MTTFd band → PL; ISO 13849-1:2015 6.1.8 / Table 6,
Figure 12 in the 2023 edition), the MTTFd and DC bands, the category
requirements, the per-channel MTTFd caps (Annex C), the Annex F CCF measures,
the PFHd assumed per PL by the alternative procedure, the series combination
table (6.3) and the IEC 61496 ESPE type ceilings.

Figures come from ``iso13849_pl_verification.json`` and
``iso13849_risk_graph.json`` (the key is named beside each table), with the
public sources that reproduce them and whether two independent sources agree
(``confirmed_two_sources``). The standard itself was not read. Annex K
Table K.1 was not found in any public source: it is not here, and must come
from an organisation's licensed copy (``iso13849_k1``). Pure Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from compliance.calculators.base import gettext_noop
from compliance.calculators.iso13849_tables import (
    FESTO12,
    KEYENCE,
    PL_ORDER,
    PL_PFHD,
    PL_PFHD_CONFIRMED_TWO_SOURCES,
    PL_PFHD_SOURCES,
    PerformanceLevel,
)

__all__ = [
    "PL_ORDER",
    "PL_PFHD",
    "PL_PFHD_CONFIRMED_TWO_SOURCES",
    "PL_PFHD_SOURCES",
    "Category",
    "DcBand",
    "MttfdBand",
    "PerformanceLevel",
]

Category = Literal["B", "1", "2", "3", "4"]
MttfdBand = Literal["low", "medium", "high"]
DcBand = Literal["none", "low", "medium", "high"]

CATEGORY_ORDER: tuple[Category, ...] = ("B", "1", "2", "3", "4")
MTTFD_BAND_ORDER: tuple[MttfdBand, ...] = ("low", "medium", "high")
DC_BAND_ORDER: tuple[DcBand, ...] = ("none", "low", "medium", "high")

# Source descriptions, verbatim from the reference files' "sources" maps.
PLCS_CAT = (
    "TomPodlena/plc-studio data/safety/categories.json (code-index id "
    "70653633390). Compiled by the repo author; cites Siemens Help 'ISO 13849-1' "
    "(hilfetexte-iso-en-211221.pdf, Tab. 1-2, 2-2, 2-3), IFA Report 2/2017e "
    "(DGUV rep0217e.pdf, e.g. Fig. 6.10, Tab. E.2, 6.5), DGUV article on ISO "
    "13849-1:2023 (publikationen.dguv.de .../4894), IFA Report 1/2025. The cited "
    "originals were NOT read here."
)
PLCS_COMP = (
    "TomPodlena/plc-studio data/safety/components.json (code-index id "
    "70817783004): device data with vendor document URLs and a per-entry "
    "'verified' flag set by the repo author"
)
PLCDESK_CODE = (
    "PLCdesk safety module (Czech; same author family as plc-studio), code-index "
    "id 70337438701: plFromCategory, symmetrizeMttfd, mttfdFromB10d, "
    "safetyDistance(edition 2010/2024)"
)
PALLETIZER = (
    "palletizer-sim smoke test (Russian), code-index id 68387548839: plFromBar, "
    "plSeries, mttfdSym(30,30)=30 (as recorded in a collection of peer test "
    "vectors)"
)
CODE_RG = (
    "Public open-source code (TypeScript course code: achievedPL simplified "
    "table) - the source already used in iso13849_risk_graph.json"
)
PIZZATO = (
    "https://fliphtml5.com/coga/pnyp/ZE_GCS06-ENG/426/ (Pizzato General Catalogue "
    "Safety Devices 2025-2026, pp.425-426: Figure 5 reading, five ways to PL c, "
    "'the table in Annex K ... is used to precisely determine the PL')"
)
BSBEDGE = (
    "bsbedge.com product page for ISO/TR 13849-3:2026 (quotes 'ISO 13849-1:2023, "
    "6.1.8, Figure 12, and Annex K'); exact URL not recorded"
)
MP24 = (
    "maschinenportal24.eu, German page on the categories of EN ISO 13849-1 "
    "(table: MTTFd per channel, DCavg, CCF per category); exact URL not recorded"
)
MEISTER = (
    "https://www.meister-automation.de/steuerungskategorie/ (German glossary: "
    "structure and typical fault behaviour of Categories B, 1, 2)"
)
LINESEIKI = (
    "https://www.lineseiki.com/product/information/9523/ ('Architectures of "
    "category 2 and above require a score of 65 or higher'; DCavg classes "
    "none/low/medium/high)"
)
TI_SPRY347 = (
    "Texas Instruments white paper SPRY347 (summary of the category structures); "
    "exact URL not recorded"
)
TRADETANG = (
    "tradetang.com/info/11246 (GB/T 16855.1 worked example: B10d 20 000 000 and "
    "400 000, d_op 300 d/y, h_op 16 h/d, t_cycle 4 min -> MTTFd 2778 y and 56 y; "
    "parts-count channel about 55 y; 'Cat 4: maximum MTTFd per channel 2500 "
    "years')"
)
DOLD_STS = (
    "https://manualslib.fr/manual/408924/Dold-Safemaster-Sts-K-Yrx-K.html?page=13 "
    "(Dold SAFEMASTER STS/K: B10d 2 000 000, d_op 365 d, h_op 24 h, t_cycle 1 h, "
    "n_op 8760; 'PFH total = SUM PFHd')"
)
JUMO_EXTHERM = (
    "manualslib.mx/manual/201553 (JUMO Extherm manual p.7: n_op and "
    "MTTFd-from-B10d formulas)"
)
JUMO_EX_T10D = (
    "JUMO 14597 safetyM STB/STW Ex manual, table 10 terms: T10d = reference value "
    "for preventive exchange (azmanual.top/manuals/563590/...?page=56)"
)
ROCKWELL_AT125C = (
    "Rockwell Automation SAFETY-AT125C application technique (easymanua.ls copy "
    "p.13): SISTEMA >= 2.0.3 applies the ISO 13849-1:2015 cap of 2500 years - "
    "read in an earlier survey, not re-read here"
)
BECKHOFF_TS = (
    "Beckhoff TwinSAFE documentation p.55 (manualsdir.com/manuals/757426): MTTFd "
    "= (1 - DC)/(PFH x 8760) per module, EL1904 PFH 1.11E-09 and DC 99 % -> "
    "1028.8 y as printed, MTTFd,tot 179.4 y, weighted DCavg example 96.26 %"
)
CHARGER_2021 = (
    "http://www.charger.com.tw/12_standards/02_en/ISO_13849-1_2021/html/ (ISO "
    "13849-1 draft 2021 text: 06.html contents incl. 6.1.8 'Simplified procedure "
    "for estimating the PL for subsystems', 6.1.9 'Alternative procedure to "
    "determine the PL and PFHD without MTTFD'; 99_Annex_C.html; Annex F: minimum "
    "65 points, beta about 2 %, all-or-nothing per measure)"
)
COMITRONIC = (
    "https://www.comitronic-bti.com/en/sytcom (Comitronic-BTI: reproduction of "
    "Table F.1 CCF measures, e.g. separation '(out of 15)'; all-or-nothing "
    "scoring)"
)
REER_AUSX = (
    "ReeR AUS X manual p.5 (manualarchiveguide.com copy 'Reer-Aus-X'): since EN "
    "61496-1 Ed. 3 a Type 2 ESPE is limited to SIL 1 / PL c; the PFHd of the "
    "electronics may still be used in the calculation"
)
REER_VX = (
    "ReeR Vision VX manual p.4 (manualshive.com, reer/vision-vx): same Type 2 "
    "statement (same maker as REER_AUSX, not independent of it)"
)
QJKH_BLOG = (
    "https://industrialsafetysensor.com/blog/type-2-vs-type-4... (QJKH blog: "
    "Type 2 -> SIL CL 1 / PL c; Type 4 -> SIL CL 3 / PL e); full URL slug not "
    "recorded"
)
QJKH_SCANNER = (
    "industrialsafetysensor.com safety laser scanner guide (QJKH): scanners are "
    "Type 3, SIL 2, PL d, Cat 3; exact URL not recorded"
)
SICK_DETEM4 = (
    "manualshive.com/en/manual/sick/detem4-core-a-p/ ... 1264593-98.html (SICK "
    "deTem4 Core A/P technical data p.98: Type 4, Cat 4, PL e, SIL 3, PFHd "
    "6.6E-09; full path not recorded)"
)
UR_E = (
    "easymanua.ls/universal-robots/e-series/manual/785447 (UR5e user manual "
    "pp.33 and 99: all safety functions PL d Cat 3; safety-function PFHd 'is the "
    "sum of all PFHds')"
)
OMRON_JP = (
    "Omron Japan safety-knowledge page on ISO 13849-1 (PL of a safety function "
    "from the sum of the subsystem PFHd; Table K.1 shown only as an image) - URL "
    "not recorded"
)
ROCKWELL_T20 = (
    "Rockwell/Allen-Bradley Safety Products Catalog epub "
    "(ab.com/en/epub/catalogs/3377539/..., tab9, 'Table 20' series combination; "
    "same values as iso13849_risk_graph.json); exact path not recorded"
)
WEKA = (
    "https://www.weka.de/produktsicherheit/mttfd-wert/ (MTTFd bands niedrig "
    "3-10, mittel 10-30, hoch 30-100 years; Annex C values are 'good average "
    "values' when maker data are missing)"
)
WENGLOR_MTTFD = (
    "https://www.wenglor.com/en/MTTFd/l/cxmCID123763 (Annex C.5: MTTFd = 2 x MTTF "
    "typical; parts count per Annex D.1; standard sensors DC = 0 %)"
)
# From iso13849_risk_graph.json's "sources" map.
CODE_RG_BANDS = (
    "Public open-source code (TypeScript course code: requiredPL, PFH_RANGE, "
    "mttfdClass, dcClass, achievedPL simplified table)"
)
FESTO25 = (
    "https://festo.com/PDF_Flip/safety/en/files/assets/basic-html/page25.html "
    "(series combination PL_low/N_low table)"
)
SCHMERSAL = (
    "Schmersal PROTECT-PSC instruction manual Table 1-1 (series combination) "
    "http://88.208.23.73:8080/en/manual/schmersal/protect-psc/"
)
PIZZATO_RG = (
    "https://fliphtml5.com/coga/pnyp/ZE_GCS06-ENG/426/ (Pizzato General Catalogue "
    "2025-26: Figure 5 reading, PL c alternatives, MTTFd bands)"
)
REER = (
    "https://www.reersafety.com/.../simplified-method-for-estimating-the-"
    "quantifiable-part-of-the-pl/ (Figure 5 bars can span 2-3 PLs; Table K.1 "
    "gives exact PL; K.1 assumptions)"
)


# --- Bands ------------------------------------------------------------------


@dataclass(frozen=True)
class Band:
    """One band of a quantity: ``low`` inclusive, ``high`` exclusive (None: open)."""

    name: str
    low: float
    high: float | None


# iso13849_risk_graph.json "mttfd_bands_years" (lower bound inclusive; < 3 years
# not allowed); the same bands in iso13849_pl_verification.json
# "simplified_procedure.mttfd_classes_years". Confirmed by two sources. The
# high band's upper end, 100 years, is the cap of Cat B to 3 (see MTTFD_CAP):
# a capped Cat 4 channel above 100 years is still "high".
MTTFD_BANDS: tuple[Band, ...] = (
    Band("low", 3, 10),
    Band("medium", 10, 30),
    Band("high", 30, None),
)
MTTFD_MIN_YEARS = 3.0
MTTFD_HIGH_YEARS = 30.0
MTTFD_BANDS_SOURCES = (KEYENCE, FESTO12, PIZZATO_RG, WEKA, CODE_RG_BANDS)
MTTFD_BANDS_CONFIRMED_TWO_SOURCES = True

# iso13849_risk_graph.json "dc_bands_percent": none < 60, low 60 to < 90, medium
# 90 to < 99, high >= 99. Confirmed by two sources.
DC_BANDS: tuple[Band, ...] = (
    Band("none", 0, 60),
    Band("low", 60, 90),
    Band("medium", 90, 99),
    Band("high", 99, None),
)
DC_BANDS_SOURCES = (KEYENCE, FESTO12, CODE_RG_BANDS)
DC_BANDS_CONFIRMED_TWO_SOURCES = True

# iso13849_pl_verification.json "annex_C.mttfd_caps_per_channel": a channel's
# MTTFd above the cap counts as the cap; 100 years for Cat B to 3, 2500 years
# for Cat 4 (introduced by ISO 13849-1:2015). Confirmed by two sources.
MTTFD_CAP_YEARS: dict[Category, float] = {
    "B": 100.0,
    "1": 100.0,
    "2": 100.0,
    "3": 100.0,
    "4": 2500.0,
}
MTTFD_CAP_SOURCES = (PLCS_CAT, TRADETANG, ROCKWELL_AT125C, PIZZATO, WEKA)
MTTFD_CAP_CONFIRMED_TWO_SOURCES = True


# --- Categories -----------------------------------------------------------------


@dataclass(frozen=True)
class CategoryRequirement:
    """What a category asks of a subsystem (iso13849_pl_verification.json
    "categories"). ``max_pl`` rests on plc-studio alone (``categories_note``)."""

    category: Category
    structure: str  # marked with gettext_noop
    mttfd_bands: tuple[MttfdBand, ...]  # MTTFd of each channel
    dc_bands: tuple[DcBand, ...]  # DCavg the category is defined for
    ccf_required: bool  # >= CCF_MIN_POINTS (Annex F)
    max_pl: PerformanceLevel
    sources: tuple[str, ...]
    confirmed_two_sources: bool  # the MTTFd, DCavg and CCF columns
    max_pl_confirmed_two_sources: bool = False


CATEGORIES: dict[Category, CategoryRequirement] = {
    "B": CategoryRequirement(
        "B",
        gettext_noop(
            "Single channel, basic safety principles; a fault can lead to loss of "
            "the safety function"
        ),
        mttfd_bands=("low", "medium"),
        dc_bands=("none",),
        ccf_required=False,
        max_pl="b",
        sources=(PLCS_CAT, MP24, MEISTER),
        confirmed_two_sources=True,
    ),
    "1": CategoryRequirement(
        "1",
        gettext_noop(
            "Single channel; Category B plus well-tried components and well-tried "
            "safety principles"
        ),
        mttfd_bands=("high",),
        dc_bands=("none",),
        ccf_required=False,
        max_pl="c",
        sources=(PLCS_CAT, MP24, MEISTER),
        confirmed_two_sources=True,
    ),
    "2": CategoryRequirement(
        "2",
        gettext_noop(
            "Single channel plus test equipment; the safety function is tested at "
            "suitable intervals; a fault between tests can lead to loss"
        ),
        mttfd_bands=("low", "medium", "high"),
        dc_bands=("low", "medium"),
        ccf_required=True,
        max_pl="d",
        sources=(PLCS_CAT, MP24, MEISTER, LINESEIKI),
        confirmed_two_sources=True,
    ),
    "3": CategoryRequirement(
        "3",
        gettext_noop(
            "Two channels; a single fault does not lead to loss of the safety "
            "function and is detected whenever reasonably practicable"
        ),
        mttfd_bands=("low", "medium", "high"),
        dc_bands=("low", "medium"),
        ccf_required=True,
        # PL e only through the exact route (Table K.1); the simplified table
        # tops out at d for Category 3.
        max_pl="e",
        sources=(PLCS_CAT, MP24, TI_SPRY347, LINESEIKI),
        confirmed_two_sources=True,
    ),
    "4": CategoryRequirement(
        "4",
        gettext_noop(
            "Two channels; a single fault is detected at or before the next demand "
            "and an accumulation of undetected faults does not lead to loss"
        ),
        mttfd_bands=("high",),
        dc_bands=("high",),
        ccf_required=True,
        max_pl="e",
        sources=(PLCS_CAT, MP24, TI_SPRY347, LINESEIKI),
        confirmed_two_sources=True,
    ),
}
# Categories with two functional channels (Annex D symmetrisation applies).
TWO_CHANNEL_CATEGORIES: frozenset[Category] = frozenset({"3", "4"})


# --- Simplified procedure (6.1.8) ----------------------------------------------


@dataclass(frozen=True)
class SimplifiedCell:
    """One cell: the PL for an MTTFd band, or None where not permitted."""

    pl: PerformanceLevel | None
    sources: tuple[str, ...]
    confirmed_two_sources: bool
    note: str = ""  # English, from the reference; not shown to customers as is


@dataclass(frozen=True)
class SimplifiedRow:
    """A row of the simplified procedure: a category and a DCavg band."""

    category: Category
    dc_band: DcBand
    cells: dict[MttfdBand, SimplifiedCell]


_PR = (PLCS_CAT, CODE_RG)
_PRZ = (PLCS_CAT, CODE_RG, PIZZATO)
_NOT_PERMITTED = "not permitted"

# iso13849_pl_verification.json "simplified_procedure.rows" (2015 Table 6,
# Figure 5; 2023 Figure 12). Both code sources are reproductions (plc-studio
# names Siemens Help and IFA as its basis, CODE_RG names none).
SIMPLIFIED_TABLE: tuple[SimplifiedRow, ...] = (
    SimplifiedRow(
        "B",
        "none",
        {
            "low": SimplifiedCell("a", _PR, True),
            "medium": SimplifiedCell("b", _PR, True),
            # CONFLICT in the reference: plc-studio marks it not applicable,
            # CODE_RG gives b, PLCdesk caps Cat B at MTTFd medium (b). Resolved
            # as the reference recommends: b, with a warning that a Cat B
            # channel counts at most as MTTFd medium.
            "high": SimplifiedCell(
                "b",
                (*_PR, PLCDESK_CODE),
                False,
                "Conflict in the sources: treated as b, a Category B channel "
                "counts at most as MTTFd medium",
            ),
        },
    ),
    SimplifiedRow(
        "1",
        "none",
        {
            "low": SimplifiedCell(None, _PR, True, _NOT_PERMITTED),
            "medium": SimplifiedCell(None, _PR, True, _NOT_PERMITTED),
            "high": SimplifiedCell("c", _PRZ, True),
        },
    ),
    SimplifiedRow(
        "2",
        "low",
        {
            "low": SimplifiedCell("a", _PR, True),
            "medium": SimplifiedCell(
                "b",
                _PR,
                True,
                "Pizzato reads the Figure 5 bar as reaching c; the single-value "
                "table gives b",
            ),
            "high": SimplifiedCell("c", _PR, True),
        },
    ),
    SimplifiedRow(
        "2",
        "medium",
        {
            "low": SimplifiedCell("b", _PR, True),
            "medium": SimplifiedCell("c", _PRZ, True),
            "high": SimplifiedCell("d", _PR, True),
        },
    ),
    SimplifiedRow(
        "3",
        "low",
        {
            "low": SimplifiedCell("b", _PR, True),
            "medium": SimplifiedCell("c", _PRZ, True),
            "high": SimplifiedCell("d", _PR, True),
        },
    ),
    SimplifiedRow(
        "3",
        "medium",
        {
            "low": SimplifiedCell("c", _PRZ, True),
            "medium": SimplifiedCell("d", _PR, True),
            "high": SimplifiedCell(
                "d",
                _PR,
                True,
                "Table 6 value d. The Figure 5 bar spans d-e; PL e is reachable "
                "only with the exact MTTFd via Annex K",
            ),
        },
    ),
    SimplifiedRow(
        "4",
        "high",
        {
            "low": SimplifiedCell(None, _PR, True, _NOT_PERMITTED),
            "medium": SimplifiedCell(None, _PR, True, _NOT_PERMITTED),
            "high": SimplifiedCell("e", _PR, True),
        },
    ),
)
SIMPLIFIED_ROWS: dict[tuple[Category, DcBand], SimplifiedRow] = {
    (row.category, row.dc_band): row for row in SIMPLIFIED_TABLE
}

# "simplified_procedure.dc_outside_category_columns": DC high in Cat 2 or 3 has
# no column of its own; PLCdesk reads the DC-medium column (conservative), the
# palletizer test returns nothing. One source for the rule.
DC_HIGH_COLUMN_FOR_CAT_2_3: DcBand = "medium"
DC_HIGH_COLUMN_SOURCES = (PLCDESK_CODE, PALLETIZER)
DC_HIGH_COLUMN_CONFIRMED_TWO_SOURCES = False

# Table 6 (simplified) is of the 2015 edition; the 2023 edition keeps Figure 12
# and Annex K (two sources) and dropped Table 6 (plc-studio only).
EDITION_2023_SOURCES = (BSBEDGE, CHARGER_2021)


# --- Annex F: common cause failure -----------------------------------------------

CcfMeasureId = Literal[
    "separation",
    "diversity",
    "overvoltage_protection",
    "well_tried_components",
    "fmea",
    "competence",
    "emc_contamination",
    "other_environment",
]


@dataclass(frozen=True)
class CcfMeasure:
    """One measure against common cause failure (Annex F, Table F.1)."""

    id: CcfMeasureId
    number: str  # the measure's number as recorded
    label: str  # short label as recorded, marked with gettext_noop
    points: int
    sources: tuple[str, ...]
    confirmed_two_sources: bool


# iso13849_pl_verification.json "annex_F_ccf.measures". Short labels as
# recorded, not the standard's wording; points: one source except separation.
CCF_MEASURES: tuple[CcfMeasure, ...] = (
    CcfMeasure(
        "separation",
        "1",
        gettext_noop("Separation/segregation of signal paths"),
        15,
        (PLCS_CAT, COMITRONIC),
        True,
    ),
    CcfMeasure("diversity", "2", gettext_noop("Diversity"), 20, (PLCS_CAT,), False),
    CcfMeasure(
        "overvoltage_protection",
        "3.1",
        gettext_noop(
            "Design/application/experience: protection against over-voltage, "
            "over-pressure, over-current etc."
        ),
        15,
        (PLCS_CAT,),
        False,
    ),
    CcfMeasure(
        "well_tried_components",
        "3.2",
        gettext_noop("Design/application/experience: use of well-tried components"),
        5,
        (PLCS_CAT,),
        False,
    ),
    CcfMeasure(
        "fmea",
        "4",
        gettext_noop("Assessment/analysis: FMEA to avoid common cause failures"),
        5,
        (PLCS_CAT,),
        False,
    ),
    CcfMeasure(
        "competence", "5", gettext_noop("Competence/training"), 5, (PLCS_CAT,), False
    ),
    CcfMeasure(
        "emc_contamination",
        "6.1",
        gettext_noop("Environmental: contamination and EMC"),
        25,
        (PLCS_CAT,),
        False,
    ),
    CcfMeasure(
        "other_environment",
        "6.2",
        gettext_noop("Environmental: other influences"),
        10,
        (PLCS_CAT,),
        False,
    ),
)
CCF_MEASURES_BY_ID: dict[str, CcfMeasure] = {m.id: m for m in CCF_MEASURES}
CCF_MAX_POINTS = 100  # the sum of the points listed (arithmetic)
# "annex_F_ccf.min_required": 65 points for Categories 2, 3 and 4 (two sources;
# also iso13849_risk_graph.json "ccf_min_points"); each measure scores all or
# nothing (two sources).
CCF_MIN_POINTS = 65
CCF_MIN_SOURCES = (PLCS_CAT, CHARGER_2021, LINESEIKI, KEYENCE, FESTO12)
CCF_MIN_CONFIRMED_TWO_SOURCES = True
CCF_ALL_OR_NOTHING_SOURCES = (PLCS_CAT, COMITRONIC, CHARGER_2021)


# --- Annex C: B10d, mission time -------------------------------------------------

# "annex_C.formulas": n_op, MTTFd = B10d / (0.1 n_op), T10d = B10d / n_op.
B10D_SOURCES = (PLCS_CAT, PLCDESK_CODE, DOLD_STS, JUMO_EXTHERM, TRADETANG)
B10D_CONFIRMED_TWO_SOURCES = True
T10D_SOURCES = (JUMO_EXTHERM, JUMO_EX_T10D)
# Table K.1 is based on a 20-year mission time according to ReeR
# (iso13849_risk_graph.json "simplified_pl_table"); iso13849_pl_verification.json
# found no source stating it for K.1 (device data sheets quote TM = 20 years).
# One source: say so wherever it is used.
MISSION_TIME_YEARS = 20.0
MISSION_TIME_SOURCES = (REER,)
MISSION_TIME_CONFIRMED_TWO_SOURCES = False


# --- Annex D: channels --------------------------------------------------------

SYMMETRISATION_SOURCES = (PLCS_CAT, PLCDESK_CODE, PALLETIZER)
SYMMETRISATION_CONFIRMED_TWO_SOURCES = True  # all three are code
PARTS_COUNT_SOURCES = (PLCS_CAT, PLCDESK_CODE, TRADETANG, BECKHOFF_TS, WENGLOR_MTTFD)
PARTS_COUNT_CONFIRMED_TWO_SOURCES = True
DCAVG_SOURCES = (BECKHOFF_TS,)
DCAVG_CONFIRMED_TWO_SOURCES = False


# --- Alternative procedure without MTTFd ----------------------------------------

# "alternative_procedure_without_mttfd.pfhd_per_PL" (2015 Table 7 / IFA Report
# 6.5; 2023 6.1.9): the PFHd assumed per PL for a part whose MTTFd is unknown.
# The procedure exists per two sources; the four values are plc-studio's only.
# PL a has no value.
ALTERNATIVE_PFHD: dict[PerformanceLevel, float] = {
    "b": 5e-06,
    "c": 1.7e-06,
    "d": 2.9e-07,
    "e": 4.7e-08,
}
ALTERNATIVE_PFHD_SOURCES = (PLCS_CAT, CHARGER_2021)
ALTERNATIVE_PFHD_CONFIRMED_TWO_SOURCES = False


# --- 6.3: series combination ------------------------------------------------------


@dataclass(frozen=True)
class SeriesRow:
    """Overall PL of subsystems in series, from the lowest PL and how many have it:
    more than ``n_low_max`` at ``pl_low`` gives ``pl_above`` (None: not
    permitted), otherwise ``pl_low``."""

    pl_low: PerformanceLevel
    n_low_max: int
    pl_above: PerformanceLevel | None


# iso13849_risk_graph.json "series_combination" (ISO 13849-1:2015 Table 11;
# Rockwell "Table 20" gives the same). Confirmed by two sources. Whether the
# 2023 edition keeps the table was not checked.
SERIES_TABLE: dict[PerformanceLevel, SeriesRow] = {
    "a": SeriesRow("a", 3, None),
    "b": SeriesRow("b", 2, "a"),
    "c": SeriesRow("c", 2, "b"),
    "d": SeriesRow("d", 3, "c"),
    "e": SeriesRow("e", 3, "d"),
}
SERIES_TABLE_SOURCES = (SCHMERSAL, FESTO25, ROCKWELL_T20)
SERIES_TABLE_CONFIRMED_TWO_SOURCES = True

# "series_and_pfh_sum.pfh_summation": the PFHd of a safety function is the sum
# of its subsystems' PFHd; the PL follows from the PFHd bands and may not exceed
# the lowest subsystem PL. Confirmed by two sources.
PFHD_SUM_SOURCES = (DOLD_STS, UR_E, OMRON_JP)
PFHD_SUM_CONFIRMED_TWO_SOURCES = True


# --- IEC 61496: ESPE type → ceiling ---------------------------------------------


@dataclass(frozen=True)
class EspeTypeCeiling:
    """The highest PL and SIL an ESPE of an IEC 61496 type can be used for. The
    type gives the ceiling only: the device's PFHd and the rest of the chain
    decide the PL reached."""

    espe_type: int
    max_pl: PerformanceLevel
    max_sil: int
    typical_devices: str  # marked with gettext_noop
    sources: tuple[str, ...]
    confirmed_two_sources: bool


# iso13849_pl_verification.json "iec61496_espe_types". The DGUV/IFA table on
# the relationship exists but was not read.
ESPE_TYPES: dict[int, EspeTypeCeiling] = {
    2: EspeTypeCeiling(
        2,
        "c",
        1,
        gettext_noop("light curtains / light grids (AOPD)"),
        (REER_AUSX, REER_VX, QJKH_BLOG),
        True,
    ),
    3: EspeTypeCeiling(
        3,
        "d",
        2,
        gettext_noop("safety laser scanners (AOPDDR)"),
        (QJKH_SCANNER, PLCS_COMP),
        True,
    ),
    4: EspeTypeCeiling(
        4,
        "e",
        3,
        gettext_noop("light curtains / multibeam light grids (AOPD)"),
        (QJKH_BLOG, SICK_DETEM4, PLCS_COMP),
        True,
    ),
}


# --- Annex K: Table K.1 ---------------------------------------------------------

# iso13849_pl_verification.json "table_K1.columns": the column keys of Table
# K.1 by category and DCavg band. The table's numbers were NOT found: every
# cell is null in the reference and none is given here. An organisation may
# import its licensed copy (iso13849_k1).
K1_COLUMNS: dict[tuple[Category, DcBand], str] = {
    ("B", "none"): "cat_B",
    ("1", "none"): "cat_1",
    ("2", "low"): "cat_2_low",
    ("2", "medium"): "cat_2_medium",
    ("3", "low"): "cat_3_low",
    ("3", "medium"): "cat_3_medium",
    ("4", "high"): "cat_4_high",
}
K1_COLUMN_KEYS: tuple[str, ...] = tuple(K1_COLUMNS.values())


# --- Lookups --------------------------------------------------------------------


def pl_for_pfhd(pfhd_per_hour: float) -> PerformanceLevel | None:
    """The PL whose PFHd band holds ``pfhd_per_hour`` (anything below 10⁻⁸ is
    PL e); None at 10⁻⁴ or more, below PL a."""
    for pl in reversed(PL_ORDER):
        if pfhd_per_hour < PL_PFHD[pl].pfhd_max_per_h:
            return pl
    return None


def lowest_pl(*levels: PerformanceLevel) -> PerformanceLevel:
    """The lowest of the performance levels given."""
    return min(levels, key=PL_ORDER.index)


def pl_at_least(pl: PerformanceLevel, required: PerformanceLevel) -> bool:
    return PL_ORDER.index(pl) >= PL_ORDER.index(required)


# The band names the working fills into its lines ("DCavg band: medium"),
# marked so the catalogue has them: ``Line.render`` translates filled-in words.
BAND_NAMES = (
    gettext_noop("none"),
    gettext_noop("low"),
    gettext_noop("medium"),
    gettext_noop("high"),
)
