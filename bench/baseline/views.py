"""The baseline every page is measured against: a plain Django template
rendering a table of a cell's guard segments (200 rows for the large cell),
in the app's page frame, behind the same login and middleware."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from cells import selectors


@login_required
def plain_table(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = selectors.cell_for(request.user, cell_pk)
    return render(
        request,
        "bench/plain_table.html",
        {"cell": cell, "rows": cell.segments.all()},
    )
