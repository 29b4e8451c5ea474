"""The app's URLs and the baseline's."""

from __future__ import annotations

from django.urls import path

from bench.baseline.views import plain_table
from config.urls import urlpatterns as app_urlpatterns

urlpatterns = [
    path("bench/table/<int:cell_pk>/", plain_table, name="bench_plain_table"),
    *app_urlpatterns,
]
