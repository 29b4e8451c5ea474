"""Signing is a declaration: the signer sees the open findings of the cell,
gives a reason for each fail they accept, confirms the statement and enters
their password again; the signature records all of it, immutably, under the
content hash."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone, translation

from compliance.assessment import declaration, selectors, services, verification
from compliance.assessment.content import content_hash
from compliance.assessment.models import SignatureDeclaration
from compliance.models import AuditEntry, Revision, RevisionStatus
from compliance.rules import selectors as rules_selectors
from tests.compliance.conftest import declaration_for, sign_revision
from tests.factories import DeviceFactory


def _korean(text: str) -> str:
    """The statement as the record keeps it for the fixtures' Korean project
    (issue 30: signed in the project's language)."""
    with translation.override("ko"):
        return translation.gettext(text)


@pytest.fixture
def submitted(revision, hazard, safety_engineer):
    return services.revision_submit(revision=revision, actor=safety_engineer)


@pytest.fixture
def curtain(cell):
    """LC1 drawn too close to the hazard zone: INTL-13855-distance fails."""
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


def _refusal(submitted, engineer, **values) -> dict[str, list]:
    with pytest.raises(ValidationError) as refused:
        services.revision_sign(revision=submitted, actor=engineer, **values)
    assert Revision.objects.get(pk=submitted.pk).status == RevisionStatus.IN_REVIEW
    assert not SignatureDeclaration.objects.exists()
    return refused.value.error_dict


def _fails(revision) -> list[str]:
    return [
        f.key
        for f in services.revision_sign_preview(revision=revision)
        if f.status == "fail"
    ]


def test_the_open_findings_to_declare_are_fails_then_those_needing_evidence(
    submitted, curtain
):
    open_findings = services.revision_sign_preview(revision=submitted)

    statuses = [f.status for f in open_findings]
    assert statuses == sorted(statuses, key=["fail", "needs_evidence"].index)
    assert set(statuses) == {"fail", "needs_evidence"}
    keys = [f.key for f in open_findings]
    assert f"INTL-13855-distance|device:{curtain.pk}" in keys
    assert len(keys) == len(set(keys))


def test_the_findings_are_those_the_cell_will_have_once_signed(submitted):
    # Before signing, the cell needs its risk assessment signed: that finding
    # closes with the signature, so it is not one the signer accepts.
    now = {
        f.rule_id for f in rules_selectors.cell_checks(submitted.assessment.cell).open()
    }
    assert "INTL-10218-2-risk-assessment" in now
    declared = {f.rule_id for f in services.revision_sign_preview(revision=submitted)}
    assert "INTL-10218-2-risk-assessment" not in declared


def test_looking_at_what_would_be_signed_writes_nothing(submitted):
    before = Revision.objects.values().get(pk=submitted.pk)
    entries = AuditEntry.objects.count()

    services.revision_sign_preview(revision=submitted)

    assert Revision.objects.values().get(pk=submitted.pk) == before
    assert AuditEntry.objects.count() == entries


def test_signing_without_the_declaration_names_each_missing_part(
    submitted, safety_engineer, curtain
):
    errors = _refusal(
        submitted, safety_engineer, password="", confirm=False, accepted={}
    )

    assert set(errors) == {"password", "confirm", "accepted"}
    assert errors["password"][0].message == "Re-enter your password to sign."
    assert list(errors["confirm"][0]) == ["Confirm the declaration to sign."]
    named = {e.params["key"] for e in errors["accepted"]}
    assert named == set(_fails(submitted))
    assert all(e.code == "missing" for e in errors["accepted"])


def test_a_wrong_password_is_refused_with_a_clear_message(submitted, safety_engineer):
    errors = _refusal(
        submitted,
        safety_engineer,
        **declaration_for(submitted, password="not-my-password"),
    )

    assert set(errors) == {"password"}
    assert list(errors["password"][0]) == [
        "That is not your password: re-enter the password you sign in with."
    ]


def test_a_fail_without_a_reason_refuses_signing_and_names_that_finding(
    submitted, safety_engineer, curtain
):
    values = declaration_for(submitted)
    key = f"INTL-13855-distance|device:{curtain.pk}"
    values["accepted"] = {**values["accepted"], key: "   "}  # blank is no reason

    errors = _refusal(submitted, safety_engineer, **values)

    assert set(errors) == {"accepted"}
    (missing,) = errors["accepted"]
    assert missing.params["key"] == key
    assert list(missing) == [
        "Give the reason you accept this failing finding: INTL-13855-distance, LC1."
    ]


def test_a_reason_longer_than_the_limit_is_refused(submitted, safety_engineer):
    values = declaration_for(submitted)
    key = next(iter(values["accepted"]))
    values["accepted"][key] = "x" * (declaration.REASON_MAX_CHARS + 1)

    errors = _refusal(submitted, safety_engineer, **values)

    (too_long,) = errors["accepted"]
    assert too_long.code == "too_long" and too_long.params["key"] == key
    assert "500 characters" in next(iter(too_long))


def test_a_reason_at_the_limit_is_accepted(submitted, safety_engineer):
    values = declaration_for(submitted)
    key = next(iter(values["accepted"]))
    values["accepted"][key] = "x" * declaration.REASON_MAX_CHARS

    signed = services.revision_sign(revision=submitted, actor=safety_engineer, **values)

    assert signed.is_signed


def test_the_signature_records_who_when_the_statement_and_the_open_findings(
    submitted, safety_engineer, curtain
):
    open_findings = services.revision_sign_preview(revision=submitted)
    key = f"INTL-13855-distance|device:{curtain.pk}"
    values = declaration_for(submitted)
    values["accepted"][key] = (
        "The curtain moves to 600 mm in week 3; until then a fence."
    )
    values["accepted"]["no-such-finding"] = "ignored"

    signed = services.revision_sign(revision=submitted, actor=safety_engineer, **values)

    declared = SignatureDeclaration.objects.get(revision=signed)
    assert declared.signer == safety_engineer
    assert declared.signer_name == safety_engineer.username
    assert declared.signed_at == signed.signed_at
    assert declared.statement == _korean(declaration.STATEMENT)
    assert declared.language == "ko"  # the project's, not the signer's (issue 30)
    assert [f["key"] for f in declared.findings] == [f.key for f in open_findings]
    curtain_row = next(f for f in declared.findings if f["key"] == key)
    assert curtain_row == {
        "key": key,
        "rule_id": "INTL-13855-distance",
        "subject_key": f"device:{curtain.pk}",
        "subject": "LC1",
        "status": "fail",
        "message": next(f.message for f in open_findings if f.key == key),
        "reason": "The curtain moves to 600 mm in week 3; until then a fence.",
    }
    assert {f["status"] for f in declared.needing_evidence} == {"needs_evidence"}
    assert all(f["reason"] for f in declared.accepted_fails)
    assert "no-such-finding" not in {f["key"] for f in declared.findings}


def test_the_content_hash_covers_the_declaration(submitted, safety_engineer):
    signed = sign_revision(submitted, safety_engineer)
    content = selectors.revision_content(Revision.objects.get(pk=signed.pk))
    assert content.declaration is not None
    assert content_hash(content) == signed.content_hash
    assert services.revision_is_intact(Revision.objects.get(pk=signed.pk))

    # Another reason, or no declaration at all, would not be what was signed.
    findings = list(content.declaration.findings)
    findings[0] = findings[0].model_copy(update={"reason": "something else"})
    other = content.declaration.model_copy(update={"findings": tuple(findings)})
    assert content_hash(content.model_copy(update={"declaration": other})) != (
        signed.content_hash
    )
    bare = content.model_copy(update={"declaration": None})
    assert content_hash(bare) != signed.content_hash


def test_a_revision_signed_before_declarations_existed_stays_intact(submitted):
    # Signed the old way: the hash of the content alone, no declaration, then
    # sealed as migration 0012 seals what was signed before seals existed.
    digest = content_hash(selectors.revision_content(submitted))
    now = timezone.now()
    _, seal = verification.signing_seal(
        submitted, digest=digest, signed_at=now, signed_by_id=None
    )
    Revision.objects.filter(pk=submitted.pk).update(
        status=RevisionStatus.SIGNED, content_hash=digest, signed_at=now, seal=seal
    )

    old = Revision.objects.get(pk=submitted.pk)

    assert selectors.declaration_of(old) is None
    assert services.revision_is_intact(old)


def test_the_database_refuses_to_change_or_delete_a_declaration(
    submitted, safety_engineer
):
    signed = sign_revision(submitted, safety_engineer)
    declared = SignatureDeclaration.objects.filter(revision=signed)

    for action in (
        lambda: declared.update(statement="I accept nothing."),
        lambda: declared.update(findings=[]),
        lambda: declared.delete(),
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            action()
    assert declared.get().statement == _korean(declaration.STATEMENT)


def test_the_signers_own_current_password_is_what_is_checked(
    submitted, safety_engineer
):
    safety_engineer.set_password("engineer-only")
    safety_engineer.save()
    errors = _refusal(submitted, safety_engineer, **declaration_for(submitted))
    assert set(errors) == {"password"}  # the old one no longer signs

    signed = sign_revision(submitted, safety_engineer, password="engineer-only")
    assert signed.is_signed
