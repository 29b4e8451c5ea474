"""ISO 13849-1:2015, Annex C: MTTFd of a wearing part from its B10d.

For pneumatic, electromechanical and mechanical parts the maker gives B10d, the
number of cycles until 10 % of the parts have failed dangerously. With the use
of the part (days per year d_op, hours per day h_op, cycle time t_cycle):

- n_op = d_op × h_op × 3600 / t_cycle (operations per year),
- MTTFd = B10d / (0.1 × n_op),
- T10d = B10d / n_op, the time after which the part should be replaced.

A channel's MTTFd above the cap counts as the cap: 100 years for Categories B
to 3, 2500 years for Category 4 (since 2015). ISO 13849-1:2023 derives B10d
from B10 through the ratio of dangerous failures; that step is the maker's and
is not done here. Figures from ``iso13849_pl_verification.json`` via
``iso13849_verification_tables``. Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field, StrictFloat

from compliance.calculators import iso13849_verification_tables as vt
from compliance.calculators.base import (
    CalcInput,
    CalcResult,
    Calculator,
    Certainty,
    Line,
    fmt,
    gettext_noop,
)
from compliance.calculators.iso13849_verification_tables import Category, MttfdBand

STANDARD = "ISO 13849-1:2015"
CLAUSE = "ISO 13849-1:2015, Annex C (MTTFd of components from B10d)"

# Bounds of the inputs: generous for any real part, finite for any arithmetic.
MAX_B10D_CYCLES = 1e12
MIN_HOURS_PER_DAY = 0.01
MIN_CYCLE_TIME_S = 0.01
MAX_CYCLE_TIME_S = 1e7


def num(value: float) -> str:
    """A number for a formula: as few decimals as it needs, at most two, grouped."""
    for digits in range(3):
        if abs(round(value, digits) - value) < 1e-9 * max(1.0, abs(value)):
            return fmt(value, digits)
    return fmt(value, 2)


def b10d_field(*, optional: bool = False):
    """The B10d input: cycles until 10 % of the parts have failed dangerously."""
    return Field(
        default=None if optional else ...,
        ge=1,
        le=MAX_B10D_CYCLES,
        description=gettext_noop(
            "B10d of the part from the maker's data: the number of cycles until "
            "10 per cent of the parts have failed dangerously."
        ),
    )


def days_field(*, optional: bool = False):
    return Field(
        default=None if optional else ...,
        ge=1,
        le=366,
        description=gettext_noop("Operating days per year d_op (1 to 366)."),
    )


def hours_field(*, optional: bool = False):
    return Field(
        default=None if optional else ...,
        ge=MIN_HOURS_PER_DAY,
        le=24,
        description=gettext_noop("Operating hours per day h_op (up to 24)."),
    )


def cycle_field(*, optional: bool = False):
    return Field(
        default=None if optional else ...,
        ge=MIN_CYCLE_TIME_S,
        le=MAX_CYCLE_TIME_S,
        description=gettext_noop(
            "Mean time between the start of two successive cycles of the part "
            "t_cycle, in seconds."
        ),
    )


@dataclass(frozen=True)
class B10dFigures:
    """n_op, MTTFd and T10d of one part, with the working."""

    n_op_per_year: float
    mttfd_years: float
    t10d_years: float
    steps: tuple[Line, ...]


def b10d_figures(
    b10d_cycles: float, days_per_year: float, hours_per_day: float, cycle_time_s: float
) -> B10dFigures:
    """Annex C: operations per year, MTTFd and T10d from B10d and the use."""
    n_op = days_per_year * hours_per_day * 3600 / cycle_time_s
    mttfd = b10d_cycles / (0.1 * n_op)
    t10d = b10d_cycles / n_op
    steps = (
        Line(
            text=gettext_noop("Operations per year (Annex C)"),
            formula=(
                f"n_op = d_op × h_op × 3600 / t_cycle = {num(days_per_year)} × "
                f"{num(hours_per_day)} × 3600 / {num(cycle_time_s)} s "
                f"= {num(n_op)} /year"
            ),
        ),
        Line(
            text=gettext_noop("MTTFd from B10d (Annex C)"),
            formula=(
                f"MTTFd = B10d / (0.1 × n_op) = {num(b10d_cycles)} / (0.1 × "
                f"{num(n_op)}) = {num(mttfd)} years"
            ),
        ),
        Line(
            text=gettext_noop(
                "T10d, the time after which the part should be replaced (Annex C)"
            ),
            formula=(
                f"T10d = B10d / n_op = {num(b10d_cycles)} / {num(n_op)} "
                f"= {num(t10d)} years"
            ),
        ),
    )
    return B10dFigures(n_op, mttfd, t10d, steps)


def mttfd_cap(category: Category | None) -> float:
    """The per-channel cap: 2500 years for Category 4, else 100 years."""
    return vt.MTTFD_CAP_YEARS[category] if category else vt.MTTFD_CAP_YEARS["3"]


def mttfd_band(mttfd_years: float) -> MttfdBand | None:
    """The band of a channel MTTFd; None below 3 years, where none is allowed."""
    for band in reversed(vt.MTTFD_BANDS):
        if mttfd_years >= band.low:
            return band.name  # type: ignore[return-value]
    return None


class B10dInput(CalcInput):
    """A wearing part (contactor, valve, switch) and how often it operates."""

    b10d_cycles: StrictFloat = b10d_field()
    days_per_year: StrictFloat = days_field()
    hours_per_day: StrictFloat = hours_field()
    cycle_time_s: StrictFloat = cycle_field()
    category: Category | None = Field(
        default=None,
        description=gettext_noop(
            "Category of the subsystem the part is in, to pick the cap on the "
            "channel MTTFd: 2500 years for Category 4, 100 years otherwise. "
            "Optional: without it the 100-year cap is used."
        ),
    )


class B10dResult(CalcResult):
    """MTTFd and T10d of a part, and the MTTFd a channel may count."""

    n_op_per_year: float
    mttfd_years: float  # as computed
    mttfd_capped_years: float  # what a channel may count (Annex C cap)
    t10d_years: float
    mttfd_band: MttfdBand | None  # None: under 3 years, not allowed


def b10d_mttfd(inp: B10dInput) -> B10dResult:
    """MTTFd and T10d of a part from its B10d (ISO 13849-1 Annex C)."""
    figures = b10d_figures(
        inp.b10d_cycles, inp.days_per_year, inp.hours_per_day, inp.cycle_time_s
    )
    cap = mttfd_cap(inp.category)
    capped = min(figures.mttfd_years, cap)
    band = mttfd_band(capped)
    steps = list(figures.steps)
    warnings: list[Line] = []
    sources = vt.B10D_SOURCES + vt.MTTFD_CAP_SOURCES

    cap_name = (
        gettext_noop("Category 4")
        if inp.category == "4"
        else gettext_noop("Categories B to 3")
    )
    if figures.mttfd_years > cap:
        steps.append(
            Line(
                text=gettext_noop(
                    "The MTTFd of a channel counts at most %(cap)s years for "
                    "%(categories)s (Annex C)"
                ),
                values={"cap": num(cap), "categories": cap_name},
                formula=f"MTTFd = min({num(figures.mttfd_years)}, {num(cap)}) "
                f"= {num(capped)} years",
            )
        )
        warnings.append(
            Line(
                text=gettext_noop(
                    "The computed MTTFd (%(mttfd)s years) is above the cap: a "
                    "channel counts it as %(cap)s years."
                ),
                values={"mttfd": num(figures.mttfd_years), "cap": num(cap)},
            )
        )
    else:
        steps.append(
            Line(
                text=gettext_noop(
                    "Below the cap of %(cap)s years for %(categories)s (Annex C)"
                ),
                values={"cap": num(cap), "categories": cap_name},
            )
        )
    if inp.category is None:
        steps.append(
            Line(
                text=gettext_noop(
                    "No category given: the 100-year cap of Categories B to 3 is "
                    "used; in Category 4 a channel may count up to 2500 years"
                )
            )
        )

    if band is None:
        warnings.append(
            Line(
                text=gettext_noop(
                    "An MTTFd under 3 years is not allowed for a channel: choose "
                    "a part with a higher B10d or operate it less often."
                )
            )
        )
    else:
        steps.append(
            Line(
                text=gettext_noop("MTTFd band of the channel: %(band)s (6.1.8)"),
                values={"band": band},
                formula=band_formula(capped, band),
            )
        )

    if figures.t10d_years < vt.MISSION_TIME_YEARS:
        warnings.append(
            Line(
                text=gettext_noop(
                    "T10d (%(t10d)s years) is shorter than the mission time of "
                    "%(mission)s years: replace the part before T10d. The 20-year "
                    "mission time is the usual basis of Table K.1, from one "
                    "public source."
                ),
                values={
                    "t10d": num(figures.t10d_years),
                    "mission": num(vt.MISSION_TIME_YEARS),
                },
            )
        )
        # The figures stay two-sourced; the warning says its basis is one source.
        sources += vt.MISSION_TIME_SOURCES

    return B10dResult(
        n_op_per_year=figures.n_op_per_year,
        mttfd_years=figures.mttfd_years,
        mttfd_capped_years=capped,
        t10d_years=figures.t10d_years,
        mttfd_band=band,
        clause=CLAUSE,
        steps=tuple(steps),
        warnings=tuple(warnings),
        certainty=Certainty.TWO_SOURCES,
        sources=tuple(dict.fromkeys(sources + vt.MTTFD_BANDS_SOURCES)),
    )


MTTFD_LIMITS: dict[MttfdBand, str] = {
    "low": "3 ≤ MTTFd < 10 years",
    "medium": "10 ≤ MTTFd < 30 years",
    "high": "MTTFd ≥ 30 years",
}


def band_formula(mttfd_years: float, band: MttfdBand) -> str:
    return f"MTTFd = {num(mttfd_years)} years ({MTTFD_LIMITS[band]})"


CALCULATORS: list[Calculator] = [
    Calculator(
        name="b10d-mttfd",
        title=gettext_noop("MTTFd from B10d (wearing parts)"),
        summary=gettext_noop(
            "Works out the operations per year, the MTTFd and T10d of a "
            "contactor, valve or switch from its B10d and how often it operates, "
            "with the cap a channel may count."
        ),
        standard=STANDARD,
        input_model=B10dInput,
        result_model=B10dResult,
        run=b10d_mttfd,
        headline=("mttfd_capped_years", "mttfd_band", "t10d_years"),
        # GB/T 16855.1 worked example (iso13849_pl_verification.json, Annex C):
        # a relay at nominal load, 300 days × 16 h, a cycle every 4 minutes.
        example={
            "b10d_cycles": 400000,
            "days_per_year": 300,
            "hours_per_day": 16,
            "cycle_time_s": 240,
        },
    ),
]
