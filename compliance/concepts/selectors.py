"""Reads of a cell's guarding concepts: each concept's findings, cost, time
to the PoC and floor space, judged by the same engine as the cell, side by
side, with the recommendation (``comparison.recommend``)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from cells.models import Cell
from cells.selectors import attach, load_layout
from compliance.calculators.base import Line
from compliance.concepts.comparison import Column, Money, recommend
from compliance.concepts.models import GuardingConcept
from compliance.concepts.services import design_version
from compliance.costs import selectors as cost_selectors
from compliance.plan.comparison import compare as compare_plans
from compliance.plan.inputs import KIRIA_CERTIFICATION, WORK_KEYS
from compliance.plan.models import PlanAssumption
from compliance.plan.selectors import ACTIVITY_LINES, plan_inputs
from compliance.rules import results
from compliance.rules.findings import Status
from compliance.rules.inputs import versioned
from compliance.rules.selectors import (
    finding_translate,
    function_names,
    remembering,
    shown_finding,
    subject_label,
)


def cell_concepts(cell: Cell) -> list[GuardingConcept]:
    """The concepts of a cell the caller has authorised, in their order."""
    return list(
        GuardingConcept.objects.filter(cell=cell)
        .select_related("variant")
        .order_by("position", "id")
    )


def _design_cell(cell: Cell, concept: GuardingConcept) -> Cell:
    """The cell holding the concept's guarding, read with its content version
    first (``versioned``) so that what is computed from it is kept."""
    if not concept.variant_id:
        return cell
    variant = versioned(
        concept.variant_id,
        lambda: Cell.objects.select_related("project__organisation").get(
            pk=concept.variant_id
        ),
    )
    return load_layout(variant)


def _floor_m2(design: Cell) -> Decimal | None:
    """The floor the guarding takes: its guards' extent, else the zone's."""
    points = [p for s in design.segments.all() for p in (s.start, s.end)]
    if not points:
        zone = design.hazard_zone_effective_radius_mm
        return Decimal(2 * zone) ** 2 / Decimal(1_000_000) if zone else None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    area = Decimal(str(max(xs) - min(xs))) * Decimal(str(max(ys) - min(ys)))
    return (area / Decimal(1_000_000)).quantize(Decimal("0.1"))


def _rendered(finding, labels, translate) -> dict[str, Any]:
    """A finding as the compliance pages show it (``shown_finding``)."""
    shown = shown_finding(finding, labels, translate=translate)
    return {
        "status": shown["status"],
        "status_label": shown["status_label"],
        "subject": shown["subject"],
        "citation": shown["citation"],
        "text": shown["message"],
    }


def _speed(findings) -> dict[str, Any] | None:
    """The collaborative speed check: the programmed speed, the lowest
    permissible one and what limiting it would do to the motion's time."""
    checked = [
        f
        for f in findings
        if f.speed_mm_s is not None and f.permissible_mm_s is not None
    ]
    if not checked:
        return None
    worst = min(checked, key=lambda f: f.permissible_mm_s)
    ratio = (
        Decimal(str(worst.speed_mm_s)) / Decimal(str(worst.permissible_mm_s))
        if worst.permissible_mm_s
        else None
    )
    return {
        "programmed_mm_s": worst.speed_mm_s,
        "permissible_mm_s": worst.permissible_mm_s,
        # A body region (the app's words), or a robot program's worst
        # segment ("Robot program 1"), in the reader's language.
        "region": (
            subject_label(worst)
            if worst.subject_key.startswith("program:")
            else _(worst.subject_label)
        ),
        # At the permissible speed a motion takes this much longer.
        "slower_by": ratio.quantize(Decimal("0.01")) if ratio and ratio > 1 else None,
        "status": str(worst.status),
    }


def _certifications(plan) -> list[str]:
    """The certifications a concept still needs with no cost yet: in Korea,
    the KIRIA collaborative-robot workplace certification of a collaborative
    cell without the Art. 223 fence (the plan schedules it on the cost
    lines' decision), while neither its line, the organisation's work nor an
    entered figure costs it; no public fee or lead time exists (``costs.json``:
    "not found"), so none is ever given."""
    kiria = next(
        (
            s.activity
            for s in plan.schedule.activities
            if s.activity.key == KIRIA_CERTIFICATION
        ),
        None,
    )
    if kiria is not None and not kiria.cost_known:
        return [
            _(
                "KIRIA collaborative-robot workplace safety certification: fee to "
                "be quoted, lead time not known (no public figure found)."
            )
        ]
    return []


def _plan(cell: Cell, design: Cell, items):
    """The design's physical-first plan and its inputs."""
    if design is not cell:
        # The project's own durations and costs are the drawn cell's.
        attach(
            design,
            "plan_assumptions",
            PlanAssumption,
            list(PlanAssumption.objects.filter(cell=cell)),
            "cell",
        )
    comparison = compare_plans(plan_inputs(design, items))
    return comparison.physical_first, comparison.inputs


def _work(plan, inputs, items) -> tuple[Money | None, int, list[str]]:
    """The integrator's own work of the plan, costed from the labour rates
    (beside the lines, which the lines' cost has), or a cost entered for an
    activity without lines; with the count and the names of the activities
    whose work has no cost yet (a rate missing, or no work recorded for an
    activity without lines)."""
    listed = {
        activity
        for activity, keys in ACTIVITY_LINES.items()
        if any(i.quantity > 0 and i.catalogue_key in keys for i in items)
    }
    parts, costed, unknown = [], [], []
    for scheduled in plan.schedule.activities:
        activity = scheduled.activity
        key = activity.key
        if key not in WORK_KEYS:
            continue
        if key in inputs.costs:  # entered for the project: all of it
            if key not in listed:
                parts.append(inputs.costs[key])
                costed.append(activity)
        elif key in inputs.work_only:
            parts.append(inputs.work_only[key])
            costed.append(activity)
        elif key in inputs.work_missing or key not in listed:
            unknown.append(activity)
    money = None
    if parts:
        money = Money(
            currency=parts[0].currency,
            low=sum((p.low for p in parts), Decimal(0)),
            high=sum((p.high for p in parts), Decimal(0)),
        )
    return money, len(unknown), [_(a.name) for a in unknown]


def concept_column(cell: Cell, concept: GuardingConcept, version: str) -> dict:
    """One concept's column: its verdicts, cost, time and floor space."""
    column: dict[str, Any] = {
        "concept": concept,
        "name": concept.get_kind_display(),
        "reasons": [
            Line(text=r["text"], values=r.get("values", {})).render(_)
            for r in concept.reasons
        ],
        "offered": concept.offered,
        "base_changed": concept.variant_id is not None
        and concept.base_version != version,
    }
    if not concept.offered:
        column["figures"] = Column(
            key=str(concept.pk), name=column["name"], offered=False
        )
        return column
    design = _design_cell(cell, concept)
    found = results.cell_finding_list(design)
    labels = function_names(design)
    translate = remembering(finding_translate(labels))

    def show(finding) -> dict[str, Any]:
        return _rendered(finding, labels, translate)

    counts = {status: 0 for status in Status}
    by_pack: dict[str, dict[str, int]] = {}
    for result in results.cell_results(design):
        pack = by_pack.setdefault(result.rule.jurisdiction, dict.fromkeys(Status, 0))
        for finding in result.findings:
            counts[finding.status] += 1
            pack[finding.status] += 1
    items = cost_selectors.line_items(design)
    totals = cost_selectors.totals_by_currency(items)
    priced = [t for t in totals if t["currency"]]
    unpriced = next((t["unknown"] for t in totals if not t["currency"]), 0)
    cost = None
    if len(priced) == 1:
        cost = Money(
            currency=priced[0]["currency"],
            low=priced[0]["range"][0],
            high=priced[0]["range"][1],
        )
    elif priced and (converted := cost_selectors.converted_total(cell.project, items)):
        # Several currencies: in the project's, at the organisation's rates
        # of today, as the Costs tab's converted total.
        low, high = converted["range"]
        cost = Money(currency=converted["currency"], low=low, high=high)
    plan, inputs = _plan(cell, design, items)
    weeks_low, weeks_high = plan.poc_start_weeks_low, plan.poc_start_weeks_high
    work, work_unknown, work_names = _work(plan, inputs, items)
    column.update(
        {
            "design": design,
            "counts": {str(k): v for k, v in counts.items()},
            "by_pack": {
                pack: {str(k): v for k, v in c.items()} for pack, c in by_pack.items()
            },
            "fails": [show(f) for f in found if f.status is Status.FAIL],
            "open": [show(f) for f in found if f.status is Status.NEEDS_EVIDENCE],
            "law": [
                show(f)
                for f in found
                if f.rule_id.startswith(f"{cell.project.country}-")
                and f.status is not Status.PASS
            ],
            "speed": _speed(found),
            "cost": cost,
            "unpriced": unpriced,
            "weeks": (weeks_low, weeks_high),
            "work": work,
            "work_unknown": work_unknown,
            "work_names": work_names,
            "floor_m2": _floor_m2(design),
            "certifications": _certifications(plan),
            "figures": Column(
                key=str(concept.pk),
                name=column["name"],
                fails=counts[Status.FAIL],
                needs_evidence=counts[Status.NEEDS_EVIDENCE],
                warnings=counts[Status.WARNING],
                passes=counts[Status.PASS],
                cost=cost,
                unpriced_lines=unpriced,
                work=work,
                work_unknown=work_unknown,
                weeks_low=weeks_low,
                weeks_high=weeks_high,
            ),
        }
    )
    return column


def concepts_compared(cell: Cell) -> dict[str, Any]:
    """Every concept of ``cell`` (loaded with its layout) side by side, with
    the recommendation."""
    concepts = cell_concepts(cell)
    version = design_version(cell, loaded=True) if concepts else ""
    columns = [concept_column(cell, concept, version) for concept in concepts]
    recommendation = recommend([c["figures"] for c in columns])
    return {
        "columns": columns,
        "recommendation": recommendation,
        "recommendation_lines": [line.render(_) for line in recommendation.lines],
        "chosen": next((c["concept"] for c in columns if c["concept"].chosen), None),
    }
