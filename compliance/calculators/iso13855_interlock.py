"""ISO 13855: interlocking guards without guard locking.

A door or other movable guard that only stops the machine when it is opened
(no guard locking) must be far enough from the hazard zone that the hazard has
ceased before a person coming through the opening reaches it: S = K × T + C,
K = 1600 mm/s, T the time from opening the guard to the cessation of the
hazard, C the reach through the opening per ISO 13857 where fingers or a hand
can be pushed through it before the interlock trips (0 otherwise). The 2024
edition writes the same as S = K × T + D_GT. Where the guard is closer, it
needs guard locking (ISO 14119), a shorter stopping time, or a new place.

The rule and K are from the reference data ``iso13855_additions.json``
(``interlocking_guards_without_locking``, two sources) via
``iso13855_tables``. Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from pydantic import Field, StrictFloat

from compliance.calculators import iso13855_tables as tables
from compliance.calculators.base import (
    CalcInput,
    Calculator,
    Line,
    fmt,
    gettext_noop,
)
from compliance.calculators.iso13855_common import (
    MAX_TIME_MS,
    MIN_TIME_MS,
    DistanceResult,
    certainty_of,
    distance,
    line,
    num,
    rounded_up_mm,
    sources_of,
)

STANDARD = "ISO 13855:2010 / ISO 13855:2024"
CLAUSE_INTERLOCK = (
    "ISO 13855 (interlocking guards without guard locking): S = K × T + C, "
    "K = 1600 mm/s (2024 edition: S = K × T + D_GT)"
)

# Sanity bounds on the lengths typed in, not values from the standard.
MAX_DISTANCE_MM = 20_000
MAX_INTRUSION_MM = 2_000


class InterlockInput(CalcInput):
    """A movable guard with an interlock but no guard locking, e.g. a door."""

    overall_stopping_time_ms: StrictFloat = Field(
        ge=MIN_TIME_MS,
        le=4 * MAX_TIME_MS,
        description=gettext_noop(
            "Overall stopping time T, in milliseconds: from the moment the guard "
            "starts to open until the hazard has ceased (interlock and safety "
            "controller response plus the machine's stopping time)."
        ),
    )
    intrusion_distance_mm: StrictFloat = Field(
        default=0,
        ge=0,
        le=MAX_INTRUSION_MM,
        description=gettext_noop(
            "Reach through the opening C, in mm: where fingers or a hand can be "
            "pushed through the gap before the interlock trips, the safety "
            "distance of that opening from ISO 13857 (use the opening "
            "calculator); 0 if they cannot."
        ),
    )
    distance_to_hazard_mm: StrictFloat | None = Field(
        default=None,
        ge=0,
        le=MAX_DISTANCE_MM,
        description=gettext_noop(
            "Actual distance from the guard to the hazard zone in the layout, in "
            "mm, to check (optional)."
        ),
    )


class InterlockResult(DistanceResult):
    """The distance S an interlocking guard without guard locking needs."""

    sufficient: bool | None = None  # None when no actual distance was given
    guard_locking_required: bool | None = None  # True: too close without locking


def iso13855_interlock(inp: InterlockInput) -> InterlockResult:
    """S = 1600 mm/s × T + C for an interlocking guard without guard locking."""
    t_ms = inp.overall_stopping_time_ms
    k_mm_s = tables.INTERLOCK_K_MM_S
    c_mm = inp.intrusion_distance_mm
    s_mm, formula = distance(k_mm_s, t_ms, c_mm)
    required = rounded_up_mm(s_mm)
    steps: list[Line] = [
        line(
            gettext_noop("T: from opening the guard to the cessation of the hazard"),
            f"T = {num(t_ms)} ms = {num(t_ms / 1000)} s",
        ),
        line(
            gettext_noop(
                "Interlocking guard without guard locking: K = 1600 mm/s, C the "
                "reach through the opening"
            ),
            formula,
        ),
        line(
            gettext_noop(
                "The guard must be at least this far from the hazard zone (rounded "
                "up to the next whole millimetre)"
            ),
            f"S ≥ {fmt(required)} mm",
        ),
    ]
    warnings: list[Line] = [
        line(
            gettext_noop(
                "T may be reduced by the time the guard takes to open far enough "
                "for a person to reach in (one maker's manual); that is not done "
                "here."
            )
        )
    ]
    if c_mm == 0:
        warnings.insert(
            0,
            line(
                gettext_noop(
                    "C = 0 holds only if fingers or a hand cannot be pushed through "
                    "the gap of the opening guard before the interlock trips. If "
                    "they can, give C from ISO 13857 (the reference data infer "
                    "C = 0 otherwise from one maker's wording)."
                )
            ),
        )

    sufficient: bool | None = None
    locking: bool | None = None
    actual = inp.distance_to_hazard_mm
    if actual is not None:
        sufficient = actual >= required
        locking = not sufficient
        steps.append(
            line(
                gettext_noop("Actual distance from the guard to the hazard compared"),
                f"{num(actual)} mm {'≥' if sufficient else '<'} {fmt(required)} mm",
            )
        )
        if not sufficient:
            steps.append(
                line(
                    gettext_noop(
                        "The guard is too close for an interlock without guard "
                        "locking: use guard locking (ISO 14119), shorten the "
                        "stopping time, or move the guard at least %(s)s mm from "
                        "the hazard zone"
                    ),
                    s=fmt(required),
                )
            )
    groups = (tables.INTERLOCK,)
    return InterlockResult(
        minimum_distance_mm=s_mm,
        k_mm_s=k_mm_s,
        c_mm=c_mm,
        t_ms=t_ms,
        sufficient=sufficient,
        guard_locking_required=locking,
        clause=CLAUSE_INTERLOCK,
        steps=tuple(steps),
        warnings=tuple(warnings),
        certainty=certainty_of(groups),
        sources=sources_of(groups),
    )


CALCULATORS: list[Calculator] = [
    Calculator(
        name="iso13855-interlock",
        title=gettext_noop("Interlocked door without guard locking"),
        summary=gettext_noop(
            "How far a door or other interlocked guard without guard locking must "
            "be from the hazard zone so that the machine has stopped before "
            "anyone reaches it: S = 1600 mm/s × T + C. Closer than that, the "
            "guard needs guard locking."
        ),
        standard=STANDARD,
        input_model=InterlockInput,
        result_model=InterlockResult,
        run=iso13855_interlock,
        headline=(
            "minimum_distance_mm",
            "sufficient",
            "guard_locking_required",
            "t_ms",
        ),
        # The safety engineer's review: a door 500 mm from the hazard with
        # T = 420 ms needs 1600 × 0.42 = 672 mm, so it fails.
        example={"overall_stopping_time_ms": 420, "distance_to_hazard_mm": 500},
    ),
]
