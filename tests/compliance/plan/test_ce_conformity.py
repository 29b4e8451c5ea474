"""The CE conformity assessment and technical file where the EU pack applies
(issue 29): for a cell in the EU / EEA a cost line ``ce_conformity`` (to be
quoted: no public figure exists for an integrator's own assessment) that
answers the EU rules on the conformity assessment procedure and the
technical file, and an activity of both plans after the validation on the
real cell and before the PoC start, costed from that line, with a duration
that is an assumption (the reference data has no duration for it)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from compliance.costs.catalogue import CATALOGUE_BY_KEY
from compliance.costs.derivation import derive_line_items
from compliance.models import CatalogueEdit
from compliance.plan.comparison import compare
from compliance.plan.inputs import CE_CONFORMITY, CostRange, PlanInputs
from compliance.plan.physical import physical_first_activities
from compliance.plan.schedule import (
    ASSUMPTION_NOTE,
    POC_START,
    VALIDATION_PFL,
    VALIDATION_TASK,
    schedule,
)
from compliance.plan.sim_first import sim_first_activities
from compliance.rules.engine import evaluate
from tests.compliance.rules.cells import cell

NAME = "CE conformity assessment and technical file"
LINE_NAME = (
    "CE conformity assessment and technical file of the cell (Machinery "
    "Directive / Regulation)"
)
# The assumption default: no public figure, a starting value to edit.
ASSUMED_WEEKS = (Decimal(1), Decimal(3))


def _line_items(**kw):
    facts = cell(**kw)
    return {i.key: i for i in derive_line_items(facts, evaluate(facts))}


# --- the cost line ----------------------------------------------------------------


def test_a_german_cell_gets_the_ce_conformity_line_to_be_quoted():
    # Put into service in 2027: the Machinery Regulation applies.
    item = _line_items(country="DE", planned_start=date(2027, 3, 1))["ce_conformity"]
    assert item.catalogue_key == "ce_conformity"
    assert item.description.render() == LINE_NAME
    assert (item.category, item.unit, item.quantity) == ("service", "job", 1)
    # No public figure: to be quoted, never left out.
    assert item.price_low is None and item.price_high is None
    assert item.basis == "unknown"
    assert item.citation == (
        "Regulation (EU) 2023/1230, Annex IV (technical documentation), Annex V "
        "(EU declaration of conformity), CE marking"
    )
    assert [f.rule_id for f in item.findings] == [
        "EU-MR-conformity-route",
        "EU-MR-technical-file",
    ]
    assert "Regulation (EU) 2023/1230" in item.reason.render()


def test_a_cell_put_into_service_before_2027_cites_the_directive():
    item = _line_items(country="FR", planned_start=date(2026, 10, 1))["ce_conformity"]
    assert item.citation.startswith("Directive 2006/42/EC, Art. 5 and Annex VII")
    assert [f.rule_id for f in item.findings] == [
        "EU-MD-conformity-route",
        "EU-MD-technical-file",
    ]


@pytest.mark.parametrize("country", ["KR", "US", "JP"])
def test_no_ce_conformity_line_outside_the_eu(country):
    assert "ce_conformity" not in _line_items(country=country)


def test_the_notified_body_is_never_derived():
    # EC type examination is for Annex IV / Annex I Part A machinery only:
    # an entry the user adds, priced EUR 10,000-40,000 from one article.
    assert "ec_type_certification" not in _line_items(country="DE")
    entry = CATALOGUE_BY_KEY["ce_conformity"]
    assert entry.price_low is None and entry.basis == "unknown"
    assert "Annex IV of the Directive" in entry.note
    assert "Annex I Part A of the Regulation" in entry.note
    assert "EUR 10,000-40,000" in entry.note


# --- the plans --------------------------------------------------------------------


def _inputs(**kw) -> PlanInputs:
    fields = {
        "country": "DE",
        "collaborative_modes": ("pfl",),
        "task_type": "structured_pick_place",
    }
    return PlanInputs(**(fields | kw))


def _by_key(activities):
    return {a.key: a for a in activities}


@pytest.mark.parametrize("plan", [physical_first_activities, sim_first_activities])
def test_both_plans_assess_the_installed_cell_before_the_poc(plan):
    activities = _by_key(plan(_inputs()))
    ce = activities[CE_CONFORMITY]
    assert ce.name == NAME
    assert ce.phase == "certification"
    # After the last stage of the validation on the real cell, and the PoC
    # waits for the declaration of conformity.
    assert ce.depends_on == (VALIDATION_PFL,)
    assert activities[POC_START].depends_on == (CE_CONFORMITY,)
    assert "declaration of conformity" in activities[POC_START].basis
    # Its duration is an assumption, never a sourced figure.
    assert (ce.duration_weeks_low, ce.duration_weeks_high) == ASSUMED_WEEKS
    assert ce.assumption is True
    assert ce.certainty is None and ce.source == ""
    assert ce.note == ASSUMPTION_NOTE
    # No public figure: no cost, to be quoted.
    assert not ce.cost_known


def test_without_pfl_it_follows_the_task_stage():
    activities = _by_key(physical_first_activities(_inputs(collaborative_modes=())))
    assert activities[CE_CONFORMITY].depends_on == (VALIDATION_TASK,)
    assert list(activities)[-2:] == [CE_CONFORMITY, POC_START]


def test_the_assessment_lengthens_the_way_to_the_poc():
    without = schedule(physical_first_activities(_inputs(country="US")))
    with_it = schedule(physical_first_activities(_inputs()))
    assert with_it.total_weeks_low == without.total_weeks_low + ASSUMED_WEEKS[0]
    assert with_it.total_weeks_high == without.total_weeks_high + ASSUMED_WEEKS[1]
    assert CE_CONFORMITY in with_it.critical_path_high


@pytest.mark.parametrize("country", ["KR", "US"])
def test_no_ce_activity_outside_the_eu(country):
    for plan in (physical_first_activities, sim_first_activities):
        assert CE_CONFORMITY not in _by_key(plan(_inputs(country=country)))
    notes = " ".join(line.render() for line in compare(_inputs(country=country)).notes)
    assert "CE" not in notes


def test_its_unknown_cost_and_assumed_duration_are_named():
    result = compare(_inputs())
    for plan in (result.physical_first, result.sim_first):
        assert CE_CONFORMITY in plan.unknown_cost_keys
    assumptions = [line.render() for line in result.assumptions]
    assert f"{NAME}: 1–3 weeks, an assumption: edit to your project." in assumptions
    assert (
        f"No cost entered for {NAME}: counted as unknown in the totals." in assumptions
    )
    assert not any("No certification step" in text for text in assumptions)
    notes = " ".join(line.render() for line in result.notes)
    assert "after the validation on the real cell and before the PoC starts" in notes
    assert (
        "No public duration or cost was found for the CE conformity assessment "
        "and technical file: its 1–3 weeks are an assumption and its cost is to "
        "be quoted." in notes
    )


def test_a_priced_line_gives_the_activity_its_cost():
    line = CostRange(low=Decimal(8000), high=Decimal(12000), currency="EUR")
    result = compare(_inputs(line_costs={CE_CONFORMITY: line}))
    for plan in (result.physical_first, result.sim_first):
        ce = plan.schedule.get(CE_CONFORMITY).activity
        assert (ce.cost_low, ce.cost_high, ce.currency) == (
            Decimal(8000),
            Decimal(12000),
            "EUR",
        )
        assert CE_CONFORMITY not in plan.unknown_cost_keys
    notes = " ".join(line.render() for line in result.notes)
    assert "its cost is to be quoted" not in notes
    assert (
        "No public duration was found for the CE conformity assessment and "
        "technical file: its 1–3 weeks are an assumption." in notes
    )


# --- from the cell ----------------------------------------------------------------


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def german_cell(cell):
    project = cell.project
    project.country = "DE"
    project.currency = "EUR"
    project.save()
    return cell


def _ce_activity(plan: dict, name: str) -> dict:
    return next(
        a["activity"]
        for a in plan[name]["schedule"]["activities"]
        if a["activity"]["key"] == CE_CONFORMITY
    )


def test_the_cells_plan_schedules_the_assessment_to_be_quoted(owner, german_cell):
    data = _api(owner).get(f"/api/v1/cells/{german_cell.pk}/line-items/").json()
    (line,) = [i for i in data["items"] if i["catalogue_key"] == "ce_conformity"]
    assert Decimal(line["quantity"]) == 1
    assert line["price_low"] is None
    plan = _api(owner).get(f"/api/v1/cells/{german_cell.pk}/plan/").json()
    for name in ("physical_first", "sim_first"):
        assert _ce_activity(plan, name)["cost_low"] is None
        assert CE_CONFORMITY in plan[name]["unknown_cost_keys"]


def test_the_organisations_price_costs_the_assessment(owner, german_cell):
    # The organisation's own figure for its conformity assessments.
    CatalogueEdit.objects.create(
        organisation_id=german_cell.project.organisation_id,
        key="ce_conformity",
        price_low=8000,
        price_high=12000,
        currency="EUR",
        source="Our CE assessments of 2026",
    )
    plan = _api(owner).get(f"/api/v1/cells/{german_cell.pk}/plan/").json()
    for name in ("physical_first", "sim_first"):
        activity = _ce_activity(plan, name)
        assert (Decimal(activity["cost_low"]), Decimal(activity["cost_high"])) == (
            8000,
            12000,
        )
        assert activity["currency"] == "EUR"
        assert CE_CONFORMITY not in plan[name]["unknown_cost_keys"]
