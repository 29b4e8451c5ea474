"""The cells API: one router, mounted at ``/api/v1/`` by ``config.urls``."""

from __future__ import annotations

from django.urls import path
from rest_framework.routers import DefaultRouter

from cells.api import tokens, views
from cells.layout_dxf import urls as layout_dxf_urls
from cells.motion import urls as motion_urls

app_name = "api"

router = DefaultRouter()
router.register("projects", views.ProjectViewSet, basename="project")
router.register("cells", views.CellViewSet, basename="cell")
router.register("guard-segments", views.GuardSegmentViewSet, basename="guard-segment")
router.register("openings", views.OpeningViewSet, basename="opening")
router.register(
    "operator-stations", views.OperatorStationViewSet, basename="operator-station"
)

router.register("devices", views.DeviceViewSet, basename="device")
router.register("certificates", views.CellCertificateViewSet, basename="certificate")

urlpatterns = [
    *router.urls,
    # DXF in and out (issue 14): a cell's layout from and as a CAD drawing.
    *layout_dxf_urls.api_urlpatterns,
    # Robot programs (issue 32): read, their path on the plan.
    *motion_urls.api_urlpatterns,
    # Authentication (issue 13): API tokens that expire and can be revoked.
    path("auth/login/", tokens.TokenLoginView.as_view(), name="auth-login"),
    path("auth/logout/", tokens.TokenLogoutView.as_view(), name="auth-logout"),
    path(
        "auth/logoutall/", tokens.TokenLogoutAllView.as_view(), name="auth-logout-all"
    ),
]
