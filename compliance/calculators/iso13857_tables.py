"""ISO 13857:2019 tables as typed data, copied from the project reference.

Every number here is copied from the reference data ``iso13857_tables.json``
(the key is named in a comment beside each table). The standard itself was not
read: the values are as reproduced by vendors and public code, and each table
carries its source list and whether two independent sources agree
(``confirmed_two_sources``). Pure Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# The source descriptions, verbatim from the reference's "sources" block.
SRC_CODE13857 = (
    "Public open-source code (ISO 13857:2019 Tables 2/4/7 lookups; header: vendor "
    "reproductions from Troax, ReeR, Datalogic, ABB, Axelent; 'nothing was compared "
    "with a purchased standard text')"
)
SRC_JS_T1 = (
    "Public open-source code (JavaScript findISOHorzDist_lowRisk, ISO 13857 Table 1 "
    "array; interpolates between cells)"
)
SRC_SFG = (
    "http://safetyfenceguarding.com/mediacentre/safetydistance/ (protective "
    "structures, openings, ground clearance pages)"
)
SRC_GT = (
    "https://www.gt-engineering.it/en/technical-standards/en-iso-standards/ "
    "(ISO 13857 pages)"
)
SRC_AXELENT = "https://www.axelent.co.uk/safety-book/machine-safety/robot-safety"
# table2_high_risk.verified_cells[*].source
SRC_TROAX = "Troax survey values as cited in " + SRC_CODE13857
# korea_fence_height.source
SRC_KR_LAW = "9bow/legalize-kr kr/산업안전보건기준에관한규칙/고용노동부령.md"
SRC_KR_RAINBOW = "https://rainbowrobotics.github.io/rb_cobot_docs/manual/appendix/rules"

Risk = Literal["low", "high"]
OpeningShape = Literal["slot", "square", "round"]


# --- Reaching upwards (4.2.1) and the reaching-over rules (4.2.2) -----------


@dataclass(frozen=True)
class ReachingUpwards:
    """Height at or above which a hazard zone is out of reach upwards."""

    min_height_mm: dict[str, int]  # by risk: "low" / "high"
    sources: tuple[str, ...]
    confirmed_two_sources: bool


# reference: reaching_upwards (low_risk_min_height_h_mm, high_risk_min_height_h_mm)
REACHING_UPWARDS = ReachingUpwards(
    min_height_mm={"low": 2500, "high": 2700},
    sources=(SRC_GT, SRC_SFG, SRC_CODE13857),
    confirmed_two_sources=True,
)


@dataclass(frozen=True)
class ReachOverRules:
    """The reaching-over rules around Tables 1 and 2."""

    # "Protective structures lower than 1000 mm are not taken into account"
    min_structure_height_mm: int
    # "High risk: structures lower than 1400 mm should not be used without
    # additional safety measures."
    high_risk_min_structure_height_mm: int
    # "Between table values use the value giving the higher safety (no
    # interpolation in the standard ...)"
    interpolation_allowed: bool
    sources: tuple[str, ...]
    confirmed_two_sources: bool


# reference: reaching_over_rules.rules (the numbers are quoted from the rule texts)
REACH_OVER_RULES = ReachOverRules(
    min_structure_height_mm=1000,
    high_risk_min_structure_height_mm=1400,
    interpolation_allowed=False,
    sources=(SRC_GT, SRC_SFG, SRC_CODE13857),
    confirmed_two_sources=True,
)


# --- Tables 1 and 2: reaching over a protective structure -------------------


@dataclass(frozen=True)
class ReachOverRow:
    """One row: hazard height a and the distance c for each structure height b."""

    a_mm: int
    c_mm: tuple[int, ...]  # one per column of the table's b_columns_mm


@dataclass(frozen=True)
class CorroboratedCells:
    """Table cells that a second source confirms, over a range of rows.

    ``a_from_mm``..``a_to_mm`` (inclusive) selects the table rows the
    confirmation covers; a single cell has ``a_from_mm == a_to_mm``.
    """

    a_from_mm: int
    a_to_mm: int
    b_mm: int
    c_mm: int
    source: str


@dataclass(frozen=True)
class ReachOverTable:
    """Table 1 or Table 2 of ISO 13857:2019: rows a, columns b, cells c (mm)."""

    name: Literal["Table 1", "Table 2"]
    risk: Risk
    b_columns_mm: tuple[int, ...]
    rows: tuple[ReachOverRow, ...]  # sorted by a, ascending
    sources: tuple[str, ...]
    confirmed_two_sources: bool
    corroborated: tuple[CorroboratedCells, ...] = ()
    doubtful_rows_a_mm: tuple[int, ...] = ()
    note: str = ""

    def cell(self, a_mm: int, b_mm: int) -> int:
        row = next(r for r in self.rows if r.a_mm == a_mm)
        return row.c_mm[self.b_columns_mm.index(b_mm)]

    def is_corroborated(self, a_mm: int, b_mm: int) -> bool:
        return any(
            c.b_mm == b_mm and c.a_from_mm <= a_mm <= c.a_to_mm
            for c in self.corroborated
        )


# reference: table1_low_risk. Rows copied in ascending a. The reference lists a
# tenth column b = 2700 mm; its note says that column "is an artefact of reusing
# Table 2 columns (low-risk table ends at 2500)", so it is left out here. Every
# cell of it is 0, as is every cell of the b = 2500 column, so a structure of
# 2500 mm or more gets c = 0 either way.
TABLE1_LOW_RISK = ReachOverTable(
    name="Table 1",
    risk="low",
    b_columns_mm=(1000, 1200, 1400, 1600, 1800, 2000, 2200, 2400, 2500),
    rows=(
        ReachOverRow(0, (1100, 500, 0, 0, 0, 0, 0, 0, 0)),
        ReachOverRow(200, (1100, 200, 0, 0, 0, 0, 0, 0, 0)),
        ReachOverRow(400, (1200, 300, 0, 0, 0, 0, 0, 0, 0)),
        ReachOverRow(600, (1200, 500, 0, 0, 0, 0, 0, 0, 0)),
        ReachOverRow(800, (1300, 900, 600, 0, 0, 0, 0, 0, 0)),
        ReachOverRow(1000, (1400, 1000, 900, 300, 0, 0, 0, 0, 0)),
        ReachOverRow(1200, (1400, 1000, 900, 500, 0, 0, 0, 0, 0)),
        ReachOverRow(1400, (1300, 1000, 900, 800, 100, 0, 0, 0, 0)),
        ReachOverRow(1600, (1300, 1000, 900, 900, 500, 0, 0, 0, 0)),
        ReachOverRow(1800, (1100, 1000, 900, 900, 600, 0, 0, 0, 0)),
        ReachOverRow(2000, (1100, 900, 700, 600, 500, 350, 0, 0, 0)),
        ReachOverRow(2200, (600, 600, 500, 500, 400, 350, 250, 0, 0)),
        ReachOverRow(2400, (100, 100, 100, 100, 100, 100, 100, 100, 0)),
        ReachOverRow(2500, (0, 0, 0, 0, 0, 0, 0, 0, 0)),
    ),
    sources=(SRC_JS_T1,),
    confirmed_two_sources=False,
    # reference note: "Row a=0 (1100,500) equals the Table 2 a=0 row and differs
    # from the a=200 row pattern - suspicious, verify against the standard."
    doubtful_rows_a_mm=(0,),
    note="Single source (one public JavaScript file); the a = 0 row is doubtful.",
)

# reference: table2_high_risk. Rows copied in ascending a (the reference lists
# them descending). Only the verified_cells are corroborated; the code they come
# from labels the other cells "recalled ... UNVERIFIED".
TABLE2_HIGH_RISK = ReachOverTable(
    name="Table 2",
    risk="high",
    b_columns_mm=(1000, 1200, 1400, 1600, 1800, 2000, 2200, 2400, 2500, 2700),
    rows=(
        ReachOverRow(0, (1100, 500, 0, 0, 0, 0, 0, 0, 0, 0)),
        ReachOverRow(200, (1200, 900, 0, 0, 0, 0, 0, 0, 0, 0)),
        ReachOverRow(400, (1400, 1200, 400, 0, 0, 0, 0, 0, 0, 0)),
        ReachOverRow(600, (1400, 1300, 800, 0, 0, 0, 0, 0, 0, 0)),
        ReachOverRow(800, (1500, 1300, 900, 600, 0, 0, 0, 0, 0, 0)),
        ReachOverRow(1000, (1500, 1400, 1000, 800, 0, 0, 0, 0, 0, 0)),
        ReachOverRow(1200, (1500, 1400, 1100, 900, 700, 0, 0, 0, 0, 0)),
        ReachOverRow(1400, (1500, 1400, 1100, 900, 800, 0, 0, 0, 0, 0)),
        ReachOverRow(1600, (1500, 1400, 1100, 900, 800, 500, 0, 0, 0, 0)),
        ReachOverRow(1800, (1500, 1400, 1100, 900, 800, 600, 0, 0, 0, 0)),
        ReachOverRow(2000, (1400, 1300, 1100, 900, 800, 600, 400, 0, 0, 0)),
        ReachOverRow(2200, (1300, 1200, 1000, 900, 800, 600, 400, 300, 0, 0)),
        ReachOverRow(2400, (1100, 1000, 900, 800, 700, 600, 400, 300, 100, 0)),
        ReachOverRow(2600, (900, 800, 700, 600, 600, 500, 400, 300, 100, 0)),
        ReachOverRow(2700, (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
    ),
    sources=(SRC_CODE13857,),
    confirmed_two_sources=False,
    # reference: table2_high_risk.verified_cells (11 entries). "<=1000" and
    # "<=1600" cover the table rows from a = 0 up to that height; "all" covers
    # every row.
    corroborated=(
        CorroboratedCells(2000, 2000, 1400, 1100, SRC_TROAX),
        CorroboratedCells(1000, 1000, 1400, 1000, SRC_TROAX),
        CorroboratedCells(400, 400, 1400, 400, SRC_TROAX),
        CorroboratedCells(1400, 1400, 1800, 800, SRC_TROAX),
        CorroboratedCells(1000, 1000, 1800, 0, SRC_TROAX),
        CorroboratedCells(2600, 2600, 2000, 500, SRC_TROAX),
        CorroboratedCells(0, 1000, 2000, 0, SRC_TROAX),
        CorroboratedCells(2600, 2600, 2200, 400, SRC_TROAX),
        CorroboratedCells(0, 1600, 2200, 0, SRC_TROAX),
        CorroboratedCells(2600, 2600, 2500, 100, SRC_TROAX),
        CorroboratedCells(0, 2700, 2700, 0, SRC_TROAX),
    ),
    note="Only the 11 verified cells are corroborated; the rest rest on one source.",
)

REACH_OVER_TABLES: dict[str, ReachOverTable] = {
    "low": TABLE1_LOW_RISK,
    "high": TABLE2_HIGH_RISK,
}


# --- Table 4: reaching through regular openings, persons 14 years and over --


@dataclass(frozen=True)
class OpeningRow:
    """One band of opening sizes: e_min < e <= e_max, distance s_r by shape."""

    e_min_mm: int  # exclusive; 0 for the first band
    e_max_mm: int  # inclusive
    s_r_mm: dict[str, int]  # by shape: "slot" / "square" / "round"
    # The reference names no body parts for the bands, so none are given here.


@dataclass(frozen=True)
class OpeningTable:
    """Table 4 of ISO 13857:2019 with its sources."""

    rows: tuple[OpeningRow, ...]
    sources: tuple[str, ...]
    confirmed_two_sources: bool

    @property
    def max_opening_mm(self) -> int:
        return self.rows[-1].e_max_mm


# reference: table4_regular_openings_14plus.rows (e_max_mm, slot_mm, square_mm,
# round_mm); every row is marked confirmed_two_sources (CODE13857 + SFG).
TABLE4_OPENINGS = OpeningTable(
    rows=(
        OpeningRow(0, 4, {"slot": 2, "square": 2, "round": 2}),
        OpeningRow(4, 6, {"slot": 10, "square": 5, "round": 5}),
        OpeningRow(6, 8, {"slot": 20, "square": 15, "round": 5}),
        OpeningRow(8, 10, {"slot": 80, "square": 25, "round": 20}),
        OpeningRow(10, 12, {"slot": 100, "square": 80, "round": 80}),
        OpeningRow(12, 20, {"slot": 120, "square": 120, "round": 120}),
        OpeningRow(20, 30, {"slot": 850, "square": 120, "round": 120}),
        OpeningRow(30, 40, {"slot": 850, "square": 200, "round": 120}),
        OpeningRow(40, 120, {"slot": 850, "square": 850, "round": 850}),
    ),
    sources=(SRC_CODE13857, SRC_SFG),
    confirmed_two_sources=True,
)

# reference: table4_regular_openings_14plus.description: "opening e (slot
# width / square side / round diameter)": e is a slot's width, its smaller
# side; a rectangle with unequal sides is no square, so it is a slot.
#
# reference: table4_regular_openings_14plus.notes[0]: "Slot 6 < e <= ... : if
# slot length <= 65 mm the thumb acts as a stop and the distance can be
# reduced to 200 mm (safetyfenceguarding)". The upper end of the slot widths
# it covers is cut off in the reference ("..."), so where the reduction would
# decide a verdict the calculator answers "needs evidence".
THUMB_STOP_SLOT_E_GT_MM = 6
THUMB_STOP_SLOT_LENGTH_MM = 65
THUMB_STOP_REDUCED_DISTANCE_MM = 200


# --- Table 7: lower limbs (slots only; incomplete) -----------------------------


@dataclass(frozen=True)
class LowerLimbSlotRow:
    """Slot e_gt < e <= e_le (mm): safety distance s_r (mm)."""

    e_gt_mm: int
    e_le_mm: int
    s_r_mm: int


# reference: table7_lower_limbs_slot_rows. One source; only slot rows above
# 35 mm were found (square/round rows and e <= 35 mm are null): below that the
# gap check in ``iso13857_gaps`` answers "needs evidence".
TABLE7_LOWER_LIMB_SLOTS: tuple[LowerLimbSlotRow, ...] = (
    LowerLimbSlotRow(35, 60, 180),
    LowerLimbSlotRow(60, 80, 650),
    LowerLimbSlotRow(80, 95, 1100),
    LowerLimbSlotRow(95, 180, 1100),
)
# reference: table7_lower_limbs_slot_rows.whole_body_access_mm
WHOLE_BODY_ACCESS_MM: dict[str, int] = {"slot": 180, "square": 240, "round": 240}
TABLE7_SOURCES: tuple[str, ...] = (SRC_CODE13857,)
TABLE7_CONFIRMED_TWO_SOURCES = False


# reference: ground_clearance_table: "values": null. The safetyfenceguarding
# "protective structures/ground clearance" page exists ("if h between values
# use the higher safety distance") but its numbers were not read.
GROUND_CLEARANCE_VALUES: dict[int, int] | None = None
GROUND_CLEARANCE_SOURCES: tuple[str, ...] = (SRC_SFG,)


# --- ISO 13854 minimum gaps (plain data) -------------------------------------

# reference: iso13854_min_gaps_mm. One source; "finger marked unverified in the
# code".
ISO13854_MIN_GAPS_MM: dict[str, int] = {
    "body": 500,
    "head": 300,
    "leg": 180,
    "foot": 120,
    "toes": 50,
    "arm": 120,
    "hand": 100,
    "finger": 25,
}
ISO13854_SOURCES: tuple[str, ...] = (SRC_CODE13857,)
ISO13854_CONFIRMED_TWO_SOURCES = False


# --- Fence notes (plain data for the Korean fence rule) ----------------------


@dataclass(frozen=True)
class SourcedFact:
    """A plain fact from the reference with its sources; no rule check here."""

    key: str
    text: str
    sources: tuple[str, ...]
    confirmed_two_sources: bool
    value_mm: int | None = None
    range_mm: tuple[int, int] | None = None


# reference: korea_fence_height (text, value_mm, source, confirmed_two_sources)
KOREA_FENCE_HEIGHT = SourcedFact(
    key="korea_fence_height",
    text=(
        "Korea OSH Standards Rule Art. 223: fence height >= 1.8 m (may be lower "
        "where no height-related risk given robot range of motion). See "
        "korea_art223.json."
    ),
    sources=(SRC_KR_LAW, SRC_KR_RAINBOW),
    confirmed_two_sources=True,
    value_mm=1800,
)

# reference: robot_fence_clearance (the range is quoted from its text,
# "Keep 120-200 mm clearance ...")
ROBOT_FENCE_CLEARANCE = SourcedFact(
    key="robot_fence_clearance",
    text=(
        "Keep 120-200 mm clearance between the robot's restricted (limited) space "
        "and the outer edge of the fence; fences are meant to keep people out, not "
        "the robot in - use safety-rated soft axis/space limiting (PL d / SIL 2) "
        "or hard stops to limit the robot."
    ),
    sources=(SRC_AXELENT,),
    confirmed_two_sources=False,
    range_mm=(120, 200),
)


@dataclass(frozen=True)
class FenceHeightNote:
    """The fence facts another module needs for the Korean 1.8 m fence rule."""

    korea_fence_height: SourcedFact
    robot_fence_clearance: SourcedFact
    reaching_upwards: ReachingUpwards
    reach_over_rules: ReachOverRules


def fence_height_note() -> FenceHeightNote:
    """The fence height and clearance facts, typed and sourced (data only)."""
    return FenceHeightNote(
        korea_fence_height=KOREA_FENCE_HEIGHT,
        robot_fence_clearance=ROBOT_FENCE_CLEARANCE,
        reaching_upwards=REACHING_UPWARDS,
        reach_over_rules=REACH_OVER_RULES,
    )
