"""Guarding concepts side by side, and the recommendation a safety engineer
would sign. Pure Python with pydantic, no Django.

Only concepts without a fail are ranked; one is called the cheapest or the
quickest to the PoC only where its range lies wholly below every other's
(never on one figure); otherwise there is no clear difference. A concept with
an open fail is never recommended, and its fails are listed.
"""

from __future__ import annotations

from decimal import Decimal

from pydantic import BaseModel, ConfigDict

from compliance.calculators.base import Line, gettext_noop


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Money(_Frozen):
    currency: str
    low: Decimal
    high: Decimal


class Column(_Frozen):
    """One concept's figures, as the comparison puts them side by side."""

    key: str
    name: str
    offered: bool = True
    fails: int = 0
    needs_evidence: int = 0
    warnings: int = 0
    passes: int = 0
    # The cost of its lines in one currency; None when it cannot be summed
    # (lines not priced, or several currencies without a rate).
    cost: Money | None = None
    unpriced_lines: int = 0
    # The work of its physical-first plan that no cost line prices (the
    # installation, the commissioning of the task...), costed from the
    # organisation's labour rates, in the plan's currency; None when none of
    # it has a cost. ``work_unknown``: such activities without a cost.
    work: Money | None = None
    work_unknown: int = 0
    # Weeks to the PoC's start, physical first, certifications included.
    weeks_low: Decimal | None = None
    weeks_high: Decimal | None = None


class Recommendation(_Frozen):
    """Which concept to take, and why, in lines the page and the PDF show."""

    recommended: str | None  # a column's key
    ranked: tuple[str, ...]  # the concepts without a fail, best first
    excluded: tuple[str, ...]  # concepts with a fail (never recommended)
    lines: tuple[Line, ...]


def _total(column: Column, with_work: bool) -> Money | None:
    """The cost compared: the lines', with the work where work is compared
    (None when either is incomplete or they are in different currencies)."""
    if column.cost is None or column.unpriced_lines:
        return None
    if not with_work:
        return column.cost
    if column.work_unknown or column.work is None:
        return None
    if column.work.currency != column.cost.currency:
        return None
    return Money(
        currency=column.cost.currency,
        low=column.cost.low + column.work.low,
        high=column.cost.high + column.work.high,
    )


def _below(a_high, b_low) -> bool:
    return a_high < b_low


def _clearly_lowest(columns, low, high) -> Column | None:
    """The column whose range lies wholly below every other's, or None."""
    for column in columns:
        if all(
            _below(high(column), low(other)) for other in columns if other is not column
        ):
            return column
    return None


def recommend(columns: list[Column]) -> Recommendation:
    offered = [c for c in columns if c.offered]
    if not offered:
        return Recommendation(recommended=None, ranked=(), excluded=(), lines=())
    clean = [c for c in offered if c.fails == 0]
    excluded = tuple(c.key for c in offered if c.fails)
    lines: list[Line] = []
    for column in offered:
        if column.fails:
            lines.append(
                Line(
                    text=gettext_noop(
                        "%(name)s is not recommended: %(fails)s check(s) fail."
                    ),
                    values={"name": column.name, "fails": column.fails},
                )
            )
    if not clean:
        lines.insert(
            0,
            Line(
                text=gettext_noop(
                    "No concept is free of fails, so none can be recommended yet: "
                    "each one's fails are listed in its column."
                )
            ),
        )
        return Recommendation(
            recommended=None, ranked=(), excluded=excluded, lines=tuple(lines)
        )
    # The work is compared as the parts are once any concept's is costed.
    with_work = any(c.work is not None for c in clean)
    totals = {c.key: _total(c, with_work) for c in clean}
    priced = [c for c in clean if totals[c.key] is not None]
    one_currency = len({totals[c.key].currency for c in priced}) == 1
    cheapest: Column | None = None
    if len(clean) == 1:
        pass
    elif len(priced) == len(clean) and one_currency:
        cheapest = _clearly_lowest(
            clean, lambda c: totals[c.key].low, lambda c: totals[c.key].high
        )
        lines.append(
            Line(
                text=gettext_noop(
                    "%(name)s costs least: its highest estimate is below every "
                    "other concept's lowest."
                ),
                values={"name": cheapest.name},
            )
            if cheapest
            else Line(
                text=gettext_noop(
                    "No clear difference in cost: the ranges of the concepts "
                    "without a fail overlap."
                )
            )
        )
    elif (
        with_work
        and all(_total(c, False) is not None for c in clean)
        and len({c.cost.currency for c in clean}) == 1
    ):
        lines.append(
            Line(
                text=gettext_noop(
                    "Cost cannot be compared yet: the work of these concepts' "
                    "plans is not all costed in the currency of their lines."
                )
            )
        )
    else:
        lines.append(
            Line(
                text=gettext_noop(
                    "Cost cannot be compared yet: not every line of these concepts "
                    "is priced in one currency."
                )
            )
        )
    timed = [c for c in clean if c.weeks_low is not None and c.weeks_high is not None]
    quickest = None
    if len(clean) > 1 and len(timed) == len(clean):
        quickest = _clearly_lowest(clean, lambda c: c.weeks_low, lambda c: c.weeks_high)
        lines.append(
            Line(
                text=gettext_noop(
                    "%(name)s reaches the PoC soonest: its latest start is before "
                    "every other concept's earliest."
                ),
                values={"name": quickest.name},
            )
            if quickest
            else Line(
                text=gettext_noop(
                    "No clear difference in time to the PoC: the ranges overlap."
                )
            )
        )

    def rank(column: Column):
        return (
            column is not cheapest,
            column is not quickest,
            column.needs_evidence,
            column.warnings,
        )

    ranked = tuple(c.key for c in sorted(clean, key=rank))
    best = next(c for c in clean if c.key == ranked[0])
    lines.insert(
        0,
        Line(
            text=gettext_noop(
                "Recommended: %(name)s. No check fails; %(open)s still need "
                "evidence before it can be signed."
            )
            if best.needs_evidence
            else gettext_noop("Recommended: %(name)s. No check fails."),
            values={"name": best.name, "open": best.needs_evidence},
        ),
    )
    return Recommendation(
        recommended=best.key, ranked=ranked, excluded=excluded, lines=tuple(lines)
    )
