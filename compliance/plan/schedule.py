"""The schedule of a physical PoC: activities, dependencies, critical path.

An activity has a low and a high duration in weeks; ``schedule`` runs the
forward pass over the dependency graph for each estimate, finds the slack of
every activity with a backward pass, and names one critical path per estimate.

``physical_first_activities`` builds the physical-first plan of a robot cell:
risk assessment → procurement of guarding and devices (and, in Korea, KCs
certification beside it) → installation → staged validation on the real cell
(stopping times and safety functions, the task, and force and pressure for
power and force limiting) → PoC start.

Durations are of three kinds, and each activity says which:

- sourced: the procurement lead time from the cell's cost line items, and the
  KCs self-declaration lead time of 3–4 weeks, quoted by one consultant
  (``/work/shared/reference/korea_art223.json``, ``fees_and_lead_times``:
  single source, so ``certainty`` is ``one_source``);
- entered for this project by the user (``PlanInputs.durations`` and the
  lead-time fields);
- assumptions (``ASSUMPTION_DEFAULTS``): no public figure was found, so these
  are starting values with ``assumption=True`` and the note "edit to your
  project". They are never presented as sourced figures.

Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from compliance.calculators.base import Certainty, gettext_noop

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
TaskType = Literal[
    "mobile_locomotion", "structured_pick_place", "contact_rich_manipulation"
]
# How well a task validated in simulation carries over to the real cell.
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
    names where a sourced or entered figure comes from.
    """

    key: str = Field(min_length=1)
    name: str  # English, marked with gettext_noop
    phase: Phase
    duration_weeks_low: Decimal = Field(ge=0)
    duration_weeks_high: Decimal = Field(ge=0)
    depends_on: tuple[str, ...] = ()
    cost_low: Decimal | None = Field(default=None, ge=0)
    cost_high: Decimal | None = Field(default=None, ge=0)
    currency: str = ""  # ISO 4217, set with the cost
    basis: str = ""
    source: str = ""
    assumption: bool = False
    certainty: Certainty | None = None  # of a sourced figure; None otherwise
    note: str = ""  # filled in from ``assumption`` and ``certainty``

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


def format_number(value: Decimal) -> str:
    """A week count or fraction for a readable line: no trailing zeros."""
    text = format(value.quantize(Decimal("0.01")).normalize(), "f")
    return "0" if text in {"-0", "0"} else text


def format_range(low: Decimal, high: Decimal) -> str:
    if low == high:
        return format_number(low)
    return f"{format_number(low)}–{format_number(high)}"


# --- the plan's inputs and its assumption defaults --------------------------------


@dataclass(frozen=True)
class AssumptionDefault:
    """A starting duration where no public figure was found: an assumption
    the user should edit to the project, never a sourced figure."""

    key: str
    name: str  # gettext_noop
    phase: Phase
    weeks_low: Decimal
    weeks_high: Decimal
    basis: str  # what the activity covers, gettext_noop


def _default(
    key: str, name: str, phase: Phase, low: str, high: str, basis: str
) -> tuple[str, AssumptionDefault]:
    return key, AssumptionDefault(key, name, phase, Decimal(low), Decimal(high), basis)


ASSUMPTION_DEFAULTS: dict[str, AssumptionDefault] = dict(
    [
        _default(
            RISK_ASSESSMENT,
            gettext_noop("Risk assessment of the whole cell"),
            "planning",
            "2",
            "4",
            gettext_noop(
                "Risk assessment of the complete cell by the ISO 12100 method, as "
                "ISO 10218-2:2025 asks, with its documentation. No public "
                "duration was found."
            ),
        ),
        _default(
            PROCUREMENT,
            gettext_noop("Procurement of guarding and safety devices"),
            "procurement",
            "4",
            "12",
            gettext_noop(
                "Used only when no cost line item has a lead time: vendors' lead "
                "times for fencing and safety devices vary widely and none were "
                "found in public sources."
            ),
        ),
        _default(
            INSTALLATION,
            gettext_noop("Installation of the robot, guarding and devices"),
            "installation",
            "1",
            "3",
            gettext_noop(
                "Mounting the robot, guarding and devices and wiring the safety "
                "functions. No public duration was found."
            ),
        ),
        _default(
            VALIDATION_STOPPING,
            gettext_noop(
                "Staged validation on the real cell: stopping times and safety "
                "functions"
            ),
            "validation",
            "1",
            "2",
            gettext_noop(
                "Measuring the robot's stopping times and distances on the real "
                "cell and testing each safety function. No public duration was "
                "found."
            ),
        ),
        _default(
            VALIDATION_TASK,
            gettext_noop("Staged validation on the real cell: the task"),
            "validation",
            "1",
            "3",
            gettext_noop(
                "Commissioning the task on the real cell: reach, cycle time, the "
                "program and, for speed and separation monitoring, the scanner "
                "fields. No public duration was found."
            ),
        ),
        _default(
            VALIDATION_PFL,
            gettext_noop(
                "Staged validation on the real cell: force and pressure measurement"
            ),
            "validation",
            "1",
            "2",
            gettext_noop(
                "Measuring contact force and pressure on the real cell at the "
                "final speeds against the ISO/TS 15066 limits (power and force "
                "limiting only). No public duration was found."
            ),
        ),
        _default(
            SIM_MODEL,
            gettext_noop("Simulation: model the cell"),
            "simulation",
            "1",
            "3",
            gettext_noop(
                "Modelling the robot, layout, fixtures, workpieces and program. "
                "No public duration was found."
            ),
        ),
        _default(
            SIM_REACH_CYCLE,
            gettext_noop("Simulation: validate reach and cycle time"),
            "simulation",
            "1",
            "2",
            gettext_noop(
                "Checking reach, paths, collisions and cycle time in simulation. "
                "No public duration was found."
            ),
        ),
        _default(
            SIM_SSM,
            gettext_noop("Simulation: validate the SSM fields"),
            "simulation",
            "0.5",
            "1",
            gettext_noop(
                "Sizing the speed and separation monitoring fields in simulation "
                "(speed and separation monitoring only). No public duration was "
                "found."
            ),
        ),
        _default(
            SIM_PFL,
            gettext_noop("Simulation: validate the PFL speeds"),
            "simulation",
            "0.5",
            "1",
            gettext_noop(
                "Checking the speeds planned for power and force limiting in "
                "simulation (power and force limiting only). No public duration "
                "was found."
            ),
        ),
        _default(
            REAL_DEMONSTRATIONS,
            gettext_noop("Real demonstrations beside simulation"),
            "demonstration",
            "2",
            "4",
            gettext_noop(
                "Demonstrating the contact-rich task with real hardware, because "
                "simulation is only an evaluation aid for it. No public duration "
                "was found."
            ),
        ),
    ]
)

# Procurement takes its lead time from the line items (or its default); the
# other defaults can be replaced through ``PlanInputs.durations``.
EDITABLE_DURATION_KEYS = frozenset(ASSUMPTION_DEFAULTS) - {PROCUREMENT}
COSTED_KEYS = frozenset(ASSUMPTION_DEFAULTS) | {KCS_CERTIFICATION}

MATURITY_BY_TASK: dict[str, Maturity] = {
    "mobile_locomotion": "transfers_well",
    "structured_pick_place": "partly",
    "contact_rich_manipulation": "evaluation_aid_only",
}
# The largest share of the on-cell task validation that a simulation phase may
# take off, by maturity. These are assumptions (no public figure), used as the
# defaults too; contact-rich tasks get none, whatever is entered.
SIM_REDUCTION_CAP: dict[Maturity, Decimal] = {
    "transfers_well": Decimal("0.5"),
    "partly": Decimal("0.25"),
    "evaluation_aid_only": ZERO,
}

# korea_art223.json "fees_and_lead_times": 자율안전확인 진행기간 3~4주.
KR_SELF_DECLARATION_WEEKS = (Decimal(3), Decimal(4))
KR_SELF_DECLARATION_SOURCE = (
    "gcnq.co.kr (vendor/consultant: 자율안전확인 진행기간 3~4주), via "
    "korea_art223.json fees_and_lead_times - single source"
)
# korea_art223.json "enforcement_rule_periods" (OSH Act Enforcement Rule; one
# source, 9bow/legalize-kr): review periods in days.
KR_STATUTORY_REVIEW_DAYS: dict[str, int] = {
    "art120_self_declaration_certificate": 15,
    "art110_preliminary": 7,
    "art110_document": 15,
    "art110_document_foreign": 30,
    "art110_technical_and_production": 30,
    "art110_technical_and_production_foreign": 45,
    "art110_individual_product": 15,
    "art110_type_product": 30,
    "art110_type_product_explosion_proof_ppe": 60,
    "art110_extension_possible": 15,
}
KR_STATUTORY_SOURCE = "9bow/legalize-kr : 산업안전보건법 시행규칙 (one source)"


class WeeksRange(_Frozen):
    """A duration entered for this project, low and high, in weeks."""

    low: Decimal = Field(ge=0)
    high: Decimal = Field(ge=0)
    source: str = ""

    @model_validator(mode="after")
    def _ordered(self) -> WeeksRange:
        if self.high < self.low:
            raise ValueError("high is below low")
        return self


class CostRange(_Frozen):
    """A cost entered for an activity, low and high, in one currency."""

    low: Decimal = Field(ge=0)
    high: Decimal = Field(ge=0)
    currency: str = Field(pattern=r"^[A-Z]{3}$")
    source: str = ""

    @model_validator(mode="after")
    def _ordered(self) -> CostRange:
        if self.high < self.low:
            raise ValueError("high is below low")
        return self


class PlanInputs(_Frozen):
    """What a PoC plan is built from. Everything not given falls back to a
    sourced figure (KCs) or to an assumption default that says so."""

    country: str = Field(pattern=r"^[A-Z]{2}$")  # ISO 3166 alpha-2
    collaborative_mode: CollaborativeMode | None = None
    task_type: TaskType
    # From the cell's cost line items (``longest_lead_time``); None → assumption.
    procurement_lead_time_weeks_low: Decimal | None = Field(default=None, ge=0)
    procurement_lead_time_weeks_high: Decimal | None = Field(default=None, ge=0)
    procurement_lead_time_source: str = ""
    # Line items with no lead time: the longest known one is then a lower bound.
    procurement_items_without_lead_time: int = Field(default=0, ge=0)
    # Korea only; None → the reference's 3–4 weeks (one source).
    kcs_weeks_low: Decimal | None = Field(default=None, ge=0)
    kcs_weeks_high: Decimal | None = Field(default=None, ge=0)
    kcs_source: str = ""
    # Durations entered for this project, replacing assumption defaults.
    durations: dict[str, WeeksRange] = {}
    # Costs by activity key, all in one currency; missing → unknown.
    costs: dict[str, CostRange] = {}
    # Share of the on-cell task validation that simulation takes off (0–1);
    # None → the maturity's cap, an assumption.
    sim_validation_reduction: Decimal | None = Field(default=None, ge=0, le=1)

    @model_validator(mode="after")
    def _consistent(self) -> PlanInputs:
        for name in ("procurement_lead_time_weeks", "kcs_weeks"):
            low, high = getattr(self, f"{name}_low"), getattr(self, f"{name}_high")
            if (low is None) != (high is None):
                raise ValueError(f"give both {name}_low and {name}_high, or neither")
            if low is not None and high < low:
                raise ValueError(f"{name}_high is below {name}_low")
        if unknown := sorted(set(self.durations) - EDITABLE_DURATION_KEYS):
            raise ValueError(f"durations for unknown activities: {', '.join(unknown)}")
        if unknown := sorted(set(self.costs) - COSTED_KEYS):
            raise ValueError(f"costs for unknown activities: {', '.join(unknown)}")
        if len({cost.currency for cost in self.costs.values()}) > 1:
            raise ValueError("all costs must be in one currency")
        cap = SIM_REDUCTION_CAP[self.maturity]
        reduction = self.sim_validation_reduction
        if reduction is not None and reduction > cap:
            raise ValueError(
                f"sim_validation_reduction {reduction} exceeds {cap}, the most "
                f"simulation may take off for a {self.task_type} task "
                f"({self.maturity})"
            )
        return self

    @property
    def maturity(self) -> Maturity:
        return MATURITY_BY_TASK[self.task_type]

    @property
    def reduction(self) -> Decimal:
        """The share of the task validation that simulation takes off."""
        if self.sim_validation_reduction is not None:
            return self.sim_validation_reduction
        return SIM_REDUCTION_CAP[self.maturity]

    @property
    def currency(self) -> str:
        return next((cost.currency for cost in self.costs.values()), "")


# --- the physical-first plan --------------------------------------------------------


def _cost_fields(inputs: PlanInputs, key: str) -> dict[str, Any]:
    cost = inputs.costs.get(key)
    if cost is None:
        return {}
    return {"cost_low": cost.low, "cost_high": cost.high, "currency": cost.currency}


def planned_activity(
    inputs: PlanInputs, key: str, depends_on: tuple[str, ...] = ()
) -> Activity:
    """The activity ``key`` with the duration entered for this project, or its
    assumption default (flagged as such)."""
    default = ASSUMPTION_DEFAULTS[key]
    entered = inputs.durations.get(key)
    if entered is not None:
        low, high = entered.low, entered.high
        source = entered.source or ENTERED_SOURCE
    else:
        low, high, source = default.weeks_low, default.weeks_high, ""
    return Activity(
        key=key,
        name=default.name,
        phase=default.phase,
        duration_weeks_low=low,
        duration_weeks_high=high,
        depends_on=depends_on,
        basis=default.basis,
        source=source,
        assumption=entered is None,
        **_cost_fields(inputs, key),
    )


def _procurement(inputs: PlanInputs) -> Activity:
    low, high = (
        inputs.procurement_lead_time_weeks_low,
        inputs.procurement_lead_time_weeks_high,
    )
    if low is None or high is None:
        return planned_activity(inputs, PROCUREMENT, (RISK_ASSESSMENT,))
    return Activity(
        key=PROCUREMENT,
        name=ASSUMPTION_DEFAULTS[PROCUREMENT].name,
        phase="procurement",
        duration_weeks_low=low,
        duration_weeks_high=high,
        depends_on=(RISK_ASSESSMENT,),
        basis=gettext_noop(
            "The longest lead time among the cell's line items: the guarding and "
            "devices are ordered together when the risk assessment is done."
        ),
        source=inputs.procurement_lead_time_source
        or gettext_noop("Lead times of the cell's cost line items"),
        **_cost_fields(inputs, PROCUREMENT),
    )


def _kcs(inputs: PlanInputs) -> Activity:
    basis = gettext_noop(
        "Korea: KCs self-declaration (자율안전확인) for the industrial robot, beside "
        "procurement. Statutory: the self-declaration certificate is issued "
        "within 15 days (OSH Act Enforcement Rule Art. 120); safety-certification "
        "reviews take 7 to 60 days per stage (Art. 110). Protective devices for "
        "industrial robots are listed as needing KCs safety certification (one "
        "source): buy certified devices."
    )
    common: dict[str, Any] = {
        "key": KCS_CERTIFICATION,
        "name": gettext_noop("KCs certification (Korea)"),
        "phase": "certification",
        "depends_on": (RISK_ASSESSMENT,),
        "basis": basis,
        **_cost_fields(inputs, KCS_CERTIFICATION),
    }
    if inputs.kcs_weeks_low is not None and inputs.kcs_weeks_high is not None:
        return Activity(
            duration_weeks_low=inputs.kcs_weeks_low,
            duration_weeks_high=inputs.kcs_weeks_high,
            source=inputs.kcs_source or ENTERED_SOURCE,
            **common,
        )
    low, high = KR_SELF_DECLARATION_WEEKS
    return Activity(
        duration_weeks_low=low,
        duration_weeks_high=high,
        source=KR_SELF_DECLARATION_SOURCE,
        certainty=Certainty.ONE_SOURCE,
        **common,
    )


def poc_start(depends_on: tuple[str, ...]) -> Activity:
    return Activity(
        key=POC_START,
        name=gettext_noop("PoC start"),
        phase="milestone",
        duration_weeks_low=ZERO,
        duration_weeks_high=ZERO,
        depends_on=depends_on,
        basis=gettext_noop(
            "The PoC starts when the staged validation on the real cell is done."
        ),
    )


def physical_first_activities(inputs: PlanInputs) -> tuple[Activity, ...]:
    """The physical-first plan: risk assessment → procurement (and KCs in
    Korea, beside it) → installation → staged validation on the real cell →
    PoC start."""
    activities = [
        planned_activity(inputs, RISK_ASSESSMENT),
        _procurement(inputs),
    ]
    before_installation: tuple[str, ...] = (PROCUREMENT,)
    if inputs.country == "KR":
        activities.append(_kcs(inputs))
        before_installation += (KCS_CERTIFICATION,)
    activities.append(planned_activity(inputs, INSTALLATION, before_installation))

    # Staged: the safety functions are proven before the task runs, and force
    # and pressure are measured at the final speeds the task settled.
    stages = [VALIDATION_STOPPING, VALIDATION_TASK]
    if inputs.collaborative_mode == "pfl":
        stages.append(VALIDATION_PFL)
    previous = INSTALLATION
    for key in stages:
        activities.append(planned_activity(inputs, key, (previous,)))
        previous = key
    activities.append(poc_start((previous,)))
    return tuple(activities)
