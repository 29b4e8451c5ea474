"""API clients for the shared users, and the URLs and bodies of the
risk-assessment API."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.assessment import services
from tests.compliance.conftest import CRUSHING, declaration_for, sign_revision


def _client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def owner_api(owner):
    return _client_for(owner)


@pytest.fixture
def engineer_api(safety_engineer):
    return _client_for(safety_engineer)


@pytest.fixture
def viewer_api(viewer):
    return _client_for(viewer)


@pytest.fixture
def outsider_api(outsider):
    return _client_for(outsider)


def list_url(basename: str) -> str:
    return reverse(f"compliance-api:{basename}-list")


def detail_url(basename: str, pk: int) -> str:
    return reverse(f"compliance-api:{basename}-detail", args=[pk])


def action_url(name: str, pk: int) -> str:
    """A revision's workflow action: submit, approve, sign, return, start-next,
    diff or history."""
    return reverse(f"compliance-api:revision-{name}", args=[pk])


def hazard_body(revision, /, **overrides: Any) -> dict[str, Any]:
    return {
        "revision": revision.pk,
        **CRUSHING,
        "severity": "S2",
        "frequency": "F1",
        "avoidance": "P2",
        **overrides,
    }


def measure_body(hazard, /, **overrides: Any) -> dict[str, Any]:
    return {
        "hazard": hazard.pk,
        "step": "safeguarding",
        "description": "Light curtain at the infeed",
        **overrides,
    }


def sign(revision, engineer):
    """Submit and sign through the services: the state most tests start from."""
    submitted = services.revision_submit(revision=revision, actor=engineer)
    return sign_revision(submitted, engineer)


def sign_body(revision, /, **overrides: Any) -> dict[str, Any]:
    """The body of a sign request: the password, the statement confirmed and a
    reason for each open fail."""
    return declaration_for(revision, **overrides)


@pytest.fixture
def measure(hazard, safety_engineer):
    return services.measure_add(
        hazard=hazard,
        actor=safety_engineer,
        step="safeguarding",
        description="Fence F1",
    )


@pytest.fixture
def signed(revision, hazard, measure, safety_engineer):
    return sign(revision, safety_engineer)
