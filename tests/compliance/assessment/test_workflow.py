"""Draft → in review → (approved) → signed, and who may do what."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from compliance.assessment import selectors, services
from compliance.assessment.content import content_hash
from compliance.models import Revision, RevisionStatus
from tests.compliance.conftest import CRUSHING, ESTIMATED, sign_revision
from tests.factories import MembershipFactory, UserFactory


def test_opening_an_assessment_starts_revision_1_with_the_layouts_space_limits(
    revision,
):
    assert revision.number == 1
    assert revision.status == RevisionStatus.DRAFT
    assert "1 segments, 4.0 m, with 1 openings" in revision.space_limits


def test_opening_twice_returns_the_same_revision(cell, revision, owner):
    assert services.assessment_open(cell=cell, actor=owner).pk == revision.pk


def test_viewer_cannot_start_an_assessment(cell, viewer):
    with pytest.raises(PermissionDenied):
        services.assessment_open(cell=cell, actor=viewer)


def test_submit_then_sign_freezes_the_content_under_its_hash(
    revision, hazard, safety_engineer
):
    submitted = services.revision_submit(revision=revision, actor=safety_engineer)
    assert submitted.status == RevisionStatus.IN_REVIEW
    signed = sign_revision(submitted, safety_engineer)
    assert signed.status == RevisionStatus.SIGNED
    assert signed.signed_by == safety_engineer
    assert signed.content_hash == content_hash(selectors.revision_content(signed))
    assert services.revision_is_intact(signed)


def test_only_a_safety_engineer_can_sign(revision, hazard, owner):
    submitted = services.revision_submit(revision=revision, actor=owner)
    with pytest.raises(PermissionDenied):
        sign_revision(submitted, owner)
    assert Revision.objects.get(pk=revision.pk).status == RevisionStatus.IN_REVIEW


def test_a_draft_cannot_be_signed(revision, hazard, safety_engineer):
    with pytest.raises(ValidationError):
        sign_revision(revision, safety_engineer)


def test_signing_with_unestimated_hazards_names_them(revision, safety_engineer):
    services.hazard_add(revision=revision, actor=safety_engineer, **CRUSHING)
    submitted = services.revision_submit(revision=revision, actor=safety_engineer)
    with pytest.raises(ValidationError, match="Loading parts at the infeed"):
        sign_revision(submitted, safety_engineer)
    assert Revision.objects.get(pk=revision.pk).status == RevisionStatus.IN_REVIEW


# --- Signing needs the limits of the machine (ISO 12100:2010 5.3) ----------------

BLANK = {
    "intended_use": "",
    "foreseeable_misuse": "",
    "time_limits": "",
    "exposed_persons": [],
}
SIGN_REQUIRED = {"space_limits", *BLANK}


def _submitted(revision, actor, **limits):
    """``revision`` with ``limits`` saved and one estimated hazard, in review."""
    revision = services.revision_update_limits(
        revision=revision, actor=actor, version=revision.version, **limits
    )
    services.hazard_add(
        revision=revision,
        actor=actor,
        **ESTIMATED,
        **CRUSHING,
    )
    return services.revision_submit(revision=revision, actor=actor)


def test_signing_with_blank_limits_names_each_blank_limit(
    blank_revision, safety_engineer
):
    submitted = _submitted(blank_revision, safety_engineer, **BLANK)

    with pytest.raises(ValidationError) as refused:
        sign_revision(submitted, safety_engineer)

    errors = refused.value.message_dict
    assert set(errors) == set(BLANK)
    assert errors["intended_use"] == [
        "Record the intended use before signing (ISO 12100:2010, 5.3)."
    ]
    assert "reasonably foreseeable misuse" in errors["foreseeable_misuse"][0]
    assert "time limits" in errors["time_limits"][0]
    assert "persons exposed" in errors["exposed_persons"][0]
    assert Revision.objects.get(pk=submitted.pk).status == RevisionStatus.IN_REVIEW


@pytest.mark.parametrize("name", sorted(SIGN_REQUIRED))
def test_signing_refuses_any_one_blank_limit(revision, safety_engineer, name):
    # Whitespace is blank too.
    blank = [] if name == "exposed_persons" else "  \n"
    submitted = _submitted(revision, safety_engineer, **{name: blank})

    with pytest.raises(ValidationError) as refused:
        sign_revision(submitted, safety_engineer)

    assert list(refused.value.message_dict) == [name]


def test_signing_reports_blank_limits_and_unestimated_hazards_together(
    blank_revision, safety_engineer
):
    services.hazard_add(revision=blank_revision, actor=safety_engineer, **CRUSHING)
    submitted = services.revision_submit(revision=blank_revision, actor=safety_engineer)

    with pytest.raises(ValidationError) as refused:
        sign_revision(submitted, safety_engineer)

    errors = refused.value.message_dict
    assert set(errors) == {*BLANK, "__all__"}
    assert CRUSHING["task"] in errors["__all__"][0]


def test_signing_with_every_limit_stated_succeeds(revision, safety_engineer):
    submitted = _submitted(revision, safety_engineer)

    signed = sign_revision(submitted, safety_engineer)

    assert signed.status == RevisionStatus.SIGNED
    assert signed.intended_use and signed.exposed_persons


def test_an_empty_revision_cannot_be_submitted(revision, safety_engineer):
    with pytest.raises(ValidationError):
        services.revision_submit(revision=revision, actor=safety_engineer)


def test_reviewer_can_send_it_back_to_draft(revision, hazard, safety_engineer, owner):
    submitted = services.revision_submit(revision=revision, actor=owner)
    returned = services.revision_return(revision=submitted, actor=safety_engineer)
    assert returned.status == RevisionStatus.DRAFT


@pytest.fixture
def two_person(organisation):
    organisation.requires_two_person_signoff = True
    organisation.save()
    return organisation


def test_two_person_signoff_needs_a_second_persons_approval(
    two_person, revision, hazard, safety_engineer, owner
):
    submitted = services.revision_submit(revision=revision, actor=safety_engineer)
    with pytest.raises(ValidationError, match="second person"):
        sign_revision(submitted, safety_engineer)
    with pytest.raises(PermissionDenied):
        services.revision_approve(
            revision=submitted, actor=safety_engineer
        )  # submitter
    approved = services.revision_approve(revision=submitted, actor=owner)
    assert approved.status == RevisionStatus.APPROVED
    signed = sign_revision(approved, safety_engineer)
    assert signed.status == RevisionStatus.SIGNED


def test_approver_cannot_also_sign(two_person, organisation, revision, hazard, owner):
    engineer_a = UserFactory(username="engineer-a")
    engineer_b = UserFactory(username="engineer-b")
    for user in (engineer_a, engineer_b):
        MembershipFactory(user=user, organisation=organisation, role="safety_engineer")
    submitted = services.revision_submit(revision=revision, actor=owner)
    approved = services.revision_approve(revision=submitted, actor=engineer_a)
    with pytest.raises(PermissionDenied):
        sign_revision(approved, engineer_a)
    assert sign_revision(approved, engineer_b).is_signed


def test_editing_a_signed_assessment_starts_a_copy_as_revision_2(
    revision, hazard, safety_engineer
):
    services.measure_add(
        hazard=hazard, actor=safety_engineer, step="safeguarding", description="Fence"
    )
    signed = sign_revision(
        services.revision_submit(revision=revision, actor=safety_engineer),
        safety_engineer,
    )
    second = services.revision_start_next(revision=signed, actor=safety_engineer)
    assert second.number == 2
    assert second.status == RevisionStatus.DRAFT
    assert second.based_on == signed
    copied = second.hazards.get()
    assert copied.key == hazard.key
    assert copied.measures.get().description == "Fence"
    # The copy says what was signed; the signature's declaration is not copied.
    said = selectors.revision_content(signed).model_copy(update={"declaration": None})
    assert selectors.revision_content(second).declaration is None
    assert content_hash(selectors.revision_content(second)) == content_hash(said)


def test_only_the_latest_signed_revision_is_copied(revision, hazard, safety_engineer):
    signed = sign_revision(
        services.revision_submit(revision=revision, actor=safety_engineer),
        safety_engineer,
    )
    services.revision_start_next(revision=signed, actor=safety_engineer)
    with pytest.raises(ValidationError, match="already follows"):
        services.revision_start_next(revision=signed, actor=safety_engineer)


def test_a_field_added_to_the_content_later_keeps_old_hashes():
    from compliance.assessment.content import HazardContent, RevisionContent

    old = RevisionContent(
        intended_use="Palletising",
        hazards=(
            HazardContent(
                key="k1",
                group="mechanical",
                origin="moving_elements",
                consequence="crushing",
                phase="operation",
                task="Load",
            ),
        ),
    )
    # A hazard that carries the newer field at its default hashes the same.
    assert content_hash(old) == content_hash(
        old.model_copy(update={"conformity_route": ""})
    )
    changed = old.model_copy(update={"conformity_route": "KIRIA certification"})
    assert content_hash(changed) != content_hash(old)
