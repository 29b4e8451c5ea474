"""What the law and the standards require of a cell: findings and the rules."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from cells import selectors as cell_selectors
from compliance.assessment.models import RevisionStatus, SignatureDeclaration
from compliance.calculators.editions import DEFAULT_REASONS, STANDARDS
from compliance.proposals.models import ProposalDocument
from compliance.rules import history
from compliance.rules.engine import ALL_PACKS, all_rules
from compliance.rules.inputs import versioned
from compliance.rules.selectors import (
    STATUS_LABELS,
    STATUS_ORDER,
    cell_findings,
    cell_stamp,
    findings_first,
    groups_between,
    open_findings,
    rule_events,
    shown_rule,
    shown_stamp,
    shown_supersession,
    status_filter,
)

SUMMARY_ROWS = 6
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


@login_required
def compliance_summary(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """The findings in brief, for the cell page: loaded after every redraw of
    the layout, so it follows the layout as it is edited. Fails are listed
    first, then what needs evidence, then warnings; the rest are counted."""
    cell = versioned(cell_pk, lambda: cell_selectors.cell_for(request.user, cell_pk))
    data = cell_findings(cell)
    found = open_findings(data)
    rest = found[SUMMARY_ROWS:]
    context = {
        "cell": cell,
        "summary": findings_first(data)["summary"],
        "open_findings": found[:SUMMARY_ROWS],
        "more": len(rest),
        "more_fails": sum(1 for f in rest if f["status"] == "fail"),
    }
    return render(request, "compliance/rules/partials/compliance_summary.html", context)


@login_required
def rules(request: HttpRequest) -> HttpResponse:
    """Every rule of every pack with its history by release, the rules
    removed, and the editions of the standards with the defaults."""
    packs = [
        {
            "key": pack.key,
            "title": _(pack.title),
            "version": pack.version,
            "rules": [
                shown_rule(rule) | {"history": rule_events(rule.id)}
                for rule in pack.rules
            ],
        }
        for pack in ALL_PACKS
    ]
    removed = [
        {"id": rule_id, "history": rule_events(rule_id)}
        for rule_id in history.removed_rules()
    ]
    standards = [
        {
            "title": standard.title,
            "choosable": standard.choosable,
            "editions": [
                {
                    "label": edition.label,
                    "published": edition.published,
                    "changes": _(edition.changes),
                    "two_sources": edition.confirmed_two_sources,
                    "sources": edition.sources,
                }
                for edition in standard.editions
            ],
        }
        for standard in STANDARDS.values()
    ]
    return render(
        request,
        "compliance/rules/rule_list.html",
        {
            "packs": packs,
            "count": len(all_rules()),
            "release": history.CURRENT,
            "release_note": _(history.CURRENT.note),
            "removed": removed,
            "standards": standards,
            "defaults": [_(reason) for reason in DEFAULT_REASONS.values()],
        },
    )
