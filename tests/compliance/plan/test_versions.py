"""A change of the project's own figures for an activity of the plan names
the version it read (issue 28): a stale one answers 409 with the figures as
stored and the fields that differ, and nothing is saved; the current one
saves and raises the version; the web form carries it too."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.models import PlanAssumption

pytestmark = pytest.mark.django_db

CONFLICT = "Someone else saved this since you opened it: nothing was saved."


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_plan_assumption_refuses_a_change_sent_with_a_stale_version(owner, cell):
    client = api(owner)
    url = f"/api/v1/cells/{cell.pk}/plan/assumptions/installation/"
    # None entered yet: the plan uses the assumption default.
    assert client.get(url).status_code == 404
    created = client.put(url, {"weeks_low": "2", "weeks_high": "3"}, format="json")
    assert created.status_code == 200 and created.json()["version"] == 1
    assert client.get(url).json()["version"] == 1
    first = client.put(
        url, {"weeks_low": "2", "weeks_high": "4", "version": 1}, format="json"
    )
    assert first.status_code == 200, first.json()
    assert first.json()["version"] == 2
    stale = client.put(
        url, {"weeks_low": "2", "weeks_high": "5", "version": 1}, format="json"
    )
    assert stale.status_code == 409, stale.json()
    body = stale.json()
    assert body["differs"] == ["weeks_high"]
    assert body["current"]["weeks_high"] == "4.0"
    assert body["current"]["version"] == 2
    row = PlanAssumption.objects.get()
    assert (row.weeks_high, row.version) == (4, 2)
    assert client.get(url).json()["weeks_high"] == "4.0"
    bad = client.put(url, {"weeks_low": "2", "version": "x"}, format="json")
    assert bad.status_code == 400 and "version" in bad.json()
    # Without a version, the change is made as before.
    plain = client.put(url, {"weeks_low": "1", "weeks_high": "2"}, format="json")
    assert plain.status_code == 200 and plain.json()["version"] == 3


def test_the_assumption_form_says_someone_else_saved_and_keeps_theirs(
    owner, owner_client, cell
):
    url = reverse("compliance:plan_assumption_edit", args=[cell.pk, "installation"])
    owner_client.post(url, {"weeks_low": "2", "weeks_high": "3"})
    assert 'name="version" value="1"' in owner_client.get(url).text
    api(owner).put(
        f"/api/v1/cells/{cell.pk}/plan/assumptions/installation/",
        {"weeks_low": "6", "weeks_high": "8"},
        format="json",
    )
    form = {"weeks_low": "2", "weeks_high": "4", "version": 1}
    response = owner_client.post(url, form)
    assert response.status_code == 200
    assert CONFLICT in response.text
    row = PlanAssumption.objects.get()
    assert (row.weeks_high, row.version) == (8, 2)
    assert 'name="version" value="2"' in response.text
    owner_client.post(url, {**form, "version": 2})
    row.refresh_from_db()
    assert (row.weeks_high, row.version) == (4, 3)
