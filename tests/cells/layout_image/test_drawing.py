"""The image under the plan: an ``<image>`` behind the layout at its
rectangle (y is -plan y), only when shown; the cell page's queries are the
same with and without one, and never fetch its bytes."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.cells.layout_image.support import file_url, saved_image
from tests.factories import GuardSegmentFactory
from tests.kept import forget_kept

pytestmark = pytest.mark.django_db


def svg_of(response) -> str:
    text = response.text
    return text[text.index("<svg") : text.index("</svg>")]


def image_element(svg: str) -> dict[str, str] | None:
    found = re.search(r"<image [^>]*>", svg)
    if found is None:
        return None
    return dict(re.findall(r'([\w-]+)="([^"]*)"', found.group(0)))


def cell_page(client, cell):
    return client.get(reverse("cells:cell_detail", args=[cell.pk]))


def test_the_plan_draws_the_image_at_its_rectangle(viewer_client, cell):
    saved_image(cell, opacity_percent=40)
    element = image_element(svg_of(cell_page(viewer_client, cell)))
    assert element is not None
    assert element["href"].startswith(file_url(cell) + "?v=")
    # 50 mm per pixel, point 1 (20, 10) px at (1,000, 2,000) mm.
    assert float(element["x"]) == 0
    assert float(element["y"]) == -2500
    assert float(element["width"]) == 10_000
    assert float(element["height"]) == 5000
    assert element["preserveAspectRatio"] == "none"
    assert float(element["opacity"]) == 0.4


def test_the_image_is_behind_the_layout(viewer_client, cell):
    GuardSegmentFactory(cell=cell)
    saved_image(cell)
    svg = svg_of(cell_page(viewer_client, cell))
    assert svg.index("<image ") < svg.index('class="zone"')
    assert svg.index("<image ") < svg.index('<g class="segment')


def test_a_hidden_image_is_not_drawn(viewer_client, cell):
    saved_image(cell, shown=False)
    assert image_element(svg_of(cell_page(viewer_client, cell))) is None


def test_no_image_draws_none(viewer_client, cell):
    assert image_element(svg_of(cell_page(viewer_client, cell))) is None


def test_the_downloaded_svg_leaves_it_out(viewer_client, cell):
    # A file on its own has no session to fetch the image with.
    saved_image(cell)
    response = viewer_client.get(reverse("cells:cell_layout_svg", args=[cell.pk]))
    assert image_element(response.text) is None


def _queries(client, cell) -> list[str]:
    # Each page here draws the plan (issue 16: it is kept while nothing
    # changes, and the image is a change).
    forget_kept()
    with CaptureQueriesContext(connection) as captured:
        assert cell_page(client, cell).status_code == 200
    return [q["sql"] for q in captured.captured_queries]


def test_the_cell_page_costs_the_same_queries_with_an_image(owner_client, cell):
    GuardSegmentFactory(cell=cell)
    _queries(owner_client, cell)  # the session row exists from here on
    without = _queries(owner_client, cell)
    saved_image(cell)
    with_image = _queries(owner_client, cell)
    assert len(with_image) == len(without)
    # The bytes stay in the database: the browser fetches them on their own.
    assert not any('"cells_layoutimage"."data"' in sql for sql in with_image)
