"""The schema documents the error answers every operation can give, with the
bodies the API sends (issue 13: the fuzzer's status-code check found 400,
404 and 409 answers the schema did not list)."""

from __future__ import annotations

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from config.openapi import ERRORS


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in ("get", "put", "post", "patch", "delete"):
                yield path, method, operation


def test_every_operation_documents_each_error_answer_with_its_body(schema):
    missing = [
        (method, path, code)
        for path, method, operation in operations(schema)
        for code in ERRORS
        if "application/json"
        not in operation["responses"].get(code, {}).get("content", {})
    ]

    assert missing == []


def test_a_delete_documents_being_kept_for_the_record(schema):
    deletes = [(p, o) for p, m, o in operations(schema) if m == "delete"]

    assert deletes
    assert all("409" in operation["responses"] for _, operation in deletes)


def test_a_body_a_view_documents_itself_is_kept(schema):
    # A hazard's 409 carries its current values, not a bare detail.
    conflict = schema["paths"]["/api/v1/hazards/{id}/"]["patch"]["responses"]["409"]
    body = conflict["content"]["application/json"]["schema"]

    assert body != {"$ref": "#/components/schemas/ErrorDetail"}


def _validator(schema, code, operation):
    body = operation["responses"][code]["content"]["application/json"]["schema"]
    # The body's $refs point into the schema's components, carried along.
    return jsonschema.Draft202012Validator({**body, "components": schema["components"]})


@pytest.mark.parametrize(
    ("code", "request_args"),
    [
        ("404", ("get", "/api/v1/devices/999999/", None)),
        ("400", ("get", "/api/v1/devices/?cell=0", None)),
        ("400", ("post", "/api/v1/devices/", {"cell": "x", "x_mm": True})),
    ],
)
def test_the_api_answers_the_documented_error_bodies(schema, owner, code, request_args):
    client = APIClient()
    client.force_authenticate(owner)
    method, url, data = request_args
    path = "/api/v1/devices/{id}/" if url.count("/") > 4 else "/api/v1/devices/"
    operation = schema["paths"][path]["get" if method == "get" else method]

    response = getattr(client, method)(url, data, format="json")

    assert str(response.status_code) == code
    _validator(schema, code, operation).validate(response.json())


def test_an_unauthenticated_answer_is_documented(schema, db):
    operation = schema["paths"]["/api/v1/devices/"]["get"]

    response = APIClient().get("/api/v1/devices/")

    assert response.status_code == 401
    _validator(schema, "401", operation).validate(response.json())
