"""Guard segments through the API: create, change, delete, validate, filter."""

from __future__ import annotations

import pytest

from cells.models import GuardKind, GuardSegment
from tests.cells.api.support import detail_url, list_url, segment_body
from tests.factories import CellFactory, GuardSegmentFactory

pytestmark = pytest.mark.django_db


def test_editor_creates_a_segment(owner_api, cell):
    body = segment_body(cell, start_x_mm=0, start_y_mm=0, end_x_mm=3000, end_y_mm=4000)

    response = owner_api.post(list_url("guard-segment"), body, format="json")

    assert response.status_code == 201
    assert response.data["length_mm"] == 5000.0
    assert GuardSegment.objects.get(pk=response.data["id"]).cell == cell


def test_segment_length_is_rounded(owner_api, cell):
    body = segment_body(cell, start_x_mm=0, start_y_mm=0, end_x_mm=1000, end_y_mm=1000)

    response = owner_api.post(list_url("guard-segment"), body, format="json")

    assert response.data["length_mm"] == 1414.2


def test_editor_changes_a_segment(owner_api, segment):
    response = owner_api.patch(
        detail_url("guard-segment", segment.pk),
        {"height_mm": 2200, "kind": "wall"},
        format="json",
    )

    assert response.status_code == 200
    segment.refresh_from_db()
    assert (segment.height_mm, segment.kind) == (2200, GuardKind.WALL)


def test_editor_replaces_a_segment(owner_api, segment, cell):
    response = owner_api.put(
        detail_url("guard-segment", segment.pk), segment_body(cell), format="json"
    )

    assert response.status_code == 200
    segment.refresh_from_db()
    assert (segment.start_y_mm, segment.label) == (3000, "F9")


def test_editor_moves_a_segment_with_its_openings_to_another_cell(
    owner_api, segment, opening, project
):
    other = CellFactory(project=project)

    response = owner_api.patch(
        detail_url("guard-segment", segment.pk), {"cell": other.pk}, format="json"
    )

    assert response.status_code == 200
    segment.refresh_from_db()
    assert segment.cell == other
    assert list(segment.openings.all()) == [opening]


def test_segment_cannot_move_to_a_foreign_cell(owner_api, segment, cell):
    foreign = CellFactory()

    response = owner_api.patch(
        detail_url("guard-segment", segment.pk), {"cell": foreign.pk}, format="json"
    )

    assert response.status_code == 400
    assert "does not exist" in str(response.data["cell"][0])
    segment.refresh_from_db()
    assert segment.cell == cell


def test_editor_deletes_a_segment(owner_api, segment, opening):
    response = owner_api.delete(detail_url("guard-segment", segment.pk))

    assert response.status_code == 204
    assert not GuardSegment.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"end_x_mm": 0, "end_y_mm": 3000}, "end_x_mm"),  # zero length
        ({"height_mm": 0}, "height_mm"),
        ({"height_mm": -100}, "height_mm"),
        ({"start_x_mm": "left"}, "start_x_mm"),
        ({"start_x_mm": None}, "start_x_mm"),
        ({"end_y_mm": 10**30}, "end_y_mm"),
        ({"kind": "hedge"}, "kind"),
        ({"label": "x" * 31}, "label"),
        ({"cell": None}, "cell"),
        ({"cell": [1]}, "cell"),
    ],
)
def test_segment_with_bad_input_is_refused(owner_api, cell, change, field):
    response = owner_api.post(
        list_url("guard-segment"), segment_body(cell, **change), format="json"
    )

    assert response.status_code == 400
    assert field in response.data
    assert not GuardSegment.objects.exists()


def test_segment_cannot_be_shortened_below_its_openings(owner_api, segment, opening):
    # The opening runs from 1000 to 1800 mm along the 4000 mm segment.
    response = owner_api.patch(
        detail_url("guard-segment", segment.pk), {"end_x_mm": 1500}, format="json"
    )

    assert response.status_code == 400
    assert "end_x_mm" in response.data
    segment.refresh_from_db()
    assert segment.end_x_mm == 4000


def test_segment_cannot_be_lowered_below_its_openings(owner_api, segment, opening):
    # The opening reaches 1500 mm.
    response = owner_api.patch(
        detail_url("guard-segment", segment.pk), {"height_mm": 1200}, format="json"
    )

    assert response.status_code == 400
    assert "height_mm" in response.data
    segment.refresh_from_db()
    assert segment.height_mm == 1800


def test_segment_update_to_zero_length_is_refused(owner_api, segment):
    response = owner_api.patch(
        detail_url("guard-segment", segment.pk),
        {"end_x_mm": 0, "end_y_mm": 0},
        format="json",
    )

    assert response.status_code == 400
    assert "end_x_mm" in response.data
    segment.refresh_from_db()
    assert (segment.end_x_mm, segment.end_y_mm) == (4000, 0)


def test_segments_filter_by_cell_and_kind(owner_api, cell, project):
    wall = GuardSegmentFactory(cell=cell, kind=GuardKind.WALL)
    fence = GuardSegmentFactory(cell=cell, kind=GuardKind.FENCE)
    elsewhere = GuardSegmentFactory(cell=CellFactory(project=project))

    def ids(query: str) -> set[int]:
        response = owner_api.get(list_url("guard-segment") + query)
        assert response.status_code == 200
        return {row["id"] for row in response.data["results"]}

    assert ids(f"?cell={cell.pk}") == {wall.pk, fence.pk}
    assert ids(f"?cell={elsewhere.cell_id}") == {elsewhere.pk}
    assert ids("?kind=wall") == {wall.pk}
    assert ids(f"?cell={CellFactory().pk}") == set()
