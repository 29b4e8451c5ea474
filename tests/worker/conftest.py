"""Real Celery worker processes over Redis, against the PostgreSQL test
database: the broker, a way to start workers (each stopped by its process
group id at the end), and waiting for rows to change."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from config.celery import app
from tests.factories import GuardSegmentFactory, OpeningFactory

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("REDIS_URL", "")

needs_services = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres") or not REDIS_URL,
    reason="needs PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), as in CI",
)


@pytest.fixture
def broker():
    """Send tasks to Redis instead of running them in-process."""
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    drop_connections()
    app.conf.update(broker_url=REDIS_URL, task_always_eager=False)
    yield REDIS_URL
    app.conf.update(saved)
    drop_connections()


def drop_connections() -> None:
    """Forget the app's connection pools, so the next ones are made for the
    broker now configured (Celery makes them on first use, and resets them the
    same way in a forked process)."""
    app._after_fork()


def _database_url(application_name: str) -> str:
    settings = connection.settings_dict
    return (
        f"postgres://{settings['USER']}@{settings['HOST'] or '127.0.0.1'}:"
        f"{settings['PORT'] or 5432}/{settings['NAME']}"
        f"?application_name={application_name}"
    )


@pytest.fixture
def start_worker(broker, tmp_path):
    """Start a worker process on the test database: ``start(module, env=...,
    concurrency=..., extra=[...])``. Each runs in its own session, so its
    group (the main process, its pool and an embedded beat) is killed by id."""
    processes = []

    def start(
        module: list[str],
        *,
        env: dict[str, str] | None = None,
        concurrency: int = 1,
        extra: list[str] | None = None,
    ) -> subprocess.Popen:
        name = f"test-worker-{os.getpid()}-{len(processes)}"
        # A file, not a pipe: a pipe nobody reads fills and stalls the worker.
        log = (tmp_path / f"{name}.log").open("wb")
        environment = {
            **os.environ,
            "DATABASE_URL": _database_url(name),
            "CELERY_BROKER_URL": broker,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            **(env or {}),
        }
        process = subprocess.Popen(
            [
                sys.executable,
                *module,
                "--loglevel=INFO",
                f"--concurrency={concurrency}",
                "--pool=prefork",
                "--without-heartbeat",
                "--without-gossip",
                "--without-mingle",
                f"--hostname=test-{len(processes)}@%h",
                *(extra or []),
            ],
            cwd=ROOT,
            env=environment,
            start_new_session=True,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()  # the worker holds its own copy
        process.log_path = tmp_path / f"{name}.log"
        process.application_name = name  # its database sessions are named so
        processes.append(process)
        return process

    yield start
    for process in processes:
        kill_group(process)
        output = process.log_path.read_text(errors="replace")
        print(output[-6000:])  # shown when a test fails


def kill_group(process: subprocess.Popen) -> None:
    """SIGKILL a worker's whole process group (by its id) and reap it."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


def kill_and_settle(process: subprocess.Popen, timeout: float = 10) -> None:
    """Kill a worker's group, then wait until the database has ended its
    sessions: a COMMIT sent just before the kill still lands, so the rows are
    only read once nothing of the dead worker can change them."""
    kill_group(process)
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                [process.application_name],
            )
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.05)
    raise AssertionError("the killed worker's database sessions did not end")


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
