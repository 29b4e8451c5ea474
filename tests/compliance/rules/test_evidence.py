"""What relaxes a rule comes from the latest signed revision only: text typed
into a draft shows as pending and changes no verdict."""

from __future__ import annotations

import pytest

from cells.selectors import cell_with_layout
from compliance.assessment import services
from compliance.rules.cell_facts import cell_facts
from compliance.rules.engine import evaluate
from tests.factories import GuardSegmentFactory


def _findings(user, cell, rule_id):
    results = evaluate(cell_facts(cell_with_layout(user, cell.pk)))
    return next(r for r in results if r.rule.id == rule_id).findings


@pytest.fixture
def low_fence(cell):
    cell.project.country = "KR"
    cell.project.save()
    GuardSegmentFactory(cell=cell, label="F1", height_mm=1000)
    return cell


def test_justification_typed_into_a_draft_leaves_the_low_fence_failing(
    owner, low_fence, safety_engineer
):
    revision = services.assessment_open(cell=low_fence, actor=safety_engineer)
    services.revision_update_limits(
        revision=revision,
        actor=safety_engineer,
        version=revision.version,
        low_guard_justification="The robot cannot reach above 1 m.",
    )
    (finding,) = _findings(owner, low_fence, "KR-223-fence-height")
    assert finding.status == "fail"
    assert finding.numbers == {"height_mm": 1000, "required_mm": 1800}
    notes = [note.render() for note in finding.notes]
    assert any("Pending in draft revision 1" in note for note in notes)


def test_without_any_text_the_low_fence_fails_with_no_pending_note(
    owner, low_fence, safety_engineer
):
    services.assessment_open(cell=low_fence, actor=safety_engineer)
    (finding,) = _findings(owner, low_fence, "KR-223-fence-height")
    assert finding.status == "fail"
    assert not any("Pending" in note.render() for note in finding.notes)
