"""ISO 13849-1:2015 with IEC 61496-1 (Ed. 3): what a subsystem is caps its PL.

A subsystem's figures (the maker's PL and PFHd, or its design) give a PL; what
the subsystem is may allow less:

- a sensing device (ESPE: light curtain, light grid, laser scanner) serves no
  higher PL than its IEC 61496 type: Type 2 PL c, Type 3 PL d, Type 4 PL e
  (``iso13849_verification_tables.ESPE_TYPES``, each confirmed by two public
  sources; the standards were not read);
- the maker's PL typed on a subsystem counts no higher than the PL the maker
  claims for the device it is.

The PL is the lowest of the figures' PL and the ceilings, each ceiling a line
of the working; the PFHd stays that of the figures (one maker's manual: a
Type 2 device's PFHd may still be used in the calculation). Used by
``iso13849_verify``. Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel, ConfigDict

from compliance.calculators import iso13849_verification_tables as vt
from compliance.calculators.base import Certainty, Line, gettext_noop
from compliance.calculators.iso13849_verification_tables import PerformanceLevel


class PlCeiling(BaseModel):
    """An upper bound on one subsystem's PL from what the subsystem is rather
    than from its figures. ``text`` (marked for translation, filled from
    ``values``) is the line of working that says why."""

    model_config = ConfigDict(frozen=True)

    pl: PerformanceLevel
    text: str
    values: dict[str, str | int | float] = {}
    sources: tuple[str, ...] = ()
    confirmed_two_sources: bool = True


def espe_type_ceiling(espe_type: int) -> PlCeiling:
    """The highest PL a sensing device of an IEC 61496 type serves."""
    ceiling = vt.ESPE_TYPES[espe_type]
    return PlCeiling(
        pl=ceiling.max_pl,
        text=gettext_noop(
            "IEC 61496 Type %(type)s: a sensing device of this type serves up to "
            "PL %(max_pl)s (IEC 61496-1; ISO 13849-1)"
        ),
        values={"type": espe_type, "max_pl": ceiling.max_pl},
        sources=ceiling.sources,
        confirmed_two_sources=ceiling.confirmed_two_sources,
    )


def claimed_pl_ceiling(pl: PerformanceLevel, device: str) -> PlCeiling:
    """The PL the maker claims for the device a subsystem is (named
    ``device``): the maker's PL typed on the subsystem counts no higher."""
    return PlCeiling(
        pl=pl,
        text=gettext_noop(
            "%(device)s: the PL the maker claims for the device is PL %(max_pl)s; "
            "the subsystem counts no higher"
        ),
        values={"device": device, "max_pl": pl},
    )


@dataclass(frozen=True)
class Capped:
    """A PL under its ceilings, with the lines and sources that say why."""

    pl: PerformanceLevel
    steps: tuple[Line, ...]
    sources: tuple[str, ...]
    confirmed_two_sources: bool


def capped(pl: PerformanceLevel, ceilings: Sequence[PlCeiling]) -> Capped:
    """``pl`` no higher than any of ``ceilings``, one line of working each."""
    steps = []
    sources: list[str] = []
    confirmed = True
    for ceiling in ceilings:
        lower = vt.lowest_pl(pl, ceiling.pl)
        steps.append(
            Line(
                text=ceiling.text,
                values=ceiling.values,
                formula=f"PL {pl} → PL {lower}"
                if lower != pl
                else f"PL {pl} ≤ PL {ceiling.pl}",
            )
        )
        sources.extend(ceiling.sources)
        confirmed = confirmed and ceiling.confirmed_two_sources
        pl = lower
    return Capped(pl, tuple(steps), tuple(sources), confirmed)


Result = TypeVar("Result", bound=BaseModel)


def capped_result(result: Result, ceilings: Sequence[PlCeiling]) -> Result:
    """A subsystem's result (``iso13849_verify.SubsystemResult``: its ``pl``,
    ``steps``, ``sources`` and ``certainty``) with its PL under ``ceilings``;
    its PFHd is left as its figures give it."""
    if not ceilings:
        return result
    cap = capped(result.pl, ceilings)  # type: ignore[attr-defined]
    confirmed = (
        result.certainty is Certainty.TWO_SOURCES  # type: ignore[attr-defined]
        and cap.confirmed_two_sources
    )
    sources = result.sources + cap.sources  # type: ignore[attr-defined]
    return result.model_copy(
        update={
            "pl": cap.pl,
            "steps": result.steps + cap.steps,  # type: ignore[attr-defined]
            "sources": tuple(dict.fromkeys(sources)),
            "certainty": Certainty.TWO_SOURCES if confirmed else Certainty.ONE_SOURCE,
        }
    )
