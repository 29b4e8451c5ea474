"""One row of the register edited in place: a hazard added, edited, shown
again or deleted, and its measures added, edited or deleted (asking once)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, retarget

from cells.permissions import can_edit
from compliance.assessment import selectors, services
from compliance.assessment.forms import (
    HazardForm,
    MeasureForm,
    conflict_message,
    initial_from_query,
    service_values,
)
from compliance.assessment.models import Hazard, Measure, Revision
from compliance.assessment.views import register
from compliance.rules import selectors as rules_selectors
from config.htmx import is_fragment_request, render_page


@login_required
def hazard_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Add a hazard; a GET redraws the form for the group just chosen."""
    revision = register.revision_for(request, pk)
    if request.method != "POST":
        initial = initial_from_query(HazardForm, request.GET, "new")
        context = register.page_context(
            request,
            revision,
            hazard_form=register.new_hazard_form(revision, initial=initial),
        )
        if is_fragment_request(request):
            return render(request, f"{register.TEMPLATE}#add-hazard", context)
        return render(request, register.TEMPLATE, context)
    form = register.new_hazard_form(revision, request.POST)
    if form.is_valid():
        try:
            hazard = services.hazard_add(
                revision=revision, actor=request.user, **service_values(form)
            )
        except ValidationError as exc:
            if not hasattr(exc, "error_dict"):
                return register.response(
                    request, revision, error=" ".join(exc.messages)
                )
            register.form_errors(form, exc)
        else:
            return register.response(
                request, revision, _("Hazard added: %(task)s") % {"task": hazard}
            )
    context = register.page_context(request, revision, hazard_form=form, adding=True)
    if is_fragment_request(request):
        return render(request, f"{register.TEMPLATE}#register", context)
    return render(request, register.TEMPLATE, context)


def _hazard(request: HttpRequest, pk: int) -> Hazard:
    return get_object_or_404(selectors.hazards_for(request.user), pk=pk)


@login_required
def hazard_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit one row of the register in place."""
    hazard = _hazard(request, pk)
    revision = hazard.revision
    if not can_edit(request.user, revision.assessment.cell.project.organisation_id):
        raise PermissionDenied
    cell = revision.assessment.cell
    initial = {
        name: getattr(hazard, name)
        for name in HazardForm.base_fields
        if name != "version"
    }
    initial["version"] = hazard.version
    form = HazardForm(
        request.POST or None,
        cell=cell,
        initial=initial,
        prefix=f"h{hazard.pk}",
        texts=hazard.texts,
    )
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            services.hazard_update(
                hazard=hazard,
                actor=request.user,
                version=form.cleaned_data["version"] or 0,
                **service_values(form),
            )
        except services.Conflict as conflict:
            current = conflict.current
            initial = {
                n: getattr(current, n) for n in HazardForm.base_fields if n != "version"
            }
            form = HazardForm(
                cell=cell,
                initial={**initial, "version": current.version},
                prefix=f"h{hazard.pk}",
                texts=current.texts,
            )
            error = conflict_message()
        except ValidationError as exc:
            register.form_errors(form, exc)
        else:
            return _row_response(request, revision, hazard.pk)
    context = register.page_context(
        request, revision, editing=hazard.pk, edit_form=form, error=error
    )
    if is_fragment_request(request):
        return render(request, f"{register.TEMPLATE}#hazard-form-row", context)
    return render(request, register.TEMPLATE, context)


def _row_response(
    request: HttpRequest, revision: Revision, hazard_pk: int
) -> HttpResponse:
    if not is_fragment_request(request):
        return redirect(
            reverse("compliance:assessment", args=[revision.assessment.cell_id])
        )
    cell_checks = rules_selectors.cell_checks(revision.assessment.cell)
    row = register.row(selectors.register(revision).get(pk=hazard_pk), cell_checks)
    context = register.page_context(request, revision, cell_checks, row=row)
    return render(request, f"{register.TEMPLATE}#hazard-row", context)


@login_required
def hazard_row(request: HttpRequest, pk: int) -> HttpResponse:
    """A row as shown (after Cancel in the inline editor)."""
    hazard = _hazard(request, pk)
    return _row_response(request, hazard.revision, hazard.pk)


@login_required
@require_POST
def hazard_delete(request: HttpRequest, pk: int) -> HttpResponse:
    hazard = _hazard(request, pk)
    revision = hazard.revision
    try:
        services.hazard_delete(hazard=hazard, actor=request.user)
    except ValidationError as exc:
        return register.response(request, revision, error=" ".join(exc.messages))
    return register.response(request, revision, _("Hazard deleted."))


@login_required
def measure_add(request: HttpRequest, pk: int) -> HttpResponse:
    hazard = _hazard(request, pk)
    revision = hazard.revision
    cell = revision.assessment.cell
    if not can_edit(request.user, cell.project.organisation_id):
        raise PermissionDenied
    form = MeasureForm(request.POST or None, cell=cell, prefix=f"m{hazard.pk}")
    if request.method == "POST" and form.is_valid():
        try:
            services.measure_add(
                hazard=hazard, actor=request.user, **service_values(form)
            )
        except ValidationError as exc:
            if not hasattr(exc, "error_dict"):
                return register.response(
                    request, revision, error=" ".join(exc.messages)
                )
            register.form_errors(form, exc)
        else:
            return register.response(request, revision, _("Measure added."))
    context = register.page_context(
        request, revision, measure_for=hazard.pk, measure_form=form
    )
    if is_fragment_request(request):
        return render(request, f"{register.TEMPLATE}#register", context)
    return render(request, register.TEMPLATE, context)


def _measure(request: HttpRequest, pk: int) -> Measure:
    return get_object_or_404(selectors.measures_for(request.user), pk=pk)


def _measure_initial(measure: Measure) -> dict[str, Any]:
    initial = {
        name: getattr(measure, name)
        for name in MeasureForm.base_fields
        if name not in ("version", "device", "segment")
    }
    initial.update(
        device=measure.device_id, segment=measure.segment_id, version=measure.version
    )
    return initial


def _refused_here(
    request: HttpRequest, revision: Revision, message: str
) -> HttpResponse:
    """A refusal from a row's editor: the register with the message (for
    htmx in place of the whole register, whatever the editor targeted)."""
    response = register.response(request, revision, error=message)
    if is_fragment_request(request):
        retarget(response, "#register")
        reswap(response, "outerHTML")
    return response


def _measure_page(
    request: HttpRequest, measure: Measure, fragment: str, **extra
) -> HttpResponse:
    """The assessment page with this measure's editor or question open, or
    for htmx just that (``fragment``)."""
    revision = measure.hazard.revision
    cell_checks = rules_selectors.cell_checks(revision.assessment.cell)
    row = register.row(
        selectors.register(revision).get(pk=measure.hazard_id), cell_checks
    )
    shown = next(m for m in row.measures if m.pk == measure.pk)
    context = register.page_context(
        request, revision, cell_checks, row=row, m=shown, **extra
    )
    return render_page(request, register.TEMPLATE, context, fragment=fragment)


@login_required
def measure_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit one measure in place: the measure swaps to its form and back."""
    measure = _measure(request, pk)
    hazard = measure.hazard
    revision = hazard.revision
    cell = revision.assessment.cell
    if not can_edit(request.user, cell.project.organisation_id):
        raise PermissionDenied
    if not revision.is_editable:
        return _refused_here(request, revision, _not_editable(revision))
    prefix = f"me{measure.pk}"
    form = MeasureForm(
        request.POST or None,
        cell=cell,
        initial=_measure_initial(measure),
        prefix=prefix,
    )
    # The page opened without JavaScript scrolls to the form; htmx focuses it.
    form.fields["description"].widget.attrs["autofocus"] = True
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            services.measure_update(
                measure=measure,
                actor=request.user,
                version=form.cleaned_data["version"] or 0,
                **service_values(form),
            )
        except services.Conflict as conflict:
            form = MeasureForm(
                cell=cell, initial=_measure_initial(conflict.current), prefix=prefix
            )
            error = conflict_message()
        except ValidationError as exc:
            if not hasattr(exc, "error_dict"):
                return _refused_here(request, revision, " ".join(exc.messages))
            register.form_errors(form, exc)
        else:
            if not is_fragment_request(request):
                messages.success(request, _("Measure saved."))
                return redirect(_hazard_url(revision, hazard.pk))
            # The whole row again: the measure may change its residual risk.
            response = _row_response(request, revision, hazard.pk)
            retarget(response, f"#hazard-{hazard.pk}")
            reswap(response, "outerHTML")
            return response
    return _measure_page(
        request,
        measure,
        "measure-form",
        editing_measure=measure.pk,
        measure_edit_form=form,
        measure_error=error,
    )


@login_required
def measure_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a measure, asking once: a GET asks (in place, or as the page
    with the question open), the POST deletes."""
    measure = _measure(request, pk)
    revision = measure.hazard.revision
    if not can_edit(request.user, revision.assessment.cell.project.organisation_id):
        raise PermissionDenied
    if request.method != "POST":
        if not revision.is_editable:
            return _refused_here(request, revision, _not_editable(revision))
        return _measure_page(
            request, measure, "measure-delete", deleting_measure=measure.pk
        )
    try:
        services.measure_delete(measure=measure, actor=request.user)
    except ValidationError as exc:
        return register.response(request, revision, error=" ".join(exc.messages))
    return register.response(request, revision, _("Measure deleted."))


def _not_editable(revision: Revision) -> str:
    return _(
        "Revision %(number)s is %(status)s: it can no longer be edited. "
        "Start a new revision to change it."
    ) % {"number": revision.number, "status": revision.get_status_display().lower()}


def _hazard_url(revision: Revision, hazard_pk: int) -> str:
    url = reverse("compliance:assessment", args=[revision.assessment.cell_id])
    return f"{url}?revision={revision.number}#hazard-{hazard_pk}"
