"""The Plan tab of a cell: the physical-first and sim-first plans side by
side, with their comparison, and the assumptions behind them, editable."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cells import selectors as cell_selectors
from cells.permissions import can_edit
from cells.services import Conflict
from compliance.calculators.base import format_range
from compliance.costs import selectors as cost_selectors
from compliance.costs.selectors import money_range_text
from compliance.costs.views import (
    CURRENCY_CHOICES,
    VersionedForm,
    money_field,
    weeks_field,
)
from compliance.plan.comparison import compare
from compliance.plan.inputs import (
    ASSUMPTION_DEFAULTS,
    COSTED_KEYS,
    EDITABLE_DURATION_KEYS,
)
from compliance.plan.labour.models import PER_CHOICES, ROLE_CHOICES
from compliance.plan.labour.views import effort_field, effort_unit_field
from compliance.plan.selectors import plan_inputs
from compliance.plan.services import plan_assumption_reset, plan_assumption_set
from compliance.rules.inputs import versioned
from config.forms import add_errors
from config.htmx import render_page

PLAN = "compliance/plan/cell_plan.html"
CHART_WIDTH = 360  # px of the longest cost bar

WEEK_PX = 18  # width of one week on the timelines


def _timeline(plan) -> dict[str, Any]:
    rows = []
    for scheduled in plan.schedule.activities:
        rows.append(
            {
                "name": scheduled.activity.title(_),
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


def _cost_chart(plans) -> dict[str, Any] | None:
    """Bars of each plan's known cost, low (dark) to high (light), on one
    scale; None when no plan has a known cost."""
    costed = [p for p in plans if p.currency]
    if not costed:
        return None
    top = max(p.cost_known_high for p in costed) or 1
    rows = []
    for index, plan in enumerate(plans):
        low = float(plan.cost_known_low / top) * CHART_WIDTH if plan.currency else 0
        high = float(plan.cost_known_high / top) * CHART_WIDTH if plan.currency else 0
        rows.append(
            {
                "name": _(plan.name),
                "y": index * 34,
                "low_w": max(low, 1),
                "high_w": max(high, 1),
                "label": f"{plan.currency} "
                f"{money_range_text(plan.cost_known_low, plan.cost_known_high)}"
                if plan.currency
                else "—",
                "unknown": len(plan.unknown_cost_keys),
            }
        )
    return {"rows": rows, "height": len(rows) * 34 + 8, "width": CHART_WIDTH}


def _assumption_rows(comparison) -> list[dict[str, Any]]:
    """The activities whose figures the user may enter, as planned now."""
    inputs = comparison.inputs
    entered = {*inputs.durations, *inputs.costs}
    planned = {}
    for plan in (comparison.physical_first, comparison.sim_first):
        for scheduled in plan.schedule.activities:
            planned.setdefault(scheduled.activity.key, scheduled.activity)
    rows = []
    for key, activity in planned.items():
        if key not in EDITABLE_DURATION_KEYS | COSTED_KEYS:
            continue
        rows.append(
            {
                "key": key,
                "name": activity.title(_),
                "weeks": format_range(
                    activity.duration_weeks_low, activity.duration_weeks_high
                ),
                "assumption": activity.assumption,
                "cost": f"{activity.currency} "
                f"{money_range_text(activity.cost_low, activity.cost_high)}"
                if activity.cost_known
                else "—",
                # An app's own source is translated; one the user typed is not.
                "source": _(activity.source) if activity.source else "",
                "cost_basis": [line.render(_) for line in activity.cost_basis],
                "basis": _(activity.basis) if activity.basis else "",
                "entered": key in entered,
                "duration_editable": key in EDITABLE_DURATION_KEYS,
            }
        )
    return rows


def plan_context(request: HttpRequest, cell, **extra) -> dict[str, Any]:
    items = cost_selectors.line_items(cell)
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
                    f"{plan.currency} {money_range_text(plan.cost_known_low, plan.cost_known_high)}"
                    if plan.currency
                    else "—"
                ),
                "unknown_costs": len(plan.unknown_cost_keys),
            }
        )
    return {
        "cell": cell,
        "project": cell.project,
        "tab": "plan",
        "comparison": comparison,
        "plans": plans,
        "cost_chart": _cost_chart((comparison.physical_first, comparison.sim_first)),
        "assumption_rows": _assumption_rows(comparison),
        "labour_url": reverse("compliance:labour", args=[cell.project.organisation_id]),
        "can_edit": can_edit(request.user, cell.project.organisation_id),
        "maturity": comparison.maturity_line.render(_),
        "verdict": [v.line.render(_) for v in comparison.verdict],
        "summary": comparison.summary.render(_),
        "sim_can_retire": [line.render(_) for line in comparison.sim_can_retire],
        "cannot_prove": [line.render(_) for line in comparison.cannot_prove],
        "assumptions": [line.render(_) for line in comparison.assumptions],
        "notes": [line.render(_) for line in comparison.notes],
        **extra,
    }


def _plan(request: HttpRequest, cell, **extra) -> HttpResponse:
    return render_page(
        request, PLAN, plan_context(request, cell, **extra), fragment="plan"
    )


@login_required
def cell_plan(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = versioned(cell_pk, lambda: cell_selectors.cell_for(request.user, cell_pk))
    return _plan(request, cell)


class AssumptionForm(VersionedForm):
    weeks_low = weeks_field(gettext_lazy("Weeks from"))
    weeks_high = weeks_field(gettext_lazy("Weeks to"))
    cost_low = money_field(gettext_lazy("Cost from"))
    cost_high = money_field(gettext_lazy("Cost to"))
    currency = forms.ChoiceField(
        label=gettext_lazy("Currency"), required=False, choices=CURRENCY_CHOICES
    )
    # The work in this project, costed at the organisation's rate; a cost
    # entered above replaces it.
    role = forms.ChoiceField(
        label=gettext_lazy("Work: role"),
        required=False,
        choices=[("", "—"), *ROLE_CHOICES],
    )
    effort_unit = effort_unit_field()
    effort_per = forms.ChoiceField(
        label=gettext_lazy("Counted"), required=False, choices=PER_CHOICES
    )
    effort_low = effort_field(gettext_lazy("Effort from"))
    effort_high = effort_field(gettext_lazy("Effort to"))
    source = forms.CharField(
        label=gettext_lazy("Source or reasoning"), required=False, max_length=200
    )


@login_required
def plan_assumption_edit(request: HttpRequest, cell_pk: int, key: str) -> HttpResponse:
    """Enter the project's own duration and cost of one planned activity, or
    go back to the assumption default. The form carries the figures' version:
    a save refused because someone else saved them since says so."""
    cell = cell_selectors.cell_for(request.user, cell_pk)
    if not can_edit(request.user, cell.project.organisation_id):
        raise PermissionDenied
    if key not in ASSUMPTION_DEFAULTS and key not in COSTED_KEYS:
        raise Http404("No such activity.")
    row = cell.plan_assumptions.filter(key=key).first()
    initial = (
        {name: getattr(row, name) for name in AssumptionForm.base_fields}
        if row
        else {"currency": cell.project.currency}
    )
    form = AssumptionForm(request.POST or None, initial=initial)
    if request.method == "POST":
        if "reset" in request.POST:
            plan_assumption_reset(cell=cell, actor=request.user, key=key)
            return _plan(request, cell)
        if form.is_valid():
            try:
                plan_assumption_set(
                    cell=cell, actor=request.user, key=key, **form.cleaned_data
                )
            except ValidationError as exc:
                add_errors(form, exc)
            except Conflict as exc:  # saved by someone else since it was shown
                form.conflicted(exc.current, exc.differs)
            else:
                return _plan(request, cell)
    return _plan(request, cell, editing=key, edit_form=form)
