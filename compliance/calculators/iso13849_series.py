"""ISO 13849-1:2015, 6.3: subsystems in series (input, logic, output).

When every subsystem has a PFHd, the safety function's PFHd is their sum and
its PL follows from the PFHd bands, never above the lowest subsystem PL. When
some subsystem has only a PL (or a PFHd range), the PL follows from the series
table (Table 11 of the 2015 edition): the lowest PL, kept if few enough
subsystems have it, one lower otherwise; the PFHd is then given as a range,
the sums of the subsystems' bounds, and the PL is no higher than the band of
the lower sum allows. Figures from
``iso13849_verification_tables`` (both rules confirmed by two sources; whether
the 2023 edition keeps the table was not checked). Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from compliance.calculators import iso13849_verification_tables as vt
from compliance.calculators.base import Certainty, Line, gettext_noop
from compliance.calculators.iso13849_k1 import sci
from compliance.calculators.iso13849_verification_tables import PerformanceLevel

CLAUSE = "ISO 13849-1:2015, 6.3 (combination of subsystems in series)"

Combination = Literal["pfhd_sum", "series_table"]


@dataclass(frozen=True)
class SeriesPart:
    """What the combination needs of one subsystem."""

    pl: PerformanceLevel
    pfhd_per_hour: float | None  # a point value, when known
    pfhd_min_per_hour: float
    pfhd_max_per_hour: float


@dataclass(frozen=True)
class SeriesCombination:
    """The PL and PFHd of subsystems in series; ``pl`` None when the combination
    is not permitted or falls below PL a (``refusal`` says why, in English)."""

    pl: PerformanceLevel | None
    combination: Combination
    pfhd_per_hour: float | None
    pfhd_min_per_hour: float
    pfhd_max_per_hour: float
    steps: tuple[Line, ...]
    certainty: Certainty
    sources: tuple[str, ...]
    refusal: str = ""


def combine(parts: Sequence[SeriesPart]) -> SeriesCombination:
    """PFHd summation when every part has a PFHd, else the series table."""
    if not parts:
        raise ValueError("a safety function needs at least one subsystem")
    lowest = vt.lowest_pl(*(p.pl for p in parts))
    points = [p.pfhd_per_hour for p in parts]
    if all(point is not None for point in points):
        return _summed(parts, [p for p in points if p is not None], lowest)
    return _tabled(parts, lowest)


def _summed(
    parts: Sequence[SeriesPart], points: list[float], lowest: PerformanceLevel
) -> SeriesCombination:
    total = sum(points)
    terms = " + ".join(sci(p) for p in points)
    steps = [
        Line(
            text=gettext_noop(
                "PFHd of the safety function: the sum of its subsystems' PFHd (6.3)"
            ),
            formula=f"PFHd = {terms} = {sci(total)} /h"
            if len(points) > 1
            else f"PFHd = {sci(total)} /h",
        )
    ]
    sources = vt.PFHD_SUM_SOURCES
    certainty = _certainty(vt.PFHD_SUM_CONFIRMED_TWO_SOURCES)
    band_pl = vt.pl_for_pfhd(total)
    if band_pl is None:
        return SeriesCombination(
            pl=None,
            combination="pfhd_sum",
            pfhd_per_hour=total,
            pfhd_min_per_hour=total,
            pfhd_max_per_hour=total,
            steps=tuple(steps),
            certainty=certainty,
            sources=sources,
            refusal=(
                f"The subsystems' PFHd add up to {total:.3g} per hour, 1e-04 or "
                "more: the safety function does not reach PL a."
            ),
        )
    steps.append(
        Line(
            text=gettext_noop("PL from the PFHd band"),
            formula=_band_formula(total, band_pl),
        )
    )
    pl = vt.lowest_pl(band_pl, lowest)
    if pl != band_pl:
        steps.append(
            Line(
                text=gettext_noop(
                    "The safety function reaches no higher PL than its lowest "
                    "subsystem (PL %(lowest)s)"
                ),
                values={"lowest": lowest},
                formula=f"PL {band_pl} → {pl}",
            )
        )
    return SeriesCombination(
        pl=pl,
        combination="pfhd_sum",
        pfhd_per_hour=total,
        pfhd_min_per_hour=total,
        pfhd_max_per_hour=total,
        steps=tuple(steps),
        certainty=certainty,
        sources=sources,
    )


def _tabled(parts: Sequence[SeriesPart], lowest: PerformanceLevel) -> SeriesCombination:
    count = sum(1 for p in parts if p.pl == lowest)
    row = vt.SERIES_TABLE[lowest]
    table_pl = lowest if count <= row.n_low_max else row.pl_above
    pfhd_min = sum(p.pfhd_min_per_hour for p in parts)
    pfhd_max = sum(p.pfhd_max_per_hour for p in parts)
    # The PFHd is at least the sum of the lower bounds: the function cannot
    # reach a PL whose band lies below it (the table knows only the PLs).
    floor_pl = vt.pl_for_pfhd(pfhd_min)
    pl = (
        None
        if table_pl is None or floor_pl is None
        else vt.lowest_pl(table_pl, floor_pl)
    )
    rule = (
        f"PL_low = {lowest}, N_low = {count} ≤ {row.n_low_max} → PL {lowest}"
        if count <= row.n_low_max
        else f"PL_low = {lowest}, N_low = {count} > {row.n_low_max} → "
        + (f"PL {row.pl_above}" if row.pl_above else "not permitted")
    )
    steps = [
        Line(
            text=gettext_noop(
                "Not every subsystem has a PFHd value, so the PL follows from the "
                "lowest subsystem PL and how many subsystems have it (6.3, Table 11 "
                "of ISO 13849-1:2015; not checked for the 2023 edition)"
            ),
            formula=rule,
        ),
        Line(
            text=gettext_noop(
                "PFHd range of the safety function: the sums of the subsystems' "
                "lower and upper bounds"
            ),
            formula=f"{sci(pfhd_min)} /h ≤ PFHd < {sci(pfhd_max)} /h",
        ),
    ]
    if table_pl is not None and floor_pl is not None and pl != table_pl:
        steps.append(
            Line(
                text=gettext_noop(
                    "The lower bound of the PFHd range already lies in the band "
                    "of PL %(pl)s, so the safety function reaches no more"
                ),
                values={"pl": floor_pl},
                formula=_band_formula(pfhd_min, floor_pl) + f": PL {table_pl} → {pl}",
            )
        )
    if table_pl is None:
        refusal = (
            f"More than {row.n_low_max} subsystems at PL {lowest} in series is "
            "not permitted (6.3)."
        )
    elif floor_pl is None:
        refusal = (
            f"The subsystems' PFHd add up to at least {pfhd_min:.3g} per hour, "
            "1e-04 or more: the safety function does not reach PL a."
        )
    else:
        refusal = ""
    return SeriesCombination(
        pl=pl,
        combination="series_table",
        pfhd_per_hour=None,
        pfhd_min_per_hour=pfhd_min,
        pfhd_max_per_hour=pfhd_max,
        steps=tuple(steps),
        certainty=_certainty(vt.SERIES_TABLE_CONFIRMED_TWO_SOURCES),
        sources=vt.SERIES_TABLE_SOURCES + vt.PL_PFHD_SOURCES,
        refusal=refusal,
    )


def _band_formula(pfhd: float, pl: PerformanceLevel) -> str:
    band = vt.PL_PFHD[pl]
    if pl == "e" and pfhd < band.pfhd_min_per_h:
        return f"PFHd = {sci(pfhd)} /h < {sci(band.pfhd_max_per_h)} /h → PL e"
    return (
        f"{sci(band.pfhd_min_per_h)} /h ≤ {sci(pfhd)} /h < "
        f"{sci(band.pfhd_max_per_h)} /h → PL {pl}"
    )


def _certainty(confirmed: bool) -> Certainty:
    return Certainty.TWO_SOURCES if confirmed else Certainty.ONE_SOURCE
