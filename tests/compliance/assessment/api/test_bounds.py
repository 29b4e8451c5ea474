"""Free text of the risk assessment is bounded where it is entered: an
over-long limit of the machine, hazard description or signing password is a
400 naming the field on the API and a form error on the page, and nothing is
saved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from compliance.assessment import declaration, services
from compliance.assessment.models import (
    HAZARD_DESCRIPTION_MAX_LENGTH,
    LIMIT_TEXT_MAX_LENGTH,
)
from compliance.models import Hazard, Revision, RevisionStatus
from tests.compliance.assessment.api.conftest import (
    action_url,
    detail_url,
    hazard_body,
    list_url,
    sign_body,
)
from tests.compliance.conftest import CRUSHING

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
LIMITS = [
    "intended_use",
    "foreseeable_misuse",
    "space_limits",
    "time_limits",
    "low_guard_justification",
    "conformity_route",
]
TOO_LONG = f"at most {LIMIT_TEXT_MAX_LENGTH} characters"


@pytest.mark.parametrize("field", LIMITS)
def test_an_over_long_limit_is_a_400_naming_it(owner_api, revision, field):
    before = getattr(revision, field)

    response = owner_api.patch(
        detail_url("revision", revision.pk),
        {"version": revision.version, field: "x" * (LIMIT_TEXT_MAX_LENGTH + 1)},
        format="json",
    )

    assert response.status_code == 400
    assert list(response.data) == [field]
    assert getattr(Revision.objects.get(pk=revision.pk), field) == before


def test_a_limit_at_the_bound_is_saved(owner_api, revision):
    text = "x" * LIMIT_TEXT_MAX_LENGTH

    response = owner_api.patch(
        detail_url("revision", revision.pk),
        {"version": revision.version, "intended_use": text},
        format="json",
    )

    assert response.status_code == 200, response.data
    assert Revision.objects.get(pk=revision.pk).intended_use == text


@pytest.mark.parametrize("field", LIMITS)
def test_an_over_long_limit_on_the_page_is_a_form_error(owner_client, revision, field):
    data = {name: getattr(revision, name) for name in LIMITS}
    data.update(version=revision.version, **{field: "x" * (LIMIT_TEXT_MAX_LENGTH + 1)})

    response = owner_client.post(
        reverse("compliance:limits_edit", args=[revision.pk]), data, **HTMX
    )

    assert response.status_code == 200
    assert TOO_LONG in response.text
    stored = Revision.objects.get(pk=revision.pk)
    assert stored.version == revision.version
    assert getattr(stored, field) == getattr(revision, field)


def test_an_over_long_hazard_description_is_a_400_naming_it(owner_api, revision):
    response = owner_api.post(
        list_url("hazard"),
        hazard_body(revision, description="x" * (HAZARD_DESCRIPTION_MAX_LENGTH + 1)),
        format="json",
    )

    assert response.status_code == 400
    assert list(response.data) == ["description"]
    assert not revision.hazards.exists()


def test_an_over_long_hazard_description_on_the_page_is_a_form_error(
    owner_client, revision
):
    data = {
        f"new-{k}": v
        for k, v in {
            **CRUSHING,
            "description": "x" * (HAZARD_DESCRIPTION_MAX_LENGTH + 1),
        }.items()
    }

    response = owner_client.post(
        reverse("compliance:hazard_add", args=[revision.pk]), data, **HTMX
    )

    assert f"at most {HAZARD_DESCRIPTION_MAX_LENGTH} characters" in response.text
    assert not Hazard.objects.filter(revision=revision).exists()


def test_an_over_long_signing_password_is_a_400_naming_it(
    engineer_api, revision, hazard, safety_engineer
):
    submitted = services.revision_submit(revision=revision, actor=safety_engineer)
    body = sign_body(submitted, password="x" * (declaration.PASSWORD_MAX_LENGTH + 1))

    response = engineer_api.post(action_url("sign", submitted.pk), body, format="json")

    assert response.status_code == 400
    # Refused before it is hashed and checked (not "That is not your password").
    (message,) = response.data["password"]
    assert str(declaration.PASSWORD_MAX_LENGTH) in message
    assert Revision.objects.get(pk=submitted.pk).status == RevisionStatus.IN_REVIEW
