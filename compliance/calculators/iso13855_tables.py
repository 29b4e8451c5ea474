"""ISO 13855 constants as typed data, copied from the shared reference file.

Every figure comes from ``/work/shared/reference/iso13855.json`` (the key is
named beside each constant), with the public sources that reproduce it and
whether two independent sources agree (``confirmed_two_sources``). The
standard itself was not read: these are the values as vendors and public code
reproduce them (ISO 13855:2010 basis).
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
# "C_RO_table": null (not found). Used for a warning only, never for a figure.
REACH_OVER = Sourced((SICK_DETEM,), False)
