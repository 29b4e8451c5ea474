"""The sections of the proposal, in document order (issue 6, items 2-9, and
the guarding concepts, issue 27): one module each, each a function from the
``Kit`` (the data, styles and table helpers) to the flowables it adds after
its heading. The safety functions' three sections are in
``compliance.proposals.pdf.safety_functions``."""

from __future__ import annotations

from collections.abc import Callable

from reportlab.platypus import Flowable

from compliance.proposals.pdf import safety_functions
from compliance.proposals.pdf.data import SectionKey
from compliance.proposals.pdf.kit import Kit
from compliance.proposals.pdf.sections.cell import cell
from compliance.proposals.pdf.sections.concepts import concepts
from compliance.proposals.pdf.sections.costs import costs
from compliance.proposals.pdf.sections.findings import findings
from compliance.proposals.pdf.sections.legal import legal
from compliance.proposals.pdf.sections.risk import risk
from compliance.proposals.pdf.sections.rules import rules
from compliance.proposals.pdf.sections.schedule import schedule
from compliance.proposals.pdf.sections.summary import summary
from compliance.proposals.pdf.sections.terms import terms

BUILDERS: dict[SectionKey, Callable[[Kit], list[Flowable]]] = {
    "summary": summary,
    "legal": legal,
    "cell": cell,
    "rules": rules,
    "risk": risk,
    "findings": findings,
    "safety_functions": safety_functions.verification,
    "specification": safety_functions.specification,
    "validation": safety_functions.validation,
    "costs": costs,
    "schedule": schedule,
    "concepts": concepts,
    "terms": terms,
    "working": safety_functions.working,
}
