"""The assessment page: a cell's register at its current revision (or one
asked for), starting the assessment, the limits of the machine edited in
place, and the suggested hazards accepted or discarded."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cells import selectors as cell_selectors
from cells.permissions import can_edit
from compliance.assessment import selectors, services
from compliance.assessment.forms import LimitsForm, conflict_message, service_values
from compliance.assessment.hazards.suggestions import suggest_hazards
from compliance.assessment.models import Assessment
from compliance.assessment.views import register
from config.htmx import render_page


@login_required
def assessment(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """A cell's risk assessment at its current revision (or one asked for)."""
    cell = cell_selectors.cell_for(request.user, cell_pk)
    if cell.variant_of_id is not None:
        # A guarding concept's cell is judged with the drawn cell's risk
        # assessment: it has none of its own.
        return redirect("compliance:assessment", cell_pk=cell.variant_of_id)
    existing = Assessment.objects.filter(cell=cell).first()
    if existing is None:
        context = {
            "cell": cell,
            "project": cell.project,
            "can_start": can_edit(request.user, cell.project.organisation_id),
        }
        return render(request, "compliance/assessment/assessment_start.html", context)
    number = request.GET.get("revision")
    if number and number.isdigit():
        revision = get_object_or_404(
            selectors.revisions_for(request.user),
            assessment=existing,
            number=int(number),
        )
    else:
        revision = selectors.current_revision(existing)
    return render_page(
        request,
        register.TEMPLATE,
        register.page_context(request, revision),
        fragment="register",
    )


@login_required
@require_POST
def assessment_start(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = cell_selectors.cell_for(request.user, cell_pk)
    services.assessment_open(cell=cell, actor=request.user)
    return redirect("compliance:assessment", cell_pk=cell.pk)


@login_required
def limits_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The limits of the machine, edited in place (the whole assessment page
    with the form open, or for htmx just the limits panel)."""
    revision = register.revision_for(request, pk)
    form = LimitsForm.for_revision(revision, request.POST or None)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            # The panel shows the revision the service saved, not the one
            # read before the save (issue 15: "saved" over the old values).
            saved = services.revision_update_limits(
                revision=revision,
                actor=request.user,
                version=form.cleaned_data["version"],
                **service_values(form),
            )
            return register.response(request, saved, _("Limits of the machine saved."))
        except services.Conflict as conflict:
            # Shown as stored now, with the message: the other person's values.
            revision = conflict.current
            form = LimitsForm.for_revision(revision)
            error = conflict_message()
        except ValidationError as exc:
            error = " ".join(exc.messages)
    if error:
        return register.response(request, revision, error=error)
    context = register.page_context(
        request, revision, limits_form=form, editing_limits=True
    )
    return render_page(request, register.TEMPLATE, context, fragment="limits")


@login_required
@require_POST
def suggestion_accept(request: HttpRequest, pk: int, key: str) -> HttpResponse:
    revision = register.revision_for(request, pk)
    cell = revision.assessment.cell
    suggestion = next(
        (
            s
            for s in suggest_hazards(
                register.facts(cell), dismissed=revision.dismissed_suggestions
            )
            if s.key == key
        ),
        None,
    )
    if suggestion is None:
        raise Http404("No such suggestion.")
    location = suggestion.location_key or ""
    labels = selectors.location_choices(cell)
    try:
        services.hazard_add(
            revision=revision,
            actor=request.user,
            group=suggestion.group_id,
            origin=suggestion.origin_id,
            consequence=suggestion.consequence_id,
            phase=suggestion.phase,
            # Stored in English with where it came from, shown in the
            # reader's language (``compliance.calculators.written``).
            task=suggestion.task_text()[:200],
            location_key=location if location in labels else "",
            description=suggestion.rationale,
            texts=suggestion.texts(),
        )
        revision = services.suggestion_dismiss(
            revision=revision, actor=request.user, key=key
        )
    except ValidationError as exc:
        return register.response(request, revision, error=" ".join(exc.messages))
    return register.response(request, revision, _("Suggestion added to the register."))


@login_required
@require_POST
def suggestion_dismiss(request: HttpRequest, pk: int, key: str) -> HttpResponse:
    revision = register.revision_for(request, pk)
    try:
        revision = services.suggestion_dismiss(
            revision=revision, actor=request.user, key=key
        )
    except ValidationError as exc:
        return register.response(request, revision, error=" ".join(exc.messages))
    return register.response(request, revision, _("Suggestion discarded."))
