"""Signing needs every hazard's residual risk estimated, and a residual risk
that is not acceptable needs its own recorded reason, as an open fail does
(issue 27: the demo's assessment was signed with every residual risk "not
estimated" while the declaration "accepted the residual risks")."""

from __future__ import annotations

import importlib
from contextlib import contextmanager

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.assessment import content, declaration, selectors, services
from compliance.assessment.forms import reason_field_name
from compliance.assessment.models import SignatureDeclaration
from compliance.models import AuditEntry, Hazard, Revision, RevisionStatus
from tests.compliance.conftest import (
    CRUSHING,
    PASSWORD,
    declaration_for,
    sign_revision,
)

declarations = importlib.import_module(
    "compliance.migrations.0008_signature_declaration"
)

TASK = CRUSHING["task"]  # "Loading parts at the infeed"
NOT_ESTIMATED = (
    "Estimate the residual risk of every hazard before signing, even where the "
    "measures leave it unchanged (ISO 12100:2010, 5.6). Not estimated: "
    "Loading parts at the infeed."
)
# The ``hazard`` fixture: S2/F2/P1 before and after, no measure (PLr d, high).
TOO_HIGH = "The residual risk level is High: reduce it to low or medium."
NEEDS_REASON = (
    "Give the reason you accept the residual risk of “Loading parts at the "
    "infeed”: it is not acceptable as estimated."
)
WHY = "Fenced off until the light curtain arrives in week 4."


def residual_key(hazard) -> str:
    return f"CSP-residual-risk|hazard:{hazard.key}"


def status_of(revision) -> str:
    return Revision.objects.get(pk=revision.pk).status


def assert_nothing_signed(revision) -> None:
    assert status_of(revision) == RevisionStatus.IN_REVIEW
    assert not SignatureDeclaration.objects.filter(revision_id=revision.pk).exists()
    assert not AuditEntry.objects.filter(action="sign").exists()


@pytest.fixture
def unestimated(revision, safety_engineer):
    """In review: one hazard estimated before its measures, not after."""
    services.hazard_add(
        revision=revision,
        actor=safety_engineer,
        severity="S2",
        frequency="F2",
        avoidance="P1",
        **CRUSHING,
    )
    return services.revision_submit(revision=revision, actor=safety_engineer)


@pytest.fixture
def too_high(revision, hazard, safety_engineer):
    """In review: the ``hazard`` fixture, its residual risk high."""
    return services.revision_submit(revision=revision, actor=safety_engineer)


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _sign_api(revision) -> str:
    return reverse("compliance-api:revision-sign", args=[revision.pk])


def _sign_page(revision) -> str:
    return reverse("compliance:revision_action", args=[revision.pk, "sign"])


# --- A residual risk not estimated refuses signing -------------------------------


def test_signing_refuses_a_hazard_whose_residual_risk_is_not_estimated(
    unestimated, safety_engineer
):
    with pytest.raises(ValidationError) as refused:
        sign_revision(unestimated, safety_engineer)

    assert refused.value.message_dict == {"residual_risk": [NOT_ESTIMATED]}
    assert_nothing_signed(unestimated)


def test_the_api_answers_400_naming_the_residual_risk_not_estimated(
    unestimated, safety_engineer
):
    response = _api(safety_engineer).post(
        _sign_api(unestimated), declaration_for(unestimated), format="json"
    )

    assert response.status_code == 400
    assert response.data == {"residual_risk": [NOT_ESTIMATED]}
    assert_nothing_signed(unestimated)


def test_the_signing_form_shows_the_residual_risk_not_estimated(
    client, unestimated, safety_engineer
):
    client.force_login(safety_engineer)
    data = {"confirm": "on", "password": PASSWORD}
    for key, reason in declaration_for(unestimated)["accepted"].items():
        data[reason_field_name(key)] = reason

    response = client.post(_sign_page(unestimated), data)

    assert response.status_code == 200
    assert NOT_ESTIMATED in response.text
    assert_nothing_signed(unestimated)


# --- A residual risk not acceptable needs its own reason --------------------------


def test_a_residual_risk_not_acceptable_is_declared_as_needing_a_reason(
    too_high, hazard
):
    found = {f.key: f for f in services.revision_sign_preview(revision=too_high)}

    declared = found[residual_key(hazard)]
    assert (declared.status, declared.subject, declared.message) == (
        "fail",
        TASK,
        TOO_HIGH,
    )


def test_signing_without_a_reason_for_a_residual_risk_not_acceptable_is_refused(
    too_high, hazard, safety_engineer
):
    values = declaration_for(too_high)
    del values["accepted"][residual_key(hazard)]

    with pytest.raises(ValidationError) as refused:
        services.revision_sign(revision=too_high, actor=safety_engineer, **values)

    (error,) = refused.value.error_dict["accepted"]
    assert error.params["key"] == residual_key(hazard)
    assert list(error) == [NEEDS_REASON]
    assert set(refused.value.error_dict) == {"accepted"}
    assert_nothing_signed(too_high)


def test_the_api_lists_the_residual_risk_and_refuses_it_without_a_reason(
    too_high, hazard, safety_engineer
):
    api = _api(safety_engineer)
    shown = api.get(_sign_api(too_high)).data["open_findings"]
    values = declaration_for(too_high)
    del values["accepted"][residual_key(hazard)]

    response = api.post(_sign_api(too_high), values, format="json")

    (listed,) = [f for f in shown if f["key"] == residual_key(hazard)]
    assert listed["reason_required"] is True
    assert listed["subject"] == TASK
    assert response.status_code == 400
    assert response.data == {"accepted": {residual_key(hazard): [NEEDS_REASON]}}
    assert_nothing_signed(too_high)


def test_the_reason_is_recorded_in_the_declaration_under_the_content_hash(
    too_high, hazard, safety_engineer
):
    values = declaration_for(too_high)
    values["accepted"][residual_key(hazard)] = WHY

    signed = services.revision_sign(revision=too_high, actor=safety_engineer, **values)

    stored = Revision.objects.get(pk=signed.pk)
    assert stored.declaration.accepted_residual_risks == [
        {
            "key": residual_key(hazard),
            "rule_id": "CSP-residual-risk",
            "subject_key": f"hazard:{hazard.key}",
            "subject": TASK,
            "status": "fail",
            "message": TOO_HIGH,
            "reason": WHY,
        }
    ]
    assert residual_key(hazard) not in {
        f["key"] for f in stored.declaration.accepted_findings
    }
    assert content.content_hash(selectors.revision_content(stored)) == (
        stored.content_hash
    )
    assert services.revision_is_intact(stored)


@contextmanager
def declarations_unguarded():
    """What the database owner can do and the app cannot: the declaration's
    guard triggers off, writes made, the triggers back on."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"ALTER TABLE {declarations.TABLE} DISABLE TRIGGER USER")
        else:
            for statement in declarations.SQLITE_REVERSE:
                cursor.execute(statement)
    yield
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"ALTER TABLE {declarations.TABLE} ENABLE TRIGGER USER")
        else:
            for statement in declarations.SQLITE:
                cursor.execute(statement)


def test_a_residual_risks_reason_rewritten_behind_the_app_breaks_the_seal(
    too_high, hazard, safety_engineer
):
    values = declaration_for(too_high)
    values["accepted"][residual_key(hazard)] = WHY
    signed = services.revision_sign(revision=too_high, actor=safety_engineer, **values)
    stored = SignatureDeclaration.objects.get(revision_id=signed.pk)
    findings = [
        {**f, "reason": "Nothing to see here."}
        if f["key"] == residual_key(hazard)
        else f
        for f in stored.findings
    ]

    with declarations_unguarded():
        SignatureDeclaration.objects.filter(pk=stored.pk).update(findings=findings)

    assert not services.revision_is_intact(Revision.objects.get(pk=signed.pk))


def test_an_acceptable_residual_risk_needs_no_reason(revision, layout, safety_engineer):
    hazard = services.hazard_add(
        revision=revision,
        actor=safety_engineer,
        severity="S2",
        frequency="F2",
        avoidance="P1",
        residual_severity="S2",
        residual_frequency="F1",
        residual_avoidance="P1",
        **CRUSHING,
    )
    services.measure_add(
        hazard=hazard,
        actor=safety_engineer,
        step="safeguarding",
        description="Fence F1",
        segment=layout["segment"],
    )
    submitted = services.revision_submit(revision=revision, actor=safety_engineer)

    open_findings = services.revision_sign_preview(revision=submitted)
    signed = sign_revision(submitted, safety_engineer)

    assert residual_key(hazard) not in {f.key for f in open_findings}
    assert signed.status == RevisionStatus.SIGNED
    assert Revision.objects.get(pk=signed.pk).declaration.accepted_residual_risks == []


# --- The pages ------------------------------------------------------------------


def test_the_signing_form_asks_why_each_residual_risk_is_accepted(
    client, too_high, hazard, safety_engineer
):
    client.force_login(safety_engineer)

    text = client.get(_sign_page(too_high)).text

    assert "Residual risks not acceptable" in text
    assert f'data-key="{residual_key(hazard)}"' in text
    assert f'name="{reason_field_name(residual_key(hazard))}"' in text
    assert "Why you accept the residual risk of “Loading parts at the infeed”" in text
    assert TOO_HIGH in text


def test_the_declaration_lists_each_residual_risk_accepted_with_its_reason(
    client, too_high, hazard, safety_engineer
):
    client.force_login(safety_engineer)
    data = {"confirm": "on", "password": PASSWORD}
    for key, reason in declaration_for(too_high)["accepted"].items():
        data[reason_field_name(key)] = reason
    data[reason_field_name(residual_key(hazard))] = WHY

    response = client.post(_sign_page(too_high), data, follow=True)

    assert status_of(too_high) == RevisionStatus.SIGNED
    text = response.text
    assert (
        "Hazards whose residual risk was accepted though not acceptable, with the "
        "reasons given" in text
    )
    assert WHY in text and TOO_HIGH in text


def test_the_statement_accepts_only_the_residual_risks_listed():
    assert declaration.STATEMENT == (
        "I have assessed the risks of this cell as recorded and estimated the "
        "residual risk of every hazard. I accept the residual risks and the open "
        "findings listed, each for the reason given."
    )


def test_another_organisations_signing_form_answers_404(outsider_client, too_high):
    assert outsider_client.get(_sign_page(too_high)).status_code == 404
    assert outsider_client.post(_sign_page(too_high), {}).status_code == 404


# --- Records that outlive what they were recorded for ----------------------------


def test_a_safety_function_recorded_before_the_hazard_was_estimated_meets_its_plr(
    revision, owner, safety_engineer
):
    # Added before any estimate, the measure records no PLr; the hazard's
    # estimate (PLr d) is what its PL b must meet.
    hazard = services.hazard_add(revision=revision, actor=owner, **CRUSHING)
    services.measure_add(
        hazard=hazard,
        actor=owner,
        step="safeguarding",
        description="Light curtain at the infeed",
        is_safety_function=True,
        pl_claimed="b",
    )
    services.hazard_update(
        hazard=hazard,
        actor=owner,
        version=hazard.version,
        severity="S2",
        frequency="F2",
        avoidance="P1",
        residual_severity="S2",
        residual_frequency="F1",
        residual_avoidance="P1",
    )

    data = _api(owner).get(reverse("compliance-api:hazard-detail", args=[hazard.pk]))

    assert data.status_code == 200
    assert data.data["acceptable"] is False
    assert [r["code"] for r in data.data["reasons"]] == ["measure_pl_below_plr"]


def test_deleting_a_measure_clears_the_residual_estimate_that_rested_on_it(
    revision, layout, owner, safety_engineer
):
    hazard = services.hazard_add(
        revision=revision,
        actor=owner,
        severity="S2",
        frequency="F2",
        avoidance="P1",
        residual_severity="S2",
        residual_frequency="F1",
        residual_avoidance="P1",
        **CRUSHING,
    )
    fence = services.measure_add(
        hazard=hazard,
        actor=owner,
        step="safeguarding",
        description="Fence F1",
        segment=layout["segment"],
    )
    services.measure_add(
        hazard=hazard,
        actor=owner,
        step="information_for_use",
        description="Warning sign at the infeed",
    )

    services.measure_delete(measure=fence, actor=owner)
    submitted = services.revision_submit(revision=revision, actor=owner)

    after = Hazard.objects.get(pk=hazard.pk)
    assert (
        after.residual_severity,
        after.residual_frequency,
        after.residual_avoidance,
    ) == ("", "", "")
    with pytest.raises(ValidationError) as refused:
        sign_revision(submitted, safety_engineer)
    assert refused.value.message_dict == {"residual_risk": [NOT_ESTIMATED]}


def test_deleting_a_measure_keeps_a_residual_estimate_left_at_the_initial_risk(
    revision, hazard, owner
):
    sign = services.measure_add(
        hazard=hazard,
        actor=owner,
        step="information_for_use",
        description="Warning sign at the infeed",
    )

    services.measure_delete(measure=sign, actor=owner)

    after = Hazard.objects.get(pk=hazard.pk)
    assert (after.residual_severity, after.residual_frequency) == ("S2", "F2")


# --- The demo -------------------------------------------------------------------


def test_the_demos_signed_assessment_estimates_every_residual_risk(db):
    import io

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("seed_demo", stdout=io.StringIO())
    signed = Revision.objects.get(status=RevisionStatus.SIGNED)
    api = _api(get_user_model().objects.get(username="viewer"))

    rows = api.get(
        reverse("compliance-api:hazard-list"), {"revision": signed.pk}
    ).json()["results"]

    by_task = {row["task"]: (row["residual_plr"], row["acceptable"]) for row in rows}
    # Each lowered from PLr d (or left at c) by the light curtain or the door
    # interlock it relies on: nothing is left to accept with a reason.
    assert by_task == {
        "투입구를 지나 로봇의 동작 범위로 걸어 들어감": ("c", True),
        "로봇 운전 중 정비 도어로 들어감": ("c", True),
        "투입구에서 걸림을 푸는 중 로봇의 예기치 않은 동작": ("c", True),
    }
    assert signed.declaration.accepted_residual_risks == []
    assert services.revision_is_intact(signed)
