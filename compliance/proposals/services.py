"""Proposal PDFs: requesting one (a new version of the cell's proposal, built
by a Celery task after the request commits) or building a version again, and
sending again the versions whose worker died. The build itself, run by the
task in a worker, is ``compliance.proposals.building``.

The task is sent once the row is committed (sent earlier, a worker could look
for the row before it exists). When the broker cannot be reached then, the
row is undone (a new version deleted, a retried one failed again) and
``QueueUnavailable`` raised, so nothing waits for a task that was never
sent; the views answer 503."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

from celery.utils import uuid
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from kombu.exceptions import OperationalError as BrokerError

from cells import selectors as cell_selectors
from cells.models import Cell, Role
from cells.permissions import require_edit, role_in
from compliance.proposals.building import claim_expired
from compliance.proposals.checks import prebuild_notes
from compliance.proposals.models import (
    OrganisationBranding,
    Proposal,
    ProposalDocument,
)
from compliance.proposals.pdf.data import SECTIONS
from compliance.proposals.tasks import build_proposal
from compliance.rules.inputs import versioned

logger = logging.getLogger(__name__)

Status = ProposalDocument.Status

QUEUE_UNAVAILABLE = gettext_lazy(
    "The PDF service cannot be reached right now, so nothing was queued. "
    "Try again in a few minutes."
)
# Rows sent again per sweep: a sweep stays well inside its time limit.
RECOVER_BATCH = 100


class QueueUnavailable(Exception):
    """The broker could not be reached: the task was not sent."""

    def __init__(self) -> None:
        super().__init__(str(QUEUE_UNAVAILABLE))


def _send(document_id: int, *, task_id: str | None = None, undo: Callable[[], object]):
    """Send the build task now; when the broker cannot take it, undo the row's
    change and raise ``QueueUnavailable``."""
    try:
        build_proposal.apply_async((document_id,), task_id=task_id)
    except BrokerError as exc:
        logger.error("Proposal document %s not queued: %s", document_id, exc)
        undo()
        raise QueueUnavailable from exc


def proposal_number(cell: Cell) -> str:
    return f"CSP-{cell.project_id:04d}-{cell.pk:04d}"


@transaction.atomic
def proposal_request(
    *,
    cell: Cell,
    actor,
    language: str,
    sections: list[str] | tuple[str, ...],
    notes: list[str] | None = None,
) -> ProposalDocument:
    """A new version of the cell's proposal, pending; the task that builds it
    is sent once the transaction commits. ``notes``: what the check before
    building said (worked out here when not given), kept with the version."""
    require_edit(actor, cell.project.organisation_id)
    if notes is None:
        notes = prebuild_notes(
            versioned(cell.pk, lambda: cell_selectors.cell_with_layout(actor, cell.pk))
        )
    chosen = [s for s in SECTIONS if s in sections]
    proposal, _created = Proposal.objects.get_or_create(
        cell=cell, defaults={"number": proposal_number(cell), "created_by": actor}
    )
    # Lock the proposal so two requests cannot take the same version number.
    Proposal.objects.select_for_update().get(pk=proposal.pk)
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
        requested_by=actor,
        notes=list(notes),
    )
    # Only a row no worker has touched is deleted: had the message reached the
    # broker after all, a worker building it keeps its row.
    undo = ProposalDocument.objects.filter(
        pk=document.pk, status=Status.PENDING, attempts=0
    ).delete
    transaction.on_commit(partial(_send, document.pk, undo=undo))
    return document


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
    transaction.on_commit(partial(_send, document.pk, undo=undo))
    return document


def _expired(documents: QuerySet[ProposalDocument]) -> QuerySet[ProposalDocument]:
    """Rows "processing" whose claim has expired: their worker died."""
    return documents.filter(status=Status.PROCESSING).filter(
        Q(started_at__lt=claim_expired()) | Q(started_at__isnull=True)
    )


def _resend(document_id: int) -> bool:
    """Give an expired row a new claim and send the task that holds it. The
    conditional update makes this safe to run from several places at once:
    one takes the row, the others find it no longer expired. ``started_at``
    becomes the new claim's start, so the row is not sent again meanwhile."""
    claim = uuid()
    taken = _expired(ProposalDocument.objects.filter(pk=document_id)).update(
        claim=claim, started_at=timezone.now(), worker=""
    )
    if not taken:
        return False
    # Unsent, the new claim simply expires too and the next sweep sends it.
    _send(document_id, task_id=claim, undo=lambda: None)
    return True


def proposal_document_recover(*, document: ProposalDocument) -> bool:
    """Claim on read: a polled row whose worker died is sent again. Raises
    ``QueueUnavailable`` when the broker cannot take it."""
    if document.status != Status.PROCESSING:
        return False
    if document.started_at and document.started_at >= claim_expired():
        return False  # held: most polls end here, without a query
    return _resend(document.pk)


def proposal_documents_recover() -> list[int]:
    """The periodic sweep (Celery beat): send again every row whose worker
    died, the oldest first. The ids of the rows sent."""
    expired = _expired(ProposalDocument.objects.all()).order_by("started_at")
    sent = []
    for document_id in expired.values_list("pk", flat=True)[:RECOVER_BATCH]:
        if _resend(document_id):
            sent.append(document_id)
    if sent:
        logger.warning("Proposal documents sent again after a lost worker: %s", sent)
    return sent


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
