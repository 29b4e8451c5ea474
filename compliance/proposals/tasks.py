"""Celery tasks of proposals, how they are sent, and how a row whose worker
died is sent again. Each task takes ids and calls one function of
``building`` or ``previewing``; the services send them (never the reverse).

Every task has a soft time limit (the task is told, and records why it
stopped) and a hard one (the worker kills it). The build is the longest task:
the broker's visibility timeout and the claim's lifetime are its hard limit
and a margin (``config/settings.py``).

Sending: a task is sent once its row is committed (``send`` after
``transaction.on_commit``); when the broker cannot take it, the row's change
is undone and ``QueueUnavailable`` raised. Recovery: a row "processing" whose
claim has expired lost its worker; a poll of it (``proposal_document_recover``) or the
periodic sweep (``recover_documents``) gives it a new claim and sends it
again."""

from __future__ import annotations

import logging
from collections.abc import Callable

from celery import shared_task
from celery.signals import worker_process_init
from celery.utils import uuid
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy
from kombu.exceptions import OperationalError as BrokerError

from compliance.proposals import previewing
from compliance.proposals.building import (
    build_document,
    claim_expired,
    prepare_worker,
)
from compliance.proposals.models import ProposalDocument, ProposalPreview

logger = logging.getLogger(__name__)

Status = ProposalDocument.Status


@worker_process_init.connect
def _prepare_worker_process(**_kwargs) -> None:
    """Each pool process of a Celery worker, as it starts (not the web
    processes, where builds run in-process without a broker)."""
    prepare_worker()


@shared_task(
    # The name it had before the move, so messages queued then still run.
    name="compliance.tasks.build_proposal",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=5,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
)
def build_proposal(self, document_id: int) -> str:
    """Build a proposal PDF. Idempotent: see ``compliance.proposals.building``. Retries
    only a database that is briefly unreachable."""
    try:
        return build_document(document_id, claim=self.request.id or "")
    except (OperationalError, InterfaceError) as exc:
        if self.request.is_eager:
            raise
        raise self.retry(exc=exc, countdown=2 ** (self.request.retries + 1)) from exc


@shared_task(
    name="compliance.proposals.build_preview",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=5,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
)
def build_preview(self, preview_id: int) -> str:
    """Draw a proposal's preview as page images. Idempotent as the build of
    a version is (``compliance.proposals.previewing``)."""
    try:
        return previewing.build_preview(preview_id, claim=self.request.id or "")
    except (OperationalError, InterfaceError) as exc:
        if self.request.is_eager:
            raise
        raise self.retry(exc=exc, countdown=2 ** (self.request.retries + 1)) from exc


@shared_task(
    name="compliance.proposals.recover_documents",
    # A sweep touches a few rows; one that overran is simply the next one.
    soft_time_limit=10,
    time_limit=15,
    ignore_result=True,
)
def recover_documents() -> int:
    """Send again the documents and previews whose worker died (run by
    Celery beat)."""
    return len(proposal_documents_recover())


# --- sending -----------------------------------------------------------------


QUEUE_UNAVAILABLE = gettext_lazy(
    "The PDF service cannot be reached right now, so nothing was queued. "
    "Try again in a few minutes."
)
# Rows sent again per sweep: a sweep stays well inside its time limit.
RECOVER_BATCH = 100


class QueueUnavailable(Exception):
    """The broker could not be reached: the task was not sent."""

    def __init__(self) -> None:
        super().__init__(str(QUEUE_UNAVAILABLE))


def send(
    document_id: int,
    *,
    task_id: str | None = None,
    undo: Callable[[], object],
    task=None,
):
    """Send the build task now (a version's, or ``task``); when the broker
    cannot take it, undo the row's change and raise ``QueueUnavailable``."""
    task = task or build_proposal
    try:
        task.apply_async((document_id,), task_id=task_id)
    except BrokerError as exc:
        logger.error("%s of %s not queued: %s", task.name, document_id, exc)
        undo()
        raise QueueUnavailable from exc


# --- recovery after a lost worker -----------------------------------------


def _expired(rows: QuerySet) -> QuerySet:
    """Rows "processing" whose claim has expired: their worker died."""
    return rows.filter(status=Status.PROCESSING).filter(
        Q(started_at__lt=claim_expired()) | Q(started_at__isnull=True)
    )


# The task that builds each kind of row.
TASKS = {ProposalDocument: build_proposal, ProposalPreview: build_preview}


def _resend(pk: int, model=ProposalDocument) -> bool:
    """Give an expired row (a version, or a preview) a new claim and send
    the task that holds it. The conditional update makes this safe to run
    from several places at once: one takes the row, the others find it no
    longer expired. ``started_at`` becomes the new claim's start, so the row
    is not sent again meanwhile."""
    claim = uuid()
    taken = _expired(model.objects.filter(pk=pk)).update(
        claim=claim, started_at=timezone.now(), worker=""
    )
    if not taken:
        return False
    # Unsent, the new claim simply expires too and the next sweep sends it.
    send(pk, task_id=claim, undo=lambda: None, task=TASKS[model])
    return True


def proposal_document_recover(*, document: ProposalDocument | ProposalPreview) -> bool:
    """Claim on read: a polled row (a version, or a preview) whose worker
    died is sent again. Raises ``QueueUnavailable`` when the broker cannot
    take it."""
    if document.status != Status.PROCESSING:
        return False
    if document.started_at and document.started_at >= claim_expired():
        return False  # held: most polls end here, without a query
    return _resend(document.pk, type(document))


def proposal_documents_recover() -> list[int]:
    """The periodic sweep (Celery beat): send again every version and
    preview whose worker died, the oldest first. The ids of the versions
    sent."""
    sent: dict[type, list[int]] = {}
    for model in (ProposalDocument, ProposalPreview):
        expired = _expired(model.objects.all()).order_by("started_at")
        for pk in expired.values_list("pk", flat=True)[:RECOVER_BATCH]:
            if _resend(pk, model):
                sent.setdefault(model, []).append(pk)
    for model, ids in sent.items():
        logger.warning(
            "%s sent again after a lost worker: %s", model._meta.verbose_name, ids
        )
    return sent.get(ProposalDocument, [])
