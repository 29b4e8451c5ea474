from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from cells.api import urls as cells_api_urls
from compliance.motion.urls import api_urlpatterns as motion_api_urlpatterns
from compliance.urls import api_urlpatterns as compliance_api_urlpatterns
from config.views import healthz, readyz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Headers (issue 13): the split view serves Swagger UI's start-up script
    # from a URL, so the page needs no inline script under the CSP.
    path(
        "api/v1/docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="api/swagger_ui.html"
        ),
        name="api-docs",
    ),
    # The cells API's namespace, with a robot program's judged segments and
    # annotated file (issue 32): the rules judge them, which the cells API
    # may not import.
    path(
        "api/v1/",
        include(
            (
                [*cells_api_urls.urlpatterns, *motion_api_urlpatterns],
                cells_api_urls.app_name,
            )
        ),
    ),
    path("api/v1/", include(compliance_api_urlpatterns)),
    path("", include("compliance.urls")),
    path("", include("cells.urls")),
]

# Headers (issue 13): Django's own error answers, as JSON under /api/.
handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
