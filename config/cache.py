"""The cache as an accelerator, never a dependency (issue 28).

``FallbackRedisCache`` is Django's Redis cache whose every call, when Redis
fails (down, refusing, timing out), goes to a cache of this process instead:
pages and the API are then slower (each process computes its own findings
again), not down, and the API's throttle counts per process rather than
refusing every request. A failure is logged once a minute with how many
followed, never once per request. ``ping`` is the readiness check's: it
raises when Redis does not answer.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

LOG_EVERY_S = 60.0
# Redis that does not answer costs a request this long at most per call.
SOCKET_TIMEOUT_S = 0.5


class _Quiet:
    """Logs a failure at most once every LOG_EVERY_S, with the count."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.last = 0.0
        self.missed = 0

    def failed(self, operation: str, exc: BaseException) -> None:
        now = time.monotonic()
        with self.lock:
            if now - self.last < LOG_EVERY_S and self.last:
                self.missed += 1
                return
            missed, self.missed, self.last = self.missed, 0, now
        logger.warning(
            "Cache unavailable (%s: %s): using this process's own cache; "
            "%s more failures since the last warning",
            operation,
            exc,
            missed,
        )


class FallbackRedisCache(RedisCache):
    """Django's Redis cache, falling back to a cache of this process when
    Redis fails (see the module's docstring)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        options.setdefault("socket_connect_timeout", SOCKET_TIMEOUT_S)
        options.setdefault("socket_timeout", SOCKET_TIMEOUT_S)
        super().__init__(server, {**params, "OPTIONS": options})
        self._fallback = LocMemCache(
            f"fallback-{id(self)}", {"TIMEOUT": params.get("TIMEOUT", 300)}
        )
        self._quiet = _Quiet()

    def _either(self, operation: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(super(), operation)(*args, **kwargs)
        except (RedisError, OSError) as exc:  # Redis failed, not this request
            self._quiet.failed(operation, exc)
            return getattr(self._fallback, operation)(*args, **kwargs)

    def ping(self) -> None:
        """Raises when Redis does not answer (for ``/readyz``)."""
        client = self._cache.get_client(write=True)
        client.ping()

    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("add", *args, **kwargs)

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("get", *args, **kwargs)

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set", *args, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("touch", *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete", *args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("get_many", *args, **kwargs)

    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("has_key", *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("incr", *args, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set_many", *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete_many", *args, **kwargs)

    def clear(self) -> Any:
        return self._either("clear")
