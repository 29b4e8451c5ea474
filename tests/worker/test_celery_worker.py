"""Proposals built by real Celery worker processes over Redis, against the
PostgreSQL test database: end to end, and with the worker's process killed
mid-task (the broker delivers the task again; the document is made once).

Runs where CI runs it: PostgreSQL (DATABASE_URL) and Redis (REDIS_URL)."""

from __future__ import annotations

import os
import signal

import pytest

from compliance.models import ProposalDocument
from compliance.proposals.services import proposal_request
from tests.worker.conftest import needs_services, wait_for

ALL = ["summary", "cell", "rules", "risk", "findings", "costs", "schedule", "terms"]

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    needs_services,
]


def test_a_worker_process_builds_the_proposal(start_worker, owner, guarded_cell):
    start_worker(["-m", "celery", "-A", "config", "worker"])
    document = proposal_request(
        cell=guarded_cell, actor=owner, language="ko", sections=ALL
    )
    document = wait_for(document, lambda d: d.finished)
    assert document.status == "ready", document.error
    assert document.attempts == 1
    assert bytes(document.pdf).startswith(b"%PDF")
    assert document.worker.split(":")[-1] != str(os.getpid())  # not this process


def test_a_worker_killed_mid_task_still_gives_one_document(
    start_worker, owner, guarded_cell
):
    start_worker(["-m", "tests.worker.slow_worker"])
    document = proposal_request(
        cell=guarded_cell, actor=owner, language="en", sections=ALL
    )
    document = wait_for(document, lambda d: d.status == "processing")
    pid = int(document.worker.rsplit(":", 1)[1])
    os.kill(pid, signal.SIGKILL)  # the pool process building it dies
    document = wait_for(document, lambda d: d.finished)
    assert document.status == "ready", document.error
    assert document.attempts == 2  # started twice, finished once
    assert ProposalDocument.objects.filter(proposal=document.proposal).count() == 1
    assert bytes(document.pdf).startswith(b"%PDF")
