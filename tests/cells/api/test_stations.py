"""Operator stations through the API: create, change, delete, validate, filter."""

from __future__ import annotations

import pytest

from cells.models import OperatorStation
from tests.cells.api.support import detail_url, list_url, station_body
from tests.factories import CellFactory, OperatorStationFactory

pytestmark = pytest.mark.django_db


def test_editor_creates_a_station(owner_api, cell):
    response = owner_api.post(
        list_url("operator-station"), station_body(cell), format="json"
    )

    assert response.status_code == 201
    station = OperatorStation.objects.get(pk=response.data["id"])
    assert (station.cell, station.label, station.x_mm) == (cell, "HMI", 100)


def test_editor_changes_a_station(owner_api, station):
    response = owner_api.patch(
        detail_url("operator-station", station.pk), {"y_mm": -1200}, format="json"
    )

    assert response.status_code == 200
    station.refresh_from_db()
    assert station.y_mm == -1200


def test_editor_replaces_a_station(owner_api, station, cell):
    response = owner_api.put(
        detail_url("operator-station", station.pk), station_body(cell), format="json"
    )

    assert response.status_code == 200
    station.refresh_from_db()
    assert station.label == "HMI"


def test_editor_moves_a_station_to_another_cell(owner_api, station, project):
    other = CellFactory(project=project)

    response = owner_api.patch(
        detail_url("operator-station", station.pk), {"cell": other.pk}, format="json"
    )

    assert response.status_code == 200
    station.refresh_from_db()
    assert station.cell == other


def test_editor_deletes_a_station(owner_api, station):
    response = owner_api.delete(detail_url("operator-station", station.pk))

    assert response.status_code == 204
    assert not OperatorStation.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"label": ""}, "label"),
        ({"label": "x" * 61}, "label"),
        ({"x_mm": "near the door"}, "x_mm"),
        ({"y_mm": None}, "y_mm"),
        ({"x_mm": True}, "x_mm"),
        ({"cell": "this one"}, "cell"),
    ],
)
def test_station_with_bad_input_is_refused(owner_api, cell, change, field):
    response = owner_api.post(
        list_url("operator-station"), station_body(cell, **change), format="json"
    )

    assert response.status_code == 400
    assert field in response.data
    assert not OperatorStation.objects.exists()


def test_station_without_a_label_is_refused(owner_api, cell):
    body = station_body(cell)
    del body["label"]

    response = owner_api.post(list_url("operator-station"), body, format="json")

    assert response.status_code == 400
    assert "label" in response.data


def test_stations_filter_by_cell(owner_api, cell, project):
    here = OperatorStationFactory(cell=cell)
    OperatorStationFactory(cell=CellFactory(project=project))

    response = owner_api.get(list_url("operator-station") + f"?cell={cell.pk}")

    assert [row["id"] for row in response.data["results"]] == [here.pk]
