"""Fixtures of the concepts' tests: an API client of the owner, and a fenced
palletiser to design concepts from."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.compliance.concepts.support import fenced_palletiser


@pytest.fixture
def api(owner):
    client = APIClient()
    client.force_authenticate(owner)
    return client


@pytest.fixture
def palletiser(cell):
    return fenced_palletiser(cell)
