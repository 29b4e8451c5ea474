from __future__ import annotations

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from compliance.safety_functions.library.services import library_seed
from compliance.safety_functions.models import LibraryDevice


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def seeded(organisation):
    """The organisation with its starting library."""
    library_seed(organisation=organisation)
    return organisation


def library_device(organisation, **fields) -> LibraryDevice:
    values = {
        "key": "OWN-1",
        "kind": "light_curtain",
        "maker": "Acme Safety",
        "model": "Curtain 30",
        "pl": "e",
        "iec61496_type": 4,
        "response_time_ms": Decimal("12.4"),
        "detection_capability_mm": 30,
        "data_source": "Acme data sheet rev. 3",
        **fields,
    }
    return LibraryDevice.objects.create(organisation=organisation, **values)


PRICED = {
    "price_low": Decimal("1800"),
    "price_high": Decimal("2100"),
    "currency": "USD",
    "price_source": "Acme quote Q-114",
    "lead_time_weeks_low": Decimal(3),
    "lead_time_weeks_high": Decimal(5),
}
