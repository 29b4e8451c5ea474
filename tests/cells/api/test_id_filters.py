"""An id in a list's query string larger than a database column holds is a
400 naming the parameter (issue 13: the fuzzer found it answered 500 on
SQLite, "Python int too large to convert to SQLite INTEGER")."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

TOO_LARGE = str(2**63)  # one more than a signed 64-bit column holds


@pytest.mark.parametrize(
    ("path", "parameter"),
    [
        ("/api/v1/devices/", "cell"),
        ("/api/v1/devices/", "opening"),
        ("/api/v1/openings/", "segment"),
        ("/api/v1/guard-segments/", "cell"),
        ("/api/v1/certificates/", "cell"),
        ("/api/v1/hazards/", "revision"),
        ("/api/v1/measures/", "device"),
        ("/api/v1/revisions/", "cell"),
        ("/api/v1/projects/", "organisation"),
    ],
)
def test_an_id_too_large_for_the_database_is_a_400_naming_it(owner, path, parameter):
    client = APIClient()
    client.force_authenticate(owner)

    response = client.get(path, {parameter: TOO_LARGE})

    assert response.status_code == 400
    assert parameter in response.json()


@pytest.mark.parametrize("value", ["0", "-1"])
def test_an_id_below_one_is_a_400(owner, value):
    client = APIClient()
    client.force_authenticate(owner)

    response = client.get("/api/v1/devices/", {"cell": value})

    assert response.status_code == 400
    assert "cell" in response.json()


def test_the_largest_id_a_column_holds_is_a_filter_that_matches_nothing(owner, cell):
    client = APIClient()
    client.force_authenticate(owner)

    response = client.get("/api/v1/devices/", {"cell": str(2**63 - 1)})

    assert response.status_code == 200
    assert response.json()["count"] == 0
