from __future__ import annotations

import copy
import logging

from django.db import DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

logger = logging.getLogger(__name__)

# A load balancer waits for the answer: a broker that does not connect in this
# long counts as down.
BROKER_TIMEOUT_S = 2
# The same for the database. psycopg waits 130 s for a server that takes the
# connection and never answers; libpq counts anything under 2 s as 2.
DATABASE_TIMEOUT_S = 3


def _probe(connection: BaseDatabaseWrapper) -> BaseDatabaseWrapper:
    """A new connection to ``connection``'s database that gives up after
    ``DATABASE_TIMEOUT_S``. The check's own, so that the app's connections
    keep their settings (no timeout of theirs changes, no pool is made)."""
    settings = copy.deepcopy(connection.settings_dict)
    options = settings.setdefault("OPTIONS", {})
    if connection.vendor == "postgresql":
        options.pop("pool", None)
        options["connect_timeout"] = DATABASE_TIMEOUT_S
    elif connection.vendor == "sqlite":
        options["timeout"] = DATABASE_TIMEOUT_S  # waiting for a lock
    settings["CONN_MAX_AGE"] = 0
    return type(connection)(settings, alias=f"{connection.alias}-healthz")


def _database_up() -> bool:
    for connection in connections.all():
        probe = _probe(connection)
        try:
            with probe.cursor() as cursor:
                cursor.execute("SELECT 1")
        except DatabaseError as exc:
            logger.warning("Health check: database down: %s", exc)
            return False
        finally:
            probe.close()
    return True


def _broker_up() -> bool | None:
    """None when no broker is configured (tasks run in-process)."""
    from config.celery import app

    if app.conf.task_always_eager or not app.conf.broker_url:
        return None
    try:
        with app.connection_for_write(connect_timeout=BROKER_TIMEOUT_S) as broker:
            broker.ensure_connection(
                max_retries=1, interval_start=0, timeout=BROKER_TIMEOUT_S
            )
    except Exception as exc:  # any failure to connect means down
        logger.warning("Health check: broker down: %s", exc)
        return False
    return True


def _report(checks: dict[str, bool | None]) -> JsonResponse:
    """200 when every configured check is up, else 503 naming what is down;
    each check as "ok", "down" or "not configured"."""
    down = [name for name, up in checks.items() if up is False]
    body = {
        "status": "unavailable" if down else "ok",
        "down": down,
        "checks": {
            name: "not configured" if up is None else ("ok" if up else "down")
            for name, up in checks.items()
        },
    }
    return JsonResponse(body, status=503 if down else 200)


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """For load balancers: 200 when the database and the broker (when one is
    configured) answer, 503 naming what is down otherwise. Names no hosts."""
    checks = {"database": _database_up(), "broker": _broker_up()}
    return _report(checks)


def _cache_up() -> bool | None:
    """None when the cache is this process's own (no CACHE_URL)."""
    from django.core.cache import caches

    cache = caches["default"]
    ping = getattr(cache, "ping", None)
    if ping is None:
        return None
    try:
        ping()
    except Exception as exc:  # any failure to answer means down
        logger.warning("Readiness check: cache down: %s", exc)
        return False
    return True


@never_cache
def readyz(request: HttpRequest) -> JsonResponse:
    """Readiness, for a load balancer deciding where to send traffic: the
    database, the broker and the cache each (those configured), 503 naming
    what is down. ``/healthz`` stays the liveness check, and does not look at
    the cache: without it the app is slower, not down (issue 28)."""
    checks = {
        "database": _database_up(),
        "broker": _broker_up(),
        "cache": _cache_up(),
    }
    return _report(checks)
