"""Measures through the API: linked to the cell's devices and guards, written
only through the services, with the version read."""

from __future__ import annotations

import pytest

from compliance.assessment import services
from compliance.models import AuditEntry, Measure
from tests.compliance.assessment.api.conftest import (
    detail_url,
    list_url,
    measure_body,
)
from tests.compliance.conftest import CRUSHING
from tests.factories import CellFactory, DeviceFactory, GuardSegmentFactory

pytestmark = pytest.mark.django_db


def test_editor_adds_a_safety_function_on_a_device(owner_api, owner, hazard, cell):
    curtain = DeviceFactory(cell=cell, label="LC1", claimed_pl="e")

    response = owner_api.post(
        list_url("measure"),
        measure_body(hazard, device=curtain.pk, is_safety_function=True),
        format="json",
    )

    assert response.status_code == 201
    measure = Measure.objects.get(pk=response.data["id"])
    assert (measure.hazard, measure.device, measure.linked_label) == (
        hazard,
        curtain,
        "LC1",
    )
    # The hazard's PLr (S2 F2 P1 → d) and the device's claimed PL are taken.
    assert (response.data["plr_required"], response.data["pl_claimed"]) == ("d", "e")
    assert response.data["pl_below_plr"] is False
    assert AuditEntry.objects.get(object_type="measure").actor == owner


def test_editor_adds_a_measure_on_a_guard_segment(owner_api, hazard, layout):
    segment = layout["segment"]

    response = owner_api.post(
        list_url("measure"), measure_body(hazard, segment=segment.pk), format="json"
    )

    assert response.status_code == 201
    assert response.data["segment"] == segment.pk
    assert response.data["linked_label"] == "F1"


def test_a_measure_cannot_name_another_cells_device(owner_api, hazard, project):
    device = DeviceFactory(cell=CellFactory(project=project))

    response = owner_api.post(
        list_url("measure"), measure_body(hazard, device=device.pk), format="json"
    )

    assert response.status_code == 400
    assert "another cell" in str(response.data["device"][0])
    assert not Measure.objects.exists()


def test_a_measure_cannot_name_a_foreign_device_or_guard(owner_api, hazard):
    device = DeviceFactory()
    segment = GuardSegmentFactory()

    response = owner_api.post(
        list_url("measure"),
        measure_body(hazard, device=device.pk, segment=segment.pk),
        format="json",
    )

    assert response.status_code == 400
    assert "does not exist" in str(response.data["device"][0])
    assert "does not exist" in str(response.data["segment"][0])


def test_a_measure_names_a_device_or_a_guard_not_both(owner_api, hazard, cell, layout):
    device = DeviceFactory(cell=cell)

    response = owner_api.post(
        list_url("measure"),
        measure_body(hazard, device=device.pk, segment=layout["segment"].pk),
        format="json",
    )

    assert response.status_code == 400
    assert "device" in response.data


def test_a_measure_cannot_go_onto_a_foreign_hazard(outsider_api, hazard):
    response = outsider_api.post(
        list_url("measure"), measure_body(hazard), format="json"
    )

    assert response.status_code == 400
    assert "does not exist" in str(response.data["hazard"][0])


def test_viewer_cannot_add_a_measure(viewer_api, hazard):
    response = viewer_api.post(list_url("measure"), measure_body(hazard), format="json")

    assert response.status_code == 403
    assert not Measure.objects.exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"step": "prayer"}, "step"),
        ({"step": None}, "step"),
        ({"description": ""}, "description"),
        ({"description": "x" * 301}, "description"),
        ({"collaborative_mode": "telepathy"}, "collaborative_mode"),
        ({"plr_required": "f"}, "plr_required"),
        ({"pl_claimed": "PL e"}, "pl_claimed"),
        ({"is_safety_function": "sometimes"}, "is_safety_function"),
        ({"device": "LC1"}, "device"),
        ({"segment": 999999}, "segment"),
        ({"hazard": None}, "hazard"),
    ],
)
def test_a_measure_with_bad_input_is_refused(owner_api, hazard, change, field):
    response = owner_api.post(
        list_url("measure"), measure_body(hazard, **change), format="json"
    )

    assert response.status_code == 400
    assert field in response.data
    assert not Measure.objects.exists()


def test_editor_changes_a_measure_with_the_version_read(owner_api, measure, cell):
    device = DeviceFactory(cell=cell, label="Door switch", claimed_pl="d")

    response = owner_api.patch(
        detail_url("measure", measure.pk),
        {"version": measure.version, "device": device.pk},
        format="json",
    )

    assert response.status_code == 200
    changed = Measure.objects.get(pk=measure.pk)
    assert (changed.device, changed.linked_label, changed.version) == (
        device,
        "Door switch",
        measure.version + 1,
    )


def test_a_measure_update_needs_the_version(owner_api, measure):
    response = owner_api.patch(
        detail_url("measure", measure.pk), {"description": "Other"}, format="json"
    )

    assert response.status_code == 400
    assert "version" in response.data


def test_a_measure_cannot_move_to_another_hazard(
    owner_api, measure, revision, safety_engineer
):
    other = services.hazard_add(
        revision=revision, actor=safety_engineer, **{**CRUSHING, "task": "Other"}
    )

    response = owner_api.patch(
        detail_url("measure", measure.pk),
        {"version": measure.version, "hazard": other.pk},
        format="json",
    )

    assert response.status_code == 400
    assert "hazard" in response.data


def test_second_writer_of_the_same_measure_gets_a_conflict(
    owner_api, engineer_api, measure
):
    first = engineer_api.patch(
        detail_url("measure", measure.pk),
        {"version": measure.version, "description": "Fence F1, 2 m"},
        format="json",
    )
    second = owner_api.patch(
        detail_url("measure", measure.pk),
        {"version": measure.version, "description": "Fence F1, 1.4 m"},
        format="json",
    )

    assert first.status_code == 200
    assert second.status_code == 409
    assert "changed by someone else" in second.data["detail"]
    assert second.data["current"]["description"] == "Fence F1, 2 m"
    assert Measure.objects.get(pk=measure.pk).description == "Fence F1, 2 m"


def test_editor_deletes_a_measure(owner_api, measure):
    response = owner_api.delete(detail_url("measure", measure.pk))

    assert response.status_code == 204
    assert not Measure.objects.exists()


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_viewer_cannot_change_or_delete_a_measure(viewer_api, measure, method):
    before = Measure.objects.values().get(pk=measure.pk)

    response = getattr(viewer_api, method)(
        detail_url("measure", measure.pk),
        measure_body(measure.hazard, version=measure.version, description="Viewer's"),
        format="json",
    )

    assert response.status_code == 403
    assert Measure.objects.values().get(pk=measure.pk) == before


def test_a_signed_revisions_measures_cannot_be_changed_added_or_deleted(
    owner_api, signed, hazard, measure
):
    before = list(Measure.objects.values().order_by("id"))

    patched = owner_api.patch(
        detail_url("measure", measure.pk),
        {"version": measure.version, "description": "Changed"},
        format="json",
    )
    posted = owner_api.post(list_url("measure"), measure_body(hazard), format="json")
    deleted = owner_api.delete(detail_url("measure", measure.pk))

    for response in (patched, posted, deleted):
        assert response.status_code == 400
        assert "Start a new revision" in str(response.data)
    assert list(Measure.objects.values().order_by("id")) == before


def test_measures_filter_by_hazard_and_revision(
    owner_api, measure, hazard, revision, safety_engineer
):
    other = services.hazard_add(
        revision=revision, actor=safety_engineer, **{**CRUSHING, "task": "Other"}
    )
    beside = services.measure_add(
        hazard=other,
        actor=safety_engineer,
        step="information_for_use",
        description="Sign",
    )

    def ids(query: str) -> set[int]:
        response = owner_api.get(list_url("measure") + query)
        assert response.status_code == 200
        return {row["id"] for row in response.data["results"]}

    assert ids(f"?hazard={hazard.pk}") == {measure.pk}
    assert ids(f"?hazard={other.pk}") == {beside.pk}
    assert ids(f"?revision={revision.pk}") == {measure.pk, beside.pk}
    assert ids("?step=information_for_use") == {beside.pk}
