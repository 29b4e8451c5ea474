"""API clients for each of the shared users, and the objects of each resource."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.cells.api.support import (
    cell_body,
    certificate_body,
    device_body,
    opening_body,
    project_body,
    segment_body,
    station_body,
)
from tests.cells.certificates import CellCertificateFactory
from tests.factories import DeviceFactory


def _client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def api_client():
    """Not logged in."""
    return APIClient()


@pytest.fixture
def owner_api(owner):
    return _client_for(owner)


@pytest.fixture
def engineer_api(safety_engineer):
    return _client_for(safety_engineer)


@pytest.fixture
def viewer_api(viewer):
    return _client_for(viewer)


@pytest.fixture
def outsider_api(outsider):
    return _client_for(outsider)


@pytest.fixture
def device(cell, opening):
    return DeviceFactory(cell=cell, opening=opening, label="LC1", claimed_pl="d")


@pytest.fixture
def certificate(cell):
    return CellCertificateFactory(cell=cell, number="KIRIA-CW-2025-017")


@pytest.fixture
def objects(project, cell, segment, opening, station, device, certificate):
    """One object of each resource, by router basename, all in one layout."""
    return {
        "project": project,
        "cell": cell,
        "guard-segment": segment,
        "opening": opening,
        "operator-station": station,
        "device": device,
        "certificate": certificate,
    }


@pytest.fixture
def create_bodies(organisation, project, cell, segment):
    """A valid body to create one more object of each resource."""
    return {
        "project": project_body(organisation=organisation.pk),
        "cell": cell_body(project),
        "guard-segment": segment_body(cell),
        "opening": opening_body(segment),
        "operator-station": station_body(cell),
        "device": device_body(cell),
        "certificate": certificate_body(cell),
    }
