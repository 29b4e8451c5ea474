"""Pages for projects, cells and the layout editor.

Each view authorises, parses, calls one selector or service and renders. For an
htmx request (not boosted, not a history restore) the cell page answers with
just its ``workspace`` fragment: the drawing, the element lists and the editor.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import (
    Model,
    ProtectedError,
    QuerySet,
    RestrictedError,
    prefetch_related_objects,
)
from django.forms import ModelForm
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import push_url

from cells import selectors, services
from cells.drawing import (
    Drawing,
    DrawingLabels,
    element_key,
    layout_drawing,
)
from cells.drawing.svg import plan_svg_context
from cells.forms import (
    CellCertificateForm,
    CellForm,
    DeviceForm,
    GuardSegmentForm,
    HazardZoneForm,
    LayoutElementForm,
    OpeningForm,
    OperatorStationForm,
    ProjectForm,
)
from cells.layout_dxf.selectors import underlay_lines
from cells.layout_editor import services as plan_edits
from cells.layout_editor.selectors import plan_model
from cells.layout_image.selectors import underlay_image
from cells.links import ID, link_for
from cells.models import (
    Cell,
    CellCertificate,
    Device,
    GuardSegment,
    Opening,
    OperatorStation,
    Organisation,
)
from cells.permissions import can_edit, editable_organisation_ids, require_edit
from compliance.rules import results
from compliance.rules.inputs import digest, versioned
from compliance.rules.plan_marks import distance_requirements, plan_marks
from config.htmx import is_fragment_request, render_page

KEPT_FOR_THE_RECORD = gettext_lazy(
    "“%(name)s” is part of a signed risk assessment, which must be kept as it was "
    "signed: it cannot be deleted."
)


def _deleted(request: HttpRequest, obj) -> bool:
    """Delete ``obj``, or say why not when a signed record still needs it."""
    try:
        with transaction.atomic():
            obj.delete()
    except (IntegrityError, RestrictedError, ProtectedError):
        messages.error(request, KEPT_FOR_THE_RECORD % {"name": obj})
        return False
    return True


def drawing_labels() -> DrawingLabels:
    """The words drawn on the plan, in the reader's language."""
    return DrawingLabels(
        gap=_("open %(width)s mm"),
        gap_uncertain=_("open (width uncertain)"),
        reach_past=_("zone reaches %(reach)s mm past the guard"),
        required=_("S ≥ %(distance)s mm"),
        zone_sum=_("reach %(reach)s + tool %(tool)s + workpiece %(workpiece)s mm"),
        ring_reach=_("robot reach"),
        ring_tool=_("with the tool"),
        uncovered=_("no field to S %(distance)s mm"),
    )


def _drawing(cell: Cell) -> Drawing:
    """The plan of a cell loaded by ``selectors.cell_with_layout`` (with its
    underlay), with each device's required minimum distance."""
    return layout_drawing(
        selectors.cell_document(cell),
        labels=drawing_labels(),
        required=distance_requirements(cell),
        underlay=underlay_lines(cell),
        plan=selectors.plan_of(cell),
        **plan_marks(cell),
    )


PLAN_SVG = "cells/partials/plan_svg.html"


def plan_svg(drawing: Drawing, cell: Cell, **options) -> SafeString:
    """The SVG of ``drawing``, the plan of ``cell``, written by the template
    ``PLAN_SVG`` in the active language; ``options``: those of
    ``cells.drawing.svg.plan_svg_context`` (the element selected, the image
    under the plan, a standalone file)."""
    context = plan_svg_context(
        drawing, name=cell.name, title_id=f"layout-title-{cell.pk}", **options
    )
    return render_to_string(PLAN_SVG, context)


# Projects -------------------------------------------------------------------


@login_required
def project_list(request: HttpRequest) -> HttpResponse:
    context = {
        "projects": selectors.project_list(request.user),
        "can_create": bool(editable_organisation_ids(request.user)),
    }
    return render(request, "cells/project_list.html", context)


@login_required
def project_create(request: HttpRequest) -> HttpResponse:
    org_ids = editable_organisation_ids(request.user)
    if not org_ids:
        raise PermissionDenied(_("Viewers cannot create projects."))
    organisations = Organisation.objects.filter(id__in=org_ids)
    form = ProjectForm(request.POST or None, organisations=organisations)
    if request.method == "POST" and form.is_valid():
        project = form.save(commit=False)
        project.created_by = request.user
        project.save()
        messages.success(request, _("Project “%(name)s” created.") % {"name": project})
        return redirect("cells:project_detail", pk=project.pk)
    return render(request, "cells/project_form.html", {"form": form})


@login_required
def project_detail(request: HttpRequest, pk: int) -> HttpResponse:
    project = selectors.project_for(request.user, pk)
    context = {
        "project": project,
        "cells": selectors.project_cells(project),
        "can_edit": can_edit(request.user, project.organisation_id),
    }
    return render(request, "cells/project_detail.html", context)


@login_required
def project_edit(request: HttpRequest, pk: int) -> HttpResponse:
    project = selectors.project_for(request.user, pk)
    require_edit(request.user, project.organisation_id)
    form = ProjectForm(request.POST or None, instance=project)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Project saved."))
        return redirect("cells:project_detail", pk=project.pk)
    return render(
        request, "cells/project_form.html", {"form": form, "project": project}
    )


@login_required
def project_delete(request: HttpRequest, pk: int) -> HttpResponse:
    project = selectors.project_for(request.user, pk)
    require_edit(request.user, project.organisation_id)
    if request.method == "POST":
        if not _deleted(request, project):
            return redirect("cells:project_detail", pk=project.pk)
        messages.success(request, _("Project “%(name)s” deleted.") % {"name": project})
        return redirect("cells:project_list")
    return render(
        request,
        "cells/confirm_delete.html",
        {
            "object": project,
            "cancel_url": reverse("cells:project_detail", args=[project.pk]),
            "consequence": _("Its cells and their layouts are deleted with it."),
        },
    )


# Cells ------------------------------------------------------------------------


@login_required
def cell_create(request: HttpRequest, project_pk: int) -> HttpResponse:
    project = selectors.project_for(request.user, project_pk)
    require_edit(request.user, project.organisation_id)
    form = CellForm(request.POST or None, instance=Cell(project=project))
    if request.method == "POST" and form.is_valid():
        cell = form.save()
        messages.success(request, _("Cell created. Now draw its guarding."))
        return redirect("cells:cell_detail", pk=cell.pk)
    return render(request, "cells/cell_form.html", {"form": form, "project": project})


@login_required
def cell_edit(request: HttpRequest, pk: int) -> HttpResponse:
    cell = selectors.cell_for(request.user, pk)
    require_edit(request.user, cell.project.organisation_id)
    form = CellForm(request.POST or None, instance=cell)
    if request.method == "POST" and form.is_valid():
        try:
            versioned_save("cell_save", "cell")(form)
        except ValidationError as exc:
            form.add_error(None, exc)
        except services.Conflict as exc:  # saved by someone else meanwhile
            form.conflicted(exc.current, exc.differs)
        else:
            messages.success(request, _("Robot and task saved."))
            return redirect("cells:cell_detail", pk=cell.pk)
    context = {"form": form, "project": cell.project, "cell": cell}
    return render(request, "cells/cell_form.html", context)


@login_required
def cell_delete(request: HttpRequest, pk: int) -> HttpResponse:
    cell = selectors.cell_for(request.user, pk)
    require_edit(request.user, cell.project.organisation_id)
    if request.method == "POST":
        if not _deleted(request, cell):
            return redirect("cells:cell_detail", pk=cell.pk)
        messages.success(request, _("Cell “%(name)s” deleted.") % {"name": cell})
        return redirect("cells:project_detail", pk=cell.project_id)
    return render(
        request,
        "cells/confirm_delete.html",
        {
            "object": cell,
            "cancel_url": reverse("cells:cell_detail", args=[cell.pk]),
            "consequence": _("Its layout is deleted with it."),
        },
    )


@functools.cache
def _layout_stylesheet() -> str:
    # A downloaded file has no page to link a stylesheet from: it carries the
    # page's one, under the response's CSP nonce.
    path = finders.find("css/layout-svg.css")
    return Path(path).read_text(encoding="utf-8")


@login_required
def cell_layout_svg(request: HttpRequest, pk: int) -> HttpResponse:
    """The plan alone, as an SVG file to download or embed."""
    cell = selectors.cell_with_layout(request.user, pk, with_underlay=True)
    svg = plan_svg(
        _drawing(cell),
        cell,
        standalone=True,
        stylesheet=_layout_stylesheet(),
        nonce=request.csp_nonce,
    )
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Content-Disposition"] = f'inline; filename="cell-{cell.pk}-layout.svg"'
    return response


# The layout editor ------------------------------------------------------------


@dataclass(frozen=True)
class ElementKind:
    """One kind of layout element the editor can add, change and delete."""

    form_class: type[LayoutElementForm]
    queryset: Callable[[Cell], QuerySet]
    new: Callable[[Cell], Model]
    title: str
    # How a valid form is saved: through a service that locks the segment or
    # the cell and checks again (two editors at once, a cell's caps).
    save: Callable[[ModelForm], Model] = lambda form: form.save()


def versioned_save(service: str, name: str) -> Callable[[ModelForm], Model]:
    """Save a ``VersionedFormMixin`` form through the layout's ``service``
    (``cells.services``, looked up when saving): only the fields the person
    changed; when someone else saved the row since the form was shown,
    refused (``services.Conflict``) only if their save changed one of those
    fields, else saved on top of theirs."""

    def save(form: ModelForm) -> Model:
        run = getattr(services, service)
        fields = form.saved_fields()
        try:
            return run(
                **{name: form.instance}, fields=fields, version=form.read_version()
            )
        except services.Conflict as exc:
            theirs = form.changed_by_others(exc.current)
            if theirs:
                raise services.Conflict(exc.current, theirs) from exc
            # The other save changed nothing this person changed: theirs
            # stays, and this person's changes go on top of it.
            return run(
                **{name: form.instance}, fields=fields, version=exc.current.version
            )

    return save


ELEMENT_KINDS: dict[str, ElementKind] = {
    "segment": ElementKind(
        GuardSegmentForm,
        lambda cell: GuardSegment.objects.filter(cell=cell),
        lambda cell: GuardSegment(cell=cell),
        gettext_lazy("guard segment"),
        versioned_save("guard_segment_save", "segment"),
    ),
    "opening": ElementKind(
        OpeningForm,
        lambda cell: Opening.objects.filter(segment__cell=cell),
        lambda cell: Opening(),
        gettext_lazy("opening"),
        versioned_save("opening_save", "opening"),
    ),
    "device": ElementKind(
        DeviceForm,
        lambda cell: Device.objects.filter(cell=cell),
        lambda cell: Device(cell=cell),
        gettext_lazy("safety device"),
        versioned_save("device_save", "device"),
    ),
    "station": ElementKind(
        OperatorStationForm,
        lambda cell: OperatorStation.objects.filter(cell=cell),
        lambda cell: OperatorStation(cell=cell),
        gettext_lazy("operator station"),
        versioned_save("operator_station_save", "station"),
    ),
}


def _element_kind(kind: str) -> ElementKind:
    if kind not in ELEMENT_KINDS:
        raise Http404(_("No such layout element."))
    return ELEMENT_KINDS[kind]


def render_workspace(
    request: HttpRequest,
    pk: int,
    *,
    editor: dict | None = None,
    saved: str = "",
) -> HttpResponse:
    """The cell page, or for htmx its workspace fragment, in a fixed number of
    queries however many elements the layout has."""
    cell = versioned(
        pk, lambda: selectors.cell_with_layout(request.user, pk, with_underlay=True)
    )
    segments = list(cell.segments.all())
    stations = list(cell.stations.all())
    devices = list(cell.devices.all())
    # Read once: the findings read them too.
    prefetch_related_objects([cell], "certificates")
    certificates = list(selectors.cell_certificates(cell))
    editable = can_edit(request.user, cell.project.organisation_id)
    if editable:
        _with_actions(request, cell, segments, stations, devices, certificates)
    context = {
        "certificates": certificates,
        # Whether each certificate is in force is shown as of today.
        "today": timezone.localdate(),
        "cell": cell,
        "project": cell.project,
        "segments": segments,
        "opening_count": sum(len(s.openings.all()) for s in segments),
        "stations": stations,
        "devices": devices,
        "can_edit": editable,
        "editor": editor,
        "selected_key": _selected_key(editor, segments, stations, devices),
        "saved": saved,
        # The drawing tools' view of the plan (cells.layout_editor).
        "plan_model": plan_model(cell, segments, stations, devices),
    }
    plan = _plan(cell, context["selected_key"])
    context |= {"drawing": plan, "plan_svg": mark_safe(plan["svg"])}
    return render_page(request, "cells/cell_detail.html", context, fragment="workspace")


def plan_for(cell: Cell) -> dict:
    """The plan of a cell loaded with its layout as the cell page draws it
    (``svg``, its ``view_width`` in mm ...), for a page showing several."""
    return _plan(cell, "")


def _plan(cell: Cell, selected_key: str) -> dict:
    """The plan of a cell loaded by ``selectors.cell_with_layout`` (with its
    underlay) as SVG (``plan_svg``), with what the page says of it: drawn
    once per change of what it shows and kept in the cache (the findings'
    version covers the cell, its layout, the distances required of its
    devices and the template; besides, the language, the imported drawing
    and floor-plan image under it, the element highlighted)."""
    # The floor-plan image under the plan (cells.layout_image), if shown.
    image = underlay_image(cell)
    shown = digest(get_language(), selected_key, underlay_lines(cell), image)

    def draw() -> dict:
        drawing = _drawing(cell)
        return {
            "svg": str(plan_svg(drawing, cell, selected_key=selected_key, image=image)),
            "grid_step_mm": drawing.grid_step_mm,
            "view_width": drawing.view_width,
            "view_height": drawing.view_height,
            "gaps": bool(drawing.gaps),
            "reach": drawing.reach is not None,
            "clearances": bool(drawing.clearances),
        }

    return results.kept(cell, f"plan:{shown}", draw)


# A listed element's edit link and delete button, as the cell page writes
# them on every row (htmx swaps the workspace; without JavaScript both work).
ROW_ACTIONS = (
    '\n              <a href="{edit}" hx-get="{edit}" hx-target="#workspace" '
    'hx-swap="outerHTML" hx-push-url="true">{edit_word}</a>\n'
    '              <form method="post" action="{delete}" hx-post="{delete}" '
    'hx-target="#workspace" hx-swap="outerHTML" hx-confirm="{confirm}">'
    '<input type="hidden" name="csrfmiddlewaretoken" value="{token}">'
    '<button type="submit" class="link-button danger-text">{delete_word}</button>'
    "</form>\n"
)


def _with_actions(
    request: HttpRequest,
    cell: Cell,
    segments: list,
    stations: list,
    devices: list,
    certificates: list,
) -> None:
    """Each listed element's ``actions``: its edit link and delete button,
    the links reversed and the words translated once per kind, not once per
    row (``cells.links``)."""
    common = {
        "token": get_token(request),
        "edit_word": _("Edit"),
        "delete_word": _("Delete"),
    }
    edit = {k: link_for("cells:element_edit", cell.pk, k, ID) for k in ELEMENT_KINDS}
    delete = {
        k: link_for("cells:element_delete", cell.pk, k, ID) for k in ELEMENT_KINDS
    }
    question = _("Delete %(name)s?")
    with_openings = " " + _("Its openings go with it.")

    def actions(edit_url: str, delete_url: str, confirm: str) -> str:
        return format_html(
            ROW_ACTIONS, edit=edit_url, delete=delete_url, confirm=confirm, **common
        )

    def attach(obj, kind: str, suffix: str = "") -> None:
        obj.actions = actions(
            edit[kind](obj.pk), delete[kind](obj.pk), question % {"name": obj} + suffix
        )

    for segment in segments:
        attach(segment, "segment", with_openings)
        for opening in segment.openings.all():
            attach(opening, "opening")
    for station in stations:
        attach(station, "station")
    for device in devices:
        attach(device, "device")
    edit_certificate = link_for("cells:certificate_edit", cell.pk, ID)
    delete_certificate = link_for("cells:certificate_delete", cell.pk, ID)
    for certificate in certificates:
        certificate.actions = actions(
            edit_certificate(certificate.pk),
            delete_certificate(certificate.pk),
            _("Delete certificate %(name)s?") % {"name": certificate},
        )


def _selected_key(
    editor: dict | None, segments: list, stations: list, devices: list
) -> str:
    """The drawing key of the element being edited, to highlight it."""
    instance = (editor or {}).get("instance")
    if instance is None:
        return ""
    for s_index, segment in enumerate(segments):
        if editor["kind"] == "segment" and segment.pk == instance.pk:
            return element_key("segment", s_index)
        for o_index, opening in enumerate(segment.openings.all()):
            if editor["kind"] == "opening" and opening.pk == instance.pk:
                return element_key("opening", s_index, o_index)
    for t_index, station in enumerate(stations):
        if editor["kind"] == "station" and station.pk == instance.pk:
            return element_key("station", t_index)
    for d_index, device in enumerate(devices):
        if editor["kind"] == "device" and device.pk == instance.pk:
            return element_key("device", d_index)
    return ""


@login_required
def cell_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return render_workspace(request, pk)


def _saved_response(request: HttpRequest, cell_pk: int, message: str) -> HttpResponse:
    cell_url = reverse("cells:cell_detail", args=[cell_pk])
    if not is_fragment_request(request):
        messages.success(request, message)
        return redirect(cell_url)
    return push_url(render_workspace(request, cell_pk, saved=message), cell_url)


def _edit_layout(
    request: HttpRequest,
    cell: Cell,
    form: ModelForm,
    editor: dict,
    saved: str,
    save: Callable[[ModelForm], Model] = lambda form: form.save(),
) -> HttpResponse:
    # Read before the form binds: a save here goes on the plan's undo stack.
    before = plan_edits.form_before(editor["kind"], form.instance)
    if request.method == "POST" and form.is_valid():
        try:
            element = save(form)
        except ValidationError as exc:  # refused when checked again, under a lock
            form.add_error(None, exc)
        except services.Conflict as exc:  # saved by someone else meanwhile
            form.conflicted(exc.current, exc.differs)
        except ObjectDoesNotExist:  # deleted by someone else meanwhile
            form.add_error(
                None, _("That element is no longer on the plan: someone removed it.")
            )
        else:
            message = saved % {"name": element}
            plan_edits.form_saved(
                session=request.session,
                cell_pk=cell.pk,
                kind=editor["kind"],
                before=before,
                instance=element,
                label=message,
            )
            return _saved_response(request, cell.pk, message)
    editor["form"] = form
    return render_workspace(request, cell.pk, editor=editor)


@login_required
def layout_element_edit(
    request: HttpRequest, cell_pk: int, kind: str, pk: int | None = None
) -> HttpResponse:
    """Add (no pk) or change one guard segment, opening, device or station."""
    element_kind = _element_kind(kind)
    cell = selectors.cell_for(request.user, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    if pk is None:
        instance = element_kind.new(cell)
        action = reverse("cells:element_add", args=[cell.pk, kind])
        title = _("Add %(kind)s") % {"kind": element_kind.title}
    else:
        instance = get_object_or_404(element_kind.queryset(cell), pk=pk)
        action = reverse("cells:element_edit", args=[cell.pk, kind, pk])
        title = _("Edit %(kind)s %(name)s") % {
            "kind": element_kind.title,
            "name": instance,
        }
    form = element_kind.form_class(request.POST or None, instance=instance, cell=cell)
    editor = {
        "kind": kind,
        "title": title,
        "action": action,
        "instance": instance if pk else None,
        "delete_url": reverse("cells:element_delete", args=[cell.pk, kind, pk])
        if pk
        else "",
    }
    return _edit_layout(
        request, cell, form, editor, _("Saved %(name)s."), element_kind.save
    )


@login_required
def hazard_zone_edit(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """Move the robot base or reshape its hazard zone."""
    cell = selectors.cell_for(request.user, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    form = HazardZoneForm(request.POST or None, instance=cell, cell=cell)
    editor = {
        "kind": "zone",
        "title": _("Robot base and hazard zone"),
        "action": reverse("cells:hazard_zone_edit", args=[cell.pk]),
        "delete_url": "",
    }
    return _edit_layout(
        request,
        cell,
        form,
        editor,
        _("Saved the hazard zone of %(name)s."),
        versioned_save("cell_save", "cell"),
    )


@login_required
@require_POST
def layout_element_delete(
    request: HttpRequest, cell_pk: int, kind: str, pk: int
) -> HttpResponse:
    element_kind = _element_kind(kind)
    cell = selectors.cell_for(request.user, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    element = get_object_or_404(element_kind.queryset(cell), pk=pk)
    try:
        # As the plan's Delete key does: on its undo stack, so Ctrl+Z puts it back.
        message = plan_edits.form_delete(
            session=request.session, cell=cell, kind=kind, pk=element.pk
        )
    except ValidationError as exc:  # a risk-reduction measure still names it
        message = " ".join(exc.messages)
        if not is_fragment_request(request):
            messages.error(request, message)
            return redirect("cells:cell_detail", pk=cell.pk)
        return render_workspace(request, cell.pk, saved=message)
    return _saved_response(request, cell.pk, message)


# Certificates on file -------------------------------------------------------


@login_required
def certificate_edit(
    request: HttpRequest, cell_pk: int, pk: int | None = None
) -> HttpResponse:
    """Record (no pk) or correct a certificate on file for the cell, in the
    editor beside the drawing."""
    cell = selectors.cell_for(request.user, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    if pk is None:
        instance = CellCertificate(cell=cell, created_by=request.user)
        editor = {
            "kind": "certificate",
            "title": _("Add certificate"),
            "action": reverse("cells:certificate_add", args=[cell.pk]),
            "instance": None,
            "delete_url": "",
        }
    else:
        instance = get_object_or_404(selectors.cell_certificates(cell), pk=pk)
        editor = {
            "kind": "certificate",
            "title": _("Edit certificate %(name)s") % {"name": instance},
            "action": reverse("cells:certificate_edit", args=[cell.pk, pk]),
            "instance": instance,
            "delete_url": reverse("cells:certificate_delete", args=[cell.pk, pk]),
        }
    form = CellCertificateForm(request.POST or None, instance=instance)
    return _edit_layout(
        request,
        cell,
        form,
        editor,
        _("Saved certificate %(name)s."),
        versioned_save("certificate_save", "certificate"),
    )


@login_required
@require_POST
def certificate_delete(request: HttpRequest, cell_pk: int, pk: int) -> HttpResponse:
    cell = selectors.cell_for(request.user, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    certificate = get_object_or_404(selectors.cell_certificates(cell), pk=pk)
    certificate.delete()
    return _saved_response(
        request, cell.pk, _("Deleted certificate %(name)s.") % {"name": certificate}
    )
