"""The collaborative concept without a fence (issue 27): judged by the same
power-and-force-limiting rules as a cell, with the drawn cell's signed risk
assessment: the body regions it exposes set the speed a contact permits."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from compliance.assessment import services
from compliance.concepts.services import concepts_generate
from tests.compliance.conftest import CRUSHING, sign_revision, state_limits
from tests.factories import OperatorStationFactory

pytestmark = pytest.mark.django_db


def _machine_tending(cell, engineer, regions, area_cm2=None):
    """A cobot tending a machine (moving mass 33.5 kg, payload 5 kg,
    programmed 1,000 mm/s) beside a loading station, whose signed assessment
    exposes ``regions`` to transient contact."""
    cell.robot_kind = "collaborative"
    cell.moving_mass_kg, cell.payload_kg = 33.5, 5
    cell.max_tcp_speed_mm_s = 1500
    cell.programmed_speed_mm_s = 1000
    cell.stopping_time_ms = 200
    cell.hazard_zone_height_mm = 1600
    cell.save()
    OperatorStationFactory(cell=cell, label="Loading", x_mm=2000, y_mm=-500)
    revision = state_limits(
        services.assessment_open(cell=cell, actor=engineer), engineer
    )
    for region in regions:
        services.hazard_add(
            revision=revision,
            actor=engineer,
            body_region=region,
            contact_type="transient",
            contact_area_cm2=area_cm2,
            severity="S1",
            frequency="F2",
            avoidance="P1",
            residual_severity="S1",
            residual_frequency="F2",
            residual_avoidance="P1",
            **CRUSHING,
        )
    sign_revision(services.revision_submit(revision=revision, actor=engineer), engineer)
    return cell


def _collaborative(owner, cell):
    concepts_generate(cell=cell, actor=owner)
    api = APIClient()
    api.force_authenticate(owner)
    body = api.get(f"/api/v1/cells/{cell.pk}/concepts/compare/").json()
    return body, next(c for c in body["concepts"] if c["kind"] == "collaborative")


def test_exposing_the_chest_fails_the_cobot_concept_with_its_speed_and_time(
    owner, safety_engineer, cell
):
    body, cobot = _collaborative(
        owner, _machine_tending(cell, safety_engineer, ["chest"])
    )
    assert cobot["offered"] is True
    speed = cobot["speed"]
    # ISO/TS 15066 Annex A, chest (transient): about 472 mm/s for these masses.
    assert speed["programmed_mm_s"] == 1000
    assert 465 <= speed["permissible_mm_s"] <= 480
    assert speed["status"] == "fail"
    # At the permissible speed the motions take about 2.1 times as long.
    assert speed["slower_by"].startswith("2.1")
    assert cobot["counts"]["fail"] >= 1
    assert body["recommendation"]["recommended"] != cobot["id"]


def test_with_only_hands_and_lower_arms_exposed_the_speed_check_passes(
    owner, safety_engineer, cell
):
    _body, cobot = _collaborative(
        owner,
        _machine_tending(
            cell, safety_engineer, ["hands_fingers", "lower_arms_wrists"], area_cm2=10
        ),
    )
    assert cobot["speed"]["status"] == "pass"
    assert cobot["speed"]["permissible_mm_s"] >= 1000


def test_a_korean_cobot_concept_without_kiria_needs_evidence_naming_it(
    owner, safety_engineer, cell
):
    assert cell.project.country == "KR"
    body, cobot = _collaborative(
        owner, _machine_tending(cell, safety_engineer, ["hands_fingers"])
    )
    route = [f for f in cobot["law"] if "KIRIA" in f["text"]]
    assert route and {f["status"] for f in route} == {"needs_evidence"}
    # Its fee and lead time, which no public source gives, are to be quoted.
    (kiria,) = cobot["certifications"]
    assert "KIRIA" in kiria and "to be quoted" in kiria and "not known" in kiria
    fenced = next(c for c in body["concepts"] if c["kind"] == "fenced")
    assert fenced["certifications"] == []
