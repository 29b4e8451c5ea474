"""Reads of the floor-plan image: what the plan draws, the form's instance
and the bytes served."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ObjectDoesNotExist
from django.shortcuts import get_object_or_404
from django.urls import reverse

from cells.layout_image.models import LayoutImage
from cells.models import Cell

# Loaded with the cell for the pages that draw the plan: everything but the
# bytes, which the browser fetches from the image's own address.
DEFERRED = "underlay_image__data"


@dataclass(frozen=True)
class UnderlayImage:
    """What the plan's SVG (``cells/partials/plan_svg.html``) draws: the
    image's address and its rectangle in the drawing's coordinates (y is
    -plan y), in mm, and its opacity from 0 to 1."""

    href: str
    x: float
    y: float
    width: float
    height: float
    opacity: float


def layout_image(cell: Cell) -> LayoutImage | None:
    """The cell's image, or None. Free with ``cell_with_layout(...,
    with_underlay=True)`` (the row, without its bytes, comes with the cell);
    one query otherwise."""
    try:
        return cell.underlay_image
    except ObjectDoesNotExist:
        return None


def layout_image_for_edit(cell: Cell) -> LayoutImage | None:
    """The cell's image for its form, without the bytes."""
    return LayoutImage.objects.filter(cell=cell).defer("data").first()


def underlay_image(cell: Cell) -> UnderlayImage | None:
    """The image to draw under the cell's plan, if there is one and it is shown."""
    image = layout_image(cell)
    if image is None or not image.shown:
        return None
    x, y, width, height = image.rectangle().svg()
    return UnderlayImage(
        href=image_url(image),
        x=round(x, 1),
        y=round(y, 1),
        width=round(width, 1),
        height=round(height, 1),
        opacity=image.opacity_percent / 100,
    )


def image_url(image: LayoutImage) -> str:
    """Where the image is served from; the upload's time in it, so that a
    cached copy is never an older picture."""
    url = reverse("cells:layout_image_file", args=[image.cell_id])
    return f"{url}?v={image.uploaded_at:%Y%m%d%H%M%S%f}"


def image_file(cell: Cell) -> LayoutImage:
    """The cell's image with its bytes, or 404."""
    return get_object_or_404(
        LayoutImage.objects.only("data", "content_type", "file_name"), cell=cell
    )


def image_for_pdf(cell: Cell) -> LayoutImage | None:
    """The cell's image with its bytes when it is to be shown in the PDF."""
    return LayoutImage.objects.filter(cell=cell, in_pdf=True).first()
