"""The password re-entered to sign is checked as a sign-in is: wrong ones count
towards the sign-in lockout, and a locked-out signer cannot sign, so a
borrowed session cannot be used to guess the password."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.assessment import services
from compliance.models import Revision, RevisionStatus
from tests.compliance.assessment.test_pages import sign_form
from tests.compliance.assessment.test_sign_page import sign_url
from tests.compliance.conftest import PASSWORD, declaration_for


@pytest.fixture
def submitted(client, revision, hazard, safety_engineer):
    client.force_login(safety_engineer)
    return services.revision_submit(revision=revision, actor=safety_engineer)


def _status(revision) -> str:
    return Revision.objects.get(pk=revision.pk).status


def _sign_in(client, password):
    return client.post(reverse("login"), {"username": "engineer", "password": password})


def test_wrong_passwords_at_signing_lock_the_sign_in(client, submitted):
    for _ in range(5):
        client.post(sign_url(submitted), sign_form(submitted, password="wrong-one"))
    client.logout()

    response = _sign_in(client, PASSWORD)

    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_locked_out_signer_cannot_sign_even_with_the_right_password(
    client, submitted
):
    for _ in range(6):
        response = client.post(
            sign_url(submitted), sign_form(submitted, password="wrong-one")
        )
    assert "That is not your password" not in response.text  # the lockout's turn

    response = client.post(sign_url(submitted), sign_form(submitted))

    assert "Too many wrong passwords" in response.text
    assert _status(submitted) == RevisionStatus.IN_REVIEW


def test_wrong_sign_ins_lock_signing_through_the_api(
    client, submitted, safety_engineer
):
    for _ in range(5):
        _sign_in(client, "wrong-one")
    api = APIClient()
    api.force_authenticate(safety_engineer)
    url = reverse("compliance-api:revision-sign", args=[submitted.pk])

    response = api.post(url, declaration_for(submitted), format="json")

    assert response.status_code == 400
    assert "Too many wrong passwords" in response.json()["password"][0]
    assert _status(submitted) == RevisionStatus.IN_REVIEW


def test_a_right_password_at_signing_still_signs(client, submitted):
    client.post(sign_url(submitted), sign_form(submitted, password="wrong-one"))

    client.post(sign_url(submitted), sign_form(submitted))

    assert _status(submitted) == RevisionStatus.SIGNED
