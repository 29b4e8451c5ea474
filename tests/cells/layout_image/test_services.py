"""The image's writes: one per cell, a new one replacing it even when two
uploads cross; the model's own checks bound every number."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from cells.layout_image import services
from cells.layout_image.models import LayoutImage
from tests.cells.layout_image.support import jpeg, saved_image

pytestmark = pytest.mark.django_db


def test_a_new_image_saved_over_one_uploaded_meanwhile_replaces_it(cell):
    first = saved_image(cell)
    # Read as missing before the other upload was written.
    late = LayoutImage(
        cell=cell,
        data=jpeg(),
        content_type="image/jpeg",
        width_px=300,
        height_px=200,
        point1_x_px=0,
        point1_y_px=0,
        point2_x_px=100,
        point2_y_px=0,
        distance_mm=1000,
        plan_x_mm=0,
        plan_y_mm=0,
    )
    services.layout_image_save(image=late, new_data=True)
    (kept,) = LayoutImage.objects.all()
    assert kept.pk == first.pk
    assert kept.content_type == "image/jpeg"


def test_remove_says_whether_there_was_one(cell):
    assert services.layout_image_remove(cell=cell) is False
    saved_image(cell)
    assert services.layout_image_remove(cell=cell) is True


def test_the_model_refuses_a_point_off_the_image(cell):
    image = saved_image(cell)
    image.point2_x_px = 201
    with pytest.raises(ValidationError) as caught:
        image.full_clean()
    assert "point2_x_px" in caught.value.message_dict


def test_the_database_refuses_two_points_in_one_place(cell):
    with pytest.raises(IntegrityError), transaction.atomic():
        saved_image(cell, point2_x_px=20, point2_y_px=10)


def test_the_database_refuses_a_point_off_the_plan(cell):
    with pytest.raises(IntegrityError), transaction.atomic():
        saved_image(cell, plan_x_mm=100_001)


def test_the_database_refuses_a_gif(cell):
    with pytest.raises(IntegrityError), transaction.atomic():
        saved_image(cell, content_type="image/gif", uploaded_at=timezone.now())


@pytest.mark.parametrize("pages", [0, 101])
def test_the_database_refuses_a_pdf_page_count_out_of_bounds(cell, pages):
    with pytest.raises(IntegrityError), transaction.atomic():
        saved_image(cell, pdf_page_count=pages)
