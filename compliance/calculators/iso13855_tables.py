"""ISO 13855 constants as typed data, copied from the project's reference data.

Every figure comes from the reference data ``iso13855.json`` or
``iso13855_additions.json`` (the file and key are named beside each constant),
with the public sources that reproduce it and whether two independent sources
agree (``confirmed_two_sources``). The standard itself was not read: these are
the values as vendors and public code reproduce them (ISO 13855:2010 basis).
"""

from __future__ import annotations

from dataclasses import dataclass

# Source descriptions, verbatim from the reference file's "sources" map.
SICK_C4000 = (
    "SICK C4000 safety light curtain operating instructions, minimum-distance "
    "section (easymanua.ls copy, p.41)"
)
QJKH = "https://industrialsafetysensor.com (QJKH safety light curtain guides; vendor)"
FSDDSK = "https://fsddsk.com (light-curtain safety-distance guide; vendor)"
IFM = "ifm electronic safety light curtain manual (minimum distance section)"
CODE13855 = (
    "Public open-source code (Python lookups for ISO 13855:2010/13857:2019/"
    "13854:2017; header says values are vendor reproductions from Troax, ReeR, "
    "Datalogic, ABB, Axelent; VERIFIED=False)"
)
WENGLOR = "wenglor SB4 safety light grid manual (multibeam example)"
LEUZE = "Leuze multi-beam safety light barrier manual (beam heights)"
DATALOGIC = "Datalogic safety light curtain manual (beam heights; parallel approach)"
REER = "ReeR EOS4 / safety guide (beam heights; parallel approach)"
SICK_MS3 = (
    "SICK microScan3 operating instructions (horizontal protective field "
    "C = 1200 - 0.4H; d_r = H/15 + 50)"
)
SCHMERSAL = (
    "https://manualslib.fr/manual/392675/Schmersal-Slc-210.html?page=36 "
    "(S = 1600(t1+t2) + 1200 - 0.4H, H < 1 m, H = 15(D-50))"
)
GT_ENG = (
    "https://www.gt-engineering.it/en/technical-standards/en-iso-standards/"
    "en-iso-13855/ (clause pages 5, 8 two-hand, 9 parallel approach, mats)"
)
PINNACLE = "Pinnacle Systems safety mat guide"
SAFETYMAT = "https://safetymat.net (US: Ds = 63 in/s x Ts + 47.2 in)"
SICK_DETEM = (
    "SICK deTem multibeam operating instructions (C must be >= 850 and >= C_RO)"
)


@dataclass(frozen=True)
class Sourced:
    """The sources behind one group of figures, and whether two agree."""

    sources: tuple[str, ...]
    confirmed_two_sources: bool


# "general_formula": S = K*T + C.
GENERAL_FORMULA = Sourced((GT_ENG, SICK_C4000), True)

# "approach_speeds".
K_HAND_ARM_MM_S = 2000  # hand_arm_K_mm_s
K_WALKING_MM_S = 1600  # walking_K_mm_s
APPROACH_SPEEDS = Sourced((SICK_C4000, QJKH, IFM), True)

# "normal_approach_espe" → "d_le_40":
#   C = "8*(d-14) mm (not below 0)"; procedure "1) S = 2000 T + C; if
#   100 <= S <= 500 use it (min 100 mm). 2) if S > 500: S = 1600 T + C, but not
#   less than 500 mm."
ESPE_D_HAND_MAX_MM = 40  # the key's name: d <= 40
ESPE_C_PER_MM = 8  # 8*(d-14)
ESPE_C_D_OFFSET_MM = 14  # 8*(d-14)
ESPE_S_MIN_MM = 100  # "min 100 mm"
ESPE_S_SWITCH_MM = 500  # "if S > 500 ... not less than 500 mm"
ESPE_D_LE_40 = Sourced((SICK_C4000, QJKH, FSDDSK, IFM, CODE13855), True)

# "normal_approach_espe" → "d_gt_40": S = 1600 T + 850, C_mm = 850.
ESPE_C_D_GT_40_MM = 850
ESPE_D_GT_40 = Sourced((SICK_C4000, IFM, CODE13855), True)
# Upper end of the "d > 40" range. NOT in the reference file, which states no
# upper limit for d > 40: 70 mm is the limit of ISO 13855:2010, 6.2.3 as given
# in the task brief. Coarser devices are treated as multiple separate beams.
ESPE_D_MAX_MM = 70

# "multibeam_heights_mm": beam heights above the reference plane per beam count;
# "formula_2_to_4_beams": S = 1600 T + 850; "formula_single_beam":
# S = 1600 T + 1200 (single beam at 750 mm). Note in the reference: CODE13855
# keeps C = 850 for one beam, vendor manuals give C = 1200.
MULTIBEAM_HEIGHTS_MM: dict[int, tuple[int, ...]] = {
    4: (300, 600, 900, 1200),
    3: (300, 700, 1100),
    2: (400, 900),
    1: (750,),
}
MULTIBEAM_C_MM = 850
SINGLE_BEAM_C_MM = 1200
SINGLE_BEAM_C_CODE_MM = 850  # what CODE13855 keeps for one beam (conflict)
MULTIBEAM = Sourced((LEUZE, DATALOGIC, REER, WENGLOR, CODE13855), True)

# "parallel_approach": S = 1600 T + (1200 - 0.4 H); C_min_mm 850; H_max_mm 1000;
# H_min "15*(d-50) (H may be 0 if d <= 50)"; "above H = 300 mm a crawl-under
# risk must be assessed".
PARALLEL_C_BASE_MM = 1200
PARALLEL_C_PER_MM_H = 0.4
PARALLEL_C_MIN_MM = 850
PARALLEL_H_MAX_MM = 1000
PARALLEL_H_PER_MM_D = 15  # H >= 15 (d - 50)
PARALLEL_D_OFFSET_MM = 50
PARALLEL_CRAWL_UNDER_H_MM = 300
PARALLEL = Sourced((DATALOGIC, REER, SICK_MS3, SCHMERSAL, GT_ENG, CODE13855), True)

# "pressure_sensitive_mats": S = 1600 T + 1200; step_height_rule "if mat is on a
# step of height H: C = 1200 - 0.4 H"; min_mat_depth_mm 750.
MAT_C_MM = 1200
MAT_STEP_C_PER_MM_H = 0.4
MAT_MIN_DEPTH_MM = 750
MATS = Sourced((GT_ENG, PINNACLE, SAFETYMAT), True)

# "reaching_over_vertical_field": C >= 850 and >= C_RO from ISO 13855 Table 1;
# "C_RO_table": null there; the table is in iso13855_additions.json (below).
REACH_OVER = Sourced((SICK_DETEM,), False)


# --- iso13855_additions.json ------------------------------------------------

# Source descriptions, verbatim from that file's "sources" map.
SCHMERSAL_SLC440 = (
    "https://manualshive.com/en/manual/schmersal/slc440/slc440_operating-"
    "instructions-manual_1213275-13.html (Schmersal SLC440 operating instructions "
    "p.13: extract of ISO 13855:2010 Table 1, C_RO; header printed as 'Reaching "
    "through'; 'between table values use the next higher value')"
)
WENGLOR_SEFG = (
    "https://manualslib.mx/manual/362271/Wenglor-Sefg-Serie.html?page=44 (wenglor "
    "SEFG manual, Spanish, worked example: a = b = 1600 mm -> C_RO = 750 mm; "
    "remedy with a higher field -> C_RO = 450 mm; S = max(S_RT, S_RO))"
)
WENGLOR_SEFB = (
    "https://manualshive.com/ru/manual/wenglor/sefb-series/956883?page=41 (wenglor "
    "SEFB multi-beam manual pp.39-41: S_RO = K*T + C_RO with K 2000, or 1600 if "
    "S > 500 mm; rounding rule for values between table entries)"
)
LEUZE_MLC510 = (
    "https://easymanua.ls/leuze-electronic/mlc-520-ex-series/manual/1365071?p=19 "
    "(Leuze MLC 510 manual pp.19-21: S = max(S_RT, S_RO); K rule; C_RO at most "
    "1200 mm)"
)
LEUZE_MLC530 = (
    "Leuze MLC 530 SPG manual p.52 (same S = max rule; same maker as "
    "LEUZE_MLC510); URL not recorded"
)
GT_13855_2010 = (
    "gt-engineering.it EN ISO 13855 pages (2010 text, §6.5): 'For C_RO the values "
    "in Table 1 shall apply'"
)
GT_2024_GUARD = (
    "gt-engineering.it wp-json normativa_tecnica/3324 (EN ISO 13855:2024 "
    "interlocking guards, modified 2024-11-29: S = (K x T) + D_GT, K 1600 mm/s, "
    "D_GT from ISO 13857:2019); the 2023 version of the page gives the same rule"
)
ABB_SENSE7 = (
    "http://88.208.23.73:8080/en/manual/abb/sense7-series/5252?page=9 (ABB Jokab "
    "Sense7 manual: interlocked guard S = K x T + C, K 1600 mm/s, T from opening "
    "to stop, C from ISO 13857:2008 Table 4/5 if fingers or hand can be pushed "
    "through the opening)"
)
ABB_MKEY = (
    "https://manualshive.com/en/manual/abb/2tla050007r0602/ (ABB MKey manual "
    "p.10: same rule; T may be reduced by the time needed to open the guard)"
)

# "c_ro_table_2010": ISO 13855:2010 Table 1, the additional distance C_RO (mm)
# for reaching over a vertical detection zone. Rows: a, the height of the
# hazard zone; columns: b, the height of the upper edge of the detection zone
# (both mm above the reference plane). Rows copied in ascending a (the
# reference lists them descending). ``None`` is the misprinted cell (see
# C_RO_DEFECT): it has no value.
C_RO_B_COLUMNS_MM: tuple[int, ...] = (
    900, 1000, 1100, 1200, 1300, 1400, 1600, 1800, 2000, 2200, 2400, 2600,
)  # fmt: skip
C_RO_ROWS_MM: dict[int, tuple[int | None, ...]] = {
    0: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    200: (600, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    400: (900, 700, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    600: (1050, 950, 750, 550, 0, 0, 0, 0, 0, 0, 0, 0),
    800: (1150, 1050, 950, 800, 500, 450, 0, 0, 0, 0, 0, 0),
    1000: (1200, 1150, 1050, 950, 750, 700, 0, 0, 0, 0, 0, 0),
    1200: (1200, 1200, 1100, 1000, None, 800, 0, 0, 0, 0, 0, 0),
    1400: (1200, 1200, 1100, 1000, 900, 850, 650, 0, 0, 0, 0, 0),
    1600: (1150, 1150, 1100, 1000, 900, 850, 750, 450, 0, 0, 0, 0),
    1800: (1100, 1100, 950, 950, 850, 800, 750, 550, 0, 0, 0, 0),
    2000: (950, 950, 850, 850, 800, 750, 700, 550, 400, 0, 0, 0),
    2200: (800, 750, 750, 700, 650, 650, 600, 550, 400, 250, 0, 0),
    2400: (550, 550, 550, 500, 450, 450, 400, 400, 300, 250, 100, 0),
    2500: (400, 400, 350, 300, 300, 300, 300, 300, 250, 150, 100, 0),
    2600: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
}
# "c_ro_table_2010" → "known_defect": the Schmersal copy prints '85' at
# a = 1200, b = 1300; along the row the true value lies between 800 and
# 1000 mm; the reference suggests 1000 mm as a flagged fallback. The task
# brief overrides that: a cell without a value means S_RO cannot be
# determined, so the fallback is only shown, never used for a verdict.
C_RO_DEFECT_A_MM = 1200
C_RO_DEFECT_B_MM = 1300
C_RO_DEFECT_PRINTED = "85"
C_RO_DEFECT_RANGE_MM = (800, 1000)
C_RO_DEFECT_FALLBACK_MM = 1000
# "c_ro_table_2010" → "cross_checks": (a, b) cells a second source confirms.
# Only (1600, 1600) = 750 is read in the second source (wenglor SEFG); the
# (1600, 1800) = 450 match is the reference's inference (wenglor prints no b),
# so it is not counted as a second source here.
C_RO_CORROBORATED: frozenset[tuple[int, int]] = frozenset({(1600, 1600)})
# "c_ro_table_2010" → "lookup_rules": between table values the next higher
# C_RO (Schmersal); b rounded down is always cautious (C_RO never rises with
# b); for a between two rows the larger of the two rows (derived by the
# reference from the table); b below 900 or above 2600 mm and a above 2600 mm
# are not covered: do not extrapolate.
C_RO_TABLE = Sourced((SCHMERSAL_SLC440, WENGLOR_SEFG, LEUZE_MLC510), False)
# A reading that uses only the corroborated cells rests on two sources.
C_RO_CELL_CORROBORATED = Sourced((SCHMERSAL_SLC440, WENGLOR_SEFG), True)

# "s_max_rule": S = max(S_RT, S_RO), S_RO = K*T + C_RO; "start with K = 2000
# mm/s; if the result exceeds 500 mm, recompute with K = 1600 mm/s". The 500 mm
# floor after the switch is stated for S_RT only ("for S_RO it was not read").
S_MAX_RULE = Sourced(
    (LEUZE_MLC510, LEUZE_MLC530, WENGLOR_SEFG, WENGLOR_SEFB, GT_13855_2010), True
)
# "s_max_rule" → "worked_example" (wenglor SEFG): T = 0.3312 s, a = b = 1600 mm,
# C_RO = 750, S_RT = 657.92, S_RO = 1412.4 (K 2000) → 1279.92 (K 1600), S =
# 1279.92 mm. Checked in the tests.

# "interlocking_guards_without_locking": S = K*T + C (2010 wording, ABB) or
# S = K*T + D_GT (2024 wording, GT); K_mm_s 1600; T from opening the guard to
# the cessation of the hazard; C per ISO 13857 only if fingers or a hand can be
# pushed through the opening ("so C = 0 otherwise - inference").
INTERLOCK_K_MM_S = 1600
INTERLOCK = Sourced((GT_2024_GUARD, ABB_SENSE7, ABB_MKEY), True)


# --- iso13855_additions.json "edition_2024": ISO 13855:2024 (EN ISO 13855:2025) ---

LEUZE_WIZ2024 = (
    "https://www.leuze.com/en-uk/ ... /orthogonale-annaeherung-nach-iso-13855-2024 "
    "(Leuze calculation wizard, orthogonal approach per ISO 13855:2024: S = K x T "
    "+ D_DS + Z; K 1600 if S > 500 mm else 2000; D_DS from D_DO (table: top beam "
    "vs hazard height), D_DT (formula by detection capability), D_DU (calculation "
    "and table for the gap beneath))"
)
GT_2024_PAR = (
    "https://www.gt-engineering.it/en/technical-standards/en-iso-standards/"
    "en-iso-13855/6-3-detection-zone-parallel-to-the-direction-of-approach/ "
    "(2024 text, last edited 29/11/2024: S = (K x T) + D_DS + Z, K 1600 mm/s, "
    "D_DS 1200 mm, H_D >= 15(d_e - 50), 0 <= H_D <= 1000 mm, H_D > 200 mm -> risk "
    "of undetected access below)"
)
PLCDESK_CODE = (
    "PLCdesk safety module, code-index id 70337438701, safetyDistance() edition "
    "'2024' - the code itself warns that the 2024 values are 'free "
    "interpretations'"
)
SICK_MS3PRO = (
    "SICK microScan3 Pro operating instructions p.37 (easymanua.ls copy): "
    "supplement Z_R = 350 mm where retroreflectors are within 6 m"
)
LEUZE_WIZ2010 = (
    "leuze.com parallel-approach calculation wizard (RSL 400 supplements Z_SM "
    "100 mm up to 6.25 m, 120 mm beyond; Z_REFL 100 mm)"
)

# "general_formula": S = K*T + D_DS + Z; D_DS = the largest of D_DO (reach
# over), D_DT (reach through), D_DU (reach under); two sources (Leuze, GT).
FORMULA_2024 = Sourced((LEUZE_WIZ2024, GT_2024_PAR, PLCDESK_CODE), True)
# "approach_speeds": orthogonal K = 2000 mm/s, 1600 if S > 500 mm (Leuze);
# parallel K = 1600 mm/s (GT): one source per case.
K_2024_ORTHOGONAL = Sourced((LEUZE_WIZ2024,), False)
K_2024_PARALLEL = Sourced((GT_2024_PAR,), False)
# "orthogonal_D_DS" -> "D_DT": d <= 40: 8(d - 14), S >= 100 mm; 40 < d <= 55:
# 208 + 12(d - 40), S >= 500 mm; 55 < d <= 120: 850, K 1600. One code source
# whose author calls the 2024 values "free interpretations": low certainty.
D_DT_2024 = Sourced((PLCDESK_CODE,), False)
D_DT_FINE_MAX_MM = 40
D_DT_MID_MAX_MM = 55
D_DT_MAX_MM = 120
D_DT_MID_BASE_MM = 208  # 208 + 12(d - 40)
D_DT_MID_PER_MM = 12
D_DT_COARSE_MM = 850
S_MIN_FINE_MM = 100  # d <= 40
S_MIN_MID_MM = 500  # 40 < d <= 55
# "orthogonal_D_DS" -> "D_DU": 8(d + H_DB - 14), H_DB (the gap beneath the
# detection zone) <= 300 mm. One secondary source: low certainty.
D_DU_2024 = Sourced((PLCDESK_CODE,), False)
D_DU_GAP_MAX_MM = 300
# "orthogonal_D_DS" -> "D_DO": from a table (top of the detection zone vs the
# hazard height). The 2024 table was NOT read and the 2010 Table 1 may differ:
# the app has no D_DO of its own; the user gives it from their copy.
# "parallel_approach": S = (K*T) + D_DS + Z, K 1600, D_DS 1200 mm; H_D >=
# 15(d_e - 50); 0 <= H_D <= 1000 mm; H_D > 200 mm -> risk of undetected access
# below the zone. One source (gt-engineering, 2024 text).
PARALLEL_2024 = Sourced((GT_2024_PAR,), False)
PARALLEL_2024_D_DS_MM = 1200
PARALLEL_2024_H_MAX_MM = 1000
PARALLEL_2024_CRAWL_UNDER_H_MM = 200
# "general_formula" -> "note": what Z covers, from vendor practice (scanner
# supplements that date from the 2010 edition): examples only, never assumed.
Z_EXAMPLES = Sourced((SICK_MS3PRO, LEUZE_WIZ2010), False)
