"""A project made over the API proposes in its country's currency unless it
says otherwise (issue 29)."""

from __future__ import annotations

import pytest

from tests.cells.api.support import list_url, project_body

pytestmark = pytest.mark.django_db


def test_a_german_project_made_over_the_api_is_in_euros(owner_api):
    body = {**project_body(), "country": "DE"}
    body.pop("currency", None)
    response = owner_api.post(list_url("project"), body, format="json")
    assert response.status_code == 201, response.data
    assert response.data["currency"] == "EUR"
    korean = {**project_body(), "country": "KR", "name": "K"}
    korean.pop("currency", None)
    assert (
        owner_api.post(list_url("project"), korean, format="json").data["currency"]
        == "KRW"
    )
