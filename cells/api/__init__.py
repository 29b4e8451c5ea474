"""The cells app's REST API under ``/api/v1/``: projects, cells and their layouts."""

from __future__ import annotations
