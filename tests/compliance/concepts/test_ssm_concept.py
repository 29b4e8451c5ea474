"""The speed and separation monitoring concept (issue 27): a scanner at the
open side whose protective field is sized from S_p and covers every way in
through it; a field that does not is a fail at that side, drawn on the plan.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from compliance.concepts.models import GuardingConcept
from compliance.rules import results
from compliance.rules.findings import Status
from compliance.rules.scanning import APPROACHES
from compliance.safety_functions.models import LibraryDevice

pytestmark = pytest.mark.django_db


def _ssm(api, cell):
    response = api.post(f"/api/v1/cells/{cell.pk}/concepts/generate/")
    assert response.status_code == 201, response.json()
    return GuardingConcept.objects.get(cell=cell, kind="ssm")


def _scanner_entry(cell):
    return LibraryDevice.objects.create(
        organisation_id=cell.project.organisation_id,
        key="ZZ-SC",
        kind="laser_scanner",
        maker="SICK",
        model="microScan3 Core",
        response_time_ms=Decimal("95"),
        iec61496_type=3,
        pl="d",
        range_m=Decimal("9"),
    )


def _approach_findings(variant):
    return [f for f in results.cell_finding_list(variant) if f.rule_id == APPROACHES.id]


def test_the_scanner_concept_sizes_its_field_from_s_p_and_covers_the_open_side(
    api, palletiser
):
    LibraryDevice.objects.filter(
        organisation_id=palletiser.project.organisation_id, kind="laser_scanner"
    ).delete()
    _scanner_entry(palletiser)
    concept = _ssm(api, palletiser)
    variant = concept.variant
    assert variant.collaborative_modes == ["ssm"]
    scanner = variant.devices.get(kind="laser_scanner")
    # S_p = 1,600 x (0.095 + 0.3) + 1,500 x 0.095 + C 1,200 (field on the
    # floor: its height unknown) = 632 + 142.5 + 1,200 = 1,974.5 mm; the field
    # reaches it out from the zone through the whole open side.
    assert "1,975" in " ".join(str(r["values"]) for r in concept.reasons)
    assert scanner.protective_field_mm >= 1975
    assert scanner.opening is not None
    texts = " ".join(r["text"] for r in concept.reasons)
    assert "protective separation distance" in texts
    found = _approach_findings(variant)
    assert [f.status for f in found] != []
    assert all(f.status is not Status.FAIL for f in found), found


def test_a_field_shrunk_below_s_p_fails_at_that_side_drawn_on_its_plan(
    api, owner_client, palletiser
):
    LibraryDevice.objects.filter(
        organisation_id=palletiser.project.organisation_id, kind="laser_scanner"
    ).delete()
    _scanner_entry(palletiser)
    variant = _ssm(api, palletiser).variant
    scanner = variant.devices.get(kind="laser_scanner")
    response = api.patch(
        f"/api/v1/devices/{scanner.pk}/", {"protective_field_mm": 1200}, format="json"
    )
    assert response.status_code == 200, response.json()
    failing = [f for f in _approach_findings(variant) if f.status is Status.FAIL]
    assert failing
    # S_p so far, C not known (the field's height): 1,600 x 0.395 + 1,500 x
    # 0.095 = 632 + 142.5 = 774.5 mm; a field of 1,200 mm round the open
    # side's middle leaves its ends open even so.
    assert {f.required_mm for f in failing} == {775}
    page = owner_client.get(reverse("cells:cell_detail", args=[variant.pk])).text
    assert 'class="approach status-fail"' in page
    assert "no field to S 775 mm<" in page


def test_without_a_scanner_with_a_response_time_the_field_is_left_to_size(
    api, palletiser
):
    LibraryDevice.objects.filter(
        organisation_id=palletiser.project.organisation_id, kind="laser_scanner"
    ).delete()
    concept = _ssm(api, palletiser)
    scanner = concept.variant.devices.get(kind="laser_scanner")
    assert scanner.protective_field_mm is None
    assert "is sized once" in " ".join(r["text"] for r in concept.reasons)
