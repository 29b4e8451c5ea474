"""The image in the proposal PDF: only when asked for ("show in PDF"),
shrunk for the figure, with its rectangle on the plan in the data kept."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from compliance.proposals.services import proposal_request
from tests.cells.layout_image.support import png, saved_image

pytestmark = pytest.mark.django_db


def built(cell, owner, capture):
    with capture(execute=True):
        document = proposal_request(
            cell=cell, actor=owner, language="en", sections=["cell"]
        )
    document.refresh_from_db()
    assert document.status == "ready", document.error
    return document


def test_the_image_is_left_out_of_the_pdf_unless_asked_for(
    cell, owner, django_capture_on_commit_callbacks
):
    saved_image(cell)
    document = built(cell, owner, django_capture_on_commit_callbacks)
    assert document.data["cell"]["underlay_image"] is None


def test_the_image_asked_for_is_in_the_pdfs_data(
    cell, owner, django_capture_on_commit_callbacks
):
    data = png(200, 100)
    saved_image(cell, data=data, in_pdf=True)
    document = built(cell, owner, django_capture_on_commit_callbacks)
    image = document.data["cell"]["underlay_image"]
    assert base64.b64decode(image["content_base64"]) == data
    assert (image["min_x_mm"], image["max_y_mm"]) == (0, 2500)
    assert (image["width_mm"], image["height_mm"]) == (10_000, 5000)
    assert image["opacity"] == 0.4


def test_a_large_image_is_shrunk_for_the_pdf(
    cell, owner, django_capture_on_commit_callbacks
):
    # 4,000 × 2,000 px at 2.5 mm per pixel: the same 10 × 5 m.
    saved_image(
        cell,
        data=png(4000, 2000),
        width_px=4000,
        height_px=2000,
        point2_x_px=2020,
        in_pdf=True,
    )
    document = built(cell, owner, django_capture_on_commit_callbacks)
    image = document.data["cell"]["underlay_image"]
    with Image.open(io.BytesIO(base64.b64decode(image["content_base64"]))) as shrunk:
        assert shrunk.size == (1800, 900)
    assert (image["width_mm"], image["height_mm"]) == (10_000, 5000)
