"""The Proposal tab of a cell: ask for a PDF in Korean or English with the
sections chosen, watch it being built, download its versions. With the broker
down, asking answers 503 and nothing is left waiting; a polled version whose
worker died is sent again."""

from __future__ import annotations

from contextlib import suppress

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext_lazy

from cells import selectors as cell_selectors
from cells.htmx import is_fragment_request, render_page
from cells.permissions import can_edit
from compliance.proposals.checks import prebuild_notes
from compliance.proposals.forms import BrandingForm
from compliance.proposals.models import OrganisationBranding, ProposalDocument
from compliance.proposals.services import (
    QueueUnavailable,
    branding_save,
    can_brand,
    proposal_document_recover,
    proposal_request,
    proposal_retry,
)
from compliance.rules.inputs import versioned

PAGE = "compliance/proposals/proposal_detail.html"

SECTION_CHOICES = [
    ("summary", gettext_lazy("Executive summary")),
    ("cell", gettext_lazy("The cell and its layout")),
    ("rules", gettext_lazy("Standards and law that apply")),
    ("risk", gettext_lazy("Risk assessment summary")),
    ("findings", gettext_lazy("Compliance findings")),
    ("safety_functions", gettext_lazy("Safety functions")),
    ("specification", gettext_lazy("Safety requirements specification")),
    ("validation", gettext_lazy("Validation plan")),
    ("costs", gettext_lazy("Safeguards and costs")),
    ("schedule", gettext_lazy("Schedule and the sim-first comparison")),
    ("terms", gettext_lazy("Assumptions, exclusions and disclaimers")),
]


class ProposalForm(forms.Form):
    language = forms.ChoiceField(
        label=gettext_lazy("Language"),
        choices=[("ko", "한국어"), ("en", "English")],
    )
    sections = forms.MultipleChoiceField(
        label=gettext_lazy("Sections"),
        choices=SECTION_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": gettext_lazy("Choose at least one section.")},
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


def _notes(request: HttpRequest, cell) -> list[str]:
    """The check before building, for a person who may build."""
    if not can_edit(request.user, cell.project.organisation_id):
        return []
    return prebuild_notes(
        versioned(
            cell.pk, lambda: cell_selectors.cell_with_layout(request.user, cell.pk)
        )
    )


def _context(request: HttpRequest, cell, form=None, notes=None) -> dict:
    # Newest first: versions are counted within each language.
    documents = (
        documents_for(request.user)
        .filter(proposal__cell=cell)
        .order_by("-requested_at", "-pk")
    )
    return {
        "cell": cell,
        "project": cell.project,
        "documents": documents,
        "can_edit": can_edit(request.user, cell.project.organisation_id),
        "notes": notes,
        "form": form
        or ProposalForm(
            notes=notes,
            initial={
                "language": cell.project.proposal_language,
                "sections": [key for key, _label in SECTION_CHOICES],
            },
        ),
    }


@login_required
def proposal(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """The proposal's versions; POST asks for a new one."""
    cell = cell_selectors.cell_for(request.user, cell_pk)
    form = None
    status = 200
    if request.method == "POST" and not can_edit(
        request.user, cell.project.organisation_id
    ):
        raise PermissionDenied
    notes = _notes(request, cell)
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
                )
            except QueueUnavailable as exc:
                form.add_error(None, str(exc))
                status = 503
            else:
                if not is_fragment_request(request):
                    return redirect("compliance:proposal", cell.pk)
                form = None
        else:
            status = 400
    return render_page(
        request,
        PAGE,
        _context(request, cell, form, notes),
        fragment="proposal",
        status=status,
    )


@login_required
def proposal_document_row(request: HttpRequest, pk: int) -> HttpResponse:
    """One version's row: polled by the page while the PDF is being built."""
    document = get_object_or_404(documents_for(request.user), pk=pk)
    with suppress(QueueUnavailable):  # tried again at the next poll
        proposal_document_recover(document=document)
    can = can_edit(request.user, document.proposal.cell.project.organisation_id)
    return render_page(
        request,
        "compliance/proposals/partials/proposal_row.html",
        {"document": document, "can_edit": can},
    )


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
