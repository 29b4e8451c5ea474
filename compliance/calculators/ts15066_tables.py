"""ISO/TS 15066:2016 Annex A body model as typed data (Tables A.2 and A.3).

12 body regions with 29 areas: quasi-static and transient force limits (Table A.2),
quasi-static and transient pressure limits per area (Table A.2), the effective
spring constant k and effective body mass m_H per region (Table A.3).

Every figure is copied from the reference data ``ts15066_body_regions.json``
("regions"); the sources and ``confirmed_two_sources`` of each region and area
are kept beside it as ``sources`` and ``certainty``. Transient values are the
reference's own figures (twice the quasi-static ones, Table A.2 footnote c),
not computed here; skull/forehead and face have none (null in the reference).

The area ids are our own slugs. The reference's area numbers are only an
ordering (its "area_numbering_note"), so they are not used as ISO labels.

Also here: the Table A.4 energy value the reference read (back and shoulders)
and, for speed and separation monitoring, the intrusion distance C of a
horizontal protective field from the reference data ``iso13855.json``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict

from compliance.calculators.base import Certainty, gettext_noop

# Reference "sources" (keys A-H) and the SSM formula's second source.
SRC_A = (
    "GitHub code: ROS2 PFL/SSM SafetyController docstring reproducing ISO/TS 15066 "
    "Tables A.2 and A.3 and the Annex A formulas"
)
SRC_B = (
    "Public research note stating it was read from the licensed copy at "
    "https://www.diag.uniroma1.it/deluca/pHRI_elective/ISO_TS_15066_2016_en.pdf "
    "(Table A.2 incl. non-dominant values, footnotes, clause A.3)"
)
SRC_C = (
    "https://safety.stimba.sk/en/pfl (PFL calculator page: transient forces, back "
    "k=35 N/mm, m_H=40 kg, p_T=320 N/cm2, E<=2.50 J from Table A.4)"
)
SRC_D = (
    "https://inmotion-v2-preview.pages.dev (ISO/TS 15066 effective spring "
    "constants page)"
)
SRC_F = "GitHub human_robot_collision RL code (effective body masses per region)"
SRC_G = (
    "forum-mensch-roboter.de (German summary: Univ. Mainz pain-onset study, "
    "100 adults, 29 areas, 75th percentile)"
)
SRC_H = "robotiq community forum thread (effective robot mass m_R = M/2 + m_L)"
SRC_SSM_COURSE = (
    "Public open-source code (course code separationDistance: S_h = v_h(T_r+T_s), "
    "S_r = v_r T_r, S_s = v_r T_s/2)"
)

# "transient_multiplier": value 2, exceptions skull_forehead and face; sources B, C.
TRANSIENT_MULTIPLIER = 2
TRANSIENT_MULTIPLIER_SOURCES = (SRC_B, SRC_C)

# "formulas": m_R (A, H); reduced mass, energy, max relative speed (A, C); SSM
# separation distance (A, course code). All confirmed_two_sources: true.
PFL_FORMULA_SOURCES = (SRC_A, SRC_C, SRC_H)
SSM_FORMULA_SOURCES = (SRC_A, SRC_SSM_COURSE)

# "body_model": 1.4 cm x 1.4 cm probe of the Univ. Mainz pain-onset study (B, G).
PRESSURE_PROBE_SIDE_CM = 1.4
BODY_MODEL_SOURCES = (SRC_B, SRC_G)

# "table_A4_energy": only the back and shoulders value was read (source C only,
# confirmed_two_sources: false). The reference notes it is 420^2/(2*35000) =
# 2.52 J rounded to 2.5 J in the TS. It gives the energy route v = sqrt(2E/mu)
# for that region only; a value confirmed from the licensed standard for
# another region belongs here, with its source (none other was read).
TABLE_A4_ENERGY_READ_J: dict[str, float] = {"back_shoulders": 2.5}
TABLE_A4_SOURCES = (SRC_C,)
TABLE_A4_CERTAINTY = Certainty.ONE_SOURCE


# Intrusion distance C of a horizontal protective field (SSM), from the reference
# data ``iso13855.json`` "parallel_approach" (confirmed_two_sources: true):
# C = 1200 - 0.4 H, C_min_mm 850, H_max_mm 1000; "d <= H/15 + 50 (scanner field
# at height H)"; "above H = 300 mm a crawl-under risk must be assessed". Copied
# here (as in ``iso13855_tables``) so that SSM does not depend on the ISO 13855
# calculator modules. The reference gives no clause numbers; 6.3 is the clause
# the ISO 13855 calculator cites for the parallel approach.
HORIZONTAL_FIELD_CLAUSE = (
    "ISO 13855:2010, 6.3 (detection zone parallel to the approach)"
)
HORIZONTAL_C_BASE_MM = 1200
HORIZONTAL_C_PER_MM_H = 0.4
HORIZONTAL_C_MIN_MM = 850
HORIZONTAL_H_MAX_MM = 1000
HORIZONTAL_H_PER_MM_D = 15  # d <= H/15 + 50
HORIZONTAL_D_OFFSET_MM = 50
HORIZONTAL_CRAWL_UNDER_H_MM = 300
HORIZONTAL_FIELD_SOURCES = (
    "Datalogic safety light curtain manual (beam heights; parallel approach)",
    "ReeR EOS4 / safety guide (beam heights; parallel approach)",
    "SICK microScan3 operating instructions (horizontal protective field "
    "C = 1200 - 0.4H; d_r = H/15 + 50)",
    "https://manualslib.fr/manual/392675/Schmersal-Slc-210.html?page=36 "
    "(S = 1600(t1+t2) + 1200 - 0.4H, H < 1 m, H = 15(D-50))",
    "https://www.gt-engineering.it/en/technical-standards/en-iso-standards/"
    "en-iso-13855/ (clause pages 5, 8 two-hand, 9 parallel approach, mats)",
    "Public open-source code (Python lookups for ISO 13855:2010/13857:2019/"
    "13854:2017; header says values are vendor reproductions from Troax, ReeR, "
    "Datalogic, ABB, Axelent; VERIFIED=False)",
)
HORIZONTAL_FIELD_CERTAINTY = Certainty.TWO_SOURCES


class BodyRegion(StrEnum):
    """The 12 body regions of ISO/TS 15066 Annex A (reference "region_id")."""

    SKULL_FOREHEAD = "skull_forehead"
    FACE = "face"
    NECK = "neck"
    BACK_SHOULDERS = "back_shoulders"
    CHEST = "chest"
    ABDOMEN = "abdomen"
    PELVIS = "pelvis"
    UPPER_ARMS_ELBOWS = "upper_arms_elbows"
    LOWER_ARMS_WRISTS = "lower_arms_wrists"
    HANDS_FINGERS = "hands_fingers"
    THIGHS_KNEES = "thighs_knees"
    LOWER_LEGS = "lower_legs"


class BodyArea(StrEnum):
    """The 29 body areas, head to foot, dominant hand before non-dominant."""

    MIDDLE_OF_FOREHEAD = "middle_of_forehead"
    TEMPLE = "temple"
    MASTICATORY_MUSCLE = "masticatory_muscle"
    NECK_MUSCLE = "neck_muscle"
    SEVENTH_NECK_MUSCLE = "seventh_neck_muscle"
    SHOULDER_JOINT = "shoulder_joint"
    FIFTH_LUMBAR_VERTEBRA = "fifth_lumbar_vertebra"
    STERNUM = "sternum"
    PECTORAL_MUSCLE = "pectoral_muscle"
    ABDOMINAL_MUSCLE = "abdominal_muscle"
    PELVIC_BONE = "pelvic_bone"
    DELTOID_MUSCLE = "deltoid_muscle"
    HUMERUS = "humerus"
    RADIAL_BONE = "radial_bone"
    FOREARM_MUSCLE = "forearm_muscle"
    ARM_NERVE = "arm_nerve"
    FOREFINGER_PAD_DOMINANT = "forefinger_pad_dominant"
    FOREFINGER_PAD_NON_DOMINANT = "forefinger_pad_non_dominant"
    FOREFINGER_END_JOINT_DOMINANT = "forefinger_end_joint_dominant"
    FOREFINGER_END_JOINT_NON_DOMINANT = "forefinger_end_joint_non_dominant"
    THENAR_EMINENCE = "thenar_eminence"
    PALM_DOMINANT = "palm_dominant"
    PALM_NON_DOMINANT = "palm_non_dominant"
    BACK_OF_HAND_DOMINANT = "back_of_hand_dominant"
    BACK_OF_HAND_NON_DOMINANT = "back_of_hand_non_dominant"
    THIGH_MUSCLE = "thigh_muscle"
    KNEECAP = "kneecap"
    MIDDLE_OF_SHIN = "middle_of_shin"
    CALF_MUSCLE = "calf_muscle"


HandSide = Literal["dominant", "non-dominant"]


class BodyAreaRow(BaseModel):
    """One body area of Table A.2 with its pain-onset pressure limits."""

    model_config = ConfigDict(frozen=True)

    area_id: BodyArea
    name: str  # English, marked with gettext_noop
    hand_side: HandSide | None
    pressure_quasi_static_n_cm2: float
    pressure_transient_n_cm2: float | None  # None: no transient contact permitted
    certainty: Certainty
    sources: tuple[str, ...]


class BodyRegionRow(BaseModel):
    """One body region: force limits (Table A.2), k and m_H (Table A.3), its areas.

    ``certainty`` is that of the region's force, k and m_H figures; each area
    carries its own (the non-dominant hand pressures rest on one source).
    """

    model_config = ConfigDict(frozen=True)

    region_id: BodyRegion
    name: str  # English, marked with gettext_noop
    force_quasi_static_n: float
    force_transient_n: float | None  # None: no transient contact permitted
    transient_permitted: bool
    spring_constant_n_mm: float
    body_effective_mass_kg: float
    areas: tuple[BodyAreaRow, ...]
    certainty: Certainty
    sources: tuple[str, ...]


_TWO = Certainty.TWO_SOURCES
_ONE = Certainty.ONE_SOURCE
_AB = (SRC_A, SRC_B)
_B = (SRC_B,)


def _area(
    area_id: BodyArea,
    name: str,
    p_qs: float,
    p_t: float | None,
    hand_side: HandSide | None = None,
    certainty: Certainty = _TWO,
    sources: tuple[str, ...] = _AB,
) -> BodyAreaRow:
    return BodyAreaRow(
        area_id=area_id,
        name=name,
        hand_side=hand_side,
        pressure_quasi_static_n_cm2=p_qs,
        pressure_transient_n_cm2=p_t,
        certainty=certainty,
        sources=sources,
    )


# Values: reference "regions" (F_quasi_static_N, F_transient_N, k_N_per_mm,
# m_H_kg, and per area p_quasi_static_N_per_cm2, p_transient_N_per_cm2).
# Every region has confirmed_two_sources: true; every area too except the four
# non-dominant hand areas (source B only).
BODY_REGIONS: tuple[BodyRegionRow, ...] = (
    BodyRegionRow(
        region_id=BodyRegion.SKULL_FOREHEAD,
        name=gettext_noop("Skull and forehead"),
        force_quasi_static_n=130,
        force_transient_n=None,
        transient_permitted=False,
        spring_constant_n_mm=150,
        body_effective_mass_kg=4.4,
        areas=(
            _area(
                BodyArea.MIDDLE_OF_FOREHEAD,
                gettext_noop("Middle of forehead"),
                130,
                None,
            ),
            _area(BodyArea.TEMPLE, gettext_noop("Temple"), 110, None),
        ),
        certainty=_TWO,
        sources=(SRC_A, SRC_B, SRC_D, SRC_F),
    ),
    BodyRegionRow(
        region_id=BodyRegion.FACE,
        name=gettext_noop("Face"),
        force_quasi_static_n=65,
        force_transient_n=None,
        transient_permitted=False,
        spring_constant_n_mm=75,
        body_effective_mass_kg=4.4,
        areas=(
            _area(
                BodyArea.MASTICATORY_MUSCLE,
                gettext_noop("Masticatory muscle"),
                110,
                None,
            ),
        ),
        certainty=_TWO,
        sources=(SRC_A, SRC_B, SRC_D, SRC_F),
    ),
    BodyRegionRow(
        region_id=BodyRegion.NECK,
        name=gettext_noop("Neck"),
        force_quasi_static_n=150,
        force_transient_n=300,
        transient_permitted=True,
        spring_constant_n_mm=50,
        body_effective_mass_kg=1.2,
        areas=(
            _area(BodyArea.NECK_MUSCLE, gettext_noop("Neck muscle"), 140, 280),
            _area(
                BodyArea.SEVENTH_NECK_MUSCLE,
                gettext_noop("Seventh neck muscle"),
                210,
                420,
            ),
        ),
        certainty=_TWO,
        sources=(SRC_A, SRC_B, SRC_D, SRC_F),
    ),
    BodyRegionRow(
        region_id=BodyRegion.BACK_SHOULDERS,
        name=gettext_noop("Back and shoulders"),
        force_quasi_static_n=210,
        force_transient_n=420,
        transient_permitted=True,
        spring_constant_n_mm=35,
        body_effective_mass_kg=40,
        areas=(
            _area(BodyArea.SHOULDER_JOINT, gettext_noop("Shoulder joint"), 160, 320),
            _area(
                BodyArea.FIFTH_LUMBAR_VERTEBRA,
                gettext_noop("Fifth lumbar vertebra"),
                210,
                420,
            ),
        ),
        certainty=_TWO,
        sources=(SRC_A, SRC_B, SRC_C, SRC_F),
    ),
    BodyRegionRow(
        region_id=BodyRegion.CHEST,
        name=gettext_noop("Chest"),
        force_quasi_static_n=140,
        force_transient_n=280,
        transient_permitted=True,
        spring_constant_n_mm=25,
        body_effective_mass_kg=40,
        areas=(
            _area(BodyArea.STERNUM, gettext_noop("Sternum"), 120, 240),
            _area(BodyArea.PECTORAL_MUSCLE, gettext_noop("Pectoral muscle"), 170, 340),
        ),
        certainty=_TWO,
        sources=(SRC_A, SRC_B, SRC_C, SRC_F),
    ),
    BodyRegionRow(
        region_id=BodyRegion.ABDOMEN,
        name=gettext_noop("Abdomen"),
        force_quasi_static_n=110,
        force_transient_n=220,
        transient_permitted=True,
        spring_constant_n_mm=10,
        body_effective_mass_kg=40,
        areas=(
            _area(
                BodyArea.ABDOMINAL_MUSCLE, gettext_noop("Abdominal muscle"), 140, 280
            ),
        ),
        certainty=_TWO,
        sources=(SRC_A, SRC_B, SRC_C, SRC_F),
    ),
    BodyRegionRow(
        region_id=BodyRegion.PELVIS,
        name=gettext_noop("Pelvis"),
        force_quasi_static_n=180,
        force_transient_n=360,
        transient_permitted=True,
        spring_constant_n_mm=25,
        body_effective_mass_kg=40,
        areas=(_area(BodyArea.PELVIC_BONE, gettext_noop("Pelvic bone"), 210, 420),),
        certainty=_TWO,
        sources=(SRC_A, SRC_B, SRC_C, SRC_F),
    ),
    BodyRegionRow(
        region_id=BodyRegion.UPPER_ARMS_ELBOWS,
        name=gettext_noop("Upper arms and elbow joints"),
        force_quasi_static_n=150,
        force_transient_n=300,
        transient_permitted=True,
        spring_constant_n_mm=30,
        body_effective_mass_kg=3,
        areas=(
            _area(BodyArea.DELTOID_MUSCLE, gettext_noop("Deltoid muscle"), 190, 380),
            _area(BodyArea.HUMERUS, gettext_noop("Humerus"), 220, 440),
        ),
        certainty=_TWO,
        sources=(SRC_A, SRC_B, SRC_C, SRC_F),
    ),
    BodyRegionRow(
        region_id=BodyRegion.LOWER_ARMS_WRISTS,
        name=gettext_noop("Lower arms and wrist joints"),
        force_quasi_static_n=160,
        force_transient_n=320,
        transient_permitted=True,
        spring_constant_n_mm=40,
        body_effective_mass_kg=2,
        areas=(
            _area(BodyArea.RADIAL_BONE, gettext_noop("Radial bone"), 190, 380),
            _area(BodyArea.FOREARM_MUSCLE, gettext_noop("Forearm muscle"), 180, 360),
            _area(BodyArea.ARM_NERVE, gettext_noop("Arm nerve"), 180, 360),
        ),
        certainty=_TWO,
        sources=(SRC_A, SRC_B, SRC_C, SRC_F),
    ),
    BodyRegionRow(
        region_id=BodyRegion.HANDS_FINGERS,
        name=gettext_noop("Hands and fingers"),
        force_quasi_static_n=140,
        force_transient_n=280,
        transient_permitted=True,
        spring_constant_n_mm=75,
        body_effective_mass_kg=0.6,
        areas=(
            _area(
                BodyArea.FOREFINGER_PAD_DOMINANT,
                gettext_noop("Forefinger pad (dominant hand)"),
                300,
                600,
                hand_side="dominant",
            ),
            _area(
                BodyArea.FOREFINGER_PAD_NON_DOMINANT,
                gettext_noop("Forefinger pad (non-dominant hand)"),
                270,
                540,
                hand_side="non-dominant",
                certainty=_ONE,
                sources=_B,
            ),
            _area(
                BodyArea.FOREFINGER_END_JOINT_DOMINANT,
                gettext_noop("Forefinger end joint (dominant hand)"),
                280,
                560,
                hand_side="dominant",
            ),
            _area(
                BodyArea.FOREFINGER_END_JOINT_NON_DOMINANT,
                gettext_noop("Forefinger end joint (non-dominant hand)"),
                220,
                440,
                hand_side="non-dominant",
                certainty=_ONE,
                sources=_B,
            ),
            _area(BodyArea.THENAR_EMINENCE, gettext_noop("Thenar eminence"), 200, 400),
            _area(
                BodyArea.PALM_DOMINANT,
                gettext_noop("Palm (dominant hand)"),
                260,
                520,
                hand_side="dominant",
            ),
            _area(
                BodyArea.PALM_NON_DOMINANT,
                gettext_noop("Palm (non-dominant hand)"),
                260,
                520,
                hand_side="non-dominant",
                certainty=_ONE,
                sources=_B,
            ),
            _area(
                BodyArea.BACK_OF_HAND_DOMINANT,
                gettext_noop("Back of the hand (dominant hand)"),
                200,
                400,
                hand_side="dominant",
            ),
            _area(
                BodyArea.BACK_OF_HAND_NON_DOMINANT,
                gettext_noop("Back of the hand (non-dominant hand)"),
                190,
                380,
                hand_side="non-dominant",
                certainty=_ONE,
                sources=_B,
            ),
        ),
        certainty=_TWO,
        sources=(SRC_A, SRC_B, SRC_C, SRC_F),
    ),
    BodyRegionRow(
        region_id=BodyRegion.THIGHS_KNEES,
        name=gettext_noop("Thighs and knees"),
        force_quasi_static_n=220,
        force_transient_n=440,
        transient_permitted=True,
        spring_constant_n_mm=50,
        body_effective_mass_kg=75,
        areas=(
            _area(BodyArea.THIGH_MUSCLE, gettext_noop("Thigh muscle"), 250, 500),
            _area(BodyArea.KNEECAP, gettext_noop("Kneecap"), 220, 440),
        ),
        certainty=_TWO,
        sources=(SRC_A, SRC_B, SRC_D, SRC_F),
    ),
    BodyRegionRow(
        region_id=BodyRegion.LOWER_LEGS,
        name=gettext_noop("Lower legs"),
        force_quasi_static_n=130,
        force_transient_n=260,
        transient_permitted=True,
        spring_constant_n_mm=60,
        body_effective_mass_kg=75,
        areas=(
            _area(BodyArea.MIDDLE_OF_SHIN, gettext_noop("Middle of shin"), 220, 440),
            _area(BodyArea.CALF_MUSCLE, gettext_noop("Calf muscle"), 210, 420),
        ),
        certainty=_TWO,
        sources=(SRC_A, SRC_B, SRC_D, SRC_F),
    ),
)

REGIONS_BY_ID: dict[BodyRegion, BodyRegionRow] = {r.region_id: r for r in BODY_REGIONS}
