from __future__ import annotations

from django.urls import path

from cells.layout_editor import views

# Included in the cells namespace (cells/urls.py).
urlpatterns = [
    path(
        "cells/<int:cell_pk>/plan/<slug:operation>/",
        views.plan_edit,
        name="plan_edit",
    ),
]
