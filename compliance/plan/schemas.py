"""The plan API's response, as a typed model: what
``GET /api/v1/cells/{id}/plan/`` answers, field by field.

The view passes its data through ``CellPlan`` before answering, so the
response and the OpenAPI schema (drf-spectacular reads these models) cannot
drift apart. Weeks and money are exact decimals sent as strings ("2",
"18.5"); weeks count from week 0 of the plan. ``None`` (null) means not
known, never zero. Sentences (``maturity_line``, ``assumptions``...) are in
the reader's language; names and labels are English. Pure pydantic, no
Django.
"""

from __future__ import annotations

from typing import get_args

from pydantic import BaseModel, ConfigDict, Field

from cells.applications import Application, TaskType
from compliance.calculators.base import Certainty
from compliance.costs.schemas import DecimalText
from compliance.plan.comparison import Measure, Outcome
from compliance.plan.schedule import (
    CollaborativeMode,
    Maturity,
    Phase,
    PlanKey,
)

# The codes of the choice sets that the schema names (ENUM_NAME_OVERRIDES in
# config.settings): bare codes, unlike the database's labelled choices.
APPLICATION_CODES: tuple[str, ...] = get_args(Application)
TASK_TYPE_CODES: tuple[str, ...] = get_args(TaskType)
COLLABORATIVE_MODE_CODES: tuple[str, ...] = get_args(CollaborativeMode)
PLAN_KEYS: tuple[str, ...] = get_args(PlanKey)


class _Shown(BaseModel):
    # Every field is always present in the response: none has a default.
    model_config = ConfigDict(frozen=True, extra="forbid")


class PlanWeeks(_Shown):
    """A duration entered for the project, in weeks."""

    low: DecimalText
    high: DecimalText
    source: str


class PlanCost(_Shown):
    """A cost, low and high, in one currency."""

    low: DecimalText
    high: DecimalText
    currency: str = Field(pattern=r"^[A-Z]{3}$")
    source: str


class CellPlanInputs(_Shown):
    """What the plans are built from: the cell, the lead times of its cost
    lines and the project's own figures. Null: the sourced figure or the
    assumption default is used (the activities say which)."""

    country: str = Field(pattern=r"^[A-Z]{2}$")  # ISO 3166 alpha-2
    collaborative_modes: list[CollaborativeMode]  # empty: not collaborative
    application: Application
    task_type: TaskType  # derived from the application
    procurement_lead_time_weeks_low: DecimalText | None
    procurement_lead_time_weeks_high: DecimalText | None
    procurement_lead_time_source: str
    procurement_items_without_lead_time: int = Field(ge=0)
    kcs_weeks_low: DecimalText | None
    kcs_weeks_high: DecimalText | None
    kcs_source: str
    durations: dict[str, PlanWeeks]  # by activity key, entered for the project
    costs: dict[str, PlanCost]  # by activity key, entered for the project
    procurement_cost: PlanCost | None  # the priced guarding and device lines
    procurement_unpriced_lines: int = Field(ge=0)
    sim_validation_reduction: DecimalText | None  # share, 0 to 1


class PlanActivity(_Shown):
    """A piece of work of a plan, or a milestone of 0 weeks. ``assumption``:
    the duration is a starting value to edit, not a sourced figure."""

    key: str
    name: str
    phase: Phase
    duration_weeks_low: DecimalText
    duration_weeks_high: DecimalText
    depends_on: list[str]  # activity keys
    cost_low: DecimalText | None
    cost_high: DecimalText | None
    currency: str  # ISO 4217 with a cost, else ""
    # How the cost was found, a line per part (effort × rate with the rate's
    # source and validity, a fee), or why the work has no cost yet.
    cost_basis: list[str]
    basis: str  # what the activity covers, and how its duration was found
    source: str  # of a sourced or entered figure; "" for an assumption
    assumption: bool
    certainty: Certainty | None  # of a sourced figure; null otherwise
    note: str


class PlanScheduledActivity(_Shown):
    """An activity with its earliest start and finish and its slack, in weeks,
    for the low and for the high durations."""

    activity: PlanActivity
    start_low: DecimalText
    finish_low: DecimalText
    float_low: DecimalText
    start_high: DecimalText
    finish_high: DecimalText
    float_high: DecimalText
    critical_low: bool  # no slack with the low durations
    critical_high: bool


class PlanSchedule(_Shown):
    """The activities in dependency order, the total weeks and one critical
    path (activity keys) for each estimate."""

    activities: list[PlanScheduledActivity]
    total_weeks_low: DecimalText
    total_weeks_high: DecimalText
    critical_path_low: list[str]
    critical_path_high: list[str]


class PlanAlternative(_Shown):
    """One of the two plans: its schedule and the figures compared."""

    key: PlanKey
    name: str
    schedule: PlanSchedule
    currency: str  # "" when no cost is known
    cost_known_low: DecimalText  # the activities whose cost is known
    cost_known_high: DecimalText
    unknown_cost_keys: list[str]  # activities whose cost is not known
    first_result_weeks_low: DecimalText
    first_result_weeks_high: DecimalText
    first_result_label: str
    poc_start_weeks_low: DecimalText
    poc_start_weeks_high: DecimalText


class PlanVerdictItem(_Shown):
    """What the figures say on one measure, and only what they support."""

    measure: Measure
    outcome: Outcome
    line: str


class CellPlan(_Shown):
    """The physical-first and sim-first plans of the cell side by side, the
    assumptions they rest on, what simulation cannot prove, and the verdict."""

    cell: int
    inputs: CellPlanInputs
    application: Application
    task_type: TaskType  # derived from the application
    maturity: Maturity
    maturity_label: str
    maturity_line: str
    sim_can_retire: list[str]
    cannot_prove: list[str]  # still required on the real cell, in both plans
    physical_first: PlanAlternative
    sim_first: PlanAlternative
    assumptions: list[str]
    notes: list[str]
    verdict: list[PlanVerdictItem]
    summary: str
