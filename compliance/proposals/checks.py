"""The check before a proposal is built (issue 15): what a customer would
stumble on in the PDF made now — a risk assessment that is not signed, open
fails, findings that need evidence, lines to be quoted, prices in a currency
the project has no exchange rate for. The SA sees the list on the proposal
page and builds knowingly; the document keeps the list it was built with."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from compliance.assessment.models import Revision, RevisionStatus
from compliance.costs import selectors as cost_selectors
from compliance.proposals import presentation
from compliance.rules.results import cell_finding_list


def prebuild_notes(cell) -> list[str]:
    """What the proposal of ``cell`` (loaded by ``cell_with_layout``) would
    show a customer that needs explaining, in the reader's language; empty
    when nothing does."""
    notes: list[str] = []
    revisions = Revision.objects.filter(assessment__cell=cell).order_by("-number")
    latest = revisions.first()
    signed = revisions.filter(status=RevisionStatus.SIGNED).first()
    if latest is None:
        notes.append(
            _("No risk assessment is recorded: the proposal has no risk register.")
        )
    elif signed is None:
        notes.append(
            _(
                "The risk assessment is not signed: its register (revision "
                "%(number)s) is printed marked DRAFT."
            )
            % {"number": latest.number}
        )
    elif latest.number > signed.number:
        notes.append(
            _(
                "Revision %(draft)s of the risk assessment is not signed yet: the "
                "proposal prints signed revision %(signed)s."
            )
            % {"draft": latest.number, "signed": signed.number}
        )

    findings = cell_finding_list(cell)
    fails = sum(f.status == "fail" for f in findings)
    evidence = sum(f.status == "needs_evidence" for f in findings)
    if fails:
        notes.append(
            ngettext(
                "%(count)s finding fails: the customer reads it in the findings.",
                "%(count)s findings fail: the customer reads them in the findings.",
                fails,
            )
            % {"count": f"{fails:,}"}
        )
    if evidence:
        notes.append(
            ngettext(
                "%(count)s finding needs evidence not yet recorded.",
                "%(count)s findings need evidence not yet recorded.",
                evidence,
            )
            % {"count": f"{evidence:,}"}
        )

    items = cost_selectors.line_items(cell)
    unpriced = sum(1 for i in items if i.total_low is None and i.quantity)
    if unpriced:
        notes.append(
            ngettext(
                "%(count)s cost line is to be quoted: it is not in the total.",
                "%(count)s cost lines are to be quoted: they are not in the total.",
                unpriced,
            )
            % {"count": f"{unpriced:,}"}
        )
    project = cell.project
    missing = sorted(
        {
            i.currency
            for i in items
            if i.total_low is not None
            and i.currency
            and presentation.to_currency(
                i.total_low, i.total_high, i.currency, project.currency, project.rates
            )
            is None
        }
    )
    if missing:
        notes.append(
            _(
                "No exchange rate to %(currency)s is entered for %(missing)s: those "
                "lines are not converted and not in the total (enter the rates on "
                "the project)."
            )
            % {"currency": project.currency, "missing": ", ".join(missing)}
        )
    return notes
