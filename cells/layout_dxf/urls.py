"""The DXF feature's pages (in the ``cells`` namespace, through
``cells.urls``) and API endpoints (``api``, through ``cells.api.urls``)."""

from __future__ import annotations

from django.urls import path

from cells.layout_dxf import api, views

urlpatterns = [
    path(
        "cells/<int:cell_pk>/layout/dxf/",
        views.layout_dxf_import,
        name="layout_dxf_import",
    ),
    path(
        "cells/<int:pk>/layout.dxf", views.layout_dxf_export, name="layout_dxf_export"
    ),
]

api_urlpatterns = [
    path(
        "cells/<int:pk>/layout/dxf/",
        api.CellLayoutDxfImportView.as_view(),
        name="cell-layout-dxf-import",
    ),
    path(
        "cells/<int:pk>/layout.dxf",
        api.CellLayoutDxfView.as_view(),
        name="cell-layout-dxf",
    ),
]
