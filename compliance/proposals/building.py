"""Building a proposal document, in a worker, exactly once.

The build claims the row under a lock, so a repeated or re-delivered task does
nothing once another holds the row or has finished it. A task delivered again
after its worker was lost carries the same id, so it takes up its own claim
and builds again; the builder is deterministic, and only the claim's holder
may write the result, so the document is produced once.

A claim expires: no build outlives the task's hard time limit (the worker
kills it), so a row still "processing" after that limit and a margin was
left by a worker that died, and may be taken again (``claim_expired``). A row
whose builds keep dying is failed after ``MAX_ATTEMPTS`` instead of being
taken again for ever."""

from __future__ import annotations

import gc
import hashlib
import logging
import os
import socket
from datetime import datetime, timedelta
from typing import TypeVar

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError, models, transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from compliance.documents.fonts import register_fonts
from compliance.proposals.data import proposal_data
from compliance.proposals.models import ProposalDocument
from compliance.proposals.pdf import builder

logger = logging.getLogger(__name__)

Status = ProposalDocument.Status
Row = TypeVar("Row", bound=models.Model)
# Starts of one row that did not finish (its worker died each time) before the
# row is failed: a cell whose build kills the worker must not loop for ever.
MAX_ATTEMPTS = 5


# The youngest generation is collected after this many allocations in a
# worker (Python's default: 700).
WORKER_GC_THRESHOLD = (50_000, 20, 20)


def prepare_worker() -> None:
    """Ready a worker process for builds, once as it starts: the fonts
    registered; everything loaded so far (Django, reportlab, the fonts, the
    catalogue) set aside from the cycle collector (``gc.freeze``), so that a
    collection walks only what was made since; and the youngest objects
    collected less often (``WORKER_GC_THRESHOLD``). A large proposal makes
    some hundred thousand short-lived objects, freed by reference counting;
    at Python's default the collector ran a young collection every 700 of
    them. Measured (``bench/proposal_pdf.py``'s large cell, interleaved runs
    in one process, frozen): its PDF 329 ms with the default, 290 ms with
    this threshold, 289 ms with the collector off. Process-wide, so it is the
    worker's own set-up (``tasks.worker_process_init``), never done by a
    build or in a web process."""
    register_fonts()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*WORKER_GC_THRESHOLD)


def claim_lifetime() -> timedelta:
    """How long a claim holds: the build task's hard time limit (after which
    the worker has killed it) and a margin for clocks and the kill itself."""
    return timedelta(
        seconds=settings.CELERY_TASK_TIME_LIMIT + settings.CELERY_CLAIM_MARGIN
    )


def claim_expired(now: datetime | None = None) -> datetime:
    """A "processing" row started before this was left by a dead worker."""
    return (now or timezone.now()) - claim_lifetime()


def _worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def claim_row(model: type[Row], pk: int, claim: str) -> Row | None:
    """Take the row (a version, or a preview) for this task, or None when
    there is nothing to do."""
    with transaction.atomic():
        row = model.objects.select_for_update().filter(pk=pk).first()
        if row is None or row.finished:
            return None
        now = timezone.now()
        if row.status == Status.PROCESSING:
            held = row.started_at and row.started_at >= claim_expired(now)
            if held and row.claim != claim:
                return None  # another task holds it
            # Its own redelivery after the worker was lost, or an expired claim:
            # the last start never finished.
            if row.attempts >= MAX_ATTEMPTS:
                row.status = Status.FAILED
                row.finished_at = now
                row.error = _(
                    "Stopped after %(attempts)d attempts that never finished: "
                    "the worker building it was lost each time."
                ) % {"attempts": row.attempts}
                row.save(update_fields=["status", "finished_at", "error"])
                return None
        row.status = Status.PROCESSING
        row.claim = claim
        row.attempts += 1
        row.started_at = now
        row.worker = _worker_name()
        row.save(update_fields=["status", "claim", "attempts", "started_at", "worker"])
        return row


def finish_row(model: type[models.Model], pk: int, claim: str, **fields) -> bool:
    """Write the outcome, only while this task still holds the claim."""
    return bool(
        model.objects.filter(pk=pk, status=Status.PROCESSING, claim=claim).update(
            finished_at=timezone.now(), **fields
        )
    )


def failure(exc: BaseException) -> str | None:
    """Why a build failed, for its row; None for a database error (transient:
    the task retries). Anything else is a bug or bad data: recorded, not
    retried."""
    if isinstance(exc, Http404):
        return _("The person who asked for it can no longer see this cell.")
    if isinstance(exc, SoftTimeLimitExceeded):
        return _("Building it took longer than %(seconds)d s and was stopped.") % {
            "seconds": settings.CELERY_TASK_SOFT_TIME_LIMIT
        }
    if isinstance(exc, (OperationalError, InterfaceError)):
        return None
    return f"{type(exc).__name__}: {exc}"[:2000]


def build_document(document_id: int, claim: str) -> str:
    """Build the PDF of one document: "ready", "failed", or "skipped" when
    the row is finished or held by another task. Database errors propagate
    (they are transient: the task retries); any other error fails the
    document with its message."""
    document = claim_row(ProposalDocument, document_id, claim)
    if document is None:
        return "skipped"
    try:
        data = proposal_data(document)
        pdf = builder.build_proposal_pdf(data)
    except Exception as exc:
        error = failure(exc)
        if error is None:
            raise  # transient: the task retries
        if isinstance(exc, SoftTimeLimitExceeded):
            logger.warning("Proposal document %s hit the time limit", document_id)
        elif not isinstance(exc, Http404):
            logger.exception("Proposal document %s failed", document_id)
        finish_row(
            ProposalDocument, document_id, claim, status=Status.FAILED, error=error
        )
        return "failed"
    written = finish_row(
        ProposalDocument,
        document_id,
        claim,
        status=Status.READY,
        pdf=pdf,
        sha256=hashlib.sha256(pdf).hexdigest(),
        size_bytes=len(pdf),
        data=data.model_dump(mode="json"),
        computed_under=data.computed_under,
        error="",
    )
    return "ready" if written else "skipped"
