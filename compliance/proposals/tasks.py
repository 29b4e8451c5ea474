"""Celery tasks of proposals. Each takes ids and calls one service."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from compliance.proposals.building import build_document


@shared_task(
    # The name it had before the move, so messages queued then still run.
    name="compliance.tasks.build_proposal",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=5,
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
