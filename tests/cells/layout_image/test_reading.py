"""The checks on an uploaded image (pure, with Pillow): PNG and JPEG by
their content, within 5 MB and 25 million pixels, read whole."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from cells.layout_image import reading
from tests.cells.layout_image.support import gif, jpeg, png


def code_of(data: bytes) -> str:
    with pytest.raises(reading.ImageCheckError) as caught:
        reading.check_image(data)
    return caught.value.code


def test_a_png_and_a_jpeg_are_read_with_their_size():
    assert reading.check_image(png(200, 100)) == reading.ImageInfo(
        content_type="image/png", width_px=200, height_px=100
    )
    assert reading.check_image(jpeg(300, 200)) == reading.ImageInfo(
        content_type="image/jpeg", width_px=300, height_px=200
    )


def test_a_gif_is_refused():
    assert code_of(gif()) == "not_an_image"


def test_text_is_refused_whatever_its_name():
    assert code_of(b"this is not a picture\n" * 10) == "not_an_image"


def test_an_empty_file_is_refused():
    assert code_of(b"") == "empty"


def test_a_truncated_png_is_refused():
    data = png(400, 300, "RGB")
    assert code_of(data[: len(data) // 2]) == "corrupt"


def test_a_truncated_jpeg_is_refused():
    data = jpeg(400, 300)
    assert code_of(data[: len(data) // 2]) == "corrupt"


def test_more_than_25_megapixels_is_refused_from_the_header():
    # 36 million pixels in a few kilobytes: refused before any is decoded.
    data = png(6000, 6000, "1")
    assert len(data) < 100_000
    assert code_of(data) == "too_many_pixels"


def test_a_decompression_bomb_is_refused_whatever_pillows_own_limit(monkeypatch):
    # Past Pillow's own limit it raises or warns: both are a refusal here.
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1_000)
    assert code_of(png(100, 20)) == "too_many_pixels"  # a warning at 2,000 px
    assert code_of(png(100, 30)) == "too_many_pixels"  # an error past 2,000 px


def test_more_than_5_mb_is_refused_before_reading():
    assert code_of(png() + b"\0" * reading.MAX_BYTES) == "too_large"


def test_a_photo_is_turned_as_its_exif_says():
    # 300 × 200 px stored, shown turned a quarter (orientation 6): 200 × 300.
    stream = io.BytesIO()
    exif = Image.Exif()
    exif[reading.ORIENTATION] = 6
    Image.new("RGB", (300, 200), "gray").save(stream, "JPEG", exif=exif)
    turned = reading.upright(stream.getvalue())
    assert reading.check_image(turned).width_px == 200
    assert reading.check_image(turned).height_px == 300


def test_an_upright_image_is_kept_as_sent():
    data = jpeg()
    assert reading.upright(data) is data


def test_a_palette_picture_is_shrunk_without_dropping_thin_lines():
    # A PDF's page is kept with a palette: one-pixel lines on every other
    # column, halved, are grey (pixel by pixel they would be all or nothing).
    picture = Image.new("L", (3600, 100), 255)
    for x in range(0, 3600, 2):
        picture.paste(0, (x, 0, x + 1, 100))
    stream = io.BytesIO()
    picture.convert("P").save(stream, "PNG")
    with Image.open(io.BytesIO(reading.shrunk(stream.getvalue()))) as small:
        assert small.size == (1800, 50)
        assert 60 < small.convert("L").getpixel((900, 25)) < 200
