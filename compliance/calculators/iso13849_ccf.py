"""ISO 13849-1:2015, Annex F: scoring the measures against common cause failure.

Each measure of Table F.1 taken scores its full points, a measure not fully
taken scores none (all or nothing). Categories 2, 3 and 4 need at least 65
points, which corresponds to a beta factor of about 2 %. Measures and points
from ``iso13849_pl_verification.json`` ("annex_F_ccf"): the minimum and the
all-or-nothing rule confirmed by two sources, the points of each measure by one
(plc-studio) except separation (two). The labels are short ones, not the
standard's wording. Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from compliance.calculators import iso13849_verification_tables as vt
from compliance.calculators.base import Certainty, Line, gettext_noop

CLAUSE = "ISO 13849-1:2015, Annex F (common cause failure)"


@dataclass(frozen=True)
class CcfScore:
    """The CCF points of the measures taken, with the working."""

    points: int
    measures: tuple[str, ...]  # the ids credited, in Table F.1 order
    meets_minimum: bool  # at least 65 points (needed for Categories 2 to 4)
    steps: tuple[Line, ...]
    certainty: Certainty
    sources: tuple[str, ...]


def ccf_score(measure_ids: Iterable[str]) -> CcfScore:
    """Annex F score of the measures taken; an unknown id is a ValueError."""
    taken = set(measure_ids)
    unknown = sorted(taken - set(vt.CCF_MEASURES_BY_ID))
    if unknown:
        raise ValueError(f"unknown CCF measures: {', '.join(unknown)}")
    credited = [m for m in vt.CCF_MEASURES if m.id in taken]
    points = sum(m.points for m in credited)
    steps = [
        Line(
            text=gettext_noop("CCF measure %(number)s taken: %(measure)s"),
            values={"number": m.number, "measure": m.label},
            formula=f"+{m.points}",
        )
        for m in credited
    ]
    confirmed = all(m.confirmed_two_sources for m in credited)
    if not confirmed:
        steps.append(
            Line(
                text=gettext_noop(
                    "The points of these measures rest on one public source "
                    "(except separation, two)"
                )
            )
        )
    steps.append(score_line(points))
    sources = [*vt.CCF_MIN_SOURCES, *vt.CCF_ALL_OR_NOTHING_SOURCES]
    for m in credited:
        sources.extend(m.sources)
    return CcfScore(
        points=points,
        measures=tuple(m.id for m in credited),
        meets_minimum=points >= vt.CCF_MIN_POINTS,
        steps=tuple(steps),
        certainty=Certainty.TWO_SOURCES if confirmed else Certainty.ONE_SOURCE,
        sources=tuple(dict.fromkeys(sources)),
    )


def score_line(points: int) -> Line:
    """The total against the minimum of 65 points (Categories 2 to 4)."""
    if points >= vt.CCF_MIN_POINTS:
        return Line(
            text=gettext_noop(
                "CCF score (Annex F, each measure all or nothing): at least the "
                "65 points Categories 2 to 4 need"
            ),
            formula=f"{points} ≥ {vt.CCF_MIN_POINTS} points",
        )
    return Line(
        text=gettext_noop(
            "CCF score (Annex F, each measure all or nothing): below the 65 "
            "points Categories 2 to 4 need"
        ),
        formula=f"{points} < {vt.CCF_MIN_POINTS} points",
    )
