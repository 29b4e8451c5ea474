"""The services that place layout elements: checked again when saved, under a
lock on the segment or the cell, so a check made before the save cannot be
outrun (an overlap, a cell's cap of elements)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from cells import services
from cells.exchange import MAX_DEVICES, MAX_OPERATOR_STATIONS
from cells.models import Device, Opening, OperatorStation
from tests.factories import GuardSegmentFactory, OpeningFactory

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
    def refused(*, opening, **_kw):
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


# --- A cell's caps, counted again under a lock on the cell ------------------------


def _full(model, count, **values):
    model.objects.bulk_create([model(**values) for _ in range(count)])


def test_a_device_added_to_a_cell_filled_since_its_check_is_refused(cell):
    _full(Device, MAX_DEVICES, cell=cell, kind="emergency_stop", label="E-stop")
    late = Device(cell=cell, kind="emergency_stop", label="One more")

    with pytest.raises(ValidationError) as caught:
        services.device_save(device=late)

    assert "cell" in caught.value.message_dict
    assert Device.objects.filter(cell=cell).count() == MAX_DEVICES


def test_a_station_added_to_a_cell_filled_since_its_check_is_refused(cell):
    _full(OperatorStation, MAX_OPERATOR_STATIONS, cell=cell, label="L", x_mm=0, y_mm=0)
    late = OperatorStation(cell=cell, label="One more", x_mm=0, y_mm=0)

    with pytest.raises(ValidationError) as caught:
        services.operator_station_save(station=late)

    assert "cell" in caught.value.message_dict
    assert OperatorStation.objects.filter(cell=cell).count() == MAX_OPERATOR_STATIONS


def test_each_layout_service_locks_the_cell_it_writes_in(cell, monkeypatch):
    # SQLite ignores FOR UPDATE, so the lock is seen asked for, not felt.
    locked: list[int] = []
    real = services.lock_cell
    monkeypatch.setattr(
        services, "lock_cell", lambda cell_id: (locked.append(cell_id), real(cell_id))
    )

    services.device_save(device=Device(cell=cell, kind="emergency_stop", label="E"))
    services.operator_station_save(
        station=OperatorStation(cell=cell, label="HMI", x_mm=0, y_mm=0)
    )
    segment = services.guard_segment_save(segment=GuardSegmentFactory.build(cell=cell))
    services.opening_save(opening=OpeningFactory.build(segment=segment))

    assert locked == [cell.pk] * 4
