"""The floor-plan image's pages: upload and place it, remove it, the image
itself (for the plan's ``<image>``) and a PDF's first page drawn before the
upload (for the page's picture to pick the points on)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cells import selectors as cell_selectors
from cells.layout_image import selectors, services
from cells.layout_image.forms import LayoutImageForm, LayoutImagePreviewForm
from cells.layout_image.models import LayoutImage
from cells.permissions import require_edit

TEMPLATE = "cells/layout_image/layout_image_edit.html"


@login_required
@require_http_methods(["GET", "POST"])
def layout_image_edit(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = cell_selectors.cell_for(request.user, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    existing = selectors.layout_image_for_edit(cell)
    instance = existing or LayoutImage(cell=cell)
    if request.method == "POST":
        form = LayoutImageForm(request.POST, request.FILES, instance=instance)
        if form.is_valid():
            services.layout_image_save(
                image=form.instance, new_data=form.new_data is not None
            )
            messages.success(request, _("The floor-plan image is saved."))
            return redirect("cells:cell_detail", pk=cell.pk)
        # The form's instance took the refused picture's size: show the stored one.
        existing = selectors.layout_image_for_edit(cell)
    else:
        form = LayoutImageForm(instance=instance)
    context = {
        "cell": cell,
        "form": form,
        "image": existing,
        "image_url": selectors.image_url(existing) if existing else "",
        "scale": _scale(existing),
    }
    return render(request, TEMPLATE, context, status=400 if form.errors else 200)


def _scale(image: LayoutImage | None) -> dict | None:
    if image is None:
        return None
    rectangle = image.rectangle()
    return {
        "mm_per_px": round(image.placement().mm_per_px, 3),
        "min_x_mm": round(rectangle.min_x_mm),
        "max_x_mm": round(rectangle.max_x_mm),
        "min_y_mm": round(rectangle.min_y_mm),
        "max_y_mm": round(rectangle.max_y_mm),
    }


@login_required
@require_POST
def layout_image_remove(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = cell_selectors.cell_for(request.user, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    if services.layout_image_remove(cell=cell):
        messages.success(request, _("The floor-plan image is removed."))
    return redirect(reverse("cells:cell_detail", args=[cell.pk]))


@login_required
@require_POST
def layout_image_preview(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """The file chosen, checked as the upload is and not kept: a PDF's first
    page drawn as the upload will draw it (the same pixels, so the points
    picked on it hold), or the picture; else the refusal as plain text.
    Only for those who may upload (static/js/layout-image.js asks)."""
    cell = cell_selectors.cell_for(request.user, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    form = LayoutImagePreviewForm(request.POST, request.FILES)
    if form.is_valid():
        checked = form.cleaned_data["file"]
        response = HttpResponse(checked.data, content_type=checked.info.content_type)
    else:
        message = " ".join(form.errors.get("file", []))
        response = HttpResponse(
            message, content_type="text/plain; charset=utf-8", status=400
        )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_GET
def layout_image_file(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """The image's bytes, as kept: as uploaded (checked to be PNG or JPEG
    then) or a PDF's first page drawn."""
    cell = cell_selectors.cell_for(request.user, cell_pk)
    image = selectors.image_file(cell)
    response = HttpResponse(bytes(image.data), content_type=image.content_type)
    response["X-Content-Type-Options"] = "nosniff"
    # The organisation's data: never in a shared cache. Its address changes
    # with each upload (``?v=``), so the browser may keep it a while.
    response["Cache-Control"] = "private, max-age=3600"
    response["Content-Disposition"] = "inline"
    return response
