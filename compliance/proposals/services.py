"""Proposal PDFs: requesting one (a new version of the cell's proposal, built
by a Celery task after the request commits) or building a version again. The
build itself, run by the task in a worker, is ``compliance.proposals.building``."""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from cells.models import Cell
from cells.permissions import require_edit
from compliance.proposals.models import Proposal, ProposalDocument
from compliance.proposals.pdf.data import SECTIONS
from compliance.proposals.tasks import build_proposal

logger = logging.getLogger(__name__)

Status = ProposalDocument.Status


def proposal_number(cell: Cell) -> str:
    return f"CSP-{cell.project_id:04d}-{cell.pk:04d}"


@transaction.atomic
def proposal_request(
    *, cell: Cell, actor, language: str, sections: list[str] | tuple[str, ...]
) -> ProposalDocument:
    """A new version of the cell's proposal, pending; the task that builds it
    is sent once the transaction commits."""
    require_edit(actor, cell.project.organisation_id)
    chosen = [s for s in SECTIONS if s in sections]
    proposal, _created = Proposal.objects.get_or_create(
        cell=cell, defaults={"number": proposal_number(cell), "created_by": actor}
    )
    # Lock the proposal so two requests cannot take the same version number.
    Proposal.objects.select_for_update().get(pk=proposal.pk)
    last = proposal.documents.aggregate(last=Max("version"))["last"] or 0
    document = ProposalDocument.objects.create(
        proposal=proposal,
        version=last + 1,
        language=language,
        sections=chosen,
        requested_by=actor,
    )
    build_proposal.delay_on_commit(document.pk)
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
    build_proposal.delay_on_commit(document.pk)
    return document
