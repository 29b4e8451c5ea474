"""The Korean cobot route rests on a record: a KIRIA collaborative-robot
workplace certificate in force on the day of the check, plus the conformity
route named in the latest signed risk assessment. Text alone changes nothing."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from pydantic import ValidationError

from cells.selectors import cell_with_layout
from compliance.assessment import services
from compliance.rules.cell_facts import cell_facts
from compliance.rules.engine import evaluate
from compliance.rules.facts import AssessmentFacts, CellFacts, CertificateFacts
from compliance.rules.findings import Status
from compliance.rules.korea import COBOT_ROUTE, FENCE_HEIGHT, OPENINGS
from tests.cells.certificates import CellCertificateFactory
from tests.compliance.rules.cells import (
    cell,
    machine_tending_cobot,
    only,
    opening,
    segment,
)

CHECKED_ON = date(2026, 6, 1)
SIGNED_ROUTE = AssessmentFacts(
    exists=True, signed=True, signed_revision=2, conformity_route_recorded=True
)


def certificate(**kw) -> CertificateFacts:
    fields = {
        "kind": "kiria_cobot_workplace",
        "number": "KIRIA-CW-2025-017",
        "issuing_body": "한국로봇산업진흥원 (KIRIA)",
        "issued_on": date(2025, 3, 1),
        "valid_until": date(2028, 2, 28),
        "scope": "Machine tending at CNC 2, PFL, one operator station",
    }
    return CertificateFacts(**(fields | kw))


def certified_cobot(*certificates: CertificateFacts, **kw) -> CellFacts:
    fields = {
        "certificates": certificates or (certificate(),),
        "checked_on": CHECKED_ON,
        "assessment": SIGNED_ROUTE,
    }
    return machine_tending_cobot(**(fields | kw))


# --- The route finding ----------------------------------------------------------


def test_valid_certificate_and_signed_route_pass_naming_the_certificate():
    finding = only(COBOT_ROUTE, certified_cobot())
    assert finding.status is Status.PASS
    text = finding.render()
    assert "KIRIA-CW-2025-017" in text
    assert "한국로봇산업진흥원 (KIRIA)" in text
    assert "2028-02-28" in text
    assert "certified scope only" in text
    details = [line.render() for line in finding.details]
    assert any("Machine tending at CNC 2" in line for line in details)


def test_certificate_is_valid_on_its_first_and_last_day():
    for day in (date(2025, 3, 1), date(2028, 2, 28)):
        facts = certified_cobot(checked_on=day)
        assert only(COBOT_ROUTE, facts).status is Status.PASS, day


def test_expired_certificate_needs_evidence_naming_the_dates():
    facts = certified_cobot(checked_on=date(2028, 2, 29))
    finding = only(COBOT_ROUTE, facts)
    assert finding.status is Status.NEEDS_EVIDENCE
    text = finding.render()
    assert "expired" in text
    assert "2028-02-28" in text and "2028-02-29" in text
    assert "KIRIA-CW-2025-017" in text
    assert "fence rule applies" in text


def test_certificate_not_yet_in_force_needs_evidence_naming_the_dates():
    facts = certified_cobot(checked_on=date(2025, 2, 28))
    finding = only(COBOT_ROUTE, facts)
    assert finding.status is Status.NEEDS_EVIDENCE
    text = finding.render()
    assert "not yet in force" in text
    assert "2025-03-01" in text and "2025-02-28" in text


def test_a_renewal_recorded_ahead_is_named_when_the_old_one_has_expired():
    old = certificate(
        number="OLD-1", issued_on=date(2022, 1, 1), valid_until=date(2024, 12, 31)
    )
    renewal = certificate(
        number="NEW-2", issued_on=date(2026, 9, 1), valid_until=date(2029, 8, 31)
    )
    finding = only(COBOT_ROUTE, certified_cobot(old, renewal))
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "NEW-2" in finding.render() and "not yet in force" in finding.render()


def test_one_certificate_in_force_among_expired_ones_is_enough():
    old = certificate(
        number="OLD-1", issued_on=date(2020, 1, 1), valid_until=date(2022, 12, 31)
    )
    finding = only(COBOT_ROUTE, certified_cobot(old, certificate()))
    assert finding.status is Status.PASS
    assert "KIRIA-CW-2025-017" in finding.render()


def test_without_the_date_of_the_check_no_certificate_counts():
    finding = only(COBOT_ROUTE, certified_cobot(checked_on=None))
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "date of this check is not known" in finding.render()


def test_missing_certificate_keeps_todays_message():
    finding = only(COBOT_ROUTE, machine_tending_cobot(checked_on=CHECKED_ON))
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "record it (issuing body, number" in finding.render()
    assert any("No KIRIA" in line.render() for line in finding.details)


@pytest.mark.parametrize(
    ("signed", "route"), [(False, False), (False, True), (True, False)]
)
def test_certificate_without_the_signed_route_needs_evidence(signed, route):
    facts = certified_cobot(
        assessment=AssessmentFacts(
            exists=True, signed=signed, conformity_route_recorded=route
        )
    )
    finding = only(COBOT_ROUTE, facts)
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "fence rule applies" in finding.render()
    if signed or route:
        # The certificate is acknowledged; what is missing is the record of
        # the route in a signed revision.
        assert "KIRIA-CW-2025-017" in finding.render()


# --- The fence-height and openings provisos ----------------------------------------


def test_with_the_route_taken_a_cobot_without_a_fence_is_a_proviso_warning():
    finding = only(FENCE_HEIGHT, certified_cobot())
    assert finding.status is Status.WARNING
    assert "KIRIA-CW-2025-017" in finding.render()
    assert "certified scope only" in finding.render()


def test_with_the_route_taken_a_low_guard_is_a_proviso_warning():
    facts = certified_cobot(segments=(segment(height_mm=1200),))
    finding = only(FENCE_HEIGHT, facts)
    assert finding.status is Status.WARNING
    assert finding.numbers == {"height_mm": 1200, "required_mm": 1800}
    assert "1,200 mm" in finding.render() and "2028-02-28" in finding.render()


def test_expired_certificate_leaves_the_low_guard_failing():
    facts = certified_cobot(
        segments=(segment(height_mm=1200),), checked_on=date(2030, 1, 1)
    )
    assert only(FENCE_HEIGHT, facts).status is Status.FAIL


def test_certificate_without_a_signed_route_leaves_the_fence_unrelaxed():
    facts = certified_cobot(
        assessment=AssessmentFacts(exists=True, conformity_route_recorded=True)
    )
    # Not relaxed to the proviso's warning: the signed route is missing.
    assert only(FENCE_HEIGHT, facts).status is Status.NEEDS_EVIDENCE


def test_with_the_route_taken_an_unguarded_opening_is_a_proviso_warning():
    facts = certified_cobot(segments=(segment(height_mm=1200),), openings=(opening(),))
    assert only(OPENINGS, facts).status is Status.WARNING


def test_a_certificate_does_not_relax_the_fence_of_an_industrial_robot():
    facts = cell(
        segments=(segment(height_mm=1200),),
        certificates=(certificate(),),
        checked_on=CHECKED_ON,
        assessment=SIGNED_ROUTE,
    )
    assert only(FENCE_HEIGHT, facts).status is Status.FAIL


# --- The facts ---------------------------------------------------------------------


def test_certificate_facts_refuse_a_validity_ending_before_issue():
    with pytest.raises(ValidationError, match="valid_until must be after"):
        certificate(issued_on=date(2025, 3, 1), valid_until=date(2025, 3, 1))


def test_certificate_facts_need_a_number_and_an_issuing_body():
    with pytest.raises(ValidationError):
        certificate(number="")
    with pytest.raises(ValidationError):
        certificate(issuing_body="")


# --- From the database -------------------------------------------------------------


@pytest.fixture
def cobot(cell):
    cell.project.country = "KR"
    cell.project.save()
    cell.robot_kind, cell.collaborative_modes = "collaborative", ["pfl"]
    cell.save()
    return cell


def _sign_with_route(cell, engineer, route: str) -> None:
    """A revision naming ``route``, marked signed directly: the signing
    workflow (declaration, reasons for open fails) is tested where it lives,
    and what matters here is only that the signed revision names the route."""
    from django.db import models

    from compliance.assessment.models import Revision, RevisionStatus

    revision = services.assessment_open(cell=cell, actor=engineer)
    services.revision_update_limits(
        revision=revision,
        actor=engineer,
        version=revision.version,
        conformity_route=route,
    )
    models.QuerySet.update(
        Revision.objects.filter(pk=revision.pk),
        status=RevisionStatus.SIGNED,
        content_hash="0" * 64,
        seal="0" * 64,
    )


def _found(user, cell) -> dict[str, list]:
    results = evaluate(cell_facts(cell_with_layout(user, cell.pk)))
    return {r.rule.id: list(r.findings) for r in results}


def test_cell_facts_carry_the_certificates_and_todays_date(owner, cobot):
    from django.utils import timezone

    CellCertificateFactory(cell=cobot, number=" KIRIA-1 ", scope="Cell A ")
    facts = cell_facts(cell_with_layout(owner, cobot.pk))
    assert facts.checked_on == timezone.localdate()
    (recorded,) = facts.certificates
    assert (recorded.kind, recorded.number, recorded.scope) == (
        "kiria_cobot_workplace",
        "KIRIA-1",
        "Cell A",
    )
    assert (recorded.issued_on, recorded.valid_until) == (
        date(2025, 3, 1),
        date(2028, 2, 28),
    )


def test_route_text_saying_the_certificate_is_to_be_applied_for_is_not_a_pass(
    owner, cobot, safety_engineer
):
    # Regression: a signed route that says the KIRIA certificate is "to be
    # applied for" made the route pass, though no certificate is recorded.
    _sign_with_route(
        cobot,
        safety_engineer,
        "KS B ISO 10218-2 / ISO/TS 15066; KIRIA certificate to be applied for.",
    )
    found = _found(owner, cobot)
    (route,) = found["KR-cobot-route"]
    assert route.status == "needs_evidence"
    (fence,) = found["KR-223-fence-height"]
    assert fence.status == "needs_evidence"  # not relaxed: no certificate


def test_recorded_certificate_and_signed_route_take_the_proviso(
    owner, cobot, safety_engineer
):
    from django.utils import timezone

    today = timezone.localdate()
    CellCertificateFactory(
        cell=cobot,
        number="KIRIA-CW-2026-004",
        issued_on=today - timedelta(days=365),
        valid_until=today + timedelta(days=730),
    )
    _sign_with_route(cobot, safety_engineer, "KS B ISO 10218-2 / ISO/TS 15066")
    found = _found(owner, cobot)
    (route,) = found["KR-cobot-route"]
    assert route.status == "pass"
    assert "KIRIA-CW-2026-004" in route.render()
    (fence,) = found["KR-223-fence-height"]
    assert fence.status == "warning"


def test_expired_recorded_certificate_needs_evidence(owner, cobot, safety_engineer):
    CellCertificateFactory(
        cell=cobot, issued_on=date(2019, 1, 1), valid_until=date(2021, 12, 31)
    )
    _sign_with_route(cobot, safety_engineer, "KS B ISO 10218-2 / ISO/TS 15066")
    (route,) = _found(owner, cobot)["KR-cobot-route"]
    assert route.status == "needs_evidence"
    assert "2021-12-31" in route.render() and "expired" in route.render()
