"""The US pack: ANSI/A3 R15.06-2025 (Parts 1 and 2 adopting ISO 10218:2025,
Part 3 for users) and OSHA 1910.212 and 1910.147; each rule with a cell that
passes and one that fails."""

from __future__ import annotations

from datetime import date

from compliance.rules import us
from compliance.rules.engine import UNITED_STATES, evaluate, rule_packs_for
from compliance.rules.facts import AssessmentFacts
from compliance.rules.findings import Status
from tests.compliance.rules.cells import only, palletising_cell

SIGNED = AssessmentFacts(
    exists=True,
    signed=True,
    signed_revision=3,
    phases=("operation", "maintenance"),
)


def american(**kw):
    fields = {"country": "US", "checked_on": date(2026, 12, 2)}
    return palletising_cell().model_copy(update=fields | kw)


def test_a_us_cell_gets_the_r15_06_findings():
    assert rule_packs_for("US")[0] is UNITED_STATES
    ids = [rule.id for rule, _ in evaluate(american())]
    assert ids[:4] == [
        "US-R15.06-integration",
        "US-R15.06-part3-users",
        "US-OSHA-1910.212",
        "US-OSHA-1910.147",
    ]
    citations = {f.citation for _, found in evaluate(american()) for f in found}
    assert any(c.startswith("ANSI/A3 R15.06-2025") for c in citations)


def test_integration_passes_signed_and_fails_when_due_without():
    assert only(us.INTEGRATION, american(assessment=SIGNED)).status is Status.PASS
    unsigned = AssessmentFacts(exists=True)
    due = american(assessment=unsigned, planned_start=date(2026, 10, 1))
    assert only(us.INTEGRATION, due).status is Status.FAIL
    later = american(assessment=unsigned, planned_start=date(2027, 6, 1))
    assert only(us.INTEGRATION, later).status is Status.NEEDS_EVIDENCE


def test_part3_passes_when_the_cell_is_as_assessed_and_fails_once_changed():
    cell = american()
    assessed = SIGNED.model_copy(
        update={"signed_cell_fingerprint": cell.cell_fingerprint()}
    )
    assert only(us.USERS, cell.model_copy(update={"assessment": assessed})).status is (
        Status.PASS
    )
    moved = cell.model_copy(
        update={"assessment": assessed, "robot_stopping_time_ms": 450}
    )
    finding = only(us.USERS, moved)
    assert finding.status is Status.FAIL
    assert finding.values["revision"] == 3
    # Signed before the fingerprint was recorded: cannot be told.
    assert only(us.USERS, american(assessment=SIGNED)).status is Status.NEEDS_EVIDENCE


def test_a_kcs_number_added_is_no_change_of_the_cell():
    cell = american()
    relabelled = cell.devices[0].model_copy(update={"kcs_certificate_no": "X-1"})
    assert (
        cell.model_copy(
            update={"devices": (relabelled, *cell.devices[1:])}
        ).cell_fingerprint()
        == cell.cell_fingerprint()
    )


def test_machine_guarding_passes_an_enclosed_cell_and_fails_an_unguarded_one():
    assert only(us.GUARDING, american()).status is Status.PASS
    bare = american(segments=(), layout=None, openings=(), devices=())
    assert only(us.GUARDING, bare).status is Status.FAIL


def test_lockout_passes_when_servicing_is_assessed_and_fails_when_not():
    finding = only(us.LOCKOUT, american(assessment=SIGNED))
    assert finding.status is Status.PASS
    assert any(d.render() == "Maintenance" for d in finding.details)
    operation_only = SIGNED.model_copy(update={"phases": ("operation",)})
    failing = only(us.LOCKOUT, american(assessment=operation_only))
    assert failing.status is Status.FAIL
    assert any("annually" in d.render() for d in failing.details)
    unsigned = AssessmentFacts(exists=True)
    assert only(us.LOCKOUT, american(assessment=unsigned)).status is (
        Status.NEEDS_EVIDENCE
    )


def test_every_us_rule_names_its_sources_and_what_is_not_read():
    for rule in us.US_RULES:
        assert rule.sources and rule.caveat
        assert rule.text
    assert us.USERS.certainty == "to_be_confirmed"  # one report of A3's news


def test_a_robot_program_imported_or_changed_after_signing_is_a_change_of_the_cell():
    from compliance.rules.motion_facts import ProgramFacts

    cell = american()
    assessed = SIGNED.model_copy(
        update={"signed_cell_fingerprint": cell.cell_fingerprint()}
    )
    first = ProgramFacts(key="program:1", label="a", format="urscript", sha256="aa")
    with_program = cell.model_copy(
        update={"assessment": assessed, "programs": (first,)}
    )
    assert only(us.USERS, with_program).status is Status.FAIL
    signed_with = assessed.model_copy(
        update={"signed_cell_fingerprint": with_program.cell_fingerprint()}
    )
    same = with_program.model_copy(update={"assessment": signed_with})
    assert only(us.USERS, same).status is Status.PASS
    edited = first.model_copy(update={"sha256": "bb"})
    changed = same.model_copy(update={"programs": (edited,)})
    assert only(us.USERS, changed).status is Status.FAIL
