"""The DXF pages: import a drawing into a cell's layout in two steps, and
download the plan as a DXF file.

Import: upload the file (kept in the session, compressed, until imported or
discarded: at most one per cell), then see its layers with their entities,
choose what each becomes and preview what would be created, then import.
The preview form works without JavaScript; with htmx it redraws in place.
"""

from __future__ import annotations

import base64
import zlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from cells import selectors
from cells.drawing import layout_drawing
from cells.layout_dxf import reading, services
from cells.layout_dxf import selectors as dxf_selectors
from cells.layout_dxf.api import cell_layout_dxf, dxf_response
from cells.layout_dxf.forms import (
    UNIT_CHOICES,
    DxfMappingForm,
    DxfUploadForm,
    skip_reason,
)
from cells.models import Cell
from cells.permissions import require_edit
from cells.views import drawing_labels
from compliance.rules.inputs import versioned
from config.htmx import is_fragment_request, render_page

TEMPLATE = "cells/layout_dxf/layout_dxf_import.html"


def _session_key(cell: Cell) -> str:
    return f"layout_dxf:{cell.pk}"


def _keep(request: HttpRequest, cell: Cell, name: str, data: bytes, options: dict):
    request.session[_session_key(cell)] = {
        "name": name[:255],
        "data": base64.b64encode(zlib.compress(data)).decode("ascii"),
        **options,
    }


def _kept(request: HttpRequest, cell: Cell) -> tuple[dict, bytes] | None:
    stored = request.session.get(_session_key(cell))
    if not stored:
        return None
    try:
        data = zlib.decompress(base64.b64decode(stored["data"]))
    except (KeyError, ValueError, zlib.error):
        _forget(request, cell)
        return None
    return stored, data


def _forget(request: HttpRequest, cell: Cell) -> None:
    request.session.pop(_session_key(cell), None)


@login_required
@require_http_methods(["GET", "POST"])
def layout_dxf_import(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = selectors.cell_for(request.user, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    here = reverse("cells:layout_dxf_import", args=[cell.pk])
    action = request.POST.get("action", "")
    if request.method == "POST" and action == "discard":
        _forget(request, cell)
        return redirect(here)
    if request.method == "POST" and action == "upload":
        return _upload(request, cell, here)
    kept = _kept(request, cell)
    if kept is None:
        context = {
            "cell": cell,
            "form": DxfUploadForm(),
            "step": "upload",
            "tolerance": tolerance(),
        }
        return render(request, TEMPLATE, context)
    stored, data = kept
    try:
        contents = reading.read_dxf(data)
    except reading.DxfError:
        # Read once already: only a change of the reader could get here.
        _forget(request, cell)
        return redirect(here)
    remembered = dxf_selectors.remembered_targets(
        cell.project.organisation_id, [layer.name for layer in contents.layers]
    )
    if request.method == "POST":
        form = DxfMappingForm(
            request.POST, layers=contents.layers, remembered=remembered
        )
    else:
        form = DxfMappingForm(
            DxfMappingForm.defaults(contents.layers, stored, remembered),
            layers=contents.layers,
            remembered=remembered,
        )
    return _preview(request, cell, form, stored, data, importing=action == "import")


def _upload(request: HttpRequest, cell: Cell, here: str) -> HttpResponse:
    form = DxfUploadForm(request.POST, request.FILES)
    if form.is_valid():
        upload = form.cleaned_data["file"]
        data = upload.read()
        try:
            reading.read_dxf(data)
        except reading.DxfError as exc:
            for field, errors in services.read_error(exc).message_dict.items():
                form.add_error(field if field in form.fields else "file", errors)
        else:
            _keep(request, cell, upload.name or "", data, form.options())
            return redirect(here)
    context = {"cell": cell, "form": form, "step": "upload", "tolerance": tolerance()}
    return render(request, TEMPLATE, context, status=400)


def _preview(
    request: HttpRequest,
    cell: Cell,
    form: DxfMappingForm,
    stored: dict,
    data: bytes,
    *,
    importing: bool,
) -> HttpResponse:
    planned = None
    if form.is_valid():
        arguments = {
            "cell": cell,
            "data": data,
            "mapping": form.mapping(),
            "source_name": stored.get("name", ""),
            **form.options(),
        }
        try:
            if importing:
                planned = services.layout_dxf_import(**arguments)
            else:
                planned = services.layout_dxf_plan(**arguments)
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        else:
            if importing:
                return _imported(request, cell, planned, stored.get("name", ""))
    context = {
        "cell": cell,
        "form": form,
        "step": "preview",
        "tolerance": tolerance(),
        "file_name": stored.get("name", ""),
        "planned": planned,
        "summary": _summary(planned) if planned else None,
        "drawing": _preview_drawing(request, cell, planned) if planned else None,
    }
    return render_page(
        request,
        TEMPLATE,
        context,
        fragment="result",
        status=200 if planned else 400,
    )


def _imported(
    request: HttpRequest, cell: Cell, planned: services.ImportPlan, name: str
) -> HttpResponse:
    _forget(request, cell)
    created = len(planned.segments)
    lines = len(planned.dxf.underlay)
    messages.success(
        request,
        _(
            "Imported %(segments)s guard segments, %(doors)s doors and "
            "%(lines)s underlay lines from %(name)s; %(skipped)s entities or "
            "pieces were left out."
        )
        % {
            "segments": created,
            "doors": len(planned.openings),
            "lines": lines,
            "name": name or "DXF",
            "skipped": sum(planned.dxf.skipped.values()) + planned.doors_left_out,
        },
    )
    cell_url = reverse("cells:cell_detail", args=[cell.pk])
    if is_fragment_request(request):
        return HttpResponseClientRedirect(cell_url)
    return redirect(cell_url)


# The names from the drawing listed in the preview; the plan shows them all.
NAMES_SHOWN = 30


def notes(dxf: reading.DxfPlan) -> list[str]:
    """What the reading did that the user should know, in their words."""
    words = {
        "block_inserts": lambda n: ngettext(
            "%(count)s block (INSERT) read with its placement.",
            "%(count)s blocks (INSERT) read with their placement.",
            n,
        ),
        "curves_flattened": lambda n: ngettext(
            "%(count)s arc, circle or spline drawn as straight pieces, within "
            "%(tolerance)s mm of the curve.",
            "%(count)s arcs, circles or splines drawn as straight pieces, "
            "within %(tolerance)s mm of the curve.",
            n,
        ),
        "projected_3d": lambda n: ngettext(
            "%(count)s 3D line projected to the floor: its heights in the file "
            "are not read.",
            "%(count)s 3D lines projected to the floor: their heights in the "
            "file are not read.",
            n,
        ),
    }
    return [
        words[key](count) % {"count": count, "tolerance": tolerance()}
        for key, count in sorted(dxf.notes.items())
        if key in words and count
    ]


def tolerance() -> str:
    """How near the curves' straight pieces stay to them, in mm, as shown."""
    return f"{reading.FLATTEN_TOLERANCE_MM:g}"


def _summary(planned: services.ImportPlan) -> dict:
    by_kind = planned.dxf.segments_by_kind()
    return {
        "segments": len(planned.segments),
        "by_kind": by_kind,
        "underlay": len(planned.dxf.underlay),
        # In words ("inches"), not the reader's code ("inch").
        "units": dict(UNIT_CHOICES).get(planned.dxf.units, planned.dxf.units),
        "units_from": planned.dxf.units_from,
        "openings": len(planned.openings),
        "doors_left_out": planned.doors_left_out,
        "names": [
            element.label
            for element in [*planned.segments, *planned.openings]
            if element.label
        ][:NAMES_SHOWN],
        "notes": notes(planned.dxf),
        "skipped": [
            {"reason": skip_reason(reason), "entity": entity, "count": count}
            for (reason, entity), count in sorted(planned.dxf.skipped.items())
        ],
    }


def _preview_drawing(request: HttpRequest, cell: Cell, planned: services.ImportPlan):
    """The cell's plan as it would be after the import: its layout, the new
    guard segments with their names and doors, and the new underlay."""
    loaded = selectors.cell_with_layout(request.user, cell.pk)
    document = selectors.cell_document(loaded)
    # The doors by their guard: a saved one by its id, a new one as itself.
    in_saved: dict[int, list] = {}
    in_new: dict[int, list] = {}
    for opening in planned.openings:
        guard = opening.segment
        if guard.pk is None:
            in_new.setdefault(id(guard), []).append(opening)
        else:
            in_saved.setdefault(guard.pk, []).append(opening)
    segments = [
        selectors.segment_doc(s, [*s.openings.all(), *in_saved.get(s.pk, [])])
        for s in loaded.segments.all()
    ]
    added = [selectors.segment_doc(s, in_new.get(id(s), [])) for s in planned.segments]
    document = document.model_copy(update={"guard_segments": [*segments, *added]})
    return layout_drawing(
        document, labels=drawing_labels(), underlay=planned.dxf.underlay
    )


@login_required
@require_GET
def layout_dxf_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The plan as a DXF file to download."""
    cell = versioned(pk, lambda: selectors.cell_with_layout(request.user, pk))
    return dxf_response(cell, cell_layout_dxf(cell))
