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


def _signed_contact(cell, engineer, *, area_cm2, speed_mm_s):
    from tests.compliance.conftest import CRUSHING, sign_revision, state_limits

    cell.robot_kind, cell.collaborative_modes = "collaborative", ["pfl"]
    cell.programmed_speed_mm_s = speed_mm_s
    cell.moving_mass_kg, cell.payload_kg = 20, 1
    cell.save()
    revision = state_limits(
        services.assessment_open(cell=cell, actor=engineer), engineer
    )
    services.hazard_add(
        revision=revision,
        actor=engineer,
        body_region="hands_fingers",
        contact_type="transient",
        contact_area_cm2=area_cm2,
        severity="S1",
        frequency="F2",
        avoidance="P1",
        # Signing needs the residual risk estimated too (issue 27).
        residual_severity="S1",
        residual_frequency="F2",
        residual_avoidance="P1",
        **CRUSHING,
    )
    submitted = services.revision_submit(revision=revision, actor=engineer)
    sign_revision(submitted, engineer)


def test_signed_contact_area_decides_the_pfl_verdict_by_pressure(
    owner, cell, safety_engineer
):
    # 0.5 cm² on the hand (lowest pressure area, 380 N/cm²): 919.8 mm/s.
    _signed_contact(cell, safety_engineer, area_cm2="0.50", speed_mm_s=1200)
    (finding,) = _findings(owner, cell, "INTL-15066-pfl")
    assert finding.status == "fail"
    assert finding.numbers == {"speed_mm_s": 1200, "permissible_mm_s": 919.8}


def test_signed_contact_within_every_limit_passes(owner, cell, safety_engineer):
    _signed_contact(cell, safety_engineer, area_cm2="0.50", speed_mm_s=250)
    (finding,) = _findings(owner, cell, "INTL-15066-pfl")
    assert finding.status == "pass"


@pytest.mark.parametrize("area", ["0", "0.001", "1001", "1e9", "nan"])
def test_contact_area_out_of_range_is_a_400_naming_the_field(
    cell, safety_engineer, area
):
    from rest_framework.test import APIClient

    from tests.compliance.conftest import CRUSHING

    revision = services.assessment_open(cell=cell, actor=safety_engineer)
    client = APIClient()
    client.force_authenticate(safety_engineer)
    body = {
        "revision": revision.pk,
        "body_region": "hands_fingers",
        "contact_type": "transient",
        "contact_area_cm2": area,
        **CRUSHING,
    }
    response = client.post("/api/v1/hazards/", body, format="json")
    assert response.status_code == 400
    assert "contact_area_cm2" in response.json()
