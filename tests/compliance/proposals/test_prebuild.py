"""The check before a proposal is built (issue 15): the SA sees what a
customer would stumble on, builds only knowingly, and the version keeps the
list it was built with."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.assessment import services as assessment_services
from compliance.models import ProposalDocument
from compliance.proposals.checks import prebuild_notes
from compliance.proposals.pdf.data import SECTIONS
from compliance.proposals.views import ProposalForm
from tests.factories import GuardSegmentFactory

pytestmark = pytest.mark.django_db

ALL = list(SECTIONS)


@pytest.fixture
def drafted(cell, owner):
    """A cell with an unsigned assessment, open fails (one short fence) and
    lines to be quoted."""
    GuardSegmentFactory(cell=cell, label="F1", height_mm=1000)
    assessment_services.assessment_open(cell=cell, actor=owner)
    return cell


def notes_of(cell, user) -> list[str]:
    from cells import selectors

    return prebuild_notes(selectors.cell_with_layout(user, cell.pk))


def test_the_check_names_what_the_customer_would_ask_about(drafted, owner):
    notes = " ".join(notes_of(drafted, owner))
    assert "The risk assessment is not signed" in notes
    assert "printed marked DRAFT" in notes
    assert "findings fail" in notes or "finding fails" in notes
    assert "to be quoted" in notes


def test_no_assessment_is_said_too(cell, owner):
    assert "No risk assessment is recorded" in " ".join(notes_of(cell, owner))


def test_the_page_shows_the_notes_and_refuses_to_build_unknowingly(
    drafted, owner_client
):
    url = reverse("compliance:proposal", args=[drafted.pk])
    page = owner_client.get(url)
    assert "Before you build" in page.text
    assert "The risk assessment is not signed" in page.text
    refused = owner_client.post(url, {"language": "en", "sections": ALL})
    assert refused.status_code == 400
    assert "tick this to build the PDF as it is" in refused.text
    assert not ProposalDocument.objects.exists()


def test_building_knowingly_keeps_the_notes_with_the_version(
    drafted, owner, owner_client, django_capture_on_commit_callbacks
):
    url = reverse("compliance:proposal", args=[drafted.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(
            url, {"language": "en", "sections": ALL, "acknowledge": "on"}
        )
    assert response.status_code == 302
    document = ProposalDocument.objects.get()
    assert document.notes == notes_of(drafted, owner)
    assert any("not signed" in note for note in document.notes)
    listed = owner_client.get(url).text
    assert "Built knowing" in listed


def test_the_api_records_the_notes_it_was_asked_with(drafted, owner):
    client = APIClient()
    client.force_authenticate(owner)
    response = client.post(
        f"/api/v1/cells/{drafted.pk}/proposals/",
        {"language": "en", "sections": ["summary"]},
        format="json",
    )
    assert response.status_code == 202
    assert response.json()["notes"] == notes_of(drafted, owner)


def test_the_notes_are_in_the_readers_language(drafted, owner):
    from django.utils import translation

    with translation.override("ko"):
        notes = " ".join(notes_of(drafted, owner))
    assert "위험성평가" in notes and "The risk assessment" not in notes


def test_nothing_to_note_asks_for_no_tick():
    form = ProposalForm({"language": "en", "sections": ["summary"]}, notes=[])
    assert "acknowledge" not in form.fields and form.is_valid()
    noted = ProposalForm({"language": "en", "sections": ["summary"]}, notes=["x"])
    assert not noted.is_valid() and "acknowledge" in noted.errors


def test_a_viewer_sees_no_check(drafted, viewer_client):
    page = viewer_client.get(reverse("compliance:proposal", args=[drafted.pk]))
    assert page.status_code == 200 and "Before you build" not in page.text
