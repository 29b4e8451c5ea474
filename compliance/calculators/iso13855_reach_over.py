"""ISO 13855:2010, 6.5 and Table 1: reaching over a vertical detection zone.

A light curtain or light grid that can be reached over must be at least
S_RO = K × T + C_RO from the hazard zone, C_RO from Table 1 by the height a of
the hazard zone and the height b of the upper edge of the detection zone; the
device's distance is then S = max(S_RT, S_RO), S_RT being the reach-through
distance by detection capability. For S_RO, K = 2000 mm/s first; if that gives
more than 500 mm, K = 1600 mm/s.

Table 1 and the rules are copied from the reference data
``iso13855_additions.json`` (``c_ro_table_2010``, ``s_max_rule``) via
``iso13855_tables``. The table rests on one full public copy (Schmersal);
where it has no value (the misprinted cell, or a or b outside it) S_RO cannot
be determined and the result says so: it needs evidence, never a pass. This
module is the lookup and S_RO; ``iso13855`` combines it with S_RT. Pure Python,
no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from compliance.calculators import iso13855_tables as tables
from compliance.calculators.base import Line, fmt, gettext_noop
from compliance.calculators.iso13855_common import distance, line, num

CLAUSE_REACH_OVER = "ISO 13855:2010, 6.5 and Table 1 (reaching over, C_RO)"

B_MIN_MM = tables.C_RO_B_COLUMNS_MM[0]
B_MAX_MM = tables.C_RO_B_COLUMNS_MM[-1]
ROWS_A_MM: tuple[int, ...] = tuple(sorted(tables.C_RO_ROWS_MM))
A_MAX_MM = ROWS_A_MM[-1]

# Whole sentences, so that each translates as one message; the numbers in them
# are the reference figures (a test checks they match).
REASON_B_OUTSIDE = gettext_noop(
    "S_RO cannot be determined: ISO 13855:2010 Table 1, as reproduced in the "
    "reference data, covers an upper edge of the detection zone b from 900 mm to "
    "2600 mm only, and it is not extrapolated. This needs evidence: check the "
    "distance against the standard, or change the height of the detection zone."
)
REASON_A_OUTSIDE = gettext_noop(
    "S_RO cannot be determined: ISO 13855:2010 Table 1, as reproduced in the "
    "reference data, covers hazard zones up to a height a of 2600 mm only, and it "
    "is not extrapolated. This needs evidence: check the distance against the "
    "standard."
)
REASON_MISPRINT = gettext_noop(
    "S_RO cannot be determined: the ISO 13855:2010 Table 1 cell needed (a = 1200 "
    "mm, b = 1300 mm) is misprinted as '85' in the only full copy read, so it has "
    "no value (along its row it lies between 800 mm and 1000 mm). This needs "
    "evidence: read the cell in the standard, or raise the upper edge of the "
    "detection zone to at least 1400 mm."
)


@dataclass(frozen=True)
class CroLookup:
    """C_RO read from Table 1 for a hazard zone from a_lower to a_upper."""

    c_ro_mm: int | None  # None: see reason
    column_b_mm: int | None
    row_a_mm: int | None  # the row that gave the largest C_RO
    rows_a_mm: tuple[int, ...]  # every row read
    steps: tuple[Line, ...]
    reason: str | None = None
    corroborated: bool = False  # every cell read is confirmed by a second source


def _cell(a_mm: int, b_mm: int) -> int | None:
    return tables.C_RO_ROWS_MM[a_mm][tables.C_RO_B_COLUMNS_MM.index(b_mm)]


def _rows_spanned(a_lower: float, a_upper: float) -> tuple[int, ...]:
    """The table rows a hazard zone from a_lower to a_upper needs read.

    Between two rows both are read (the larger C_RO is used), so the span runs
    from the row at or below a_lower to the row at or above a_upper.
    """
    first = max(r for r in ROWS_A_MM if r <= a_lower)
    last = min(r for r in ROWS_A_MM if r >= a_upper)
    return tuple(r for r in ROWS_A_MM if first <= r <= last)


def _cell_text(a_mm: int, c_mm: int | None) -> str:
    if c_mm is None:
        return f"a = {fmt(a_mm)}: — ('{tables.C_RO_DEFECT_PRINTED}', no value)"
    return f"a = {fmt(a_mm)}: {fmt(c_mm)}"


def lookup_c_ro(a_lower_mm: float, a_upper_mm: float, b_mm: float) -> CroLookup:
    """C_RO for a hazard zone spanning a_lower_mm..a_upper_mm (one height: both
    equal) behind a detection zone whose upper edge is at b_mm.

    No interpolation: b is rounded down to a column (C_RO never rises with b);
    every row the zone spans, and the rows either side of its ends, is read
    and the largest C_RO is used. Outside the table, or on its misprinted cell,
    there is no value.
    """
    a_lower_mm, a_upper_mm = sorted((a_lower_mm, a_upper_mm))
    if not B_MIN_MM <= b_mm <= B_MAX_MM:
        step = line(
            gettext_noop("Upper edge of the detection zone outside Table 1"),
            f"b = {num(b_mm)} mm; Table 1: {fmt(B_MIN_MM)} mm ≤ b ≤ {fmt(B_MAX_MM)} mm",
        )
        return CroLookup(None, None, None, (), (step,), REASON_B_OUTSIDE)
    if a_upper_mm > A_MAX_MM:
        step = line(
            gettext_noop("Hazard zone higher than Table 1 covers"),
            f"a = {num(a_upper_mm)} mm > {fmt(A_MAX_MM)} mm",
        )
        return CroLookup(None, None, None, (), (step,), REASON_A_OUTSIDE)

    column = max(col for col in tables.C_RO_B_COLUMNS_MM if col <= b_mm)
    steps = [
        line(
            gettext_noop(
                "Column of ISO 13855:2010 Table 1: the upper edge b is rounded down "
                "to a table column (a lower edge never needs less C_RO, so this is "
                "the cautious side; no interpolation)"
            ),
            f"b = {num(b_mm)} mm (table column)"
            if column == b_mm
            else f"b = {num(b_mm)} mm → column b = {fmt(column)} mm",
        )
    ]
    rows = _rows_spanned(a_lower_mm, a_upper_mm)
    cells = [(row, _cell(row, column)) for row in rows]
    listed = "; ".join(_cell_text(row, c) for row, c in cells)
    zone = (
        f"a = {num(a_upper_mm)} mm"
        if a_lower_mm == a_upper_mm
        else f"a = {num(a_lower_mm)} … {num(a_upper_mm)} mm"
    )
    if a_lower_mm == a_upper_mm and len(rows) == 1:
        text = gettext_noop("Row of Table 1: the hazard height a is a table row")
    elif a_lower_mm == a_upper_mm:
        text = gettext_noop(
            "Rows of Table 1: a hazard height between two rows takes the larger "
            "C_RO of the two (the table peaks near a = 1000 to 1400 mm, so "
            "rounding a up is not always cautious)"
        )
    else:
        text = gettext_noop(
            "Rows of Table 1: every row the hazard zone spans, and the rows either "
            "side of its ends, is read, and the largest C_RO is used"
        )
    missing = [row for row, c in cells if c is None]
    if missing:
        steps.append(line(text, f"{zone}: C_RO (mm): {listed} → no value"))
        return CroLookup(None, column, None, rows, tuple(steps), REASON_MISPRINT)

    known = [(row, c) for row, c in cells if c is not None]
    row_a, c_ro = max(known, key=lambda cell: cell[1])
    read = f"{zone}: " if len(rows) == 1 else f"{zone}: C_RO (mm): {listed} → "
    steps.append(line(text, f"{read}C_RO = {fmt(c_ro)} mm"))
    corroborated = all((row, column) in tables.C_RO_CORROBORATED for row in rows)
    return CroLookup(c_ro, column, row_a, rows, tuple(steps), None, corroborated)


@dataclass(frozen=True)
class ReachOverPart:
    """S_RO = K × T + C_RO with its working, or why it cannot be given."""

    s_ro_mm: float | None  # None: see lookup.reason
    k_mm_s: int | None
    lookup: CroLookup
    steps: tuple[Line, ...]
    warnings: tuple[Line, ...]
    groups: tuple[tables.Sourced, ...]


def _s_ro(k_mm_s: int, t_ms: float, c_mm: float) -> tuple[float, str]:
    """S_RO = K × T + C_RO: the 2010 formula, reaching over."""
    return distance(k_mm_s, t_ms, c_mm, symbol="S_RO")


def _k_procedure(t_ms: float, c_ro: float) -> tuple[float, int, list[Line], bool]:
    """S_RO with K = 2000 mm/s, or 1600 mm/s (not below 500 mm) above 500 mm.

    Returns S_RO, K, the working and whether the 500 mm floor raised S_RO.
    """
    fast, formula = _s_ro(tables.K_HAND_ARM_MM_S, t_ms, c_ro)
    steps = [line(gettext_noop("First with K = 2000 mm/s"), formula)]
    if fast <= tables.ESPE_S_SWITCH_MM:
        return fast, tables.K_HAND_ARM_MM_S, steps, False
    slow, formula = _s_ro(tables.K_WALKING_MM_S, t_ms, c_ro)
    s_ro = max(slow, float(tables.ESPE_S_SWITCH_MM))
    steps.append(
        line(
            gettext_noop(
                "S_RO is over 500 mm: recalculate with K = 1600 mm/s, but not "
                "less than 500 mm"
            ),
            f"{formula} → S_RO = max({num(slow)}, 500) = {num(s_ro)} mm",
        )
    )
    return s_ro, tables.K_WALKING_MM_S, steps, slow < tables.ESPE_S_SWITCH_MM


def reach_over_part(
    t_ms: float, a_lower_mm: float, a_upper_mm: float, b_mm: float
) -> ReachOverPart:
    """S_RO for overall stopping performance t_ms (ISO 13855:2010, 6.5)."""
    lookup = lookup_c_ro(a_lower_mm, a_upper_mm, b_mm)
    header = line(
        gettext_noop(
            "Reaching over the detection zone: S_RO = K × T + C_RO, with C_RO "
            "from ISO 13855:2010 Table 1 by the hazard height a and the upper "
            "edge b of the detection zone"
        )
    )
    steps = [header, *lookup.steps]
    warnings: list[Line] = []
    if lookup.c_ro_mm is None:
        if lookup.reason == REASON_MISPRINT:
            # The reference bounds the cell (at most 1000 mm): shown so that the
            # engineer sees what is at stake, never used for a verdict.
            bound, _, _, _ = _k_procedure(t_ms, float(tables.C_RO_DEFECT_FALLBACK_MM))
            warnings.append(
                line(
                    gettext_noop(
                        "If the misprinted cell is at most 1000 mm, as its row "
                        "suggests, S_RO would be at most this; it is not used as a "
                        "result until the cell is read in the standard"
                    ),
                    f"C_RO ≤ {fmt(tables.C_RO_DEFECT_FALLBACK_MM)} mm → S_RO ≤ "
                    f"{num(bound)} mm",
                )
            )
        return ReachOverPart(
            None, None, lookup, tuple(steps), tuple(warnings), (tables.C_RO_TABLE,)
        )

    s_ro, k_mm_s, k_steps, floored = _k_procedure(t_ms, float(lookup.c_ro_mm))
    steps += k_steps
    if floored:
        warnings.append(
            line(
                gettext_noop(
                    "S_RO is kept at 500 mm after switching to K = 1600 mm/s. The "
                    "reference states this floor for the reach-through distance "
                    "only; it is applied to S_RO as a cautious bound (it only makes "
                    "S_RO larger). Check it against the standard."
                )
            )
        )
    if lookup.corroborated:
        groups: tuple[tables.Sourced, ...] = (
            tables.S_MAX_RULE,
            tables.C_RO_CELL_CORROBORATED,
        )
    else:
        groups = (tables.S_MAX_RULE, tables.C_RO_TABLE)
        warnings.append(
            line(
                gettext_noop(
                    "ISO 13855:2010 Table 1 (C_RO) rests on one full public copy "
                    "(a vendor manual); the cells read are not confirmed by a "
                    "second source; check the value against the standard"
                ),
                f"b = {fmt(lookup.column_b_mm or 0)} mm; a = "
                + ", ".join(fmt(r) for r in lookup.rows_a_mm)
                + " mm",
            )
        )
    return ReachOverPart(s_ro, k_mm_s, lookup, tuple(steps), tuple(warnings), groups)


def not_checked_warning(a_mm: float | None, b_mm: float | None) -> Line:
    """S_RO was not checked: the hazard height a or the upper edge b is missing."""
    given = [
        f"{name} = {'—' if value is None else num(value) + ' mm'}"
        for name, value in (("a", a_mm), ("b", b_mm))
    ]
    return line(
        gettext_noop(
            "Reaching over the detection zone is not checked: S must also be at "
            "least S_RO = K × T + C_RO, with C_RO from ISO 13855:2010 Table 1 by the "
            "height of the hazard zone a and of the upper edge of the detection "
            "zone b. Give both to check it; until then this distance covers "
            "reaching through only."
        ),
        "; ".join(given),
    )
