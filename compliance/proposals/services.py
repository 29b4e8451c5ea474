"""Proposal PDFs: requesting one (a new version of the cell's proposal, built
by a Celery task after the request commits) or building a version again, and
sending again the versions whose worker died. The build itself, run by the
task in a worker, is ``compliance.proposals.building``.

The task is sent once the row is committed (sent earlier, a worker could look
for the row before it exists). When the broker cannot be reached then, the
row is undone (a new version deleted, a retried one failed again) and
``tasks.QueueUnavailable`` raised, so nothing waits for a task that was never
sent; the views answer 503. Sending again a row whose worker died is
``tasks.proposal_document_recover`` and the sweep beside it."""

from __future__ import annotations

from functools import partial

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from cells import selectors as cell_selectors
from cells.models import Cell, Role
from cells.permissions import require_edit, role_in
from compliance.proposals import authoring
from compliance.proposals.checks import prebuild_notes
from compliance.proposals.models import (
    LANGUAGES,
    OrganisationBranding,
    Proposal,
    ProposalDocument,
    ProposalPreview,
    ProposalText,
    ShownPasses,
    ShownRules,
)
from compliance.proposals.pdf.data import SECTIONS
from compliance.proposals.selectors import cell_status
from compliance.proposals.tasks import QUEUE_UNAVAILABLE, build_preview, send
from compliance.rules.inputs import versioned

Status = ProposalDocument.Status


def proposal_number(cell: Cell) -> str:
    return f"CSP-{cell.project_id:04d}-{cell.pk:04d}"


def _proposal_locked(cell: Cell, actor) -> Proposal:
    """The cell's proposal, made on first use, locked for the transaction."""
    proposal, _created = Proposal.objects.get_or_create(
        cell=cell, defaults={"number": proposal_number(cell), "created_by": actor}
    )
    return Proposal.objects.select_for_update().get(pk=proposal.pk)


def _check_choices(rules: str | None, passes: str | None) -> None:
    if rules is not None and rules not in ShownRules.values:
        raise ValidationError({"rules_shown": _("Choose which rules to show.")})
    if passes is not None and passes not in ShownPasses.values:
        raise ValidationError(
            {"passes_shown": _("Choose how to show the checks that passed.")}
        )


def _choose(proposal: Proposal, rules: str | None, passes: str | None) -> None:
    """Keep the SA's choices of what to show with the proposal."""
    _check_choices(rules, passes)
    changed = []
    if rules is not None and rules != proposal.rules_shown:
        proposal.rules_shown = rules
        changed.append("rules_shown")
    if passes is not None and passes != proposal.passes_shown:
        proposal.passes_shown = passes
        changed.append("passes_shown")
    if changed:
        proposal.save(update_fields=changed)


@transaction.atomic
def proposal_choices_save(
    *, cell: Cell, actor, rules: str | None = None, passes: str | None = None
) -> Proposal:
    """What the proposal shows: every rule or those that apply; the checks
    that passed summarised, in full or left out."""
    require_edit(actor, cell.project.organisation_id)
    proposal = _proposal_locked(cell, actor)
    _choose(proposal, rules, passes)
    return proposal


def _check_language(language: str) -> None:
    if language not in dict(LANGUAGES):
        raise ValidationError({"language": _("Choose Korean or English.")})


def _normalised(text: str) -> str:
    return "\n".join(
        line.rstrip() for line in text.replace("\r\n", "\n").split("\n")
    ).strip()


@transaction.atomic
def proposal_texts_save(
    *,
    cell: Cell,
    actor,
    language: str,
    summary: str | None = None,
    safety_concept: str | None = None,
    generated: authoring.GeneratedTexts | None = None,
) -> ProposalText:
    """The SA's executive summary and safety concept in ``language`` (None:
    left as it is). A text left as generated from the cell, or emptied, is
    not kept: the proposal goes on using the generated one, which follows
    the cell as it changes. ``generated``: the generated texts in
    ``language``, when the caller has them."""
    require_edit(actor, cell.project.organisation_id)
    _check_language(language)
    limits = {
        "summary": (summary, ProposalText.SUMMARY_MAX),
        "safety_concept": (safety_concept, ProposalText.SAFETY_CONCEPT_MAX),
    }
    for name, (value, limit) in limits.items():
        if value is not None and len(_normalised(value)) > limit:
            raise ValidationError(
                {name: _("At most %(limit)s characters.") % {"limit": f"{limit:,}"}}
            )
    proposal = _proposal_locked(cell, actor)
    if generated is None:
        generated = authoring.generated_texts(
            cell_status(
                versioned(
                    cell.pk, lambda: cell_selectors.cell_with_layout(actor, cell.pk)
                )
            ),
            language,
        )
    text, _created = ProposalText.objects.select_for_update().get_or_create(
        proposal=proposal, language=language
    )
    for name, (value, _limit) in limits.items():
        if value is None:
            continue
        value = _normalised(value)
        if value == _normalised(getattr(generated, name)):
            value = ""  # left as generated: keeps following the cell
        setattr(text, name, value)
    text.updated_by = actor
    text.save()
    return text


@transaction.atomic
def proposal_text_reset(*, cell: Cell, actor, language: str, name: str) -> None:
    """Go back to the text generated from the cell for ``name`` ("summary"
    or "safety_concept") in ``language``."""
    require_edit(actor, cell.project.organisation_id)
    _check_language(language)
    if name not in ("summary", "safety_concept"):
        raise ValidationError(_("No such text."))
    ProposalText.objects.filter(proposal__cell=cell, language=language).update(
        **{name: "", "updated_by": actor, "updated_at": timezone.now()}
    )


@transaction.atomic
def proposal_request(
    *,
    cell: Cell,
    actor,
    language: str,
    sections: list[str] | tuple[str, ...],
    notes: list[str] | None = None,
    rules: str | None = None,
    passes: str | None = None,
) -> ProposalDocument:
    """A new version of the cell's proposal, pending; the task that builds it
    is sent once the transaction commits. ``notes``: what the check before
    building said (worked out here when not given), kept with the version.
    ``rules``, ``passes``: what to show, kept with the proposal (None: as it
    is); the version records them, so building it again shows the same."""
    require_edit(actor, cell.project.organisation_id)
    _check_choices(rules, passes)
    if notes is None:
        notes = prebuild_notes(
            versioned(cell.pk, lambda: cell_selectors.cell_with_layout(actor, cell.pk))
        )
    chosen = [s for s in SECTIONS if s in sections]
    # Locked, so two requests cannot take the same version number.
    proposal = _proposal_locked(cell, actor)
    _choose(proposal, rules, passes)
    # Versions count within the language: each language's PDFs are their
    # own series (the first English build is version 1 after Korean ones).
    last = (
        proposal.documents.filter(language=language).aggregate(last=Max("version"))[
            "last"
        ]
        or 0
    )
    document = ProposalDocument.objects.create(
        proposal=proposal,
        version=last + 1,
        language=language,
        sections=chosen,
        rules_shown=proposal.rules_shown,
        passes_shown=proposal.passes_shown,
        requested_by=actor,
        notes=list(notes),
    )
    # Only a row no worker has touched is deleted: had the message reached the
    # broker after all, a worker building it keeps its row.
    undo = ProposalDocument.objects.filter(
        pk=document.pk, status=Status.PENDING, attempts=0
    ).delete
    transaction.on_commit(partial(send, document.pk, undo=undo))
    return document


def proposal_rebuild(*, document: ProposalDocument, actor) -> ProposalDocument:
    """A new version like ``document`` (its language and sections), computed
    under the rules of now: the way out of "computed under superseded
    rules". The check before building runs again for it."""
    return proposal_request(
        cell=document.proposal.cell,
        actor=actor,
        language=document.language,
        sections=list(document.sections),
    )


@transaction.atomic
def proposal_retry(*, document: ProposalDocument, actor) -> ProposalDocument:
    """Build the same version again: after a failure, or when its task was
    lost. The claim makes a duplicate task harmless."""
    require_edit(actor, document.proposal.cell.project.organisation_id)
    document = ProposalDocument.objects.select_for_update().get(pk=document.pk)
    if not document.retryable:
        raise ValidationError(
            _("Only a failed document, or one long waiting, can be built again.")
        )
    document.status = Status.PENDING
    document.error = ""
    document.claim = ""
    document.save(update_fields=["status", "error", "claim"])
    undo = partial(
        ProposalDocument.objects.filter(pk=document.pk, status=Status.PENDING).update,
        status=Status.FAILED,
        error=str(QUEUE_UNAVAILABLE),
    )
    transaction.on_commit(partial(send, document.pk, undo=undo))
    return document


@transaction.atomic
def proposal_preview_request(
    *,
    cell: Cell,
    actor,
    language: str,
    sections: list[str] | tuple[str, ...],
    rules: str | None = None,
    passes: str | None = None,
) -> ProposalPreview:
    """The proposal as the next version would be, drawn as page images by a
    worker once the transaction commits: the preview in ``language``,
    replacing the one before. No version is made. Building one is what
    previewing is, so it takes the same right."""
    require_edit(actor, cell.project.organisation_id)
    _check_language(language)
    _check_choices(rules, passes)
    proposal = _proposal_locked(cell, actor)
    _choose(proposal, rules, passes)
    preview, _created = ProposalPreview.objects.select_for_update().get_or_create(
        proposal=proposal, language=language
    )
    # Reset: a task still building the one replaced no longer holds it.
    preview.sections = [s for s in SECTIONS if s in sections]
    preview.rules_shown = proposal.rules_shown
    preview.passes_shown = proposal.passes_shown
    preview.status = Status.PENDING
    preview.error = preview.claim = preview.worker = ""
    preview.attempts = 0
    preview.started_at = preview.finished_at = preview.page_count = None
    preview.requested_by = actor
    preview.requested_at = timezone.now()
    preview.save()
    preview.pages.all().delete()
    undo = partial(
        ProposalPreview.objects.filter(
            pk=preview.pk, status=Status.PENDING, attempts=0
        ).update,
        status=Status.FAILED,
        error=str(QUEUE_UNAVAILABLE),
        finished_at=timezone.now(),
    )
    transaction.on_commit(partial(send, preview.pk, undo=undo, task=build_preview))
    return preview


@transaction.atomic
def branding_save(
    *,
    organisation,
    actor,
    display_name: str,
    address: str,
    logo: tuple[bytes, str] | None = None,
    remove_logo: bool = False,
) -> OrganisationBranding:
    """Set how the organisation presents itself on its proposals. Only its
    solution architects may (the role that prepares the proposals)."""
    require_branding(actor, organisation.pk)
    branding, _created = OrganisationBranding.objects.select_for_update().get_or_create(
        organisation=organisation
    )
    branding.display_name = display_name.strip()
    branding.address = address.strip()
    if logo is not None:
        branding.logo, branding.logo_type = logo
    elif remove_logo:
        branding.logo, branding.logo_type = None, ""
    branding.updated_by = actor
    branding.save()
    return branding


def can_brand(user, organisation_id: int) -> bool:
    return role_in(user, organisation_id) == Role.SOLUTION_ARCHITECT


def require_branding(user, organisation_id: int) -> None:
    if not can_brand(user, organisation_id):
        raise PermissionDenied(
            _("Only the organisation's solution architects can change its branding.")
        )
