"""The calculators over HTTP: the contract other tools script against."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from compliance.calculators.registry import CALCULATORS

CONTRACT = {
    "plr",
    "iso13855-espe",
    "iso13855-mat",
    "iso13857-reach-over",
    "ts15066-pfl",
    "ts15066-ssm",
}


@pytest.fixture
def api(owner):
    client = APIClient()
    client.force_authenticate(owner)
    return client


def url(name: str) -> str:
    return f"/api/v1/calculators/{name}/"


def test_every_contract_calculator_is_listed_with_its_input_schema(api):
    response = api.get("/api/v1/calculators/")
    assert response.status_code == 200
    listed = {row["name"]: row for row in response.json()}
    assert set(listed) >= CONTRACT
    for row in listed.values():
        assert row["input_schema"]["type"] == "object"
        assert row["url"].endswith(url(row["name"]))


@pytest.mark.parametrize("name", sorted(CALCULATORS))
def test_each_calculator_answers_its_own_example(api, name):
    calculator = CALCULATORS[name]
    response = api.post(url(name), dict(calculator.example), format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["clause"]
    assert body["steps"] and all(isinstance(line, str) for line in body["steps"])
    assert body["certainty"] in {"two_sources", "one_source"}
    for field in calculator.headline:
        assert field in body


def test_plr_contract(api):
    response = api.post(
        url("plr"),
        {"severity": "S2", "frequency": "F2", "avoidance": "P1"},
        format="json",
    )
    assert response.json()["plr"] == "d"


def test_espe_contract(api):
    # SICK C4000 example (iso13855.json): d = 14 mm, T = 0.1 s... see the
    # calculator's own tests for every worked example; here the keys matter.
    response = api.post(
        url("iso13855-espe"),
        {
            "detection_capability_mm": 14,
            "response_time_ms": 10,
            "controller_time_ms": 0,
            "stopping_time_ms": 90,
        },
        format="json",
    )
    body = response.json()
    assert response.status_code == 200
    assert body["minimum_distance_mm"] == 200  # 2000 mm/s × 0.1 s + 8 × (14 − 14)
    assert body["k_mm_s"] == 2000
    assert body["c_mm"] == 0


def test_mat_contract(api):
    response = api.post(
        url("iso13855-mat"),
        {"response_time_ms": 50, "stopping_time_ms": 200},
        format="json",
    )
    assert response.json()["minimum_distance_mm"] == 1600  # 1600 × 0.25 + 1200


def test_ssm_contract(api):
    response = api.post(
        url("ts15066-ssm"),
        {
            "human_speed_mm_s": 1600,
            "robot_speed_mm_s": 1000,
            "reaction_time_ms": 100,
            "stopping_time_ms": 200,
            "stopping_distance_mm": 150,
            "intrusion_mm": 0,
            "human_uncertainty_mm": 0,
            "robot_uncertainty_mm": 0,
        },
        format="json",
    )
    # Sh = 1600 × 0.3 = 480; Sr = 1000 × 0.1 = 100; Ss = 150
    assert response.json()["separation_distance_mm"] == pytest.approx(730)


@pytest.mark.parametrize(
    ("name", "body", "field"),
    [
        (
            "iso13855-espe",
            {
                "detection_capability_mm": 14,
                "response_time_ms": -5,
                "stopping_time_ms": 100,
            },
            "response_time_ms",
        ),
        (
            "ts15066-pfl",
            {
                "body_region": "tail",
                "robot_moving_mass_kg": 20,
                "payload_kg": 2,
                "contact": "transient",
            },
            "body_region",
        ),
        ("plr", {"severity": "S3", "frequency": "F1", "avoidance": "P1"}, "severity"),
        (
            "iso13855-mat",
            {"response_time_ms": "NaN", "stopping_time_ms": 100},
            "response_time_ms",
        ),
        (
            "iso13855-mat",
            {"response_time_ms": 10, "stopping_time_ms": 100, "colour": "red"},
            "colour",
        ),
    ],
)
def test_bad_input_is_a_400_naming_the_field(api, name, body, field):
    response = api.post(url(name), body, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_a_body_that_is_not_an_object_is_a_400(api):
    response = api.post(url("plr"), [1, 2], format="json")
    assert response.status_code == 400


def test_calculators_need_a_signed_in_user(client):
    response = APIClient().post(url("plr"), {}, format="json")
    assert response.status_code == 401


def test_body_region_table_lists_the_twelve_regions(api):
    response = api.get("/api/v1/calculators/ts15066-body-regions/")
    assert response.status_code == 200
    ids = [row["region_id"] for row in response.json()]
    assert len(ids) == 12
    assert {"hands_fingers", "chest", "skull_forehead"} <= set(ids)


def test_schema_lists_every_calculator(api):
    response = api.get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    paths = response.json()["paths"]
    for name in CALCULATORS:
        assert url(name) in paths
        assert "post" in paths[url(name)]
    assert "/api/v1/calculators/ts15066-body-regions/" in paths


def test_a_calculation_touches_the_database_only_to_authenticate(
    api, django_assert_max_num_queries
):
    with django_assert_max_num_queries(0):
        api.post(
            url("plr"),
            {"severity": "S1", "frequency": "F1", "avoidance": "P1"},
            format="json",
        )


JSON_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.lists(st.integers(), max_size=2),
)


@pytest.mark.parametrize("name", sorted(CALCULATORS))
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_bad_input_never_gives_a_500(api, name, data):
    fields = list(CALCULATORS[name].input_model.model_fields)
    body = {
        field: data.draw(JSON_VALUES, label=field)
        for field in fields
        if data.draw(st.booleans(), label=f"send {field}")
    }
    response = api.post(url(name), body, format="json")
    assert response.status_code in {200, 400}, (body, response.content)
