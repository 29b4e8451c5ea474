"""The organisation's device library: the entries with their safety figures
and prices, search and filters, entries of its own, and CSV export and
import. Editors change it; viewers read it; another organisation's is a 404."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cells import selectors as cell_selectors
from cells.permissions import can_edit
from cells.services import Conflict
from compliance.calculators.base import format_range
from compliance.costs.selectors import money_range_text
from compliance.safety_functions.library import selectors
from compliance.safety_functions.library.catalogue import REFERENCE_STATUS
from compliance.safety_functions.library.csv_io import MAX_BYTES
from compliance.safety_functions.library.forms import (
    LibraryDeviceForm,
    LibraryImportForm,
)
from compliance.safety_functions.library.services import (
    LibraryImportRefused,
    library_device_delete,
    library_device_save,
    library_import_csv,
    library_seed,
)
from config.forms import add_errors
from config.htmx import render_page

LIBRARY_PAGE = "compliance/safety_functions/library/library_detail.html"
FORM_PAGE = "compliance/safety_functions/library/library_device_form.html"
IMPORT_PAGE = "compliance/safety_functions/library/library_import.html"
PAGE_SIZE = 100


def figure_text(value: float | Decimal | None) -> str:
    """A data-sheet figure exactly as recorded, small ones in E notation
    (3.7E-9), never rounded."""
    if value is None:
        return ""
    number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    number = number.normalize()
    if number and abs(number) < Decimal("0.001"):
        return format(number, "E")
    return format(number, "f")


def price_text(device) -> str:
    if not device.has_price:
        return _("price to be quoted")
    high = device.price_high if device.price_high is not None else device.price_low
    return f"{device.currency} {money_range_text(device.price_low, high)}"


def shown_device(device) -> dict[str, Any]:
    """One library entry as the page shows it."""
    lead = (
        format_range(device.lead_time_weeks_low, device.lead_time_weeks_high)
        if device.lead_time_weeks_low is not None
        else ""
    )
    return {
        "device": device,
        "pfhd": figure_text(device.pfhd_per_hour),
        "b10d": figure_text(device.b10d_cycles),
        "mttfd": figure_text(device.mttfd_years),
        "dcavg": figure_text(device.dcavg_percent),
        "response": figure_text(device.response_time_ms),
        "range": figure_text(device.range_m),
        "price": price_text(device),
        "lead": lead,
    }


def _editable(request: HttpRequest, organisation) -> None:
    if not can_edit(request.user, organisation.pk):
        raise PermissionDenied(
            _("Viewers can read but not change this organisation's data.")
        )


def library_context(request: HttpRequest, organisation) -> dict[str, Any]:
    """The page's context in a fixed number of queries, however many entries."""
    search = selectors.library_search(organisation, request.GET)
    page = Paginator(search.qs, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return {
        "organisation": organisation,
        "organisations": cell_selectors.organisations_for(request.user),
        "filter_form": search.form,
        "page": page,
        "rows": [shown_device(d) for d in page.object_list],
        "query": query.urlencode(),
        "filtered": any(value for value in query.values()),
        "can_edit": can_edit(request.user, organisation.pk),
        "reference_status": _(REFERENCE_STATUS),
    }


@login_required
def library_home(request: HttpRequest) -> HttpResponse:
    """The library of the user's first organisation."""
    organisation = cell_selectors.organisations_for(request.user).order_by("pk").first()
    if organisation is None:
        raise Http404("You belong to no organisation.")
    return redirect("compliance:library", organisation.pk)


@login_required
def library(request: HttpRequest, org_pk: int) -> HttpResponse:
    """The library, or for htmx (the filters) just its table."""
    organisation = selectors.organisation_for(request.user, org_pk)
    context = library_context(request, organisation)
    return render_page(request, LIBRARY_PAGE, context, fragment="library")


@login_required
def library_device_edit(
    request: HttpRequest, org_pk: int, pk: int | None = None
) -> HttpResponse:
    """Add an entry of the organisation's own (no pk), or change one."""
    organisation = selectors.organisation_for(request.user, org_pk)
    _editable(request, organisation)
    device = selectors.library_device_of(organisation, pk) if pk else None
    form = LibraryDeviceForm(request.POST or None, instance=device)
    if request.method == "POST" and form.is_valid():
        try:
            saved = library_device_save(
                organisation=organisation,
                actor=request.user,
                device=device,
                **form.cleaned_data,
            )
        except ValidationError as exc:
            add_errors(form, exc)
        except Conflict as exc:  # saved by someone else since the form was shown
            form.conflicted(exc.current, exc.differs)
        else:
            messages.success(request, _("Saved %(name)s.") % {"name": saved})
            return redirect("compliance:library", organisation.pk)
    context = {
        "organisation": organisation,
        "form": form,
        "device": device,
        "reference_status": _(REFERENCE_STATUS),
    }
    return render(request, FORM_PAGE, context)


@login_required
def library_device_remove(request: HttpRequest, org_pk: int, pk: int) -> HttpResponse:
    organisation = selectors.organisation_for(request.user, org_pk)
    _editable(request, organisation)
    device = selectors.library_device_of(organisation, pk)
    if request.method == "POST":
        library_device_delete(device=device, actor=request.user)
        messages.success(request, _("Deleted %(name)s.") % {"name": device})
        return redirect("compliance:library", organisation.pk)
    return render(
        request,
        "cells/confirm_delete.html",
        {
            "object": device,
            "cancel_url": reverse("compliance:library", args=[organisation.pk]),
            "consequence": _(
                "Cell devices chosen from it keep the figures copied from it; "
                "their lines in the bill of materials are then priced from the "
                "catalogue again."
            ),
        },
    )


@login_required
@require_POST
def library_seed_view(request: HttpRequest, org_pk: int) -> HttpResponse:
    """Add the starting entries the library lacks (all of them for an
    organisation created in the admin, or those deleted since)."""
    organisation = selectors.organisation_for(request.user, org_pk)
    _editable(request, organisation)
    added = library_seed(organisation=organisation, actor=request.user)
    messages.success(
        request,
        _("Added %(count)s starting entries.") % {"count": added}
        if added
        else _("The library has every starting entry already."),
    )
    return redirect("compliance:library", organisation.pk)


@login_required
def library_export(request: HttpRequest, org_pk: int) -> HttpResponse:
    """The library as a CSV file, for a spreadsheet (UTF-8 with a byte-order
    mark, so that spreadsheets read Korean text correctly)."""
    organisation = selectors.organisation_for(request.user, org_pk)
    text = selectors.library_csv(organisation)
    response = HttpResponse(
        text.encode("utf-8-sig"), content_type="text/csv; charset=utf-8"
    )
    name = f"device-library-{organisation.slug or organisation.pk}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
def library_import(request: HttpRequest, org_pk: int) -> HttpResponse:
    """Upload a CSV: every row is checked, and nothing is saved unless all
    pass; the errors are listed with their row and column."""
    organisation = selectors.organisation_for(request.user, org_pk)
    _editable(request, organisation)
    form = LibraryImportForm(request.POST or None, request.FILES or None)
    row_errors = []
    if request.method == "POST" and form.is_valid():
        # Bounded read: the form has checked the size, read no more anyway.
        data = form.cleaned_data["file"].read(MAX_BYTES + 1)
        try:
            result = library_import_csv(
                organisation=organisation, actor=request.user, data=data
            )
        except LibraryImportRefused as exc:
            row_errors = exc.errors
        else:
            messages.success(
                request,
                _(
                    "Imported: %(created)s added, %(updated)s updated, "
                    "%(unchanged)s unchanged."
                )
                % {
                    "created": result.created,
                    "updated": result.updated,
                    "unchanged": result.unchanged,
                },
            )
            return redirect("compliance:library", organisation.pk)
    context = {"organisation": organisation, "form": form, "row_errors": row_errors}
    return render(request, IMPORT_PAGE, context)
