from __future__ import annotations

import pytest
from rest_framework.test import APIClient


def _client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def owner_api(owner):
    return _client_for(owner)


@pytest.fixture
def viewer_api(viewer):
    return _client_for(viewer)


@pytest.fixture
def outsider_api(outsider):
    return _client_for(outsider)
