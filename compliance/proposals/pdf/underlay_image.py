"""The floor-plan image under the plan figure (cells.layout_image): cut to
the part inside the figure, faded over white as the web page shows it, and
placed to scale. Pure: Pillow and reportlab, no Django."""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image as PILImage
from reportlab.graphics.shapes import Image

from compliance.proposals.pdf.data import UnderlayImage

# (x, y) in the drawing's millimetres (y down) -> points on the page.
ToPage = Callable[[float, float], tuple[float, float]]


def visible_box(
    image: UnderlayImage, view: tuple[float, float, float, float]
) -> tuple[float, float, float, float] | None:
    """The part of the image inside ``view`` (min x, min y, width, height in
    the drawing's millimetres, y down) as (x0, y0, x1, y1) there, or None."""
    left, top = image.min_x_mm, -image.max_y_mm
    x0 = max(left, view[0])
    y0 = max(top, view[1])
    x1 = min(left + image.width_mm, view[0] + view[2])
    y1 = min(top + image.height_mm, view[1] + view[3])
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def underlay_shape(
    image: UnderlayImage, view: tuple[float, float, float, float], to: ToPage
) -> Image | None:
    """The image's visible part as a shape for the plan drawing, or None when
    none of it is inside the figure."""
    box = visible_box(image, view)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    with PILImage.open(io.BytesIO(image.content)) as opened:
        picture = _on_white(opened)
    per_mm_x = picture.width / image.width_mm
    per_mm_y = picture.height / image.height_mm
    left, top = image.min_x_mm, -image.max_y_mm
    crop = (
        round((x0 - left) * per_mm_x),
        round((y0 - top) * per_mm_y),
        round((x1 - left) * per_mm_x),
        round((y1 - top) * per_mm_y),
    )
    if crop[2] <= crop[0] or crop[3] <= crop[1]:
        return None
    picture = picture.crop(crop)
    white = PILImage.new("RGB", picture.size, "white")
    faded = PILImage.blend(white, picture, image.opacity)
    # Its lower-left corner on the page: the drawing's y points down.
    page_x0, page_y0 = to(x0, y1)
    page_x1, page_y1 = to(x1, y0)
    return Image(page_x0, page_y0, page_x1 - page_x0, page_y1 - page_y0, faded)


def _on_white(picture: PILImage.Image) -> PILImage.Image:
    """The picture in RGB, any transparency laid over white."""
    picture.load()
    if picture.mode in ("RGBA", "LA") or (
        picture.mode == "P" and "transparency" in picture.info
    ):
        rgba = picture.convert("RGBA")
        ground = PILImage.new("RGB", rgba.size, "white")
        ground.paste(rgba, mask=rgba.getchannel("A"))
        return ground
    return picture.convert("RGB")
