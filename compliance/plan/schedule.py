"""The schedule of a physical PoC: activities, dependencies, critical path.

An activity has a low and a high duration in weeks; ``schedule`` runs the
forward pass over the dependency graph for each estimate, finds the slack of
every activity with a backward pass, and names one critical path per estimate.

The plan's inputs and their assumption defaults are in ``inputs``; the
physical-first plan is in ``physical``.

Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer, model_validator

from compliance.calculators.base import Certainty, Line, gettext_noop

Phase = Literal[
    "planning",
    "procurement",
    "certification",
    "installation",
    "simulation",
    "demonstration",
    "validation",
    "milestone",
]
# How well a task validated in simulation carries over to the real cell. The
# cell's application and the task type it is planned as (derived from it) are
# in ``cells.applications``.
Maturity = Literal["transfers_well", "partly", "evaluation_aid_only"]
CollaborativeMode = Literal["srms", "hand_guiding", "ssm", "pfl"]

ZERO = Decimal(0)
ONE = Decimal(1)

ASSUMPTION_NOTE = gettext_noop(
    "An assumption, not a sourced figure: edit to your project."
)
ONE_SOURCE_NOTE = gettext_noop(
    "Rests on a single public source: check it for your project."
)
ENTERED_SOURCE = gettext_noop("Entered for this project")

PlanKey = Literal["physical_first", "sim_first"]
PLAN_NAMES: dict[PlanKey, str] = {
    "physical_first": gettext_noop("Physical first"),
    "sim_first": gettext_noop("Simulation first"),
}

# --- activity keys ------------------------------------------------------------

RISK_ASSESSMENT = "risk_assessment"
PROCUREMENT = "procurement"
KCS_CERTIFICATION = "kcs_certification"
INSTALLATION = "installation"
VALIDATION_STOPPING = "validation_stopping_time"
VALIDATION_TASK = "validation_task"
VALIDATION_PFL = "validation_pfl"
POC_START = "poc_start"
SIM_MODEL = "sim_model_cell"
SIM_REACH_CYCLE = "sim_reach_cycle_time"
SIM_SSM = "sim_ssm_fields"
SIM_PFL = "sim_pfl_speeds"
SIM_RESULT = "sim_result"
REAL_DEMONSTRATIONS = "real_demonstrations"
# A robot program's flagged segments verified in simulation (issue 32), one
# activity per program: ``sim_program_1``, ``sim_program_2`` ...
SIM_PROGRAM = "sim_program"

# The staged validation on the real cell, in the order it runs in both plans.
VALIDATION_KEYS = (VALIDATION_STOPPING, VALIDATION_TASK, VALIDATION_PFL)
MILESTONE_KEYS = frozenset({POC_START, SIM_RESULT})


# --- activities and the schedule ------------------------------------------------


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class Activity(_Frozen):
    """One line of a PoC schedule: a piece of work, or a milestone of 0 weeks.

    ``assumption`` is true when the duration is a starting value the user
    should edit, not a sourced figure; ``note`` then says so. ``basis`` says
    what the activity covers and how its duration was arrived at; ``source``
    names where a sourced or entered figure comes from. ``part_of`` names the
    activity whose time and cost this one's are: it has none of its own (0
    weeks, never counted as a cost to be quoted).
    """

    key: str = Field(min_length=1)
    name: str  # English, marked with gettext_noop
    # The name's %(placeholders)s, filled in after it is translated ("Robot
    # program 1"); left out of the response, whose name is filled in.
    name_values: dict[str, str | int] = Field(default_factory=dict, exclude=True)
    phase: Phase
    duration_weeks_low: Decimal = Field(ge=0)
    duration_weeks_high: Decimal = Field(ge=0)
    depends_on: tuple[str, ...] = ()
    cost_low: Decimal | None = Field(default=None, ge=0)
    cost_high: Decimal | None = Field(default=None, ge=0)
    currency: str = ""  # ISO 4217, set with the cost
    # How the cost was found (effort × rate, a fee, the rates' sources), or
    # why the work has no cost yet (a missing rate).
    cost_basis: tuple[Line, ...] = ()
    basis: str = ""
    source: str = ""
    assumption: bool = False
    certainty: Certainty | None = None  # of a sourced figure; None otherwise
    note: str = ""  # filled in from ``assumption`` and ``certainty``
    part_of: str = Field(default="", exclude=True)

    def title(self, translate: Callable[[str], str] = lambda s: s) -> str:
        """The name in the reader's words (``translate``), its values in."""
        name = translate(self.name)
        return name % self.name_values if self.name_values else name

    @field_serializer("name", when_used="json")
    def _name_filled(self, name: str) -> str:
        # The API's names are English, filled in as the pages show them.
        return self.title()

    @model_validator(mode="before")
    @classmethod
    def _default_note(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("note"):
            if data.get("assumption"):
                data = {**data, "note": ASSUMPTION_NOTE}
            elif data.get("certainty") == Certainty.ONE_SOURCE:
                data = {**data, "note": ONE_SOURCE_NOTE}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Activity:
        if self.duration_weeks_high < self.duration_weeks_low:
            raise ValueError(
                f"activity {self.key}: duration_weeks_high is below duration_weeks_low"
            )
        if (self.cost_low is None) != (self.cost_high is None):
            raise ValueError(
                f"activity {self.key}: give both cost_low and cost_high, or neither"
            )
        if self.cost_low is not None and self.cost_high is not None:
            if self.cost_high < self.cost_low:
                raise ValueError(f"activity {self.key}: cost_high is below cost_low")
            if not self.currency:
                raise ValueError(f"activity {self.key}: a cost needs its currency")
        if self.part_of and (self.duration_weeks_high > 0 or self.cost_low is not None):
            raise ValueError(
                f"activity {self.key}: part of {self.part_of}, it has no weeks "
                "nor cost of its own"
            )
        if self.assumption and self.certainty is not None:
            raise ValueError(
                f"activity {self.key}: an assumption has no source certainty"
            )
        if not self.assumption and self.duration_weeks_high > 0 and not self.source:
            raise ValueError(
                f"activity {self.key}: a duration that is not an assumption "
                "names its source"
            )
        return self

    @property
    def cost_known(self) -> bool:
        return self.cost_low is not None


class ScheduledActivity(_Frozen):
    """An activity with its earliest start and finish (in weeks from week 0)
    and its slack, for the low and for the high durations."""

    activity: Activity
    start_low: Decimal
    finish_low: Decimal
    float_low: Decimal
    start_high: Decimal
    finish_high: Decimal
    float_high: Decimal
    critical_low: bool  # no slack with the low durations
    critical_high: bool

    @property
    def key(self) -> str:
        return self.activity.key


class Schedule(_Frozen):
    """The forward pass over a plan: activities in dependency order, the total
    weeks and one critical path for each estimate."""

    activities: tuple[ScheduledActivity, ...]
    total_weeks_low: Decimal
    total_weeks_high: Decimal
    critical_path_low: tuple[str, ...]
    critical_path_high: tuple[str, ...]

    def get(self, key: str) -> ScheduledActivity:
        for item in self.activities:
            if item.key == key:
                return item
        raise KeyError(key)

    def finish(self, keys: Iterable[str]) -> tuple[Decimal, Decimal]:
        """Latest earliest-finish among ``keys`` that are in the schedule."""
        wanted = set(keys)
        found = [item for item in self.activities if item.key in wanted]
        if not found:
            raise KeyError(", ".join(sorted(wanted)))
        return (
            max(item.finish_low for item in found),
            max(item.finish_high for item in found),
        )


def schedule(activities: Iterable[Activity]) -> Schedule:
    """Earliest starts and finishes, slack and critical paths of a plan.

    Raises ``ValueError`` naming the activities for a duplicate key, a
    dependency on an unknown activity, or a dependency cycle.
    """
    items = tuple(activities)
    by_key: dict[str, Activity] = {}
    for activity in items:
        if activity.key in by_key:
            raise ValueError(f"duplicate activity key: {activity.key}")
        by_key[activity.key] = activity
    unknown = [
        f"{activity.key} depends on {dependency}"
        for activity in items
        for dependency in activity.depends_on
        if dependency not in by_key
    ]
    if unknown:
        raise ValueError("unknown dependencies: " + "; ".join(unknown))

    order = _dependency_order(items)
    low = _pass(order, "duration_weeks_low")
    high = _pass(order, "duration_weeks_high")
    scheduled = tuple(
        ScheduledActivity(
            activity=activity,
            start_low=low.start[activity.key],
            finish_low=low.finish[activity.key],
            float_low=low.slack[activity.key],
            start_high=high.start[activity.key],
            finish_high=high.finish[activity.key],
            float_high=high.slack[activity.key],
            critical_low=low.slack[activity.key] == 0,
            critical_high=high.slack[activity.key] == 0,
        )
        for activity in order
    )
    return Schedule(
        activities=scheduled,
        total_weeks_low=low.total,
        total_weeks_high=high.total,
        critical_path_low=low.critical_path(order),
        critical_path_high=high.critical_path(order),
    )


@dataclass
class _Pass:
    start: dict[str, Decimal]
    finish: dict[str, Decimal]
    slack: dict[str, Decimal]
    total: Decimal

    def critical_path(self, order: tuple[Activity, ...]) -> tuple[str, ...]:
        """One chain of zero-slack activities from week 0 to the end.

        It ends at the last activity (in dependency order) that finishes at the
        total, so a closing milestone is included, and walks back through the
        first dependency that finishes exactly when the current one starts.
        """
        ends = [a for a in order if self.finish[a.key] == self.total]
        if not ends:
            return ()
        current = ends[-1]
        by_key = {a.key: a for a in order}
        path = [current.key]
        while current.depends_on:
            current = next(
                by_key[d]
                for d in current.depends_on
                if self.finish[d] == self.start[current.key]
            )
            path.append(current.key)
        return tuple(reversed(path))


def _pass(order: tuple[Activity, ...], field: str) -> _Pass:
    start: dict[str, Decimal] = {}
    finish: dict[str, Decimal] = {}
    for activity in order:
        begins = max((finish[d] for d in activity.depends_on), default=ZERO)
        start[activity.key] = begins
        finish[activity.key] = begins + getattr(activity, field)
    total = max(finish.values(), default=ZERO)

    successors: dict[str, list[str]] = {a.key: [] for a in order}
    for activity in order:
        for dependency in activity.depends_on:
            successors[dependency].append(activity.key)
    latest_start: dict[str, Decimal] = {}
    slack: dict[str, Decimal] = {}
    for activity in reversed(order):
        latest_finish = min(
            (latest_start[s] for s in successors[activity.key]), default=total
        )
        latest_start[activity.key] = latest_finish - getattr(activity, field)
        slack[activity.key] = latest_start[activity.key] - start[activity.key]
    return _Pass(start=start, finish=finish, slack=slack, total=total)


def _dependency_order(items: tuple[Activity, ...]) -> tuple[Activity, ...]:
    """Activities in an order where each comes after its dependencies; among
    the ready ones the given order is kept."""
    done: set[str] = set()
    order: list[Activity] = []
    remaining = list(items)
    while remaining:
        ready = [a for a in remaining if all(d in done for d in a.depends_on)]
        if not ready:
            raise ValueError("dependency cycle: " + " → ".join(_cycle(remaining)))
        order.extend(ready)
        done.update(a.key for a in ready)
        remaining = [a for a in remaining if a.key not in done]
    return tuple(order)


def _cycle(remaining: list[Activity]) -> list[str]:
    """One cycle among activities none of which can start: each has a
    dependency that is itself waiting, so following them must loop."""
    waiting = {a.key: a for a in remaining}
    path: list[str] = []
    seen: dict[str, int] = {}
    key = remaining[0].key
    while key not in seen:
        seen[key] = len(path)
        path.append(key)
        key = next(d for d in waiting[key].depends_on if d in waiting)
    return [*path[seen[key] :], key]


def longest_lead_time(
    lead_times_weeks: Iterable[tuple[Decimal, Decimal]],
) -> tuple[Decimal, Decimal] | None:
    """The procurement lead time of items ordered together: the longest low
    and the longest high lead time. ``None`` when no item has one."""
    pairs = list(lead_times_weeks)
    if not pairs:
        return None
    return max(low for low, _ in pairs), max(high for _, high in pairs)
