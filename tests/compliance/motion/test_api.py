"""A program's judged segments over the API (issue 32): the judgement the
tab and the findings make, kept per change of the cell, filtered by
verdict."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.motion import selectors
from tests.compliance.motion.support import imported, program_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(owner):
    client = APIClient()
    client.force_authenticate(owner)
    return client


def segments(api, cell, program, **query):
    url = reverse("api:cell-motion-segments", args=[cell.pk, program.pk])
    return api.get(url, query)


def test_the_segments_are_filtered_by_verdict(owner, api, cobot):
    program = imported(cobot, owner, program_of(9, fast_every=3))
    failing = segments(api, cobot, program, verdict="fail").json()
    assert failing["count"] == 3
    assert {s["verdict"] for s in failing["results"]} == {"fail"}
    assert [s["index"] for s in failing["results"]] == [1, 4, 7]


def test_an_unknown_verdict_is_a_400_naming_it(owner, api, cobot):
    program = imported(cobot, owner)
    response = segments(api, cobot, program, verdict="bad")
    assert response.status_code == 400
    assert list(response.json()) == ["verdict"]


def test_the_api_reads_the_judgement_kept_for_the_tab(
    owner, owner_client, api, cobot, monkeypatch
):
    program = imported(cobot, owner)
    owner_client.get(reverse("compliance:motion_program", args=[cobot.pk, program.pk]))

    def judged_again(*args, **kwargs):
        raise AssertionError("judged again although nothing changed")

    monkeypatch.setattr(selectors, "program_path", judged_again)
    (segment,) = segments(api, cobot, program).json()["results"]
    assert (segment["line"], segment["verdict"]) == (3, "fail")
    assert segment["permissible_speed_mm_s"] == pytest.approx(471.8, abs=0.1)
    annotated = api.get(
        reverse("api:cell-motion-annotated", args=[cobot.pk, program.pk])
    )
    assert b"slow this move to at most 472 mm/s" in annotated.content


def test_a_change_to_the_station_judges_the_program_again(owner, api, cobot):
    program = imported(cobot, owner)
    (before,) = segments(api, cobot, program).json()["results"]
    cobot.stations.update(x_mm=5000, y_mm=5000)
    (after,) = segments(api, cobot, program).json()["results"]
    assert (before["verdict"], after["verdict"]) == ("fail", "pass")
