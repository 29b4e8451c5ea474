"""A PDF of the hall as the plan's underlay (issue 31), with the Django test
client: its first page is drawn as a PNG, kept and placed like an uploaded
image and drawn on the plan, the page saying where it came from; a PDF past
a limit, protected, corrupt or not a PDF at all is refused with a message
naming the limit and nothing saved; the picture to pick the points on is
drawn before the upload with the same pixels."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from PIL import Image

from cells.layout_image import pdf_page, reading
from cells.layout_image.models import LayoutImage
from tests.cells.layout_image.support import (
    file_url,
    page_url,
    pdf,
    png,
    post,
    saved_image,
    upload,
)
from tests.cells.layout_image.test_drawing import cell_page, image_element, svg_of

pytestmark = pytest.mark.django_db

# The wall on the PDF's first page runs from pixel 200 to pixel 1,800 on row
# 200 (tests/cells/layout_image/support.py): 16 m long, its left end at the
# plan's origin. 10 mm per pixel.
WALL = {
    "point1_x_px": 200,
    "point1_y_px": 200,
    "point2_x_px": 1800,
    "point2_y_px": 200,
    "distance_mm": 16_000,
    "plan_x_mm": 0,
    "plan_y_mm": 0,
}


def preview_url(cell) -> str:
    return reverse("cells:layout_image_preview", args=[cell.pk])


def file_errors(response) -> list[str]:
    assert response.status_code == 400
    return response.context["form"].errors.get("file", [])


def test_a_one_page_pdf_is_kept_as_its_first_page_drawn(owner_client, cell):
    response = post(owner_client, cell, pdf(), name="hall.pdf", **WALL)
    assert response.status_code == 302
    image = LayoutImage.objects.get(cell=cell)
    assert (image.content_type, image.width_px, image.height_px) == (
        "image/png",
        2000,
        1000,
    )
    assert (image.file_name, image.pdf_page_count) == ("hall.pdf", 1)
    assert reading.check_image(bytes(image.data)).width_px == 2000
    # Scaled by the two points and the distance, as an image is.
    assert image.placement().mm_per_px == 10
    rectangle = image.rectangle()
    assert (rectangle.min_x_mm, rectangle.max_y_mm) == (-2000, 2000)
    assert (rectangle.width_mm, rectangle.height_mm) == (20_000, 10_000)


def test_the_pdfs_page_is_drawn_on_the_plan_and_served_as_a_png(owner_client, cell):
    post(owner_client, cell, pdf(), name="hall.pdf", **WALL)
    element = image_element(svg_of(cell_page(owner_client, cell)))
    assert element is not None
    assert element["href"].startswith(file_url(cell) + "?v=")
    assert [float(element[k]) for k in ("x", "y", "width", "height")] == [
        -2000,
        -2000,
        20_000,
        10_000,
    ]
    served = owner_client.get(file_url(cell))
    assert served["Content-Type"] == "image/png"
    with Image.open(io.BytesIO(served.content)) as picture:
        assert (picture.format, picture.size) == ("PNG", (2000, 1000))


@pytest.mark.parametrize(
    ("pages", "words"),
    [(12, "Page 1 of hall.pdf (12 pages)"), (1, "Page 1 of hall.pdf (1 page)")],
)
def test_the_page_says_which_pdf_and_page_the_image_is(
    owner_client, cell, pages, words
):
    post(owner_client, cell, pdf(pages=pages), name="hall.pdf", **WALL)
    text = owner_client.get(page_url(cell)).text
    assert f"{words}</strong>, 2,000 × 1,000 px." in text


def test_the_form_offers_pdfs(owner_client, cell):
    text = owner_client.get(page_url(cell)).text
    assert 'accept="image/png,image/jpeg,application/pdf"' in text
    assert "or a PDF of at most 5 MB and 100 pages" in text
    assert preview_url(cell) in text


def test_a_new_picture_replaces_the_pdfs_and_its_page_count(owner_client, cell):
    post(owner_client, cell, pdf(pages=3), name="hall.pdf", **WALL)
    assert post(owner_client, cell, png(200, 100)).status_code == 302
    image = LayoutImage.objects.get(cell=cell)
    assert (image.file_name, image.pdf_page_count, image.width_px) == (
        "hall.png",
        None,
        200,
    )


def test_the_placement_alone_changes_and_the_pdfs_page_is_kept(owner_client, cell):
    post(owner_client, cell, pdf(pages=3), name="hall.pdf", **WALL)
    kept = bytes(LayoutImage.objects.get(cell=cell).data)
    response = post(owner_client, cell, **{**WALL, "distance_mm": 8000})
    assert response.status_code == 302
    image = LayoutImage.objects.get(cell=cell)
    assert (bytes(image.data), image.pdf_page_count) == (kept, 3)
    assert image.placement().mm_per_px == 5


BAD_PDFS = {
    "500 pages": (
        lambda: pdf(pages=500),
        "The PDF has 500 pages, more than the 100 accepted",
    ),
    "a password": (lambda: pdf(password="secret"), "protected by a password"),
    "corrupt": (lambda: b"%PDF-1.4\n" + bytes(5000), "The PDF cannot be read"),
    "random bytes": (
        lambda: bytes(range(256)) * 40,
        "not a PDF, PNG or JPEG file",
    ),
    "a 7 mm page": (
        lambda: pdf(size=(20, 20)),
        "a page from 10 mm to 5000 mm a side is accepted",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_PDFS))
def test_a_bad_pdf_is_refused_with_a_message_and_nothing_saved(
    owner_client, cell, case
):
    make, words = BAD_PDFS[case]
    errors = file_errors(post(owner_client, cell, make(), name="hall.pdf", **WALL))
    assert any(words in error for error in errors), errors
    assert LayoutImage.objects.count() == 0


@pytest.mark.parametrize("case", sorted(BAD_PDFS))
def test_a_bad_pdf_leaves_the_stored_image_as_it_was(owner_client, cell, case):
    image = saved_image(cell)
    make, words = BAD_PDFS[case]
    errors = file_errors(post(owner_client, cell, make(), name="hall.pdf", **WALL))
    assert any(words in error for error in errors), errors
    (kept,) = LayoutImage.objects.all()
    assert bytes(kept.data) == bytes(image.data)
    assert (kept.width_px, kept.distance_mm, kept.pdf_page_count) == (200, 5000, None)
    assert kept.uploaded_at == image.uploaded_at


def test_a_60_mb_pdf_is_refused_by_its_size_before_it_is_read(
    owner_client, cell, monkeypatch
):
    image = saved_image(cell)

    def not_to_be_called(*args, **kwargs):
        raise AssertionError("the file was read")

    monkeypatch.setattr(pdf_page, "first_page", not_to_be_called)
    monkeypatch.setattr(reading, "check_image", not_to_be_called)
    data = b"%PDF-1.4\n" + bytes(60 * 1024 * 1024)
    errors = file_errors(post(owner_client, cell, data, name="hall.pdf", **WALL))
    assert any("larger than 5 MB" in error for error in errors), errors
    assert bytes(LayoutImage.objects.get().data) == bytes(image.data)


def test_a_pdf_too_slow_to_draw_is_refused_naming_the_limits(
    owner_client, cell, monkeypatch
):
    monkeypatch.setattr(pdf_page, "TIME_LIMIT_S", 0.001)
    errors = file_errors(post(owner_client, cell, pdf(), name="hall.pdf", **WALL))
    assert any(
        "could not be drawn within 0.001 seconds and 512 MB" in error
        for error in errors
    ), errors
    assert not LayoutImage.objects.exists()


def test_the_preview_draws_the_page_as_the_upload_will(owner_client, cell):
    response = owner_client.post(preview_url(cell), {"file": upload(pdf(), "a.pdf")})
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response["Cache-Control"] == "no-store"
    with Image.open(io.BytesIO(response.content)) as picture:
        assert picture.size == (2000, 1000)
    assert not LayoutImage.objects.exists()


def test_the_preview_says_why_a_pdf_is_refused(owner_client, cell):
    response = owner_client.post(
        preview_url(cell), {"file": upload(pdf(pages=500), "a.pdf")}
    )
    assert response.status_code == 400
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert "more than the 100 accepted" in response.text
    assert not LayoutImage.objects.exists()


def test_the_preview_needs_a_file_and_a_post(owner_client, cell):
    assert owner_client.post(preview_url(cell)).status_code == 400
    assert owner_client.get(preview_url(cell)).status_code == 405


def test_the_pdfs_page_is_in_the_proposals_data(
    owner_client, cell, owner, django_capture_on_commit_callbacks
):
    from tests.cells.layout_image.test_pdf import built

    post(owner_client, cell, pdf(), name="hall.pdf", in_pdf="on", **WALL)
    document = built(cell, owner, django_capture_on_commit_callbacks)
    underlay = document.data["cell"]["underlay_image"]
    assert (underlay["width_mm"], underlay["height_mm"]) == (20_000, 10_000)
    # The customer's copy does not name the file.
    assert "hall.pdf" not in str(document.data)
