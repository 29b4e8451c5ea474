"""Reads of the compliance findings: the rules that apply to a cell and what
each found, shaped for the pages, the API and the proposal, in the reader's
language."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cells.models import Cell
from cells.selectors import load_layout
from compliance.assessment.checks import CellChecks
from compliance.calculators.editions import STANDARDS
from compliance.calculators.editions import labels as edition_labels
from compliance.calculators.presentation import shown_citation
from compliance.calculators.written import field_shown
from compliance.rules import history, results
from compliance.rules.cell_facts import cell_facts
from compliance.rules.collaborative_motion import PROGRAM_LABEL
from compliance.rules.engine import ALL_PACKS, computed_under, evaluate, summary
from compliance.rules.facts import CELL_SUBJECT
from compliance.rules.findings import Finding, Rule
from compliance.rules.inputs import cell_inputs, versioned
from compliance.rules.results import cell_results, in_language, kept
from compliance.rules.robot import CONFIG_KIND_LABELS

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


def rule_text(rule: Rule) -> str:
    return _(rule.text)


def shown_rule(rule: Rule) -> dict[str, Any]:
    edition = ""
    if rule.edition is not None:
        standard, year = rule.edition
        edition = STANDARDS[standard].edition(year).label
    return {
        "edition": edition,
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


# A robot program's finding subject (``collaborative_motion.program_subject``),
# with a scanner's label after it for speed and separation monitoring.
PROGRAM_SUBJECT = re.compile(r"^Robot program (?P<number>\d+)(?P<rest>, .*)?$", re.S)

# No function named: a finding shown without its cell's functions.
NO_NAMES: Mapping[str, str] = MappingProxyType({})


def function_names(cell) -> dict[str, str]:
    """The names the app wrote for the cell's safety functions (accepted
    proposals', stored in English with their source), each in the reader's
    language, by the name as stored: what a finding's subject or message
    names. A name a person typed or changed is not among them."""
    names = {}
    for function in cell_inputs(cell).load().functions:
        shown = field_shown(function, "name", _)
        if shown != function.name:
            names[function.name] = shown
    return names


def shown_subject(key: str, label: str, names: Mapping[str, str] = NO_NAMES) -> str:
    """A finding's subject in the reader's language: the app's own words (the
    cell, an unguarded gap, an accepted proposal's function name, one of
    ``names``) are translated; a label the user typed is not."""
    if key == CELL_SUBJECT or key.startswith("gap:"):
        return _(label)
    if key.startswith("function:"):
        return names.get(label, label)
    if key.startswith("program:"):
        found = PROGRAM_SUBJECT.match(label)
        if found:
            shown = _(PROGRAM_LABEL) % {"number": found["number"]}
            return shown + (found["rest"] or "")
    return label


def subject_label(finding: Finding, names: Mapping[str, str] = NO_NAMES) -> str:
    return shown_subject(finding.subject_key, finding.subject_label, names)


def finding_translate(names: Mapping[str, str] = NO_NAMES):
    """``gettext`` for a finding's message, that also gives a safety
    function's name the app wrote (one of its values, one of ``names``) in
    the reader's language."""

    def translate(text: str) -> str:
        shown = names.get(text)
        return shown if shown is not None else _(text)

    return translate


def remembering(translate: Callable[[str], str]) -> Callable[[str], str]:
    """``translate`` that works each text out once: the findings of a large
    cell repeat the same messages, notes and words hundreds of times. For
    one rendering in one language."""
    seen: dict[str, str] = {}

    def translated(text: str) -> str:
        try:
            return seen[text]
        except KeyError:
            seen[text] = shown = translate(text)
            return shown

    return translated


def cell_with_layout(cell: Cell) -> Cell:
    """The cell again with what its compliance checks read (as
    ``cells.selectors.cell_with_layout``); the caller has authorised it."""
    return load_layout(
        Cell.objects.select_related("project__organisation").get(pk=cell.pk)
    )


def cell_checks(cell: Cell, *, kept: bool = True) -> CellChecks:
    """The findings of the cell's compliance checks, as the assessment reads
    them, in the reader's language: computed once per change of the cell
    (``compliance.rules.results``) and handed to every hazard. ``kept=False``
    works them out afresh and keeps nothing: for what the cell would be
    (``assessment.services.revision_sign_preview``), not what it is."""
    if not kept:
        cell = cell_with_layout(cell)
        found = evaluate(cell_facts(cell))
        translate = finding_translate(function_names(cell))
        return CellChecks.of((f for r in found for f in r.findings), translate)
    # The layout is read only if the findings are computed.
    loaded = versioned(
        cell.pk,
        lambda: Cell.objects.select_related("project__organisation").get(pk=cell.pk),
    )

    def checks() -> CellChecks:
        findings = results.cell_finding_list(loaded)
        translate = finding_translate(function_names(loaded))
        return CellChecks.of(findings, translate)

    return results.kept(loaded, results.in_language("checks"), checks)


class ChecksByCell:
    """The checks of each cell, computed the first time a cell is asked for:
    one computation per cell in a request (a list may span several cells)."""

    def __init__(self) -> None:
        self._by_cell: dict[int, CellChecks] = {}

    def __call__(self, cell_id: int) -> CellChecks:
        if cell_id not in self._by_cell:
            self._by_cell[cell_id] = cell_checks(Cell(pk=cell_id))
        return self._by_cell[cell_id]


def shown_finding(
    finding: Finding,
    names: Mapping[str, str] = NO_NAMES,
    *,
    translate: Callable[[str], str] | None = None,
    gettext: Callable[[str], str] = _,
    citation: Callable[[str], str] = shown_citation,
    status_labels: Mapping[str, Any] = STATUS_LABELS,
    certainty_labels: Mapping[str, Any] = CERTAINTY_LABELS,
) -> dict[str, Any]:
    """A finding as the pages and the API show it. ``translate`` (its message's,
    ``finding_translate``), ``gettext``, ``citation`` and the functions' names: worked
    out once when many findings are shown at once (``cell_findings``)."""
    return {
        "status": str(finding.status),
        "status_label": str(status_labels[finding.status]),
        "subject": subject_label(finding, names),
        "message": finding.render(translate or finding_translate(names)),
        "numbers": finding.numbers,
        "citation": citation(finding.citation),
        "certainty": str(finding.certainty),
        "certainty_label": str(certainty_labels[finding.certainty]),
        "details": [line.render(gettext) for line in finding.details],
        "notes": [line.render(gettext) for line in finding.notes],
    }


def cell_findings(cell) -> dict[str, Any]:
    """Every rule that applies to the cell's country, with its findings, and
    what they were computed under, in the reader's language: rendered once
    per change of the cell and language (``compliance.rules.results``). Plain
    data, shared: read it, do not change it."""

    def shown() -> dict[str, Any]:
        found = cell_results(cell)
        counts = summary(found)
        # The functions' names, in the reader's language (read once per
        # request, only when computing).
        names = function_names(cell)
        remembered = {
            "translate": remembering(finding_translate(names)),
            "gettext": remembering(_),
            "citation": remembering(shown_citation),
            "status_labels": {k: str(v) for k, v in STATUS_LABELS.items()},
            "certainty_labels": {k: str(v) for k, v in CERTAINTY_LABELS.items()},
        }
        return {
            "computed_under": cell_stamp(cell),
            "summary": [(str(STATUS_LABELS[s]), str(s), n) for s, n in counts.items()],
            "groups": [
                {
                    "rule": shown_rule(r.rule),
                    "findings": [
                        shown_finding(f, names, **remembered) for f in r.findings
                    ],
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
        "computed_under": data.get("computed_under"),
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


# --- what findings were computed under, and whether that is superseded -----

CHANGE_LABELS = {
    "added": gettext_lazy("added"),
    "changed": gettext_lazy("changed"),
    "removed": gettext_lazy("removed"),
}


def cell_stamp(cell) -> history.ComputedUnder:
    """The stamp the findings of ``cell`` get now: the rule set's release,
    the packs and the editions (kept with them, under the same version)."""
    return kept(cell, "stamp", lambda: computed_under(results.cell_snapshot(cell)))


def stamp_of(kept: object) -> history.ComputedUnder | None:
    """A stored stamp (JSON) as a model; None when there is none or it does
    not read (then taken as computed under release 1)."""
    if not isinstance(kept, dict):
        return None
    try:
        return history.ComputedUnder.model_validate(kept)
    except ValueError:
        return None


def pack_title(key: str) -> str:
    for pack in ALL_PACKS:
        if pack.key == key:
            return _(pack.title)
    return key


def shown_stamp(stamp: history.ComputedUnder | None) -> dict[str, Any]:
    """A stamp for a reader: the release, the packs with their versions, the
    editions as cited."""
    stamp = stamp or history.LEGACY
    return {
        "ruleset": stamp.ruleset,
        "packs": [
            {"key": key, "title": pack_title(key), "version": version}
            for key, version in stamp.packs.items()
        ],
        "editions": list(edition_labels(stamp.editions)),
        "legacy": not stamp.rules,
    }


def shown_supersession(kept: object, today: history.ComputedUnder) -> dict[str, Any]:
    """Whether findings kept with ``kept`` (a stored stamp, maybe None) are
    superseded by the rules of ``today``, and the difference rule by rule."""
    found = history.superseded(stamp_of(kept), today)
    return {
        "superseded": found.superseded,
        "kept": shown_stamp(found.computed_under),
        "current_ruleset": found.current_ruleset,
        "rules": [
            {
                "rule_id": d.rule_id,
                "change": d.change,
                "change_label": CHANGE_LABELS[d.change],
                "events": [
                    {
                        "version": e.version,
                        "released_on": e.released_on,
                        "change_label": CHANGE_LABELS[e.change],
                        "note": _(e.note) if e.note else "",
                    }
                    for e in d.events
                ],
            }
            for d in found.rules
        ],
        "editions": [
            {
                "standard": STANDARDS[e.standard].title,
                "was": STANDARDS[e.standard].edition(e.was).label,
                "now": STANDARDS[e.standard].edition(e.now).label,
            }
            for e in found.editions
            if e.standard in STANDARDS
        ],
        "packs_added": [pack_title(p) for p in found.packs_added],
        "packs_removed": [pack_title(p) for p in found.packs_removed],
    }


def rule_events(rule_id: str) -> list[dict[str, Any]]:
    """A rule's history for the Rules page: added, changed, removed, by release."""
    return [
        {
            "version": e.version,
            "released_on": e.released_on,
            "change": e.change,
            "change_label": CHANGE_LABELS[e.change],
            "note": _(e.note) if e.note else "",
        }
        for e in history.rule_history(rule_id)
    ]


def config_words(config: dict[str, str] | None) -> str:
    """A robot safety configuration ({kind, value}) in the reader's words."""
    if not config:
        return ""
    kind = CONFIG_KIND_LABELS.get(config.get("kind", ""), config.get("kind", ""))
    return f"{_(kind)} {config.get('value', '')}".strip()


def stamp_lines(stamp: history.ComputedUnder) -> list[str]:
    """What findings were computed under, as sentences for a document."""
    shown = shown_stamp(stamp)
    packs = "; ".join(
        _("%(pack)s (version %(version)s)")
        % {"pack": pack["title"], "version": pack["version"]}
        for pack in shown["packs"]
    )
    lines = [
        _("Computed under rule set release %(version)s: %(packs)s.")
        % {"version": shown["ruleset"], "packs": packs}
    ]
    if shown["editions"]:
        lines.append(
            _("Editions of the standards: %(editions)s.")
            % {"editions": ", ".join(shown["editions"])}
        )
    return lines


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
