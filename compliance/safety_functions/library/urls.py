"""The device library's pages and API; included by ``compliance.urls``."""

from __future__ import annotations

from django.urls import path

from compliance.safety_functions.library import api, views

# Page URLs, in the "compliance" namespace.
urlpatterns: list = [
    path("library/", views.library_home, name="library_home"),
    path("organisations/<int:org_pk>/library/", views.library, name="library"),
    path(
        "organisations/<int:org_pk>/library/new/",
        views.library_device_edit,
        name="library_device_add",
    ),
    path(
        "organisations/<int:org_pk>/library/<int:pk>/edit/",
        views.library_device_edit,
        name="library_device_edit",
    ),
    path(
        "organisations/<int:org_pk>/library/<int:pk>/delete/",
        views.library_device_remove,
        name="library_device_delete",
    ),
    path(
        "organisations/<int:org_pk>/library/export.csv",
        views.library_export,
        name="library_export",
    ),
    path(
        "organisations/<int:org_pk>/library/import/",
        views.library_import,
        name="library_import",
    ),
    path(
        "organisations/<int:org_pk>/library/starting-entries/",
        views.library_seed_view,
        name="library_seed",
    ),
]

_devices = api.LibraryDeviceViewSet

# API URLs, mounted under /api/v1/.
api_urlpatterns: list = [
    path(
        "organisations/<int:org_pk>/library-devices/",
        _devices.as_view({"get": "list", "post": "create"}),
        name="organisation-library-devices",
    ),
    path(
        "organisations/<int:org_pk>/library-devices/export/",
        api.LibraryExportView.as_view(),
        name="organisation-library-export",
    ),
    path(
        "organisations/<int:org_pk>/library-devices/import/",
        api.LibraryImportView.as_view(),
        name="organisation-library-import",
    ),
    path(
        "organisations/<int:org_pk>/library-devices/starting-entries/",
        api.LibrarySeedView.as_view(),
        name="organisation-library-seed",
    ),
    path(
        "organisations/<int:org_pk>/library-devices/<int:pk>/",
        _devices.as_view(
            {
                "get": "retrieve",
                "put": "update",
                "patch": "partial_update",
                "delete": "destroy",
            }
        ),
        name="organisation-library-device",
    ),
]
