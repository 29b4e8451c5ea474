"""Writes of the floor-plan image: save it (a new picture or a new placement)
and remove it."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from cells.layout_image.models import LayoutImage
from cells.models import Cell

# The lock every write to a cell's layout is taken under, in the same order.
from cells.services import lock_cell


def layout_image_save(*, image: LayoutImage, new_data: bool) -> LayoutImage:
    """Save ``image``, checked by its form (``full_clean``): a new picture
    (``new_data``) replaces the cell's one, bytes and placement; otherwise
    only the placement and the flags change (the bytes are not sent again)."""
    with transaction.atomic():
        lock_cell(image.cell_id)
        if new_data:
            image.uploaded_at = timezone.now()
        if image.pk is None:
            # Another request may have uploaded one meanwhile: replace it.
            image.pk = (
                LayoutImage.objects.filter(cell_id=image.cell_id)
                .values_list("pk", flat=True)
                .first()
            )
        image.save()
    return image


def layout_image_remove(*, cell: Cell) -> bool:
    """Remove the cell's image; whether there was one."""
    deleted, _ = LayoutImage.objects.filter(cell=cell).delete()
    return bool(deleted)
