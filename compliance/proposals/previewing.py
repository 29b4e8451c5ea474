"""Building a proposal's preview, in a worker (issue 15): the PDF as the next
version would be, with the proposal's choices and texts, drawn as page
images; no version is made and no PDF kept.

The row is claimed as a version's is (``building.claim_row``): a repeated or
re-delivered task does nothing once another holds the row or has finished
it. The pages are written with the outcome, under the claim, so a preview
asked for again meanwhile (which resets the row) never receives the pages
of the one it replaced."""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import Max
from django.http import Http404
from django.utils import timezone

from compliance.proposals.building import claim_row, failure, finish_row
from compliance.proposals.data import proposal_data
from compliance.proposals.models import (
    ProposalDocument,
    ProposalPreview,
    ProposalPreviewPage,
)
from compliance.proposals.pdf import builder
from compliance.proposals.pdf.pages import page_images

logger = logging.getLogger(__name__)

Status = ProposalPreview.Status


def as_next_version(preview: ProposalPreview) -> ProposalDocument:
    """The version that building now would make (not saved): numbered as the
    next one in the preview's language, dated today."""
    last = preview.proposal.documents.filter(language=preview.language).aggregate(
        last=Max("version")
    )["last"]
    return ProposalDocument(
        proposal=preview.proposal,
        version=(last or 0) + 1,
        language=preview.language,
        sections=preview.sections,
        rules_shown=preview.rules_shown,
        passes_shown=preview.passes_shown,
        requested_by=preview.requested_by,
        requested_at=timezone.now(),
    )


def build_preview(preview_id: int, claim: str) -> str:
    """Draw the pages of one preview: "ready", "failed", or "skipped" when
    the row is finished, held by another task, or was asked for again."""
    preview = claim_row(ProposalPreview, preview_id, claim)
    if preview is None:
        return "skipped"
    try:
        pdf = builder.build_proposal_pdf(proposal_data(as_next_version(preview)))
        drawn = page_images(
            pdf,
            width_px=ProposalPreview.WIDTH_PX,
            thumbnail_px=ProposalPreview.THUMBNAIL_PX,
            max_pages=ProposalPreview.MAX_PAGES,
        )
    except Exception as exc:
        error = failure(exc)
        if error is None:
            raise  # transient: the task retries
        if not isinstance(exc, Http404):
            logger.exception("Proposal preview %s failed", preview_id)
        finish_row(
            ProposalPreview, preview_id, claim, status=Status.FAILED, error=error
        )
        return "failed"
    with transaction.atomic():
        held = (
            ProposalPreview.objects.select_for_update()
            .filter(pk=preview_id, status=Status.PROCESSING, claim=claim)
            .exists()
        )
        if not held:
            return "skipped"
        ProposalPreviewPage.objects.filter(preview_id=preview_id).delete()
        ProposalPreviewPage.objects.bulk_create(
            ProposalPreviewPage(
                preview_id=preview_id,
                number=page.number,
                width_px=page.width_px,
                height_px=page.height_px,
                image=page.png,
                thumbnail=page.thumbnail,
            )
            for page in drawn.pages
        )
        finish_row(
            ProposalPreview,
            preview_id,
            claim,
            status=Status.READY,
            page_count=drawn.page_count,
            error="",
        )
    return "ready"
