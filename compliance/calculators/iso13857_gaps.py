"""ISO 13857:2019: the gap between the floor and the lower edge of a guard.

The gap under a fence is an opening as long as the fence and as high as the
gap: a slot of width e = the gap's height. Feet and legs can reach through
it (4.3, Table 7, lower limbs, slots) and, unless the risk assessment rules
it out, so can an arm of someone crouching or lying (4.2.4, Table 4, slots;
the gap is far longer than 65 mm, so no thumb stop). The larger distance
counts. A slot wider than 180 mm lets the whole body through: the guard does
not keep people out at any distance.

What the reference data ``iso13857_tables.json`` lacks is answered "needs
evidence", never a pass: Table 7 rows for gaps of 35 mm or less were not
found, Table 4 covers openings up to 120 mm only, and the ground-clearance
table (distances that impede free access under a protective structure) was
not read. ISO 13854's minimum gaps are about crushing, not reach: they are
named for a guard whose lower edge moves, never used for the verdict.

``gap_under_guard`` is both the ``iso13857-gap-under`` calculator and the
function the rule packs call. Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictBool, StrictFloat

from compliance.calculators.base import (
    CalcInput,
    CalcResult,
    Calculator,
    Certainty,
    Line,
    fmt,
    gettext_noop,
)
from compliance.calculators.iso13857_tables import (
    GROUND_CLEARANCE_SOURCES,
    ISO13854_SOURCES,
    TABLE4_OPENINGS,
    TABLE7_CONFIRMED_TWO_SOURCES,
    TABLE7_LOWER_LIMB_SLOTS,
    TABLE7_SOURCES,
    WHOLE_BODY_ACCESS_MM,
)

STANDARD = "ISO 13857:2019"
CLAUSE_GAP = (
    f"{STANDARD}, 4.3 (Table 7, lower limbs) and 4.2.4 (Table 4, upper limbs): "
    "the gap under a guard as a slot"
)

Verdict = Literal["pass", "fail", "needs_evidence"]

# Whole sentences so that each translates as one message; the numbers in them
# are the reference figures (a test checks they match).
REASON_NO_GAP = gettext_noop(
    "The guard reaches the floor: there is no gap to reach through."
)
REASON_WHOLE_BODY = gettext_noop(
    "A gap higher than 180 mm under the guard lets the whole body through "
    "(ISO 13857 Table 7: slots wider than 180 mm allow whole-body access), so the "
    "guard does not keep people out at any distance. Lower the guard's lower "
    "edge to 180 mm or less."
)
REASON_LOWER_UNKNOWN = gettext_noop(
    "The lower-limb distance for a gap of 35 mm or less cannot be determined: "
    "those rows of ISO 13857 Table 7 are not in the reference data. This needs "
    "evidence: check the gap against the standard."
)
REASON_UPPER_UNKNOWN = gettext_noop(
    "The upper-limb distance for a gap higher than 120 mm cannot be determined: "
    "ISO 13857 Table 4 covers openings up to 120 mm and sends larger ones to "
    "reaching over, which does not fit a gap at floor level. This needs evidence: "
    "check it against the standard, or lower the guard's lower edge to 120 mm or "
    "less."
)
NOTE_CRUSHING = gettext_noop(
    "If the guard's lower edge moves (a lifting door, a sliding panel), check the "
    "crushing gap as well: ISO 13854 gives minimum gaps of 50 mm for the toes, "
    "120 mm for the foot and 180 mm for the leg (one source). They are not a "
    "reaching distance and are not used for this verdict."
)
NOTE_GROUND_CLEARANCE = gettext_noop(
    "The ground-clearance table (distances that impede free access under a "
    "protective structure) is named in one source, but its numbers are not in the "
    "reference data; the gap is checked here with the reaching-through tables "
    "instead. Check the result against the standard."
)


def _num(value: float) -> str:
    """An input length for a formula: whole millimetres unless it has a fraction."""
    return fmt(value, 0 if float(value).is_integer() else 1)


class GapUnderGuardInput(CalcInput):
    """The gap between the floor (or access level) and the lower edge of a
    fence panel or other guard, and the hazard zone behind it."""

    gap_height_mm: StrictFloat = Field(
        ge=0,
        le=5000,
        description=gettext_noop(
            "Height of the gap from the floor to the lower edge of the guard, in "
            "mm (0 if the guard reaches the floor)."
        ),
    )
    distance_to_hazard_mm: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=20000,
        description=gettext_noop(
            "Horizontal distance from the guard to the hazard zone in the layout, "
            "in mm, to check (optional)."
        ),
    )
    upper_limbs_excluded: StrictBool = Field(
        default=False,
        description=gettext_noop(
            "Tick only if the risk assessment records that nobody can reach "
            "through the gap with an arm; then only the lower-limb table "
            "(Table 7) applies. Otherwise the arm's distance (Table 4) is checked "
            "too."
        ),
    )


class GapUnderGuardResult(CalcResult):
    """The distance a hazard zone needs behind a gap under a guard, and the
    verdict: pass, fail, or needs evidence where the reference has no value."""

    safety_distance_mm: int | None  # the larger of the two; None: see reasons
    lower_limb_distance_mm: int | None = None  # Table 7 (slot)
    upper_limb_distance_mm: int | None = None  # Table 4 (slot); None if unknown
    whole_body_access: bool = False
    reason: str | None = None  # why there is no distance at all
    sufficient: bool | None = None  # None: no distance given, or needs evidence
    verdict: Verdict | None = None  # None when no actual distance was given
    undetermined_reason: str | None = None


def _lower_limb(e: float) -> int | None:
    row = next((r for r in TABLE7_LOWER_LIMB_SLOTS if r.e_gt_mm < e <= r.e_le_mm), None)
    return None if row is None else row.s_r_mm


def _upper_limb(e: float) -> int | None:
    row = next((r for r in TABLE4_OPENINGS.rows if e <= r.e_max_mm), None)
    return None if row is None else row.s_r_mm["slot"]


def gap_under_guard(inp: GapUnderGuardInput) -> GapUnderGuardResult:
    """ISO 13857:2019, Tables 7 and 4: the distance behind a gap under a guard."""
    e, actual = inp.gap_height_mm, inp.distance_to_hazard_mm
    if e == 0:
        return GapUnderGuardResult(
            safety_distance_mm=None,
            reason=REASON_NO_GAP,
            sufficient=True,
            verdict="pass",
            clause=CLAUSE_GAP,
            steps=(
                Line(text=gettext_noop("No gap under the guard"), formula="e = 0 mm"),
            ),
        )

    steps: list[Line] = [
        Line(
            text=gettext_noop(
                "The gap under the guard is a slot as long as the guard: its width "
                "e is the height of the gap"
            ),
            formula=f"e = {_num(e)} mm",
        )
    ]
    warnings = [Line(text=NOTE_GROUND_CLEARANCE), Line(text=NOTE_CRUSHING)]
    certainty = (
        Certainty.TWO_SOURCES if TABLE7_CONFIRMED_TWO_SOURCES else Certainty.ONE_SOURCE
    )
    sources = tuple(
        dict.fromkeys((*TABLE7_SOURCES, *GROUND_CLEARANCE_SOURCES, *ISO13854_SOURCES))
    )
    whole_body = WHOLE_BODY_ACCESS_MM["slot"]
    if e > whole_body:
        steps.append(
            Line(
                text=gettext_noop("Gap wider than a slot allows: whole-body access"),
                formula=f"e = {_num(e)} mm > {fmt(whole_body)} mm",
            )
        )
        return GapUnderGuardResult(
            safety_distance_mm=None,
            whole_body_access=True,
            reason=REASON_WHOLE_BODY,
            sufficient=False,
            verdict="fail",
            clause=CLAUSE_GAP,
            steps=tuple(steps),
            warnings=tuple(warnings),
            certainty=certainty,
            sources=sources,
        )

    lower = _lower_limb(e)
    unknown: list[str] = []
    if lower is None:
        unknown.append(REASON_LOWER_UNKNOWN)
    steps.append(
        Line(
            text=gettext_noop("Lower limbs, ISO 13857 Table 7 (slot)"),
            formula=f"e = {_num(e)} mm → no value in the reference (rows above 35 mm "
            "only)"
            if lower is None
            else f"e = {_num(e)} mm → s_r = {fmt(lower)} mm",
        )
    )
    upper: int | None = None
    if inp.upper_limbs_excluded:
        steps.append(
            Line(
                text=gettext_noop(
                    "Upper limbs excluded by the risk assessment, as recorded: only "
                    "Table 7 applies"
                )
            )
        )
    else:
        upper = _upper_limb(e)
        if upper is None:
            unknown.append(REASON_UPPER_UNKNOWN)
        else:
            sources = tuple(dict.fromkeys((*sources, *TABLE4_OPENINGS.sources)))
        steps.append(
            Line(
                text=gettext_noop(
                    "Upper limbs, ISO 13857 Table 4 (slot, far longer than 65 mm, so "
                    "no thumb stop): an arm can reach under the guard too"
                ),
                formula=f"e = {_num(e)} mm > {fmt(TABLE4_OPENINGS.max_opening_mm)} "
                "mm → no value"
                if upper is None
                else f"e = {_num(e)} mm → s_r = {fmt(upper)} mm",
            )
        )

    known = [d for d in (lower, upper) if d is not None]
    required = max(known) if known else None
    if unknown:
        steps.append(
            Line(
                text=gettext_noop(
                    "The required distance cannot be fully determined: at least "
                    "the known value is needed"
                ),
                formula=f"s_r ≥ {fmt(required)} mm" if required is not None else "",
            )
        )
    elif required is not None:
        steps.append(
            Line(
                text=gettext_noop("Required distance: the larger of the two"),
                formula=f"s_r = max({', '.join(fmt(d) for d in known)}) = "
                f"{fmt(required)} mm",
            )
        )

    verdict: Verdict | None = None
    if actual is not None:
        if required is not None and actual < required:
            verdict = "fail"
            formula = f"{_num(actual)} mm < {fmt(required)} mm"
        elif unknown:
            verdict = "needs_evidence"
            formula = f"{_num(actual)} mm; s_r = ?"
        else:
            verdict = "pass"
            formula = f"{_num(actual)} mm ≥ {fmt(required or 0)} mm"
        steps.append(
            Line(
                text=gettext_noop("Actual distance to the hazard compared"),
                formula=formula,
            )
        )
    return GapUnderGuardResult(
        safety_distance_mm=None if unknown else required,
        lower_limb_distance_mm=lower,
        upper_limb_distance_mm=upper,
        sufficient={"pass": True, "fail": False}.get(verdict or ""),
        verdict=verdict,
        undetermined_reason=" ".join(unknown) or None,
        clause=CLAUSE_GAP,
        steps=tuple(steps),
        warnings=tuple(warnings),
        certainty=certainty,
        sources=sources,
    )


CALCULATORS: list[Calculator] = [
    Calculator(
        name="iso13857-gap-under",
        title=gettext_noop("Gap under a fence or guard (ISO 13857)"),
        summary=gettext_noop(
            "How far a hazard zone must be behind the gap between the floor and a "
            "fence or guard, so that feet, legs and arms cannot reach it under the "
            "guard, from ISO 13857 Table 7 (lower limbs) and Table 4 (upper limbs)."
        ),
        standard=STANDARD,
        input_model=GapUnderGuardInput,
        result_model=GapUnderGuardResult,
        run=gap_under_guard,
        headline=(
            "safety_distance_mm",
            "verdict",
            "lower_limb_distance_mm",
            "upper_limb_distance_mm",
        ),
        # A 100 mm gap: Table 7 95 < e <= 180 -> 1100 mm; Table 4 slot
        # 40 < e <= 120 -> 850 mm; the larger, 1100 mm, is met at 1200 mm.
        example={"gap_height_mm": 100, "distance_to_hazard_mm": 1200},
    ),
]
