"""ISO 13855:2010: what the minimum-distance calculators share.

S = K × T + C: the time inputs, the overall stopping performance T, the
formula lines, and the result with S, K, C and T. This is the one place the
2010 formula is worked out (``distance``), T added up (``overall_time_ms``),
the intrusion distance of a horizontal detection zone taken (6.3,
``parallel_intrusion``) and S rounded up for the layout (``rounded_up_mm``):
every calculator, and the rule packs, call these. The figures are in
``iso13855_tables`` (copied from the reference data ``iso13855.json`` and
``iso13855_additions.json``). Pure Python with pydantic, no Django.
"""

from __future__ import annotations

import math
from typing import Any, Protocol, TypeVar

from pydantic import Field

from compliance.calculators import iso13855_tables as tables
from compliance.calculators.base import (
    CalcResult,
    Certainty,
    Line,
    fmt,
    gettext_noop,
)

STANDARD = "ISO 13855:2010"

# Sanity bound on each time input (one minute), not a value from the standard:
# it only rejects typing errors such as seconds entered as milliseconds × 1000.
MAX_TIME_MS = 60_000
# A time that must be there (a device's response, a machine's stopping time)
# is at least 0.1 ms: below any real device's or machine's, so only a slip
# (5e-324) is refused. A time that may be none (a controller, an allowance)
# may be 0. Not a value from the standard either.
MIN_TIME_MS = 0.1

CONTROLLER_TIME = gettext_noop(
    "Response time of the safety controller or relay between the device and the "
    "machine, in milliseconds (0 if none)."
)
STOPPING_TIME = gettext_noop(
    "Stopping time of the machine, from the stop signal to standstill, in "
    "milliseconds (measured, or from the machine maker)."
)
ALLOWANCE = gettext_noop(
    "Any extra time you add to the overall stopping performance, e.g. for brake "
    "wear, in milliseconds (0 if none)."
)


def time_field(description: str, *, optional: bool = False) -> Any:
    """A time input in ms; ``description`` is marked with gettext_noop."""
    if optional:
        return Field(default=0, ge=0, le=MAX_TIME_MS, description=description)
    return Field(ge=MIN_TIME_MS, le=MAX_TIME_MS, description=description)


def num(value: float) -> str:
    """A number with as few decimals as it needs (at most four)."""
    for digits in range(5):
        if abs(round(value, digits) - value) < 1e-9:
            return fmt(value, digits)
    return fmt(value, 4)


def line(text: str, formula: str = "", **values: str | int | float) -> Line:
    """One line of working; ``text`` is marked with gettext_noop by the caller."""
    return Line(text=text, formula=formula, values=values)


class TimedInput(Protocol):
    """An input with the four parts of the overall stopping performance."""

    @property
    def response_time_ms(self) -> float: ...
    @property
    def controller_time_ms(self) -> float: ...
    @property
    def stopping_time_ms(self) -> float: ...
    @property
    def allowance_ms(self) -> float: ...


def overall_time_ms(
    response_time_ms: float,
    controller_time_ms: float,
    stopping_time_ms: float,
    allowance_ms: float = 0,
) -> float:
    """T = device response + controller + machine stopping time + allowance."""
    return sum((response_time_ms, controller_time_ms, stopping_time_ms, allowance_ms))


def overall_time(inp: TimedInput) -> tuple[float, Line]:
    """T of an input, and its line of working."""
    parts = (
        inp.response_time_ms,
        inp.controller_time_ms,
        inp.stopping_time_ms,
        inp.allowance_ms,
    )
    t_ms = overall_time_ms(*parts)
    working = line(
        gettext_noop(
            "Overall stopping performance T = device response + controller + "
            "machine stopping time + allowance"
        ),
        f"T = {' + '.join(num(p) for p in parts)} = {num(t_ms)} ms = "
        f"{num(t_ms / 1000)} s",
    )
    return t_ms, working


def distance(
    k_mm_s: int, t_ms: float, c_mm: float, symbol: str = "S"
) -> tuple[float, str]:
    """S = K × T + C and its formula line (``symbol``: S, or S_RO for
    reaching over)."""
    # K in mm/s times T in ms, divided once by 1000, keeps exact products exact.
    s_mm = k_mm_s * t_ms / 1000 + c_mm
    k, t, c, s = num(k_mm_s), num(t_ms / 1000), num(c_mm), num(s_mm)
    return s_mm, f"{symbol} = {k} mm/s × {t} s + {c} mm = {s} mm"


def parallel_intrusion(h_mm: float) -> tuple[float, float]:
    """C of a horizontal detection zone at height H (6.3): 1200 − 0.4 × H,
    then not below 850 mm; (C before the floor, C)."""
    c_raw = tables.PARALLEL_C_BASE_MM - tables.PARALLEL_C_PER_MM_H * h_mm
    return c_raw, max(c_raw, float(tables.PARALLEL_C_MIN_MM))


def rounded_up_mm(s_mm: float) -> int:
    """S rounded up to the next whole millimetre: the distance to lay out."""
    # Rounding away from the hazard only; round(…, 6) drops float noise first.
    return math.ceil(round(s_mm, 6))


def rounded_up(s_mm: float) -> Line:
    """The distance to lay out: S rounded up to the next whole millimetre."""
    return line(
        gettext_noop(
            "Place the detection zone at least this far from the hazard zone "
            "(rounded up to the next whole millimetre)"
        ),
        f"S ≥ {fmt(rounded_up_mm(s_mm))} mm",
    )


def certainty_of(groups: tuple[tables.Sourced, ...]) -> Certainty:
    """Two sources only if every group of figures used has two."""
    confirmed = all(g.confirmed_two_sources for g in groups)
    return Certainty.TWO_SOURCES if confirmed else Certainty.ONE_SOURCE


def sources_of(groups: tuple[tables.Sourced, ...]) -> tuple[str, ...]:
    """The sources of the groups used, each once, in order."""
    return tuple(dict.fromkeys(s for g in groups for s in g.sources))


class DistanceResult(CalcResult):
    """A minimum distance S = K × T + C with its parts."""

    minimum_distance_mm: float
    k_mm_s: int
    c_mm: float
    t_ms: float

    @property
    def minimum_distance_rounded_up_mm(self) -> int:
        """S rounded up to the next whole millimetre, as the working ends."""
        return rounded_up_mm(self.minimum_distance_mm)


R = TypeVar("R", bound=DistanceResult)


def distance_result(
    cls: type[R],
    parts: tuple[float, int, float, float],
    clause: str,
    steps: list[Line],
    warnings: list[Line],
    groups: tuple[tables.Sourced, ...],
    **extra: Any,
) -> R:
    """The result with S, K, C and T, the working and the sources behind it."""
    s_mm, k_mm_s, c_mm, t_ms = parts
    return cls(
        minimum_distance_mm=s_mm,
        k_mm_s=k_mm_s,
        c_mm=c_mm,
        t_ms=t_ms,
        clause=clause,
        steps=(*steps, rounded_up(s_mm)),
        warnings=tuple(warnings),
        certainty=certainty_of(groups),
        sources=sources_of(groups),
        **extra,
    )
