"""The proposal's preview (issue 15): before building a version, the SA sees
the PDF's pages as images, drawn by a worker with the choices and texts as
they stand; no version is made. One preview per proposal and language, the
next replacing it; bounded; its images for the organisation's members only."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from PIL import Image
from pypdf import PdfReader

from compliance.models import ProposalDocument, ProposalPreview, ProposalPreviewPage
from compliance.proposals import previewing, services, tasks
from compliance.proposals.building import claim_lifetime
from compliance.proposals.pdf import pages as pdf_pages
from compliance.proposals.pdf.data import SECTIONS
from tests.compliance.proposals.demo import text_of
from tests.compliance.proposals.test_recovery import MESSAGE, broker_down
from tests.factories import GuardSegmentFactory, OpeningFactory

pytestmark = pytest.mark.django_db

ALL = list(SECTIONS)
A4_RATIO = 297 / 210


@pytest.fixture
def guarded_cell(cell):
    segment = GuardSegmentFactory(cell=cell, label="F1")
    OpeningFactory(segment=segment, label="Infeed", purpose="material_entry")
    return cell


@pytest.fixture
def drawn_pdfs(monkeypatch):
    """The PDFs the previews were drawn from, as the worker built them."""
    seen: list[bytes] = []
    real = previewing.page_images

    def recording(pdf, **bounds):
        seen.append(pdf)
        return real(pdf, **bounds)

    monkeypatch.setattr(previewing, "page_images", recording)
    return seen


def preview_url(cell) -> str:
    return reverse("compliance:proposal_preview_request", args=[cell.pk])


def ask(client, cell, capture, **fields):
    """Preview asked for on the Proposal tab (htmx), drawn in-process once
    the request's transaction commits."""
    with capture(execute=True):
        return client.post(
            preview_url(cell),
            {"language": "en", "sections": ALL, **fields},
            HTTP_HX_REQUEST="true",
        )


def test_a_preview_shows_the_pdfs_pages_as_images_and_makes_no_version(
    owner, owner_client, guarded_cell, drawn_pdfs, django_capture_on_commit_callbacks
):
    asked = ask(owner_client, guarded_cell, django_capture_on_commit_callbacks)
    # Answered while it is drawn: the preview polls.
    assert asked.status_code == 202
    assert 'hx-trigger="every 1s"' in asked.text and "Being drawn" in asked.text
    preview = ProposalPreview.objects.get()
    polled = owner_client.get(
        reverse("compliance:proposal_preview", args=[preview.pk]),
        HTTP_HX_REQUEST="true",
    )
    assert polled.status_code == 200 and "hx-trigger" not in polled.text
    assert not ProposalDocument.objects.exists()  # no version made

    # As many images as the PDF has pages: the one the worker drew, and the
    # version built next from the same choices.
    (pdf,) = drawn_pdfs
    count = len(PdfReader(io.BytesIO(pdf)).pages)
    preview.refresh_from_db()
    assert preview.page_count == count > 1
    assert preview.pages.count() == count
    assert polled.text.count("<img ") == count
    assert f"{count} pages" in polled.text
    version = services.proposal_request(
        cell=guarded_cell, actor=owner, language="en", sections=ALL, notes=[]
    )
    from compliance.proposals.building import build_document

    build_document(version.pk, claim="t")
    version.refresh_from_db()
    assert len(PdfReader(io.BytesIO(bytes(version.pdf))).pages) == count
    # The preview is the version as it would be: numbered as the next one.
    assert "version 1" in text_of(pdf)

    # Each page a real PNG of an A4 page, 800 px wide; its thumbnail 200.
    url = reverse("compliance:proposal_preview_page", args=[preview.pk, 1])
    image = owner_client.get(url)
    assert image["Content-Type"] == "image/png"
    assert "private" in image["Cache-Control"]
    with Image.open(io.BytesIO(image.content)) as png:
        assert png.format == "PNG"
        width, height = png.size
        # A page, not a blank: more than one colour on it.
        assert len(png.convert("L").getcolors(maxcolors=256) or range(257)) > 1
    assert width == ProposalPreview.WIDTH_PX
    assert height / width == pytest.approx(A4_RATIO, abs=0.01)
    thumbnail = owner_client.get(url, {"size": "thumbnail"})
    with Image.open(io.BytesIO(thumbnail.content)) as png:
        assert png.format == "PNG" and png.size[0] == ProposalPreview.THUMBNAIL_PX
        assert png.size[1] / png.size[0] == pytest.approx(A4_RATIO, abs=0.02)
    # Each linked to the larger image, at an address of this build.
    assert f'href="{url}?v={preview.stamp}"' in polled.text


def test_the_preview_uses_the_choices_and_the_texts_as_they_stand(
    owner, owner_client, guarded_cell, drawn_pdfs, django_capture_on_commit_callbacks
):
    services.proposal_texts_save(
        cell=guarded_cell,
        actor=owner,
        language="en",
        summary="Our summary, for the preview.",
    )
    ask(
        owner_client,
        guarded_cell,
        django_capture_on_commit_callbacks,
        sections=["summary", "findings"],
        passes_shown="omitted",
    )
    text = text_of(drawn_pdfs[0])
    assert "Our summary, for the preview." in text
    # Passes left out: counted, not listed (how many depends on the packs).
    assert re.search(r"passed; (it is|they are) not listed here", text)
    assert "Safeguards and line items" not in text  # a section left out
    # The choices are kept for the version to build.
    page = owner_client.get(reverse("compliance:proposal", args=[guarded_cell.pk]))
    assert re.search(r'value="omitted"[^>]*checked', page.text)


def test_a_preview_is_bounded_and_says_how_many_pages_it_shows(
    owner_client, guarded_cell, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(ProposalPreview, "MAX_PAGES", 3)
    ask(owner_client, guarded_cell, django_capture_on_commit_callbacks)
    preview = ProposalPreview.objects.get()
    assert preview.pages.count() == 3 < preview.page_count
    shown = owner_client.get(reverse("compliance:proposal_preview", args=[preview.pk]))
    assert shown.text.count("<img ") == 3
    assert f"{preview.page_count} pages · the first 3 shown" in shown.text
    missing = reverse("compliance:proposal_preview_page", args=[preview.pk, 4])
    assert owner_client.get(missing).status_code == 404


def test_page_images_are_drawn_within_their_bounds():
    from compliance.proposals.pdf.builder import build_proposal_pdf
    from tests.compliance.proposals.pdf.samples import sample_proposal

    pdf = build_proposal_pdf(sample_proposal())
    drawn = pdf_pages.page_images(pdf, width_px=300, thumbnail_px=60, max_pages=2)
    assert drawn.page_count == len(PdfReader(io.BytesIO(pdf)).pages) > 2
    assert [p.number for p in drawn.pages] == [1, 2]
    for page in drawn.pages:
        with Image.open(io.BytesIO(page.png)) as png:
            assert png.size == (page.width_px, page.height_px) and png.width == 300


def test_a_new_preview_replaces_the_one_before_in_its_language(
    owner_client, guarded_cell, django_capture_on_commit_callbacks
):
    ask(owner_client, guarded_cell, django_capture_on_commit_callbacks)
    first = ProposalPreview.objects.get()
    first_stamp, first_pages = (
        first.stamp,
        set(first.pages.values_list("pk", flat=True)),
    )
    ask(
        owner_client,
        guarded_cell,
        django_capture_on_commit_callbacks,
        sections=["summary"],
    )
    again = ProposalPreview.objects.get()
    assert again.pk == first.pk and again.stamp != first_stamp
    assert again.sections == ["summary"] and again.page_count < len(first_pages)
    assert not set(again.pages.values_list("pk", flat=True)) & first_pages
    # Another language is its own preview.
    ask(owner_client, guarded_cell, django_capture_on_commit_callbacks, language="ko")
    assert ProposalPreview.objects.count() == 2
    page = owner_client.get(reverse("compliance:proposal", args=[guarded_cell.pk]))
    assert page.text.count('class="preview status-ready"') == 2


def test_a_build_of_the_preview_replaced_meanwhile_writes_nothing(
    owner, guarded_cell, monkeypatch
):
    preview = services.proposal_preview_request(
        cell=guarded_cell, actor=owner, language="en", sections=ALL
    )  # its task is not run: no on-commit here
    real = previewing.page_images

    def asked_again_meanwhile(pdf, **bounds):
        services.proposal_preview_request(
            cell=guarded_cell, actor=owner, language="en", sections=["summary"]
        )
        return real(pdf, **bounds)

    monkeypatch.setattr(previewing, "page_images", asked_again_meanwhile)
    assert previewing.build_preview(preview.pk, claim="old-task") == "skipped"
    preview.refresh_from_db()
    assert (preview.status, preview.pages.count()) == ("pending", 0)
    monkeypatch.undo()
    assert previewing.build_preview(preview.pk, claim="new-task") == "ready"
    preview.refresh_from_db()
    assert preview.pages.count() == preview.page_count


def test_a_preview_whose_worker_died_is_drawn_again_by_the_sweep(owner, guarded_cell):
    preview = services.proposal_preview_request(
        cell=guarded_cell, actor=owner, language="en", sections=["summary"]
    )
    ProposalPreview.objects.filter(pk=preview.pk).update(
        status="processing",
        claim="lost-task",
        attempts=1,
        started_at=timezone.now() - claim_lifetime() - timedelta(seconds=1),
    )
    tasks.proposal_documents_recover()  # beat's sweep; the task runs eagerly
    preview.refresh_from_db()
    assert (preview.status, preview.attempts) == ("ready", 2)


def test_a_failed_preview_says_why(
    owner_client, guarded_cell, monkeypatch, django_capture_on_commit_callbacks
):
    def broken(data):
        raise ValueError("out of paper")

    monkeypatch.setattr("compliance.proposals.pdf.builder.build_proposal_pdf", broken)
    ask(owner_client, guarded_cell, django_capture_on_commit_callbacks)
    preview = ProposalPreview.objects.get()
    assert preview.status == "failed" and "out of paper" in preview.error
    page = owner_client.get(reverse("compliance:proposal", args=[guarded_cell.pk]))
    assert "out of paper" in page.text


@pytest.mark.django_db(transaction=True)
def test_with_the_broker_down_a_preview_answers_503_and_polls_nothing(
    owner_client, guarded_cell
):
    with broker_down():
        response = owner_client.post(
            preview_url(guarded_cell), {"language": "en", "sections": ALL}
        )
    assert response.status_code == 503 and MESSAGE in response.text
    preview = ProposalPreview.objects.get()
    assert (preview.status, preview.error) == ("failed", MESSAGE)
    page = owner_client.get(reverse("compliance:proposal", args=[guarded_cell.pk]))
    assert "hx-trigger" not in page.text


def test_bad_input_is_a_form_error_and_nothing_is_drawn(owner_client, guarded_cell):
    response = owner_client.post(preview_url(guarded_cell), {"language": "fr"})
    assert response.status_code == 400
    assert "Choose at least one section." in response.text
    assert not ProposalPreview.objects.exists()


def test_a_preview_without_javascript_returns_to_the_tab(
    owner_client, guarded_cell, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(
            preview_url(guarded_cell), {"language": "en", "sections": ["summary"]}
        )
    assert response.status_code == 302
    assert response["Location"].endswith("#previews")
    page = owner_client.get(response["Location"])
    assert 'class="preview status-ready"' in page.text
    # Asked for by GET (a link followed): back to the tab, nothing drawn.
    again = owner_client.get(preview_url(guarded_cell))
    assert again.status_code == 302 and ProposalPreview.objects.count() == 1


def test_a_viewer_sees_the_preview_but_cannot_ask_for_one(
    owner, viewer_client, guarded_cell
):
    preview = services.proposal_preview_request(
        cell=guarded_cell, actor=owner, language="en", sections=["summary"]
    )
    previewing.build_preview(preview.pk, claim="t")
    page = viewer_client.get(reverse("compliance:proposal", args=[guarded_cell.pk]))
    assert page.status_code == 200
    assert 'class="preview status-ready"' in page.text
    assert "/proposal/preview/" not in page.text  # no Preview button
    image = reverse("compliance:proposal_preview_page", args=[preview.pk, 1])
    assert viewer_client.get(image).status_code == 200
    refused = viewer_client.post(
        preview_url(guarded_cell), {"language": "en", "sections": ALL}
    )
    assert refused.status_code == 403
    preview.refresh_from_db()
    assert preview.sections == ["summary"]  # unchanged


def test_another_organisations_preview_is_not_found(
    owner, client, outsider, guarded_cell
):
    preview = services.proposal_preview_request(
        cell=guarded_cell, actor=owner, language="en", sections=["summary"]
    )
    previewing.build_preview(preview.pk, claim="t")
    client.force_login(outsider)
    for url in (
        reverse("compliance:proposal_preview", args=[preview.pk]),
        reverse("compliance:proposal_preview_page", args=[preview.pk, 1]),
        reverse("compliance:proposal_preview_page", args=[preview.pk, 1])
        + "?size=thumbnail",
    ):
        assert client.get(url).status_code == 404, url
    refused = client.post(
        preview_url(guarded_cell), {"language": "en", "sections": ALL}
    )
    assert refused.status_code == 404
    assert ProposalPreview.objects.get().requested_by == owner


def test_the_tab_makes_a_fixed_number_of_queries_whatever_the_previews(
    owner, owner_client, guarded_cell
):
    url = reverse("compliance:proposal", args=[guarded_cell.pk])
    counts = []
    for language in ("en", "ko"):
        preview = services.proposal_preview_request(
            cell=guarded_cell, actor=owner, language=language, sections=ALL
        )
        previewing.build_preview(preview.pk, claim=f"t-{language}")
        with CaptureQueriesContext(connection) as queries:
            page = owner_client.get(url)
        assert page.text.count("<img ") == ProposalPreviewPage.objects.count()
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
