"""Celery tasks of proposals. Each takes ids and calls one service.

Every task has a soft time limit (the task is told, and records why it
stopped) and a hard one (the worker kills it). The build is the longest task:
the broker's visibility timeout and the claim's lifetime are its hard limit
and a margin (``config/settings.py``)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from compliance.proposals import previewing
from compliance.proposals.building import build_document


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
    # Imported here: the services send this module's tasks.
    from compliance.proposals.services import proposal_documents_recover

    return len(proposal_documents_recover())
