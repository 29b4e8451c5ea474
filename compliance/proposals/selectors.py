"""Shared reads of the proposal feature: the state of a cell that the check
before building, the generated texts and the PDF's data all work from, read
once (the rules run once per request), and a proposal's texts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cells.models import Cell
from compliance.assessment.models import Revision, RevisionStatus
from compliance.costs import selectors as cost_selectors
from compliance.proposals.models import Proposal, ProposalText
from compliance.rules import results as kept_results
from compliance.rules.facts import CellFacts
from compliance.rules.inputs import cell_inputs
from compliance.safety_functions import selectors as function_selectors


@dataclass(frozen=True)
class CellStatus:
    """A cell as its proposal reads it: the facts, every rule's findings, the
    cost lines, the safety functions and the revisions that count (the
    latest, and the latest signed). Records only: nothing here is typed."""

    cell: Cell
    facts: CellFacts
    results: tuple[Any, ...]  # (rule, findings) of every rule of the packs
    items: tuple[Any, ...]  # the cost lines
    functions: list[Any]  # the safety functions with their verdicts
    latest: Revision | None
    signed: Revision | None

    @property
    def findings(self) -> list[Any]:
        return [f for result in self.results for f in result.findings]

    def count(self, status: str) -> int:
        return sum(1 for f in self.findings if f.status == status)

    @property
    def to_quote(self) -> int:
        """Cost lines with a quantity and no price: not in the total."""
        return sum(1 for i in self.items if i.total_low is None and i.quantity)


def cell_status(cell: Cell) -> CellStatus:
    """The state of ``cell`` (loaded by ``cells.selectors.cell_with_layout``):
    its findings and cost lines as kept for every page
    (``compliance.rules.results``), its facts (the snapshot the findings and
    cost lines are worked out from, ``results.cell_snapshot``) and functions
    read once."""
    inputs = cell_inputs(cell)
    functions = function_selectors.cell_functions(cell, inputs=inputs)
    facts = kept_results.cell_snapshot(cell, functions=functions)
    results = tuple(kept_results.cell_results(cell))
    items = cost_selectors.line_items(cell)
    revisions = (
        Revision.objects.filter(assessment__cell=cell)
        .select_related("signed_by")
        .order_by("-number")
    )
    latest = revisions.first()
    signed = None
    if latest is not None:
        signed = (
            latest
            if latest.status == RevisionStatus.SIGNED
            else revisions.filter(status=RevisionStatus.SIGNED).first()
        )
    return CellStatus(
        cell=cell,
        facts=facts,
        results=results,
        items=tuple(items),
        functions=functions,
        latest=latest,
        signed=signed,
    )


def written_texts(cell: Cell) -> dict[str, ProposalText]:
    """What the SA wrote for the cell's proposal, by language."""
    return {
        text.language: text for text in ProposalText.objects.filter(proposal__cell=cell)
    }


def proposal_of(cell: Cell) -> Proposal | None:
    return Proposal.objects.filter(cell=cell).first()
