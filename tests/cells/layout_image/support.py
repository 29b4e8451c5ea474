"""Images made in the tests with Pillow, the form's fields and an image saved
for a cell."""

from __future__ import annotations

import io

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from cells.layout_image.models import LayoutImage


def png(width: int = 200, height: int = 100, mode: str = "RGB") -> bytes:
    stream = io.BytesIO()
    Image.new(mode, (width, height), 1 if mode == "1" else "white").save(stream, "PNG")
    return stream.getvalue()


def jpeg(width: int = 300, height: int = 200) -> bytes:
    stream = io.BytesIO()
    Image.new("RGB", (width, height), "gray").save(stream, "JPEG")
    return stream.getvalue()


def gif(width: int = 30, height: int = 20) -> bytes:
    stream = io.BytesIO()
    Image.new("RGB", (width, height)).save(stream, "GIF")
    return stream.getvalue()


def upload(data: bytes, name: str = "hall.png") -> SimpleUploadedFile:
    # The browser's content type is not trusted: always the same here.
    return SimpleUploadedFile(name, data, content_type="image/png")


# Two points 100 px apart along the image's top row, 5 m apart in reality,
# the first at (1,000, 2,000) mm on the plan: 50 mm per pixel.
PLACEMENT = {
    "point1_x_px": 20,
    "point1_y_px": 10,
    "point2_x_px": 120,
    "point2_y_px": 10,
    "distance_mm": 5000,
    "plan_x_mm": 1000,
    "plan_y_mm": 2000,
    "opacity_percent": 40,
    "shown": "on",
}


def page_url(cell) -> str:
    return reverse("cells:layout_image_edit", args=[cell.pk])


def file_url(cell) -> str:
    return reverse("cells:layout_image_file", args=[cell.pk])


def remove_url(cell) -> str:
    return reverse("cells:layout_image_remove", args=[cell.pk])


def post(client, cell, data: bytes | None = None, name: str = "hall.png", **fields):
    body = {**PLACEMENT, **fields}
    if data is not None:
        body["file"] = upload(data, name)
    return client.post(page_url(cell), body)


def saved_image(cell, data: bytes | None = None, **fields) -> LayoutImage:
    """A 200 × 100 PNG placed as ``PLACEMENT`` says, saved for ``cell``."""
    values = {
        k: v for k, v in PLACEMENT.items() if k not in ("shown", "opacity_percent")
    }
    values |= {
        "data": png() if data is None else data,
        "content_type": "image/png",
        "width_px": 200,
        "height_px": 100,
        "file_name": "hall.png",
        "uploaded_at": timezone.now(),
    }
    return LayoutImage.objects.create(cell=cell, **(values | fields))
