from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# The URLconf, and with it every view, serializer and rule pack, loaded as
# the process starts rather than by its first request: a new worker's first
# answer (a load balancer's health check among them) took 3 s.
get_resolver().url_patterns  # noqa: B018

# What is loaded now is set aside from the cycle collector (config.process).
from config.process import prepare_web_process  # noqa: E402

prepare_web_process()
