"""What the law and the standards require of a cell: findings and the rules."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from cells import selectors as cell_selectors
from compliance.rules.engine import all_rules, rule_packs_for
from compliance.rules.inputs import versioned
from compliance.rules.selectors import (
    STATUS_LABELS,
    STATUS_ORDER,
    cell_findings,
    findings_first,
    groups_between,
    open_findings,
    shown_rule,
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
    shown = findings_first(cell_findings(cell), status)
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
    return render(request, "compliance/rules/cell_compliance.html", context)


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
    packs = [
        {"title": _(pack.title), "rules": [shown_rule(rule) for rule in pack.rules]}
        for pack in rule_packs_for("KR")
    ]
    return render(
        request,
        "compliance/rules/rule_list.html",
        {"packs": packs, "count": len(all_rules())},
    )
