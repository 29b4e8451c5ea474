"""The sim-first comparison follows the cell's application (issue 15): its
maturity, and words that say what the application is, never another."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from pydantic import ValidationError
from rest_framework.test import APIClient

from cells.applications import APPLICATION_CODES
from compliance.plan.comparison import compare
from compliance.plan.inputs import PlanInputs
from compliance.plan.schedule import REAL_DEMONSTRATIONS, VALIDATION_TASK
from compliance.plan.sim_first import sim_first_activities


def inputs(application: str, **changes) -> PlanInputs:
    return PlanInputs(country="DE", application=application, **changes)


def texts(result) -> str:
    lines = [
        result.maturity_line,
        *result.sim_can_retire,
        *result.cannot_prove,
        *result.assumptions,
        *result.notes,
    ]
    return " ".join(line.render() for line in lines)


@pytest.mark.parametrize(
    ("application", "maturity"),
    [
        ("mobile_manipulation", "transfers_well"),
        ("palletising", "partly"),
        ("pick_and_place", "partly"),
        ("machine_tending", "partly"),
        ("assembly", "evaluation_aid_only"),
        ("grinding", "evaluation_aid_only"),
        ("arc_welding", "evaluation_aid_only"),
        ("painting", "evaluation_aid_only"),
    ],
)
def test_the_maturity_follows_the_application(application, maturity):
    assert compare(inputs(application)).maturity == maturity


def test_mobile_manipulation_transfers_well():
    line = compare(inputs("mobile_manipulation")).maturity_line.render()
    assert line == (
        "Mobile manipulation: mobile and locomotion tasks transfer from "
        "simulation well."
    )


@pytest.mark.parametrize("application", ["palletising", "pick_and_place"])
def test_palletising_and_pick_and_place_transfer_partly(application):
    result = compare(inputs(application))
    assert "transfers from simulation partly" in result.maturity_line.render()
    assert result.inputs.reduction == Decimal("0.25")


@pytest.mark.parametrize("application", ["assembly", "grinding"])
def test_contact_rich_applications_do_not_transfer_simulation_an_evaluation_aid(
    application,
):
    result = compare(inputs(application))
    line = result.maturity_line.render()
    assert "does not transfer from simulation" in line
    assert "evaluation aid" in line and "real demonstrations" in line
    sim = {a.key: a for a in sim_first_activities(result.inputs)}
    assert REAL_DEMONSTRATIONS in sim[VALIDATION_TASK].depends_on
    assert result.inputs.reduction == 0


def test_arc_welding_is_planned_as_a_process_never_as_pick_and_place():
    result = compare(inputs("arc_welding"))
    assert (result.application, result.task_type) == ("arc_welding", "process")
    assert result.maturity_line.render().startswith("Arc welding: ")
    said = texts(result)
    assert "pick-and-place" not in said.lower()
    assert "contact-rich manipulation" not in said
    assert "evaluation aid" in said
    with pytest.raises(ValidationError, match="exceeds 0"):
        inputs("arc_welding", sim_validation_reduction=Decimal("0.1"))


@pytest.mark.parametrize("application", APPLICATION_CODES)
def test_every_application_has_its_words(application):
    result = compare(inputs(application))
    assert "%(" not in texts(result)


def test_inputs_from_before_applications_give_a_task_type():
    old = PlanInputs(country="DE", task_type="contact_rich_manipulation")
    assert (old.application, old.task_type) == ("assembly", "contact_rich_manipulation")
    # Dumped with the task type derived, and read back the same.
    again = PlanInputs.model_validate(inputs("painting").model_dump())
    assert (again.application, again.task_type) == ("painting", "process")


def test_a_task_type_contradicting_the_application_is_refused():
    with pytest.raises(ValidationError, match="contradicts"):
        PlanInputs(
            country="DE", application="arc_welding", task_type="structured_pick_place"
        )
    with pytest.raises(ValidationError, match="application"):
        PlanInputs(country="DE", application="welding")


# --- the plan's page and API --------------------------------------------------


@pytest.fixture
def welding_cell(cell):
    cell.application = "arc_welding"
    cell.save()
    return cell


def test_the_plan_page_of_an_arc_welding_cell_never_says_pick_and_place(
    owner_client, welding_cell
):
    response = owner_client.get(reverse("compliance:cell_plan", args=[welding_cell.pk]))
    assert response.status_code == 200
    assert "Arc welding: " in response.text
    assert "evaluation aid" in response.text
    assert "pick-and-place" not in response.text.lower()


def test_the_plan_api_names_the_application_and_its_task_type(owner, welding_cell):
    client = APIClient()
    client.force_authenticate(owner)
    response = client.get(f"/api/v1/cells/{welding_cell.pk}/plan/")
    assert response.status_code == 200
    data = response.json()
    assert (data["application"], data["task_type"], data["maturity"]) == (
        "arc_welding",
        "process",
        "evaluation_aid_only",
    )
    assert data["inputs"]["application"] == "arc_welding"
    assert data["inputs"]["task_type"] == "process"
    assert "pick" not in response.content.decode().lower()
