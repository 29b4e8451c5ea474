"""The Proposal tab of a cell: ask for a PDF in Korean or English with the
sections chosen, watch it being built, download its versions. With the broker
down, asking answers 503 and nothing is left waiting; a polled version whose
worker died is sent again."""

from __future__ import annotations

from contextlib import suppress

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_lazy

from cells import selectors as cell_selectors
from cells.permissions import can_edit
from compliance.proposals import authoring, selectors, services
from compliance.proposals.checks import prebuild_notes
from compliance.proposals.forms import BrandingForm, TextsForm
from compliance.proposals.models import (
    LANGUAGES,
    OrganisationBranding,
    ProposalDocument,
    ProposalPreview,
    ProposalPreviewPage,
    ShownPasses,
    ShownRules,
)
from compliance.proposals.pdf.data import (
    APPENDIX_SECTIONS,
    CUSTOMER_SECTIONS,
    SECTIONS,
)
from compliance.proposals.selectors import cell_status
from compliance.proposals.services import (
    branding_save,
    can_brand,
    proposal_rebuild,
    proposal_request,
    proposal_retry,
    proposal_text_reset,
    proposal_texts_save,
)
from compliance.proposals.tasks import QueueUnavailable, proposal_document_recover
from compliance.rules.engine import computed_under
from compliance.rules.inputs import versioned
from compliance.rules.selectors import cell_stamp, shown_supersession
from config.forms import add_errors
from config.htmx import is_fragment_request, render_page

PAGE = "compliance/proposals/proposal_detail.html"

SECTION_LABELS = {
    "summary": gettext_lazy("Executive summary"),
    "legal": gettext_lazy("What the law requires"),
    "cell": gettext_lazy("The cell and its layout"),
    "risk": gettext_lazy("Risk assessment summary"),
    "safety_functions": gettext_lazy("Safety functions"),
    "costs": gettext_lazy("Safeguards and costs"),
    "schedule": gettext_lazy("Schedule and the sim-first comparison"),
    "concepts": gettext_lazy("Guarding concepts, when the cell has them"),
    "terms": gettext_lazy("Assumptions, exclusions and disclaimers"),
    "rules": gettext_lazy("Standards and law that apply, with rule ids and versions"),
    "findings": gettext_lazy("Compliance findings, with their evidence notes"),
    "working": gettext_lazy("ISO 13849 working of the safety functions"),
    "specification": gettext_lazy("Safety requirements specification"),
    "validation": gettext_lazy("Validation plan"),
}
SECTION_CHOICES = [(key, SECTION_LABELS[key]) for key in SECTIONS]
# The customer's sections, chosen by default; the appendix a safety engineer
# wants, off by default (issue 30).
SECTION_GROUPS = [
    (
        gettext_lazy("For the customer"),
        [(key, SECTION_LABELS[key]) for key in CUSTOMER_SECTIONS],
    ),
    (
        gettext_lazy("Appendix for the safety engineer"),
        [(key, SECTION_LABELS[key]) for key in APPENDIX_SECTIONS],
    ),
]


class ProposalForm(forms.Form):
    language = forms.ChoiceField(label=gettext_lazy("Language"), choices=LANGUAGES)
    sections = forms.MultipleChoiceField(
        label=gettext_lazy("Sections"),
        choices=SECTION_GROUPS,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": gettext_lazy("Choose at least one section.")},
    )
    # What to show, kept with the proposal; left out of a request: as kept.
    rules_shown = forms.ChoiceField(
        label=gettext_lazy("Rules"),
        choices=ShownRules.choices,
        widget=forms.RadioSelect,
        required=False,
    )
    passes_shown = forms.ChoiceField(
        label=gettext_lazy("Checks that passed"),
        choices=ShownPasses.choices,
        widget=forms.RadioSelect,
        required=False,
        help_text=gettext_lazy(
            "Fails, warnings and findings that need evidence are always shown in full."
        ),
    )
    acknowledge = forms.BooleanField(
        label=gettext_lazy("I have read the notes above and build it as it is"),
        required=False,
    )

    def __init__(self, *args, notes: list[str] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.notes = list(notes)
        if not self.notes:
            del self.fields["acknowledge"]

    def choices(self) -> dict[str, str | None]:
        """The choices of what to show as the services take them."""
        return {
            "rules": self.cleaned_data.get("rules_shown") or None,
            "passes": self.cleaned_data.get("passes_shown") or None,
        }

    def clean(self):
        cleaned = super().clean()
        if self.notes and not cleaned.get("acknowledge"):
            self.add_error(
                "acknowledge",
                gettext_lazy(
                    "Read the notes above: tick this to build the PDF as it is, "
                    "or put them right first."
                ),
            )
        return cleaned


def documents_for(user):
    """Proposal documents of the user's organisations, without their PDFs."""
    return (
        ProposalDocument.objects.filter(
            proposal__cell__project__organisation__memberships__user=user
        )
        .select_related("proposal__cell__project", "requested_by")
        .defer("pdf", "data")
    )


def _text_blocks(
    cell, status, *, editing: str | None = None, texts_form=None
) -> list[dict]:
    """The executive summary and the safety concept in each language, as the
    proposal prints them (the SA's, or generated from the cell), the
    project's proposal language first; one of them being edited."""
    written = selectors.written_texts(cell)
    order = sorted(
        LANGUAGES, key=lambda pair: pair[0] != cell.project.proposal_language
    )
    blocks = []
    for code, label in order:
        own = written.get(code)
        generated = authoring.generated_texts(status, code)
        block = {
            "language": code,
            "label": label,
            "summary": (own.summary if own else "") or generated.summary,
            "summary_written": bool(own and own.summary),
            "safety_concept": (own.safety_concept if own else "")
            or generated.safety_concept,
            "concept_written": bool(own and own.safety_concept),
            "open": code == order[0][0] or code == editing,
        }
        if code == editing:
            block["form"] = texts_form or TextsForm(
                language=code,
                initial={
                    "summary": block["summary"],
                    "safety_concept": block["safety_concept"],
                },
            )
        blocks.append(block)
    return blocks


def with_supersession(documents, today) -> list[ProposalDocument]:
    """The documents, each built one with ``under``: whether the rules it
    was computed under are superseded by ``today``'s (the cell's stamp now,
    or a function giving it: called only when a document is built, as it
    reads the whole cell), and the difference rule by rule."""
    documents = list(documents)
    ready = ProposalDocument.Status.READY
    if callable(today):
        today = today() if any(d.status == ready for d in documents) else None
    for document in documents:
        document.under = (
            shown_supersession(document.computed_under, today)
            if document.status == ProposalDocument.Status.READY
            else None
        )
    return documents


def _context(
    request: HttpRequest,
    cell,
    status,
    form=None,
    notes=None,
    *,
    editing: str | None = None,
    texts_form=None,
) -> dict:
    # Newest first: versions are counted within each language.
    documents = with_supersession(
        documents_for(request.user)
        .filter(proposal__cell=cell)
        .order_by("-requested_at", "-pk"),
        lambda: computed_under(status.facts),
    )
    proposal = selectors.proposal_of(cell)
    return {
        "cell": cell,
        "project": cell.project,
        "documents": documents,
        "previews": with_pages(previews_for(request.user).filter(proposal__cell=cell)),
        "can_edit": can_edit(request.user, cell.project.organisation_id),
        "notes": notes,
        "text_blocks": _text_blocks(
            cell, status, editing=editing, texts_form=texts_form
        ),
        "form": form
        or ProposalForm(
            notes=notes,
            initial={
                "language": cell.project.proposal_language,
                "sections": list(CUSTOMER_SECTIONS),
                "rules_shown": proposal.rules_shown
                if proposal
                else ShownRules.APPLICABLE,
                "passes_shown": proposal.passes_shown
                if proposal
                else ShownPasses.SUMMARY,
            },
        ),
    }


def _state(request: HttpRequest, cell_pk: int):
    """The cell with its layout, its status (the rules run once), and for a
    person who may build, the check before building."""
    cell = versioned(
        cell_pk, lambda: cell_selectors.cell_with_layout(request.user, cell_pk)
    )
    status = cell_status(cell)
    notes = (
        prebuild_notes(cell, status)
        if can_edit(request.user, cell.project.organisation_id)
        else []
    )
    return cell, status, notes


@login_required
def proposal(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """The proposal's texts and versions; POST asks for a new version."""
    if request.method == "POST":
        outer = cell_selectors.cell_for(request.user, cell_pk)
        if not can_edit(request.user, outer.project.organisation_id):
            raise PermissionDenied
    cell, status, notes = _state(request, cell_pk)
    form = None
    code = 200
    if request.method == "POST":
        form = ProposalForm(request.POST, notes=notes)
        if form.is_valid():
            try:
                proposal_request(
                    cell=cell,
                    actor=request.user,
                    language=form.cleaned_data["language"],
                    sections=form.cleaned_data["sections"],
                    notes=notes,
                    **form.choices(),
                )
            except QueueUnavailable as exc:
                form.add_error(None, str(exc))
                code = 503
            else:
                if not is_fragment_request(request):
                    return redirect("compliance:proposal", cell.pk)
                form = None
        else:
            code = 400
    return render_page(
        request,
        PAGE,
        _context(request, cell, status, form, notes),
        fragment="proposal",
        status=code,
    )


TEXTS_BLOCK = "compliance/proposals/partials/proposal_texts.html"


@login_required
def proposal_texts_edit(
    request: HttpRequest, cell_pk: int, language: str
) -> HttpResponse:
    """Write the executive summary and the safety concept in one language,
    in place on the Proposal tab (or as the whole tab without JavaScript);
    "reset" goes back to the text generated from the cell."""
    outer = cell_selectors.cell_for(request.user, cell_pk)
    if language not in dict(LANGUAGES):
        raise Http404("No such language.")
    if not can_edit(request.user, outer.project.organisation_id):
        raise PermissionDenied
    cell, status, notes = _state(request, cell_pk)
    form = TextsForm(request.POST or None, language=language)
    code = 200
    if request.method != "POST" and "cancel" in request.GET:
        form = None  # the texts again, as they stand
    elif request.method == "POST":
        reset = request.POST.get("reset")
        saved = False
        if reset:
            try:
                proposal_text_reset(
                    cell=cell, actor=request.user, language=language, name=reset
                )
            except ValidationError as exc:
                add_errors(form, exc)
            else:
                saved = True
        elif form.is_valid():
            try:
                proposal_texts_save(
                    cell=cell,
                    actor=request.user,
                    language=language,
                    generated=authoring.generated_texts(status, language),
                    **form.cleaned_data,
                )
            except ValidationError as exc:
                add_errors(form, exc)
            else:
                saved = True
        if saved:
            if not is_fragment_request(request):
                url = reverse("compliance:proposal", args=[cell.pk])
                return redirect(f"{url}#texts-{language}")
            form = None
        else:
            code = 400
    editing = language if form is not None else None
    # A bound form shows what was sent; else the texts as they stand.
    texts_form = form if form is not None and form.is_bound else None
    if is_fragment_request(request):
        (block,) = [
            b
            for b in _text_blocks(cell, status, editing=editing, texts_form=texts_form)
            if b["language"] == language
        ]
        block["open"] = True  # the language being worked on stays open
        response = render(
            request,
            TEXTS_BLOCK,
            {"block": block, "cell": cell, "can_edit": True},
            status=code,
        )
        patch_vary_headers(response, ["HX-Request"])
        return response
    context = _context(
        request, cell, status, None, notes, editing=editing, texts_form=texts_form
    )
    return render_page(request, PAGE, context, fragment="proposal", status=code)


def previews_for(user):
    """Previews of the user's organisations' proposals."""
    return ProposalPreview.objects.filter(
        proposal__cell__project__organisation__memberships__user=user
    )


def with_pages(previews):
    """Previews, the newest first, with their pages' numbers and sizes (not
    their images)."""
    pages = ProposalPreviewPage.objects.defer("image", "thumbnail")
    return (
        previews.select_related("requested_by")
        .prefetch_related(Prefetch("pages", queryset=pages))
        .order_by("-requested_at", "-pk")
    )


@login_required
def proposal_preview_request(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """Preview: the PDF with the form's language, sections and choices and
    the texts as they stand, drawn as page images by a worker; no version is
    made. Answers 202 while it is being drawn (the preview polls)."""
    outer = cell_selectors.cell_for(request.user, cell_pk)
    if request.method != "POST":
        return redirect("compliance:proposal", outer.pk)
    if not can_edit(request.user, outer.project.organisation_id):
        raise PermissionDenied
    cell, status, notes = _state(request, cell_pk)
    form = ProposalForm(request.POST, notes=notes)
    # A preview needs no tick: it is no version, and shows what to put right.
    valid = form.is_valid() or set(form.errors) == {"acknowledge"}
    form.errors.pop("acknowledge", None)
    code = 202
    if valid:
        try:
            preview = services.proposal_preview_request(
                cell=cell,
                actor=request.user,
                language=form.cleaned_data["language"],
                sections=form.cleaned_data["sections"],
                **form.choices(),
            )
        except QueueUnavailable as exc:
            form.add_error(None, str(exc))
            code = 503
        else:
            if not is_fragment_request(request):
                url = reverse("compliance:proposal", args=[cell.pk])
                return redirect(f"{url}#previews")
            # Drawn already where tasks run in-process: then no longer 202.
            preview.refresh_from_db(fields=["status"])
            code = 200 if preview.finished else 202
            # The form as it was sent, to build the version previewed.
            form = ProposalForm(
                notes=notes,
                initial={
                    **form.cleaned_data,
                    "rules_shown": preview.rules_shown,
                    "passes_shown": preview.passes_shown,
                },
            )
    else:
        code = 400
    return render_page(
        request,
        PAGE,
        _context(request, cell, status, form, notes),
        fragment="proposal",
        status=code,
    )


PREVIEW_BLOCK = "compliance/proposals/partials/proposal_preview.html"


@login_required
def proposal_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """One preview: polled by the page while it is drawn (202), then its
    pages (200)."""
    preview = get_object_or_404(with_pages(previews_for(request.user)), pk=pk)
    with suppress(QueueUnavailable):  # tried again at the next poll
        proposal_document_recover(document=preview)
    response = render(
        request,
        PREVIEW_BLOCK,
        {"preview": preview},
        status=200 if preview.finished else 202,
    )
    return response


@login_required
def proposal_preview_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A page of a ready preview as a PNG (``?size=thumbnail``: its
    thumbnail), for the members of its organisation."""
    field = "thumbnail" if request.GET.get("size") == "thumbnail" else "image"
    page = get_object_or_404(
        ProposalPreviewPage.objects.filter(
            preview__in=previews_for(request.user).filter(
                status=ProposalPreview.Status.READY
            )
        ).only("pk", field),
        preview_id=pk,
        number=number,
    )
    response = HttpResponse(bytes(getattr(page, field)), content_type="image/png")
    response["X-Content-Type-Options"] = "nosniff"
    # The page's address carries the build's stamp (?v=): a preview asked for
    # again is at a new address, so a cached page is never a stale one.
    response["Cache-Control"] = "private, max-age=86400"
    return response


def _today(request: HttpRequest, cell):
    """The stamp the cell's findings get now (its whole layout read)."""
    return cell_stamp(
        versioned(
            cell.pk, lambda: cell_selectors.cell_with_layout(request.user, cell.pk)
        )
    )


@login_required
def proposal_document_row(request: HttpRequest, pk: int) -> HttpResponse:
    """One version's row: polled by the page while the PDF is being built."""
    document = get_object_or_404(documents_for(request.user), pk=pk)
    with suppress(QueueUnavailable):  # tried again at the next poll
        proposal_document_recover(document=document)
    can = can_edit(request.user, document.proposal.cell.project.organisation_id)
    if document.status == ProposalDocument.Status.READY:
        (document,) = with_supersession(
            [document], _today(request, document.proposal.cell)
        )
    return render_page(
        request,
        "compliance/proposals/partials/proposal_row.html",
        {"document": document, "can_edit": can},
    )


@login_required
def proposal_document_rebuild(request: HttpRequest, pk: int) -> HttpResponse:
    """A new version of the proposal, in the language and with the sections
    of this one, computed under the current rules (after a rule, a pack or
    an edition changed). GET shows the proposal page."""
    document = get_object_or_404(documents_for(request.user), pk=pk)
    cell_id = document.proposal.cell_id
    if request.method != "POST":
        return redirect("compliance:proposal", cell_id)
    if not can_edit(request.user, document.proposal.cell.project.organisation_id):
        raise PermissionDenied
    try:
        proposal_rebuild(document=document, actor=request.user)
    except QueueUnavailable as exc:
        cell, status, _notes = _state(request, cell_id)
        form = ProposalForm(notes=[])
        form.add_error(None, str(exc))
        context = _context(request, cell, status, form)
        return render_page(request, PAGE, context, status=503)
    return redirect("compliance:proposal", cell_id)


def ready_document(user, pk: int) -> ProposalDocument:
    """A ready document of the user's organisations, with its PDF; 404 for
    anyone else's, and for one not ready yet."""
    return get_object_or_404(
        ProposalDocument.objects.filter(
            proposal__cell__project__organisation__memberships__user=user,
            status=ProposalDocument.Status.READY,
        ).select_related("proposal"),
        pk=pk,
    )


def pdf_response(document: ProposalDocument) -> HttpResponse:
    """The PDF as a download under its safe file name."""
    response = HttpResponse(bytes(document.pdf), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{document.filename}"'
    response["X-Content-SHA256"] = document.sha256
    return response


@login_required
def proposal_document_download(request: HttpRequest, pk: int) -> HttpResponse:
    return pdf_response(ready_document(request.user, pk))


@login_required
def proposal_document_retry(request: HttpRequest, pk: int) -> HttpResponse:
    """Build a failed (or long waiting) version again."""
    document = get_object_or_404(documents_for(request.user), pk=pk)
    if request.method != "POST":
        return redirect("compliance:proposal", document.proposal.cell_id)
    if not can_edit(request.user, document.proposal.cell.project.organisation_id):
        raise PermissionDenied
    status = 200
    # Finished meanwhile: nothing to do, the row shows what it is now.
    with suppress(ValidationError):
        try:
            proposal_retry(document=document, actor=request.user)
        except QueueUnavailable:
            status = 503  # the row is failed again, saying why
    document = get_object_or_404(documents_for(request.user), pk=pk)
    return render_page(
        request,
        "compliance/proposals/partials/proposal_row.html",
        {"document": document, "can_edit": True},
        status=status,
    )


BRANDING_PAGE = "compliance/proposals/branding_edit.html"


@login_required
def branding_edit(request: HttpRequest, org_pk: int) -> HttpResponse:
    """The organisation's name, address and logo on its proposals' cover and
    page headers; members see it, its solution architects change it."""
    organisation = get_object_or_404(
        cell_selectors.organisations_for(request.user), pk=org_pk
    )
    branding = (
        OrganisationBranding.objects.filter(organisation=organisation)
        .defer("logo")
        .first()
    )
    may_change = can_brand(request.user, organisation.pk)
    form = BrandingForm(request.POST or None, request.FILES or None, instance=branding)
    status = 200
    if request.method == "POST":
        if not may_change:
            raise PermissionDenied
        if form.is_valid():
            branding_save(
                organisation=organisation,
                actor=request.user,
                display_name=form.cleaned_data["display_name"],
                address=form.cleaned_data["address"],
                logo=form.cleaned_data["logo_file"],
                remove_logo=form.cleaned_data["remove_logo"],
            )
            return redirect("compliance:branding_edit", organisation.pk)
        status = 400
    context = {
        "organisation": organisation,
        "branding": branding,
        "form": form,
        "can_change": may_change,
    }
    return render_page(request, BRANDING_PAGE, context, status=status)


@login_required
def branding_logo(request: HttpRequest, org_pk: int) -> HttpResponse:
    """The organisation's logo as stored, for its members."""
    organisation = get_object_or_404(
        cell_selectors.organisations_for(request.user), pk=org_pk
    )
    branding = get_object_or_404(
        OrganisationBranding, organisation=organisation, logo__isnull=False
    )
    response = HttpResponse(bytes(branding.logo), content_type=branding.logo_type)
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, max-age=60"
    return response
