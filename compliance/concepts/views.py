"""The Concepts tab of a cell: its guarding concepts side by side (verdicts,
the legal route, cost, time to the PoC, floor space, the plans at one scale)
with the recommendation; designing them, choosing one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cells import selectors as cell_selectors
from cells.permissions import can_edit, require_edit
from cells.views import plan_for
from compliance.calculators.base import format_range
from compliance.concepts import services
from compliance.concepts.models import GuardingConcept
from compliance.concepts.selectors import concepts_compared
from compliance.costs.selectors import money_range_text
from compliance.rules.inputs import versioned
from config.htmx import render_page

PAGE = "compliance/concepts/cell_concepts.html"


def _summary(column: dict) -> dict:
    """A column's figures as text: its cost range and weeks to the PoC."""
    if not column["offered"]:
        return column
    cost = column["cost"]
    low, high = column["weeks"]
    return {
        **column,
        "cost_text": (
            f"{cost.currency} {money_range_text(cost.low, cost.high)}" if cost else "—"
        ),
        "weeks_text": format_range(low, high),
        "work_text": (
            f"{work.currency} {money_range_text(work.low, work.high)}"
            if (work := column["work"])
            else "—"
        ),
    }


def _shown(column: dict) -> dict:
    """A column as the page writes it: figures as text, the plan's SVG."""
    if not column["offered"]:
        return column
    plan = plan_for(column["design"])
    return {
        **_summary(column),
        "plan": plan,
        "view_width": plan.get("view_width") or 1,
        "view_height": plan.get("view_height") or 1,
    }


SVG_START = '<svg xmlns="http://www.w3.org/2000/svg" '


def _at_one_scale(
    svg: str, width: float, height: float, box: tuple[float, float]
) -> str:
    """The plan inside a frame ``box`` (mm) wide and high, drawn at its own
    size in it: every plan framed alike is drawn at one scale."""
    inner = svg.replace(SVG_START, f'{SVG_START}width="{width}" height="{height}" ', 1)
    inner = inner.replace('class="layout-svg" ', "", 1)
    return (
        f'{SVG_START}class="layout-svg concept-frame" viewBox="0 0 {box[0]} {box[1]}" '
        f'preserveAspectRatio="xMinYMin meet">{inner}</svg>'
    )


@login_required
def cell_concepts(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = versioned(
        cell_pk, lambda: cell_selectors.cell_with_layout(request.user, cell_pk)
    )
    compared = concepts_compared(cell)
    columns = [_shown(c) for c in compared["columns"]]
    # The plans side by side at one scale: each in a frame as large as the
    # largest.
    box = (
        max((c.get("view_width", 0) for c in columns), default=0) or 1,
        max((c.get("view_height", 0) for c in columns), default=0) or 1,
    )
    for column in columns:
        if column["offered"]:
            column["plan_svg"] = mark_safe(
                _at_one_scale(
                    column["plan"]["svg"],
                    column["view_width"],
                    column["view_height"],
                    box,
                )
            )
    context = {
        "cell": cell,
        "project": cell.project,
        "tab": "concepts",
        "columns": columns,
        "offered": [c for c in columns if c["offered"]],
        "not_offered": [c for c in columns if not c["offered"]],
        "recommendation": compared["recommendation"],
        "recommendation_lines": compared["recommendation_lines"],
        "chosen": compared["chosen"],
        "can_edit": can_edit(request.user, cell.project.organisation_id),
        "is_variant": cell.variant_of_id is not None,
    }
    return render_page(request, PAGE, context)


@login_required
def project_concepts(request: HttpRequest, project_pk: int) -> HttpResponse:
    """The project's cells with their concepts at a glance: verdicts, cost
    range, weeks to the PoC (the project page loads it into itself)."""
    project = cell_selectors.project_for(request.user, project_pk)
    rows = []
    for cell in (
        cell_selectors.project_cells(project).filter(concepts__isnull=False).distinct()
    ):
        loaded = versioned(
            cell.pk,
            lambda pk=cell.pk: cell_selectors.cell_with_layout(request.user, pk),
        )
        compared = concepts_compared(loaded)
        rows.append(
            {
                "cell": loaded,
                "columns": [_summary(c) for c in compared["columns"]],
                "recommendation": compared["recommendation_lines"][:1],
            }
        )
    context = {"project": project, "rows": rows}
    return render_page(
        request,
        "compliance/concepts/project_concepts.html",
        context,
        fragment="concepts",
    )


@login_required
@require_POST
def concepts_generate(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = cell_selectors.cell_for(request.user, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    try:
        made = services.concepts_generate(cell=cell, actor=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        if made:
            messages.success(request, _("The guarding concepts are designed."))
        else:
            messages.info(
                request,
                _("Every concept is designed already; each is kept as it is."),
            )
    return redirect("compliance:cell_concepts", cell_pk=cell.pk)


@login_required
@require_POST
def concept_copy(request: HttpRequest, cell_pk: int, pk: int) -> HttpResponse:
    cell = cell_selectors.cell_for(request.user, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    concept = get_object_or_404(GuardingConcept, cell=cell, pk=pk)
    try:
        copy = services.concept_copy(concept=concept, actor=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return redirect("compliance:cell_concepts", cell_pk=cell.pk)
    messages.success(request, _("A copy to edit: its layout is below."))
    return redirect("cells:cell_detail", pk=copy.variant_id)


@login_required
@require_POST
def concept_choose(request: HttpRequest, cell_pk: int, pk: int) -> HttpResponse:
    cell = cell_selectors.cell_for(request.user, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    concept = get_object_or_404(GuardingConcept, cell=cell, pk=pk)
    try:
        services.concept_choose(concept=concept)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(
            request, _("“%(name)s” is the chosen concept.") % {"name": concept}
        )
    return redirect("compliance:cell_concepts", cell_pk=cell.pk)
