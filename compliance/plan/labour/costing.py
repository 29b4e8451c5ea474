"""Work costed from rates: an activity's effort (hours or days of one role,
a range) times the role's rate valid on the day (a range too), end by end,
or a fee range; several parts of one activity added up.

The rates are the organisation's own (``LabourRate``) where it has one for
the role and unit valid on the day (the latest such), else the public
reference rates below, which are article estimates and say so. There is no
public figure of the effort an activity takes: efforts come only from the
organisation's defaults or the SA's entry, and an activity without one has
no cost. A missing rate is named, never assumed.

Pure Python, no Django; money is Decimal, never float.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Literal

from compliance.calculators.base import (
    Line,
    format_range,
    gettext_noop,
    grouped_figure,
)

Role = Literal[
    "safety_engineering",
    "electrical_design",
    "installation",
    "commissioning",
    "programming",
]
ROLE_NAMES: dict[str, str] = {
    "safety_engineering": gettext_noop("Safety engineering"),
    "electrical_design": gettext_noop("Electrical design"),
    "installation": gettext_noop("Installation"),
    "commissioning": gettext_noop("Commissioning"),
    "programming": gettext_noop("PLC / robot programming"),
}
ROLES: tuple[str, ...] = tuple(ROLE_NAMES)

Unit = Literal["hour", "day"]
UNIT_NAMES: dict[str, str] = {
    "hour": gettext_noop("per hour"),
    "day": gettext_noop("per day"),
}
UNITS: tuple[str, ...] = tuple(UNIT_NAMES)
# An effort's unit as counted ("16-24 hours").
EFFORT_UNITS: dict[str, str] = {
    "hour": gettext_noop("hours"),
    "day": gettext_noop("days"),
}

Per = Literal["activity", "safety_function"]
PER_NAMES: dict[str, str] = {
    "activity": gettext_noop("for the activity"),
    "safety_function": gettext_noop("per safety function"),
}

EFFORT_LINE = gettext_noop(
    "%(effort)s %(effort_unit)s of %(role)s × %(currency)s %(rate)s %(unit)s"
)
EFFORT_PER_FUNCTION_LINE = gettext_noop(
    "%(effort)s %(effort_unit)s of %(role)s per safety function × %(count)s "
    "safety functions × %(currency)s %(rate)s %(unit)s"
)
OWN_RATE_LINE = gettext_noop("%(role)s rate valid from %(from)s: %(source)s")
OWN_RATE_UNTIL_LINE = gettext_noop(
    "%(role)s rate valid from %(from)s to %(until)s: %(source)s"
)
PUBLIC_RATE_LINE = gettext_noop(
    "%(role)s rate: %(source)s (public figure, article estimate: an order of "
    "magnitude, not a quote)"
)


@dataclass(frozen=True)
class Rate:
    """A rate of one role: ``low``-``high`` of ``currency`` per ``unit``.
    ``valid_from`` / ``valid_until`` bound the organisation's own rate;
    a public reference rate has none (``seen`` says when it was published)."""

    role: str
    unit: str
    low: Decimal
    high: Decimal
    currency: str
    source: str
    valid_from: date | None = None
    valid_until: date | None = None
    public: bool = False
    seen: str = ""

    def valid_on(self, day: date) -> bool:
        if self.public:
            return True
        if self.valid_from is not None and day < self.valid_from:
            return False
        return self.valid_until is None or day <= self.valid_until


# The public hourly labour rates of ``../shared/reference/costs.json``
# (section public_figures_2026_12), copied with their pages and dates. Only
# these roles have one; the others stay without a rate until the
# organisation records its own.
PUBLIC_RATES: tuple[Rate, ...] = (
    Rate(
        role="programming",
        unit="hour",
        low=Decimal(50),
        high=Decimal(100),
        currency="EUR",
        source=gettext_noop(
            "weinsolutions.de (PLC programmer's hourly rate in Germany, "
            "average range EUR 50-100; undated)"
        ),
        public=True,
        seen="undated",
    ),
    Rate(
        role="programming",
        unit="hour",
        low=Decimal(70),
        high=Decimal(120),
        currency="EUR",
        source=gettext_noop(
            "weinsolutions.de (PLC programmer's hourly rate in Germany in "
            "2023, average EUR 70-120)"
        ),
        public=True,
        seen="2023",
    ),
    Rate(
        role="installation",
        unit="hour",
        low=Decimal("23.17"),
        high=Decimal("23.17"),
        currency="EUR",
        source=gettext_noop(
            "Junta de Andalucía public works price base (electrician and "
            "fitter, 1st class, labour per hour, EUR 23.17; 2022-12)"
        ),
        public=True,
        seen="2022-12",
    ),
)


@dataclass(frozen=True)
class Effort:
    """``low``-``high`` hours or days (``unit``) of ``role``, for the activity
    or per safety function of the cell."""

    role: str
    unit: str
    low: Decimal
    high: Decimal
    per: str = "activity"
    source: str = ""


@dataclass(frozen=True)
class Fee:
    """A fee range for the activity (a certification body's, a consultant's)."""

    low: Decimal
    high: Decimal
    currency: str
    source: str = ""


@dataclass(frozen=True)
class Part:
    """One part of an activity's cost, in its own currency, and how it was
    found."""

    low: Decimal
    high: Decimal
    currency: str
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Missing:
    """Why an activity's work cannot be costed (a rate, a count)."""

    line: Line


def rates_for(rates: Iterable[Rate], role: str, unit: str, day: date) -> list[Rate]:
    """The rates ``role`` is costed at in ``unit`` on ``day``: the
    organisation's latest own rate valid that day, else every public rate
    of the role and unit (the cost then spans them); empty when none."""
    valid = [r for r in rates if r.role == role and r.unit == unit and r.valid_on(day)]
    own = [r for r in valid if not r.public]
    if own:
        return [max(own, key=lambda r: r.valid_from or date.min)]
    return [r for r in valid if r.public]


def money_range(low: Decimal, high: Decimal) -> str:
    """ "85,000–100,000", or one figure when both ends are equal."""
    if low == high:
        return grouped_figure(low)
    return f"{grouped_figure(low)}–{grouped_figure(high)}"


def _rate_lines(rates: Sequence[Rate], role: str) -> tuple[Line, ...]:
    """Where each rate used comes from: the organisation's with its validity,
    a public one marked as an article estimate."""
    lines = []
    for rate in rates:
        values: dict[str, str | int | float] = {"role": role, "source": rate.source}
        if rate.public:
            lines.append(Line(text=PUBLIC_RATE_LINE, values=values))
            continue
        values["from"] = rate.valid_from.isoformat() if rate.valid_from else ""
        if rate.valid_until is not None:
            values["until"] = rate.valid_until.isoformat()
            lines.append(Line(text=OWN_RATE_UNTIL_LINE, values=values))
        else:
            lines.append(Line(text=OWN_RATE_LINE, values=values))
    return tuple(lines)


def effort_part(
    effort: Effort, rates: Iterable[Rate], day: date, functions: int | None = None
) -> Part | Missing:
    """``effort`` costed at its role's rate on ``day``: low effort × low rate
    to high effort × high rate, times the cell's number of safety functions
    for an effort per function. Missing when the role has no rate in the
    unit on the day, when the rates found are in several currencies, or when
    the number of functions is not known or zero."""
    role = ROLE_NAMES.get(effort.role, effort.role)
    unit = UNIT_NAMES.get(effort.unit, effort.unit)
    found = rates_for(rates, effort.role, effort.unit, day)
    if not found:
        return Missing(
            Line(
                text=gettext_noop(
                    "No %(role)s rate %(unit)s valid on %(day)s: record the "
                    "organisation's rate to cost this work."
                ),
                values={"role": role, "unit": unit, "day": day.isoformat()},
            )
        )
    if len({r.currency for r in found}) > 1:
        return Missing(
            Line(
                text=gettext_noop(
                    "The public %(role)s rates are in several currencies: record "
                    "the organisation's own rate."
                ),
                values={"role": role},
            )
        )
    count = Decimal(1)
    if effort.per == "safety_function":
        if not functions:
            return Missing(
                Line(
                    text=gettext_noop(
                        "The effort is per safety function and the cell has no "
                        "safety function yet."
                    )
                )
            )
        count = Decimal(functions)
    rate_low = min(r.low for r in found)
    rate_high = max(r.high for r in found)
    values: dict[str, str | int | float] = {
        "effort": format_range(effort.low, effort.high),
        "effort_unit": EFFORT_UNITS.get(effort.unit, effort.unit),
        "role": role,
        "currency": found[0].currency,
        "rate": money_range(rate_low, rate_high),
        "unit": unit,
    }
    text = EFFORT_LINE
    if effort.per == "safety_function":
        values["count"] = int(count)
        text = EFFORT_PER_FUNCTION_LINE
    return Part(
        low=effort.low * rate_low * count,
        high=effort.high * rate_high * count,
        currency=found[0].currency,
        lines=(Line(text=text, values=values), *_rate_lines(found, role)),
    )


def fee_part(fee: Fee) -> Part:
    return Part(
        low=fee.low,
        high=fee.high,
        currency=fee.currency,
        lines=(
            Line(
                text=gettext_noop("Fee %(currency)s %(fee)s: %(source)s"),
                values={
                    "currency": fee.currency,
                    "fee": money_range(fee.low, fee.high),
                    "source": fee.source,
                },
            ),
        ),
    )


@dataclass(frozen=True)
class WorkCost:
    """An activity's work costed: the range in ``currency`` and a line per
    part; or, when a part cannot be costed, no range and why."""

    low: Decimal | None
    high: Decimal | None
    currency: str
    lines: tuple[Line, ...]

    @property
    def known(self) -> bool:
        return self.low is not None


Convert = Callable[[Decimal, str], Decimal | None]


def work_cost(
    parts: Sequence[Effort | Fee],
    rates: Iterable[Rate],
    day: date,
    currency: str,
    convert: Convert,
    functions: int | None = None,
) -> WorkCost:
    """The cost of an activity's ``parts`` in ``currency``: each effort at its
    rate, each fee as given, converted by ``convert(amount, from_currency)``
    (None when no exchange rate is recorded) and added up end by end. One
    part that cannot be costed leaves the activity without a cost, with the
    reason; a sum of the others would look complete."""
    rates = tuple(rates)
    costed: list[Part] = []
    missing: list[Line] = []
    for part in parts:
        if isinstance(part, Fee):
            result: Part | Missing = fee_part(part)
        else:
            result = effort_part(part, rates, day, functions)
        if isinstance(result, Missing):
            missing.append(result.line)
        else:
            costed.append(result)
    low = high = Decimal(0)
    for part in costed:
        part_low = convert(part.low, part.currency)
        part_high = convert(part.high, part.currency)
        if part_low is None or part_high is None:
            missing.append(
                Line(
                    text=gettext_noop(
                        "No exchange rate from %(from)s to %(to)s valid on "
                        "%(day)s: record one to cost this work."
                    ),
                    values={
                        "from": part.currency,
                        "to": currency,
                        "day": day.isoformat(),
                    },
                )
            )
            continue
        low += part_low
        high += part_high
    lines = tuple(line for p in costed for line in p.lines) + tuple(missing)
    if missing or not costed:
        return WorkCost(low=None, high=None, currency=currency, lines=lines)
    return WorkCost(low=low, high=high, currency=currency, lines=lines)
