"""The proposal prints the declaration of the signed revision it shows."""

from __future__ import annotations

from django.utils import translation

from compliance.assessment import declaration, services
from compliance.proposals.building import build_document
from compliance.proposals.data import proposal_data
from compliance.proposals.services import proposal_request
from tests.compliance.conftest import declaration_for
from tests.compliance.proposals.test_proposals import text_of


def test_the_pdf_shows_who_declared_what_and_each_accepted_fail(
    cell, revision, hazard, safety_engineer
):
    submitted = services.revision_submit(revision=revision, actor=safety_engineer)
    values = declaration_for(submitted)
    key = next(iter(values["accepted"]))
    values["accepted"][key] = "Accepted until the fence is raised in week 4."
    signed = services.revision_sign(revision=submitted, actor=safety_engineer, **values)
    services.revision_start_next(revision=signed, actor=safety_engineer)  # draft 2

    document = proposal_request(
        cell=cell, actor=safety_engineer, language="en", sections=["risk"]
    )
    risk = proposal_data(document).risk

    declared = risk.declaration
    assert declared is not None and risk.revision == signed.number
    assert declared.signer == safety_engineer.username
    assert declared.signed_at == signed.signed_at
    # Signed in the project's language (Korean); the English proposal
    # prints it as signed, and in its own language beside it (issue 30).
    with translation.override("ko"):
        korean = translation.gettext(declaration.STATEMENT)
    assert declared.statement == korean
    assert declared.translation == declaration.STATEMENT
    assert len(declared.accepted) == len(values["accepted"])
    accepted = {f.reason for f in declared.accepted}
    assert "Accepted until the fence is raised in week 4." in accepted
    assert declared.needing_evidence >= 1
    assert build_document(document.pk, claim="t") == "ready"
    document.refresh_from_db()
    text = " ".join(text_of(bytes(document.pdf)).split())
    assert "Signature declaration" in text
    assert korean in text
    assert f"In this proposal's language: “{declaration.STATEMENT}”" in text
    assert "Accepted until the fence is raised in week 4." in text


def test_a_draft_prints_no_declaration(cell, revision, hazard, safety_engineer):
    document = proposal_request(
        cell=cell, actor=safety_engineer, language="en", sections=["risk"]
    )
    risk = proposal_data(document).risk
    assert not risk.signed and risk.declaration is None
