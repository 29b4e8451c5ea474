"""Signing through the API is a declaration: GET says what would be signed,
POST needs the password, the statement confirmed and a reason for each open
fail, and a 400 names whatever is missing."""

from __future__ import annotations

import pytest
from django.utils import translation

from compliance.assessment import declaration, services
from compliance.models import Revision, RevisionStatus
from tests.compliance.assessment.api.conftest import action_url, detail_url, sign_body
from tests.factories import DeviceFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def submitted(revision, hazard, safety_engineer, cell):
    # LC1 drawn too close to the hazard zone: INTL-13855-distance fails.
    cell.stopping_time_ms = 300
    cell.hazard_zone_height_mm = 1400
    cell.save()
    DeviceFactory(
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
    return services.revision_submit(revision=revision, actor=safety_engineer)


def _in(language: str) -> str:
    with translation.override(language):
        return translation.gettext(declaration.STATEMENT)


def _status(revision) -> str:
    return Revision.objects.get(pk=revision.pk).status


def test_get_says_what_signing_would_declare(engineer_api, submitted):
    response = engineer_api.get(action_url("sign", submitted.pk))

    assert response.status_code == 200
    data = response.json()
    # The text the record will keep: in the project's language (Korean),
    # whatever language the API is read in.
    assert data["statement"] == _in("ko") != declaration.STATEMENT
    assert data["reason_max_length"] == 500
    assert data["declaration"] is None
    fails = [f for f in data["open_findings"] if f["status"] == "fail"]
    evidence = [f for f in data["open_findings"] if f["status"] == "needs_evidence"]
    assert fails and evidence
    assert data["open_findings"] == fails + evidence  # fails first
    assert all(f["reason_required"] for f in fails)
    assert not any(f["reason_required"] for f in evidence)
    curtain = next(f for f in fails if f["rule_id"] == "INTL-13855-distance")
    assert curtain["key"] == f"INTL-13855-distance|{curtain['subject_key']}"
    assert curtain["subject"] == "LC1" and "512 mm" in curtain["message"]
    assert _status(submitted) == RevisionStatus.IN_REVIEW


def test_a_viewer_may_read_what_would_be_signed_but_not_sign(viewer_api, submitted):
    assert viewer_api.get(action_url("sign", submitted.pk)).status_code == 200
    response = viewer_api.post(
        action_url("sign", submitted.pk), sign_body(submitted), format="json"
    )
    assert response.status_code == 403


def test_a_bare_sign_request_is_a_400_naming_each_missing_part(engineer_api, submitted):
    fails = [
        f["key"]
        for f in engineer_api.get(action_url("sign", submitted.pk)).json()[
            "open_findings"
        ]
        if f["reason_required"]
    ]

    response = engineer_api.post(action_url("sign", submitted.pk), {}, format="json")

    assert response.status_code == 400
    data = response.json()
    assert set(data) == {"password", "confirm", "accepted"}
    assert data["password"] == ["Re-enter your password to sign."]
    assert data["confirm"] == ["Confirm the declaration to sign."]
    assert list(data["accepted"]) == fails
    assert all(len(messages) == 1 for messages in data["accepted"].values())
    assert _status(submitted) == RevisionStatus.IN_REVIEW


def test_a_wrong_password_is_a_400_not_a_500(engineer_api, submitted):
    response = engineer_api.post(
        action_url("sign", submitted.pk),
        sign_body(submitted, password="guess"),
        format="json",
    )

    assert response.status_code == 400
    assert response.json() == {
        "password": [
            "That is not your password: re-enter the password you sign in with."
        ]
    }
    assert _status(submitted) == RevisionStatus.IN_REVIEW


def test_one_fail_without_a_reason_is_named_by_its_key(engineer_api, submitted):
    body = sign_body(submitted)
    key = next(k for k in body["accepted"] if k.startswith("INTL-13855-distance|"))
    del body["accepted"][key]

    response = engineer_api.post(action_url("sign", submitted.pk), body, format="json")

    assert response.status_code == 400
    assert response.json() == {
        "accepted": {
            key: [
                "Give the reason you accept this failing finding: "
                "INTL-13855-distance, LC1."
            ]
        }
    }


@pytest.mark.parametrize(
    "body",
    [
        {"accepted": ["a reason"]},
        {"accepted": {"x": ["not", "text"]}},
        {"confirm": "perhaps"},
    ],
)
def test_a_malformed_body_is_a_400(engineer_api, submitted, body):
    response = engineer_api.post(
        action_url("sign", submitted.pk),
        {**sign_body(submitted), **body},
        format="json",
    )
    assert response.status_code == 400
    assert _status(submitted) == RevisionStatus.IN_REVIEW


def test_signing_with_the_declaration_records_it_in_the_answer(
    engineer_api, owner_api, submitted, safety_engineer
):
    body = sign_body(submitted)
    key = next(k for k in body["accepted"] if k.startswith("INTL-13855-distance|"))
    body["accepted"][key] = "Moved to 600 mm before the PoC; fenced until then."

    response = engineer_api.post(action_url("sign", submitted.pk), body, format="json")

    assert response.status_code == 200
    data = response.json()
    assert data["status"] == RevisionStatus.SIGNED and data["intact"] is True
    declared = data["declaration"]
    assert declared["signer_name"] == safety_engineer.username
    assert declared["signed_at"] == data["signed_at"]
    assert declared["statement"] == _in("ko")
    row = next(f for f in declared["findings"] if f["key"] == key)
    assert row["reason"] == "Moved to 600 mm before the PoC; fenced until then."
    assert row["status"] == "fail" and row["rule_id"] == "INTL-13855-distance"
    assert {f["status"] for f in declared["findings"]} == {"fail", "needs_evidence"}
    # Read back by anyone of the organisation, and by GET of the sign action.
    shown = owner_api.get(detail_url("revision", submitted.pk)).json()
    assert shown["declaration"] == declared
    again = owner_api.get(action_url("sign", submitted.pk)).json()
    assert again["declaration"] == declared


def test_the_declaration_is_the_projects_language_whoever_signs_in_english(
    engineer_api, submitted, cell
):
    # An English project: the statement is signed and kept in English, even
    # by a signer who reads the app in Korean (issue 30).
    cell.project.proposal_language = "en"
    cell.project.save()
    body = sign_body(submitted)
    response = engineer_api.post(
        action_url("sign", submitted.pk), body, format="json", HTTP_ACCEPT_LANGUAGE="ko"
    )
    assert response.status_code == 200, response.content
    declared = response.json()["declaration"]
    assert declared["statement"] == declaration.STATEMENT
    assert Revision.objects.get(pk=submitted.pk).declaration.language == "en"
