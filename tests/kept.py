"""Forget every finding, cost line and plan kept (issue 16): in the cache and
in front of it in this process, so that the next request computes them."""

from __future__ import annotations

from django.core.cache import cache

from compliance.rules.results import forget_recent


def forget_kept() -> None:
    cache.clear()
    forget_recent()
