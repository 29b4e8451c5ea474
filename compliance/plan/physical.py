"""The physical-first plan. ``physical_first_activities`` builds the physical-first plan of a robot cell:
risk assessment → procurement of guarding and devices (and, in Korea, KCs
certification beside it) → installation → staged validation on the real cell
(stopping times and safety functions, the task, and force and pressure for
power and force limiting) → (in Korea, for a collaborative cell without the
Art. 223 fence, the KIRIA workplace certification; in the EU / EEA, the CE
conformity assessment and technical file) → PoC start.

Durations are of three kinds, and each activity says which:

- sourced: the procurement lead time from the cell's cost line items, and the
  KCs self-declaration lead time of 3–4 weeks, quoted by one consultant
  (the reference data ``korea_art223.json``, ``fees_and_lead_times``:
  single source, so ``certainty`` is ``one_source``);
- entered for this project by the user (``PlanInputs.durations`` and the
  lead-time fields);
- assumptions (``ASSUMPTION_DEFAULTS``): no public figure was found, so these
  are starting values with ``assumption=True`` and the note "edit to your
  project". They are never presented as sourced figures. The KIRIA
  certification is one: no public lead time (nor fee) was found for it; so
  is the CE conformity assessment (no public duration nor cost).

Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from typing import Any

from compliance.calculators.base import Certainty, Line, gettext_noop
from compliance.plan.inputs import (
    ASSUMPTION_DEFAULTS,
    CE_CONFORMITY,
    KCS_NAME,
    KIRIA_CERTIFICATION,
    KR_SELF_DECLARATION_SOURCE,
    KR_SELF_DECLARATION_WEEKS,
    PlanInputs,
)
from compliance.plan.schedule import (
    ENTERED_SOURCE,
    INSTALLATION,
    KCS_CERTIFICATION,
    POC_START,
    PROCUREMENT,
    RISK_ASSESSMENT,
    VALIDATION_PFL,
    VALIDATION_STOPPING,
    VALIDATION_TASK,
    ZERO,
    Activity,
)

# --- the physical-first plan --------------------------------------------------------


def _cost_fields(inputs: PlanInputs, key: str) -> dict[str, Any]:
    cost = inputs.all_costs.get(key)
    if cost is None:
        missing = inputs.work_missing.get(key, ())
        return {"cost_basis": missing} if missing else {}
    basis = cost.basis or ((Line(text=cost.source),) if cost.source else ())
    return {
        "cost_low": cost.low,
        "cost_high": cost.high,
        "currency": cost.currency,
        "cost_basis": basis,
    }


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
        "name": KCS_NAME,
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
    if KIRIA_CERTIFICATION in depends_on:
        basis = gettext_noop(
            "The PoC starts when the staged validation on the real cell is done "
            "and the KIRIA certificate is issued."
        )
    elif CE_CONFORMITY in depends_on:
        basis = gettext_noop(
            "The PoC starts when the staged validation on the real cell is done "
            "and the declaration of conformity for the installed cell is drawn "
            "up."
        )
    else:
        basis = gettext_noop(
            "The PoC starts when the staged validation on the real cell is done."
        )
    return Activity(
        key=POC_START,
        name=gettext_noop("PoC start"),
        phase="milestone",
        duration_weeks_low=ZERO,
        duration_weeks_high=ZERO,
        depends_on=depends_on,
        basis=basis,
    )


def physical_first_activities(inputs: PlanInputs) -> tuple[Activity, ...]:
    """The physical-first plan: risk assessment → procurement (and KCs in
    Korea, beside it) → installation → staged validation on the real cell →
    (KIRIA certification, where the cost lines ask for it; CE conformity, in
    the EU / EEA) → PoC start."""
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
    if "pfl" in inputs.collaborative_modes:
        stages.append(VALIDATION_PFL)
    previous = INSTALLATION
    for key in stages:
        activities.append(planned_activity(inputs, key, (previous,)))
        previous = key
    if inputs.kiria_certification:
        # What KIRIA certifies is the installed workplace: a document review
        # and an on-site audit against KS B ISO 10218-2 / ISO/TS 15066
        # (korea_art223.json cobot_exemption_route), so the cell is built and
        # validated first; until the certificate is issued the Art. 223 fence
        # rule applies, so the PoC waits for it. Its cost: the KIRIA line's,
        # unknown (to be quoted) while that line has no price.
        activities.append(planned_activity(inputs, KIRIA_CERTIFICATION, (previous,)))
        previous = KIRIA_CERTIFICATION
    if inputs.ce_conformity:
        # The declaration of conformity covers the installed cell, and the
        # technical file holds the records of its validation, so the cell is
        # built and validated first and the PoC waits for the declaration.
        # Its cost: the ``ce_conformity`` line's, unknown (to be quoted)
        # while that line has no price.
        activities.append(planned_activity(inputs, CE_CONFORMITY, (previous,)))
        previous = CE_CONFORMITY
    activities.append(poc_start((previous,)))
    return tuple(activities)
