"""What a robot program is judged against (issue 32): the body regions a
safety engineer records at each operator station and the reach round it
where contact can happen, and how the robot's base frame is turned on the
plan. Kept, bounded, refused by name, and carried through the exchange
document."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from cells.models import OperatorStation
from cells.selectors import cell_document, load_layout
from cells.services import cell_import
from tests.factories import CellFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner_api(owner):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(owner)
    return client


def test_a_station_keeps_its_exposed_regions_and_reach(owner_api, cell):
    response = owner_api.post(
        reverse("api:operator-station-list"),
        {
            "cell": cell.pk,
            "label": "Load",
            "x_mm": 0,
            "y_mm": -900,
            "exposed_regions": ["chest", "hands_fingers"],
            "contact_reach_mm": 850,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    station = OperatorStation.objects.get(cell=cell)
    assert station.exposed_regions == ["chest", "hands_fingers"]
    assert station.contact_reach_mm == 850


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("exposed_regions", ["chest", "tail"]),
        ("exposed_regions", "chest"),
        ("contact_reach_mm", 0),
        ("contact_reach_mm", 100_001),
    ],
)
def test_a_region_or_reach_that_cannot_be_is_a_400_naming_its_field(
    owner_api, cell, field, value
):
    body = {"cell": cell.pk, "label": "Load", "x_mm": 0, "y_mm": -900, field: value}
    response = owner_api.post(reverse("api:operator-station-list"), body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert not OperatorStation.objects.filter(cell=cell).exists()


def test_the_model_refuses_a_region_iso_ts_15066_does_not_name(cell):
    station = OperatorStation(
        cell=cell, label="Load", x_mm=0, y_mm=0, exposed_regions=["wing"]
    )
    with pytest.raises(ValidationError) as caught:
        station.full_clean()
    assert "exposed_regions" in caught.value.message_dict


def test_the_exchange_document_carries_the_regions_and_the_rotation(project):
    cell = CellFactory(project=project, robot_base_rotation_deg=90)
    OperatorStation.objects.create(
        cell=cell,
        label="Load",
        x_mm=0,
        y_mm=-900,
        exposed_regions=["chest"],
        contact_reach_mm=700,
    )
    document = cell_document(load_layout(cell))
    assert document.robot_base_rotation_deg == 90
    (station,) = document.operator_stations
    assert (station.exposed_regions, station.contact_reach_mm) == (["chest"], 700)

    copy = cell_import(
        project=project, document=document.model_copy(update={"name": "Copy"})
    )
    assert copy.robot_base_rotation_deg == 90
    assert copy.stations.get().exposed_regions == ["chest"]


def test_a_rotation_past_half_a_turn_is_refused(project):
    cell = CellFactory.build(project=project, robot_base_rotation_deg=181)
    with pytest.raises(ValidationError) as caught:
        cell.full_clean()
    assert "robot_base_rotation_deg" in caught.value.message_dict
