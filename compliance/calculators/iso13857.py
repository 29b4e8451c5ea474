"""ISO 13857:2019 (EN ISO 13857:2019), safety distances to prevent hazard zones
being reached by upper and lower limbs; persons 14 years and over.

- 4.2.1 reaching upwards (the height out of reach: 2500 mm low risk, 2700 mm
  high risk);
- 4.2.2 reaching over a protective structure, Table 1 (low risk) and Table 2
  (high risk): ``iso13857-reach-over`` (here), for one hazard height or for a
  hazard zone spanning a range of heights (the worst row over the range);
- 4.2.4 reaching through regular openings, Table 4 (persons 14 years and
  over): ``iso13857-opening`` (``iso13857_openings``, re-exported here);
- the gap between the floor and a guard's lower edge, Table 7 (lower limbs)
  with Table 4: ``iso13857-gap-under`` (``iso13857_gaps``).

The tables and their sources are in ``iso13857_tables`` (copied from the
reference data ``iso13857_tables.json``). Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, StrictFloat, model_validator

from compliance.calculators.base import (
    CalcInput,
    CalcResult,
    Calculator,
    Certainty,
    Line,
    fmt,
    gettext_noop,
)
from compliance.calculators.iso13857_gaps import (
    CALCULATORS as GAP_CALCULATORS,
)
from compliance.calculators.iso13857_gaps import (
    GapUnderGuardInput,
    GapUnderGuardResult,
    gap_under_guard,
)
from compliance.calculators.iso13857_openings import (
    REASON_OPENING_TOO_LARGE,
    OpeningInput,
    OpeningResult,
    opening,
)
from compliance.calculators.iso13857_tables import (
    REACH_OVER_RULES,
    REACH_OVER_TABLES,
    REACHING_UPWARDS,
    SRC_TROAX,
    ReachOverRow,
    ReachOverTable,
    fence_height_note,
)

__all__ = [
    "CALCULATORS",
    "REASON_OPENING_TOO_LARGE",
    "GapUnderGuardInput",
    "GapUnderGuardResult",
    "OpeningInput",
    "OpeningResult",
    "ReachOverInput",
    "ReachOverResult",
    "fence_height_note",
    "gap_under_guard",
    "opening",
    "reach_over",
]

STANDARD = "ISO 13857:2019"


def _dedupe(*groups: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(s for group in groups for s in group))


def _num(value: float) -> str:
    """An input length for a formula: whole millimetres unless it has a fraction."""
    return fmt(value, 0 if float(value).is_integer() else 1)


# --- Reaching over a protective structure (4.2.2, Tables 1 and 2) -----------

# The reasons are whole sentences so that they translate as one message; the
# numbers in them are the reference figures (a test checks they match).
REASON_OUT_OF_REACH = {
    "low": gettext_noop(
        "No reaching-over distance is needed: the hazard zone is at or above "
        "2500 mm, out of reach upwards for a low risk (ISO 13857:2019, 4.2.1, "
        "reaching upwards)."
    ),
    "high": gettext_noop(
        "No reaching-over distance is needed: the hazard zone is at or above "
        "2700 mm, out of reach upwards for a high risk (ISO 13857:2019, 4.2.1, "
        "reaching upwards)."
    ),
}
REASON_BELOW_MINIMUM = {
    "low": gettext_noop(
        "The structure is too low to count: protective structures lower than "
        "1000 mm are not taken into account for reaching over because they do "
        "not restrict body movement enough. The lowest structure Table 1 allows "
        "is 1000 mm."
    ),
    "high": gettext_noop(
        "The structure is too low to count: protective structures lower than "
        "1000 mm are not taken into account for reaching over, and for a high "
        "risk a structure lower than 1400 mm should not be used without "
        "additional safety measures. Use a structure of at least 1400 mm."
    ),
}
RISK_STEP = {
    "low": gettext_noop("Low risk: reaching over is read from Table 1"),
    "high": gettext_noop("High risk: reaching over is read from Table 2"),
}
REASON_HIGH_RISK_BELOW_1400 = gettext_noop(
    "For a high risk, protective structures lower than 1400 mm should not be used "
    "without additional safety measures, so Table 2 gives no distance to rely on. "
    "Raise the structure to at least 1400 mm, or add other safety measures and "
    "assess them separately."
)


class ReachOverInput(CalcInput):
    """A hazard zone behind a protective structure that a person may reach over."""

    hazard_height_mm: StrictFloat = Field(
        ge=0,
        le=10000,
        description=gettext_noop(
            "Height a of the hazard zone above the floor or access level, in mm "
            "(its highest point that can be reached)."
        ),
    )
    structure_height_mm: StrictFloat = Field(
        gt=0,
        le=10000,
        description=gettext_noop(
            "Height b of the top of the fence or guard above the same level, in mm."
        ),
    )
    risk: Literal["low", "high"] = Field(
        description=gettext_noop(
            "Risk from the risk assessment: low (e.g. friction, abrasion; Table 1) "
            "or high (Table 2). If unsure, choose high."
        ),
    )
    horizontal_distance_mm: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=20000,
        description=gettext_noop(
            "Actual horizontal distance c from the structure to the hazard zone in "
            "the layout, in mm, to check (optional)."
        ),
    )
    hazard_lower_mm: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=10000,
        description=gettext_noop(
            "Lowest height of the hazard zone, in mm, if it spans a range of "
            "heights up to a (e.g. a robot's reach from 0 to 2600 mm): every "
            "height in between is checked and the worst one counts. Leave empty "
            "to check the single height a."
        ),
    )

    @model_validator(mode="after")
    def _range_in_order(self) -> Self:
        lower = self.hazard_lower_mm
        if lower is not None and lower > self.hazard_height_mm:
            raise ValueError(
                "hazard_lower_mm: the lowest height of the hazard zone must not be "
                "above its highest point, hazard_height_mm"
            )
        return self


class ReachOverResult(CalcResult):
    """The horizontal distance c required by Table 1 or Table 2."""

    horizontal_distance_mm: int | None  # None: see reason
    reason: str | None = None  # why there is no distance (marked for translation)
    table: Literal["Table 1", "Table 2"]
    row_a_mm: int | None = None  # the table row that gave c
    column_b_mm: int | None = None  # the table column used
    rows_a_mm: tuple[int, ...] = ()  # every table row read
    sufficient: bool | None = None  # None when no actual distance was given


def _column(table: ReachOverTable, b: float) -> int:
    """The column to use: the next lower structure height gives the larger c."""
    return max(col for col in table.b_columns_mm if col <= b)


def _rows_spanned(
    table: ReachOverTable, a_lower: float, a_upper: float
) -> tuple[ReachOverRow, ...]:
    """The table rows a hazard zone from a_lower to a_upper needs read: for one
    height its row, or the two rows either side of it; for a range every row
    in it and the rows either side of its ends."""
    top = table.rows[-1].a_mm  # the reaching-upwards height: above it, no reach
    a_upper = min(a_upper, top)
    first = max(r.a_mm for r in table.rows if r.a_mm <= a_lower)
    last = min(r.a_mm for r in table.rows if r.a_mm >= a_upper)
    return tuple(r for r in table.rows if first <= r.a_mm <= last)


def reach_over(inp: ReachOverInput) -> ReachOverResult:
    """ISO 13857:2019, 4.2.2: horizontal distance c for reaching over a structure.

    Between table rows or columns the standard allows no interpolation: the
    value giving the higher safety is used. Columns are rounded down (a lower
    structure needs a larger c); between two rows the one with the larger c at
    that column is used. For a hazard zone spanning heights (``hazard_lower_mm``
    up to ``hazard_height_mm``) every row it spans, and the rows either side of
    its ends, is read, and the largest c counts: the worst height decides.
    """
    table = REACH_OVER_TABLES[inp.risk]
    rules = REACH_OVER_RULES
    h_mm = REACHING_UPWARDS.min_height_mm[inp.risk]
    a, b = inp.hazard_height_mm, inp.structure_height_mm
    # A zone spanning heights: from its lowest point up to a (its highest).
    low = a if inp.hazard_lower_mm is None else inp.hazard_lower_mm
    zone = f"a = {_num(a)} mm" if low == a else f"a = {_num(low)} … {_num(a)} mm"
    actual = inp.horizontal_distance_mm
    steps: list[Line] = [Line(text=RISK_STEP[inp.risk])]
    warnings: list[Line] = []
    base_sources = _dedupe(REACHING_UPWARDS.sources, rules.sources)

    if low >= h_mm:
        steps.append(
            Line(
                text=gettext_noop(
                    "Hazard zone at or above the reaching-upwards height (4.2.1)"
                ),
                formula=f"{zone} ≥ h = {fmt(h_mm)} mm",
            )
        )
        return ReachOverResult(
            horizontal_distance_mm=None,
            reason=REASON_OUT_OF_REACH[inp.risk],
            table=table.name,
            sufficient=None if actual is None else True,
            clause=f"{STANDARD}, 4.2.1 (reaching upwards)",
            steps=tuple(steps),
            certainty=Certainty.TWO_SOURCES,
            sources=REACHING_UPWARDS.sources,
        )
    if low == a:
        steps.append(
            Line(
                text=gettext_noop(
                    "Hazard zone below the reaching-upwards height: reaching over "
                    "applies"
                ),
                formula=f"a = {_num(a)} mm < h = {fmt(h_mm)} mm",
            )
        )
    else:
        steps.append(
            Line(
                text=gettext_noop(
                    "Hazard zone spanning a range of heights: reaching over is "
                    "checked for every height a in it below the reaching-upwards "
                    "height h, and the largest distance counts"
                ),
                formula=f"{zone}; h = {fmt(h_mm)} mm",
            )
        )

    clause = f"{STANDARD}, 4.2.2 ({table.name})"
    reason: str | None = None
    limit = rules.min_structure_height_mm
    if b < rules.min_structure_height_mm:
        reason = REASON_BELOW_MINIMUM[inp.risk]
    elif inp.risk == "high" and b < rules.high_risk_min_structure_height_mm:
        reason = REASON_HIGH_RISK_BELOW_1400
        limit = rules.high_risk_min_structure_height_mm
    if reason is not None:
        steps.append(
            Line(
                text=gettext_noop("Structure lower than the minimum for this risk"),
                formula=f"b = {_num(b)} mm < {fmt(limit)} mm",
            )
        )
        if actual is not None:
            steps.append(
                Line(
                    text=gettext_noop(
                        "The structure does not meet the reaching-over requirement "
                        "at any horizontal distance"
                    ),
                    formula=f"c = {_num(actual)} mm",
                )
            )
        return ReachOverResult(
            horizontal_distance_mm=None,
            reason=reason,
            table=table.name,
            sufficient=None if actual is None else False,
            clause=clause,
            steps=tuple(steps),
            certainty=Certainty.TWO_SOURCES,
            sources=base_sources,
        )

    column = _column(table, b)
    steps.append(
        Line(
            text=gettext_noop("Column used: structure height b"),
            formula=(
                f"b = {_num(b)} mm (table column)"
                if column == b
                else f"b = {_num(b)} mm → column b = {fmt(column)} mm "
                "(next lower column, no interpolation)"
            ),
        )
    )
    candidates = _rows_spanned(table, low, a)
    cells = [(row.a_mm, table.cell(row.a_mm, column)) for row in candidates]
    row_a, c_mm = max(cells, key=lambda cell: cell[1])
    row_text = gettext_noop("Row used: hazard height a")
    if low != a:
        row_text = gettext_noop(
            "Rows used: every table row the hazard zone spans and the rows either "
            "side of its ends; the largest c counts (no interpolation)"
        )
        listed = ", ".join(f"{fmt(r)} ({fmt(c)})" for r, c in cells)
        row_formula = (
            f"{zone}: rows a (c) = {listed} mm → row a = {fmt(row_a)} mm, "
            f"c = {fmt(c_mm)} mm"
        )
    elif len(cells) == 1:
        row_formula = f"a = {_num(a)} mm (table row)"
    else:
        (a1, c1), (a2, c2) = cells
        row_formula = (
            f"a = {_num(a)} mm between rows a = {fmt(a1)} mm (c = {fmt(c1)} mm) and "
            f"a = {fmt(a2)} mm (c = {fmt(c2)} mm) → row a = {fmt(row_a)} mm "
            "(larger c, no interpolation)"
        )
    steps.append(Line(text=row_text, formula=row_formula))
    steps.append(
        Line(
            text=gettext_noop("Required horizontal distance from %(table)s"),
            values={"table": table.name},
            formula=f"c = {fmt(c_mm)} mm",
        )
    )

    sufficient: bool | None = None
    if actual is not None:
        sufficient = actual >= c_mm
        steps.append(
            Line(
                text=gettext_noop("Actual horizontal distance compared"),
                formula=(
                    f"{_num(actual)} mm {'≥' if sufficient else '<'} {fmt(c_mm)} mm"
                ),
            )
        )

    certainty = Certainty.TWO_SOURCES
    sources = _dedupe(base_sources, table.sources)
    if not table.confirmed_two_sources and not table.corroborated:
        certainty = Certainty.ONE_SOURCE
        warnings.append(
            Line(
                text=gettext_noop(
                    "%(table)s (low risk) rests on one public source; check the "
                    "value against the standard"
                ),
                values={"table": table.name},
            )
        )
    else:
        unconfirmed = [
            row for row, _ in cells if not table.is_corroborated(row, column)
        ]
        if unconfirmed:
            certainty = Certainty.ONE_SOURCE
            warnings.append(
                Line(
                    text=gettext_noop(
                        "The %(table)s cell(s) used are not corroborated by a second "
                        "source; check the value against the standard"
                    ),
                    values={"table": table.name},
                    formula="; ".join(
                        f"a = {fmt(row)} mm, b = {fmt(column)} mm"
                        for row in unconfirmed
                    ),
                )
            )
        else:
            sources = _dedupe(sources, (SRC_TROAX,))
    doubtful = [row for row, _ in cells if row in table.doubtful_rows_a_mm]
    if doubtful:
        warnings.append(
            Line(
                text=gettext_noop(
                    "The %(table)s row a = %(row)s mm is doubtful in the source (it "
                    "repeats the Table 2 row); verify it against the standard"
                ),
                values={"table": table.name, "row": doubtful[0]},
            )
        )

    return ReachOverResult(
        horizontal_distance_mm=c_mm,
        table=table.name,
        row_a_mm=row_a,
        column_b_mm=column,
        rows_a_mm=tuple(r for r, _ in cells),
        sufficient=sufficient,
        clause=clause,
        steps=tuple(steps),
        warnings=tuple(warnings),
        certainty=certainty,
        sources=sources,
    )


# The shapes as the working names them in a sentence ("Opening size band
# (square)"): their values are translated where the line is read.
SHAPE_WORDS = (
    gettext_noop("slot"),
    gettext_noop("square"),
    gettext_noop("round"),
    gettext_noop("rectangle"),
)

CHOICE_LABELS = {
    "low": gettext_noop("Low risk (Table 1)"),
    "high": gettext_noop("High risk (Table 2)"),
    "slot": gettext_noop("Slot"),
    "square": gettext_noop("Square"),
    "round": gettext_noop("Round"),
    "rectangle": gettext_noop("Rectangle (two unequal sides)"),
}

CALCULATORS: list[Calculator] = [
    Calculator(
        name="iso13857-reach-over",
        title=gettext_noop("Reaching over a fence or guard (ISO 13857)"),
        summary=gettext_noop(
            "How far a hazard zone must be behind a fence or guard of a given "
            "height so that nobody can reach over it, from ISO 13857 Table 1 (low "
            "risk) or Table 2 (high risk), for one hazard height or the worst "
            "height of a zone spanning a range."
        ),
        standard=STANDARD,
        input_model=ReachOverInput,
        result_model=ReachOverResult,
        run=reach_over,
        headline=("horizontal_distance_mm", "sufficient", "reason"),
        choice_labels=CHOICE_LABELS,
        # Table 2 cell a = 1400, b = 1800 -> c = 800 (corroborated, Troax survey).
        example={
            "hazard_height_mm": 1400,
            "structure_height_mm": 1800,
            "risk": "high",
            "horizontal_distance_mm": 900,
        },
    ),
    Calculator(
        name="iso13857-opening",
        title=gettext_noop("Reaching through an opening (ISO 13857)"),
        summary=gettext_noop(
            "How far a hazard zone must be behind a slot, square, round or "
            "rectangular opening (such as fence mesh) so that fingers, hands or "
            "arms cannot reach it, from ISO 13857 Table 4 for persons 14 years and "
            "over."
        ),
        standard=STANDARD,
        input_model=OpeningInput,
        result_model=OpeningResult,
        run=opening,
        headline=("safety_distance_mm", "verdict", "judged_as", "sufficient"),
        choice_labels=CHOICE_LABELS,
        # 40 x 40 mm square mesh -> 200 mm (ABB application, cited in CODE13857).
        example={
            "opening_shape": "square",
            "opening_size_mm": 40,
            "distance_to_hazard_mm": 250,
        },
    ),
    *GAP_CALCULATORS,
]
