"""The one-page legal answer of a cell (``compliance.plan.legal``), shaped for
the compliance page and the proposal, in the reader's language."""

from __future__ import annotations

from datetime import date
from decimal import ROUND_CEILING, ROUND_FLOOR
from typing import Any

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from compliance.calculators.base import format_range
from compliance.calculators.editions import jurisdiction_of
from compliance.calculators.presentation import shown_citation
from compliance.costs import selectors as cost_selectors
from compliance.costs.selectors import money_range_text
from compliance.plan.comparison import Comparison, compare
from compliance.plan.legal import (
    Answer,
    Cost,
    Item,
    LegalAnswer,
    bibliography,
    legal_answer,
)
from compliance.plan.selectors import plan_inputs
from compliance.rules.facts import CELL_SUBJECT
from compliance.rules.results import cell_results
from compliance.rules.selectors import (
    finding_translate,
    function_names,
    subject_label,
)

# What is missing for one duty, listed up to this many; the rest counted.
GAPS_SHOWN = 6

DUTY_LABELS = {
    "met": gettext_lazy("Met"),
    "missing": gettext_lazy("Missing"),
    "open": gettext_lazy("Open point"),
    "later": gettext_lazy("After installation"),
}


def _costs(comparison: Comparison) -> dict[str, Cost]:
    """The physical-first plan's activities by key: what each costs and takes."""
    return {
        step.key: Cost(
            name=step.activity.title(_),
            cost_low=step.activity.cost_low,
            cost_high=step.activity.cost_high,
            currency=step.activity.currency,
            weeks_low=step.activity.duration_weeks_low,
            weeks_high=step.activity.duration_weeks_high,
        )
        for step in comparison.physical_first.schedule.activities
    }


def cell_answer(
    cell, *, comparison: Comparison | None = None, on: date | None = None
) -> LegalAnswer:
    """The duties of the cell's jurisdiction, judged by its findings; the
    comparison of its plans, when the caller has it already."""
    names = function_names(cell)
    translate = finding_translate(names)
    items = [
        Item(
            rule_id=f.rule_id,
            status=str(f.status),
            # The cell as a whole is not named: the line is about it.
            subject="" if f.subject_key == CELL_SUBJECT else subject_label(f, names),
            citation=f.citation,
            message=f.render(translate) if str(f.status) == "fail" else "",
        )
        for result in cell_results(cell)
        for f in result.findings
    ]
    if comparison is None:
        comparison = compare(plan_inputs(cell, cost_selectors.line_items(cell), on))
    jurisdiction = jurisdiction_of(cell.project.country)
    return legal_answer(jurisdiction, items, _costs(comparison))


def _cost_text(answer: Answer) -> str:
    cost = answer.cost
    if cost is None:
        return ""
    if answer.cost_above:
        return _("With the line above (%(activity)s)") % {"activity": cost.name}
    if cost.cost_low is None or cost.cost_high is None:
        money = _("to be quoted")
    else:
        # Whole units, rounded outwards: a range a customer budgets from.
        low = cost.cost_low.to_integral_value(rounding=ROUND_FLOOR)
        high = cost.cost_high.to_integral_value(rounding=ROUND_CEILING)
        money = f"{cost.currency} {money_range_text(low, high)}"
    weeks = _("%(weeks)s weeks") % {
        "weeks": format_range(cost.weeks_low, cost.weeks_high)
    }
    return f"{cost.name}: {money} · {weeks}"


def _gap(gap) -> dict[str, Any]:
    message = gap.message
    text = message if gap.status == "fail" else _(message)
    return {
        "subject": gap.subject,
        "status": gap.status,
        "text": text,
        "closed_by": "" if gap.status == "fail" else _(gap.closed_by),
    }


def shown_answer(answer: LegalAnswer) -> dict[str, Any]:
    """The answer as the pages and the PDF show it, in the reader's language."""
    return {
        "jurisdiction": answer.jurisdiction,
        "title": _(answer.title),
        "missing": answer.missing,
        "open": answer.open,
        "cited": bibliography(
            answer.jurisdiction, korean=(get_language() or "").startswith("ko")
        ),
        "duties": [
            {
                "key": d.key,
                "status": d.status,
                "status_label": str(DUTY_LABELS[d.status]),
                "requirement": _(d.requirement),
                "citation": shown_citation(d.citation) if d.citation else "",
                "met": ", ".join(d.met),
                "gaps": [_gap(g) for g in d.gaps[:GAPS_SHOWN]],
                "more": max(0, len(d.gaps) - GAPS_SHOWN),
                "closed_by": _(d.closed_by) if d.closed_by else "",
                "note": _(d.note) if d.note else "",
                "covered": d.covered,
                "cost": _cost_text(d),
            }
            for d in answer.duties
        ],
    }
