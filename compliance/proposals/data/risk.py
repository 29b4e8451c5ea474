"""The risk section of a proposal: the hazard register of the latest signed
revision (or else the latest draft, marked as such), with what its signer
declared and the safety configuration it froze."""

from __future__ import annotations

from django.utils.translation import gettext as _

from compliance.assessment import selectors, signing
from compliance.assessment.hazards import catalogue
from compliance.assessment.models import RevisionStatus
from compliance.calculators.written import field_shown
from compliance.proposals.pdf.data import (
    AcceptedFinding,
    HazardRow,
    RiskSection,
    SignatureDeclaration,
)
from compliance.rules.inputs import cell_inputs
from compliance.rules.selectors import config_words


def risk_section(cell) -> RiskSection | None:
    """The latest signed revision, or else the latest draft, marked as such:
    as the findings read them (``cell_inputs``: each register read once, with
    its measures, in their order), not read again."""
    inputs = cell_inputs(cell).load()
    revision = inputs.signed or inputs.draft
    if revision is None:
        return RiskSection(signed=False, revision=1, hazards=())
    hazards = []
    for hazard in revision.hazards.all():
        residual = selectors.hazard_plr(hazard, residual=True)
        measures = tuple(
            m.description
            + (
                f" (PLr {m.plr_required or '?'} / PL {m.pl_claimed or '?'})"
                if m.is_safety_function
                else ""
            )
            for m in hazard.measures.all()
        )
        origin = catalogue.origin(hazard.group, hazard.origin).text
        consequence = catalogue.consequence(hazard.group, hazard.consequence).text
        hazards.append(
            HazardRow(
                hazard=f"{_(origin)} → {_(consequence)}",
                phase=hazard.get_phase_display(),
                # An accepted suggestion's English task, in the proposal's
                # language; the user's own text as typed.
                task=field_shown(hazard, "task", _),
                plr=selectors.hazard_plr(hazard),
                measures=measures,
                residual_risk=f"PLr {residual}" if residual else "—",
            )
        )
    return RiskSection(
        signed=revision.status == RevisionStatus.SIGNED,
        revision=revision.number,
        content_hash=revision.content_hash or None
        if revision.status == RevisionStatus.SIGNED
        else None,
        signed_by=(revision.signed_by.get_full_name() or revision.signed_by.username)
        if revision.signed_by
        else "",
        signed_on=cell.project.local_date(revision.signed_at)
        if revision.signed_at
        else None,
        declaration=_declaration(revision, cell.project.zone)
        if revision.status == RevisionStatus.SIGNED
        else None,
        hazards=tuple(hazards),
        safety_configuration=_frozen_configuration(revision),
    )


def _frozen_configuration(revision) -> str:
    """The safety configuration a signed revision froze, in words."""
    if revision.status != RevisionStatus.SIGNED:
        return ""
    declared = selectors.declaration_of(revision)
    config = declared.safety_configuration if declared is not None else None
    return config_words(config) if config else ""


def _full_name(user) -> str:
    return user.get_full_name().strip() if user is not None else ""


def _declaration(revision, zone) -> SignatureDeclaration | None:
    """What the signer declared, as recorded (in the signer's words and
    language); None for a revision signed before declarations were recorded."""
    declared = selectors.declaration_of(revision)
    if declared is None:
        return None
    return SignatureDeclaration(
        # By full name (the record keeps the username signed with, which is
        # part of what the content hash covers).
        signer=_full_name(declared.signer) or declared.signer_name,
        # In the site's zone, as the other dates, named where printed.
        signed_at=(local := declared.signed_at.astimezone(zone)),
        zone=local.tzname() or "UTC",
        statement=declared.statement,
        translation=signing.statement_translation(declared),
        accepted=tuple(
            AcceptedFinding(
                rule_id=f["rule_id"],
                subject=f.get("subject", ""),
                message=f.get("message", ""),
                reason=f.get("reason", ""),
            )
            for f in declared.accepted_fails
        ),
        needing_evidence=len(declared.needing_evidence),
    )
