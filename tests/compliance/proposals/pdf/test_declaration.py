"""The risk section of the PDF shows the signature declaration of the signed
revision it prints: who, when, the statement and each accepted fail with its
reason. No database."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from compliance.proposals.pdf.builder import build_proposal_pdf
from compliance.proposals.pdf.data import (
    AcceptedFinding,
    RiskSection,
    SignatureDeclaration,
)
from tests.compliance.proposals.pdf.samples import sample_proposal
from tests.compliance.proposals.pdf.test_builder import text_of

STATEMENT = (
    "I have assessed the risks of this cell as recorded, and I accept the "
    "residual risks and the open findings listed with the reasons given."
)
DECLARED = SignatureDeclaration(
    signer="jpark",
    signed_at=datetime(2026, 11, 27, 9, 41, tzinfo=UTC),
    statement=STATEMENT,
    accepted=(
        AcceptedFinding(
            rule_id="INTL-13855-distance",
            subject="LC1",
            message="LC1 is only 113.3 mm from the hazard zone.",
            reason="Moved to 600 mm before the PoC; fenced until then.",
        ),
    ),
    needing_evidence=3,
)


def _with(declaration: SignatureDeclaration | None) -> str:
    data = sample_proposal()
    risk = data.risk.model_copy(update={"declaration": declaration})
    return " ".join(
        text_of(build_proposal_pdf(data.model_copy(update={"risk": risk}))).split()
    )


def test_the_risk_section_shows_the_declaration_and_the_accepted_fails():
    text = _with(DECLARED)

    assert "Signature declaration" in text
    assert "jpark declared on 27 November 2026 at 09:41 UTC" in text
    assert STATEMENT in text
    # The failing finding by its subject and words, no rule id: the
    # customer's copy prints none (issue 30).
    assert "INTL-13855-distance" not in text
    assert "Moved to 600 mm before the PoC; fenced until then." in text
    assert "3 findings needed evidence at signing" in text


def test_a_declaration_without_fails_says_none_was_open():
    text = _with(DECLARED.model_copy(update={"accepted": (), "needing_evidence": 0}))
    assert "No failing finding was open at signing." in text
    assert "needed evidence at signing" not in text


def test_a_revision_signed_before_declarations_prints_as_before():
    text = _with(None)
    assert "Signature declaration" not in text
    assert "Content hash (SHA-256)" in text


def test_a_draft_cannot_carry_a_declaration():
    with pytest.raises(ValidationError):
        RiskSection(signed=False, revision=1, declaration=DECLARED)
