"""What the law and the standards require of a cell: findings and the rules."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from cells import selectors as cell_selectors
from compliance.rules.engine import all_rules, rule_packs_for
from compliance.rules.selectors import cell_findings, shown_rule


@login_required
def cell_compliance(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = cell_selectors.cell_with_layout(request.user, cell_pk)
    context = {
        "cell": cell,
        "project": cell.project,
        "tab": "compliance",
        **cell_findings(cell),
    }
    return render(request, "compliance/rules/cell_compliance.html", context)


@login_required
def compliance_summary(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """The findings in brief, for the cell page: loaded after every redraw of
    the layout, so it follows the layout as it is edited."""
    cell = cell_selectors.cell_with_layout(request.user, cell_pk)
    data = cell_findings(cell)
    open_findings = [
        {**finding, "rule_id": group["rule"]["id"]}
        for group in data["groups"]
        for finding in group["findings"]
        if finding["status"] != "pass"
    ]
    context = {
        "cell": cell,
        "summary": data["summary"],
        "open_findings": open_findings[:SUMMARY_ROWS],
        "more": max(len(open_findings) - SUMMARY_ROWS, 0),
    }
    return render(request, "compliance/rules/partials/compliance_summary.html", context)


SUMMARY_ROWS = 6


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
