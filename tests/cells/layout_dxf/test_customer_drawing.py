"""A customer's drawing becomes a judged cell (issue 31): the layers mapped
by their names and remembered per organisation, the units asked when the
file has none, the doors read as openings, the guards named as the drawing
names them, the same name in the plan, the findings and the cost lines."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from cells.layout_dxf import services
from cells.models import DxfLayerMapping, GuardSegment, LayoutUnderlay, Opening
from tests.cells.layout_dxf.support import new_drawing, to_bytes, upload
from tests.factories import (
    CellFactory,
    GuardSegmentFactory,
    OrganisationFactory,
)

pytestmark = pytest.mark.django_db

FENCE = json.dumps({"FENCE": "fence"})


def page_url(cell) -> str:
    return reverse("cells:layout_dxf_import", args=[cell.pk])


def api_url(cell) -> str:
    return reverse("api:cell-layout-dxf-import", args=[cell.pk])


def customer_drawing(insunits: int = 4):
    """The drawing of the issue: a closed polyline on FENCE round the robot,
    the hall's wall on WALL well outside it, a column on COLUMNS, a text."""
    doc = new_drawing(insunits)
    msp = doc.modelspace()
    msp.add_lwpolyline(
        [(0, 0), (4000, 0), (4000, 3000), (0, 3000)],
        close=True,
        dxfattribs={"layer": "FENCE"},
    )
    msp.add_line((-3000, -2000), (3000, -2000), dxfattribs={"layer": "WALL"})
    msp.add_circle((-2000, 1500), 200, dxfattribs={"layer": "COLUMNS"})
    msp.add_text("HALL 3", dxfattribs={"layer": "TEXT", "insert": (-2500, 4500)})
    return doc


def layer_field(response, name: str) -> str:
    form = response.context["form"]
    for field, layer, _entities in form.layer_fields():
        if layer.name == name:
            return field.html_name
    raise AssertionError(name)


def preview(client, cell, data: bytes, **options):
    response = client.post(
        page_url(cell),
        {"action": "upload", "file": upload(data), **options},
    )
    assert response.status_code == 302, response.content[:2000]
    return client.get(page_url(cell))


def form_data(response) -> dict:
    """What the preview's form would send as shown: its initial choices."""
    form = response.context["form"]
    return {
        name: ("" if value is None else value)
        for name, value in form.data.items()
        if name != "csrfmiddlewaretoken"
    }


# --- the drawing, imported as a new user would -----------------------


def test_the_customers_drawing_is_mapped_without_guessing_and_has_no_false_gap(
    owner, owner_client, cell
):
    shown = preview(owner_client, cell, to_bytes(customer_drawing()), height_mm=2000)
    data = form_data(shown)
    assert data[layer_field(shown, "FENCE")] == "fence"
    assert data[layer_field(shown, "WALL")] == "wall"
    assert data[layer_field(shown, "COLUMNS")] == "underlay"

    done = owner_client.post(page_url(cell), {**data, "action": "import"})
    assert done.status_code == 302, done.context and done.context["form"].errors
    kinds = sorted(
        GuardSegment.objects.filter(cell=cell).values_list("kind", flat=True)
    )
    assert kinds == ["fence"] * 4 + ["wall"]

    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(owner)
    body = api.get(f"/api/v1/cells/{cell.pk}/findings/", {"page_size": 200}).json()
    findings = [f for group in body["groups"] for f in group["findings"]]
    gaps = [f for f in findings if "gap" in (f["message"] or "").lower()]
    assert gaps == [], gaps


# --- names: the drawing's text, a block's name, else S1 ------------------------


def named_fence():
    """Two fence lines, each with a text beside it, and one without."""
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_line((0, 0), (4000, 0), dxfattribs={"layer": "FENCE"})
    msp.add_line((4000, 0), (4000, 3000), dxfattribs={"layer": "FENCE"})
    msp.add_line((4000, 3000), (0, 3000), dxfattribs={"layer": "FENCE"})
    msp.add_text("F-SOUTH", dxfattribs={"layer": "TEXT", "insert": (2000, -150)})
    msp.add_text("F-EAST", dxfattribs={"layer": "TEXT", "insert": (4150, 1500)})
    return doc


def test_guards_take_the_names_the_drawing_gives_them(owner_api, cell):
    response = owner_api.post(
        api_url(cell),
        {
            "file": upload(to_bytes(named_fence())),
            "height_mm": 1400,
            "mapping": FENCE,
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    labels = list(
        GuardSegment.objects.filter(cell=cell)
        .order_by("id")
        .values_list("label", flat=True)
    )
    assert labels == ["F-SOUTH", "F-EAST", ""]
    assert response.json()["names"] == ["F-SOUTH", "F-EAST"]

    # The findings and the cost lines say what the plan says: the text's
    # name, and S3 for the one the drawing did not name.
    body = owner_api.get(
        f"/api/v1/cells/{cell.pk}/findings/", {"page_size": 200}
    ).json()
    subjects = {f["subject"] for g in body["groups"] for f in g["findings"]}
    assert {"F-SOUTH", "F-EAST", "S3"} <= subjects
    costs = repr(owner_api.get(f"/api/v1/cells/{cell.pk}/line-items/").json())
    assert "F-SOUTH" in costs


def test_a_name_already_in_the_cell_is_not_given_twice(owner_api, cell):
    GuardSegmentFactory(cell=cell, label="F-SOUTH")
    response = owner_api.post(
        api_url(cell),
        {
            "file": upload(to_bytes(named_fence())),
            "height_mm": 1400,
            "mapping": FENCE,
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    labels = list(
        GuardSegment.objects.filter(cell=cell)
        .order_by("id")
        .values_list("label", flat=True)
    )
    assert labels == ["F-SOUTH", "F-SOUTH (2)", "F-EAST", ""]


def test_a_text_naming_a_guard_S2_does_not_take_another_guards_name(owner_api, cell):
    # The first guard is unlabelled and shown as S1: a text "S1" beside the
    # second would give two guards one name.
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_line((0, 0), (4000, 0), dxfattribs={"layer": "FENCE"})
    msp.add_line((0, 5000), (4000, 5000), dxfattribs={"layer": "FENCE"})
    msp.add_text("S1", dxfattribs={"layer": "TEXT", "insert": (2000, 5100)})
    response = owner_api.post(
        api_url(cell),
        {"file": upload(to_bytes(doc)), "height_mm": 1400, "mapping": FENCE},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    labels = list(
        GuardSegment.objects.filter(cell=cell)
        .order_by("id")
        .values_list("label", flat=True)
    )
    assert labels == ["", "S1 (2)"]


# --- doors -------------------------------------------------------------------


def test_a_door_drawn_over_the_fence_is_an_opening_in_it(owner_api, cell):
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_line((0, 0), (6000, 0), dxfattribs={"layer": "FENCE"})
    msp.add_line((2000, 10), (2900, 10), dxfattribs={"layer": "DOOR"})
    response = owner_api.post(
        api_url(cell),
        {
            "file": upload(to_bytes(doc)),
            "height_mm": 2000,
            "mapping": json.dumps({"FENCE": "fence", "DOOR": "door"}),
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["created"]["openings"] == 1
    opening = Opening.objects.get(segment__cell=cell)
    assert (opening.offset_mm, opening.width_mm) == (2000, 900)
    assert (opening.lower_edge_mm, opening.upper_edge_mm) == (0, 2000)
    assert GuardSegment.objects.filter(cell=cell).count() == 1


def test_a_door_in_a_gap_of_the_fence_closes_it_with_an_opening(owner_api, cell):
    # The fence stops either side of the door: the door is a guard of the
    # fence's kind and height across the gap, opened over its width.
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_line((0, 0), (2000, 0), dxfattribs={"layer": "FENCE", "thickness": 2000})
    msp.add_line((3000, 0), (6000, 0), dxfattribs={"layer": "FENCE", "thickness": 1800})
    msp.add_line((2000, 0), (3000, 0), dxfattribs={"layer": "TÜR"})
    msp.add_text("D1", dxfattribs={"layer": "TEXT", "insert": (2500, 100)})
    response = owner_api.post(
        api_url(cell),
        {
            "file": upload(to_bytes(doc)),
            "mapping": json.dumps({"FENCE": "fence", "TÜR": "door"}),
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    door_guard = GuardSegment.objects.get(cell=cell, start_x_mm=2000, end_x_mm=3000)
    # The lower of its neighbours: a door makes no guard taller.
    assert (door_guard.kind, door_guard.height_mm) == ("fence", 1800)
    opening = door_guard.openings.get()
    assert (opening.offset_mm, opening.width_mm, opening.label) == (0, 1000, "D1")


def test_a_door_of_the_hall_far_from_any_guard_makes_no_guard(owner_api, cell):
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_line((0, 0), (6000, 0), dxfattribs={"layer": "FENCE"})
    msp.add_line((20000, 9000), (21500, 9000), dxfattribs={"layer": "DOOR"})
    response = owner_api.post(
        api_url(cell),
        {
            "file": upload(to_bytes(doc)),
            "height_mm": 2000,
            "mapping": json.dumps({"FENCE": "fence", "DOOR": "door"}),
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["doors_left_out"] == 1
    assert GuardSegment.objects.filter(cell=cell).count() == 1
    assert not Opening.objects.filter(segment__cell=cell).exists()


def test_a_door_overlapping_an_opening_refuses_the_file_and_saves_nothing(
    owner_api, cell
):
    segment = GuardSegmentFactory(
        cell=cell, start_x_mm=0, start_y_mm=0, end_x_mm=6000, end_y_mm=0
    )
    Opening.objects.create(
        segment=segment, offset_mm=1800, width_mm=600, upper_edge_mm=1000
    )
    doc = new_drawing()
    doc.modelspace().add_line((2000, 0), (2900, 0), dxfattribs={"layer": "DOOR"})
    doc.modelspace().add_line((0, 900), (6000, 900), dxfattribs={"layer": "HALL"})
    response = owner_api.post(
        api_url(cell),
        {"file": upload(to_bytes(doc)), "mapping": json.dumps({"DOOR": "door"})},
        format="multipart",
    )
    assert response.status_code == 400
    assert "overlaps" in repr(response.json()["file"])
    assert Opening.objects.filter(segment__cell=cell).count() == 1
    assert not LayoutUnderlay.objects.filter(cell=cell).exists()


def test_door_layers_are_suggested_as_doors(owner_client, cell):
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_line((0, 0), (6000, 0), dxfattribs={"layer": "FENCE"})
    for name in ("DOOR", "Tür", "출입문"):
        msp.add_line((2000, 0), (2900, 0), dxfattribs={"layer": name})
    shown = preview(owner_client, cell, to_bytes(doc), height_mm=2000)
    data = form_data(shown)
    for name in ("DOOR", "Tür", "출입문"):
        assert data[layer_field(shown, name)] == "door", name


# --- units -------------------------------------------------------------------


def inch_square():
    """A fence square 100 × 80 inches, the header saying no units."""
    doc = new_drawing(insunits=0)
    doc.modelspace().add_lwpolyline(
        [(0, 0), (100, 0), (100, 80), (0, 80)],
        close=True,
        dxfattribs={"layer": "FENCE"},
    )
    return doc


def test_a_drawing_without_units_asks_for_them_and_saves_nothing(owner_api, cell):
    response = owner_api.post(
        api_url(cell),
        {"file": upload(to_bytes(inch_square())), "height_mm": 2000, "mapping": FENCE},
        format="multipart",
    )
    assert response.status_code == 400
    assert "$INSUNITS" in response.json()["units"][0]
    assert not GuardSegment.objects.filter(cell=cell).exists()


def test_the_units_given_convert_the_coordinates(owner_api, cell):
    response = owner_api.post(
        api_url(cell),
        {
            "file": upload(to_bytes(inch_square())),
            "height_mm": 2000,
            "units": "inch",
            "mapping": FENCE,
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    ends = set(
        GuardSegment.objects.filter(cell=cell).values_list("end_x_mm", "end_y_mm")
    )
    # 100 in = 2,540 mm; 80 in = 2,032 mm.
    assert ends == {(2540, 0), (2540, 2032), (0, 2032), (0, 0)}


def test_the_page_asks_for_the_units_by_their_field(owner_client, cell):
    shown = preview(owner_client, cell, to_bytes(inch_square()), height_mm=2000)
    assert shown.status_code == 400
    assert "units" in shown.context["form"].errors
    assert "$INSUNITS" in shown.text
    data = {**form_data(shown), "units": "inch", "action": "import"}
    done = owner_client.post(page_url(cell), data)
    assert done.status_code == 302
    assert GuardSegment.objects.filter(cell=cell, end_x_mm=2540).exists()


# --- the organisation's mapping, remembered -----------------------------------


def odd_layers():
    doc = new_drawing()
    msp = doc.modelspace()
    msp.add_line((0, 0), (4000, 0), dxfattribs={"layer": "A-SCHUTZ-01"})
    msp.add_line((0, -900), (4000, -900), dxfattribs={"layer": "BESTAND"})
    return doc


def test_an_organisations_layer_mapping_is_offered_at_its_next_import(
    owner_client, cell, project
):
    shown = preview(owner_client, cell, to_bytes(odd_layers()), height_mm=2000)
    field = layer_field(shown, "A-SCHUTZ-01")
    # A name no word of ours suggests: underlay until the user says.
    assert form_data(shown)[field] == "underlay"
    data = {**form_data(shown), field: "fence", "action": "import"}
    assert owner_client.post(page_url(cell), data).status_code == 302

    another = CellFactory(project=project, name="Second cell")
    shown = preview(owner_client, another, to_bytes(odd_layers()), height_mm=2000)
    assert form_data(shown)[layer_field(shown, "A-SCHUTZ-01")] == "fence"
    assert "last import" in shown.text


def test_another_organisations_mapping_is_not_offered(owner_client, cell):
    elsewhere = OrganisationFactory()
    DxfLayerMapping.objects.create(
        organisation=elsewhere,
        layer_name="A-SCHUTZ-01",
        layer_key="a-schutz-01",
        target="machine_body",
    )
    shown = preview(owner_client, cell, to_bytes(odd_layers()), height_mm=2000)
    assert form_data(shown)[layer_field(shown, "A-SCHUTZ-01")] == "underlay"


def test_the_remembered_layers_are_bounded(cell):
    organisation = cell.project.organisation
    limit = services.MAX_REMEMBERED_LAYERS
    services.dxf_layers_remember(
        organisation_id=organisation.pk,
        mapping={f"L{i}": "fence" for i in range(limit + 20)},
    )
    assert DxfLayerMapping.objects.filter(organisation=organisation).count() == limit
    # The newest kept: the first 20 were forgotten.
    assert not DxfLayerMapping.objects.filter(layer_key="l0").exists()


# --- the preview keeps what is typed -----------------------------------------


def test_an_htmx_preview_redraws_the_result_not_the_fields(owner_client, cell):
    shown = preview(owner_client, cell, to_bytes(customer_drawing()), height_mm=2000)
    response = owner_client.post(
        page_url(cell),
        {**form_data(shown), "height_mm": "19", "action": "preview"},
        HTTP_HX_REQUEST="true",
    )
    fragment = response.text.lstrip()
    assert fragment.startswith('<div id="dxf-result"')
    # No field comes back to overwrite what the user typed meanwhile.
    assert 'name="height_mm"' not in fragment
    assert "<select" not in fragment


def test_the_preview_draws_the_names_and_the_doors_before_anything_is_saved(
    owner_client, cell
):
    doc = named_fence()
    doc.modelspace().add_line((1000, 0), (1900, 0), dxfattribs={"layer": "DOOR"})
    shown = preview(owner_client, cell, to_bytes(doc), height_mm=2000)
    assert shown.status_code == 200, shown.context["form"].errors
    assert 'data-label="F-SOUTH"' in shown.text
    assert shown.text.count('<g class="opening') == 1
    assert "1 door added as an opening in its guard" in shown.text
    # The names the drawing gave, and nothing for the guard it did not name.
    assert shown.context["summary"]["names"] == ["F-SOUTH", "F-EAST"]
    assert "Names from the drawing: F-SOUTH, F-EAST</li>" in shown.text
    assert not GuardSegment.objects.filter(cell=cell).exists()
