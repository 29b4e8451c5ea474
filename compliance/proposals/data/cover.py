"""The cover and the executive summary of a proposal: who prepared it for
whom, and the figures and texts of the first page (the SA's as written, or
else generated from the cell in the proposal's language)."""

from __future__ import annotations

import base64
from datetime import date

from django.utils.translation import gettext as _

from cells.models import Membership
from compliance.plan.comparison import Comparison
from compliance.proposals import authoring
from compliance.proposals.data.schedule import verdict_text
from compliance.proposals.models import (
    OrganisationBranding,
    ProposalDocument,
    ProposalText,
)
from compliance.proposals.pdf.data import (
    CostsSection,
    ExecutiveSummary,
    ProposalMeta,
    WeeksRange,
)
from compliance.proposals.selectors import CellStatus


def cover_meta(document: ProposalDocument, project, cell, on: date) -> ProposalMeta:
    """The cover: the author by full name and role (the username only when
    no name is given), the organisation as it brands its proposals."""
    requester = document.requested_by
    author, role = "", ""
    if requester is not None:
        author = requester.get_full_name() or requester.username
        membership = Membership.objects.filter(
            user=requester, organisation_id=project.organisation_id
        ).first()
        role = membership.get_role_display() if membership else ""
    branding = OrganisationBranding.objects.filter(
        organisation_id=project.organisation_id
    ).first()
    logo = ""
    if branding is not None and branding.logo:
        logo = base64.b64encode(bytes(branding.logo)).decode("ascii")
    return ProposalMeta(
        number=document.proposal.number,
        version=document.version,
        date=on,
        prepared_by=author,
        prepared_by_role=str(role),
        organisation=(branding.display_name if branding else "")
        or project.organisation.name,
        organisation_address=branding.address if branding else "",
        logo=logo,
        customer=project.customer_name,
        site=project.site_name,
        cell_name=cell.name,
    )


def _recommendation(comparison: Comparison) -> str | None:
    """Sim-first or physical-first where the figures put one ahead, at both
    ends of the ranges, on the PoC start or the cost; None otherwise."""
    decisive = [v for v in comparison.verdict if v.measure in ("poc_start", "cost")]
    sim = any(v.outcome == "sim_first_ahead" for v in decisive)
    physical = any(v.outcome == "physical_first_ahead" for v in decisive)
    if sim and not physical:
        return "sim_first"
    if physical and not sim:
        return "physical_first"
    return None


def executive_summary(
    document: ProposalDocument,
    status: CellStatus,
    costs: CostsSection,
    comparison: Comparison,
) -> ExecutiveSummary:
    """The figures, and the texts: the SA's as written, or else generated
    from the cell in the proposal's language."""
    recommendation = _recommendation(comparison)
    written = ProposalText.objects.filter(
        proposal_id=document.proposal_id, language=document.language
    ).first()
    generated = authoring.generated_texts(status, document.language)
    reasons = [verdict_text(v, comparison) for v in comparison.verdict]
    if recommendation is None:
        reasons.append(
            _(
                "The choice depends on what matters most to you: an earlier "
                "result in simulation, or the first result on the real cell; the "
                "figures do not put one plan ahead at both ends of their ranges."
            )
        )
    reasons.append(comparison.maturity_line.render(_))
    return ExecutiveSummary(
        proposed=authoring.proposed(status),
        text=(written.summary if written else "") or generated.summary,
        safety_concept=(written.safety_concept if written else "")
        or generated.safety_concept,
        # The proposal's currency once every priced line converts; until
        # then the total of each currency, never a sum of some.
        costs=(costs.converted,) if costs.converted else costs.totals,
        unpriced_lines=costs.unpriced_lines,
        rates=costs.rates if costs.converted else (),
        weeks_to_poc_physical_first=WeeksRange(
            low=comparison.physical_first.poc_start_weeks_low,
            high=comparison.physical_first.poc_start_weeks_high,
        ),
        weeks_to_poc_sim_first=WeeksRange(
            low=comparison.sim_first.poc_start_weeks_low,
            high=comparison.sim_first.poc_start_weeks_high,
        ),
        recommendation=recommendation,
        reasons=tuple(reasons),
    )
