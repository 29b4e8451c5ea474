"""Revisions through the API: limits, the sign-off workflow and who may move
it on, the next revision, the diff between two, and the audit trail."""

from __future__ import annotations

import pytest
from rest_framework.pagination import PageNumberPagination

from cells.models import Role
from compliance.assessment import selectors, services
from compliance.assessment.content import diff
from compliance.models import AuditEntry, Revision, RevisionStatus
from tests.compliance.assessment.api.conftest import (
    _client_for,
    action_url,
    detail_url,
    hazard_body,
    list_url,
    sign_body,
)
from tests.compliance.assessment.conftest import LIMITS
from tests.compliance.conftest import CRUSHING, ESTIMATED, sign_revision
from tests.factories import CellFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def status_of(revision) -> str:
    return Revision.objects.get(pk=revision.pk).status


# --- Reading --------------------------------------------------------------------


def test_a_revision_is_read_with_its_hazards(viewer_api, revision, hazard, measure):
    response = viewer_api.get(detail_url("revision", revision.pk))

    assert response.status_code == 200
    assert response.data["number"] == 1
    (row,) = response.data["hazards"]
    assert row["id"] == hazard.pk
    assert [m["id"] for m in row["measures"]] == [measure.pk]


def test_revisions_filter_by_assessment(owner_api, owner, signed, project):
    second = services.revision_start_next(revision=signed, actor=owner)
    elsewhere = services.assessment_open(cell=CellFactory(project=project), actor=owner)

    def ids(query: str) -> list[int]:
        response = owner_api.get(list_url("revision") + query)
        assert response.status_code == 200
        return [row["id"] for row in response.data["results"]]

    assert ids(f"?assessment={signed.assessment_id}") == [second.pk, signed.pk]
    assert ids(f"?assessment={elsewhere.assessment_id}") == [elsewhere.pk]
    assert ids("?status=signed") == [signed.pk]


# --- Limits ---------------------------------------------------------------------


def test_editor_changes_the_limits_with_the_version_read(owner_api, revision):
    response = owner_api.patch(
        detail_url("revision", revision.pk),
        {
            "version": revision.version,
            "intended_use": "Palletising cartons of up to 12 kg",
            "exposed_persons": ["operators", "maintenance_staff", "operators"],
        },
        format="json",
    )

    assert response.status_code == 200
    stored = Revision.objects.get(pk=revision.pk)
    assert stored.intended_use == "Palletising cartons of up to 12 kg"
    assert stored.exposed_persons == ["operators", "maintenance_staff"]
    assert response.data["version"] == revision.version + 1
    assert response.data["intended_use"] == stored.intended_use


def test_limits_need_the_version(owner_api, blank_revision):
    response = owner_api.patch(
        detail_url("revision", blank_revision.pk), {"intended_use": "x"}, format="json"
    )

    assert response.status_code == 400
    assert "version" in response.data
    assert Revision.objects.get(pk=blank_revision.pk).intended_use == ""


def test_limits_saved_meanwhile_are_a_conflict(owner_api, engineer_api, revision):
    read = owner_api.get(detail_url("revision", revision.pk)).data["version"]
    engineer_api.patch(
        detail_url("revision", revision.pk),
        {"version": read, "time_limits": "20 years"},
        format="json",
    )

    response = owner_api.patch(
        detail_url("revision", revision.pk),
        {"version": read, "time_limits": "10 years"},
        format="json",
    )

    assert response.status_code == 409
    assert "someone else" in response.data["detail"]
    assert response.data["current"]["time_limits"] == "20 years"
    assert Revision.objects.get(pk=revision.pk).time_limits == "20 years"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"exposed_persons": ["robots"]}, "exposed_persons"),
        ({"exposed_persons": "operators"}, "exposed_persons"),
        ({"intended_use": None}, "intended_use"),
        ({"intended_use": ["x"]}, "intended_use"),
        ({"version": "latest"}, "version"),
        ({"version": 0}, "version"),
    ],
)
def test_limits_with_bad_input_are_refused(owner_api, revision, body, field):
    response = owner_api.patch(
        detail_url("revision", revision.pk),
        {"version": revision.version, **body},
        format="json",
    )

    assert response.status_code == 400
    assert field in response.data


def test_viewer_cannot_change_the_limits(viewer_api, blank_revision):
    response = viewer_api.patch(
        detail_url("revision", blank_revision.pk),
        {"version": blank_revision.version, "intended_use": "x"},
        format="json",
    )

    assert response.status_code == 403
    assert Revision.objects.get(pk=blank_revision.pk).intended_use == ""


def test_the_limits_of_a_signed_revision_cannot_change(owner_api, signed):
    response = owner_api.patch(
        detail_url("revision", signed.pk),
        {"version": signed.version, "intended_use": "x"},
        format="json",
    )

    assert response.status_code == 400
    assert "Start a new revision" in str(response.data)
    assert Revision.objects.get(pk=signed.pk).intended_use == LIMITS["intended_use"]


@pytest.mark.parametrize("method", ["put", "delete"])
def test_revisions_are_not_replaced_or_deleted(owner_api, revision, method):
    response = getattr(owner_api, method)(
        detail_url("revision", revision.pk), {}, format="json"
    )

    assert response.status_code == 405
    assert Revision.objects.filter(pk=revision.pk).exists()


# --- Workflow -------------------------------------------------------------------


def test_architect_submits_and_engineer_signs(
    owner_api, engineer_api, revision, hazard, owner, safety_engineer
):
    submitted = owner_api.post(action_url("submit", revision.pk))
    signed = engineer_api.post(
        action_url("sign", revision.pk), sign_body(revision), format="json"
    )

    assert submitted.status_code == 200
    assert submitted.data["status"] == RevisionStatus.IN_REVIEW
    assert submitted.data["submitted_by"]["username"] == "owner"
    assert signed.status_code == 200
    assert signed.data["status"] == RevisionStatus.SIGNED
    assert signed.data["signed_by"]["id"] == safety_engineer.pk
    assert signed.data["intact"] is True
    assert status_of(revision) == RevisionStatus.SIGNED


def test_solution_architect_cannot_sign(owner_api, revision, hazard):
    owner_api.post(action_url("submit", revision.pk))

    response = owner_api.post(
        action_url("sign", revision.pk), sign_body(revision), format="json"
    )

    assert response.status_code == 403
    assert "safety engineer" in response.data["detail"]
    assert status_of(revision) == RevisionStatus.IN_REVIEW


@pytest.mark.parametrize(
    ("prepare", "name"),
    [
        (None, "submit"),
        ("submit", "approve"),
        ("submit", "sign"),
        ("submit", "return"),
        ("sign", "start-next"),
    ],
)
def test_viewer_cannot_move_the_workflow(
    viewer_api, revision, hazard, safety_engineer, prepare, name
):
    if prepare in ("submit", "sign"):
        revision = services.revision_submit(revision=revision, actor=safety_engineer)
    if prepare == "sign":
        revision = sign_revision(revision, safety_engineer)
    before = Revision.objects.values().get(pk=revision.pk)

    response = viewer_api.post(action_url(name, revision.pk))

    assert response.status_code == 403
    assert Revision.objects.values().get(pk=revision.pk) == before
    assert Revision.objects.count() == 1


def test_a_draft_cannot_be_signed(engineer_api, revision, hazard):
    response = engineer_api.post(
        action_url("sign", revision.pk), sign_body(revision), format="json"
    )

    assert response.status_code == 400
    assert "Submit the revision" in str(response.data)
    assert status_of(revision) == RevisionStatus.DRAFT


def test_an_empty_revision_cannot_be_submitted(owner_api, revision):
    response = owner_api.post(action_url("submit", revision.pk))

    assert response.status_code == 400
    assert "at least one hazard" in str(response.data)


def test_signing_names_the_hazards_not_yet_estimated(
    engineer_api, revision, safety_engineer
):
    services.hazard_add(revision=revision, actor=safety_engineer, **CRUSHING)
    engineer_api.post(action_url("submit", revision.pk))

    response = engineer_api.post(
        action_url("sign", revision.pk), sign_body(revision), format="json"
    )

    assert response.status_code == 400
    assert CRUSHING["task"] in str(response.data)
    assert status_of(revision) == RevisionStatus.IN_REVIEW


def test_signing_with_blank_limits_is_a_400_naming_each_blank_limit(
    engineer_api, blank_revision, safety_engineer
):
    services.hazard_add(
        revision=blank_revision,
        actor=safety_engineer,
        **ESTIMATED,
        **CRUSHING,
    )
    engineer_api.post(action_url("submit", blank_revision.pk))

    response = engineer_api.post(
        action_url("sign", blank_revision.pk), sign_body(blank_revision), format="json"
    )

    assert response.status_code == 400
    assert set(response.data) == {
        "intended_use",
        "foreseeable_misuse",
        "time_limits",
        "exposed_persons",
    }
    assert response.data["intended_use"] == [
        "Record the intended use before signing (ISO 12100:2010, 5.3)."
    ]
    assert status_of(blank_revision) == RevisionStatus.IN_REVIEW


def test_signing_after_the_limits_are_stated_through_the_api(
    engineer_api, blank_revision, safety_engineer
):
    services.hazard_add(
        revision=blank_revision,
        actor=safety_engineer,
        **ESTIMATED,
        **CRUSHING,
    )
    stated = engineer_api.patch(
        detail_url("revision", blank_revision.pk),
        {"version": blank_revision.version, **LIMITS},
        format="json",
    )
    engineer_api.post(action_url("submit", blank_revision.pk))

    response = engineer_api.post(
        action_url("sign", blank_revision.pk), sign_body(blank_revision), format="json"
    )

    assert stated.status_code == 200
    assert response.status_code == 200
    assert status_of(blank_revision) == RevisionStatus.SIGNED


def test_a_revision_in_review_is_returned_to_draft(
    owner_api, engineer_api, revision, hazard
):
    owner_api.post(action_url("submit", revision.pk))

    response = engineer_api.post(action_url("return", revision.pk))

    assert response.status_code == 200
    assert response.data["status"] == RevisionStatus.DRAFT
    assert status_of(revision) == RevisionStatus.DRAFT


def test_a_draft_cannot_be_sent_back(owner_api, revision):
    response = owner_api.post(action_url("return", revision.pk))

    assert response.status_code == 400
    assert "in review or approved" in str(response.data)
    assert Revision.objects.get(pk=revision.pk).status == RevisionStatus.DRAFT


def test_a_revision_in_review_cannot_be_edited(owner_api, revision, hazard):
    owner_api.post(action_url("submit", revision.pk))

    response = owner_api.patch(
        detail_url("hazard", hazard.pk),
        {"version": hazard.version, "task": "Changed"},
        format="json",
    )

    assert response.status_code == 400
    assert "can no longer be edited" in str(response.data)


@pytest.fixture
def two_person(organisation):
    organisation.requires_two_person_signoff = True
    organisation.save()
    return organisation


def test_two_person_signoff_through_the_api(
    two_person, owner_api, engineer_api, revision, hazard, owner
):
    engineer_api.post(action_url("submit", revision.pk))

    unapproved = engineer_api.post(
        action_url("sign", revision.pk), sign_body(revision), format="json"
    )
    own_approval = engineer_api.post(action_url("approve", revision.pk))
    approved = owner_api.post(action_url("approve", revision.pk))
    architect_signs = owner_api.post(
        action_url("sign", revision.pk), sign_body(revision), format="json"
    )
    signed = engineer_api.post(
        action_url("sign", revision.pk), sign_body(revision), format="json"
    )

    assert unapproved.status_code == 400
    assert "second person" in str(unapproved.data)
    assert own_approval.status_code == 403
    assert approved.status_code == 200
    assert approved.data["status"] == RevisionStatus.APPROVED
    assert approved.data["approved_by"]["id"] == owner.pk
    assert architect_signs.status_code == 403
    assert signed.status_code == 200
    assert signed.data["status"] == RevisionStatus.SIGNED


def test_the_approver_cannot_also_sign(two_person, owner_api, revision, hazard):
    engineer_a = UserFactory(username="engineer-a")
    engineer_b = UserFactory(username="engineer-b")
    for user in (engineer_a, engineer_b):
        MembershipFactory(user=user, organisation=two_person, role=Role.SAFETY_ENGINEER)
    owner_api.post(action_url("submit", revision.pk))
    _client_for(engineer_a).post(action_url("approve", revision.pk))

    by_approver = _client_for(engineer_a).post(
        action_url("sign", revision.pk), sign_body(revision), format="json"
    )
    by_other = _client_for(engineer_b).post(
        action_url("sign", revision.pk), sign_body(revision), format="json"
    )

    assert by_approver.status_code == 403
    assert by_other.status_code == 200
    assert by_other.data["signed_by"]["username"] == "engineer-b"


def test_a_returned_revision_loses_its_approval(
    two_person, owner_api, engineer_api, revision, hazard
):
    engineer_api.post(action_url("submit", revision.pk))
    owner_api.post(action_url("approve", revision.pk))

    response = engineer_api.post(action_url("return", revision.pk))

    assert response.status_code == 200
    assert response.data["status"] == RevisionStatus.DRAFT
    assert response.data["approved_by"] is None


def test_only_a_revision_in_review_is_approved(owner_api, revision, hazard):
    response = owner_api.post(action_url("approve", revision.pk))

    assert response.status_code == 400
    assert status_of(revision) == RevisionStatus.DRAFT


# --- The next revision and the diff ---------------------------------------------


def test_start_next_copies_a_signed_revision_as_a_draft(owner_api, signed, hazard):
    response = owner_api.post(action_url("start-next", signed.pk))

    assert response.status_code == 201
    assert (response.data["number"], response.data["status"]) == (2, "draft")
    assert response.data["based_on"] == signed.pk
    (copied,) = response.data["hazards"]
    assert copied["key"] == str(hazard.key)
    assert copied["id"] != hazard.pk
    assert [m["description"] for m in copied["measures"]] == ["Fence F1"]


def test_start_next_refuses_a_draft_and_a_signed_revision_already_followed(
    owner_api, revision, hazard, safety_engineer
):
    draft = owner_api.post(action_url("start-next", revision.pk))
    signed = sign_revision(
        services.revision_submit(revision=revision, actor=safety_engineer),
        safety_engineer,
    )
    first = owner_api.post(action_url("start-next", signed.pk))
    again = owner_api.post(action_url("start-next", signed.pk))

    assert draft.status_code == 400
    assert first.status_code == 201
    assert again.status_code == 400
    assert "already follows" in str(again.data)
    assert Revision.objects.count() == 2


def test_start_next_then_re_estimate_shows_in_the_diff(
    owner_api, signed, hazard, revision
):
    second = owner_api.post(action_url("start-next", signed.pk)).data
    copied = second["hazards"][0]
    changed = owner_api.patch(
        detail_url("hazard", copied["id"]),
        {"version": copied["version"], "avoidance": "P2"},
        format="json",
    )
    added = owner_api.post(
        list_url("hazard"),
        hazard_body(
            Revision.objects.get(pk=second["id"]),
            consequence="impact",
            task="Teaching the pick point",
        ),
        format="json",
    )
    limits = owner_api.patch(
        detail_url("revision", second["id"]),
        {"version": second["version"], "time_limits": "15 years"},
        format="json",
    )
    assert (changed.status_code, added.status_code, limits.status_code) == (
        200,
        201,
        200,
    )

    response = owner_api.get(action_url("diff", second["id"]) + f"?against={signed.pk}")

    assert response.status_code == 200
    data = response.data
    assert (data["from_revision"]["number"], data["to_revision"]["number"]) == (1, 2)
    assert data["is_empty"] is False
    assert [(c["field"], c["before"], c["after"]) for c in data["limits"]] == [
        ("time_limits", LIMITS["time_limits"], "15 years")
    ]
    kinds = {h["kind"]: h for h in data["hazards"]}
    assert kinds["added"]["task"] == "Teaching the pick point"
    re_estimated = kinds["re_estimated"]
    assert re_estimated["key"] == str(hazard.key)
    assert [(f["field"], f["before"], f["after"]) for f in re_estimated["fields"]] == [
        ("avoidance", "P1", "P2")
    ]


def test_the_diff_lists_measure_changes(owner_api, signed, hazard, safety_engineer):
    second = services.revision_start_next(revision=signed, actor=safety_engineer)
    copied = second.hazards.get()
    services.measure_add(
        hazard=copied,
        actor=safety_engineer,
        step="information_for_use",
        description="Warning sign",
    )

    response = owner_api.get(action_url("diff", second.pk) + f"?against={signed.pk}")

    (change,) = response.data["hazards"]
    assert change["kind"] == "changed"
    assert [(m["kind"], m["description"]) for m in change["measures"]] == [
        ("added", "Warning sign")
    ]


def test_a_copy_unchanged_has_an_empty_diff(owner_api, signed, safety_engineer):
    second = services.revision_start_next(revision=signed, actor=safety_engineer)

    response = owner_api.get(action_url("diff", second.pk) + f"?against={signed.pk}")

    assert response.status_code == 200
    assert response.data["is_empty"] is True
    assert response.data["hazards"] == [] and response.data["limits"] == []


def test_diff_against_a_revision_of_another_assessment_is_refused(
    owner_api, owner, revision, project
):
    other = services.assessment_open(cell=CellFactory(project=project), actor=owner)

    response = owner_api.get(action_url("diff", revision.pk) + f"?against={other.pk}")

    assert response.status_code == 400
    assert "against" in response.data


@pytest.mark.parametrize("query", ["", "?against=", "?against=two", "?against=999999"])
def test_diff_needs_a_revision_to_compare_with(owner_api, revision, query):
    response = owner_api.get(action_url("diff", revision.pk) + query)

    assert response.status_code == 400
    assert "against" in response.data


def test_diff_against_a_foreign_revision_is_refused(outsider, owner_api, revision):
    foreign = services.assessment_open(
        cell=CellFactory(project__organisation=outsider.memberships.get().organisation),
        actor=outsider,
    )

    response = owner_api.get(action_url("diff", revision.pk) + f"?against={foreign.pk}")

    assert response.status_code == 400
    assert "against" in response.data


def test_diff_content_matches_the_selectors(owner_api, signed, safety_engineer):
    second = services.revision_start_next(revision=signed, actor=safety_engineer)
    copied = second.hazards.get()
    services.hazard_update(
        hazard=copied, actor=safety_engineer, version=copied.version, severity="S1"
    )

    response = owner_api.get(action_url("diff", second.pk) + f"?against={signed.pk}")

    expected = diff(
        selectors.revision_content(signed), selectors.revision_content(second)
    ).model_dump(mode="json")
    assert response.data["hazards"] == expected["hazards"]
    assert response.data["limits"] == expected["limits"]


# --- History --------------------------------------------------------------------


def test_history_shows_the_api_writes_with_their_actor(
    owner_api, engineer_api, blank_revision, owner, safety_engineer
):
    revision = blank_revision
    created = owner_api.post(
        list_url("hazard"), hazard_body(revision), format="json"
    ).data
    engineer_api.patch(
        detail_url("hazard", created["id"]),
        {"version": created["version"], "severity": "S1"},
        format="json",
    )
    owner_api.post(action_url("submit", revision.pk))

    response = engineer_api.get(action_url("history", revision.pk))

    assert response.status_code == 200
    rows = response.data["results"]
    assert response.data["count"] == len(rows) == 4
    # Newest first: the submission, the engineer's change, the owner's hazard,
    # the revision's creation.
    assert [(r["actor"], r["action"], r["object_type"]) for r in rows] == [
        ("owner", "update", "revision"),
        ("engineer", "update", "hazard"),
        ("owner", "create", "hazard"),
        ("engineer", "create", "revision"),
    ]
    assert rows[0]["after"]["status"] == "in_review"
    assert rows[1]["object_key"] == created["key"]
    assert (rows[1]["before"], rows[1]["after"]) == (
        {"severity": "S2"},
        {"severity": "S1"},
    )


def test_history_is_the_revisions_own(owner_api, signed, safety_engineer):
    second = services.revision_start_next(revision=signed, actor=safety_engineer)

    first_rows = owner_api.get(action_url("history", signed.pk)).data["results"]
    second_rows = owner_api.get(action_url("history", second.pk)).data["results"]

    expected = AuditEntry.objects.filter(
        assessment=signed.assessment, revision_number=1
    ).count()
    assert len(first_rows) == expected
    assert [(r["action"], r["after"]) for r in second_rows] == [
        ("create", {"based_on": 1})
    ]


def test_history_is_paginated(owner_api, blank_revision, safety_engineer, monkeypatch):
    revision = blank_revision
    for index in range(3):
        services.hazard_add(
            revision=revision,
            actor=safety_engineer,
            **{**CRUSHING, "task": f"Task {index}"},
        )
    monkeypatch.setattr(PageNumberPagination, "page_size", 2)

    response = owner_api.get(action_url("history", revision.pk) + "?page=2")

    assert response.status_code == 200
    assert response.data["count"] == 4
    assert response.data["previous"] is not None
    assert len(response.data["results"]) == 2
