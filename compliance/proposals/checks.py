"""The check before a proposal is built (issue 15): what a customer would
stumble on in the PDF made now — a risk assessment that is not signed, open
fails, findings that need evidence, lines to be quoted, prices in a currency
the organisation has no exchange rate for today. The SA sees the list on the
proposal page and builds knowingly; the document keeps the list it was built
with."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from compliance.costs.rates import conversion_rates
from compliance.proposals.selectors import CellStatus, cell_status


def prebuild_notes(cell, status: CellStatus | None = None) -> list[str]:
    """What the proposal of ``cell`` (loaded by ``cell_with_layout``) would
    show a customer that needs explaining, in the reader's language; empty
    when nothing does. ``status``: the cell's, when the caller has it."""
    status = status or cell_status(cell)
    notes: list[str] = []
    latest, signed = status.latest, status.signed
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

    fails = status.count("fail")
    evidence = status.count("needs_evidence")
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

    items = status.items
    unpriced = status.to_quote
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
    codes = {i.currency for i in items if i.total_low is not None and i.currency}
    # The proposal is dated the day it is requested: today's rates.
    missing = conversion_rates(project, codes).missing_for(codes, project.currency)
    if missing:
        notes.append(
            ngettext(
                "No exchange rate for %(missing)s is valid today: the proposal "
                "totals the costs per currency, not in %(currency)s (add the "
                "rate on the organisation's exchange rates page).",
                "No exchange rates for %(missing)s are valid today: the proposal "
                "totals the costs per currency, not in %(currency)s (add the "
                "rates on the organisation's exchange rates page).",
                len(missing),
            )
            % {"currency": project.currency, "missing": ", ".join(missing)}
        )
    return notes
