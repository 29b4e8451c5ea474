"""The DXF pages: upload → layers and preview → import, with the Django test
client; the export download; the underlay drawn behind the plan."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from cells.layout_dxf.models import LayoutUnderlay
from cells.models import GuardSegment
from tests.cells.layout_dxf.support import fenced_square, new_drawing, to_bytes, upload

pytestmark = pytest.mark.django_db


def page_url(cell) -> str:
    return reverse("cells:layout_dxf_import", args=[cell.pk])


def uploaded(client, cell, data: bytes | None = None, **fields):
    data = to_bytes(fenced_square()) if data is None else data
    return client.post(
        page_url(cell), {"action": "upload", "file": upload(data), **fields}
    )


def layer_field(response, name: str) -> str:
    """The form field of the layer called ``name``."""
    form = response.context["form"]
    return next(f.name for f, layer, _n in form.layer_fields() if layer.name == name)


def test_the_cell_page_links_to_import_and_export(owner_client, cell):
    page = owner_client.get(reverse("cells:cell_detail", args=[cell.pk])).text
    assert page_url(cell) in page
    assert reverse("cells:layout_dxf_export", args=[cell.pk]) in page


def test_a_viewer_sees_only_the_export_link(viewer_client, cell):
    page = viewer_client.get(reverse("cells:cell_detail", args=[cell.pk])).text
    assert page_url(cell) not in page
    assert reverse("cells:layout_dxf_export", args=[cell.pk]) in page


def test_the_first_step_asks_for_the_file_and_units(owner_client, cell):
    response = owner_client.get(page_url(cell))
    assert response.status_code == 200
    assert 'type="file"' in response.text
    assert 'name="units"' in response.text
    assert "<script>" not in response.text  # the CSP refuses inline script


def test_upload_then_preview_then_import(owner_client, cell):
    response = uploaded(owner_client, cell, height_mm=1900)
    assert response.status_code == 302 and response.url == page_url(cell)

    preview = owner_client.get(page_url(cell))
    assert preview.status_code == 200
    text = preview.text
    for name in ("FENCE", "WALLS", "HALL"):
        assert name in text
    assert "LWPOLYLINE</span> × 1" in text and "CIRCLE</span> × 1" in text
    # FENCE and WALLS are suggested as a fence and a wall by their names
    # (issue 31), for the user to confirm; HALL stays underlay.
    assert "Suggested from the layer&#x27;s name" in text
    assert "20 underlay lines" in text  # the column's circle: 18 chords
    assert '<g class="underlay">' in text
    assert not GuardSegment.objects.filter(cell=cell).exists()

    choices = {
        "units": "",
        "height_mm": "1900",
        layer_field(preview, "FENCE"): "fence",
        layer_field(preview, "WALLS"): "wall",
        layer_field(preview, "HALL"): "underlay",
    }
    again = owner_client.post(page_url(cell), {**choices, "action": "preview"})
    assert again.status_code == 200
    assert "5 guard segments added" in again.text
    assert again.text.count('class="segment kind-fence') == 4
    assert not GuardSegment.objects.filter(cell=cell).exists()

    done = owner_client.post(page_url(cell), {**choices, "action": "import"})
    assert done.status_code == 302
    assert done.url == reverse("cells:cell_detail", args=[cell.pk])
    assert GuardSegment.objects.filter(cell=cell, kind="fence").count() == 4
    assert set(GuardSegment.objects.values_list("height_mm", flat=True)) == {1900}
    assert len(LayoutUnderlay.objects.get(cell=cell).lines) == 20
    # The file is gone from the session: the page asks for one again.
    assert 'type="file"' in owner_client.get(page_url(cell)).text


def test_the_cell_page_draws_the_underlay_behind_the_plan(
    owner_client, cell, django_assert_max_num_queries
):
    LayoutUnderlay.objects.create(cell=cell, lines=[[0, 0, 5000, 0], [0, 0, 0, 5000]])
    # As many queries as without an underlay (tests/cells/test_views.py).
    with django_assert_max_num_queries(11):
        page = owner_client.get(reverse("cells:cell_detail", args=[cell.pk])).text
    underlay = page[page.index('<g class="underlay">') :]
    underlay = underlay[: underlay.index("</g>")]
    assert underlay.count("<line ") == 2
    # Behind everything else: straight after the grid.
    assert page.index('<g class="underlay">') < page.index('<g class="zone"')
    svg = owner_client.get(reverse("cells:cell_layout_svg", args=[cell.pk])).text
    assert '<g class="underlay">' in svg


def test_with_htmx_the_preview_redraws_in_place(owner_client, cell):
    uploaded(owner_client, cell)
    preview = owner_client.get(page_url(cell))
    field = layer_field(preview, "FENCE")
    response = owner_client.post(
        page_url(cell),
        {"height_mm": "1800", field: "fence", "action": "preview"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="dxf-result"')
    assert "HX-Request" in response["Vary"]
    done = owner_client.post(
        page_url(cell),
        {"height_mm": "1800", field: "fence", "action": "import"},
        HTTP_HX_REQUEST="true",
    )
    assert done["HX-Redirect"] == reverse("cells:cell_detail", args=[cell.pk])
    # The four sides of the fence; WALLS, not sent, is not confirmed as the
    # wall its name suggests: it stays underlay.
    assert GuardSegment.objects.filter(cell=cell).count() == 4


def test_a_garbage_file_is_refused_on_the_first_step(owner_client, cell):
    response = uploaded(owner_client, cell, b"garbage, not a drawing")
    assert response.status_code == 400
    assert "not a DXF drawing that can be read" in response.text
    assert 'type="file"' in owner_client.get(page_url(cell)).text


def test_the_preview_names_the_units_in_words(owner_client, cell):
    # The FENCE and WALLS layers are suggested as guards by their names: the
    # preview asks their height first.
    uploaded(
        owner_client, cell, to_bytes(fenced_square(120, insunits=1)), height_mm=1800
    )
    text = owner_client.get(page_url(cell)).text
    assert "Units: inches (from the file)" in text


def test_random_bytes_are_refused_on_the_first_step(owner_client, cell):
    # They used to pass as an empty drawing, whose import removed the underlay.
    response = uploaded(owner_client, cell, random.Random(1).randbytes(2000))
    assert response.status_code == 400
    assert "not a DXF drawing that can be read" in response.text
    assert 'type="file"' in owner_client.get(page_url(cell)).text


def test_an_error_in_the_drawing_shows_and_nothing_is_saved(owner_client, cell):
    doc = new_drawing()
    doc.modelspace().add_line((0, 0), (150_000, 0), dxfattribs={"layer": "F"})
    uploaded(owner_client, cell, to_bytes(doc), height_mm=1800)
    preview = owner_client.get(page_url(cell))
    field = layer_field(preview, "F")
    response = owner_client.post(
        page_url(cell), {"height_mm": "1800", field: "fence", "action": "import"}
    )
    assert response.status_code == 400
    assert "100 m" in response.text
    assert not GuardSegment.objects.filter(cell=cell).exists()


def test_a_missing_height_is_asked_for_by_its_field(owner_client, cell):
    uploaded(owner_client, cell)
    field = layer_field(owner_client.get(page_url(cell)), "FENCE")
    response = owner_client.post(page_url(cell), {field: "fence", "action": "preview"})
    assert response.status_code == 400
    assert response.context["form"].errors["height_mm"]


def test_another_file_can_be_chosen(owner_client, cell):
    uploaded(owner_client, cell)
    response = owner_client.post(page_url(cell), {"action": "discard"})
    assert response.status_code == 302
    assert 'type="file"' in owner_client.get(page_url(cell)).text


def test_the_export_downloads_a_dxf_file(owner_client, cell):
    response = owner_client.get(reverse("cells:layout_dxf_export", args=[cell.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/dxf"
    assert "attachment" in response["Content-Disposition"]
    assert b"$INSUNITS" in response.content
