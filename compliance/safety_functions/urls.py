"""The safety functions' pages and API; included by ``compliance.urls``."""

from __future__ import annotations

# Page URLs, in the "compliance" namespace.
urlpatterns: list = []

# API URLs, mounted under /api/v1/.
api_urlpatterns: list = []
