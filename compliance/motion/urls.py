"""The Motion tab's API endpoints: a program's judged segments and its
annotated file, under the names and paths of the ``api`` namespace that
``cells.motion.urls`` began (``config.urls`` mounts both there)."""

from __future__ import annotations

from django.urls import path

from compliance.motion import api

api_urlpatterns = [
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
