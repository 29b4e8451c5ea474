"""The report of a revision from the database: the page and the API answer
with the PDF for anyone in the organisation, in English or Korean, and a
revision changed behind the app prints that its seal does not verify."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, override
from pypdf import PdfReader
from rest_framework.test import APIClient

from compliance.assessment import services
from compliance.assessment.report_views import report_data
from compliance.models import Revision
from tests.compliance.assessment.test_tamper_evidence import (
    as_the_owner_without_guards,
    raw,
)
from tests.compliance.conftest import CRUSHING, sign_revision

VERIFIES = "The seal verifies: the revision is as it was signed."
DOES_NOT_VERIFY = "The seal does not verify"


def text_of(pdf: bytes) -> str:
    reader = PdfReader(io.BytesIO(pdf))
    return "\n".join(" ".join(p.extract_text().split()) for p in reader.pages)


def pages_of(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]


def in_korean(message: str) -> str:
    with override("ko"):
        return " ".join(gettext(message).split())


def add_hazards(revision, actor, count: int):
    for n in range(count):
        hazard = services.hazard_add(
            revision=revision,
            actor=actor,
            severity="S2",
            frequency="F2",
            avoidance="P1",
            residual_severity="S2",
            residual_frequency="F1",
            residual_avoidance="P1",
            **{**CRUSHING, "task": f"Clearing a jam at the infeed {n + 1}"},
        )
        services.measure_add(
            hazard=hazard,
            actor=actor,
            step="safeguarding",
            description=f"Interlocked door {n + 1}",
        )


@pytest.fixture
def signed(revision, safety_engineer):
    user = get_user_model().objects.get(pk=safety_engineer.pk)
    user.first_name, user.last_name = "Minji", "Kim"
    user.save()
    add_hazards(revision, safety_engineer, 2)
    return sign_revision(
        services.revision_submit(revision=revision, actor=safety_engineer),
        safety_engineer,
    )


def get_pdf(client, revision, **query) -> bytes:
    response = client.get(reverse("compliance:report", args=[revision.pk]), query)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return response.content


def test_a_viewer_prints_the_signed_revision_with_signer_plr_and_seal(
    signed, viewer_client
):
    shown = text_of(get_pdf(viewer_client, signed, lang="en"))
    assert "Signed risk assessment (ISO 12100)" in shown
    assert "Clearing a jam at the infeed 1" in shown
    assert "Clearing a jam at the infeed 2" in shown
    assert "S2 F2 P1 d" in shown  # S/F/P and the PLr of the risk graph
    assert "Minji Kim" in shown and "Safety engineer" in shown
    assert "Interlocked door 1" in shown
    assert signed.content_hash in shown.replace(" ", "")
    assert VERIFIES in shown
    assert DOES_NOT_VERIFY not in shown
    assert "DRAFT" not in shown


def test_the_korean_report_is_in_korean_with_a_korean_date(signed, viewer_client):
    pdf = get_pdf(viewer_client, signed, lang="ko")
    shown = text_of(pdf)
    total = len(pages_of(pdf))
    day = timezone.localdate(signed.signed_at)
    assert f"{day.year}년 {day.month}월 {day.day}일" in shown
    assert "Clearing a jam at the infeed 1" in shown
    assert "Minji Kim" in shown
    assert in_korean(VERIFIES) in shown
    page_label = in_korean("Page %(page)s of %(total)s")
    assert page_label % {"page": total, "total": total} in shown


def test_a_revision_changed_behind_the_app_prints_that_it_does_not_verify(
    signed, owner_client
):
    hazard = signed.hazards.first()
    with as_the_owner_without_guards():
        raw("UPDATE compliance_hazard SET severity = 'S1' WHERE id = %s", hazard.pk)
    tampered = Revision.objects.get(pk=signed.pk)
    english = text_of(get_pdf(owner_client, tampered, lang="en"))
    assert DOES_NOT_VERIFY in english
    assert "The seal verifies" not in english
    korean = text_of(get_pdf(owner_client, tampered, lang="ko"))
    assert in_korean(VERIFIES) not in korean


def test_a_draft_prints_marked_not_signed_on_every_page(revision, owner, owner_client):
    add_hazards(revision, owner, 25)
    pdf = get_pdf(owner_client, revision, lang="en")
    every = pages_of(pdf)
    assert len(every) > 2
    assert all("DRAFT — not signed" in page for page in every)
    assert "Signed risk assessment" not in text_of(pdf)


def test_a_revision_in_review_prints_as_a_draft(revision, owner, owner_client):
    add_hazards(revision, owner, 1)
    in_review = services.revision_submit(revision=revision, actor=owner)
    assert "DRAFT — not signed" in text_of(get_pdf(owner_client, in_review))


def test_an_unknown_language_is_refused_naming_the_parameter(revision, owner_client):
    response = owner_client.get(
        reverse("compliance:report", args=[revision.pk]), {"lang": "fr"}
    )
    assert response.status_code == 400
    assert b"lang" in response.content


def test_the_api_gives_the_same_pdf_and_refuses_an_unknown_language(signed, viewer):
    client = APIClient()
    client.force_authenticate(viewer)
    url = reverse("revision-report", args=[signed.pk])
    response = client.get(url, {"lang": "ko"})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert in_korean(VERIFIES) in text_of(response.content)
    refused = client.get(url, {"lang": "xx" * 100})
    assert refused.status_code == 400
    assert "lang" in refused.json()


def test_an_outsider_gets_404_on_the_page_and_the_api(signed, outsider, client):
    client.force_login(outsider)
    assert client.get(reverse("compliance:report", args=[signed.pk])).status_code == 404
    api = APIClient()
    api.force_authenticate(outsider)
    assert api.get(reverse("revision-report", args=[signed.pk])).status_code == 404


def test_signing_in_is_required(signed, client):
    response = client.get(reverse("compliance:report", args=[signed.pk]))
    assert response.status_code == 302


@pytest.mark.parametrize("count", [2, 20])
def test_the_report_takes_a_fixed_number_of_queries(
    count, revision, owner, owner_client, django_assert_max_num_queries
):
    add_hazards(revision, owner, count)
    with django_assert_max_num_queries(18):
        get_pdf(owner_client, revision)


def test_report_data_reads_the_six_limits_and_the_exposed_persons(revision):
    data = report_data(Revision.objects.get(pk=revision.pk), language="en")
    labels = [limit.label for limit in data.limits]
    assert labels[:5] == [
        "Intended use",
        "Reasonably foreseeable misuse",
        "Space limits",
        "Time limits (life cycle)",
        "Persons exposed",
    ]
    assert data.limits[0].text == "Palletising cartons of up to 12 kg"
    assert data.limits[4].text == "Operators, Maintenance staff"


def test_the_assessment_page_links_to_the_report_and_the_register(
    revision, owner_client, viewer
):
    url = reverse("compliance:assessment", args=[revision.assessment.cell_id])
    page = owner_client.get(url).content.decode()
    assert reverse("compliance:report", args=[revision.pk]) in page
    assert reverse("compliance:register_export", args=[revision.pk]) in page
    assert reverse("compliance:register_import", args=[revision.pk]) in page
    owner_client.force_login(viewer)
    read_only = owner_client.get(url).content.decode()
    assert reverse("compliance:report", args=[revision.pk]) in read_only
    assert reverse("compliance:register_import", args=[revision.pk]) not in read_only


def test_the_api_answers_a_client_that_accepts_only_pdf(signed, viewer):
    client = APIClient()
    client.force_authenticate(viewer)
    url = reverse("revision-report", args=[signed.pk])
    response = client.get(url, HTTP_ACCEPT="application/pdf")
    assert response.status_code == 200
    assert response.content.startswith(b"%PDF")


def test_a_korean_cell_name_is_kept_in_the_file_name(revision, owner_client):
    cell = revision.assessment.cell
    cell.name = "팔레타이저 1호기"
    cell.save()
    response = owner_client.get(reverse("compliance:report", args=[revision.pk]))
    assert "filename*=utf-8''" in response["Content-Disposition"]
    assert "draft" in response["Content-Disposition"]
