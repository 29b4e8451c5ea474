"""The signing form: the open findings of the cell, a reason for each fail, the
statement and the password; then the declaration on the register."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from compliance.assessment import declaration, services
from compliance.assessment.forms import reason_field_name
from compliance.models import Revision, RevisionStatus
from tests.compliance.assessment.test_pages import sign_form
from tests.factories import DeviceFactory


def _korean(text: str) -> str:
    """The statement as the record keeps it for the fixtures' Korean project
    (issue 30: signed in the project's language)."""
    with translation.override("ko"):
        return translation.gettext(text)


@pytest.fixture
def curtain(cell):
    cell.stopping_time_ms = 300
    cell.hazard_zone_height_mm = 1400
    cell.save()
    return DeviceFactory(
        cell=cell,
        label="LC1",
        response_time_ms=20,
        detection_capability_mm=14,
        iec61496_type=4,
        kcs_certified=True,
        x1_mm=1000,
        y1_mm=3000,
        x2_mm=1800,
        y2_mm=3000,
        detection_lower_mm=300,
        detection_upper_mm=2000,
    )


@pytest.fixture
def submitted(client, revision, hazard, safety_engineer, curtain):
    client.force_login(safety_engineer)
    return services.revision_submit(revision=revision, actor=safety_engineer)


def sign_url(revision) -> str:
    return reverse("compliance:revision_action", args=[revision.pk, "sign"])


def _status(revision) -> str:
    return Revision.objects.get(pk=revision.pk).status


def test_the_register_links_to_the_signing_form(client, submitted):
    response = client.get(
        reverse("compliance:assessment", args=[submitted.assessment.cell_id])
    )
    assert f'href="{sign_url(submitted)}"' in response.text


def test_the_signing_form_lists_the_open_findings_and_asks_for_the_declaration(
    client, submitted, curtain
):
    response = client.get(sign_url(submitted))

    assert response.status_code == 200
    text = response.text
    key = f"INTL-13855-distance|device:{curtain.pk}"
    assert f'data-key="{key}"' in text
    assert f'name="{reason_field_name(key)}"' in text
    assert "Why you accept INTL-13855-distance on LC1" in text
    assert "Needing evidence" in text and "KR-84-kcs" in text
    assert declaration.STATEMENT in text
    # Read in English, signed in the project's language (Korean), said so.
    assert "The record keeps it in the project&#x27;s language" in text
    assert _korean(declaration.STATEMENT) in text
    assert 'type="password"' in text and 'name="confirm"' in text
    assert _status(submitted) == RevisionStatus.IN_REVIEW


def test_a_missing_reason_shows_the_form_again_naming_that_finding(
    client, submitted, curtain
):
    key = f"INTL-13855-distance|device:{curtain.pk}"
    data = sign_form(submitted)
    data[reason_field_name(key)] = ""

    response = client.post(sign_url(submitted), data)

    assert response.status_code == 200
    assert (
        "Give the reason you accept this failing finding: INTL-13855-distance, LC1."
        in response.text
    )
    assert _status(submitted) == RevisionStatus.IN_REVIEW


def test_a_wrong_password_is_refused_on_the_form(client, submitted):
    response = client.post(sign_url(submitted), sign_form(submitted, password="x"))

    assert response.status_code == 200
    assert "That is not your password" in response.text
    assert _status(submitted) == RevisionStatus.IN_REVIEW


def test_an_unconfirmed_statement_is_refused_on_the_form(client, submitted):
    data = sign_form(submitted)
    del data["confirm"]

    response = client.post(sign_url(submitted), data)

    assert "Confirm the declaration to sign." in response.text
    assert _status(submitted) == RevisionStatus.IN_REVIEW


def test_signing_on_the_form_shows_the_declaration_on_the_register(
    client, submitted, curtain
):
    key = f"INTL-13855-distance|device:{curtain.pk}"
    data = sign_form(submitted)
    data[reason_field_name(key)] = "Moved to 600 mm before the PoC."

    response = client.post(sign_url(submitted), data, follow=True)

    assert _status(submitted) == RevisionStatus.SIGNED
    text = response.text
    assert "Signed. This revision can no longer be changed." in text
    assert "Signature declaration" in text
    assert _korean(declaration.STATEMENT) in text
    assert "Moved to 600 mm before the PoC." in text
    assert "content intact" in text


def test_an_architect_is_sent_back_from_the_signing_form(client, submitted, owner):
    client.force_login(owner)
    response = client.get(sign_url(submitted), follow=True)
    assert "Only a safety engineer can sign" in response.text
    assert 'name="confirm"' not in response.text


def test_other_workflow_steps_still_take_only_a_post(client, submitted):
    url = reverse("compliance:revision_action", args=[submitted.pk, "return"])
    assert client.get(url).status_code == 405
    assert _status(submitted) == RevisionStatus.IN_REVIEW
