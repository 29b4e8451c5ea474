"""The cache is an accelerator, not a dependency (issue 28).

Regression: with the cache at a Redis that did not answer, every cell page
and every API call (token login included) answered 500, and ``/healthz``
still said ok. Now a failed cache call falls back to this process's own
cache (logged once a minute), the API's throttle counts per process, and
``/readyz`` answers 503 naming the cache while ``/healthz`` stays 200."""

from __future__ import annotations

import io
import logging

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from cells.models import Cell
from compliance.rules import results

pytestmark = pytest.mark.django_db

# Nothing listens on port 1: every call to this Redis fails at once.
DEAD_REDIS = {
    "default": {
        "BACKEND": "config.cache.FallbackRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
    }
}
PASSWORD = "cell-safety-demo"


@pytest.fixture
def demo():
    call_command("seed_demo", stdout=io.StringIO())
    return Cell.objects.get(variant_of__isnull=True, name="케이스 팔레타이저 A")


def _pages(cell: Cell) -> list[str]:
    return [
        reverse("cells:cell_detail", args=[cell.pk]),
        reverse("compliance:cell_compliance", args=[cell.pk]),
        reverse("compliance:cell_costs", args=[cell.pk]),
        reverse("compliance:cell_plan", args=[cell.pk]),
        reverse("compliance:proposal", args=[cell.pk]),
        reverse("compliance:cell_concepts", args=[cell.pk]),
    ]


def _findings(client: APIClient, cell: Cell) -> dict:
    response = client.get(f"/api/v1/cells/{cell.pk}/findings/")
    assert response.status_code == 200
    return response.json()


def _signed_in() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username="sa"))
    return client


def test_a_dead_cache_slows_the_app_but_does_not_stop_it(demo, caplog):
    user = get_user_model().objects.get(username="sa")
    api = APIClient()
    api.force_authenticate(user)
    with_cache = _findings(api, demo)
    results.forget_recent()
    with override_settings(CACHES=DEAD_REDIS):
        caches["default"].clear()
        results.forget_recent()
        client = _signed_in()
        for url in _pages(demo):
            response = client.get(url)
            assert response.status_code == 200, url
            assert demo.name in response.text, url
        # The findings are the same, computed without the cache.
        assert _findings(api, demo) == with_cache
        # A token login works (the throttle counts in this process).
        login = APIClient().post(
            "/api/v1/auth/login/",
            {"username": "sa", "password": PASSWORD},
            format="json",
        )
        assert login.status_code == 200, login.content
        token = login.json()["token"]
        token_client = APIClient()
        token_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        assert token_client.get("/api/v1/projects/").status_code == 200
        # A new proposal is asked for and built.
        response = client.post(
            reverse("compliance:proposal", args=[demo.pk]),
            {"language": "en", "sections": ["summary", "cell"], "acknowledge": "on"},
        )
        assert response.status_code in (200, 302), response.content[:300]
        # The readiness check names the cache; the liveness check is 200.
        ready = Client().get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["down"] == ["cache"]
        assert Client().get("/healthz").status_code == 200
    # Logged, but not once per request.
    warnings = [
        r
        for r in caplog.records
        if r.levelno == logging.WARNING and "Cache unavailable" in r.getMessage()
    ]
    assert 1 <= len(warnings) <= 2


def test_the_readiness_check_is_ok_with_the_local_cache():
    ready = Client().get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["checks"]["cache"] == "not configured"


def test_the_cache_configured_from_cache_url_survives_a_dead_redis():
    # As deployed: CACHE_URL names the Redis; here one that does not answer.
    import os
    import subprocess
    import sys

    script = (
        "import django; django.setup()\n"
        "from django.core.cache import cache\n"
        "cache.set('k', 41 + 1)\n"
        "print(cache.get('k'))\n"
    )
    env = {
        **os.environ,
        "CACHE_URL": "redis://127.0.0.1:1/0",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip() == "42"
