"""The cell's compliance findings on the page and the API, from its layout."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import DeviceFactory, GuardSegmentFactory, OpeningFactory


@pytest.fixture
def fenced(cell):
    """A 1,500 mm fence with an unguarded opening, and a 1,800 mm fence whose
    opening has a light curtain 700 mm from the hazard zone."""
    cell.stopping_time_ms = 300
    cell.save()
    low = GuardSegmentFactory(
        cell=cell, label="Low", height_mm=1500, start_y_mm=-900, end_y_mm=-900
    )
    OpeningFactory(segment=low, label="Gap", upper_edge_mm=1400)
    high = GuardSegmentFactory(cell=cell, label="High", start_y_mm=4500, end_y_mm=4500)
    infeed = OpeningFactory(segment=high, label="Infeed")
    DeviceFactory(
        cell=cell,
        label="LC1",
        opening=infeed,
        response_time_ms=20,
        detection_capability_mm=14,
        iec61496_type=4,
        kcs_certified=True,
    )
    return cell


def findings_of(data, rule_id):
    return next(g["findings"] for g in data["groups"] if g["rule"]["id"] == rule_id)


def test_api_reports_fence_heights_against_art_223(owner, fenced):
    client = APIClient()
    client.force_authenticate(owner)
    response = client.get(f"/api/v1/cells/{fenced.pk}/findings/")
    assert response.status_code == 200
    heights = {
        f["subject"]: f for f in findings_of(response.json(), "KR-223-fence-height")
    }
    assert heights["Low"]["status"] == "fail"
    assert heights["Low"]["numbers"] == {"height_mm": 1500, "required_mm": 1800}
    assert heights["High"]["status"] == "pass"
    assert response.json()["summary"]["fail"] >= 2


def test_unguarded_opening_fails_and_guarded_one_passes(owner, fenced):
    client = APIClient()
    client.force_authenticate(owner)
    data = client.get(f"/api/v1/cells/{fenced.pk}/findings/").json()
    openings = {f["subject"]: f["status"] for f in findings_of(data, "KR-223-openings")}
    assert openings == {"Low / Gap": "fail", "High / Infeed": "pass"}


def test_light_curtain_distance_is_compared_with_iso_13855(owner, fenced):
    client = APIClient()
    client.force_authenticate(owner)
    data = client.get(f"/api/v1/cells/{fenced.pk}/findings/").json()
    (curtain,) = findings_of(data, "INTL-13855-distance")
    # T = 20 ms + 300 ms: S = 1600 × 0.32 = 512 mm (d = 14 mm). The curtain
    # spans x 1000–1800 at y = 4500; the zone is a 1400 mm circle around
    # (2000, 1500): √(200² + 3000²) − 1400 = 1606.7 mm.
    assert curtain["numbers"]["required_mm"] == 512
    assert curtain["numbers"]["distance_mm"] == pytest.approx(1606.7, abs=0.1)
    assert curtain["status"] == "pass"


def test_compliance_page_groups_findings_by_rule(owner_client, fenced):
    response = owner_client.get(reverse("compliance:cell_compliance", args=[fenced.pk]))
    assert response.status_code == 200
    assert "KR-223-fence-height" in response.text
    assert "National Law Information Center" in response.text


def test_rules_page_lists_every_rule_with_its_certainty(owner_client):
    from compliance.rules.engine import all_rules

    response = owner_client.get(reverse("compliance:rules"))
    for rule in all_rules():
        assert rule.id in response.text
    assert "Reproduced from secondary sources" in response.text


def test_findings_make_a_fixed_number_of_queries(
    owner_client, fenced, django_assert_max_num_queries
):
    for i in range(20):
        GuardSegmentFactory(
            cell=fenced, label=f"S{i}", start_y_mm=6000 + i * 10, end_y_mm=6000 + i * 10
        )
    with django_assert_max_num_queries(12):
        owner_client.get(reverse("compliance:cell_compliance", args=[fenced.pk]))


def test_body_regions_in_a_draft_are_pending_and_change_no_verdict(
    owner, cell, safety_engineer
):
    # Regression: a draft's contact regions decided the PFL verdict.
    from compliance.assessment import services
    from tests.compliance.conftest import CRUSHING

    cell.robot_kind, cell.collaborative_mode = "collaborative", "pfl"
    cell.programmed_speed_mm_s = 250
    cell.moving_mass_kg, cell.payload_kg = 20, 1
    cell.save()
    revision = services.assessment_open(cell=cell, actor=safety_engineer)
    services.hazard_add(
        revision=revision,
        actor=safety_engineer,
        body_region="hands_fingers",
        **CRUSHING,
    )
    client = APIClient()
    client.force_authenticate(owner)
    data = client.get(f"/api/v1/cells/{cell.pk}/findings/").json()
    (pfl,) = findings_of(data, "INTL-15066-pfl")
    assert pfl["status"] == "needs_evidence"
    assert pfl["subject"] == "Cell"
    assert any("Pending in draft revision 1" in note for note in pfl["notes"])