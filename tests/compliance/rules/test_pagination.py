"""Long lists come a page at a time: the API's lists take ``?page_size=`` (up
to 200), and a cell's findings paginate, over the API and on the Compliance
tab, fails first, without losing or repeating one."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from cells.models import GuardSegment
from compliance import compliance_page as views
from compliance.compliance_page import FINDINGS_PER_PAGE
from tests.factories import GuardSegmentFactory


@pytest.fixture
def api(owner):
    client = APIClient()
    client.force_authenticate(owner)
    return client


@pytest.fixture
def long_cell(cell):
    """A cell of 40 guard segments, every tenth too low: a few hundred
    findings, some failing."""
    GuardSegment.objects.bulk_create(
        GuardSegment(
            cell=cell,
            label=f"S{i}",
            start_x_mm=0,
            start_y_mm=3000 + i * 100,
            end_x_mm=4000,
            end_y_mm=3000 + i * 100,
            height_mm=1500 if i % 10 == 0 else 1800,
        )
        for i in range(40)
    )
    return cell


def test_api_lists_take_a_page_size_up_to_200(api, cell):
    GuardSegment.objects.bulk_create(
        GuardSegmentFactory.build(cell=cell, label=f"S{i}") for i in range(205)
    )
    url = "/api/v1/guard-segments/"
    assert len(api.get(url).json()["results"]) == 50
    page = api.get(url, {"page_size": 7, "page": 2}).json()
    assert len(page["results"]) == 7 and page["count"] == 205
    assert "page_size=7" in page["next"] and "page=3" in page["next"]
    assert len(api.get(url, {"page_size": 500}).json()["results"]) == 200


def _all(data) -> list[tuple[str, str, str]]:
    return [
        (group["rule"]["id"], finding["subject"], finding["message"])
        for group in data["groups"]
        for finding in group["findings"]
    ]


def test_findings_over_the_api_paginate_without_losing_one(api, long_cell):
    url = f"/api/v1/cells/{long_cell.pk}/findings/"
    whole = api.get(url).json()
    assert whole["count"] == len(_all(whole)) > 100
    assert whole["next"] is None and whole["previous"] is None
    pages, data = [], api.get(url, {"page_size": 40}).json()
    while True:
        assert data["count"] == whole["count"]
        assert data["summary"] == whole["summary"]
        assert len(_all(data)) <= 40
        pages.append(data)
        if data["next"] is None:
            break
        data = api.get(data["next"]).json()
    assert len(pages) == -(-whole["count"] // 40)
    assert [f for page in pages for f in _all(page)] == _all(whole)
    # Every rule is on some page, in the packs' order, also one with nothing
    # to check.
    rules = [g["rule"]["id"] for page in pages for g in page["groups"]]
    assert list(dict.fromkeys(rules)) == [g["rule"]["id"] for g in whole["groups"]]
    assert api.get(url, {"page": 99}).status_code == 404


def test_the_compliance_tab_shows_a_page_of_findings_fails_first(
    owner_client, long_cell, monkeypatch
):
    url = reverse("compliance:cell_compliance", args=[long_cell.pk])
    first = owner_client.get(url).text
    assert "fails-first" in first  # the fails, listed up front
    fails, rules = first.split('class="card fails-first"')[1].split("</section>", 1)
    assert fails.count('<li class="finding status-fail') >= 4
    assert rules.count('<li class="finding status-') == FINDINGS_PER_PAGE
    assert 'rel="next"' in first and "Page 1 of" in first
    second = owner_client.get(url, {"page": 2}).text
    assert "fails-first" not in second and 'rel="prev"' in second
    # The low segments fail and come first: on the first page.
    assert "S10 is 1,500 mm high" in first and "S10 is 1,500 mm high" not in second
    # A filter keeps its status from page to page.
    monkeypatch.setattr(views, "FINDINGS_PER_PAGE", 10)
    passes = owner_client.get(url, {"status": "pass"}).text
    (link,) = [a for a in passes.split("<a ") if 'rel="next"' in a]
    assert "status=pass" in link and "page=2" in link
