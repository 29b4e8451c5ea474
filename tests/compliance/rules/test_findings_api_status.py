"""The findings API filters by ``?status=`` and puts fails first, as the
README says and the Compliance tab does (issue 27: the API ignored
``?status=fail`` and answered every finding in the packs' order)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from cells.models import GuardSegment

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(owner):
    client = APIClient()
    client.force_authenticate(owner)
    return client


@pytest.fixture
def low_fence(cell):
    """A Korean cell whose fence run F1 is 1,500 mm high: below the
    1,800 mm of Rules Art. 223, so at least one fail among many passes."""
    assert cell.project.country == "KR"
    GuardSegment.objects.bulk_create(
        GuardSegment(
            cell=cell,
            label=f"F{i}",
            start_x_mm=0,
            start_y_mm=3000 + i * 100,
            end_x_mm=4000,
            end_y_mm=3000 + i * 100,
            height_mm=1500 if i == 1 else 1800,
        )
        for i in range(3)
    )
    return cell


def _findings(body):
    return [f for group in body["groups"] for f in group["findings"]]


def test_status_fail_answers_only_the_fails(api, low_fence):
    url = f"/api/v1/cells/{low_fence.pk}/findings/"
    everything = api.get(url).json()
    assert {f["status"] for f in _findings(everything)} > {"fail"}
    fails = api.get(url, {"status": "fail"}).json()
    shown = _findings(fails)
    assert shown and {f["status"] for f in shown} == {"fail"}
    assert fails["count"] == len(shown) == everything["summary"]["fail"]
    assert "F1" in {f["subject"] for f in shown}
    # The summary still counts every finding.
    assert fails["summary"] == everything["summary"]


def test_the_fails_come_first(api, low_fence):
    body = api.get(f"/api/v1/cells/{low_fence.pk}/findings/").json()
    statuses = [f["status"] for f in _findings(body)]
    assert statuses[0] == "fail"


def test_an_unknown_status_is_refused_naming_the_field(api, low_fence):
    response = api.get(f"/api/v1/cells/{low_fence.pk}/findings/", {"status": "passed"})
    assert response.status_code == 400
    assert "status" in response.json()


def test_another_organisations_cell_answers_404_whatever_the_status(
    outsider, low_fence
):
    client = APIClient()
    client.force_authenticate(outsider)
    response = client.get(f"/api/v1/cells/{low_fence.pk}/findings/", {"status": "fail"})
    assert response.status_code == 404
