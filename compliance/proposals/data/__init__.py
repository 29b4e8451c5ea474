"""Assemble a proposal's ``ProposalData`` from the database: the cell, its
rules and findings, the risk register, the costs and the plan, every text in
the proposal's language. The PDF builder then works from this object alone,
and the object is stored beside the PDF as the exact data it was built from.

``proposal_data`` is the entry point; the rules and the findings are written
here, each other section in its module: ``cover`` (the cover and the executive
summary), ``layout`` (the cell), ``risk``, ``safety_functions``, ``costs`` and
``schedule``."""

from __future__ import annotations

from datetime import date

from django.utils import translation
from django.utils.translation import gettext as _

from cells import selectors as cell_selectors
from compliance.plan.comparison import compare
from compliance.plan.selectors import plan_inputs
from compliance.proposals import presentation
from compliance.proposals.data.concepts import concepts_section
from compliance.proposals.data.costs import costs_section
from compliance.proposals.data.cover import cover_meta, executive_summary
from compliance.proposals.data.figures import number_line
from compliance.proposals.data.layout import cell_section
from compliance.proposals.data.legal import legal_section
from compliance.proposals.data.risk import risk_section
from compliance.proposals.data.safety_functions import safety_function_rows
from compliance.proposals.data.schedule import schedule_section
from compliance.proposals.models import ProposalDocument, ShownRules
from compliance.proposals.pdf.data import (
    SECTIONS,
    FindingRow,
    ProposalData,
    RuleRow,
    RulesSection,
)
from compliance.proposals.selectors import cell_status
from compliance.rules.engine import computed_under
from compliance.rules.inputs import versioned
from compliance.rules.results import in_language, kept
from compliance.rules.selectors import (
    CERTAINTY_LABELS,
    NO_NAMES,
    finding_translate,
    function_names,
    remembering,
    rule_text,
    shown_citation,
    stamp_lines,
    subject_label,
)


def proposal_data(
    document: ProposalDocument, *, on: date | None = None
) -> ProposalData:
    """The data of ``document`` (a version of a proposal), in its language.
    ``on``: the proposal's date (default: the day it was requested)."""
    # Scoped to the requester: one who has since lost access to the cell gets
    # Http404 here, and no document.
    cell = versioned(
        document.proposal.cell_id,
        lambda: cell_selectors.cell_with_layout(
            document.requested_by, document.proposal.cell_id
        ),
    )
    # Dated the day it was requested at the site (not in UTC: a Seoul
    # proposal asked for at 08:00 is not dated the day before).
    day = on or cell.project.local_date(document.requested_at)
    with translation.override(document.language):
        return _assemble(document, cell, day)


def _assemble(document: ProposalDocument, cell, on: date) -> ProposalData:
    project = cell.project
    status = cell_status(cell)
    function_rows = status.functions
    results = status.results
    stamp = computed_under(status.facts)
    findings = status.findings
    items = status.items
    # Every conversion at the organisation's rates valid on the proposal's date.
    comparison = compare(plan_inputs(cell, items, on))
    costs = costs_section(project, items, on=on)
    sections = tuple(s for s in SECTIONS if s in document.sections) or SECTIONS
    # The guarding concepts only when the cell has some (else left out).
    concepts = concepts_section(cell, on=on) if "concepts" in sections else None
    if concepts is None:
        sections = tuple(s for s in sections if s != "concepts")
    # The rules that apply: those that found something to check in this cell
    # (a fenced cell has no power-and-force-limiting rule); the others are
    # named in a line, or listed apart when the SA chose to show every rule.
    applying = [result for result in results if result.findings]
    others = [result for result in results if not result.findings]
    every_rule = document.rules_shown == ShownRules.ALL
    return ProposalData(
        language=document.language,
        sections=sections,
        rules_shown=document.rules_shown,
        passes_shown=document.passes_shown,
        meta=cover_meta(document, project, cell, on),
        summary=executive_summary(document, status, costs, comparison),
        legal=legal_section(cell, comparison),
        cell=cell_section(cell, findings, status.facts),
        rules=RulesSection(
            rows=tuple(_rule_row(result.rule) for result in applying),
            others=tuple(_rule_row(result.rule) for result in others)
            if every_rule
            else (),
            left_out=() if every_rule else tuple(result.rule.id for result in others),
            note=_(
                "Legal texts are reproduced from secondary sources and must be "
                "confirmed against the official text (in Korea, the National Law "
                "Information Center, law.go.kr) before they are relied on."
            ),
            computed_under=tuple(stamp_lines(stamp)),
        ),
        risk=risk_section(cell),
        findings=_findings(cell, findings),
        safety_functions=safety_function_rows(function_rows),
        costs=costs,
        schedule=schedule_section(comparison, project, on=on, items=items),
        concepts=concepts,
        assumptions=(
            *presentation.plan_assumptions(comparison),
            *(
                text
                for text in map(presentation.customer_line, comparison.assumptions)
                if text
            ),
            _(
                "Prices are ranges from the organisation's catalogue, its quotes "
                "and the public sources named beside each line; lines without a "
                "price are still to be quoted and are not counted in the totals."
            ),
        ),
        exclusions=(
            _("The robot, its tooling and the workpieces are not priced here."),
            _(
                "Civil works, utilities and the customer's own production "
                "equipment are excluded."
            ),
        ),
        computed_under=stamp.model_dump(mode="json"),
        disclaimers=(
            _(
                "This proposal does not certify the safety of the cell. It "
                "prepares the work of a safety professional."
            ),
            _(
                "Validation on the real cell is required in every plan: stopping "
                "times, safety functions, and force and pressure where the robot "
                "may touch a person. A simulation result is never a deployment gate."
            ),
            _(
                "Legal requirements are given as we understand them; the "
                "integrator confirms them against the official text and with the "
                "authority before the PoC."
            ),
        ),
    )


# --- the rules and the findings -----------------------------------------------


def _rule_row(rule) -> RuleRow:
    return RuleRow(
        id=rule.id,
        citation=shown_citation(rule.citation),
        text=rule_text(rule),
        certainty=str(CERTAINTY_LABELS[rule.certainty]),
        checked_on=rule.checked_on,
    )


def _findings(cell, findings) -> tuple[FindingRow, ...]:
    """The findings as the proposal prints them, in the reader's language:
    worked out once per change of what they rest on, like the findings."""

    def compute() -> tuple[FindingRow, ...]:
        labels = function_names(cell)
        # Each message and citation worked out once for all the findings.
        translate = remembering(finding_translate(labels))
        citation = remembering(shown_citation)
        return tuple(_finding(f, labels, translate, citation) for f in findings)

    return kept(cell, in_language("proposal-findings"), compute)


def _finding(
    finding, labels=NO_NAMES, translate=None, citation=shown_citation
) -> FindingRow:
    return FindingRow(
        rule_id=finding.rule_id,
        citation=citation(finding.citation),
        certainty=str(CERTAINTY_LABELS[finding.certainty]),
        status=str(finding.status),
        subject=subject_label(finding, labels),
        message=finding.render(translate or finding_translate(labels)),
        numbers=tuple(number_line(k, v) for k, v in finding.numbers.items()),
    )
