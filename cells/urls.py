from __future__ import annotations

from django.urls import path

from cells import views
from cells.layout_dxf import urls as layout_dxf_urls
from cells.layout_editor import urls as layout_editor_urls
from cells.layout_image import urls as layout_image_urls

app_name = "cells"
urlpatterns = [
    path("", views.project_list, name="project_list"),
    path("projects/new/", views.project_create, name="project_create"),
    path("projects/<int:pk>/", views.project_detail, name="project_detail"),
    path("projects/<int:pk>/edit/", views.project_edit, name="project_edit"),
    path("projects/<int:pk>/delete/", views.project_delete, name="project_delete"),
    path("projects/<int:project_pk>/cells/new/", views.cell_create, name="cell_create"),
    path("cells/<int:pk>/", views.cell_detail, name="cell_detail"),
    path("cells/<int:pk>/edit/", views.cell_edit, name="cell_edit"),
    path("cells/<int:pk>/delete/", views.cell_delete, name="cell_delete"),
    path("cells/<int:pk>/layout.svg", views.cell_layout_svg, name="cell_layout_svg"),
    *layout_dxf_urls.urlpatterns,
    *layout_image_urls.urlpatterns,
    *layout_editor_urls.urlpatterns,
    path("cells/<int:cell_pk>/zone/", views.hazard_zone_edit, name="hazard_zone_edit"),
    # Before the layout elements: "certificates" would match their <slug:kind>.
    path(
        "cells/<int:cell_pk>/certificates/new/",
        views.certificate_edit,
        name="certificate_add",
    ),
    path(
        "cells/<int:cell_pk>/certificates/<int:pk>/edit/",
        views.certificate_edit,
        name="certificate_edit",
    ),
    path(
        "cells/<int:cell_pk>/certificates/<int:pk>/delete/",
        views.certificate_delete,
        name="certificate_delete",
    ),
    path(
        "cells/<int:cell_pk>/<slug:kind>/new/",
        views.layout_element_edit,
        name="element_add",
    ),
    path(
        "cells/<int:cell_pk>/<slug:kind>/<int:pk>/edit/",
        views.layout_element_edit,
        name="element_edit",
    ),
    path(
        "cells/<int:cell_pk>/<slug:kind>/<int:pk>/delete/",
        views.layout_element_delete,
        name="element_delete",
    ),
]
