"""What the law and the standards require of a cell: findings and the rules."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from cells import selectors as cell_selectors
from compliance.calculators.editions import DEFAULT_REASONS, STANDARDS
from compliance.rules import history
from compliance.rules.engine import ALL_PACKS, all_rules
from compliance.rules.inputs import versioned
from compliance.rules.selectors import (
    cell_findings,
    findings_first,
    open_findings,
    rule_events,
    shown_rule,
)

SUMMARY_ROWS = 6


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
