"""The Safety functions tab of a cell: the functions with PLr, PL reached and
verdict; proposals to accept or discard; each function's block diagram,
working, specification and validation plan; its subsystems edited with the
PL recalculated live; and the organisation's Table K.1 import."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cells import selectors as cell_selectors
from cells.permissions import can_edit, require_edit
from compliance.calculators.iso13849_verification_tables import K1_COLUMN_KEYS
from compliance.calculators.presentation import shown_citation
from compliance.calculators.written import field_shown
from compliance.safety_functions import diagram, documents, selectors, services
from compliance.safety_functions.forms import (
    PfhdTableForm,
    SafetyFunctionForm,
    SubsystemForm,
    ValidationRecordForm,
)
from compliance.safety_functions.models import (
    DEVICE_KINDS_FOR,
    SafetyFunction,
    Subsystem,
)
from compliance.safety_functions.verification import (
    PlrBasis,
    verify_function,
)
from config.forms import add_errors
from config.htmx import render_page

LIST = "compliance/safety_functions/cell_functions.html"
DETAIL = "compliance/safety_functions/function_detail.html"
FORM = "compliance/safety_functions/function_form.html"
SUBSYSTEM_FORM = "compliance/safety_functions/subsystem_form.html"
DOCUMENTS = "compliance/safety_functions/cell_documents.html"
K1_PAGE = "compliance/safety_functions/pfhd_table.html"


def _status(status: str) -> dict[str, str]:
    labels = {
        "pass": _("Pass"),
        "fail": _("Fail"),
        "needs_evidence": _("Needs evidence"),
    }
    return {"code": status, "css": status.replace("_", "-"), "label": labels[status]}


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def sci(value: float) -> str:
    """A probability per hour as ``3.7 × 10⁻⁹``, to two significant figures."""
    mantissa, exponent = f"{value:.1e}".split("e")
    power = f"10{str(int(exponent)).translate(_SUPERSCRIPT)}"
    mantissa = mantissa.removesuffix(".0")
    return power if mantissa == "1" else f"{mantissa} × {power}"


def pfhd_text(result) -> str:
    if result is None:
        return "—"
    if result.pfhd_per_hour is not None:
        return f"{sci(result.pfhd_per_hour)} /h"
    return f"{sci(result.pfhd_min_per_hour)} – {sci(result.pfhd_max_per_hour)} /h"


def _subsystem_detail(subsystem: Subsystem, result) -> str:
    if result is not None:
        parts = [f"PL {result.pl}"]
        if result.pfhd_per_hour is not None:
            parts.append(f"{sci(result.pfhd_per_hour)} /h")
        elif result.category:
            parts.append(_("Cat %(category)s") % {"category": result.category})
        return " · ".join(parts)
    return _("figures incomplete")


def _alone(row: selectors.FunctionRow) -> tuple:
    """Each subsystem's own result while the chain cannot be computed (None
    for one whose figures are incomplete), so each shows what it reaches."""
    results = []
    for subsystem in row.subsystems:
        alone = verify_function(
            [selectors.subsystem_data(subsystem)],
            PlrBasis(plr=None),
            plan=(),
            outcomes={},
        ).result
        results.append(alone.subsystems[0] if alone else None)
    return tuple(results)


def _own_steps(result) -> list[str]:
    if result is None:
        return []
    theirs = {line.render(_) for sub in result.subsystems for line in sub.steps}
    return [text for line in result.steps if (text := line.render(_)) not in theirs]


def function_view(row: selectors.FunctionRow) -> dict[str, Any]:
    """A function as its pages show it, localised."""
    verdict = row.verdict
    result = verdict.result
    found = result.subsystems if result else _alone(row)

    def sub(i: int):
        return found[i] if i < len(found) else None

    blocks = [
        diagram.BlockInput(
            role=s.get_role_display(),
            label=field_shown(s, "label", _),
            detail=_subsystem_detail(s, sub(i)),
            pl=sub(i).pl if sub(i) else None,
        )
        for i, s in enumerate(row.subsystems)
    ]
    problems: dict[int, list[str]] = {}
    for index, message in verdict.problems:
        problems.setdefault(index, []).append(_(message))
    function = row.function
    return {
        "pk": function.pk,
        "function": function,
        # What the app wrote (an accepted proposal's) in the reader's language.
        "name": field_shown(function, "name", _),
        "trigger": field_shown(function, "trigger", _),
        "reaction": field_shown(function, "reaction", _),
        "safeguard": function.get_safeguard_display(),
        "status": _status(verdict.status),
        "plr": verdict.plr,
        "plr_hazards": [
            {"label": label, "plr": plr} for label, plr in verdict.plr.hazards
        ],
        "pl": verdict.pl,
        "pfhd": pfhd_text(result),
        "result": result,
        "clause": shown_citation(result.clause) if result else "",
        # The function's own working: the subsystems' steps are shown with
        # each subsystem.
        "working": _own_steps(result),
        "warnings": [line.render(_) for line in result.warnings] if result else [],
        "subsystem_results": [
            {
                "subsystem": s,
                "label": field_shown(s, "label", _),
                "result": sub(i),
                "steps": [line.render(_) for line in sub(i).steps] if sub(i) else [],
                "warnings": [line.render(_) for line in sub(i).warnings]
                if sub(i)
                else [],
                "problems": problems.get(i, []),
            }
            for i, s in enumerate(row.subsystems)
        ],
        "reasons": [line.render(_) for line in verdict.reasons],
        "diagram": diagram.block_diagram(blocks, pl=verdict.pl, plr=verdict.plr.plr),
        "plan": _plan(row),
        "gaps": [
            line.render(_)
            for line in documents.specification_gaps(
                trigger=function.trigger,
                reaction=function.reaction,
                plr=verdict.plr.plr,
                stop_category=function.stop_category,
                required_response_time_ms=function.required_response_time_ms,
                reset_behaviour=function.reset_behaviour,
                restart_behaviour=function.restart_behaviour,
                safeguard=function.safeguard,
            )
        ],
    }


def _plan(row: selectors.FunctionRow) -> list[dict[str, Any]]:
    outcomes = selectors.latest_outcomes(row.records)
    by_test: dict[str, list] = {}
    for record in row.records:
        by_test.setdefault(record.test, []).append(record)
    # Records made for an earlier version of the function: kept and shown,
    # after the current ones, as counting for nothing.
    earlier: dict[str, list] = {}
    for record in row.earlier_records:
        earlier.setdefault(record.test, []).append(record)
    return [
        {
            "kind": test.kind,
            "title": _(test.title),
            "procedure": _(test.procedure),
            "record": _(test.record),
            "records": by_test.get(test.kind, []),
            "earlier_records": earlier.get(test.kind, []),
            "outcome": outcomes.get(test.kind),
        }
        for test in row.plan
    ]


def _cell(request: HttpRequest, cell_pk: int):
    return cell_selectors.cell_for(request.user, cell_pk)


def _list_context(request: HttpRequest, cell, **extra) -> dict[str, Any]:
    rows = selectors.cell_functions(cell)
    return {
        "cell": cell,
        "project": cell.project,
        "functions": [function_view(r) for r in rows],
        "suggestions": [
            {
                "key": s.key,
                "name": s.name.render(_),
                "safeguard": s.safeguard,
                "trigger": s.trigger.render(_),
                "reaction": s.reaction.render(_),
                "rationale": s.rationale.render(_),
                "plr": s.plr,
                "hazards": len(s.hazard_keys),
            }
            for s in selectors.suggestions(cell)
        ],
        "io": selectors.io_counts(rows),
        "k1": selectors.k1_table(cell.project.organisation_id),
        "can_edit": can_edit(request.user, cell.project.organisation_id),
        **extra,
    }


@login_required
def safety_functions(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = _cell(request, cell_pk)
    return render_page(
        request, LIST, _list_context(request, cell), fragment="functions"
    )


@login_required
@require_POST
def suggestion_accept(request: HttpRequest, cell_pk: int, key: str) -> HttpResponse:
    cell = _cell(request, cell_pk)
    try:
        function = services.function_suggestion_accept(
            cell=cell, actor=request.user, key=key
        )
    except ValidationError as exc:
        context = _list_context(request, cell, error=" ".join(exc.messages))
        return render_page(request, LIST, context, fragment="functions", status=400)
    messages.success(
        request, _("Safety function added: %(name)s") % {"name": function.name}
    )
    return redirect("compliance:safety_function_detail", function.pk)


@login_required
@require_POST
def suggestion_dismiss(request: HttpRequest, cell_pk: int, key: str) -> HttpResponse:
    cell = _cell(request, cell_pk)
    services.function_suggestion_dismiss(cell=cell, actor=request.user, key=key)
    return render_page(
        request, LIST, _list_context(request, cell), fragment="functions"
    )


def _function_form(request, cell, instance=None) -> SafetyFunctionForm:
    choices = selectors.assessment_hazards(cell).choices()
    return SafetyFunctionForm(
        request.POST or None, instance=instance, cell=cell, hazard_choices=choices
    )


def _form_page(request, template, context, form, status_if_bound=400):
    status = status_if_bound if form.is_bound else 200
    return render_page(request, template, context, status=status)


@login_required
def safety_function_add(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = _cell(request, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    form = _function_form(request, cell)
    if request.method == "POST" and form.is_valid():
        values = {k: v for k, v in form.cleaned_data.items() if k != "version"}
        try:
            function = services.function_create(cell=cell, actor=request.user, **values)
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            return redirect("compliance:safety_function_detail", function.pk)
    context = {"cell": cell, "project": cell.project, "form": form, "function": None}
    return _form_page(request, FORM, context, form)


def _function(request: HttpRequest, pk: int) -> SafetyFunction:
    return selectors.function_for(request.user, pk)


@login_required
def safety_function_detail(request: HttpRequest, pk: int) -> HttpResponse:
    function = _function(request, pk)
    row = selectors.function_detail(function)
    cell = function.cell
    context = {
        "cell": cell,
        "project": cell.project,
        "f": function_view(row),
        "record_form": ValidationRecordForm(plan=row.plan),
        "can_edit": can_edit(request.user, cell.project.organisation_id),
    }
    return render_page(request, DETAIL, context, fragment="function")


@login_required
def safety_function_edit(request: HttpRequest, pk: int) -> HttpResponse:
    function = _function(request, pk)
    cell = function.cell
    require_edit(request.user, cell.project.organisation_id)
    form = _function_form(request, cell, instance=function)
    if request.method == "POST" and form.is_valid():
        values = {k: v for k, v in form.cleaned_data.items() if k != "version"}
        version = form.cleaned_data.get("version") or function.version
        try:
            services.function_update(
                function=function, actor=request.user, version=version, **values
            )
        except services.Conflict:
            form.add_error(
                None,
                _(
                    "Someone else changed this function since you opened it: "
                    "reload the page to see their change."
                ),
            )
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            return redirect("compliance:safety_function_detail", function.pk)
    context = {
        "cell": cell,
        "project": cell.project,
        "form": form,
        "function": function,
    }
    return _form_page(request, FORM, context, form)


@login_required
@require_POST
def safety_function_delete(request: HttpRequest, pk: int) -> HttpResponse:
    function = _function(request, pk)
    cell = function.cell
    services.function_delete(function=function, actor=request.user)
    return redirect("compliance:safety_functions", cell.pk)


def _subsystem_values(form: SubsystemForm) -> dict[str, Any]:
    values = dict(form.cleaned_data)
    entry = values.get("library_device")
    figures = ("pl", "pfhd_per_hour", "category", "mttfd_years", "b10d_cycles")
    if entry is not None and not any(values.get(f) not in (None, "") for f in figures):
        # A library device chosen with no figures typed: take its data.
        values.update(services.library_fields(entry))
    return values


def _subsystem_page(request, function, form, subsystem=None, preview=None, status=200):
    cell = function.cell
    context = {
        "cell": cell,
        "project": cell.project,
        "function": function,
        "subsystem": subsystem,
        "form": form,
        "preview": preview,
        "library_kinds": DEVICE_KINDS_FOR,
    }
    return render_page(
        request, SUBSYSTEM_FORM, context, fragment="subsystem_form", status=status
    )


@login_required
def subsystem_add(request: HttpRequest, pk: int) -> HttpResponse:
    function = _function(request, pk)
    require_edit(request.user, function.cell.project.organisation_id)
    form = SubsystemForm(request.POST or None, function=function)
    if request.method == "POST" and form.is_valid():
        try:
            services.subsystem_add(
                function=function, actor=request.user, **_subsystem_values(form)
            )
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            return redirect("compliance:safety_function_detail", function.pk)
    return _subsystem_page(
        request, function, form, status=400 if form.is_bound else 200
    )


def _subsystem(request: HttpRequest, pk: int) -> Subsystem:
    return selectors.subsystem_for(request.user, pk)


@login_required
def subsystem_edit(request: HttpRequest, pk: int) -> HttpResponse:
    subsystem = _subsystem(request, pk)
    function = subsystem.function
    require_edit(request.user, function.cell.project.organisation_id)
    form = SubsystemForm(request.POST or None, instance=subsystem, function=function)
    if request.method == "POST" and form.is_valid():
        try:
            services.subsystem_update(
                subsystem=subsystem, actor=request.user, **_subsystem_values(form)
            )
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            return redirect("compliance:safety_function_detail", function.pk)
    return _subsystem_page(
        request, function, form, subsystem, status=400 if form.is_bound else 200
    )


@login_required
@require_POST
def subsystem_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The function's PL recomputed with this subsystem as the form has it
    now, saving nothing: the live working beside the form."""
    function = _function(request, pk)
    row = selectors.function_detail(function)
    form = SubsystemForm(request.POST, function=function)
    editing = request.POST.get("subsystem")
    preview: dict[str, Any] = {}
    if form.is_valid():
        values = _subsystem_values(form)
        # The subsystem as typed, read like a saved one (not saved).
        typed = Subsystem(function=function, **values)
        chain = []
        replaced = False
        for s in row.subsystems:
            if editing and str(s.pk) == editing:
                chain.append(typed)
                replaced = True
            else:
                chain.append(s)
        if not replaced:
            chain.append(typed)
        hazards = selectors.assessment_hazards(function.cell)
        k1 = selectors.k1_table(function.cell.project.organisation_id)
        # The verdict the function would have: its validation records count
        # only if the change leaves the function as they were recorded for.
        verdict = selectors.function_row(
            row.function, hazards, k1, subsystems=chain
        ).verdict
        index = next(i for i, s in enumerate(chain) if s is typed)
        result = verdict.result
        # The subsystem on its own, so its PL shows while the rest of the
        # chain is still incomplete.
        alone = verify_function(
            [selectors.subsystem_data(typed)],
            PlrBasis(plr=None),
            plan=(),
            outcomes={},
            k1=k1,
        ).result
        preview = {
            "status": _status(verdict.status),
            "pl": verdict.pl,
            "plr": verdict.plr.plr,
            "pfhd": pfhd_text(result),
            "reasons": [line.render(_) for line in verdict.reasons],
            "problems": [_(m) for i, m in verdict.problems if i == index],
            "steps": [line.render(_) for line in alone.subsystems[0].steps]
            if alone
            else [],
            "subsystem_pl": alone.subsystems[0].pl if alone else None,
        }
    else:
        preview = {"form_errors": form.errors}
    context = {
        "cell": function.cell,
        "project": function.cell.project,
        "function": function,
        "form": form,
        "preview": preview,
    }
    return render_page(request, SUBSYSTEM_FORM, context, fragment="preview")


@login_required
@require_POST
def subsystem_delete(request: HttpRequest, pk: int) -> HttpResponse:
    subsystem = _subsystem(request, pk)
    function = subsystem.function
    services.subsystem_delete(subsystem=subsystem, actor=request.user)
    return redirect("compliance:safety_function_detail", function.pk)


@login_required
@require_POST
def validation_record_add(request: HttpRequest, pk: int) -> HttpResponse:
    function = _function(request, pk)
    require_edit(request.user, function.cell.project.organisation_id)
    plan = selectors.plan_of(function)
    form = ValidationRecordForm(request.POST, plan=plan)
    if form.is_valid():
        try:
            services.validation_record_add(
                function=function, actor=request.user, **form.cleaned_data
            )
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            messages.success(request, _("Validation result recorded."))
            return redirect("compliance:safety_function_detail", function.pk)
    row = selectors.function_detail(function)
    cell = function.cell
    context = {
        "cell": cell,
        "project": cell.project,
        "f": function_view(row),
        "record_form": form,
        "can_edit": True,
    }
    return render_page(request, DETAIL, context, status=400)


@login_required
@require_POST
def validation_record_delete(request: HttpRequest, pk: int) -> HttpResponse:
    record = selectors.validation_record_for(request.user, pk)
    function = record.function
    services.validation_record_delete(record=record, actor=request.user)
    return redirect("compliance:safety_function_detail", function.pk)


@login_required
def cell_documents(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """The safety requirements specification and the validation plan of every
    function of the cell, on one printable page."""
    cell = _cell(request, cell_pk)
    rows = selectors.cell_functions(cell)
    context = {
        "cell": cell,
        "project": cell.project,
        "functions": [
            function_view(r) for r in sorted(rows, key=lambda r: r.function.order)
        ],
        "srs_clause": shown_citation(documents.SRS_CLAUSE),
        "validation_clause": shown_citation(documents.VALIDATION_CLAUSE),
    }
    return render_page(request, DOCUMENTS, context)


@login_required
def pfhd_table(request: HttpRequest, org_pk: int) -> HttpResponse:
    """The organisation's Table K.1: what is imported, and the import form."""
    organisation = get_object_or_404(
        cell_selectors.organisations_for(request.user), pk=org_pk
    )
    editable = can_edit(request.user, organisation.pk)
    form = PfhdTableForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        if not editable:
            raise PermissionDenied
        if form.is_valid():
            try:
                services.pfhd_table_import(
                    organisation=organisation,
                    actor=request.user,
                    text=form.cleaned_data["file"],
                    source=form.cleaned_data["source"],
                )
            except ValidationError as exc:
                add_errors(form, exc)
            else:
                messages.success(request, _("Table K.1 imported."))
                return redirect("compliance:pfhd_table", organisation.pk)
        status = 400
    table = selectors.k1_table(organisation.pk)
    context = {
        "organisation": organisation,
        "table": table,
        "form": form,
        "can_edit": editable,
        "columns": K1_COLUMN_KEYS,
        "rows": [
            (row.mttfd_years, [row.pfhd(key) for key in K1_COLUMN_KEYS])
            for row in (table.rows if table else ())
        ],
    }
    return render_page(request, K1_PAGE, context, status=status)


@login_required
@require_POST
def pfhd_table_delete(request: HttpRequest, org_pk: int) -> HttpResponse:
    organisation = get_object_or_404(
        cell_selectors.organisations_for(request.user), pk=org_pk
    )
    services.pfhd_table_remove(organisation=organisation, actor=request.user)
    return redirect("compliance:pfhd_table", organisation.pk)
