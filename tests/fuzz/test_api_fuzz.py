"""Fuzzing the API (issue 13): schemathesis sends generated requests, valid
and invalid, to every operation of the OpenAPI schema, through the app's own
WSGI handler, signed in with an API token as the demo safety engineer. The
path's ids are the demo organisation's real objects (mostly; sometimes the
generated id, so the 404 path is fuzzed too).

What must hold for every request: no server error (5xx), and a status the
schema documents for the operation, with a body and content type that match
it. How many generated requests each
operation gets is ``FUZZ_EXAMPLES`` (50 unless set; CI runs the default);
``FUZZ_PHASES`` adds the coverage phase. Throttling is off."""

from __future__ import annotations

import io
import os
import zlib

import pytest
import schemathesis
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis import checks as base_checks
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi import checks as openapi_checks

from config.wsgi import application
from tests.cells.certificates import CellCertificateFactory

pytestmark = [pytest.mark.fuzz, pytest.mark.django_db(transaction=False)]

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "50"))

# The phases: the schema's examples and EXAMPLES generated requests per
# operation, in make test (CI); FUZZ_PHASES=examples,fuzzing,coverage adds the
# coverage phase's boundary values (each bound's edge, each type wrong: about
# 750 requests for a write operation, some 15 minutes in all).
PHASES = os.environ.get("FUZZ_PHASES", "examples,fuzzing").split(",")

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)
for _phase in ("examples", "fuzzing", "coverage", "stateful"):
    getattr(schema.config.phases, _phase).enabled = _phase in PHASES

CHECKS = [
    base_checks.not_a_server_error,
    openapi_checks.response_schema_conformance,
    openapi_checks.content_type_conformance,
    # Every answer's status is one the schema documents (config/openapi.py
    # adds the error answers every operation can give).
    openapi_checks.status_code_conformance,
]
# Not checked: that every request the schema calls invalid is refused
# (negative_data_rejection). DRF reads a JSON number sent for a text field as
# its text and one sent for a decimal as that decimal, where the schema says
# "string"; numbers sent as true/false are refused (tests/cells/api).
# FUZZ_STRICT=1 adds the check, to see them.
if os.environ.get("FUZZ_STRICT"):
    CHECKS.append(openapi_checks.negative_data_rejection)


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """Django closes the database connection at each request's start and end;
    Django's test client turns that off, schemathesis' WSGI client does not,
    and on PostgreSQL it would close the test's transaction under it."""
    signals = (request_started, request_finished)
    for signal in signals:
        signal.disconnect(close_old_connections)
    yield
    for signal in signals:
        signal.connect(close_old_connections)


@pytest.fixture
def world(settings):
    """The demo organisation (its two cells, a signed assessment, safety
    functions, the device library) and a token for its safety engineer."""
    from django.contrib.auth import get_user_model

    from cells.auth import api_token_create
    from cells.models import Cell, Organisation

    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_CLASSES": [],
    }
    call_command("seed_demo", stdout=io.StringIO())
    org = Organisation.objects.get(slug="demo")
    user = get_user_model().objects.get(username="safety")
    _, token = api_token_create(user=user)
    cell = Cell.objects.filter(project__organisation=org).order_by("pk").first()
    CellCertificateFactory(cell=cell)
    return {
        "org": org,
        "cell": cell,
        "token": token,
        "ids": real_ids(org, cell),
        "keys": real_keys(org, cell, user),
    }


def real_keys(org, cell, user) -> dict[str, object]:
    """The collection before a key parameter → a real key of the cell."""
    from compliance.costs import selectors as costs
    from compliance.costs.catalogue import CATALOGUE
    from compliance.costs.services import custom_line_save
    from compliance.plan.services import EDITABLE_DURATION_KEYS
    from compliance.safety_functions import selectors as functions

    line = next((i for i in costs.line_items(cell) if i.catalogue_key), None)
    custom = custom_line_save(
        cell=cell, actor=user, description="Commissioning support", quantity=1
    )
    suggestion = next(iter(functions.suggestions(cell)), None)
    return {
        "line-items": line.key if line else "none",
        "catalogue": CATALOGUE[0].key,
        "assumptions": sorted(EDITABLE_DURATION_KEYS)[0],
        "safety-function-suggestions": suggestion.key if suggestion else "none",
        "custom-line-items": custom.pk,
    }


def real_ids(org, cell) -> dict[str, object]:
    """The first path segment of each operation → a real object's id."""
    from cells import models as m
    from compliance import models as c

    def first(qs):
        obj = qs.order_by("pk").first()
        return obj.pk if obj else 0

    return {
        "assessments": first(c.Assessment.objects.filter(cell=cell)),
        "cells": cell.pk,
        "certificates": first(m.CellCertificate.objects.filter(cell=cell)),
        "devices": first(m.Device.objects.filter(cell=cell)),
        "guard-segments": first(m.GuardSegment.objects.filter(cell=cell)),
        "hazards": first(c.Hazard.objects.filter(revision__assessment__cell=cell)),
        "measures": first(
            c.Measure.objects.filter(hazard__revision__assessment__cell=cell)
        ),
        "openings": first(m.Opening.objects.filter(segment__cell=cell)),
        "operator-stations": first(m.OperatorStation.objects.filter(cell=cell)),
        "organisations": org.pk,
        "projects": cell.project_id,
        "revisions": first(c.Revision.objects.filter(assessment__cell=cell)),
        "safety-functions": first(c.SafetyFunction.objects.filter(cell=cell)),
        "subsystems": first(c.Subsystem.objects.filter(function__cell=cell)),
        "validation-records": first(
            c.ValidationRecord.objects.filter(function__cell=cell)
        ),
    }


@pytest.fixture(autouse=True, scope="module")
def _report():
    yield
    if os.environ.get("FUZZ_REPORT"):
        for label, n in sorted(_SENT.items()):
            print(n, label)


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_api(case, world):
    head = case.operation.path.removeprefix("/api/v1/").split("/")[0]
    params = case.path_parameters or {}
    # A path made invalid on purpose stays as generated: it must be refused.
    negative_path = case._meta is not None and case._meta.is_negative_at(
        ParameterLocation.PATH
    )
    for name, value in list(params.items()):
        if negative_path or _keep_generated(value):
            continue
        if name in ("id", "org_pk"):
            key = "organisations" if name == "org_pk" else head
            if key in world["ids"]:
                params[name] = str(world["ids"][key])
        else:
            key = _named_key(case.operation.path, name)
            if key in world["keys"]:
                params[name] = str(world["keys"][key])
    case.headers = {**(case.headers or {}), "Authorization": f"Token {world['token']}"}
    _SENT[case.operation.label] = _SENT.get(case.operation.label, 0) + 1
    case.call_and_validate(checks=CHECKS)


def _named_key(path: str, name: str) -> str:
    """Which of the world's keys a string path parameter is: the segment
    before it names the collection."""
    parts = path.split("/")
    at = parts.index("{" + name + "}")
    return parts[at - 1]


def _keep_generated(value) -> bool:
    # One generated id in eight stays, so unknown and malformed ids are sent
    # (crc32, not hash(): the same choice in every run).
    return zlib.crc32(str(value).encode()) % 8 == 0


_SENT: dict[str, int] = {}
