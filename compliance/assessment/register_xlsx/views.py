"""The register as XLSX: the download, and the upload page that lists every
error by sheet and row (nothing saved then)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from cells.permissions import can_edit
from compliance.assessment import selectors
from compliance.assessment.models import Revision
from compliance.assessment.register_xlsx import importer
from compliance.assessment.register_xlsx.export import register_workbook
from compliance.assessment.register_xlsx.forms import RegisterImportForm
from compliance.assessment.register_xlsx.template import MAX_BYTES
from compliance.assessment.report_views import file_name

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
IMPORT_PAGE = "compliance/assessment/register_import.html"


def xlsx_response(revision: Revision) -> HttpResponse:
    response = HttpResponse(register_workbook(revision), content_type=XLSX)
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True,
        filename=f"{file_name(revision)}-rev{revision.number}-hazard-register.xlsx",
    )
    return response


@login_required
@require_GET
def register_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The revision's register as XLSX, for anyone in its organisation."""
    return xlsx_response(selectors.revision_for(request.user, pk))


@login_required
def register_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Upload a filled-in export into a draft: its hazards are appended."""
    revision = selectors.revision_for(request.user, pk)
    cell = revision.assessment.cell
    if not can_edit(request.user, cell.project.organisation_id):
        raise PermissionDenied
    form = RegisterImportForm(request.POST or None, request.FILES or None)
    errors: list[importer.RowError] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data["file"].read(MAX_BYTES + 1)
        try:
            result = importer.register_import(
                revision=revision, actor=request.user, data=data
            )
        except importer.ImportRefused as exc:
            errors = exc.errors
        else:
            messages.success(
                request,
                _("Imported: %(hazards)s hazards and %(measures)s measures added.")
                % {"hazards": result.hazards, "measures": result.measures},
            )
            url = reverse("compliance:assessment", args=[cell.pk])
            return redirect(f"{url}?revision={revision.number}")
    context = {
        "cell": cell,
        "project": cell.project,
        "revision": revision,
        "form": form,
        "row_errors": errors,
        "back": reverse("compliance:assessment", args=[cell.pk])
        + f"?revision={revision.number}",
    }
    status = 400 if errors else 200
    return render(request, IMPORT_PAGE, context, status=status)
