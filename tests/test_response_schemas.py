"""The API's computed responses say what they hold (issue 13): the export, the
findings, the safeguards and cost lines, the catalogue and the plan each
answer, on the demo data, exactly what their OpenAPI component describes, and
no component they use leaves a value free-form."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator
from pydantic import ValidationError
from rest_framework.test import APIClient

from cells.models import Cell, Organisation
from compliance.rules.schemas import CellFindings

# Each response that was typed as a bare object, and the component it is now.
TYPED_RESPONSES = {
    ("get", "/api/v1/cells/{id}/export/"): "CellDocument",
    ("get", "/api/v1/cells/{id}/findings/"): "CellFindings",
    ("get", "/api/v1/cells/{id}/safeguards/"): "CellSafeguards",
    ("get", "/api/v1/cells/{id}/line-items/"): "CellLineItems",
    ("put", "/api/v1/cells/{id}/line-items/{key}/"): "CostLine",
    ("get", "/api/v1/organisations/{id}/catalogue/"): "OrganisationCatalogue",
    ("put", "/api/v1/organisations/{id}/catalogue/{key}/"): (
        "OrganisationCatalogueEntry"
    ),
    ("get", "/api/v1/cells/{id}/plan/"): "CellPlan",
    ("get", "/api/v1/cells/{id}/concepts/compare/"): "CellConcepts",
}
TYPED = {"type", "$ref", "oneOf", "anyOf", "allOf", "enum", "const"}


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def errors_against(schema, component: str, data) -> list[str]:
    """Where ``data`` breaks the OpenAPI component (JSON Schema 2020-12, as
    OpenAPI 3.1 speaks it), one line per error."""
    validator = Draft202012Validator(
        {
            "$ref": f"#/components/schemas/{component}",
            "components": schema["components"],
        },
        format_checker=Draft202012Validator.FORMAT_CHECKER,
    )
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in validator.iter_errors(data)
    ]


@pytest.fixture
def demo(db):
    """The demo data, with the figures a user enters so that every nullable
    field is seen both ways: a custom line, quoted prices for the cobot cell's
    safeguards (so its plan has a procurement cost), a project duration and
    cost, and an organisation's own price."""
    call_command("seed_demo", stdout=io.StringIO())
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(username="safety"))
    cell = Cell.objects.get(name="머신 텐딩 협동로봇")
    organisation = Organisation.objects.get(slug="demo")

    def put(url, body):
        response = client.put(url, body, format="json")
        assert response.status_code == 200, response.content
        return response

    response = client.post(
        f"/api/v1/cells/{cell.pk}/custom-line-items/",
        {
            "description": "Warning signs",
            "category": "device",
            "quantity": "2",
            "unit": "piece",
            "price_low": "5",
            "price_high": "7.25",
            "currency": "USD",
            "lead_time_weeks_low": "1",
            "lead_time_weeks_high": "2",
            "source": "Shop quote",
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    safeguards = client.get(f"/api/v1/cells/{cell.pk}/safeguards/").json()
    for line in safeguards["safeguards"]:
        if line["catalogue_key"] and line["price_low"] is None:
            put(
                f"/api/v1/cells/{cell.pk}/line-items/{line['key']}/",
                {"price_low": "100", "price_high": "200", "currency": "USD"},
            )
    put(
        f"/api/v1/cells/{cell.pk}/plan/assumptions/installation/",
        {
            "weeks_low": "2",
            "weeks_high": "3.5",
            "cost_low": "1000",
            "cost_high": "2000",
            "currency": "USD",
            "source": "Our fitter",
        },
    )
    put(
        f"/api/v1/organisations/{organisation.pk}/catalogue/fence/",
        {
            "price_low": "100",
            "price_high": "250.5",
            "currency": "KRW",
            "price_date": "2026-01-02",
            "source": "Our supplier",
        },
    )
    return SimpleNamespace(client=client, organisation=organisation, put=put)


def answers(demo, method: str, path: str):
    """The responses of one operation on the demo data: a GET for every demo
    cell (or the organisation), a PUT of a price or a quantity."""
    client = demo.client
    if path.startswith("/api/v1/organisations/"):
        base = path.replace("{id}", str(demo.organisation.pk))
        if method == "get":
            return [client.get(base)]
        body = {"lead_time_weeks_low": "1", "lead_time_weeks_high": "3", "source": "Us"}
        return [demo.put(base.replace("{key}", "laser_scanner"), body)]
    responses = []
    for cell in Cell.objects.order_by("pk"):
        base = path.replace("{id}", str(cell.pk))
        if method == "get":
            responses.append(client.get(base))
            continue
        lines = client.get(f"/api/v1/cells/{cell.pk}/line-items/").json()["items"]
        key = next(line["key"] for line in lines if line["catalogue_key"])
        url = base.replace("{key}", key)
        responses.append(demo.put(url, {"quantity": "3"}))
        responses.append(
            demo.put(url, {"price_low": "10.50", "price_high": "20", "currency": "EUR"})
        )
    return responses


def test_every_typed_response_matches_its_openapi_component(demo, schema):
    # One run over the demo data for all of them: seeding it takes seconds.
    errors = {}
    for (method, path), component in TYPED_RESPONSES.items():
        for response in answers(demo, method, path):
            assert response.status_code == 200, (method, path, response.content)
            if found := errors_against(schema, component, response.json()):
                errors[f"{method} {response.wsgi_request.path}"] = found
    assert errors == {}


@pytest.mark.parametrize(("method", "path"), list(TYPED_RESPONSES))
def test_the_operation_answers_its_component(schema, method, path):
    content = schema["paths"][path][method]["responses"]["200"]["content"]
    component = TYPED_RESPONSES[method, path]
    assert content["application/json"]["schema"] == {
        "$ref": f"#/components/schemas/{component}"
    }


def _free_form(schema, components, seen: set[str], where: str) -> list[str]:
    """The places under ``schema`` that hold anything: an object without
    properties and with no type for its values, or a value with no type."""
    if not isinstance(schema, dict):
        return []
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            return []
        seen.add(name)
        return _free_form(components[name], components, seen, name)
    found = []
    if not TYPED & set(schema):
        found.append(where)
    types = schema.get("type")
    if types == "object" or (isinstance(types, list) and "object" in types):
        values = schema.get("additionalProperties")
        if "properties" not in schema and not (
            isinstance(values, dict) and TYPED & set(values)
        ):
            found.append(where)
    for name, prop in schema.get("properties", {}).items():
        found += _free_form(prop, components, seen, f"{where}.{name}")
    for key in ("items", "additionalProperties"):
        found += _free_form(schema.get(key), components, seen, f"{where}[]")
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for option in schema.get(key, ()):
            found += _free_form(option, components, seen, where)
    return found


def test_no_typed_response_leaves_a_value_free_form(schema):
    components = schema["components"]["schemas"]
    found = []
    for component in TYPED_RESPONSES.values():
        found += _free_form({"$ref": component}, components, set(), component)
    assert found == []


def test_no_response_of_the_api_is_a_bare_object(schema):
    bare = [
        f"{method} {path} {code}"
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        for code, response in operation.get("responses", {}).items()
        for content in response.get("content", {}).values()
        if content["schema"].get("type") == "object"
        and "properties" not in content["schema"]
    ]
    assert bare == []


def test_a_response_that_drifts_from_its_model_is_refused():
    # A field the view adds but the schema does not describe is an error in
    # the view, not a surprise for the client.
    counts = {"pass": 1, "fail": 0, "warning": 0, "needs_evidence": 0}
    stamp = {"ruleset": 2, "packs": {}, "editions": {}, "rules": {}}
    data = {
        "cell": 1,
        "count": 1,
        "next": None,
        "previous": None,
        "summary": counts,
        "groups": [],
        "computed_under": stamp,
        "editions": [],
    }
    assert CellFindings.model_validate(data).model_dump(mode="json") == data

    with pytest.raises(ValidationError, match="unexpected"):
        CellFindings.model_validate({**data, "unexpected": 1})
