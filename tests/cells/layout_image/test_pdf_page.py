"""A PDF's first page drawn as a picture (pure, PDFium in a child process):
recognised by its content, drawn at 200 dpi within 4,000 px a side; refused
past 100 pages, with a password, with an absurd page, when unreadable, or
past its time and memory."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from PIL import Image
from reportlab.lib.pagesizes import A0, landscape

from cells.layout_image import pdf_page, reading
from tests.cells.layout_image.support import pdf, png

ROOT = pdf_page.ROOT


def refusal(data: bytes) -> reading.ImageCheckError:
    with pytest.raises(reading.ImageCheckError) as caught:
        pdf_page.first_page(data)
    return caught.value


def test_a_pdf_is_recognised_by_its_content_not_its_name():
    assert pdf_page.is_pdf(pdf())
    assert not pdf_page.is_pdf(png())
    assert not pdf_page.is_pdf(b"hello, not a plan\n" * 100)
    # Readers allow a few bytes before the header.
    assert pdf_page.is_pdf(b"\xef\xbb\xbf" + pdf())


def test_a_page_is_drawn_at_200_dpi_up_to_4000_px_a_side():
    assert pdf_page.rendered_size(720, 360) == (2000, 1000)  # 10 × 5 in
    width, height = landscape(A0)  # 1,189 × 841 mm: less than 200 dpi
    assert pdf_page.rendered_size(width, height) == (4000, 2830)
    assert pdf_page.rendered_size(height, width) == (2830, 4000)


@pytest.mark.parametrize(
    "size_pt", [(14_000, 14_000), (14_000, 29), (29, 14_000), (29, 29)]
)
def test_the_picture_stays_within_the_pixel_limit_whatever_the_page(size_pt):
    width, height = pdf_page.rendered_size(*size_pt)
    assert 1 <= width <= pdf_page.MAX_SIDE_PX
    assert 1 <= height <= pdf_page.MAX_SIDE_PX
    assert width * height <= reading.MAX_PIXELS
    assert pdf_page.MAX_SIDE_PX**2 <= reading.MAX_PIXELS


def test_the_first_page_is_drawn_as_a_png_with_the_page_count():
    drawn = pdf_page.first_page(pdf(pages=3))
    assert drawn.page_count == 3
    info = reading.check_image(drawn.data)
    assert (info.content_type, info.width_px, info.height_px) == (
        "image/png",
        2000,
        1000,
    )
    with Image.open(io.BytesIO(drawn.data)) as picture:
        grey = picture.convert("L")
        # The wall, 1 inch below the top edge (row 200), and white beside it.
        assert grey.getpixel((1000, 200)) < 100
        assert grey.getpixel((1000, 300)) > 200


def test_more_than_100_pages_is_refused_with_the_count():
    refused = refusal(pdf(pages=500))
    assert (refused.code, refused.params) == ("pdf_too_many_pages", {"pages": 500})


def test_100_pages_are_accepted():
    assert pdf_page.first_page(pdf(pages=100)).page_count == 100


def test_a_pdf_with_a_password_is_refused():
    assert refusal(pdf(password="secret")).code == "pdf_encrypted"


def test_a_pdf_that_opens_without_a_password_is_drawn():
    # Encrypted with an owner's password only (no printing, no copying): any
    # reader opens it, as PDFium does.
    assert pdf_page.first_page(pdf(owner_password="owner")).page_count == 1


@pytest.mark.parametrize(
    "data",
    [b"%PDF-1.4\n" + bytes(10_000), b"%PDF-1.7\n%%EOF\n", b"%PDF-"],
    ids=["zeros", "no objects", "the header alone"],
)
def test_a_corrupt_pdf_is_refused(data):
    assert refusal(data).code == "pdf_corrupt"


@pytest.mark.parametrize(
    "size_pt",
    [(20, 20), (720, 0.5), (15_000, 360)],
    ids=["7 mm", "flat", "5.3 m wide"],
)
def test_an_absurd_page_size_is_refused_with_its_size(size_pt):
    refused = refusal(pdf(size=size_pt))
    assert refused.code == "pdf_page_size"
    assert refused.params["width_mm"] == round(size_pt[0] * 25.4 / 72)


def test_drawing_past_the_time_limit_is_refused(monkeypatch):
    monkeypatch.setattr(pdf_page, "TIME_LIMIT_S", 0.001)
    assert refusal(pdf()).code == "pdf_not_drawn"


def test_drawing_past_the_memory_limit_is_refused(monkeypatch):
    # Too little even to load PDFium: the child fails, the request does not.
    monkeypatch.setattr(pdf_page, "MEMORY_LIMIT_MB", 40)
    assert refusal(pdf()).code == "pdf_not_drawn"


def test_a_page_too_large_as_a_png_is_kept_as_a_jpeg(monkeypatch):
    # In this process, where the size limit can be lowered: a scanned page's
    # PNG is over it.
    monkeypatch.setattr(pdf_page, "MAX_BYTES", 1000)
    drawn = pdf_page.draw_first_page(pdf())
    with Image.open(io.BytesIO(drawn.data)) as picture:
        assert (picture.format, picture.size) == ("JPEG", (2000, 1000))


def test_the_calling_process_loads_neither_django_nor_pdfium():
    code = (
        "import io, sys\n"
        "from reportlab.pdfgen import canvas\n"
        "from cells.layout_image import pdf_page\n"
        "stream = io.BytesIO()\n"
        "drawing = canvas.Canvas(stream, pagesize=(720, 360))\n"
        "drawing.showPage()\n"
        "drawing.save()\n"
        "assert pdf_page.first_page(stream.getvalue()).page_count == 1\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('django', 'pypdfium2', 'pypdfium2_raw')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[]"


def test_the_child_is_given_none_of_the_environments_secrets(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "not for a stranger's PDF")
    monkeypatch.setenv("DATABASE_URL", "postgres://app:secret@db/app")
    given: dict[str, str] = {}
    run = subprocess.run

    def spy(*args, **kwargs):
        given.update(kwargs["env"])
        return run(*args, **kwargs)

    monkeypatch.setattr(subprocess, "run", spy)
    assert pdf_page.first_page(pdf()).page_count == 1
    assert "SECRET_KEY" not in given
    assert "DATABASE_URL" not in given
