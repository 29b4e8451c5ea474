"""Reads of the compliance findings: the rules that apply to a cell and what
each found, shaped for the pages, the API and the proposal, in the reader's
language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from compliance.rules.citations import citation_text
from compliance.rules.engine import summary
from compliance.rules.facts import CELL_SUBJECT
from compliance.rules.findings import Finding, Rule
from compliance.rules.results import cell_results, in_language, kept

STATUS_LABELS = {
    "pass": gettext_lazy("Pass"),
    "fail": gettext_lazy("Fail"),
    "warning": gettext_lazy("Warning"),
    "needs_evidence": gettext_lazy("Needs evidence"),
}


CERTAINTY_LABELS = {
    "verified_official": gettext_lazy("Verified against the official text"),
    "secondary_sources": gettext_lazy("Reproduced from secondary sources"),
    "to_be_confirmed": gettext_lazy("To be confirmed"),
}


VOLATILITY_LABELS = {
    "low": gettext_lazy("rarely changes"),
    "medium": gettext_lazy("changes now and then"),
    "high": gettext_lazy("changes often"),
}


def _korean() -> bool:
    return (get_language() or "").startswith("ko")


def rule_text(rule: Rule) -> str:
    return rule.text_ko if _korean() else _(rule.text_en)


def shown_citation(citation: str) -> str:
    """A rule's or finding's citation in the reader's language."""
    return citation_text(citation, _, korean=_korean())


def shown_rule(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.id,
        "jurisdiction": rule.jurisdiction,
        "citation": shown_citation(rule.citation),
        "text": rule_text(rule),
        "certainty": rule.certainty,
        "certainty_label": str(CERTAINTY_LABELS[rule.certainty]),
        "checked_on": rule.checked_on,
        "volatility": str(VOLATILITY_LABELS.get(rule.volatility, rule.volatility)),
        "caveat": _(rule.caveat) if rule.caveat else "",
        "sources": rule.sources,
    }


def subject_label(finding: Finding) -> str:
    """The finding's subject in the reader's language: the app's own words (the
    cell, an unguarded gap) are translated; a label the user typed is not."""
    if finding.subject_key == CELL_SUBJECT or finding.subject_key.startswith("gap:"):
        return _(finding.subject_label)
    return finding.subject_label


def shown_finding(finding: Finding) -> dict[str, Any]:
    return {
        "status": str(finding.status),
        "status_label": str(STATUS_LABELS[finding.status]),
        "subject": subject_label(finding),
        "message": finding.render(_),
        "numbers": finding.numbers,
        "citation": shown_citation(finding.citation),
        "certainty": str(finding.certainty),
        "certainty_label": str(CERTAINTY_LABELS[finding.certainty]),
        "details": [line.render(_) for line in finding.details],
        "notes": [line.render(_) for line in finding.notes],
    }


def cell_findings(cell) -> dict[str, Any]:
    """Every rule that applies to the cell's country, with its findings, in
    the reader's language: rendered once per change of the cell and
    language (``compliance.rules.results``). Plain data, shared: read it,
    do not change it."""

    def shown() -> dict[str, Any]:
        found = cell_results(cell)
        counts = summary(found)
        return {
            "summary": [(str(STATUS_LABELS[s]), str(s), n) for s, n in counts.items()],
            "groups": [
                {
                    "rule": shown_rule(r.rule),
                    "findings": [shown_finding(f) for f in r.findings],
                }
                for r in found
            ],
        }

    return kept(cell, in_language("shown"), shown)


# Fails first, then what cannot be checked, then the exceptions someone must
# stand behind; passes last.
STATUS_ORDER = ("fail", "needs_evidence", "warning", "pass")
_RANK = {status: rank for rank, status in enumerate(STATUS_ORDER)}


def status_filter(value: str | None) -> str | None:
    """A ``?status=`` value the pages accept, or None (show everything)."""
    return value if value in _RANK else None


def findings_first(data: dict[str, Any], status: str | None = None) -> dict[str, Any]:
    """``cell_findings`` as the pages show it: the summary and the findings
    of each rule with fails first, the rules with a fail first (the packs'
    order kept among equals), and every fail listed up front. ``status``
    (one of ``STATUS_ORDER``) keeps only the findings of that status."""
    counts = {status: (label, n) for label, status, n in data["summary"]}
    groups = []
    for group in data["groups"]:
        findings = sorted(group["findings"], key=lambda f: _RANK[f["status"]])
        if status is not None:
            findings = [f for f in findings if f["status"] == status]
            if not findings:
                continue
        groups.append({**group, "findings": findings})
    groups.sort(
        key=lambda g: min((_RANK[f["status"]] for f in g["findings"]), default=99)
    )
    return {
        "summary": [
            (counts[s][0], s, counts[s][1]) for s in STATUS_ORDER if s in counts
        ],
        "groups": groups,
        "fails": open_findings(data, ("fail",)),
    }


def open_findings(
    data: dict[str, Any], statuses: tuple[str, ...] = STATUS_ORDER[:3]
) -> list[dict[str, Any]]:
    """The findings of ``statuses`` with their rule id, in the order of
    ``STATUS_ORDER`` (fails first), the packs' order kept among equals."""
    found = [
        {**finding, "rule_id": group["rule"]["id"]}
        for group in data["groups"]
        for finding in group["findings"]
        if finding["status"] in statuses
    ]
    return sorted(found, key=lambda f: _RANK[f["status"]])


def groups_between(
    groups: list[dict[str, Any]], start: int, end: int
) -> list[dict[str, Any]]:
    """The groups with their findings from the ``start``-th to before the
    ``end``-th, counting every group's findings in order: a page of them. A
    group whose findings run over two pages is on both; a group with no
    findings is on the page where it falls in order (after the last finding:
    the last page)."""
    total = sum(len(group["findings"]) for group in groups)
    shown, position = [], 0
    for group in groups:
        findings = group["findings"]
        if not findings:
            if start <= position < end or position == end == total:
                shown.append(group)
            continue
        inside = findings[max(start - position, 0) : max(end - position, 0)]
        if inside:
            shown.append({**group, "findings": inside})
        position += len(findings)
    return shown
