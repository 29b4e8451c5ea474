"""The floor-plan image under the PDF's plan figure (cells.layout_image):
drawn first, to scale, cut to the figure, faded; the stored data carries it.
No database: the figure reads only the data object."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image as PILImage
from reportlab.graphics.shapes import Image

from compliance.documents import fonts
from compliance.documents.theme import CONTENT_WIDTH
from compliance.proposals.pdf import plan_figure
from compliance.proposals.pdf.builder import build_proposal_pdf
from compliance.proposals.pdf.data import ProposalData, UnderlayImage
from compliance.proposals.pdf.underlay_image import visible_box
from tests.compliance.proposals.pdf.samples import sample_proposal

WIDTH, HEIGHT = CONTENT_WIDTH, 425.0


@pytest.fixture(autouse=True, scope="module")
def _fonts():
    # The figure measures its labels in the document's fonts.
    fonts.register_fonts()


def png(width: int = 100, height: int = 50, colour: str = "black") -> str:
    stream = io.BytesIO()
    PILImage.new("RGB", (width, height), colour).save(stream, "PNG")
    return base64.b64encode(stream.getvalue()).decode("ascii")


def underlay(**changes) -> UnderlayImage:
    # 1,000 × 500 mm with its far-left corner at (0, 500) on the plan.
    values = {
        "content_base64": png(),
        "min_x_mm": 0,
        "max_y_mm": 500,
        "width_mm": 1000,
        "height_mm": 500,
        "opacity": 0.5,
    }
    return UnderlayImage(**(values | changes))


def with_image(image: UnderlayImage | None):
    proposal = sample_proposal()
    cell = proposal.cell.model_copy(update={"underlay_image": image})
    return proposal.model_copy(update={"cell": cell})


def images_of(drawing) -> list[Image]:
    return [shape for shape in drawing.contents if isinstance(shape, Image)]


def test_the_visible_part_is_the_image_cut_to_the_view():
    image = underlay()  # x 0..1,000, drawing y -500..0
    assert visible_box(image, (-5000, -5000, 10_000, 10_000)) == (0, -500, 1000, 0)
    assert visible_box(image, (500, -5000, 10_000, 10_000)) == (500, -500, 1000, 0)
    assert visible_box(image, (2000, -5000, 10_000, 10_000)) is None


def test_the_image_is_drawn_under_everything_to_scale():
    cell = with_image(underlay()).cell
    drawing, scale = plan_figure.layout_figure(cell, WIDTH, HEIGHT)
    k = plan_figure.PT_PER_MM / scale
    (picture,) = images_of(drawing)
    # After the figure's white ground, before the grid and the layout.
    assert drawing.contents.index(picture) == 1
    assert round(picture.width, 3) == round(1000 * k, 3)
    assert round(picture.height, 3) == round(500 * k, 3)


def test_the_image_is_faded_over_white():
    cell = with_image(underlay(opacity=0.25)).cell
    drawing, _scale = plan_figure.layout_figure(cell, WIDTH, HEIGHT)
    (picture,) = images_of(drawing)
    # Black at a quarter: three quarters white.
    assert picture.path.getpixel((0, 0)) == (191, 191, 191)


def test_an_image_outside_the_figure_is_left_out():
    cell = with_image(underlay(min_x_mm=90_000, max_y_mm=90_000)).cell
    drawing, _scale = plan_figure.layout_figure(cell, WIDTH, HEIGHT)
    assert images_of(drawing) == []


def test_without_an_image_none_is_drawn():
    drawing, _scale = plan_figure.layout_figure(with_image(None).cell, WIDTH, HEIGHT)
    assert images_of(drawing) == []


def test_the_stored_data_rebuilds_the_same_pdf_with_the_image():
    data = with_image(underlay())
    pdf = build_proposal_pdf(data)
    stored = ProposalData.model_validate(data.model_dump(mode="json"))
    assert stored.cell.underlay_image == data.cell.underlay_image
    assert build_proposal_pdf(stored) == pdf
    assert pdf != build_proposal_pdf(with_image(None))
