"""The cell's application (issue 15): chosen from the list integrators use, on
the form, the page, the API and the exchange document; the task type is
derived from it and can never contradict it; old rows and old documents get
the application their task type stood for."""

from __future__ import annotations

import importlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from pydantic import ValidationError

from cells import applications
from cells.exchange import CellDocument
from cells.models import Cell
from cells.models.cell import TASK_TYPE_CHOICES, Application
from tests.cells.api.support import cell_body, detail_url, list_url
from tests.factories import CellFactory

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "fixtures" / "demo" / "palletiser.json"

FORM = {
    "name": "Welding cell 2",
    "robot_manufacturer": "Acme",
    "robot_model": "W-8",
    "robot_kind": "industrial",
    "payload_kg": "8",
    "reach_mm": "1400",
    "max_tcp_speed_mm_s": "2000",
    "moving_mass_kg": "150",
    "robot_base_x_mm": "0",
    "robot_base_y_mm": "0",
}


def old_document(**changes) -> dict:
    """The demo palletiser as a document from before applications."""
    data = json.loads(DEMO.read_text(encoding="utf-8"))
    data.pop("application", None)
    return {**data, **changes}


# --- the list and the one mapping ---------------------------------------------


def test_the_list_is_the_twelve_applications_integrators_build_in_their_words():
    assert [str(label) for _, label in Application.choices] == [
        "Palletising and depalletising",
        "Machine tending",
        "Arc welding",
        "Spot welding",
        "Dispensing and gluing",
        "Painting",
        "Assembly and screwdriving",
        "Inspection and testing",
        "Pick-and-place and packaging",
        "Deburring and grinding",
        "Laboratory automation",
        "Mobile manipulation",
    ]
    # The model's choices and the pure list are the same list.
    assert Application.choices == list(applications.APPLICATION_LABELS.items())
    assert tuple(Application.values) == applications.APPLICATION_CODES


def test_every_application_is_planned_as_one_task_type():
    assert set(applications.TASK_TYPE_BY_APPLICATION) == set(Application.values)
    assert set(applications.TASK_TYPE_BY_APPLICATION.values()) <= set(
        applications.TASK_TYPE_CODES
    )
    assert [code for code, _ in TASK_TYPE_CHOICES] == list(applications.TASK_TYPE_CODES)


@pytest.mark.parametrize(
    ("application", "task_type"),
    [
        ("arc_welding", "process"),
        ("painting", "process"),
        ("palletising", "structured_pick_place"),
        ("pick_and_place", "structured_pick_place"),
        ("assembly", "contact_rich_manipulation"),
        ("grinding", "contact_rich_manipulation"),
        ("mobile_manipulation", "mobile_locomotion"),
    ],
)
def test_the_task_type_follows_the_application(application, task_type):
    cell = Cell(application=application)
    assert cell.task_type == task_type


def test_an_arc_welding_cell_is_not_called_pick_and_place():
    cell = Cell(application="arc_welding")
    assert cell.task_type != "structured_pick_place"
    assert "pick-and-place" not in cell.get_task_type_display().lower()
    assert cell.get_application_display() == "Arc welding"


def test_code_from_before_applications_setting_a_task_type_gets_its_application():
    cell = Cell(application="arc_welding")
    cell.task_type = "process"  # what it already is: nothing changes
    assert cell.application == "arc_welding"
    cell.task_type = "contact_rich_manipulation"
    assert cell.application == "assembly"
    with pytest.raises(ValueError, match="Set the application"):
        cell.task_type = "process"  # welding? painting? not to be guessed


def test_the_pure_modules_import_no_django():
    code = (
        "import sys; import cells.applications, "
        "compliance.assessment.hazards.applications; "
        "print('django' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "False"


# --- the form -----------------------------------------------------------------


def test_a_new_cell_must_choose_its_application(owner_client, project):
    url = reverse("cells:cell_create", args=[project.pk])
    form = owner_client.get(url).context["form"]
    assert form["application"].value() in ("", None)  # nothing preselected
    assert '<option value="" selected>Choose the application</option>' in (
        owner_client.get(url).text
    )

    response = owner_client.post(url, FORM)

    assert response.status_code == 200
    assert response.context["form"].errors["application"] == ["This field is required."]
    assert not Cell.objects.filter(name="Welding cell 2").exists()


def test_an_unknown_application_is_a_form_error(owner_client, project):
    response = owner_client.post(
        reverse("cells:cell_create", args=[project.pk]),
        {**FORM, "application": "welding"},
    )
    assert response.status_code == 200
    assert "application" in response.context["form"].errors
    assert not Cell.objects.filter(name="Welding cell 2").exists()


def test_the_application_chosen_is_saved_and_named_on_the_cell_page(
    owner_client, project
):
    response = owner_client.post(
        reverse("cells:cell_create", args=[project.pk]),
        {**FORM, "application": "arc_welding"},
    )
    cell = Cell.objects.get(name="Welding cell 2")
    assert response.status_code == 302
    assert cell.application == "arc_welding"

    page = owner_client.get(reverse("cells:cell_detail", args=[cell.pk])).text
    assert "Arc welding" in page
    assert "pick-and-place" not in page.lower()


def test_editing_a_cell_shows_and_changes_its_application(owner_client, cell):
    url = reverse("cells:cell_edit", args=[cell.pk])
    assert owner_client.get(url).context["form"]["application"].value() == (
        "pick_and_place"
    )
    data = {**FORM, "name": cell.name, "application": "painting"}
    assert owner_client.post(url, data).status_code == 302
    cell.refresh_from_db()
    assert (cell.application, cell.task_type) == ("painting", "process")


# --- the API ------------------------------------------------------------------


@pytest.fixture
def owner_api(owner):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(owner)
    return client


def test_the_api_creates_an_arc_welding_cell_and_never_calls_it_pick_and_place(
    owner_api, project
):
    response = owner_api.post(
        list_url("cell"), cell_body(project, application="arc_welding"), format="json"
    )

    assert response.status_code == 201, response.json()
    assert (response.data["application"], response.data["task_type"]) == (
        "arc_welding",
        "process",
    )
    shown = owner_api.get(detail_url("cell", response.data["id"]))
    assert "pick" not in shown.content.decode().lower()


def test_an_unknown_application_is_a_400_naming_the_field(owner_api, project):
    response = owner_api.post(
        list_url("cell"), cell_body(project, application="welding"), format="json"
    )
    assert response.status_code == 400
    assert "application" in response.json()
    assert not Cell.objects.filter(project=project).exists()


def test_the_task_type_cannot_be_written_over_the_api(owner_api, cell):
    response = owner_api.patch(
        detail_url("cell", cell.pk),
        {"application": "grinding", "task_type": "mobile_locomotion"},
        format="json",
    )
    assert response.status_code == 200
    assert response.data["task_type"] == "contact_rich_manipulation"
    cell.refresh_from_db()
    assert cell.application == "grinding"


def test_a_client_from_before_applications_still_creates_a_cell(owner_api, project):
    # As before, a cell created without saying is (structured) pick-and-place.
    response = owner_api.post(list_url("cell"), cell_body(project), format="json")
    assert response.status_code == 201
    assert (response.data["application"], response.data["task_type"]) == (
        "pick_and_place",
        "structured_pick_place",
    )


# --- the exchange document ----------------------------------------------------


def test_the_export_carries_the_application_and_it_imports_again(owner_api, project):
    cell = CellFactory(project=project, application="spot_welding")
    document = owner_api.get(f"/api/v1/cells/{cell.pk}/export/").json()
    assert (document["application"], document["task_type"]) == (
        "spot_welding",
        "process",
    )

    response = owner_api.post(
        "/api/v1/cells/import/",
        {"project": project.pk, "document": document},
        format="json",
    )

    assert response.status_code == 201, response.json()
    assert Cell.objects.get(pk=response.json()["id"]).application == "spot_welding"


@pytest.mark.parametrize(
    ("task_type", "application"),
    [
        ("structured_pick_place", "pick_and_place"),
        ("contact_rich_manipulation", "assembly"),
        ("mobile_locomotion", "mobile_manipulation"),
    ],
)
def test_an_old_document_with_only_a_task_type_imports_as_its_application(
    owner_api, project, task_type, application
):
    response = owner_api.post(
        "/api/v1/cells/import/",
        {"project": project.pk, "document": old_document(task_type=task_type)},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert Cell.objects.get(pk=response.json()["id"]).application == application


def test_an_unknown_application_in_a_document_is_a_400_naming_it(owner_api, project):
    response = owner_api.post(
        "/api/v1/cells/import/",
        {"project": project.pk, "document": old_document(application="welding")},
        format="json",
    )
    assert response.status_code == 400
    assert "document.application" in response.json()
    assert not Cell.objects.filter(project=project).exists()


def test_in_a_document_the_application_decides_the_task_type():
    document = CellDocument.model_validate(
        old_document(application="painting", task_type="structured_pick_place")
    )
    assert (document.application, document.task_type) == ("painting", "process")


def test_a_document_cannot_leave_a_process_application_to_be_guessed():
    with pytest.raises(ValidationError, match="Give the application"):
        CellDocument.model_validate(old_document(task_type="process"))


# --- old rows and the demo -----------------------------------------------------

migration = importlib.import_module("cells.migrations.0018_cell_application")


@pytest.mark.parametrize(
    ("task_type", "application"),
    [
        ("structured_pick_place", "pick_and_place"),
        ("contact_rich_manipulation", "assembly"),
        ("mobile_locomotion", "mobile_manipulation"),
        ("", "pick_and_place"),
    ],
)
def test_the_migration_maps_each_old_task_type_to_its_application(
    task_type, application
):
    assert migration.application_for(task_type) == application


def test_back_the_migration_keeps_each_application_s_maturity():
    # The way back has three task types: a process application goes back as
    # contact-rich, which is planned as cautiously.
    assert migration.task_type_for("arc_welding") == "contact_rich_manipulation"
    assert migration.task_type_for("palletising") == "structured_pick_place"
    assert migration.task_type_for("mobile_manipulation") == "mobile_locomotion"


@pytest.mark.django_db(transaction=True)
@pytest.mark.django_db(transaction=True)
def test_the_data_migration_gives_old_rows_their_application(project):
    """On PostgreSQL too: in a transaction, an UPDATE's pending trigger events
    forbid a later ALTER TABLE, so the rows are converted in 0018 and the
    column dropped in 0019 (the test runs them as ``migrate`` does)."""
    cells = [CellFactory(project=project, name=f"Cell {i}") for i in range(4)]
    target_before = [("cells", "0017_layout_image")]
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(target_before)
        old = executor.loader.project_state(target_before).apps.get_model(
            "cells", "Cell"
        )
        for cell, task_type in zip(
            cells,
            [
                "structured_pick_place",
                "contact_rich_manipulation",
                "mobile_locomotion",
                "contact_rich_manipulation",
            ],
            strict=True,
        ):
            old.objects.filter(pk=cell.pk).update(task_type=task_type)

        executor = MigrationExecutor(connection)
        executor.migrate([("cells", "0019_cell_application_checked")])
    finally:
        call_command("migrate", verbosity=0)

    assert [Cell.objects.get(pk=c.pk).application for c in cells] == [
        "pick_and_place",
        "assembly",
        "mobile_manipulation",
        "assembly",
    ]


def test_the_demo_cells_are_a_palletiser_and_a_machine_tending_cell(db):
    call_command("seed_demo", stdout=io.StringIO())
    applications_by_name = dict(
        Cell.objects.filter(
            project__organisation__slug="demo", variant_of__isnull=True
        ).values_list("name", "application")
    )
    assert applications_by_name == {
        "케이스 팔레타이저 A": "palletising",
        "머신 텐딩 협동로봇": "machine_tending",
        # The demo per jurisdiction (issue 30): Germany and the United States.
        "Lathe tending cell": "machine_tending",
        "Case palletiser (US)": "palletising",
    }
