"""JSON bodies nested too deep are a 400 naming the problem on every JSON
endpoint, not a RecursionError (500)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from config.parsers import MAX_JSON_DEPTH, JSONDepthError, loads
from tests.cells.api.support import detail_url, list_url

pytestmark = pytest.mark.django_db


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.fixture
def api(owner):
    client = APIClient()
    client.force_authenticate(owner)
    return client


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 990, 100_000])
@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("post", lambda cell: list_url("cell")),
        ("patch", lambda cell: detail_url("cell", cell.pk)),
        ("post", lambda cell: reverse("api:cell-import")),
        ("post", lambda cell: reverse("calculator-ts15066-pfl")),
    ],
)
def test_a_body_nested_too_deep_is_a_400_naming_the_depth(
    api, cell, method, url, depth
):
    response = getattr(api, method)(
        url(cell), nested(depth), content_type="application/json"
    )

    assert response.status_code == 400
    assert f"{MAX_JSON_DEPTH} levels" in response.json()["detail"]


def test_a_body_within_the_depth_reaches_the_view(api, cell):
    body = '{"name": ' + "[" * (MAX_JSON_DEPTH - 1) + "]" * (MAX_JSON_DEPTH - 1) + "}"

    response = api.patch(
        detail_url("cell", cell.pk), body, content_type="application/json"
    )

    # Parsed, then refused by the serializer: a name is not a list.
    assert response.status_code == 400
    assert "name" in response.json()


def test_objects_count_towards_the_depth_like_lists():
    assert loads('{"a": [{"b": [1]}]}') == {"a": [{"b": [1]}]}
    with pytest.raises(JSONDepthError):
        loads('{"a": ' * 33 + "1" + "}" * 33)
    assert loads("[[1]]", max_depth=2) == [[1]]
    with pytest.raises(JSONDepthError):
        loads("[[[1]]]", max_depth=2)


def test_strings_that_look_nested_are_not_counted():
    assert loads('["' + "[" * 100 + '"]') == ["[" * 100]
