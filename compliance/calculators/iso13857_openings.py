"""ISO 13857:2019, 4.2.4, Table 4: reaching through regular openings, persons
14 years and over.

An opening is judged by its shape: a square by its side, a round hole by its
diameter, a slot by its width e (its smaller side). A rectangle with unequal
sides is no square, so it is a slot of width e = its smaller side (the
reference data ``iso13857_tables.json``, Table 4: "opening e (slot width /
square side / round diameter)"); a 30 × 60 mm mesh is a 30 mm slot (850 mm,
where a 30 mm square would need 120 mm).

A slot's length counts twice. It fits inside the square of side equal to its
length, so it never needs more than that square: where the square's value is
smaller, it applies (25 × 26 mm: 120 mm, not 850 mm). This bound is derived
here, not read in a source; it keeps the answer continuous with the square.
And the thumb stop: "if slot length ≤ 65 mm the thumb acts as a stop and the
distance can be reduced to 200 mm", for slots wider than 6 mm; the reference
cuts off the upper end of the widths it covers ("Slot 6 < e ≤ ..."), so where
that reduction would decide, the verdict is "needs evidence". Openings over
120 mm are reaching over (Tables 1 and 2).

``opening`` is both the ``iso13857-opening`` calculator and the function the
rule packs call. The table and its sources are in ``iso13857_tables``. Pure
Python with pydantic, no Django.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, StrictFloat, model_validator

from compliance.calculators.base import (
    CalcInput,
    CalcResult,
    Certainty,
    Line,
    fmt,
    gettext_noop,
)
from compliance.calculators.iso13857_tables import (
    TABLE4_OPENINGS,
    THUMB_STOP_REDUCED_DISTANCE_MM,
    THUMB_STOP_SLOT_E_GT_MM,
    THUMB_STOP_SLOT_LENGTH_MM,
    OpeningRow,
)

STANDARD = "ISO 13857:2019"
CLAUSE_OPENING = f"{STANDARD}, 4.2.4 (Table 4, persons 14 years and over)"

Verdict = Literal["pass", "fail", "needs_evidence"]
Judged = Literal["slot", "square", "round"]

REASON_OPENING_TOO_LARGE = gettext_noop(
    "Table 4 covers openings up to 120 mm. For a larger opening the standard says "
    "to use the reaching-over distances (Tables 1 and 2): use the reaching-over "
    "calculator with the height of the opening's lower edge."
)
REASON_THUMB_STOP = gettext_noop(
    "Cannot be decided from the reference data: the distance is below the Table 4 "
    "value for this slot but not below 200 mm, and the slot is at most 65 mm "
    "long, so the thumb may act as a stop and allow 200 mm. The reference cuts "
    "off the range of slot widths that rule covers, so it is not applied. This "
    "needs evidence: check the thumb-stop rule for this width in the standard, or "
    "keep the full distance."
)


def _num(value: float) -> str:
    """An input length for a formula: whole millimetres unless it has a fraction."""
    return fmt(value, 0 if float(value).is_integer() else 1)


class OpeningInput(CalcInput):
    """A regular opening in a guard (slot, square, round, or a rectangle such as
    a mesh cell) that a person may reach through."""

    opening_shape: Literal["slot", "square", "round", "rectangle"] = Field(
        description=gettext_noop(
            "Shape of the opening: slot (long and narrow), square, round, or "
            "rectangle (two unequal sides, e.g. a 30 × 60 mm mesh; give both)."
        ),
    )
    opening_size_mm: StrictFloat = Field(
        gt=0,
        le=5000,
        description=gettext_noop(
            "Opening size e in mm: the width (smaller side) of a slot or "
            "rectangle, the side of a square, or the diameter of a round hole. For "
            "mesh, the clear mesh opening."
        ),
    )
    opening_length_mm: StrictFloat | None = Field(
        default=None,
        gt=0,
        le=100_000,
        description=gettext_noop(
            "Length of a slot or the other side of a rectangle, in mm. Needed for "
            "a rectangle; for a slot it only matters up to 65 mm (the thumb stop). "
            "Leave empty for a square or round opening."
        ),
    )
    distance_to_hazard_mm: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=20000,
        description=gettext_noop(
            "Actual distance from the opening to the hazard zone in the layout, in "
            "mm, to check (optional)."
        ),
    )

    @model_validator(mode="after")
    def _length_fits_shape(self) -> Self:
        length = self.opening_length_mm
        if self.opening_shape == "rectangle" and length is None:
            raise ValueError(
                "opening_length_mm: a rectangle needs both sides: give the other "
                "side as opening_length_mm"
            )
        if self.opening_shape in ("square", "round") and length is not None:
            raise ValueError(
                "opening_length_mm: a square or round opening has no separate "
                "length; for two unequal sides choose rectangle"
            )
        return self


class OpeningResult(CalcResult):
    """The safety distance s_r required by Table 4, and the verdict."""

    safety_distance_mm: int | None  # None: see reason
    judged_as: Judged
    opening_e_mm: float  # the dimension e the table is read with
    band_e_min_mm: int | None = None  # the Table 4 band used: min < e <= max
    band_e_max_mm: int | None = None
    reason: str | None = None  # why there is no distance
    # 200 mm where the thumb-stop note may apply to this slot (not relied on).
    reduced_distance_mm: int | None = None
    sufficient: bool | None = None  # None: no distance given, or needs evidence
    verdict: Verdict | None = None  # None when no actual distance was given
    undetermined_reason: str | None = None


def _opening_row(e: float) -> OpeningRow | None:
    return next((r for r in TABLE4_OPENINGS.rows if e <= r.e_max_mm), None)


def _judged(inp: OpeningInput) -> tuple[Judged, float, float | None, list[Line]]:
    """The shape Table 4 is read for, e, the slot length, and why."""
    e, length = inp.opening_size_mm, inp.opening_length_mm
    if inp.opening_shape == "square":
        return "square", e, None, []
    if inp.opening_shape == "round":
        return "round", e, None, []
    steps: list[Line] = []
    if length is not None and length < e:
        e, length = length, e
        steps.append(
            Line(
                text=gettext_noop("The smaller side is the width e"),
                formula=f"e = {_num(e)} mm, length = {_num(length)} mm",
            )
        )
    if inp.opening_shape == "slot":
        return "slot", e, length, steps
    assert length is not None  # a rectangle has both sides (the input model)
    if e == length:
        steps.append(
            Line(
                text=gettext_noop(
                    "A rectangle with equal sides is a square: e is its side"
                ),
                formula=f"{_num(e)} × {_num(e)} mm → square, e = {_num(e)} mm",
            )
        )
        return "square", e, None, steps
    steps.append(
        Line(
            text=gettext_noop(
                "A rectangle with unequal sides is not a square: Table 4 reads it "
                "as a slot, e being its smaller side (slot width / square side / "
                "round diameter)"
            ),
            formula=f"{_num(e)} × {_num(length)} mm → slot, e = {_num(e)} mm",
        )
    )
    return "slot", e, length, steps


def _verdict(actual: float, s_r: int, thumb: bool) -> tuple[Verdict, Line, str | None]:
    reduced = THUMB_STOP_REDUCED_DISTANCE_MM
    if actual >= s_r:
        verdict: Verdict = "pass"
        formula = f"{_num(actual)} mm ≥ {fmt(s_r)} mm"
    elif thumb and actual >= reduced:
        verdict = "needs_evidence"
        formula = f"{fmt(reduced)} mm ≤ {_num(actual)} mm < {fmt(s_r)} mm"
    else:
        verdict = "fail"
        formula = f"{_num(actual)} mm < {fmt(reduced if thumb else s_r)} mm"
    step = Line(
        text=gettext_noop("Actual distance to the hazard compared"), formula=formula
    )
    reason = REASON_THUMB_STOP if verdict == "needs_evidence" else None
    return verdict, step, reason


def opening(inp: OpeningInput) -> OpeningResult:
    """ISO 13857:2019, 4.2.4, Table 4: safety distance s_r behind an opening,
    and, given the actual distance, pass, fail or needs evidence."""
    table = TABLE4_OPENINGS
    shape, e, length, steps = _judged(inp)
    actual = inp.distance_to_hazard_mm
    certainty = (
        Certainty.TWO_SOURCES if table.confirmed_two_sources else Certainty.ONE_SOURCE
    )
    steps.insert(
        0,
        Line(
            text=gettext_noop(
                "Table 4 is for persons 14 years and over; openings that children "
                "can reach need Table 5, which is not covered here"
            )
        ),
    )
    row = _opening_row(e)
    if row is None:
        steps.append(
            Line(
                text=gettext_noop("Opening larger than Table 4 covers"),
                formula=f"e = {_num(e)} mm > {fmt(table.max_opening_mm)} mm",
            )
        )
        return OpeningResult(
            safety_distance_mm=None,
            judged_as=shape,
            opening_e_mm=e,
            reason=REASON_OPENING_TOO_LARGE,
            verdict=None if actual is None else "needs_evidence",
            undetermined_reason=None if actual is None else REASON_OPENING_TOO_LARGE,
            clause=CLAUSE_OPENING,
            steps=tuple(steps),
            certainty=certainty,
            sources=table.sources,
        )

    s_r = row.s_r_mm[shape]
    steps += [
        Line(
            text=gettext_noop("Opening size band (%(shape)s)"),
            values={"shape": shape},
            formula=f"e = {_num(e)} mm → {fmt(row.e_min_mm)} < e ≤ "
            f"{fmt(row.e_max_mm)} mm",
        ),
        Line(
            text=gettext_noop("Required safety distance for a %(shape)s opening"),
            values={"shape": shape},
            formula=f"s_r = {fmt(s_r)} mm",
        ),
    ]
    # A slot of known length fits inside the square of that side: whatever
    # reaches through the slot reaches through the square, so the slot never
    # needs more than the square (e.g. 25 × 26 mm: 120 mm, not 850 mm).
    square = None if length is None else _opening_row(length)
    if shape == "slot" and square is not None and square.s_r_mm["square"] < s_r:
        assert length is not None
        shape, e, row, s_r = "square", length, square, square.s_r_mm["square"]
        steps.append(
            Line(
                text=gettext_noop(
                    "The opening fits inside a square of side equal to its length, "
                    "so it never needs more than that square (Table 4, square), "
                    "which needs less here"
                ),
                formula=f"e = {_num(length)} mm → {fmt(row.e_min_mm)} < e ≤ "
                f"{fmt(row.e_max_mm)} mm → s_r = {fmt(s_r)} mm",
            )
        )
    warnings: list[Line] = []
    reduced = THUMB_STOP_REDUCED_DISTANCE_MM
    # The note can only lower a distance that is above 200 mm, for a slot wider
    # than 6 mm whose length is known to be at most 65 mm.
    thumb = (
        shape == "slot"
        and s_r > reduced
        and e > THUMB_STOP_SLOT_E_GT_MM
        and length is not None
        and length <= THUMB_STOP_SLOT_LENGTH_MM
    )
    if thumb:
        assert length is not None
        steps.append(
            Line(
                text=gettext_noop(
                    "Slot at most 65 mm long: the thumb may act as a stop, which "
                    "would allow 200 mm; the reference does not give the slot "
                    "widths this covers, so the full value stays required"
                ),
                formula=f"length = {_num(length)} mm ≤ "
                f"{fmt(THUMB_STOP_SLOT_LENGTH_MM)} mm → s_r = {fmt(s_r)} mm "
                f"(possibly {fmt(reduced)} mm)",
            )
        )
    elif shape == "slot" and s_r > reduced and length is None:
        warnings.append(
            Line(
                text=gettext_noop(
                    "A slot no longer than 65 mm may need only 200 mm (the thumb "
                    "acts as a stop); give the slot's length to have that checked. "
                    "Without it the slot is taken as long and the full table value "
                    "is used"
                )
            )
        )

    sufficient: bool | None = None
    verdict: Verdict | None = None
    undetermined: str | None = None
    if actual is not None:
        verdict, step, undetermined = _verdict(actual, s_r, thumb)
        steps.append(step)
        sufficient = {"pass": True, "fail": False}.get(verdict)

    if e == table.max_opening_mm:
        warnings.append(
            Line(
                text=gettext_noop(
                    "The opening is at the largest size Table 4 covers (120 mm); any "
                    "larger opening is treated as reaching over"
                )
            )
        )
    return OpeningResult(
        safety_distance_mm=s_r,
        judged_as=shape,
        opening_e_mm=e,
        band_e_min_mm=row.e_min_mm,
        band_e_max_mm=row.e_max_mm,
        reduced_distance_mm=reduced if thumb else None,
        sufficient=sufficient,
        verdict=verdict,
        undetermined_reason=undetermined,
        clause=CLAUSE_OPENING,
        steps=tuple(steps),
        warnings=tuple(warnings),
        certainty=certainty,
        sources=table.sources,
    )
