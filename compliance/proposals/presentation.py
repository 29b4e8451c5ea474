"""How the proposal speaks to the customer: where a price comes from as a
public citation (never a file or repository name), the plan's assumptions in
the customer's words, weeks to the half-week, and money in the proposal's
one currency at the project's own rates (never a made-up one).

Called by ``compliance.proposals.data`` inside the proposal's language."""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from compliance.calculators.base import Line
from compliance.costs import convert
from compliance.costs.selectors import outward
from compliance.costs.sources import INTERNAL, customer_source  # noqa: F401
from compliance.plan.schedule import ENTERED_SOURCE

HALF = Decimal("0.5")

# --- sources ------------------------------------------------------------------


def weeks_text(low: Decimal, high: Decimal) -> str:
    """Weeks to the half-week, outwards (7.75–15.25 -> 7.5–15.5), grouped."""
    low = (Decimal(low) / HALF).to_integral_value(rounding=ROUND_FLOOR) * HALF
    high = (Decimal(high) / HALF).to_integral_value(rounding=ROUND_CEILING) * HALF
    if low == high:
        return _figure(low)
    return f"{_figure(low)}–{_figure(high)}"


def half_weeks(low: Decimal, high: Decimal) -> tuple[Decimal, Decimal]:
    low = (Decimal(low) / HALF).to_integral_value(rounding=ROUND_FLOOR) * HALF
    high = (Decimal(high) / HALF).to_integral_value(rounding=ROUND_CEILING) * HALF
    return low.normalize(), high.normalize()


def _figure(value: Decimal) -> str:
    value = Decimal(value).normalize()
    if value == value.to_integral_value():
        return f"{int(value):,}"
    return f"{value:,f}"


# --- assumptions --------------------------------------------------------------

# The plan's lines that tell the user to edit a figure, in the customer's
# words: what is assumed, to be confirmed with them.
CUSTOMER_WORDING = {
    "Simulation is assumed to shorten the task stage of the validation on the "
    "real cell, its duration and its cost, by %(percent)s %% (the most allowed "
    "for this task): an assumption, edit to your project.": gettext_noop(
        "Assumed: simulation shortens the task stage of the validation on the "
        "real cell, its duration and its cost, by %(percent)s %% (the most "
        "allowed for this task) — to be confirmed with you."
    ),
    "The task stage of the validation on the real cell is shortened by "
    "%(percent)s %% (at most %(cap)s %% for this task): an assumption, edit to "
    "your project.": gettext_noop(
        "Assumed: the task stage of the validation on the real cell is "
        "shortened by %(percent)s %% (at most %(cap)s %% for this task) — to be "
        "confirmed with you."
    ),
    "The task stage of the validation on the real cell is shortened by "
    "%(percent)s %% only (at most %(cap)s %% for this task): an assumption, "
    "edit to your project.": gettext_noop(
        "Assumed: the task stage of the validation on the real cell is "
        "shortened by %(percent)s %% only (at most %(cap)s %% for this task) — "
        "to be confirmed with you."
    ),
    "No cost entered for %(name)s: counted as unknown in the totals.": gettext_noop(
        "%(name)s: cost still to be quoted, not in the totals."
    ),
    "KCs: the %(weeks)s weeks for the robot's self-declaration were quoted by "
    "one consultant (a single source); check them with the certification "
    "body.": gettext_noop(
        "KCs: the %(weeks)s weeks for the robot's self-declaration were quoted "
        "by one consultant (a single source); the integrator confirms them with "
        "the certification body."
    ),
}
# The plan's per-activity assumption lines: made again from the activities.
ASSUMED_DURATION = (
    "%(name)s: %(weeks)s weeks, an assumption: edit to your project.",
    "%(name)s (%(plan)s): %(weeks)s weeks, an assumption: edit to your project.",
)


def customer_line(line: Line) -> str | None:
    """A plan line in the customer's words; None for a per-activity
    assumption (``plan_assumptions`` words those)."""
    if line.text in ASSUMED_DURATION:
        return None
    text = CUSTOMER_WORDING.get(line.text)
    if text is not None:
        line = Line(text=text, values=line.values, formula=line.formula)
    return line.render(_)


def plan_assumptions(comparison) -> list[str]:
    """Each assumed duration once (per plan where the plans differ), in the
    customer's words, and each duration the project entered as written."""
    entered = comparison.inputs.durations
    seen: dict[str, tuple] = {}
    rows: list[tuple[str, str | None, object]] = []
    for plan in (comparison.physical_first, comparison.sim_first):
        for scheduled in plan.schedule.activities:
            activity = scheduled.activity
            if not (activity.assumption or activity.key in entered):
                continue
            weeks = (activity.duration_weeks_low, activity.duration_weeks_high)
            if activity.key in seen:
                if seen[activity.key] == weeks:
                    continue
                rows.append((activity.key, _(plan.name), activity))
                continue
            seen[activity.key] = weeks
            rows.append((activity.key, None, activity))
    lines = []
    for _key, plan_name, activity in rows:
        values = {
            "name": activity.title(_),
            "weeks": weeks_text(
                activity.duration_weeks_low, activity.duration_weeks_high
            ),
        }
        if plan_name:
            values["name"] = f"{values['name']} ({plan_name})"
        if activity.assumption:
            lines.append(
                _("Assumed: %(name)s, %(weeks)s weeks — to be confirmed with you.")
                % values
            )
        else:
            source = activity.source
            values["source"] = _(source) if source == ENTERED_SOURCE else source
            lines.append(_("%(name)s: %(weeks)s weeks (%(source)s).") % values)
    return lines


# --- money --------------------------------------------------------------------


def to_currency(low, high, currency: str, target: str, rates) -> tuple | None:
    """A range in ``target`` at the project's rates, rounded outwards to the
    smallest unit; None when either currency has no entered rate."""
    if currency == target:
        return (low, high)
    if currency not in rates or target not in rates:
        return None
    return outward(
        convert(low, currency, target, rates),
        convert(high, currency, target, rates),
        target,
    )


def rate_text(code: str, target: str, rates) -> str:
    """What 1 unit of ``code`` is in ``target`` at the project's rates, to six
    significant figures: "1,350 KRW"."""
    value = convert(Decimal(1), code, target, rates)
    exponent = value.adjusted() - 5
    value = value.quantize(Decimal(1).scaleb(min(exponent, 0)))
    return f"{_figure(value)} {target}"
