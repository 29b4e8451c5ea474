"""Proposal PDFs: asked for on the page or the API, built by the Celery task
(in-process here), idempotent, failures recorded, downloads for members only."""

from __future__ import annotations

import hashlib
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader
from rest_framework.test import APIClient

from cells.models import Membership
from compliance.models import ProposalDocument
from compliance.proposals import services as proposal_services
from compliance.proposals.building import build_document
from compliance.proposals.services import proposal_request
from tests.compliance.conftest import sign_revision
from tests.factories import GuardSegmentFactory, OpeningFactory

ALL = ["summary", "cell", "rules", "risk", "findings", "costs", "schedule", "terms"]


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.fixture
def guarded_cell(cell):
    segment = GuardSegmentFactory(cell=cell, label="F1")  # 4,000 mm of fence
    OpeningFactory(segment=segment, label="Infeed", purpose="material_entry")
    return cell


def test_a_requested_proposal_is_built_and_downloaded(
    owner_client, guarded_cell, django_capture_on_commit_callbacks
):
    url = reverse("compliance:proposal", args=[guarded_cell.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(
            url, {"language": "en", "sections": ALL, "acknowledge": "on"}
        )
    assert response.status_code == 302
    document = ProposalDocument.objects.get()
    assert (document.status, document.version, document.attempts) == ("ready", 1, 1)
    pdf = bytes(document.pdf)
    assert document.sha256 == hashlib.sha256(pdf).hexdigest()
    # The exact data it was built from is kept beside it.
    assert document.data["meta"]["number"] == document.proposal.number
    download = owner_client.get(
        reverse("compliance:proposal_document_download", args=[document.pk])
    )
    assert download["Content-Type"] == "application/pdf"
    assert download["Content-Disposition"] == (
        f'attachment; filename="{document.proposal.number}-v1-en.pdf"'
    )
    text = text_of(download.content)
    # The numbers of the app: 4.0 m of fence less the 0.8 m infeed, 3.2 m at
    # USD 60–120 per metre.
    assert "192" in text and "384" in text
    assert "Infeed" in text
    assert "DRAFT" in text  # no signed risk assessment yet
    page = owner_client.get(url)
    assert "Download PDF" in page.text and document.sha256[:12] in page.text


def test_each_request_is_a_new_version_in_its_language(
    owner, guarded_cell, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        first = proposal_request(
            cell=guarded_cell, actor=owner, language="en", sections=ALL
        )
        second = proposal_request(
            cell=guarded_cell, actor=owner, language="ko", sections=["summary"]
        )
    first.refresh_from_db()
    second.refresh_from_db()
    # Versions are counted within each language (issue 15).
    assert (first.version, second.version) == (1, 1)
    assert second.sections == ["summary"]
    korean = text_of(bytes(second.pdf))
    assert "요약" in korean or "제안" in korean
    assert "Infeed" not in korean  # the findings were left out


def test_a_task_delivered_again_does_nothing_once_finished(
    owner, guarded_cell, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        document = proposal_request(
            cell=guarded_cell, actor=owner, language="en", sections=ALL
        )
    document.refresh_from_db()
    assert build_document(document.pk, claim=document.claim) == "skipped"
    assert build_document(document.pk, claim="another-task") == "skipped"
    again = ProposalDocument.objects.get(pk=document.pk)
    assert (again.attempts, again.sha256) == (1, document.sha256)


def test_a_row_held_by_another_task_is_left_alone_but_its_own_redelivery_builds(
    owner, guarded_cell
):
    document = proposal_request(
        cell=guarded_cell, actor=owner, language="en", sections=ALL
    )  # the task is not run: its on-commit callback is not executed here
    ProposalDocument.objects.filter(pk=document.pk).update(
        status="processing",
        claim="task-1",
        attempts=1,
        started_at=document.requested_at,
    )
    assert build_document(document.pk, claim="task-2") == "skipped"
    # The worker running task-1 died; the broker delivers task-1 again.
    assert build_document(document.pk, claim="task-1") == "ready"
    document.refresh_from_db()
    assert (document.status, document.attempts) == ("ready", 2)


def test_a_failure_is_recorded_with_its_error(
    owner, guarded_cell, monkeypatch, django_capture_on_commit_callbacks
):
    def broken(data):
        raise ValueError("the layout drawing has no scale")

    monkeypatch.setattr("compliance.proposals.pdf.builder.build_proposal_pdf", broken)
    with django_capture_on_commit_callbacks(execute=True):
        document = proposal_request(
            cell=guarded_cell, actor=owner, language="en", sections=ALL
        )
    document.refresh_from_db()
    assert document.status == "failed"
    assert document.error == "ValueError: the layout drawing has no scale"
    assert document.pdf is None


def test_the_task_checks_the_requester_may_still_see_the_cell(owner, guarded_cell):
    document = proposal_request(
        cell=guarded_cell, actor=owner, language="en", sections=ALL
    )
    Membership.objects.filter(user=owner).delete()  # left the organisation
    assert build_document(document.pk, claim="t") == "failed"
    document.refresh_from_db()
    assert "can no longer see this cell" in document.error


def test_viewers_download_but_cannot_ask_for_a_proposal(viewer_client, cell):
    url = reverse("compliance:proposal", args=[cell.pk])
    assert viewer_client.get(url).status_code == 200
    assert (
        viewer_client.post(url, {"language": "en", "sections": ALL}).status_code == 403
    )
    assert not ProposalDocument.objects.exists()


def test_a_bad_request_gets_a_form_error(owner_client, cell):
    url = reverse("compliance:proposal", args=[cell.pk])
    response = owner_client.post(url, {"language": "fr"})
    assert response.status_code == 400
    assert "Choose at least one section." in response.text
    assert not ProposalDocument.objects.exists()


def test_the_api_answers_202_with_the_documents_url(
    owner, guarded_cell, django_capture_on_commit_callbacks
):
    client = api(owner)
    assert (
        client.post(
            f"/api/v1/cells/{guarded_cell.pk}/proposals/",
            {"language": "xx"},
            format="json",
        ).status_code
        == 400
    )
    pending = proposal_request(
        cell=guarded_cell, actor=owner, language="en", sections=ALL
    )
    polled = client.get(f"/api/v1/proposal-documents/{pending.pk}/")
    assert polled.status_code == 202 and polled.json()["pdf_url"] is None
    assert (
        client.get(f"/api/v1/proposal-documents/{pending.pk}/pdf/").status_code == 404
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/v1/cells/{guarded_cell.pk}/proposals/",
            {"language": "en", "sections": ["summary", "costs"]},
            format="json",
        )
    assert response.status_code == 202
    assert response["Location"].endswith(
        f"/api/v1/proposal-documents/{response.json()['id']}/"
    )
    done = client.get(response["Location"])
    assert done.status_code == 200 and done.json()["status"] == "ready"
    pdf = client.get(done.json()["pdf_url"])
    assert pdf["Content-Type"] == "application/pdf"
    assert hashlib.sha256(pdf.content).hexdigest() == done.json()["sha256"]


def test_the_proposal_page_makes_a_fixed_number_of_queries(owner, owner_client, cell):
    """The versions, and for an editor the check before building (the rules
    and the cost lines of the cell), whatever the number of versions."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = reverse("compliance:proposal", args=[cell.pk])
    counts = []
    for total in (1, 12):
        while ProposalDocument.objects.filter(proposal__cell=cell).count() < total:
            proposal_request(cell=cell, actor=owner, language="en", sections=ALL)
        with CaptureQueriesContext(connection) as queries:
            response = owner_client.get(url)
        assert response.text.count('class="document status-pending"') == total
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 20, counts


def test_proposal_number_names_project_and_cell(cell):
    assert proposal_services.proposal_number(cell) == (
        f"CSP-{cell.project_id:04d}-{cell.pk:04d}"
    )


def test_the_proposal_data_carries_the_apps_own_numbers(owner, guarded_cell):
    from cells.models import Device
    from compliance.proposals.data import proposal_data

    opening = guarded_cell.segments.get().openings.get()
    Device.objects.create(
        cell=guarded_cell,
        opening=opening,
        label="LC1",
        kind="light_curtain",
        response_time_ms=20,
        detection_capability_mm=14,
        iec61496_type=4,
        x1_mm=1000,
        y1_mm=0,
        x2_mm=1800,
        y2_mm=0,
        detection_lower_mm=300,
        detection_upper_mm=2000,
    )
    guarded_cell.stopping_time_ms = 300
    guarded_cell.hazard_zone_height_mm = 1400
    guarded_cell.save()
    document = proposal_request(
        cell=guarded_cell, actor=owner, language="en", sections=ALL
    )
    data = proposal_data(document)
    findings = api(owner).get(f"/api/v1/cells/{guarded_cell.pk}/findings/").json()
    distance = next(
        f
        for group in findings["groups"]
        for f in group["findings"]
        if group["rule"]["id"] == "INTL-13855-distance"
    )
    shown = data.cell.distances[0]
    assert shown.device == "LC1"
    assert shown.required_mm == distance["numbers"]["required_mm"]
    # ISO 13855 (d = 14 mm, C = 0): 2000 mm/s × 0.32 s = 640 mm is over 500 mm,
    # so S is taken again with K = 1600 mm/s: 1600 × 0.32 = 512 mm (≥ 500).
    assert shown.required_mm == 512
    lines = api(owner).get(f"/api/v1/cells/{guarded_cell.pk}/line-items/").json()
    usd = next(t for t in lines["totals"] if t.get("currency") == "USD")
    total = next(t for t in data.costs.totals if t.currency == "USD")
    assert (str(total.low), str(total.high)) == (usd["low"], usd["high"])
    row = next(r for r in data.findings if r.rule_id == "INTL-13855-distance")
    assert "required 512 mm" in row.numbers
    assert all("/work/shared" not in item.source for item in data.costs.items)


def test_the_register_is_the_latest_signed_revision_not_a_newer_draft(
    cell, revision, hazard, safety_engineer
):
    from compliance.assessment import services
    from compliance.proposals.data import proposal_data

    submitted = services.revision_submit(revision=revision, actor=safety_engineer)
    signed = sign_revision(submitted, safety_engineer)
    services.revision_start_next(revision=signed, actor=safety_engineer)  # draft 2
    document = proposal_request(
        cell=cell, actor=safety_engineer, language="en", sections=["risk"]
    )
    risk = proposal_data(document).risk
    assert (risk.signed, risk.revision) == (True, 1)
    assert risk.content_hash == signed.content_hash
    (row,) = risk.hazards
    # S2, F2, P1 on the ISO 13849-1 risk graph: PLr d.
    assert row.plr == "d"
    assert build_document(document.pk, claim="t") == "ready"
    document.refresh_from_db()
    text = text_of(bytes(document.pdf))
    assert signed.content_hash in text.replace("\n", "")
    assert "DRAFT" not in text


def test_the_stored_data_rebuilds_the_same_pdf(
    owner, guarded_cell, django_capture_on_commit_callbacks
):
    from compliance.proposals.pdf.builder import build_proposal_pdf
    from compliance.proposals.pdf.data import ProposalData

    with django_capture_on_commit_callbacks(execute=True):
        document = proposal_request(
            cell=guarded_cell, actor=owner, language="ko", sections=ALL
        )
    document.refresh_from_db()
    rebuilt = build_proposal_pdf(ProposalData.model_validate(document.data))
    assert hashlib.sha256(rebuilt).hexdigest() == document.sha256


def test_a_failed_version_is_built_again(
    owner, owner_client, guarded_cell, monkeypatch, django_capture_on_commit_callbacks
):
    def broken(data):
        raise ValueError("out of paper")

    monkeypatch.setattr("compliance.proposals.pdf.builder.build_proposal_pdf", broken)
    with django_capture_on_commit_callbacks(execute=True):
        document = proposal_request(
            cell=guarded_cell, actor=owner, language="en", sections=ALL
        )
    page = owner_client.get(reverse("compliance:proposal", args=[guarded_cell.pk]))
    assert "out of paper" in page.text and "Build again" in page.text
    monkeypatch.undo()
    url = reverse("compliance:proposal_document_retry", args=[document.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(url, HTTP_HX_REQUEST="true")
    # The row comes back waiting, and polls until the task has built it.
    assert 'hx-trigger="every 1s"' in response.text
    document.refresh_from_db()
    assert (document.status, document.version, document.attempts) == ("ready", 1, 2)
    assert document.error == ""


def test_a_fresh_pending_version_is_not_sent_twice(owner, viewer_client, guarded_cell):
    from django.core.exceptions import ValidationError

    from compliance.proposals.services import proposal_retry

    document = proposal_request(
        cell=guarded_cell, actor=owner, language="en", sections=ALL
    )
    with pytest.raises(ValidationError):
        proposal_retry(document=document, actor=owner)
    url = reverse("compliance:proposal_document_retry", args=[document.pk])
    assert viewer_client.post(url).status_code == 403


def test_the_function_names_are_read_once_not_once_per_finding(
    owner, guarded_cell, monkeypatch
):
    """The proposal's data read what names the cell's functions again for
    each finding: at the large cell's 776 findings, 2 s of a 3.7 s task."""
    from compliance.proposals import data as proposal_data_module

    for n in range(6):  # enough for several findings
        GuardSegmentFactory(
            cell=guarded_cell, start_y_mm=500 * (n + 1), end_y_mm=500 * (n + 1)
        )
    document = proposal_request(
        cell=guarded_cell, actor=owner, language="en", sections=ALL
    )
    calls = []
    real = proposal_data_module.function_names
    monkeypatch.setattr(
        proposal_data_module,
        "function_names",
        lambda cell: calls.append(cell.pk) or real(cell),
    )
    data = proposal_data_module.proposal_data(document)
    assert len(data.findings) > 5
    assert calls == [guarded_cell.pk]
    # Kept with the findings: asked again, in the same language, none is
    # rendered again; in the other language they are.
    proposal_data_module.proposal_data(document)
    assert calls == [guarded_cell.pk]
    document.language = "ko"
    korean = proposal_data_module.proposal_data(document)
    assert calls == [guarded_cell.pk, guarded_cell.pk]
    assert [f.rule_id for f in korean.findings] == [f.rule_id for f in data.findings]


def test_a_build_leaves_the_cycle_collector_as_it_found_it(
    owner, guarded_cell, monkeypatch
):
    import gc

    from compliance.proposals import building

    seen = []
    read, build = building.proposal_data, building.builder.build_proposal_pdf
    monkeypatch.setattr(
        building,
        "proposal_data",
        lambda document: seen.append(("data", gc.isenabled())) or read(document),
    )
    monkeypatch.setattr(
        building.builder,
        "build_proposal_pdf",
        lambda data: seen.append(("pdf", gc.isenabled())) or build(data),
    )
    document = proposal_request(
        cell=guarded_cell, actor=owner, language="en", sections=ALL
    )
    ProposalDocument.objects.filter(pk=document.pk).update(
        status=ProposalDocument.Status.PENDING, claim="", attempts=0
    )
    seen.clear()
    assert build_document(document.pk, claim="test") == "ready"
    # Process-wide state is the worker's to set (building.prepare_worker):
    # a build in a web process must not pause the collector of its threads.
    assert seen == [("data", True), ("pdf", True)]
    assert gc.isenabled()


def test_a_worker_process_sets_aside_what_it_loaded_as_it_starts():
    import gc

    from celery.signals import worker_process_init
    from reportlab.pdfbase import pdfmetrics

    from compliance.documents.fonts import BOLD, REGULAR
    from compliance.proposals import tasks  # noqa: F401  connects the handler
    from compliance.proposals.building import WORKER_GC_THRESHOLD

    # (A test module that imports the WSGI application has frozen what was
    # loaded then, as a web process does: config.process.)
    frozen = gc.get_freeze_count()
    threshold = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        worker_process_init.send(sender=None)
        assert gc.get_freeze_count() > frozen
        assert gc.get_threshold() == WORKER_GC_THRESHOLD != (700, 10, 10)
        assert {REGULAR, BOLD} <= set(pdfmetrics.getRegisteredFontNames())
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
