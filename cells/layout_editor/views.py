"""The plan's drawing tools: one POST endpoint per edit, and undo and redo.

Each view authorises (another organisation's cell is a 404, a viewer gets
403), parses the tool's input, calls one service and answers, for htmx, with
the cell's workspace (the plan, the lists and the findings, which reload
themselves). A refused edit answers 400 with the service's message, swapped
into the plan's status area; nothing is saved.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pydantic
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cells import selectors
from cells.layout_editor import inputs, services
from cells.models import Cell
from cells.permissions import require_edit
from cells.views import render_workspace
from config.htmx import is_fragment_request

# Fields sent as JSON text inside the form-encoded body.
JSON_FIELDS = ("points", "a", "b", "from", "to", "at")


@dataclass(frozen=True)
class Operation:
    schema: type[inputs._Input]
    run: Callable[[Cell, object, services.UndoStack], services.Step | str]
    recorded: bool = True  # pushed on the undo stack


def _element_move(cell, data, stack):
    return services.element_move(
        cell=cell, kind=data.kind, pk=data.id, dx=data.dx, dy=data.dy
    )


def _opening(cell, data, stack):
    if data.id is not None and data.at is not None:
        return services.opening_move(cell=cell, pk=data.id, at=data.at)
    if data.segment is None or data.a is None or data.b is None:
        raise ValidationError(_("Drag along a guard segment to place the opening."))
    return services.opening_draw(cell=cell, segment_pk=data.segment, a=data.a, b=data.b)


def _delete(cell, data, stack):
    if data.kind == "zone":
        return services.hazard_zone_reset(cell=cell)
    return services.element_delete(cell=cell, kind=data.kind, pk=data.id)


OPERATIONS: dict[str, Operation] = {
    "segments": Operation(
        inputs.SegmentsInput,
        lambda cell, d, s: services.segments_draw(
            cell=cell,
            points=d.points,
            closed=d.closed,
            kind=d.kind,
            height_mm=d.height_mm,
        ),
    ),
    "rectangle": Operation(
        inputs.RectangleInput,
        lambda cell, d, s: services.rectangle_draw(
            cell=cell, a=d.a, b=d.b, kind=d.kind, height_mm=d.height_mm
        ),
    ),
    "corner": Operation(
        inputs.CornerInput,
        lambda cell, d, s: services.corners_move(
            cell=cell, moves=[(d.source, d.target)]
        ),
    ),
    "move": Operation(inputs.MoveInput, _element_move),
    "opening": Operation(inputs.OpeningInput, _opening),
    "device": Operation(
        inputs.DeviceInput,
        lambda cell, d, s: services.device_place(
            cell=cell, kind=d.kind, points=d.points
        ),
    ),
    "station": Operation(
        inputs.StationInput,
        lambda cell, d, s: services.station_place(cell=cell, at=d.at),
    ),
    "zone": Operation(
        inputs.ZoneInput,
        lambda cell, d, s: services.hazard_zone_draw(cell=cell, points=d.points),
    ),
    "delete": Operation(inputs.DeleteInput, _delete),
    "undo": Operation(
        inputs.NoInput,
        lambda cell, d, stack: services.step_undo(cell=cell, stack=stack),
        recorded=False,
    ),
    "redo": Operation(
        inputs.NoInput,
        lambda cell, d, stack: services.step_redo(cell=cell, stack=stack),
        recorded=False,
    ),
}


def _parsed(request: HttpRequest, schema: type[inputs._Input]) -> inputs._Input:
    data: dict[str, object] = request.POST.dict()
    for name in JSON_FIELDS:
        if name in data:
            try:
                data[name] = json.loads(str(data[name]))
            except ValueError:
                raise ValidationError(
                    _("The drawing tool sent points it cannot read.")
                ) from None
    try:
        return schema.model_validate(data)
    except pydantic.ValidationError as exc:
        where = ", ".join(
            ".".join(str(p) for p in error["loc"]) or "?" for error in exc.errors()
        )
        raise ValidationError(
            _("The drawing tool sent something it cannot use (%(where)s).")
            % {"where": where}
        ) from None


def _refused(request: HttpRequest, cell: Cell, exc: ValidationError) -> HttpResponse:
    """400 with the message, for htmx into the plan's status area."""
    message = " ".join(exc.messages)
    if not is_fragment_request(request):
        messages.error(request, message)
        return redirect("cells:cell_detail", pk=cell.pk)
    response = render(
        request,
        "cells/layout_editor/partials/plan_status.html",
        {"message": message, "refused": True},
        status=400,
    )
    response["HX-Retarget"] = "#plan-status"
    response["HX-Reswap"] = "innerHTML"
    return response


@login_required
@require_POST
def plan_edit(request: HttpRequest, cell_pk: int, operation: str) -> HttpResponse:
    """One edit drawn on the plan of a cell, or undo or redo."""
    cell = selectors.cell_for(request.user, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    if operation not in OPERATIONS:
        raise Http404(_("No such drawing tool."))
    chosen = OPERATIONS[operation]
    stack = services.UndoStack.of(request.session, cell.pk)
    try:
        data = _parsed(request, chosen.schema)
        result = chosen.run(cell, data, stack)
    except ValidationError as exc:
        return _refused(request, cell, exc)
    if isinstance(result, services.Step):
        stack.push(result)
        message, selected, created = result.label, result.selected, result.created
        note = result.note
    else:
        message, selected, created, note = result, "", False, ""
    if not is_fragment_request(request):
        messages.success(request, message)
        if note:
            messages.warning(request, note)
        return redirect("cells:cell_detail", pk=cell.pk)
    response = render_workspace(request, cell.pk, saved=message)
    # After the swap, so the page's editor finds the new plan; the message
    # and the note go to the plan's status line.
    response["HX-Trigger-After-Settle"] = json.dumps(
        {
            "plan-edited": {
                "selected": selected,
                "created": created,
                "message": message,
                "note": note,
            }
        }
    )
    return response
