"""The Costs and Plan of a cell: line items from the findings, and the
physical-first and sim-first plans side by side. Read-only for now: the
catalogue's prices are the starting estimates, in their own currencies."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cells import selectors as cell_selectors
from cells.htmx import render_page
from cells.permissions import can_edit
from compliance.cell_facts import cell_facts
from compliance.cost_services import edits_of, line_item_edit
from compliance.costs import apply_overrides, derive_line_items, round_range, totals
from compliance.plan.comparison import compare
from compliance.plan.schedule import PlanInputs, format_range, longest_lead_time
from compliance.rules.engine import evaluate

WEEK_PX = 18  # width of one week on the timelines


def _line_items(cell):
    """The cell's cost lines as derived from its findings, with the user's edits."""
    facts = cell_facts(cell)
    findings = [f for group in evaluate(facts) for f in group.findings]
    stations = len(cell.stations.all())
    derived = derive_line_items(
        facts, findings, operator_station_count=stations or None
    )
    return facts, apply_overrides(derived, edits_of(cell))


def _whole(pair: tuple[Decimal, Decimal]) -> tuple[int, int]:
    """A rounded range as plain integers (a Decimal like 4.6E+6 formats badly)."""
    return int(pair[0]), int(pair[1])


def _totals_by_currency(items) -> list[dict[str, Any]]:
    """Sums per currency: the starting catalogue mixes currencies, and no
    exchange rate is assumed."""
    sums: dict[str, list[Decimal]] = defaultdict(lambda: [Decimal(0), Decimal(0)])
    unknown = 0
    for item in items:
        if item.quantity == 0:
            continue
        if item.total_low is None or item.currency is None:
            unknown += 1
            continue
        sums[item.currency][0] += item.total_low
        sums[item.currency][1] += item.total_high
    shown = [
        {"currency": currency, "range": _whole(round_range(low, high))}
        for currency, (low, high) in sorted(sums.items())
    ]
    return [*shown, {"currency": "", "unknown": unknown}]


def _shown_item(item) -> dict[str, Any]:
    price = (
        f"{item.currency} {format_range(item.price_low, item.price_high)}"
        if item.price_low is not None
        else _("price to be quoted")
    )
    total = (
        f"{item.currency} {format_range(*round_range(item.total_low, item.total_high))}"
        if item.total_low is not None
        else "—"
    )
    lead = (
        format_range(item.lead_time_weeks_low, item.lead_time_weeks_high)
        if item.lead_time_weeks_low is not None
        else "—"
    )
    return {
        "key": item.key,
        "description": item.description.render(_),
        "quantity": item.quantity,
        "unit": item.unit,
        "price": price,
        "total": total,
        "lead": lead,
        "basis": item.basis,
        "reason": item.reason.render(_),
        "citation": item.citation,
        "source": item.source,
        "notes": [n.render(_) for n in item.notes],
    }


def converted_total(project, items) -> dict[str, Any] | None:
    """The total in the project's currency, when the project has a rate for
    every currency the priced lines use; None otherwise."""
    try:
        result = totals(items, project.currency, project.rates)
    except ValueError:
        return None
    return {
        "currency": result.currency,
        "range": _whole(round_range(result.low, result.high)),
        "unknown": result.unknown_count,
    }


def _costs_context(request: HttpRequest, cell, **extra) -> dict[str, Any]:
    _facts, items = _line_items(cell)
    return {
        "cell": cell,
        "project": cell.project,
        "items": [_shown_item(i) for i in items],
        "totals": _totals_by_currency(items),
        "converted": converted_total(cell.project, items),
        "can_edit": can_edit(request.user, cell.project.organisation_id),
        **extra,
    }


@login_required
def cell_costs(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = cell_selectors.cell_with_layout(request.user, cell_pk)
    context = _costs_context(request, cell)
    return render_page(request, COSTS, context, fragment="costs")


COSTS = "compliance/cell_costs.html"


class LineEditForm(forms.Form):
    quantity = forms.DecimalField(
        label=gettext_lazy("Quantity"), required=False, min_value=0
    )
    price_low = forms.DecimalField(
        label=gettext_lazy("Unit price from"), required=False, min_value=0
    )
    price_high = forms.DecimalField(
        label=gettext_lazy("Unit price to"), required=False, min_value=0
    )
    currency = forms.ChoiceField(
        label=gettext_lazy("Currency"),
        required=False,
        choices=[("", "—"), ("KRW", "KRW"), ("USD", "USD"), ("EUR", "EUR")],
    )
    source = forms.CharField(
        label=gettext_lazy("Source of the price"), required=False, max_length=200
    )


@login_required
def line_item_edit_view(request: HttpRequest, cell_pk: int, key: str) -> HttpResponse:
    """Change the quantity or quote the price of one cost line."""
    cell = cell_selectors.cell_with_layout(request.user, cell_pk)
    if not can_edit(request.user, cell.project.organisation_id):
        raise PermissionDenied
    _facts, items = _line_items(cell)
    item = next((i for i in items if i.key == key), None)
    if item is None:
        raise Http404("No such cost line.")
    initial = {
        "quantity": item.quantity,
        "price_low": item.price_low,
        "price_high": item.price_high,
        "currency": item.currency or cell.project.currency,
    }
    form = LineEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            line_item_edit(
                cell=cell, actor=request.user, item=item, **form.cleaned_data
            )
        except ValidationError as exc:
            errors = (
                exc.message_dict if hasattr(exc, "error_dict") else {None: exc.messages}
            )
            for field, messages in errors.items():
                form.add_error(field if field in form.fields else None, messages)
        else:
            context = _costs_context(request, cell)
            return render_page(request, COSTS, context, fragment="costs")
    context = _costs_context(request, cell, editing=key, edit_form=form)
    return render_page(request, COSTS, context, fragment="costs")


def plan_inputs(cell, items) -> PlanInputs:
    pairs = [
        (i.lead_time_weeks_low, i.lead_time_weeks_high)
        for i in items
        if i.category == "device" and i.lead_time_weeks_low is not None
    ]
    without = sum(
        1 for i in items if i.category == "device" and i.lead_time_weeks_low is None
    )
    lead = longest_lead_time(pairs)
    return PlanInputs(
        country=cell.project.country,
        collaborative_mode=cell.collaborative_mode or None,
        task_type=cell.task_type,
        procurement_lead_time_weeks_low=lead[0] if lead else None,
        procurement_lead_time_weeks_high=lead[1] if lead else None,
        procurement_items_without_lead_time=without,
    )


def _timeline(plan) -> dict[str, Any]:
    rows = []
    for scheduled in plan.schedule.activities:
        rows.append(
            {
                "name": _(scheduled.activity.name),
                "x": float(scheduled.start_low) * WEEK_PX,
                "low_w": max(
                    float(scheduled.finish_low - scheduled.start_low) * WEEK_PX, 2
                ),
                "high_x": float(scheduled.start_high) * WEEK_PX,
                "high_w": max(
                    float(scheduled.finish_high - scheduled.start_high) * WEEK_PX, 2
                ),
                "critical": scheduled.critical_high,
                "assumption": scheduled.activity.assumption,
                "weeks": format_range(
                    scheduled.activity.duration_weeks_low,
                    scheduled.activity.duration_weeks_high,
                ),
            }
        )
    width = float(plan.schedule.total_weeks_high) * WEEK_PX + 40
    return {
        "rows": rows,
        "width": width,
        "height": len(rows) * 26 + 30,
        "ticks": [
            {"x": w * WEEK_PX, "label": w}
            for w in range(0, int(plan.schedule.total_weeks_high) + 2, 4)
        ],
    }


@login_required
def cell_plan(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = cell_selectors.cell_with_layout(request.user, cell_pk)
    _facts, items = _line_items(cell)
    comparison = compare(plan_inputs(cell, items))
    plans = []
    for plan in (comparison.physical_first, comparison.sim_first):
        plans.append(
            {
                "name": _(plan.name),
                "timeline": _timeline(plan),
                "first_result": format_range(
                    plan.first_result_weeks_low, plan.first_result_weeks_high
                ),
                "first_result_label": _(plan.first_result_label),
                "poc_start": format_range(
                    plan.poc_start_weeks_low, plan.poc_start_weeks_high
                ),
                "cost": (
                    f"{plan.currency} {format_range(plan.cost_known_low, plan.cost_known_high)}"
                    if plan.currency
                    else "—"
                ),
                "unknown_costs": len(plan.unknown_cost_keys),
                "row_y": None,
            }
        )
    context = {
        "cell": cell,
        "project": cell.project,
        "comparison": comparison,
        "plans": plans,
        "maturity": comparison.maturity_line.render(_),
        "verdict": [v.line.render(_) for v in comparison.verdict],
        "summary": comparison.summary.render(_),
        "sim_can_retire": [line.render(_) for line in comparison.sim_can_retire],
        "cannot_prove": [line.render(_) for line in comparison.cannot_prove],
        "assumptions": [line.render(_) for line in comparison.assumptions],
        "notes": [line.render(_) for line in comparison.notes],
    }
    return render(request, "compliance/cell_plan.html", context)
