"""``/healthz`` for load balancers: 200 only when the database and the broker
(when one is configured) answer; 503 naming what is down, never a host."""

from __future__ import annotations

import os
import socket
import threading
import time

import pytest
from django.db import connections

from config import views
from config.celery import app

REDIS_URL = os.environ.get("REDIS_URL", "")


class _Connections:
    def __init__(self, *wrappers):
        self.wrappers = wrappers

    def all(self):
        return list(self.wrappers)


@pytest.fixture
def database_down(monkeypatch):
    """The app's database, but where nothing answers: a real failed connect."""
    default = connections["default"]
    settings = dict(default.settings_dict)
    if default.vendor == "postgresql":
        settings.update(HOST="127.0.0.1", PORT="1")
    else:
        settings.update(NAME="/nonexistent/directory/db.sqlite3")
    unreachable = type(default)(settings, alias="unreachable")
    monkeypatch.setattr(views, "connections", _Connections(unreachable))
    yield
    unreachable.close()


@pytest.fixture
def broker(monkeypatch):
    """Configure a broker for the check (the tests run tasks in-process)."""

    def use(url: str) -> None:
        monkeypatch.setitem(app.conf, "broker_url", url)
        monkeypatch.setitem(app.conf, "task_always_eager", False)

    return use


@pytest.mark.django_db
def test_healthz_is_200_when_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "down": [],
        "checks": {"database": "ok", "broker": "not configured"},
    }
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_is_503_naming_the_database_when_it_is_down(client, database_down):
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "down": ["database"],
        "checks": {"database": "down", "broker": "not configured"},
    }


@pytest.mark.django_db
def test_healthz_is_503_naming_the_broker_when_it_is_down(client, broker):
    broker("redis://127.0.0.1:1/0")  # nothing listens there
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert (body["down"], body["checks"]["database"]) == (["broker"], "ok")
    assert "127.0.0.1" not in response.text


@pytest.mark.django_db
@pytest.mark.skipif(not REDIS_URL, reason="needs Redis (REDIS_URL), as in CI")
def test_healthz_is_200_with_a_broker_that_answers(client, broker):
    broker(REDIS_URL)
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "broker": "ok"}


@pytest.fixture
def silent_database(monkeypatch):
    """A PostgreSQL server that takes the connection and never answers: what a
    hung or half-dead database looks like to a client. Whatever the tests'
    own database is (psycopg is installed either way)."""
    from django.db.backends.postgresql.base import DatabaseWrapper

    server = socket.create_server(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    settings = {
        **connections["default"].settings_dict,
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "planner",
        "USER": "planner",
        "PASSWORD": "",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "OPTIONS": {},
    }
    silent = DatabaseWrapper(settings, alias="silent")
    monkeypatch.setattr(views, "connections", _Connections(silent))
    yield
    server.close()  # a check still waiting gets its answer: refused
    silent.close()


@pytest.mark.django_db
def test_healthz_is_503_in_seconds_when_the_database_does_not_answer(
    client, silent_database
):
    answered: list = []

    def ask() -> None:
        try:
            answered.append(client.get("/healthz"))
        finally:
            connections.close_all()  # this thread's own

    # In a thread, so that a check without a timeout fails the test, not hangs.
    check = threading.Thread(target=ask, daemon=True)
    started = time.monotonic()

    check.start()
    check.join(timeout=views.DATABASE_TIMEOUT_S + 5)

    assert answered, "the health check was still waiting for the database"
    assert time.monotonic() - started < views.DATABASE_TIMEOUT_S + 5
    (response,) = answered
    assert response.status_code == 503
    assert response.json()["down"] == ["database"]
