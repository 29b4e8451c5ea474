"""A whole worker (its main process, pool and beat) killed with SIGKILL in the
middle of a batch, then started again: every proposal is built, once.

Nothing of the dead worker is left to hand its tasks back, so recovery rests
on the limits: Redis returns the messages it held after the visibility
timeout, and beat's sweep sends again the rows whose claim has expired. The
limits are shortened for the test (a 1 s build under a 10 s soft and 12 s
hard limit, a 3 s margin, a sweep every 2 s), as an operator would set them
through the same environment variables.

Runs where CI runs it: PostgreSQL (DATABASE_URL) and Redis (REDIS_URL)."""

from __future__ import annotations

import hashlib
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from compliance.models import ProposalDocument
from compliance.proposals.services import proposal_request
from tests.worker.conftest import kill_and_settle, needs_services

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    needs_services,
]

SECTIONS = ["summary", "cell", "costs", "terms"]
BATCH = 20
RECOVERY_ENV = {
    "SLOW_BUILD_SECONDS": "1",
    "CELERY_TASK_SOFT_TIME_LIMIT": "10",
    "CELERY_TASK_TIME_LIMIT": "12",
    "CELERY_CLAIM_MARGIN": "3",
    "CELERY_RECOVER_EVERY": "2",
}


def _counts(documents) -> dict[str, int]:
    counts = dict.fromkeys(ProposalDocument.Status.values, 0)
    for status in documents.values_list("status", flat=True):
        counts[status] += 1
    return counts


def _just_started(documents) -> bool:
    """A build began under half a second ago: killed now, it is cut short."""
    since = timezone.now() - timedelta(seconds=0.5)
    return documents.filter(status="processing", started_at__gte=since).exists()


def _wait(documents, predicate, timeout: float) -> dict[str, int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        counts = _counts(documents)
        if predicate(counts):
            return counts
        time.sleep(0.05)
    errors = set(documents.exclude(error="").values_list("error", flat=True))
    raise AssertionError(f"timed out after {timeout} s: {_counts(documents)} {errors}")


def test_a_worker_killed_mid_batch_and_restarted_builds_every_proposal_once(
    start_worker, owner, guarded_cell, tmp_path
):
    def worker(name: str):
        return start_worker(
            ["-m", "tests.worker.slow_worker"],
            env=RECOVERY_ENV,
            concurrency=2,
            # Beat inside the worker: its sweep dies with it, as on a lost host.
            extra=["--beat", f"--schedule={tmp_path / name}"],
        )

    first = worker("beat-1")
    for number in range(BATCH):
        proposal_request(
            cell=guarded_cell,
            actor=owner,
            language="en" if number % 2 else "ko",
            sections=SECTIONS,
        )
    documents = ProposalDocument.objects.filter(proposal__cell=guarded_cell)
    _wait(documents, lambda c: c["ready"] >= 3 and _just_started(documents), 60)
    kill_and_settle(first)  # mid-batch: some built, some being built, most waiting
    interrupted = set(
        documents.filter(status="processing").values_list("pk", flat=True)
    )
    assert interrupted and _counts(documents)["pending"] > 0

    restarted = time.monotonic()
    worker("beat-2")
    _wait(documents, lambda c: c["ready"] == BATCH, 60)
    assert time.monotonic() - restarted < 60

    rows = list(documents.order_by("language", "version"))
    # One row, one PDF per version (counted within each language): nothing
    # made twice, nothing lost.
    half = BATCH // 2
    assert [(row.language, row.version) for row in rows] == [
        *(("en", n) for n in range(1, half + 1)),
        *(("ko", n) for n in range(1, BATCH - half + 1)),
    ]
    for row in rows:
        pdf = bytes(row.pdf)
        assert pdf.startswith(b"%PDF") and row.sha256 == hashlib.sha256(pdf).hexdigest()
        # A build cut short by the kill was started once more; no other was
        # started twice.
        assert row.attempts == (2 if row.pk in interrupted else 1), row.version
