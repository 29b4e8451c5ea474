"""Korea pack: Rules on OSH Standards Arts. 222-224 and OSH Act Art. 84."""

from __future__ import annotations

from datetime import date

import pytest

from compliance.rules.facts import AssessmentFacts, CertificateFacts
from compliance.rules.findings import RuleCertainty, Status
from compliance.rules.korea import (
    COBOT_ROUTE,
    FENCE_HEIGHT,
    KCS,
    OPENINGS,
    PROCEDURES,
)
from tests.compliance.rules.cells import (
    cell,
    device,
    machine_tending_cobot,
    only,
    opening,
    run,
    segment,
)

# --- Art. 223: fence height -------------------------------------------------


def test_fence_of_1500_mm_fails_art_223_with_1800_required():
    finding = only(FENCE_HEIGHT, cell(segments=(segment(height_mm=1500),)))
    assert finding.status is Status.FAIL
    assert finding.numbers == {"height_mm": 1500, "required_mm": 1800}
    assert finding.subject_key == "s1"
    assert "1,500 mm" in finding.render() and "1,800 mm" in finding.render()
    assert "제223조" in finding.citation


def test_fence_of_1800_mm_passes_art_223():
    finding = only(FENCE_HEIGHT, cell(segments=(segment(height_mm=1800),)))
    assert finding.status is Status.PASS
    assert finding.numbers == {"height_mm": 1800, "required_mm": 1800}


def test_justified_low_fence_is_a_warning_quoting_the_exception():
    facts = cell(
        segments=(segment(height_mm=1200),),
        assessment=AssessmentFacts(exists=True, low_fence_justified=True),
    )
    finding = only(FENCE_HEIGHT, facts)
    assert finding.status is Status.WARNING
    assert finding.numbers == {"height_mm": 1200, "required_mm": 1800}
    assert "높이로 인한 위험성이 없는 경우" in finding.message


def test_each_segment_gets_its_own_finding():
    facts = cell(segments=(segment("a", height_mm=2000), segment("b", height_mm=900)))
    statuses = [(f.subject_key, f.status) for f in run(FENCE_HEIGHT, facts)]
    assert statuses == [("a", Status.PASS), ("b", Status.FAIL)]


def test_cell_without_any_guard_fails_art_223():
    finding = only(FENCE_HEIGHT, cell())
    assert finding.status is Status.FAIL
    assert finding.subject_key == "cell"
    assert finding.numbers == {"required_mm": 1800}


def test_unfenced_cobot_without_route_is_allowed_only_once_certified():
    # Never "no fence needed", and never a bare fail (issue 27): the Art. 223
    # proviso's route exists, so the fence rule needs the evidence, naming it.
    facts = machine_tending_cobot(
        assessment=AssessmentFacts(exists=True, contact_regions=("hands_fingers",))
    )
    finding = only(FENCE_HEIGHT, facts)
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "allowed once the KIRIA" in finding.render()


def test_an_unfenced_industrial_robot_still_fails_the_fence_rule():
    facts = cell(assessment=AssessmentFacts(exists=True))
    assert only(FENCE_HEIGHT, facts).status is Status.FAIL


def test_low_guard_of_a_cobot_fails_while_the_proviso_rests_on_text_alone():
    # A signed revision naming the conformity route is text: the Art. 223
    # proviso needs the recognition itself (a KIRIA certificate record).
    finding = only(FENCE_HEIGHT, machine_tending_cobot())
    assert finding.status is Status.NEEDS_EVIDENCE  # never a pass or warning
    assert finding.numbers == {"required_mm": 1800}  # no fence at all


def test_low_guard_of_a_cobot_is_the_proviso_warning_once_certified():
    # The same cell with the record the text alone lacks: a KIRIA certificate
    # in force on the day of the check.
    kiria = CertificateFacts(
        kind="kiria_cobot_workplace",
        number="KIRIA-CW-2025-017",
        issuing_body="KIRIA",
        issued_on=date(2025, 3, 1),
        valid_until=date(2028, 2, 28),
    )
    facts = machine_tending_cobot(certificates=(kiria,), checked_on=date(2026, 6, 1))
    assert only(FENCE_HEIGHT, facts).status is Status.WARNING
    assert only(COBOT_ROUTE, facts).status is Status.PASS


def test_korean_findings_say_the_text_must_be_confirmed_officially():
    finding = only(FENCE_HEIGHT, cell(segments=(segment(height_mm=1500),)))
    assert finding.certainty is RuleCertainty.SECONDARY_SOURCES
    assert any("National Law Information Center" in n.text for n in finding.notes)


# --- Art. 223: sensing devices at openings ------------------------------------


def _with_opening(*devices):
    return cell(segments=(segment(),), openings=(opening(),), devices=devices)


@pytest.mark.parametrize("kind", ["light_curtain", "multibeam", "safety_mat"])
def test_opening_guarded_by_a_sensing_device_passes(kind):
    finding = only(OPENINGS, _with_opening(device("d1", kind, opening_key="o1")))
    assert finding.status is Status.PASS
    assert finding.subject_key == "o1"
    assert finding.values["devices"] == "D1"


def test_opening_closed_by_an_interlocked_door_passes_with_a_note():
    facts = _with_opening(device("door", "interlocked_door", opening_key="o1"))
    finding = only(OPENINGS, facts)
    assert finding.status is Status.PASS
    assert any("part of the fence" in n.text for n in finding.notes)


def test_unguarded_opening_fails():
    # An emergency stop beside the opening is not a sensing device, and a
    # light curtain elsewhere in the cell does not guard it.
    facts = _with_opening(
        device("estop", "emergency_stop", opening_key="o1"),
        device("lc", "light_curtain"),
    )
    finding = only(OPENINGS, facts)
    assert finding.status is Status.FAIL
    assert finding.numbers == {"width_mm": 800}


# --- OSH Act Art. 84: KCs safety certification --------------------------------


@pytest.mark.parametrize(
    ("certified", "number", "status"),
    [
        (None, "CB-2026-0412", Status.PASS),  # the certificate number is the record
        (True, "", Status.NEEDS_EVIDENCE),  # a tick box is not
        (False, "", Status.FAIL),
        (None, "", Status.NEEDS_EVIDENCE),
    ],
)
def test_kcs_status_follows_the_recorded_certificate(certified, number, status):
    facts = cell(
        devices=(
            device(
                "lc",
                "light_curtain",
                kcs_certified=certified,
                kcs_certificate_no=number,
            ),
        )
    )
    finding = only(KCS, facts)
    assert finding.status is status
    assert finding.certainty is RuleCertainty.TO_BE_CONFIRMED
    assert any("one secondary source" in n.text for n in finding.notes)


def test_kcs_covers_scanners_and_grids_but_not_stops_or_doors():
    facts = cell(
        devices=(
            device("sc", "laser_scanner"),
            device("mb", "multibeam"),
            device("es", "emergency_stop"),
            device("door", "interlocked_door"),
        )
    )
    assert [f.subject_key for f in run(KCS, facts)] == ["sc", "mb"]


def test_kcs_for_a_safety_mat_is_asked_never_failed():
    facts = cell(devices=(device("mat", "safety_mat", kcs_certified=False),))
    assert only(KCS, facts).status is Status.NEEDS_EVIDENCE


# --- Art. 223 proviso: the collaborative-robot route --------------------------


def test_cobot_route_is_not_checked_for_an_industrial_robot():
    assert run(COBOT_ROUTE, cell()) == []


def test_cobot_route_named_in_a_signed_revision_still_needs_the_certificate():
    # Regression: a signed revision whose route says the KIRIA certificate is
    # "to be applied for" made the route PASS.
    facts = machine_tending_cobot()
    assert facts.assessment.signed and facts.assessment.conformity_route_recorded
    finding = only(COBOT_ROUTE, facts)
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "certificate" in finding.message
    assert "KS B ISO 10218" in finding.details[0].text
    assert "KIRIA" in finding.details[0].text


@pytest.mark.parametrize(
    ("signed", "route"), [(False, False), (False, True), (True, False)]
)
def test_cobot_route_without_signature_or_route_needs_evidence(signed, route):
    facts = machine_tending_cobot(
        assessment=AssessmentFacts(
            exists=True, signed=signed, conformity_route_recorded=route
        )
    )
    finding = only(COBOT_ROUTE, facts)
    assert finding.status is Status.NEEDS_EVIDENCE
    assert "fence rule applies" in finding.message


def test_fenced_cobot_does_not_need_the_route():
    facts = machine_tending_cobot(
        segments=(segment(height_mm=1800),),
        assessment=AssessmentFacts(),
    )
    assert only(COBOT_ROUTE, facts).status is Status.PASS


# --- Arts. 222 and 224: procedures --------------------------------------------


def test_procedures_are_listed_as_evidence_to_provide():
    finding = only(PROCEDURES, cell())
    assert finding.status is Status.NEEDS_EVIDENCE
    items = " ".join(line.text for line in finding.details)
    assert "Art. 222 item 1" in items and "manipulator's speed" in items
    assert "Art. 224" in items and "locked with a key" in items
    assert "제222조" in finding.citation and "제224조" in finding.citation
