"""The motion feature's API endpoints (``api``, through ``cells.api.urls``).
The judged segments and the annotated file are ``compliance.motion.urls``'s,
mounted in the same namespace by ``config.urls``."""

from __future__ import annotations

from django.urls import path

from cells.motion import api

api_urlpatterns = [
    path(
        "cells/<int:pk>/motion/",
        api.CellMotionProgramsView.as_view(),
        name="cell-motion",
    ),
    path(
        "cells/<int:pk>/motion/<int:program_pk>/",
        api.CellMotionProgramView.as_view(),
        name="cell-motion-detail",
    ),
]
