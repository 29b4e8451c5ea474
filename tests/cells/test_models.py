"""Database constraints hold even when code skips the forms and validation."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from cells.models import GuardSegment, Membership, Opening
from tests.factories import CellFactory, GuardSegmentFactory, OpeningFactory


@pytest.mark.parametrize(
    "fields",
    [
        {"end_x_mm": 0, "end_y_mm": 0},  # zero length: end == start
        {"height_mm": 0},
    ],
)
def test_database_refuses_impossible_segments(cell, fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        GuardSegment.objects.create(
            cell=cell,
            **{
                "start_x_mm": 0,
                "start_y_mm": 0,
                "end_x_mm": 1000,
                "end_y_mm": 0,
                "height_mm": 1800,
                **fields,
            },
        )


def test_database_refuses_opening_whose_upper_edge_is_not_above_lower(segment):
    with pytest.raises(IntegrityError), transaction.atomic():
        Opening.objects.create(
            segment=segment,
            offset_mm=0,
            width_mm=500,
            lower_edge_mm=900,
            upper_edge_mm=900,
        )


def test_database_refuses_zero_width_opening(segment):
    with pytest.raises(IntegrityError), transaction.atomic():
        Opening.objects.create(
            segment=segment, offset_mm=0, width_mm=0, lower_edge_mm=0, upper_edge_mm=900
        )


def test_database_refuses_nonpositive_robot_payload(project):
    with pytest.raises(IntegrityError), transaction.atomic():
        CellFactory(project=project, payload_kg=0)


def test_a_person_has_one_role_per_organisation(owner, organisation):
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(user=owner, organisation=organisation, role="viewer")


def test_database_refuses_unknown_role(owner, outsider):
    org = outsider.memberships.get().organisation
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(user=owner, organisation=org, role="admin")


def test_openings_may_touch_but_not_overlap(segment):
    OpeningFactory(segment=segment, offset_mm=0, width_mm=1000)
    touching = Opening(
        segment=segment,
        offset_mm=1000,
        width_mm=500,
        lower_edge_mm=0,
        upper_edge_mm=900,
    )
    touching.full_clean()
    overlapping = Opening(
        segment=segment, offset_mm=999, width_mm=500, lower_edge_mm=0, upper_edge_mm=900
    )
    with pytest.raises(ValidationError) as excinfo:
        overlapping.full_clean()
    assert "offset_mm" in excinfo.value.message_dict


def test_diagonal_segment_length_is_measured_along_the_segment(cell):
    segment = GuardSegmentFactory(
        cell=cell, start_x_mm=0, start_y_mm=0, end_x_mm=3000, end_y_mm=4000
    )
    assert segment.length_mm == 5000
    fits = Opening(
        segment=segment,
        offset_mm=4000,
        width_mm=1000,
        lower_edge_mm=0,
        upper_edge_mm=1000,
    )
    fits.full_clean()


def test_lowering_a_guard_below_its_opening_is_refused(segment, opening):
    segment.height_mm = opening.upper_edge_mm - 1
    with pytest.raises(ValidationError) as excinfo:
        segment.full_clean()
    assert "height_mm" in excinfo.value.message_dict


@pytest.mark.parametrize(
    ("modes", "words"),
    [
        (["telepathy"], "Unknown collaborative mode: telepathy"),
        (["pfl", "ssm", "pfl"], "given twice"),
        ("pfl", "a list"),
    ],
)
def test_cell_refuses_unknown_or_repeated_collaborative_modes(cell, modes, words):
    cell.collaborative_modes = modes
    with pytest.raises(ValidationError) as raised:
        cell.full_clean()
    assert words in str(raised.value.message_dict["collaborative_modes"])


def test_cell_may_use_all_four_collaborative_modes(cell):
    cell.collaborative_modes = ["srms", "hand_guiding", "ssm", "pfl"]
    cell.full_clean()
