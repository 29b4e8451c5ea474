"""The legal answer of a proposal (issue 30): the duties of the cell's
jurisdiction, as the compliance page shows them, in the proposal's
language."""

from __future__ import annotations

from compliance.plan.comparison import Comparison
from compliance.plan.legal_selectors import cell_answer, shown_answer
from compliance.proposals.pdf.data import LegalDuty, LegalGap, LegalSection


def legal_section(cell, comparison: Comparison) -> LegalSection:
    shown = shown_answer(cell_answer(cell, comparison=comparison))
    return LegalSection(
        title=shown["title"],
        missing=shown["missing"],
        open=shown["open"],
        cited=tuple(shown["cited"]),
        duties=tuple(
            LegalDuty(
                key=d["key"],
                status=d["status"],
                status_label=d["status_label"],
                requirement=d["requirement"],
                citation=d["citation"],
                met=d["met"],
                gaps=tuple(LegalGap(**gap) for gap in d["gaps"]),
                more=d["more"],
                closed_by=d["closed_by"],
                note=d["note"],
                covered=d["covered"],
                cost=d["cost"],
            )
            for d in shown["duties"]
        ),
    )
