"""Proposals built by real Celery worker processes over Redis, against the
PostgreSQL test database: end to end, and with the worker's process killed
mid-task (the broker delivers the task again; the document is made once).

Runs where CI runs it: PostgreSQL (DATABASE_URL) and Redis (REDIS_URL)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from compliance.models import ProposalDocument
from compliance.proposals.services import proposal_request
from config.celery import app
from tests.factories import GuardSegmentFactory, OpeningFactory

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("REDIS_URL", "")
ALL = ["summary", "cell", "rules", "risk", "findings", "costs", "schedule", "terms"]

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres") or not REDIS_URL,
        reason="needs PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), as in CI",
    ),
]


@pytest.fixture
def broker():
    """Send tasks to Redis instead of running them in-process."""
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    _drop_connections()
    app.conf.update(broker_url=REDIS_URL, task_always_eager=False)
    yield REDIS_URL
    app.conf.update(saved)
    _drop_connections()


def _drop_connections() -> None:
    """Forget the app's connection pools, so the next ones are made for the
    broker now configured (Celery makes them on first use, and resets them the
    same way in a forked process)."""
    app._after_fork()


def _database_url() -> str:
    settings = connection.settings_dict
    return (
        f"postgres://{settings['USER']}@{settings['HOST'] or '127.0.0.1'}:"
        f"{settings['PORT'] or 5432}/{settings['NAME']}"
    )


@pytest.fixture
def start_worker(broker):
    """Start a worker process (one pool child) on the test database."""
    processes = []

    def start(module: list[str]) -> subprocess.Popen:
        env = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "CELERY_BROKER_URL": broker,
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        process = subprocess.Popen(
            [
                sys.executable,
                *module,
                "--loglevel=INFO",
                "--concurrency=1",
                "--pool=prefork",
                "--without-heartbeat",
                "--without-gossip",
                "--without-mingle",
                f"--hostname=test-{len(processes)}@%h",
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        processes.append(process)
        return process

    yield start
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        output = process.stdout.read().decode(errors="replace")
        print(output[-4000:])  # shown when a test fails


def wait_for(document, predicate, timeout: float = 90):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        document.refresh_from_db()
        if predicate(document):
            return document
        time.sleep(0.2)
    raise AssertionError(f"timed out: {document.status} {document.error}")


@pytest.fixture
def guarded_cell(cell):
    segment = GuardSegmentFactory(cell=cell, label="F1")
    OpeningFactory(segment=segment, label="Infeed", purpose="material_entry")
    return cell


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
