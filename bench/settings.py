"""The app's settings as the bench runs them: the project's own, plus the
plain-table baseline (``bench/baseline``) at ``/bench/table/<cell>/`` in the
same process, so both are measured through the same middleware in one run.

Static files are served by name (no manifest: the bench runs no
``collectstatic``); both pages link the same files, so neither gains.
"""

from __future__ import annotations

from config.settings import *  # noqa: F403
from config.settings import BASE_DIR, STORAGES, TEMPLATES

ROOT_URLCONF = "bench.urls"
TEMPLATES[0]["DIRS"] = [*TEMPLATES[0]["DIRS"], BASE_DIR / "bench/baseline/templates"]
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
