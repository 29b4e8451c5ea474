"""The cache does not grow with every edit (issue 28).

Regression: each layout edit left some 46 KB of findings and cost lines
under a new version key that was never read again, kept 7 days (15 MB
after 330 edits). A cell now holds one entry per kind of value, replaced by
the next version."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

EDITS = 300


def _entries(name: str) -> list[str]:
    # The test settings' cache is this process's (LocMemCache).
    return [key for key in cache._cache if f":csp:{name}:" in key]


def test_300_edits_of_a_cell_leave_at_most_two_findings_entries(owner, segment):
    client = APIClient()
    client.force_authenticate(owner)
    url = f"/api/v1/cells/{segment.cell_id}/findings/"
    for i in range(EDITS):
        edit = client.patch(
            f"/api/v1/guard-segments/{segment.pk}/",
            {"height_mm": 1500 + i},
            format="json",
        )
        assert edit.status_code == 200
        response = client.get(url)
        assert response.status_code == 200
        client.get(f"/api/v1/cells/{segment.cell_id}/line-items/")
    assert 1 <= len(_entries("findings")) <= 2
    assert 1 <= len(_entries("line-items")) <= 2
    # And the entry kept is the newest: read again, it is not computed anew.
    body = client.get(url).json()
    assert f"{1500 + EDITS - 1:,}" in str(body)
