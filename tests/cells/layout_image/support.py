"""Images made in the tests with Pillow and PDFs with reportlab, the form's
fields and an image saved for a cell."""

from __future__ import annotations

import io

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from PIL import Image
from reportlab.lib.pdfencrypt import StandardEncryption
from reportlab.pdfgen import canvas

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


# A hall's PDF: 10 × 5 inches, 2,000 × 1,000 px at 200 dpi.
PDF_PAGE_PT = (720, 360)


def pdf(
    pages: int = 1,
    size: tuple[float, float] = PDF_PAGE_PT,
    password: str | None = None,
    owner_password: str | None = None,
) -> bytes:
    """A PDF of ``pages`` pages; the first has a frame half an inch in and a
    wall from 1 to 9 inches along, 1 inch below the top edge (at 200 dpi:
    from pixel 200 to pixel 1,800 on row 200). The others are blank."""
    stream = io.BytesIO()
    encrypt = None
    if password is not None or owner_password is not None:
        encrypt = StandardEncryption(password or "", ownerPassword=owner_password)
    drawing = canvas.Canvas(stream, pagesize=size, encrypt=encrypt, invariant=1)
    width, height = size
    drawing.setLineWidth(2)
    drawing.rect(36, 36, width - 72, height - 72)
    drawing.line(72, height - 72, min(648, width - 72), height - 72)
    for _ in range(pages):
        drawing.showPage()
    drawing.save()
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
