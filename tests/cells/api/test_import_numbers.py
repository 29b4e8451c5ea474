"""Numbers in an imported exchange document are numbers: ``true`` and
``false`` are a 400 naming the field's place in the body, as everywhere else
in the API, and nothing is saved. A number written as a string still reads,
as the API's other numbers do, and the demo documents still import."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.urls import reverse

from cells.models import Cell

pytestmark = pytest.mark.django_db

IMPORT_URL = reverse("api:cell-import")
DEMO = Path(__file__).resolve().parents[3] / "fixtures" / "demo"
PALLETISER = json.loads((DEMO / "palletiser.json").read_text(encoding="utf-8"))


def _with(path: str, value):
    """The palletiser demo document with ``value`` at the dotted ``path``."""
    document = copy.deepcopy(PALLETISER)
    *parents, last = path.split(".")
    node = document
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    node[int(last) if isinstance(node, list) else last] = value
    return document


def _import(api, project, document):
    return api.post(
        IMPORT_URL, {"project": project.pk, "document": document}, format="json"
    )


@pytest.mark.parametrize(
    "path",
    [
        "robot.reach_mm",
        "robot.max_tcp_speed_mm_s",
        "robot.payload_kg",
        "robot.moving_mass_kg",
        "robot.stopping_time_ms",
        "robot_base.x_mm",
        "hazard_zone.height_mm",
        "guard_segments.0.start.x_mm",
        "guard_segments.0.height_mm",
        "guard_segments.0.openings.0.width_mm",
        "devices.0.opening.segment",
        "devices.0.response_time_ms",
        "devices.0.iec61496_type",
        "devices.0.beam_count",
        "operator_stations.0.x_mm",
    ],
)
@pytest.mark.parametrize("value", [True, False])
def test_a_boolean_for_a_number_is_a_400_naming_its_place(
    owner_api, project, path, value
):
    response = _import(owner_api, project, _with(path, value))

    assert response.status_code == 400
    assert list(response.data) == [f"document.{path}"], response.data
    assert not Cell.objects.filter(project=project).exists()


def test_a_boolean_corner_of_the_hazard_zone_is_named_by_its_place(owner_api, project):
    document = _with(
        "hazard_zone",
        {"shape": "polygon", "polygon_mm": [[0, 0], [True, 0], [0, 1000]]},
    )

    response = _import(owner_api, project, document)

    assert response.status_code == 400
    assert list(response.data) == ["document.hazard_zone.polygon_mm.1.0"]


def test_a_number_written_as_a_string_still_reads(owner_api, project):
    response = _import(owner_api, project, _with("robot.reach_mm", "1700"))

    assert response.status_code == 201, response.data
    assert Cell.objects.get(project=project).reach_mm == 1700


@pytest.mark.parametrize("name", ["palletiser.json", "machine_tending.json"])
def test_the_demo_documents_still_import(owner_api, project, name):
    document = json.loads((DEMO / name).read_text(encoding="utf-8"))

    response = _import(owner_api, project, document)

    assert response.status_code == 201, response.data
