"""Signing freezes the robot's safety configuration, the cell as assessed and
the rules the findings were computed under (issue 17): in the content the
hash covers, shown by the API, printed in the report; a revision signed
without them (before) still verifies; a configuration changed since signing
fails its finding."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from compliance.assessment import selectors, services, verification
from compliance.assessment.content import canonical_json, content_hash
from compliance.assessment.models import SignatureDeclaration
from compliance.rules import history
from compliance.rules import selectors as rules_selectors
from compliance.rules.cell_facts import cell_facts
from compliance.rules.engine import evaluate
from compliance.rules.findings import Status
from tests.compliance.assessment.report.test_report_pages import get_pdf, text_of
from tests.compliance.assessment.test_tamper_evidence import verify
from tests.compliance.conftest import sign_revision


def _sign(revision, engineer):
    return sign_revision(
        services.revision_submit(revision=revision, actor=engineer), engineer
    )


def _configure(cell, kind="ur_checksum", value="1A2B3C4D", **extra):
    cell.safety_config_kind, cell.safety_config_value = kind, value
    for name, v in extra.items():
        setattr(cell, name, v)
    cell.full_clean()
    cell.save()


def _config_finding(cell):
    facts = cell_facts(rules_selectors.cell_with_layout(cell))
    found = {rule.id: f for rule, f in evaluate(facts)}
    return found["INTL-robot-safety-configuration"]


@pytest.mark.django_db
def test_signing_freezes_the_configuration_fingerprint_and_rules(
    cell, revision, hazard, safety_engineer
):
    _configure(cell, safety_rated_limits=True)
    signed = _sign(revision, safety_engineer)
    declaration = SignatureDeclaration.objects.get(revision=signed)
    assert declaration.safety_configuration == {
        "kind": "ur_checksum",
        "value": "1A2B3C4D",
    }
    assert len(declaration.cell_fingerprint) == 16
    assert declaration.computed_under["ruleset"] == history.CURRENT.version
    assert "korea" in declaration.computed_under["packs"]
    # The hash covers them: they are in the content that was hashed.
    content = selectors.revision_content(signed)
    assert '"value":"1A2B3C4D"' in canonical_json(content)
    assert content_hash(content) == signed.content_hash
    assert verification.revision_is_intact(signed)
    assert verify()[0]
    # And the finding: the configuration on record is the one assessed.
    (finding,) = _config_finding(cell)
    assert finding.status is Status.PASS


@pytest.mark.django_db
def test_the_signing_preview_reads_the_configuration_as_signing_will_freeze_it(
    cell, revision, hazard, safety_engineer
):
    _configure(cell, safety_rated_limits=True)
    submitted = services.revision_submit(revision=revision, actor=safety_engineer)
    open_findings = services.revision_sign_preview(revision=submitted)
    assert "INTL-robot-safety-configuration" not in {f.rule_id for f in open_findings}


@pytest.mark.django_db
def test_a_configuration_changed_after_signing_fails_its_finding(
    cell, revision, hazard, safety_engineer
):
    _configure(cell, safety_rated_limits=True)
    _sign(revision, safety_engineer)
    _configure(cell, value="9F9F0000")
    (finding,) = _config_finding(cell)
    assert finding.status is Status.FAIL
    assert finding.values["signed_value"] == "1A2B3C4D"


@pytest.mark.django_db
def test_the_frozen_declaration_cannot_be_changed(
    cell, revision, hazard, safety_engineer
):
    _configure(cell)
    signed = _sign(revision, safety_engineer)
    with pytest.raises(IntegrityError), transaction.atomic():
        SignatureDeclaration.objects.filter(revision=signed).update(
            safety_configuration={"kind": "ur_checksum", "value": "FFFF"}
        )


@pytest.mark.django_db
def test_a_revision_signed_without_them_still_verifies(
    cell, revision, hazard, safety_engineer, monkeypatch
):
    # As every revision signed before issue 17: nothing frozen but the
    # declaration itself; its content hashes as it always did.
    monkeypatch.setattr(services, "_frozen_with_signature", lambda cell: {})
    _configure(cell, safety_rated_limits=True)
    signed = _sign(revision, safety_engineer)
    declaration = SignatureDeclaration.objects.get(revision=signed)
    assert declaration.safety_configuration is None
    assert declaration.computed_under is None
    text = canonical_json(selectors.revision_content(signed))
    assert "safety_configuration" not in text and "computed_under" not in text
    assert "cell_fingerprint" not in text
    assert verification.revision_is_intact(signed)
    assert verify()[0]
    (finding,) = _config_finding(cell)
    assert finding.status is Status.NEEDS_EVIDENCE  # signed before it was frozen


@pytest.mark.django_db
def test_the_api_shows_what_signing_froze(
    owner, cell, revision, hazard, safety_engineer
):
    _configure(cell, kind="fanuc_dcs_signature", value="20231187")
    signed = _sign(revision, safety_engineer)
    client = APIClient()
    client.force_authenticate(owner)
    declaration = client.get(f"/api/v1/revisions/{signed.pk}/").json()["declaration"]
    assert declaration["safety_configuration"] == {
        "kind": "fanuc_dcs_signature",
        "value": "20231187",
    }
    assert declaration["computed_under"]["ruleset"] == history.CURRENT.version
    assert declaration["cell_fingerprint"]


@pytest.mark.django_db
def test_the_revision_report_prints_the_configuration_assessed(
    owner_client, cell, revision, hazard, safety_engineer
):
    _configure(cell, kind="abb_safemove_crc", value="0x5A17C3E2")
    signed = _sign(revision, safety_engineer)
    text = text_of(get_pdf(owner_client, signed, lang="en"))
    assert "ABB SafeMove configuration CRC 0x5A17C3E2" in text
    assert "Computed under rule set release" in text


@pytest.mark.django_db
def test_a_kind_needs_a_value_and_an_identifier_is_kept_as_shown(cell):
    from django.core.exceptions import ValidationError

    cell.safety_config_kind = "ur_checksum"
    with pytest.raises(ValidationError) as caught:
        cell.full_clean()
    assert "safety_config_value" in caught.value.message_dict
    cell.safety_config_value = " 1A2B"
    with pytest.raises(ValidationError) as caught:
        cell.full_clean()
    assert "safety_config_value" in caught.value.message_dict
    cell.safety_config_kind = ""
    cell.safety_config_value = "1A2B"
    with pytest.raises(ValidationError) as caught:
        cell.full_clean()
    assert "safety_config_kind" in caught.value.message_dict
