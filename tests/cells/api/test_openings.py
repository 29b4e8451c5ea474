"""Openings through the API: create, change, delete, validate, filter."""

from __future__ import annotations

import pytest

from cells.models import Opening, OpeningPurpose
from tests.cells.api.support import detail_url, list_url, opening_body
from tests.factories import (
    CellFactory,
    GuardSegmentFactory,
    OpeningFactory,
)

pytestmark = pytest.mark.django_db


def test_editor_creates_an_opening(owner_api, segment, cell):
    response = owner_api.post(list_url("opening"), opening_body(segment), format="json")

    assert response.status_code == 201
    assert response.data["cell"] == cell.pk
    assert Opening.objects.get(pk=response.data["id"]).segment == segment


def test_openings_may_touch_end_to_end(owner_api, segment, opening):
    # The fixture opening ends at 1800 mm; this one starts there.
    body = opening_body(segment, offset_mm=1800, width_mm=500)

    response = owner_api.post(list_url("opening"), body, format="json")

    assert response.status_code == 201


def test_editor_changes_an_opening(owner_api, opening):
    response = owner_api.patch(
        detail_url("opening", opening.pk),
        {"width_mm": 1000, "purpose": "maintenance_door"},
        format="json",
    )

    assert response.status_code == 200
    opening.refresh_from_db()
    assert (opening.width_mm, opening.purpose) == (
        1000,
        OpeningPurpose.MAINTENANCE_DOOR,
    )


def test_editor_replaces_an_opening(owner_api, opening, segment):
    response = owner_api.put(
        detail_url("opening", opening.pk), opening_body(segment), format="json"
    )

    assert response.status_code == 200
    opening.refresh_from_db()
    assert (opening.offset_mm, opening.label) == (2500, "Door")


def test_editor_moves_an_opening_to_a_segment_of_another_cell(
    owner_api, opening, project
):
    other = GuardSegmentFactory(cell=CellFactory(project=project))

    response = owner_api.patch(
        detail_url("opening", opening.pk), {"segment": other.pk}, format="json"
    )

    assert response.status_code == 200
    assert response.data["cell"] == other.cell_id
    opening.refresh_from_db()
    assert opening.segment == other


def test_opening_cannot_move_onto_a_segment_where_it_overlaps(
    owner_api, opening, segment, cell
):
    other = GuardSegmentFactory(cell=cell)
    OpeningFactory(segment=other, offset_mm=1500, width_mm=400)

    response = owner_api.patch(
        detail_url("opening", opening.pk), {"segment": other.pk}, format="json"
    )

    assert response.status_code == 400
    assert "offset_mm" in response.data
    opening.refresh_from_db()
    assert opening.segment == segment


def test_opening_cannot_move_to_a_foreign_segment(owner_api, opening, segment):
    foreign = GuardSegmentFactory()

    response = owner_api.patch(
        detail_url("opening", opening.pk), {"segment": foreign.pk}, format="json"
    )

    assert response.status_code == 400
    assert "does not exist" in str(response.data["segment"][0])
    opening.refresh_from_db()
    assert opening.segment == segment


def test_editor_deletes_an_opening(owner_api, opening):
    response = owner_api.delete(detail_url("opening", opening.pk))

    assert response.status_code == 204
    assert not Opening.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"offset_mm": 3500, "width_mm": 900}, "width_mm"),  # runs past 4000 mm
        ({"offset_mm": 0, "width_mm": 5000}, "width_mm"),  # wider than the segment
        ({"offset_mm": 1500, "width_mm": 500}, "offset_mm"),  # overlaps 1000–1800
        ({"offset_mm": 500, "width_mm": 2000}, "offset_mm"),  # covers 1000–1800
        ({"upper_edge_mm": 1900}, "upper_edge_mm"),  # above the 1800 mm guard
        ({"lower_edge_mm": 1500, "upper_edge_mm": 1500}, "upper_edge_mm"),
        ({"lower_edge_mm": 1600, "upper_edge_mm": 1000}, "upper_edge_mm"),
        ({"width_mm": 0}, "width_mm"),
        ({"width_mm": -10}, "width_mm"),
        ({"offset_mm": -1}, "offset_mm"),
        ({"offset_mm": "middle"}, "offset_mm"),
        ({"upper_edge_mm": {"mm": 1}}, "upper_edge_mm"),
        ({"purpose": "escape"}, "purpose"),
        ({"segment": 999999}, "segment"),
    ],
)
def test_opening_with_bad_input_is_refused(owner_api, segment, opening, change, field):
    response = owner_api.post(
        list_url("opening"), opening_body(segment, **change), format="json"
    )

    assert response.status_code == 400
    assert field in response.data
    assert list(Opening.objects.all()) == [opening]


def test_opening_update_that_would_overlap_is_refused(owner_api, segment, opening):
    other = OpeningFactory(segment=segment, offset_mm=2500, width_mm=500)

    response = owner_api.patch(
        detail_url("opening", other.pk), {"offset_mm": 1700}, format="json"
    )

    assert response.status_code == 400
    assert "offset_mm" in response.data
    other.refresh_from_db()
    assert other.offset_mm == 2500


def test_opening_may_be_widened_in_place(owner_api, opening):
    # It must not be found to overlap itself.
    response = owner_api.patch(
        detail_url("opening", opening.pk), {"width_mm": 900}, format="json"
    )

    assert response.status_code == 200


def test_openings_filter_by_segment_cell_and_purpose(owner_api, segment, cell, project):
    door = OpeningFactory(
        segment=segment,
        offset_mm=0,
        width_mm=500,
        purpose=OpeningPurpose.MAINTENANCE_DOOR,
    )
    infeed = OpeningFactory(segment=segment, offset_mm=2000, width_mm=500)
    other_segment = GuardSegmentFactory(cell=cell)
    beside = OpeningFactory(segment=other_segment)
    elsewhere = OpeningFactory(
        segment=GuardSegmentFactory(cell=CellFactory(project=project))
    )

    def ids(query: str) -> set[int]:
        response = owner_api.get(list_url("opening") + query)
        assert response.status_code == 200
        return {row["id"] for row in response.data["results"]}

    assert ids(f"?segment={segment.pk}") == {door.pk, infeed.pk}
    assert ids(f"?cell={cell.pk}") == {door.pk, infeed.pk, beside.pk}
    assert ids(f"?cell={elsewhere.segment.cell_id}") == {elsewhere.pk}
    assert ids("?purpose=maintenance_door") == {door.pk}
