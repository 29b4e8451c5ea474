"""The services that place openings: checked again when saved, under a lock
on the segment, so a check made before the save cannot be outrun."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from cells import services
from cells.models import Opening
from tests.factories import OpeningFactory

pytestmark = pytest.mark.django_db


def test_an_opening_that_overlaps_one_saved_since_its_check_is_refused(opening):
    # As if checked before ``opening`` was saved: only the service sees it.
    late = Opening(
        segment=opening.segment,
        offset_mm=opening.offset_mm + 100,
        width_mm=500,
        upper_edge_mm=1000,
    )

    with pytest.raises(ValidationError) as caught:
        services.opening_save(opening=late)

    assert "offset_mm" in caught.value.message_dict
    assert Opening.objects.filter(segment=opening.segment).count() == 1


def test_a_segment_shortened_past_an_opening_placed_since_is_refused(segment):
    OpeningFactory(segment=segment, offset_mm=3000, width_mm=800)
    segment.end_x_mm = 2000

    with pytest.raises(ValidationError) as caught:
        services.guard_segment_save(segment=segment)

    assert "end_x_mm" in caught.value.message_dict
    segment.refresh_from_db()
    assert segment.end_x_mm == 4000


def test_the_page_shows_a_refusal_made_when_saving(
    owner_client, cell, segment, monkeypatch
):
    def refused(*, opening):
        raise ValidationError({"offset_mm": "Taken by an opening saved meanwhile."})

    monkeypatch.setattr(services, "opening_save", refused)

    response = owner_client.post(
        reverse("cells:element_add", args=[cell.pk, "opening"]),
        {
            "segment": segment.pk,
            "purpose": "material_entry",
            "offset_mm": 100,
            "width_mm": 500,
            "lower_edge_mm": 0,
            "upper_edge_mm": 1000,
        },
    )

    assert response.status_code == 200
    assert "Taken by an opening saved meanwhile." in response.content.decode()
    assert not Opening.objects.filter(segment=segment).exists()
