"""A revision's life: the steps of the workflow (submit, return, approve,
start the next), signing with its declaration, what changed between two
revisions, and the assessment's history as a story."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cells import selectors as cell_selectors
from compliance.assessment import declaration, history, selectors, services, signing
from compliance.assessment.content import diff as content_diff
from compliance.assessment.forms import HistoryFilterForm, SignForm
from compliance.assessment.models import Assessment, Revision
from compliance.assessment.views import register
from compliance.rules.selectors import function_names

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
    revision = register.revision_for(request, pk)
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
    signed_text, _language = signing.signed_statement(revision)
    form = SignForm(
        request.POST if request.method == "POST" else None,
        open_findings=open_findings,
        statement=statement,
        signed_text=signed_text,
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
        "names": function_names(cell),
    }
    return render(request, "compliance/assessment/revision_sign.html", context)


@login_required
def revision_diff(request: HttpRequest, pk: int) -> HttpResponse:
    """What changed between two revisions of the same assessment."""
    revision = register.revision_for(request, pk)
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
        "phrases": selectors.app_phrases(revision.assessment, _),
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
        "phrases": selectors.app_phrases(existing, _),
        "filtered": form.is_bound,
        "time_zone": timezone.get_current_timezone_name(),
    }
    return render(request, "compliance/assessment/assessment_history.html", context)
