"""The motion feature's API endpoints (``api``, through ``cells.api.urls``)."""

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
    path(
        "cells/<int:pk>/motion/<int:program_pk>/segments/",
        api.MotionSegmentsView.as_view(),
        name="cell-motion-segments",
    ),
    path(
        "cells/<int:pk>/motion/<int:program_pk>/annotated",
        api.MotionAnnotatedView.as_view(),
        name="cell-motion-annotated",
    ),
]
