"""The floor-plan image's pages with the Django test client: upload and
place, change the placement alone, replace, remove; the refusals, each with
a message and nothing saved; the image served."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from PIL import Image

from cells.layout_image import reading
from cells.layout_image.models import LayoutImage
from tests.cells.layout_image.support import (
    file_url,
    gif,
    jpeg,
    page_url,
    png,
    post,
    remove_url,
    saved_image,
)

pytestmark = pytest.mark.django_db


def file_errors(response) -> list[str]:
    assert response.status_code == 400
    return response.context["form"].errors.get("file", [])


def test_the_cell_page_links_to_the_image_page(owner_client, cell):
    page = owner_client.get(reverse("cells:cell_detail", args=[cell.pk])).text
    assert page_url(cell) in page


def test_a_viewer_is_not_offered_the_image_page(viewer_client, cell):
    page = viewer_client.get(reverse("cells:cell_detail", args=[cell.pk])).text
    assert page_url(cell) not in page


def test_the_page_asks_for_the_file_and_the_points(owner_client, cell):
    response = owner_client.get(page_url(cell))
    assert response.status_code == 200
    assert 'type="file"' in response.text
    for name in ("point1_x_px", "point2_y_px", "distance_mm", "plan_x_mm"):
        assert f'name="{name}"' in response.text
    assert "<script>" not in response.text  # the CSP refuses inline script


def test_a_png_is_uploaded_and_placed(owner_client, cell):
    data = png(200, 100)
    response = post(owner_client, cell, data)
    assert response.status_code == 302
    assert response.url == reverse("cells:cell_detail", args=[cell.pk])
    image = LayoutImage.objects.get(cell=cell)
    assert bytes(image.data) == data
    assert (image.content_type, image.width_px, image.height_px) == (
        "image/png",
        200,
        100,
    )
    assert image.file_name == "hall.png"
    assert image.placement().mm_per_px == 50
    assert image.shown and not image.in_pdf


def test_a_jpeg_is_uploaded_whatever_its_name(owner_client, cell):
    response = post(owner_client, cell, jpeg(300, 200), name="hall.png")
    assert response.status_code == 302
    assert LayoutImage.objects.get(cell=cell).content_type == "image/jpeg"


def test_the_page_shows_the_scale_and_the_rectangle(owner_client, cell):
    saved_image(cell)
    text = owner_client.get(page_url(cell)).text
    assert "Scale 50.0 mm per pixel" in text
    assert "from x 0 to 10000 mm and y -2500 to 2500 mm" in text


BAD_FILES = {
    "a GIF": (gif(), "not a PDF, PNG or JPEG file"),
    "text named .png": (b"hello, not a picture\n" * 20, "not a PDF, PNG or JPEG file"),
    "a truncated PNG": (png(400, 300)[:300], "damaged or incomplete"),
    "36 megapixels": (png(6000, 6000, "1"), "more than 25 million pixels"),
    "more than 5 MB": (png() + b"\0" * reading.MAX_BYTES, "larger than 5 MB"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_bad_file_is_refused_with_a_message_and_nothing_saved(
    owner_client, cell, case
):
    data, words = BAD_FILES[case]
    errors = file_errors(post(owner_client, cell, data))
    assert any(words in error for error in errors), errors
    assert not LayoutImage.objects.exists()


def test_a_bad_file_leaves_the_stored_image_as_it_was(owner_client, cell):
    image = saved_image(cell)
    file_errors(post(owner_client, cell, gif(), distance_mm=9000))
    kept = LayoutImage.objects.get(cell=cell)
    assert bytes(kept.data) == bytes(image.data)
    assert kept.distance_mm == 5000


def test_the_first_save_needs_a_file(owner_client, cell):
    assert file_errors(post(owner_client, cell)) == ["This field is required."]
    assert not LayoutImage.objects.exists()


def test_a_second_save_changes_the_placement_without_the_file(owner_client, cell):
    image = saved_image(cell)
    response = post(owner_client, cell, plan_x_mm=-500, distance_mm=2500, in_pdf="on")
    assert response.status_code == 302
    changed = LayoutImage.objects.get(cell=cell)
    assert bytes(changed.data) == bytes(image.data)
    assert changed.uploaded_at == image.uploaded_at
    assert (changed.plan_x_mm, changed.distance_mm, changed.in_pdf) == (
        -500,
        2500,
        True,
    )
    assert changed.placement().mm_per_px == 25


def test_a_new_upload_replaces_the_image(owner_client, cell):
    image = saved_image(cell)
    data = jpeg(400, 300)
    assert post(owner_client, cell, data).status_code == 302
    replaced = LayoutImage.objects.get(cell=cell)
    assert replaced.pk == image.pk
    assert bytes(replaced.data) == data
    assert (replaced.width_px, replaced.height_px) == (400, 300)
    assert replaced.uploaded_at > image.uploaded_at


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"point2_x_px": 20, "point2_y_px": 10}, "point2_x_px"),  # the same point
        ({"point2_x_px": 201}, "point2_x_px"),  # past the 200 px image
        ({"point1_y_px": -1}, "point1_y_px"),
        ({"distance_mm": 0}, "distance_mm"),
        ({"distance_mm": 200_001}, "distance_mm"),
        ({"plan_x_mm": 100_001}, "plan_x_mm"),
        ({"plan_y_mm": "two metres"}, "plan_y_mm"),
        ({"opacity_percent": 0}, "opacity_percent"),
        # 1,000 mm per pixel: 200 m wide, off the plan.
        ({"distance_mm": 100_000}, "__all__"),
    ],
)
def test_a_bad_placement_is_refused_and_nothing_saved(
    owner_client, cell, fields, field
):
    response = post(owner_client, cell, png(200, 100), **fields)
    assert response.status_code == 400
    assert field in response.context["form"].errors
    assert not LayoutImage.objects.exists()


def test_the_points_are_checked_against_the_new_images_size(owner_client, cell):
    saved_image(cell)  # 200 × 100
    response = post(owner_client, cell, png(100, 50), point2_x_px=120)
    assert "point2_x_px" in response.context["form"].errors
    assert LayoutImage.objects.get(cell=cell).width_px == 200


def test_remove_deletes_the_image(owner_client, cell):
    saved_image(cell)
    response = owner_client.post(remove_url(cell))
    assert response.status_code == 302
    assert not LayoutImage.objects.exists()


def test_remove_is_post_only(owner_client, cell):
    saved_image(cell)
    assert owner_client.get(remove_url(cell)).status_code == 405
    assert LayoutImage.objects.exists()


def test_the_image_is_served_as_it_was_uploaded(viewer_client, cell):
    data = png(200, 100)
    saved_image(cell, data=data)
    response = viewer_client.get(file_url(cell))
    assert response.status_code == 200
    assert response.content == data
    assert response["Content-Type"] == "image/png"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Cache-Control"].startswith("private")


def test_no_image_is_a_404(owner_client, cell):
    assert owner_client.get(file_url(cell)).status_code == 404


def test_a_photo_is_kept_the_way_up_the_browser_shows_it(owner_client, cell):
    stream = io.BytesIO()
    exif = Image.Exif()
    exif[reading.ORIENTATION] = 6  # a quarter turn
    Image.new("RGB", (300, 200), "gray").save(stream, "JPEG", exif=exif)
    assert post(owner_client, cell, stream.getvalue()).status_code == 302
    image = LayoutImage.objects.get(cell=cell)
    assert (image.width_px, image.height_px) == (200, 300)
