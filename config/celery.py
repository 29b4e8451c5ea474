"""The Celery app. Tasks take ids and call one service; JSON only."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("cell_safety_planner")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Tasks live with their feature, not in an app's top-level tasks module.
app.autodiscover_tasks(["compliance.proposals"])
