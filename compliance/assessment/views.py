"""Risk-assessment pages: the hazard register of a cell, edited in place.

Views authorise, parse a form, call one service and render. For htmx the
register answers with fragments: the whole register after adding, accepting
or deleting; a single row for inline editing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, retarget

from cells import selectors as cell_selectors
from cells.htmx import is_fragment_request, render_page
from cells.permissions import can_edit, role_in
from compliance.assessment import checks, declaration, history, selectors, services
from compliance.assessment.content import diff as content_diff
from compliance.assessment.forms import (
    HazardForm,
    HistoryFilterForm,
    LimitsForm,
    MeasureForm,
    SignForm,
    conflict_message,
    initial_from_query,
    service_values,
)
from compliance.assessment.hazards import catalogue, risk
from compliance.assessment.hazards.suggestions import (
    CellFacts,
    OpeningFact,
    StationFact,
    suggest_hazards,
)
from compliance.assessment.models import (
    Assessment,
    Hazard,
    Measure,
    Revision,
    RevisionStatus,
)
from compliance.assessment.register_html import RowWriter
from compliance.rules import selectors as rules_selectors
from compliance.rules.selectors import layout_labels

TEMPLATE = "compliance/assessment/assessment_detail.html"


@dataclass
class Row:
    """One hazard of the register with its estimates worked out."""

    hazard: Hazard
    initial: Any
    residual: Any
    acceptability: Any
    measures: list[Measure]
    # Each measure with the failing check of its device or guard, if any: an
    # ineffective measure.
    measure_rows: list[tuple[Measure, checks.CheckedFinding | None]]
    # The row as the page writes it (``register_html``); None: the template's.
    html: str | None = None

    @property
    def group(self) -> str:
        return _(catalogue.group(self.hazard.group).name)

    @property
    def origin(self) -> str:
        return _(catalogue.origin(self.hazard.group, self.hazard.origin).text)

    @property
    def consequence(self) -> str:
        return _(catalogue.consequence(self.hazard.group, self.hazard.consequence).text)

    @property
    def reasons(self) -> list[str]:
        return [reason.render(_) for reason in self.acceptability.reasons]


def _row(hazard: Hazard, cell_checks: checks.CellChecks) -> Row:
    """``cell_checks``: the cell's compliance checks, worked out once for the
    whole page (``rules.selectors.cell_checks``)."""
    # From the register page's list, else the manager's prefetched cache.
    measures = getattr(hazard, "measure_list", None)
    if measures is None:
        measures = list(hazard.measures.all())
    # Memoised: S, F, P and the flag take 16 values in all.
    initial, residual = selectors.hazard_estimates(hazard)
    return Row(
        hazard,
        initial,
        residual,
        checks.acceptability(
            initial=initial,
            residual=residual,
            hazard_key=str(hazard.key),
            body_region=hazard.body_region,
            measures=measures,
            checks=cell_checks,
        ),
        measures,
        [(m, cell_checks.measure_failure(m)) for m in measures],
    )


def _facts(cell) -> CellFacts:
    # The labels only, read once: the hazard form's places read them too.
    labels = selectors.perimeter_labels(cell)
    return CellFacts(
        robot_kind=cell.robot_kind,
        application=cell.application,
        reach_mm=cell.reach_mm,
        payload_kg=float(cell.payload_kg),
        max_tcp_speed_mm_s=cell.max_tcp_speed_mm_s,
        openings=tuple(
            OpeningFact(
                key=f"opening:{pk}",
                label=label,
                purpose=purpose,
                segment_label=segment,
            )
            for pk, label, purpose, segment in labels["openings"]
        ),
        stations=tuple(
            StationFact(key=f"station:{pk}", label=label)
            for pk, label in labels["stations"]
        ),
    )


def _actions(request: HttpRequest, revision: Revision) -> list[str]:
    """The workflow buttons this person may press on this revision."""
    organisation = revision.assessment.cell.project.organisation
    if not can_edit(request.user, organisation.pk):
        return []
    engineer = role_in(request.user, organisation.pk) == "safety_engineer"
    status = revision.status
    actions = []
    if status == RevisionStatus.DRAFT:
        actions.append("submit")
    if status in (RevisionStatus.IN_REVIEW, RevisionStatus.APPROVED):
        actions.append("return")
    if status == RevisionStatus.IN_REVIEW and organisation.requires_two_person_signoff:
        actions.append("approve")
    if engineer and (
        status == RevisionStatus.APPROVED
        or (
            status == RevisionStatus.IN_REVIEW
            and not organisation.requires_two_person_signoff
        )
    ):
        actions.append("sign")
    if status == RevisionStatus.SIGNED and revision == selectors.current_revision(
        revision.assessment
    ):
        actions.append("start-next")
    return actions


def _context(
    request: HttpRequest,
    revision: Revision,
    cell_checks: checks.CellChecks | None = None,
    **extra,
) -> dict[str, Any]:
    cell = revision.assessment.cell
    if cell_checks is None:
        cell_checks = rules_selectors.cell_checks(cell)
    rows = [_row(h, cell_checks) for h in selectors.register_page(revision)]
    group, phase, level = (request.GET.get(k, "") for k in ("group", "phase", "level"))
    shown = [
        r
        for r in rows
        if (not group or r.hazard.group == group)
        and (not phase or r.hazard.phase == phase)
        and (not level or (r.residual and r.residual.level == level))
    ]
    editable = revision.is_editable and can_edit(
        request.user, cell.project.organisation_id
    )
    # The rows written by Python, but for one in the middle of an edit,
    # which the template's partial writes with its form.
    writer = RowWriter(request, editable=editable)
    busy = {extra.get(k) for k in ("editing_measure", "deleting_measure")} - {None}
    for r in shown:
        pk = r.hazard.pk
        if pk in (extra.get("editing"), extra.get("measure_for")):
            continue
        if any(m.pk in busy for m in r.measures):
            continue
        r.html = mark_safe(writer.row(r))
    suggestions = []
    if editable:
        proposed = suggest_hazards(
            _facts(cell), dismissed=revision.dismissed_suggestions
        )
        # The links reversed here, once each, not twice in the template.
        suggestions = [
            {
                "key": s.key,
                "text": s.task_text(_),
                "accept": reverse(
                    "compliance:suggestion_accept", args=[revision.pk, s.key]
                ),
                "dismiss": reverse(
                    "compliance:suggestion_dismiss", args=[revision.pk, s.key]
                ),
            }
            for s in proposed
        ]
    return {
        "cell": cell,
        "project": cell.project,
        "revision": revision,
        "revisions": list(revision.assessment.revisions.order_by("-number")),
        "rows": shown,
        "total": len(rows),
        "unacceptable": sum(1 for r in rows if not r.acceptability.acceptable),
        "editable": editable,
        "actions": _actions(request, revision),
        "suggestions": suggestions,
        "words": {"accept": _("Accept"), "discard": _("Discard")},
        "filters": {"group": group, "phase": phase, "level": level},
        "hazard_form": _new_hazard_form(revision),
        "limits_form": LimitsForm.for_revision(revision),
        "intact": services.revision_is_intact(revision) if revision.is_signed else None,
        "declaration": selectors.declaration_of(revision),
        "levels": risk.RISK_LEVELS,
        "exposed_persons": [
            _(catalogue.exposed_person(p).label) for p in revision.exposed_persons
        ],
        **extra,
    }


def _new_hazard_form(revision: Revision, data=None, initial=None) -> HazardForm:
    return HazardForm(
        data,
        initial=initial,
        cell=revision.assessment.cell,
        prefix="new",
        refresh_url=reverse("compliance:hazard_add", args=[revision.pk]),
        target="#add-hazard",
    )


def _revision(request: HttpRequest, pk: int) -> Revision:
    return selectors.revision_for(request.user, pk)


@login_required
def assessment(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """A cell's risk assessment at its current revision (or one asked for)."""
    cell = cell_selectors.cell_for(request.user, cell_pk)
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
        request, TEMPLATE, _context(request, revision), fragment="register"
    )


@login_required
@require_POST
def assessment_start(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = cell_selectors.cell_for(request.user, cell_pk)
    services.assessment_open(cell=cell, actor=request.user)
    return redirect("compliance:assessment", cell_pk=cell.pk)


def _register_response(
    request: HttpRequest, revision: Revision, message: str = "", error: str = ""
):
    url = reverse("compliance:assessment", args=[revision.assessment.cell_id])
    if not is_fragment_request(request):
        if message:
            messages.success(request, message)
        if error:
            messages.error(request, error)
        return redirect(f"{url}?revision={revision.number}")
    context = _context(request, revision, saved=message, error=error)
    return render(request, f"{TEMPLATE}#register", context)


@login_required
def limits_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The limits of the machine, edited in place (the whole assessment page
    with the form open, or for htmx just the limits panel)."""
    revision = _revision(request, pk)
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
            return _register_response(request, saved, _("Limits of the machine saved."))
        except services.Conflict as conflict:
            # Shown as stored now, with the message: the other person's values.
            revision = conflict.current
            form = LimitsForm.for_revision(revision)
            error = conflict_message()
        except ValidationError as exc:
            error = " ".join(exc.messages)
    if error:
        return _register_response(request, revision, error=error)
    context = _context(request, revision, limits_form=form, editing_limits=True)
    return render_page(request, TEMPLATE, context, fragment="limits")


@login_required
def hazard_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Add a hazard; a GET redraws the form for the group just chosen."""
    revision = _revision(request, pk)
    if request.method != "POST":
        initial = initial_from_query(HazardForm, request.GET, "new")
        context = _context(
            request, revision, hazard_form=_new_hazard_form(revision, initial=initial)
        )
        if is_fragment_request(request):
            return render(request, f"{TEMPLATE}#add-hazard", context)
        return render(request, TEMPLATE, context)
    form = _new_hazard_form(revision, request.POST)
    if form.is_valid():
        try:
            hazard = services.hazard_add(
                revision=revision, actor=request.user, **service_values(form)
            )
        except ValidationError as exc:
            if not hasattr(exc, "error_dict"):
                return _register_response(
                    request, revision, error=" ".join(exc.messages)
                )
            _form_errors(form, exc)
        else:
            return _register_response(
                request, revision, _("Hazard added: %(task)s") % {"task": hazard}
            )
    context = _context(request, revision, hazard_form=form, adding=True)
    if is_fragment_request(request):
        return render(request, f"{TEMPLATE}#register", context)
    return render(request, TEMPLATE, context)


def _form_errors(form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


@login_required
@require_POST
def suggestion_accept(request: HttpRequest, pk: int, key: str) -> HttpResponse:
    revision = _revision(request, pk)
    cell = revision.assessment.cell
    suggestion = next(
        (
            s
            for s in suggest_hazards(
                _facts(cell), dismissed=revision.dismissed_suggestions
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
            # Stored in English, shown in the reader's language (``localise``).
            task=suggestion.task_text()[:200],
            location_key=location if location in labels else "",
            description=suggestion.rationale,
        )
        revision = services.suggestion_dismiss(
            revision=revision, actor=request.user, key=key
        )
    except ValidationError as exc:
        return _register_response(request, revision, error=" ".join(exc.messages))
    return _register_response(request, revision, _("Suggestion added to the register."))


@login_required
@require_POST
def suggestion_dismiss(request: HttpRequest, pk: int, key: str) -> HttpResponse:
    revision = _revision(request, pk)
    try:
        revision = services.suggestion_dismiss(
            revision=revision, actor=request.user, key=key
        )
    except ValidationError as exc:
        return _register_response(request, revision, error=" ".join(exc.messages))
    return _register_response(request, revision, _("Suggestion discarded."))


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
        request.POST or None, cell=cell, initial=initial, prefix=f"h{hazard.pk}"
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
            )
            error = conflict_message()
        except ValidationError as exc:
            _form_errors(form, exc)
        else:
            return _row_response(request, revision, hazard.pk)
    context = _context(
        request, revision, editing=hazard.pk, edit_form=form, error=error
    )
    if is_fragment_request(request):
        return render(request, f"{TEMPLATE}#hazard-form-row", context)
    return render(request, TEMPLATE, context)


def _row_response(
    request: HttpRequest, revision: Revision, hazard_pk: int
) -> HttpResponse:
    if not is_fragment_request(request):
        return redirect(
            reverse("compliance:assessment", args=[revision.assessment.cell_id])
        )
    cell_checks = rules_selectors.cell_checks(revision.assessment.cell)
    row = _row(selectors.register(revision).get(pk=hazard_pk), cell_checks)
    context = _context(request, revision, cell_checks, row=row)
    return render(request, f"{TEMPLATE}#hazard-row", context)


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
        return _register_response(request, revision, error=" ".join(exc.messages))
    return _register_response(request, revision, _("Hazard deleted."))


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
                return _register_response(
                    request, revision, error=" ".join(exc.messages)
                )
            _form_errors(form, exc)
        else:
            return _register_response(request, revision, _("Measure added."))
    context = _context(request, revision, measure_for=hazard.pk, measure_form=form)
    if is_fragment_request(request):
        return render(request, f"{TEMPLATE}#register", context)
    return render(request, TEMPLATE, context)


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
    response = _register_response(request, revision, error=message)
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
    row = _row(selectors.register(revision).get(pk=measure.hazard_id), cell_checks)
    shown = next(m for m in row.measures if m.pk == measure.pk)
    context = _context(request, revision, cell_checks, row=row, m=shown, **extra)
    return render_page(request, TEMPLATE, context, fragment=fragment)


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
            _form_errors(form, exc)
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
        return _register_response(request, revision, error=" ".join(exc.messages))
    return _register_response(request, revision, _("Measure deleted."))


def _not_editable(revision: Revision) -> str:
    return _(
        "Revision %(number)s is %(status)s: it can no longer be edited. "
        "Start a new revision to change it."
    ) % {"number": revision.number, "status": revision.get_status_display().lower()}


def _hazard_url(revision: Revision, hazard_pk: int) -> str:
    url = reverse("compliance:assessment", args=[revision.assessment.cell_id])
    return f"{url}?revision={revision.number}#hazard-{hazard_pk}"


WORKFLOW = {
    "submit": (services.revision_submit, gettext_lazy("Submitted for review.")),
    "return": (services.revision_return, gettext_lazy("Sent back to draft.")),
    "approve": (services.revision_approve, gettext_lazy("Approved.")),
    "start-next": (
        services.revision_start_next,
        gettext_lazy("New revision started from the signed one."),
    ),
}


def _refused(exc: Exception) -> str:
    return " ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)


@login_required
def revision_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """A step of the workflow (POST). Signing is a declaration with its own
    form (GET shows it, POST signs): see ``_sign``."""
    revision = _revision(request, pk)
    if action == "sign":
        return _sign(request, revision)
    if action not in WORKFLOW:
        raise Http404("No such action.")
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    service, done = WORKFLOW[action]
    url = reverse("compliance:assessment", args=[revision.assessment.cell_id])
    try:
        result = service(revision=revision, actor=request.user)
    except (ValidationError, PermissionDenied, services.Conflict) as exc:
        messages.error(request, _refused(exc))
        return redirect(f"{url}?revision={revision.number}")
    messages.success(request, str(done))
    return redirect(f"{url}?revision={result.number}")


def _sign(request: HttpRequest, revision: Revision) -> HttpResponse:
    """The signing form: the open findings of the cell (each fail needs the
    reason it is accepted), the statement to confirm and the password. A GET
    shows it; a POST signs, or shows the form again saying what is missing."""
    url = reverse("compliance:assessment", args=[revision.assessment.cell_id])
    back = f"{url}?revision={revision.number}"
    try:
        services.check_signer(revision=revision, actor=request.user)
    except (ValidationError, PermissionDenied) as exc:
        messages.error(request, _refused(exc))
        return redirect(back)
    open_findings = services.revision_sign_preview(revision=revision)
    statement = _(declaration.STATEMENT)
    form = SignForm(
        request.POST if request.method == "POST" else None,
        open_findings=open_findings,
        statement=statement,
    )
    if request.method == "POST" and form.is_valid():
        try:
            result = services.revision_sign(
                revision=revision,
                actor=request.user,
                request=request,
                **form.service_values(),
            )
        except (PermissionDenied, services.Conflict) as exc:
            messages.error(request, _refused(exc))
            return redirect(back)
        except ValidationError as exc:
            form.add_service_errors(exc)
        else:
            messages.success(
                request, _("Signed. This revision can no longer be changed.")
            )
            return redirect(f"{url}?revision={result.number}")
    cell = revision.assessment.cell
    context = {
        "cell": cell,
        "project": cell.project,
        "revision": revision,
        "form": form,
        "back": back,
        "reason_max_length": declaration.REASON_MAX_CHARS,
        "labels": layout_labels(cell),
    }
    return render(request, "compliance/assessment/revision_sign.html", context)


@login_required
def revision_diff(request: HttpRequest, pk: int) -> HttpResponse:
    """What changed between two revisions of the same assessment."""
    revision = _revision(request, pk)
    others = list(
        revision.assessment.revisions.exclude(pk=revision.pk).order_by("-number")
    )
    against_id = request.GET.get("against")
    against = next((r for r in others if str(r.pk) == against_id), None)
    if against is None and others:
        against = next((r for r in others if r.number < revision.number), others[0])
    changes = None
    if against is not None:
        old, new = sorted([against, revision], key=lambda r: r.number)
        changes = content_diff(
            selectors.revision_content(old), selectors.revision_content(new)
        )
    context = {
        "revision": revision,
        "cell": revision.assessment.cell,
        "project": revision.assessment.cell.project,
        "others": others,
        "against": against,
        "changes": changes,
        "labels": history.FIELD_LABELS,
    }
    return render(request, "compliance/assessment/revision_diff.html", context)


@login_required
def assessment_history(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """The assessment's history as a story: who did what, when (in the
    reader's time zone), the values before and after; filtered by person,
    kind of change and days, a page at a time."""
    cell = cell_selectors.cell_for(request.user, cell_pk)
    existing = get_object_or_404(Assessment, cell=cell)
    people = [
        (u.pk, history.person_name(u)) for u in selectors.history_people(existing)
    ]
    kinds = [(key, label) for key, (label, _q) in history.KINDS.items()]
    form = HistoryFilterForm(request.GET or None, people=people, kinds=kinds)
    entries = selectors.history(existing)
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        entries = selectors.history_filtered(
            entries,
            actor_id=data["person"],
            kind=history.KINDS[data["kind"]][1] if data["kind"] else None,
            date_from=data["date_from"],
            date_to=data["date_to"],
        )
    elif form.is_bound:
        entries = entries.none()
    page = Paginator(entries, history.PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "cell": cell,
        "project": cell.project,
        "form": form,
        "page": page,
        "stories": history.tell(list(page.object_list), existing.pk),
        "filtered": form.is_bound,
        "time_zone": timezone.get_current_timezone_name(),
    }
    return render(request, "compliance/assessment/assessment_history.html", context)
