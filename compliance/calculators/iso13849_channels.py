"""ISO 13849-1:2015, Annex D: MTTFd of a channel and the average diagnostic coverage.

- D.1, parts count: a channel fails when any of its parts fails, so
  1 / MTTFd_channel = Σ 1 / MTTFd_i.
- Two channels of different MTTFd (Categories 3 and 4) are replaced by one
  symmetrised value: MTTFd = 2/3 × (C1 + C2 − 1 / (1/C1 + 1/C2)).
- DCavg = Σ (DC_i / MTTFd_i) / Σ (1 / MTTFd_i), the DC of each part weighted by
  its dangerous failure rate.

The formulas are from ``iso13849_pl_verification.json`` ("annex_D"): the
symmetrisation and parts count confirmed by two sources (code reproductions),
the weighted DCavg by one (Beckhoff). Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from compliance.calculators import iso13849_verification_tables as vt
from compliance.calculators.base import Certainty, Line, gettext_noop
from compliance.calculators.iso13849_b10d import num

CLAUSE = "ISO 13849-1:2015, Annex D (MTTFd of a channel, DCavg)"


@dataclass(frozen=True)
class Figure:
    """A computed value with its working and how sure the formula is."""

    value: float
    steps: tuple[Line, ...]
    certainty: Certainty
    sources: tuple[str, ...]


def symmetrise(c1_years: float, c2_years: float) -> Figure:
    """One MTTFd for two channels of different MTTFd (Annex D)."""
    if c1_years <= 0 or c2_years <= 0:
        raise ValueError("channel MTTFd must be positive")
    value = 2 / 3 * (c1_years + c2_years - 1 / (1 / c1_years + 1 / c2_years))
    line = Line(
        text=gettext_noop(
            "Two channels of different MTTFd symmetrised to one value (Annex D)"
        ),
        formula=(
            f"MTTFd = 2/3 × ({num(c1_years)} + {num(c2_years)} − 1 / (1/"
            f"{num(c1_years)} + 1/{num(c2_years)})) = {num(value)} years"
        ),
    )
    return Figure(
        value,
        (line,),
        _certainty(vt.SYMMETRISATION_CONFIRMED_TWO_SOURCES),
        vt.SYMMETRISATION_SOURCES,
    )


def parts_count(mttfd_years: Sequence[float]) -> Figure:
    """MTTFd of one channel from the MTTFd of its parts (Annex D.1, parts count)."""
    if not mttfd_years or any(m <= 0 for m in mttfd_years):
        raise ValueError("a channel needs at least one part, each with MTTFd > 0")
    value = 1 / sum(1 / m for m in mttfd_years)
    terms = " + ".join(f"1/{num(m)}" for m in mttfd_years)
    line = Line(
        text=gettext_noop("MTTFd of the channel by the parts count (Annex D.1)"),
        formula=f"1 / MTTFd = {terms}: MTTFd = {num(value)} years",
    )
    return Figure(
        value,
        (line,),
        _certainty(vt.PARTS_COUNT_CONFIRMED_TWO_SOURCES),
        vt.PARTS_COUNT_SOURCES,
    )


def dcavg(parts: Sequence[tuple[float, float]]) -> Figure:
    """Average diagnostic coverage of parts given as (DC %, MTTFd years) (Annex D).

    The weighting rests on one source (Beckhoff); the line says so."""
    if not parts or any(m <= 0 or not 0 <= dc <= 100 for dc, m in parts):
        raise ValueError("each part needs a DC of 0..100 % and an MTTFd > 0")
    value = sum(dc / m for dc, m in parts) / sum(1 / m for _dc, m in parts)
    top = " + ".join(f"{num(dc)}/{num(m)}" for dc, m in parts)
    bottom = " + ".join(f"1/{num(m)}" for _dc, m in parts)
    line = Line(
        text=gettext_noop(
            "Average diagnostic coverage, each part's DC weighted by its "
            "dangerous failure rate (Annex D; one public source)"
        ),
        formula=f"DCavg = ({top}) / ({bottom}) = {num(value)} %",
    )
    return Figure(
        value,
        (line,),
        _certainty(vt.DCAVG_CONFIRMED_TWO_SOURCES),
        vt.DCAVG_SOURCES,
    )


def _certainty(confirmed: bool) -> Certainty:
    return Certainty.TWO_SOURCES if confirmed else Certainty.ONE_SOURCE
