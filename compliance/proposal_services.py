"""Proposal PDFs: requesting one (a new version of the cell's proposal, built
by a Celery task after the request commits) and building it, exactly once.

The build claims the row under a lock, so a repeated or re-delivered task does
nothing once another holds the row or has finished it. A task delivered again
after its worker was lost carries the same id, so it takes up its own claim
and builds again; the builder is deterministic, and only the claim's holder
may write the result, so the document is produced once."""

from __future__ import annotations

import hashlib
import logging
import os
import socket
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from cells.models import Cell
from cells.permissions import require_edit
from compliance.models import Proposal, ProposalDocument
from compliance.reports.data import SECTIONS

logger = logging.getLogger(__name__)

Status = ProposalDocument.Status
# A claim older than this is taken over: its worker is presumed gone without
# the broker noticing (a re-delivery normally comes much sooner).
STALE_CLAIM = timedelta(minutes=15)


def proposal_number(cell: Cell) -> str:
    return f"CSP-{cell.project_id:04d}-{cell.pk:04d}"


@transaction.atomic
def proposal_request(
    *, cell: Cell, actor, language: str, sections: list[str] | tuple[str, ...]
) -> ProposalDocument:
    """A new version of the cell's proposal, pending; the task that builds it
    is sent once the transaction commits."""
    from compliance.tasks import build_proposal

    require_edit(actor, cell.project.organisation_id)
    chosen = [s for s in SECTIONS if s in sections]
    proposal, _created = Proposal.objects.get_or_create(
        cell=cell, defaults={"number": proposal_number(cell), "created_by": actor}
    )
    # Lock the proposal so two requests cannot take the same version number.
    Proposal.objects.select_for_update().get(pk=proposal.pk)
    last = proposal.documents.aggregate(last=Max("version"))["last"] or 0
    document = ProposalDocument.objects.create(
        proposal=proposal,
        version=last + 1,
        language=language,
        sections=chosen,
        requested_by=actor,
    )
    build_proposal.delay_on_commit(document.pk)
    return document


def _worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _claim(document_id: int, claim: str) -> ProposalDocument | None:
    """Take the row for this task, or None when there is nothing to do."""
    with transaction.atomic():
        document = (
            ProposalDocument.objects.select_for_update().filter(pk=document_id).first()
        )
        if document is None or document.finished:
            return None
        now = timezone.now()
        if (
            document.status == Status.PROCESSING
            and document.claim != claim
            and document.started_at
            and now - document.started_at < STALE_CLAIM
        ):
            return None  # another task holds it
        document.status = Status.PROCESSING
        document.claim = claim
        document.attempts += 1
        document.started_at = now
        document.worker = _worker_name()
        document.save(
            update_fields=["status", "claim", "attempts", "started_at", "worker"]
        )
        return document


def _finish(document: ProposalDocument, claim: str, **fields) -> bool:
    """Write the outcome, only while this task still holds the claim."""
    return bool(
        ProposalDocument.objects.filter(
            pk=document.pk, status=Status.PROCESSING, claim=claim
        ).update(finished_at=timezone.now(), **fields)
    )


def build_document(document_id: int, claim: str) -> str:
    """Build the PDF of one document: "ready", "failed", or "skipped" when
    the row is finished or held by another task. Database errors propagate
    (they are transient: the task retries); any other error fails the
    document with its message."""
    from compliance.proposal_data import proposal_data
    from compliance.reports.builder import build_proposal_pdf

    document = _claim(document_id, claim)
    if document is None:
        return "skipped"
    try:
        data = proposal_data(document)
    except Http404:
        _finish(
            document,
            claim,
            status=Status.FAILED,
            error=_("The person who asked for it can no longer see this cell."),
        )
        return "failed"
    try:
        pdf = build_proposal_pdf(data)
    except Exception as exc:  # a bug or bad data: record it, do not retry
        logger.exception("Proposal document %s failed", document_id)
        _finish(
            document,
            claim,
            status=Status.FAILED,
            error=f"{type(exc).__name__}: {exc}"[:2000],
        )
        return "failed"
    written = _finish(
        document,
        claim,
        status=Status.READY,
        pdf=pdf,
        sha256=hashlib.sha256(pdf).hexdigest(),
        size_bytes=len(pdf),
        data=data.model_dump(mode="json"),
        error="",
    )
    return "ready" if written else "skipped"


@transaction.atomic
def proposal_retry(*, document: ProposalDocument, actor) -> ProposalDocument:
    """Build the same version again: after a failure, or when its task was
    lost. The claim makes a duplicate task harmless."""
    from compliance.tasks import build_proposal

    require_edit(actor, document.proposal.cell.project.organisation_id)
    document = ProposalDocument.objects.select_for_update().get(pk=document.pk)
    if not document.retryable:
        raise ValidationError(
            _("Only a failed document, or one long waiting, can be built again.")
        )
    document.status = Status.PENDING
    document.error = ""
    document.claim = ""
    document.save(update_fields=["status", "error", "claim"])
    build_proposal.delay_on_commit(document.pk)
    return document
