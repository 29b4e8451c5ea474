"""The inputs of a cell's PoC plan: the durations and costs the project enters,
the lead times from its cost lines, and the assumption defaults used where no
public figure exists (each marked as an assumption, never as a sourced
figure).

Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pydantic import Field, computed_field, model_validator

from cells.applications import (
    APPLICATION_FOR_TASK_TYPE,
    TASK_TYPE_BY_APPLICATION,
    Application,
    TaskType,
)
from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.editions import jurisdiction_of
from compliance.plan.schedule import (
    INSTALLATION,
    KCS_CERTIFICATION,
    PROCUREMENT,
    REAL_DEMONSTRATIONS,
    RISK_ASSESSMENT,
    SIM_MODEL,
    SIM_PFL,
    SIM_REACH_CYCLE,
    SIM_SSM,
    VALIDATION_PFL,
    VALIDATION_STOPPING,
    VALIDATION_TASK,
    ZERO,
    CollaborativeMode,
    Maturity,
    Phase,
    _Frozen,
)

# --- the plan's inputs and its assumption defaults --------------------------------

# Korea: the KIRIA collaborative-robot workplace safety certification of a
# collaborative cell without the Art. 223 fence (the cost line
# ``kiria_certification`` of ``compliance.costs.work``). An activity key like
# those of ``schedule``.
KIRIA_CERTIFICATION = "kiria_certification"
# EU / EEA: the CE conformity assessment and technical file of the installed
# cell (the cost line ``ce_conformity`` of ``compliance.costs.work``).
CE_CONFORMITY = "ce_conformity"
KCS_NAME = gettext_noop("Self-declaration and KCs certification (Korea)")


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
        # No public lead time was found (korea_art223.json
        # cobot_exemption_route: lead_time_weeks null; costs.json: the KIRIA
        # fee "not found"): 4-8 weeks is a starting value, an assumption like
        # the others here, of the order of the Korean figures the reference
        # does give for other routes (self-declaration 3-4 weeks, one
        # consultant; KCs review stages of 7-60 days each), which are not
        # KIRIA's.
        _default(
            KIRIA_CERTIFICATION,
            gettext_noop("KIRIA collaborative-workplace certification"),
            "certification",
            "4",
            "8",
            gettext_noop(
                "Korea: the KIRIA collaborative-robot workplace safety "
                "certification (협동로봇 설치 작업장 안전인증), the Art. 223 "
                "proviso route of a collaborative cell without the fence: a "
                "document review and an on-site audit of the installed cell "
                "against KS B ISO 10218-2 and ISO/TS 15066. It follows the "
                "validation on the real cell, and the PoC starts once the cell "
                "is certified. No public fee or lead time was found."
            ),
        ),
        # No public duration was found (costs.json: no CE item in lead_times;
        # the EU rules' sources give none): 1-3 weeks is a starting value, an
        # assumption like the others here, for completing the technical file
        # with the validation records and drawing up the declaration once the
        # cell is validated; the risk assessment it rests on is its own
        # activity.
        _default(
            CE_CONFORMITY,
            gettext_noop("CE conformity assessment and technical file"),
            "certification",
            "1",
            "3",
            gettext_noop(
                "EU / EEA: the integrator, as manufacturer of the assembled "
                "cell, completes the conformity assessment procedure and the "
                "technical file with the records of the validation on the real "
                "cell, draws up the declaration of conformity for the installed "
                "cell and affixes the CE marking (Directive 2006/42/EC until 19 "
                "January 2027, Regulation (EU) 2023/1230 from 20 January 2027). "
                "It follows the validation on the real cell, and the PoC starts "
                "once the declaration is drawn up. No public cost or duration "
                "was found."
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
                "Demonstrating the task with real hardware, because simulation is "
                "only an evaluation aid for it. No public duration was found."
            ),
        ),
    ]
)

# Procurement takes its lead time from the line items (or its default); the
# other defaults can be replaced through ``PlanInputs.durations``.
EDITABLE_DURATION_KEYS = frozenset(ASSUMPTION_DEFAULTS) - {PROCUREMENT}
COSTED_KEYS = frozenset(ASSUMPTION_DEFAULTS) | {KCS_CERTIFICATION}
# The activities whose cost the cell's cost lines give, by the lines'
# catalogue keys: the activity is costed when all its lines are priced.
ACTIVITY_LINES = {
    RISK_ASSESSMENT: ("risk_assessment",),
    KCS_CERTIFICATION: ("kcs_certification", "kr_self_declaration"),
    VALIDATION_STOPPING: ("stopping_time_measurement",),
    VALIDATION_PFL: ("pfl_measurement",),
    KIRIA_CERTIFICATION: ("kiria_certification",),
    CE_CONFORMITY: ("ce_conformity",),
}
# The activities whose work the labour rates cost: all but the procurement
# of the guarding and devices, which the cost lines price. A fee is recorded
# as work only for those without cost lines: a fee of one with lines is
# their price (the catalogue, a supplier quote).
WORK_KEYS = COSTED_KEYS - {PROCUREMENT}
# Each of them by name, in the order the plans run them.
WORK_NAMES: dict[str, str] = {
    key: (KCS_NAME if key == KCS_CERTIFICATION else ASSUMPTION_DEFAULTS[key].name)
    for key in (
        RISK_ASSESSMENT,
        KCS_CERTIFICATION,
        INSTALLATION,
        SIM_MODEL,
        SIM_REACH_CYCLE,
        SIM_SSM,
        SIM_PFL,
        REAL_DEMONSTRATIONS,
        VALIDATION_STOPPING,
        VALIDATION_TASK,
        VALIDATION_PFL,
        KIRIA_CERTIFICATION,
        CE_CONFORMITY,
    )
}

# How well each task type transfers from simulation (the product brief, issue
# 15): the application decides the task type (``cells.applications``), so a
# cell's maturity always follows its application. No public source was found
# that a process application (welding, painting, dispensing) transfers: it is
# planned as cautiously as a contact-rich task.
MATURITY_BY_TASK: dict[str, Maturity] = {
    "mobile_locomotion": "transfers_well",
    "structured_pick_place": "partly",
    "contact_rich_manipulation": "evaluation_aid_only",
    "process": "evaluation_aid_only",
}
# The largest share of the on-cell task validation that a simulation phase may
# take off, by maturity. These are assumptions (no public figure), used as the
# defaults too; where simulation is an evaluation aid only (contact-rich and
# process applications) none, whatever is entered.
SIM_REDUCTION_CAP: dict[Maturity, Decimal] = {
    "transfers_well": Decimal("0.5"),
    "partly": Decimal("0.25"),
    "evaluation_aid_only": ZERO,
}

# korea_art223.json "fees_and_lead_times": 자율안전확인 진행기간 3~4주.
KR_SELF_DECLARATION_WEEKS = (Decimal(3), Decimal(4))
KR_SELF_DECLARATION_SOURCE = gettext_noop(
    "A Korean certification consultant (gcnq.co.kr): the self-declaration "
    "takes 3-4 weeks; one source"
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
KR_STATUTORY_SOURCE = gettext_noop(
    "OSH Act Enforcement Rule (산업안전보건법 시행규칙), review periods; one source"
)


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
    # How the cost was found, a line per part (effort × rate, a fee, the
    # rates' sources); left out of the response's inputs, shown with the
    # activity (``Activity.cost_basis``).
    basis: tuple[Line, ...] = Field(default=(), exclude=True)

    @model_validator(mode="after")
    def _ordered(self) -> CostRange:
        if self.high < self.low:
            raise ValueError("high is below low")
        return self


class ProgramCheck(_Frozen):
    """A robot program of a collaborative cell as the plan reads its check
    (issue 32): its number among the cell's programs ("Robot program 1", as
    the findings name it, never by its file) and the lines to verify before
    the real cell is measured: the segments faster than a person at a
    station may be touched, or too close for speed and separation
    monitoring; those where a person could be clamped (measured, no speed
    permits them); and the joint moves, which cannot be placed without the
    robot's kinematics."""

    number: int = Field(ge=1)
    failing_lines: tuple[int, ...] = ()
    measure_lines: tuple[int, ...] = ()
    joint_lines: tuple[int, ...] = ()

    @property
    def lines(self) -> tuple[int, ...]:
        """Every line to verify, in order, each once."""
        return tuple(
            sorted({*self.failing_lines, *self.measure_lines, *self.joint_lines})
        )


class PlanInputs(_Frozen):
    """What a PoC plan is built from. Everything not given falls back to a
    sourced figure (KCs) or to an assumption default that says so."""

    country: str = Field(pattern=r"^[A-Z]{2}$")  # ISO 3166 alpha-2
    collaborative_modes: tuple[CollaborativeMode, ...] = ()  # empty: none
    # What the cell is for; its task type and maturity follow from it. Inputs
    # written before applications may give a task type instead (the
    # application that stood for it is taken).
    application: Application
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
    # The guarding and devices summed from the cell's priced cost lines; a
    # procurement cost in ``costs`` (entered for the project) replaces it.
    procurement_cost: CostRange | None = None
    # Guarding and device lines still to be quoted: while there are any, the
    # procurement cost is unknown (a sum of the others would look complete).
    procurement_unpriced_lines: int = Field(default=0, ge=0)
    # Korea: the cell's cost lines ask for the KIRIA workplace certification
    # (a collaborative cell without the Art. 223 fence, no certificate in
    # force), and its cost from that line when the line is priced; a cost in
    # ``costs`` (entered for the project) replaces it. Left out of the
    # response (``exclude``) until the plan API's schema names them: the
    # activity itself shows them.
    kiria_certification: bool = Field(default=False, exclude=True)
    kiria_cost: CostRange | None = Field(default=None, exclude=True)
    # The costs of the other activities the cell's priced cost lines give
    # (the risk assessment, the Korean certification step, the CE conformity
    # assessment, the stopping-time and force measurements:
    # ``ACTIVITY_LINES``), where the activity's lines are all
    # priced; a cost in ``costs`` replaces one.
    line_costs: dict[str, CostRange] = Field(default_factory=dict, exclude=True)
    # The work of the activities costed from the organisation's labour rates:
    # its default effort or fee per activity, or the project's own effort
    # (``plan.labour``). It replaces the cost from the cost lines; a cost in
    # ``costs`` replaces it. An activity whose work cannot be costed (a rate
    # missing) is in ``work_missing`` with the reason, and has no cost.
    work_costs: dict[str, CostRange] = Field(default_factory=dict, exclude=True)
    work_missing: dict[str, tuple[Line, ...]] = Field(
        default_factory=dict, exclude=True
    )
    # The work alone (without the lines' cost added), by activity: what the
    # guarding concepts compare beside their lines.
    work_only: dict[str, CostRange] = Field(default_factory=dict, exclude=True)
    # The cell's robot programs with lines to verify (issue 32): the sim-first
    # plan verifies each in simulation before the real cell is measured.
    # Left out of the response, as above: the activities name them.
    programs: tuple[ProgramCheck, ...] = Field(default=(), exclude=True)
    # Share of the on-cell task validation that simulation takes off (0–1);
    # None → the maturity's cap, an assumption.
    sim_validation_reduction: Decimal | None = Field(default=None, ge=0, le=1)

    @model_validator(mode="before")
    @classmethod
    def _application_from_task_type(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "task_type" not in data:
            return data
        data = dict(data)
        task_type = data.pop("task_type")
        if not isinstance(task_type, str):
            raise ValueError("task_type must be a task type code")
        application = data.get("application")
        if application is None:
            if task_type not in APPLICATION_FOR_TASK_TYPE:
                raise ValueError(
                    f"give the application: task type {task_type!r} stands for several"
                )
            data["application"] = APPLICATION_FOR_TASK_TYPE[task_type]
        elif TASK_TYPE_BY_APPLICATION.get(application) != task_type:
            raise ValueError(
                f"task_type {task_type!r} contradicts application {application!r}"
            )
        return data

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
        if unknown := sorted({*self.work_costs, *self.work_missing} - WORK_KEYS):
            raise ValueError(f"work for unknown activities: {', '.join(unknown)}")
        if len({cost.currency for cost in self.all_costs.values()}) > 1:
            raise ValueError("all costs must be in one currency")
        if self.procurement_cost is not None and self.procurement_unpriced_lines:
            raise ValueError(
                "procurement_cost is unknown while cost lines are unpriced"
            )
        if self.kiria_cost is not None and not self.kiria_certification:
            raise ValueError("kiria_cost is given but no KIRIA certification")
        cap = SIM_REDUCTION_CAP[self.maturity]
        reduction = self.sim_validation_reduction
        if reduction is not None and reduction > cap:
            raise ValueError(
                f"sim_validation_reduction {reduction} exceeds {cap}, the most "
                f"simulation may take off for {self.application} "
                f"({self.maturity})"
            )
        return self

    @computed_field  # type: ignore[prop-decorator]
    @property
    def task_type(self) -> TaskType:
        """What the application is planned as: derived, never entered."""
        return TASK_TYPE_BY_APPLICATION[self.application]

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
    def ce_conformity(self) -> bool:
        """The cell is in the EU / EEA: both plans schedule its CE conformity
        assessment and technical file (decided by the country, as the cost
        line is)."""
        return jurisdiction_of(self.country) == "EU"

    @property
    def all_costs(self) -> dict[str, CostRange]:
        """The costs of the activities: those entered, else the work costed
        from the labour rates, else the procurement, KIRIA and other costs
        from the cost lines. An activity whose work cannot be costed has no
        cost unless one is entered."""
        from_lines = {
            PROCUREMENT: self.procurement_cost,
            KIRIA_CERTIFICATION: self.kiria_cost,
            **self.line_costs,
        }
        known = {
            k: v
            for k, v in from_lines.items()
            if v is not None and k not in self.work_missing
        }
        return {**known, **self.work_costs, **self.costs}

    @property
    def currency(self) -> str:
        return next((cost.currency for cost in self.all_costs.values()), "")
