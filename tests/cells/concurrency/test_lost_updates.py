"""Two people, one layout (issue 28): no saved change silently undone.

Regression: two clients PATCHing different fields of one guard segment at
once both got 200, and a third of one's changes were undone by the other's
save of the whole row as it had read it ("wrote height_mm 2050; read back
2000"). A save now locks the row before reading it and writes only the
fields sent; a save naming a version someone else has since raised answers
409 with the object as stored and the fields that differ."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from tests.factories import DeviceFactory

ROUNDS = 50


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _writer(user, url, field, values, lost, errors, read=None):
    """PATCH ``field`` with each value; after each 2xx, read it back (from
    ``url``, or by ``read``): a value not there was undone by the other
    writer."""
    client = _client(user)
    try:
        for value in values:
            response = client.patch(url, {field: value}, format="json")
            if response.status_code == 409:
                continue
            if response.status_code != 200:
                errors.append((field, response.status_code, response.content[:200]))
                return
            stored = read(client)[field] if read else client.get(url).json()[field]
            if stored != value:
                lost.append((field, value, stored))
    except Exception as exc:
        errors.append((field, repr(exc)))
    finally:
        connections.close_all()


def _race(user, url, first, second, read=None):
    lost: list = []
    errors: list = []
    threads = [
        threading.Thread(target=_writer, args=(user, url, *spec, lost, errors, read))
        for spec in (first, second)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    return lost


needs_postgres = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="concurrent writers need a server database (CI runs PostgreSQL)",
)


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_two_writers_of_one_segment_lose_nothing(owner, segment):
    url = f"/api/v1/guard-segments/{segment.pk}/"
    lost = _race(
        owner,
        url,
        ("height_mm", [2000 + i for i in range(1, ROUNDS + 1)]),
        ("mesh_opening_mm", [20 + i for i in range(1, ROUNDS + 1)]),
    )
    assert lost == []
    final = _client(owner).get(url).json()
    assert (final["height_mm"], final["mesh_opening_mm"]) == (
        2000 + ROUNDS,
        20 + ROUNDS,
    )


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_two_writers_of_one_device_lose_nothing(owner, cell):
    device = DeviceFactory(cell=cell, kind="light_curtain", label="LC1")
    url = f"/api/v1/devices/{device.pk}/"
    lost = _race(
        owner,
        url,
        ("response_time_ms", [10 + i for i in range(1, ROUNDS + 1)]),
        ("detection_capability_mm", [14 + i for i in range(1, ROUNDS + 1)]),
    )
    assert lost == []


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_two_writers_of_one_cell_lose_nothing(owner, cell):
    url = f"/api/v1/cells/{cell.pk}/"
    lost = _race(
        owner,
        url,
        ("stopping_time_ms", [100 + i for i in range(1, ROUNDS + 1)]),
        ("task_description", [f"Task {i}" for i in range(1, ROUNDS + 1)]),
    )
    assert lost == []


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_two_writers_of_one_project_lose_nothing(owner, project):
    url = f"/api/v1/projects/{project.pk}/"
    lost = _race(
        owner,
        url,
        ("customer_name", [f"Customer {i}" for i in range(1, ROUNDS + 1)]),
        ("site_name", [f"Site {i}" for i in range(1, ROUNDS + 1)]),
    )
    assert lost == []


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_two_writers_of_one_subsystem_lose_nothing(owner, cell):
    from compliance.safety_functions import services

    device = DeviceFactory(cell=cell, kind="light_curtain", label="LC1")
    function = services.function_create(
        cell=cell,
        actor=owner,
        device=device,
        name="Stop by LC1",
        safeguard="guarded_opening",
        trigger="LC1 interrupted",
        reaction="Protective stop",
        stop_category="1",
    )
    subsystem = services.subsystem_add(
        function=function,
        actor=owner,
        role="input",
        label="LC1",
        route="certified",
        pl="e",
        pfhd_per_hour=3.7e-9,
    )

    def read(client):
        body = client.get(f"/api/v1/safety-functions/{function.pk}/").json()
        return next(s for s in body["subsystems"] if s["id"] == subsystem.pk)

    lost = _race(
        owner,
        f"/api/v1/subsystems/{subsystem.pk}/",
        ("label", [f"LC1 rev {i}" for i in range(1, ROUNDS + 1)]),
        ("source", [f"Data sheet {i}" for i in range(1, ROUNDS + 1)]),
        read,
    )
    assert lost == []
