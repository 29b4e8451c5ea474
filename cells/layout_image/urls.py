"""The floor-plan image's pages (in the ``cells`` namespace, through
``cells.urls``)."""

from __future__ import annotations

from django.urls import path

from cells.layout_image import views

urlpatterns = [
    path(
        "cells/<int:cell_pk>/layout/image/",
        views.layout_image_edit,
        name="layout_image_edit",
    ),
    path(
        "cells/<int:cell_pk>/layout/image/remove/",
        views.layout_image_remove,
        name="layout_image_remove",
    ),
    path(
        "cells/<int:cell_pk>/layout/image/preview",
        views.layout_image_preview,
        name="layout_image_preview",
    ),
    path(
        "cells/<int:cell_pk>/layout/image/file",
        views.layout_image_file,
        name="layout_image_file",
    ),
]
