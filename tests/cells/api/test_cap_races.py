"""A cell's caps of elements hold when two requests add the last one at once:
the count and the insert happen under a lock on the cell (``cells.services``).
The threaded tests need PostgreSQL (CI runs with DATABASE_URL pointing at it);
SQLite takes one write transaction at a time, so it cannot race, and there a
request whose check is outrun between validation and save stands in."""

from __future__ import annotations

import pytest
from django.db import connection
from rest_framework.test import APIClient

from cells.api.serializers import DeviceSerializer
from cells.exchange import MAX_DEVICES, MAX_OPERATOR_STATIONS
from cells.models import Device, OperatorStation
from tests.cells.api.support import device_body, list_url, station_body
from tests.cells.api.test_opening_races import _at_once

needs_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="concurrent transactions need PostgreSQL",
)

TRIALS = 20


def _fill(model, count, **values):
    model.objects.bulk_create([model(**values) for _ in range(count)])


@pytest.mark.django_db
def test_a_device_whose_slot_is_taken_after_its_check_is_refused(
    owner_api, cell, monkeypatch
):
    _fill(Device, MAX_DEVICES - 1, cell=cell, kind="emergency_stop", label="E-stop")
    checked = DeviceSerializer.validate

    def checked_then_outrun(self, attrs):
        attrs = checked(self, attrs)
        # Another request takes the last slot between this one's check and save.
        Device.objects.create(cell=cell, kind="emergency_stop", label="Meanwhile")
        return attrs

    monkeypatch.setattr(DeviceSerializer, "validate", checked_then_outrun)

    response = owner_api.post(list_url("device"), device_body(cell), format="json")

    assert response.status_code == 400, response.data
    assert str(MAX_DEVICES) in str(response.data["cell"])
    assert Device.objects.filter(cell=cell).count() == MAX_DEVICES


def _race(owner, cell, model, cap, url, body, **filler):
    """Two clients post into the cell's last free slot at once, ``TRIALS``
    times: each time one is stored and the other refused naming ``cell``."""
    clients = [APIClient(), APIClient()]
    for client in clients:
        client.force_authenticate(owner)
    _fill(model, cap - 1, cell=cell, **filler)
    for trial in range(TRIALS):
        labels = [f"A{trial}", f"B{trial}"]

        def post(index, labels=labels):
            return clients[index].post(
                url, body(cell, label=labels[index]), format="json"
            )

        first, second = _at_once(lambda: post(0), lambda: post(1))

        stored = model.objects.filter(cell=cell).count()
        codes = sorted([first.status_code, second.status_code])
        assert (stored, codes) == (cap, [201, 400]), (trial, first.data, second.data)
        refused = first if first.status_code == 400 else second
        assert "cell" in refused.data
        # Free the slot again for the next trial.
        model.objects.filter(cell=cell, label__in=labels).delete()


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_two_devices_posted_at_once_into_the_last_slot_store_one(owner, cell):
    _race(
        owner,
        cell,
        Device,
        MAX_DEVICES,
        list_url("device"),
        device_body,
        kind="emergency_stop",
        label="E-stop",
    )


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_two_stations_posted_at_once_into_the_last_slot_store_one(owner, cell):
    _race(
        owner,
        cell,
        OperatorStation,
        MAX_OPERATOR_STATIONS,
        list_url("operator-station"),
        station_body,
        label="Loading",
        x_mm=0,
        y_mm=0,
    )
