"""The Compliance tab of a cell: what the law requires, on one page (the
legal answer, ``compliance.plan.legal``), then every finding by rule, the
statute text folded away. In the app's shell: it reads the rules, the plan
and the proposals."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from cells import selectors as cell_selectors
from compliance.assessment.models import RevisionStatus, SignatureDeclaration
from compliance.plan.legal_selectors import cell_answer, shown_answer
from compliance.proposals.models import ProposalDocument
from compliance.rules.inputs import versioned
from compliance.rules.selectors import (
    STATUS_LABELS,
    STATUS_ORDER,
    cell_findings,
    cell_stamp,
    findings_first,
    groups_between,
    shown_stamp,
    shown_supersession,
    status_filter,
)

# Findings a page on the Compliance tab.
FINDINGS_PER_PAGE = 100
# How much of an unknown ``?status=`` value the page repeats back.
ECHO_CHARS = 40


@login_required
def cell_compliance(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """Every finding of the cell, fails first; ``?status=fail`` (or
    ``needs_evidence``, ``warning``, ``pass``) shows only those. An unknown
    status is ignored, and the page says so."""
    cell = versioned(cell_pk, lambda: cell_selectors.cell_for(request.user, cell_pk))
    asked = request.GET.get("status", "")
    status = status_filter(asked)
    data = cell_findings(cell)
    shown = findings_first(data, status)
    # A page of findings at a time, fails first; the fails listed up front
    # on the first page.
    positions = range(sum(len(group["findings"]) for group in shown["groups"]))
    page = Paginator(positions, FINDINGS_PER_PAGE).get_page(request.GET.get("page"))
    start = page.start_index() - 1 if len(page) else 0
    context = {
        "cell": cell,
        "project": cell.project,
        "tab": "compliance",
        "status": status,
        "status_label": STATUS_LABELS[status] if status else "",
        "ignored_status": asked[:ECHO_CHARS] if asked and status is None else "",
        "statuses": [(s, STATUS_LABELS[s]) for s in STATUS_ORDER],
        "summary": shown["summary"],
        "groups": groups_between(shown["groups"], start, start + len(page)),
        "fails": shown["fails"] if page.number == 1 else [],
        "page": page,
        # What the law requires leads the first page of every finding.
        "answer": shown_answer(cell_answer(cell))
        if page.number == 1 and not status
        else None,
    }
    today = data.get("computed_under") or cell_stamp(cell)
    context |= {
        "stamp": shown_stamp(today),
        "signed_under": _signed_under(cell, today),
        "proposal_under": _proposal_under(cell, today),
    }
    return render(request, "compliance/rules/cell_compliance.html", context)


def _signed_under(cell, today) -> dict | None:
    """The latest signed revision of the cell and whether the rules its
    declaration was computed under are superseded (one query)."""
    declaration = (
        SignatureDeclaration.objects.filter(
            revision__assessment__cell=cell, revision__status=RevisionStatus.SIGNED
        )
        .select_related("revision")
        .order_by("-revision__number")
        .only("computed_under", "revision__number", "revision__id")
        .first()
    )
    if declaration is None:
        return None
    return {
        "revision": declaration.revision.number,
        **shown_supersession(declaration.computed_under, today),
    }


def _proposal_under(cell, today) -> dict | None:
    """The newest built proposal version of the cell and whether the rules it
    was computed under are superseded (one query)."""
    document = (
        ProposalDocument.objects.filter(
            proposal__cell=cell, status=ProposalDocument.Status.READY
        )
        .order_by("-finished_at", "-pk")
        .only("id", "version", "language", "computed_under")
        .first()
    )
    if document is None:
        return None
    return {
        "version": document.version,
        "language": document.language,
        **shown_supersession(document.computed_under, today),
    }
