"""Safety devices through the API: create, change, delete, validate, filter."""

from __future__ import annotations

import pytest

from cells.models import Device, DeviceKind
from compliance.assessment import services
from tests.cells.api.support import detail_url, device_body, list_url
from tests.factories import (
    CellFactory,
    DeviceFactory,
    GuardSegmentFactory,
    OpeningFactory,
)

pytestmark = pytest.mark.django_db


def test_editor_creates_a_device_guarding_an_opening(owner_api, cell, opening):
    body = device_body(cell, opening=opening.pk)

    response = owner_api.post(list_url("device"), body, format="json")

    assert response.status_code == 201
    device = Device.objects.get(pk=response.data["id"])
    assert (device.cell, device.opening, device.claimed_pl) == (cell, opening, "d")
    assert response.data["opening"] == opening.pk


def test_editor_creates_a_device_without_an_opening(owner_api, cell):
    body = device_body(cell, kind="emergency_stop", claimed_pl="")

    response = owner_api.post(list_url("device"), body, format="json")

    assert response.status_code == 201
    assert response.data["opening"] is None


def test_editor_changes_a_device(owner_api, device):
    response = owner_api.patch(
        detail_url("device", device.pk),
        {"claimed_pl": "e", "response_time_ms": 20},
        format="json",
    )

    assert response.status_code == 200
    device.refresh_from_db()
    assert (device.claimed_pl, device.response_time_ms) == ("e", 20)


def test_editor_replaces_a_device(owner_api, device, cell):
    response = owner_api.put(
        detail_url("device", device.pk), device_body(cell, opening=None), format="json"
    )

    assert response.status_code == 200
    device.refresh_from_db()
    assert (device.label, device.opening) == ("LC2", None)


def test_editor_deletes_a_device(owner_api, device):
    response = owner_api.delete(detail_url("device", device.pk))

    assert response.status_code == 204
    assert not Device.objects.exists()


def test_device_named_by_a_measure_cannot_be_deleted(owner_api, device, cell, owner):
    revision = services.assessment_open(cell=cell, actor=owner)
    hazard = services.hazard_add(
        revision=revision,
        actor=owner,
        group="mechanical",
        origin="moving_elements",
        consequence="crushing",
        phase="operation",
        task="Loading parts at the infeed",
    )
    services.measure_add(
        hazard=hazard,
        actor=owner,
        step="safeguarding",
        description="Light curtain at the infeed",
        device=device,
    )

    response = owner_api.delete(detail_url("device", device.pk))

    assert response.status_code == 409
    assert "cannot be deleted" in response.data["detail"]
    assert Device.objects.filter(pk=device.pk).exists()
    assert hazard.measures.get().device == device


def test_device_cannot_guard_an_opening_of_another_cell(owner_api, cell, project):
    other_opening = OpeningFactory(
        segment=GuardSegmentFactory(cell=CellFactory(project=project))
    )

    response = owner_api.post(
        list_url("device"), device_body(cell, opening=other_opening.pk), format="json"
    )

    assert response.status_code == 400
    assert "another cell" in str(response.data["opening"][0])
    assert not Device.objects.exists()


def test_device_cannot_move_away_from_the_cell_of_its_opening(
    owner_api, device, cell, project
):
    other = CellFactory(project=project)

    response = owner_api.patch(
        detail_url("device", device.pk), {"cell": other.pk}, format="json"
    )

    assert response.status_code == 400
    assert "opening" in response.data
    device.refresh_from_db()
    assert device.cell == cell


def test_device_may_move_with_its_opening_cleared(owner_api, device, project):
    other = CellFactory(project=project)

    response = owner_api.patch(
        detail_url("device", device.pk),
        {"cell": other.pk, "opening": None},
        format="json",
    )

    assert response.status_code == 200
    device.refresh_from_db()
    assert (device.cell, device.opening) == (other, None)


def test_device_cannot_name_a_foreign_opening(owner_api, cell):
    foreign = OpeningFactory()

    response = owner_api.post(
        list_url("device"), device_body(cell, opening=foreign.pk), format="json"
    )

    assert response.status_code == 400
    assert "does not exist" in str(response.data["opening"][0])


def test_device_cannot_move_to_a_foreign_cell(owner_api, device, cell):
    response = owner_api.patch(
        detail_url("device", device.pk),
        {"cell": CellFactory().pk, "opening": None},
        format="json",
    )

    assert response.status_code == 400
    assert "does not exist" in str(response.data["cell"][0])
    device.refresh_from_db()
    assert device.cell == cell


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"kind": "force_field"}, "kind"),
        ({"kind": None}, "kind"),
        ({"label": ""}, "label"),
        ({"label": "x" * 61}, "label"),
        ({"claimed_pl": "f"}, "claimed_pl"),
        ({"claimed_pl": "PL d"}, "claimed_pl"),
        ({"response_time_ms": -1}, "response_time_ms"),
        ({"response_time_ms": "fast"}, "response_time_ms"),
        ({"response_time_ms": 10**30}, "response_time_ms"),
        ({"opening": "infeed"}, "opening"),
        ({"opening": 999999}, "opening"),
        ({"cell": None}, "cell"),
        ({"cell": [1]}, "cell"),
    ],
)
def test_device_with_bad_input_is_refused(owner_api, cell, change, field):
    response = owner_api.post(
        list_url("device"), device_body(cell, **change), format="json"
    )

    assert response.status_code == 400
    assert field in response.data
    assert not Device.objects.exists()


def test_devices_filter_by_cell_opening_and_kind(owner_api, cell, opening, project):
    curtain = DeviceFactory(cell=cell, opening=opening)
    stop = DeviceFactory(cell=cell, kind=DeviceKind.EMERGENCY_STOP)
    elsewhere = DeviceFactory(cell=CellFactory(project=project))

    def ids(query: str) -> set[int]:
        response = owner_api.get(list_url("device") + query)
        assert response.status_code == 200
        return {row["id"] for row in response.data["results"]}

    assert ids(f"?cell={cell.pk}") == {curtain.pk, stop.pk}
    assert ids(f"?cell={elsewhere.cell_id}") == {elsewhere.pk}
    assert ids("?kind=emergency_stop") == {stop.pk}
    assert ids(f"?opening={opening.pk}") == {curtain.pk}
    assert ids(f"?cell={CellFactory().pk}") == set()


def test_device_filter_with_a_bad_id_is_refused(owner_api):
    response = owner_api.get(list_url("device") + "?cell=abc")

    assert response.status_code == 400
    assert "cell" in response.data
