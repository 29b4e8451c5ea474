"""The API's pagination: pages of 50 unless ``?page_size=`` asks for another
size, up to 200."""

from __future__ import annotations

from rest_framework.pagination import PageNumberPagination


class Pages(PageNumberPagination):
    """``?page=`` and ``?page_size=`` (1 to 200; more is taken as 200)."""

    page_size_query_param = "page_size"
    max_page_size = 200
