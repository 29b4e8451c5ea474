"""Assessments through the API: opened on a cell, listed, read with the risk of
each hazard worked out."""

from __future__ import annotations

import pytest

from cells.models import Membership, Role
from compliance.assessment import services
from compliance.models import Assessment, Revision, RevisionStatus
from tests.compliance.assessment.api.conftest import detail_url, list_url
from tests.compliance.conftest import CRUSHING
from tests.factories import (
    CellFactory,
    DeviceFactory,
    OrganisationFactory,
    ProjectFactory,
)

pytestmark = pytest.mark.django_db


def test_editor_opens_the_assessment_of_a_cell(owner_api, owner, cell, layout):
    response = owner_api.post(list_url("assessment"), {"cell": cell.pk}, format="json")

    assert response.status_code == 201
    assessment = Assessment.objects.get(cell=cell)
    assert response.data["id"] == assessment.pk
    current = response.data["current_revision"]
    assert (current["number"], current["status"]) == (1, RevisionStatus.DRAFT)
    assert current["created_by"] == {"id": owner.pk, "username": "owner"}
    assert "1 segments, 4.0 m, with 1 openings" in current["space_limits"]
    assert current["hazards"] == []


def test_opening_again_answers_the_existing_assessment(owner_api, revision, cell):
    response = owner_api.post(list_url("assessment"), {"cell": cell.pk}, format="json")

    assert response.status_code == 200
    assert response.data["id"] == revision.assessment_id
    assert Revision.objects.count() == 1


def test_viewer_cannot_open_an_assessment(viewer_api, cell):
    response = viewer_api.post(list_url("assessment"), {"cell": cell.pk}, format="json")

    assert response.status_code == 403
    assert not Assessment.objects.exists()


def test_editor_elsewhere_cannot_open_where_they_only_view(owner, owner_api):
    viewed = OrganisationFactory()
    Membership.objects.create(user=owner, organisation=viewed, role=Role.VIEWER)
    cell = CellFactory(project=ProjectFactory(organisation=viewed))

    response = owner_api.post(list_url("assessment"), {"cell": cell.pk}, format="json")

    assert response.status_code == 403
    assert not Assessment.objects.exists()


def test_a_foreign_cell_is_refused_as_if_it_did_not_exist(outsider_api, cell):
    response = outsider_api.post(
        list_url("assessment"), {"cell": cell.pk}, format="json"
    )

    assert response.status_code == 400
    assert "does not exist" in str(response.data["cell"][0])
    assert not Assessment.objects.exists()


@pytest.mark.parametrize("body", [{}, {"cell": None}, {"cell": "x"}, {"cell": [1]}])
def test_opening_with_bad_input_is_refused(owner_api, body):
    response = owner_api.post(list_url("assessment"), body, format="json")

    assert response.status_code == 400
    assert "cell" in response.data


def test_assessments_are_listed_and_filtered_by_cell(
    owner_api, owner, revision, cell, project
):
    other_cell = CellFactory(project=project)
    other = services.assessment_open(cell=other_cell, actor=owner)

    everything = owner_api.get(list_url("assessment"))
    one = owner_api.get(list_url("assessment") + f"?cell={cell.pk}")

    assert everything.status_code == 200
    assert {row["id"] for row in everything.data["results"]} == {
        revision.assessment_id,
        other.assessment_id,
    }
    assert [row["id"] for row in one.data["results"]] == [revision.assessment_id]
    row = one.data["results"][0]
    assert row["cell"] == cell.pk
    assert row["current_revision"]["status"] == "draft"
    assert [r["number"] for r in row["revisions"]] == [1]


def test_viewer_reads_an_assessment(viewer_api, revision, hazard):
    response = viewer_api.get(detail_url("assessment", revision.assessment_id))

    assert response.status_code == 200
    assert response.data["cell"] == revision.assessment.cell_id
    assert [h["id"] for h in response.data["current_revision"]["hazards"]] == [
        hazard.pk
    ]


def test_each_hazard_has_its_plr_risk_level_and_acceptability(
    owner_api, revision, safety_engineer, cell
):
    # S2 F2 P1 → PLr d (high); residual S1 F1 P1 → PLr a (low).
    reduced = services.hazard_add(
        revision=revision,
        actor=safety_engineer,
        severity="S2",
        frequency="F2",
        avoidance="P1",
        residual_severity="S1",
        residual_frequency="F1",
        residual_avoidance="P1",
        **CRUSHING,
    )
    curtain = DeviceFactory(cell=cell, claimed_pl="c")
    services.measure_add(
        hazard=reduced,
        actor=safety_engineer,
        step="safeguarding",
        description="Light curtain",
        device=curtain,
        is_safety_function=True,
    )
    unestimated = services.hazard_add(
        revision=revision, actor=safety_engineer, **{**CRUSHING, "task": "Cleaning"}
    )

    response = owner_api.get(detail_url("assessment", revision.assessment_id))

    hazards = {h["id"]: h for h in response.data["current_revision"]["hazards"]}
    first = hazards[reduced.pk]
    assert (first["plr"], first["risk_level"]) == ("d", "high")
    assert (first["residual_plr"], first["residual_risk_level"]) == ("a", "low")
    # The curtain claims PL c where d is required.
    assert first["acceptable"] is False
    assert [r["code"] for r in first["reasons"]] == ["measure_pl_below_plr"]
    (measure,) = first["measures"]
    assert (measure["device"], measure["plr_required"], measure["pl_claimed"]) == (
        curtain.pk,
        "d",
        "c",
    )
    assert measure["pl_below_plr"] is True
    second = hazards[unestimated.pk]
    assert second["plr"] is None and second["risk_level"] is None
    assert second["residual_plr"] is None and second["residual_risk_level"] is None
    assert [r["code"] for r in second["reasons"]] == [
        "not_estimated",
        "residual_not_estimated",
    ]
    assert second["group_label"] == "Mechanical"


def _reduced_hazard(revision, actor, *steps: str, **residual: str):
    """A hazard S2 F2 P2 (PLr e) re-estimated after ``steps`` (one measure each)."""
    hazard = services.hazard_add(
        revision=revision,
        actor=actor,
        severity="S2",
        frequency="F2",
        avoidance="P2",
        **{f"residual_{name}": value for name, value in residual.items()},
        **CRUSHING,
    )
    for step in steps:
        services.measure_add(
            hazard=hazard, actor=actor, step=step, description=f"A {step} measure"
        )
    return hazard


def _only_hazard(api, revision) -> dict:
    response = api.get(detail_url("assessment", revision.assessment_id))
    (hazard,) = response.data["current_revision"]["hazards"]
    return hazard


def test_a_hazard_with_acceptable_residual_risk_says_so(
    owner_api, revision, safety_engineer
):
    _reduced_hazard(
        revision,
        safety_engineer,
        "safeguarding",
        severity="S1",
        frequency="F2",
        avoidance="P2",
    )

    hazard = _only_hazard(owner_api, revision)

    assert (hazard["plr"], hazard["residual_plr"]) == ("e", "c")
    assert hazard["acceptable"] is True
    assert hazard["reasons"] == []


def test_a_residual_risk_lowered_without_a_measure_is_not_acceptable(
    owner_api, revision, safety_engineer
):
    _reduced_hazard(
        revision, safety_engineer, severity="S1", frequency="F2", avoidance="P2"
    )

    hazard = _only_hazard(owner_api, revision)

    assert hazard["residual_risk_level"] == "medium"
    assert hazard["acceptable"] is False
    (reason,) = hazard["reasons"]
    assert reason["code"] == "residual_lowered_without_measure"
    assert "lowered without a measure" in reason["text"]


def test_a_serious_residual_risk_reduced_only_by_information_is_not_acceptable(
    owner_api, revision, safety_engineer
):
    # Residual S2 F1 P1: PLr c, medium, yet a risk of serious injury.
    _reduced_hazard(
        revision,
        safety_engineer,
        "information_for_use",
        "information_for_use",
        severity="S2",
        frequency="F1",
        avoidance="P1",
    )

    hazard = _only_hazard(owner_api, revision)

    assert (hazard["residual_plr"], hazard["residual_risk_level"]) == ("c", "medium")
    assert hazard["acceptable"] is False
    (reason,) = hazard["reasons"]
    assert reason["code"] == "serious_risk_information_only"
    assert "ISO 12100:2010, 6.1" in reason["text"]


def test_a_serious_residual_risk_with_a_safeguard_beside_information_is_acceptable(
    owner_api, revision, safety_engineer
):
    _reduced_hazard(
        revision,
        safety_engineer,
        "information_for_use",
        "safeguarding",
        severity="S2",
        frequency="F1",
        avoidance="P1",
    )

    hazard = _only_hazard(owner_api, revision)

    assert hazard["acceptable"] is True
    assert hazard["reasons"] == []


def test_a_signed_revision_shows_its_signature_and_that_it_is_intact(
    owner_api, signed, safety_engineer
):
    response = owner_api.get(detail_url("assessment", signed.assessment_id))

    current = response.data["current_revision"]
    assert current["status"] == "signed"
    assert current["signed_by"] == {
        "id": safety_engineer.pk,
        "username": "engineer",
    }
    assert current["signed_at"] is not None
    assert current["content_hash"] == signed.content_hash
    assert current["intact"] is True


def test_the_current_revision_is_the_newest(owner_api, signed, safety_engineer):
    second = services.revision_start_next(revision=signed, actor=safety_engineer)

    response = owner_api.get(detail_url("assessment", signed.assessment_id))

    assert response.data["current_revision"]["id"] == second.pk
    assert response.data["current_revision"]["intact"] is None
    assert [r["number"] for r in response.data["revisions"]] == [2, 1]


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_assessments_are_not_changed_or_deleted_directly(owner_api, revision, method):
    response = getattr(owner_api, method)(
        detail_url("assessment", revision.assessment_id), {}, format="json"
    )

    assert response.status_code == 405
    assert Assessment.objects.filter(pk=revision.assessment_id).exists()
