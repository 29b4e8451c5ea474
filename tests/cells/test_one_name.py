"""One name per element of the layout (issue 26): the name the plan shows
(its label, else S1, S2... for guard segments in the order they were drawn,
O1, O2... for openings along their segment) is the name of the findings, the
cost lines, the cell page's lists, the hazard form's places and the PDF. A
DXF import leaves every segment unlabelled: the findings and cost lines
called them ``#<id>`` while the plan and the PDF's Guarding table said S1."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cells.drawing import layout_drawing
from cells.models import GuardSegment
from cells.naming import layout_names, opening_place
from cells.selectors import cell_document, load_layout
from compliance.assessment.selectors import location_choices
from compliance.proposals.building import build_document
from compliance.proposals.models import ProposalDocument
from compliance.proposals.pdf.data import SECTIONS
from compliance.proposals.services import proposal_request
from tests.cells.layout_dxf.support import new_drawing, to_bytes, upload
from tests.compliance.proposals.demo import text_of
from tests.factories import GuardSegmentFactory, OpeningFactory

pytestmark = pytest.mark.django_db

# Any "#" and a number: how an unlabelled element was named before.
BY_ID = re.compile(r"#\d+")


@pytest.fixture
def imported(owner, cell):
    """A cell whose fence came from the customer's DXF: four unlabelled
    segments 1,400 mm high (too low for Korea's Art. 223, so each is named in
    a finding) round the robot, and an unlabelled opening in the second."""
    doc = new_drawing()
    doc.modelspace().add_lwpolyline(
        [(0, 0), (4000, 0), (4000, 3000), (0, 3000)],
        close=True,
        dxfattribs={"layer": "FENCE"},
    )
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(owner)
    response = api.post(
        reverse("api:cell-layout-dxf-import", args=[cell.pk]),
        {
            "file": upload(to_bytes(doc)),
            "mapping": '{"FENCE": "fence"}',
            "height_mm": 1400,
        },
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    segments = list(GuardSegment.objects.filter(cell=cell).order_by("id"))
    assert [s.label for s in segments] == ["", "", "", ""]
    OpeningFactory(segment=segments[1], label="", offset_mm=500, width_mm=900)
    return api, segments


def test_the_findings_name_each_segment_as_the_plan_does(imported, cell):
    api, _segments = imported
    body = api.get(f"/api/v1/cells/{cell.pk}/findings/", {"page_size": 200}).json()
    subjects = {
        finding["subject"] for group in body["groups"] for finding in group["findings"]
    }
    assert {"S1", "S2", "S3", "S4"} <= subjects
    assert "S2 / O1" in subjects
    assert not [s for s in subjects if BY_ID.search(s)]


def test_the_cost_lines_name_the_segments_as_the_plan_does(imported, cell):
    api, _segments = imported
    body = api.get(f"/api/v1/cells/{cell.pk}/line-items/").json()
    text = repr(body)
    assert "S1" in text
    assert not BY_ID.search(text), BY_ID.findall(text)


def test_the_cell_page_the_plan_and_the_hazard_places_use_the_same_names(
    client, owner, imported, cell
):
    client.force_login(owner)
    page = client.get(reverse("cells:cell_detail", args=[cell.pk])).content.decode()
    for name in ("S1", "S2", "S3", "S4", "O1"):
        assert f">{name}<" in page or f">↳ {name}<" in page, name
    listed = re.findall(r"<td>(?:↳ )?(#\d+)</td>", page)
    assert listed == []
    places = location_choices(cell)
    assert sorted(places.values()) == ["S1", "S2", "S2 / O1", "S3", "S4"]


def test_the_proposal_names_the_segments_as_its_plan_does(imported, owner, cell):
    document = proposal_request(
        cell=cell, actor=owner, language="en", sections=list(SECTIONS)
    )
    build_document(document.pk, "test-claim")
    document = ProposalDocument.objects.get(pk=document.pk)
    assert document.status == ProposalDocument.Status.READY, document.error
    text = text_of(bytes(document.pdf))
    assert "S1" in text and "S2 / O1" in text
    assert not BY_ID.search(text), BY_ID.findall(text)


def test_names_run_through_the_cell_so_no_two_elements_share_one():
    # Openings are numbered through the cell, not along each segment: two
    # unlabelled openings on two sides are O1 and O2, never O1 twice.
    names = layout_names([("", ["", "Infeed"]), ("F2", []), ("", [""])])
    assert names == [("S1", ["O1", "Infeed"]), ("F2", []), ("S3", ["O3"])]
    assert opening_place("S3", "O3") == "S3 / O3"


def test_the_plan_numbers_openings_through_the_cell(cell):
    first = GuardSegmentFactory(cell=cell, label="")
    second = GuardSegmentFactory(
        cell=cell,
        label="",
        start_x_mm=4000,
        start_y_mm=0,
        end_x_mm=4000,
        end_y_mm=3000,
    )
    OpeningFactory(segment=first, label="", offset_mm=500, width_mm=600)
    OpeningFactory(segment=second, label="", offset_mm=500, width_mm=600)
    loaded = load_layout(cell)
    drawing = layout_drawing(cell_document(loaded))
    assert [s.label for s in drawing.segments] == ["S1", "S2"]
    assert [o.label for o in drawing.openings] == ["O1", "O2"]
    assert [str(o) for s in loaded.segments.all() for o in s.openings.all()] == [
        "O1",
        "O2",
    ]


def test_the_forms_offer_the_segments_and_openings_by_their_plan_names(imported, cell):
    # An opening's segment and a device's opening were chosen from "#9",
    # "#10"... while the plan said S1, S2.
    from cells.forms import DeviceForm, OpeningForm

    segments = [
        label for _pk, label in OpeningForm(cell=cell).fields["segment"].choices
    ]
    assert segments[1:] == ["S1", "S2", "S3", "S4"]
    openings = [label for _pk, label in DeviceForm(cell=cell).fields["opening"].choices]
    assert openings[1:] == ["S2 / O1"]
