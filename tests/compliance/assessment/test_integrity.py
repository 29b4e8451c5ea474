"""A signed revision cannot be altered by any path; concurrent edits never
overwrite each other silently; every change leaves an audit entry."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from compliance.assessment import audit, selectors, services
from compliance.assessment.content import diff
from compliance.models import AuditEntry, Hazard, Measure, Revision
from tests.compliance.conftest import CRUSHING, sign_revision
from tests.factories import CellFactory, DeviceFactory


@pytest.fixture
def signed(revision, hazard, safety_engineer):
    services.measure_add(
        hazard=hazard, actor=safety_engineer, step="safeguarding", description="Fence"
    )
    return sign_revision(
        services.revision_submit(revision=revision, actor=safety_engineer),
        safety_engineer,
    )


def refused(action) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        action()


def test_the_app_refuses_to_edit_a_signed_revision(signed, hazard, safety_engineer):
    with pytest.raises(ValidationError, match="Start a new revision"):
        services.hazard_update(
            hazard=hazard, actor=safety_engineer, version=hazard.version, severity="S1"
        )


def test_database_refuses_orm_save_of_a_signed_hazard(signed, hazard):
    hazard.refresh_from_db()
    hazard.severity = "S1"
    refused(hazard.save)


def test_database_refuses_bulk_update_of_a_signed_revision(signed):
    refused(lambda: Hazard.objects.filter(revision=signed).update(severity="S1"))
    refused(
        lambda: Measure.objects.filter(hazard__revision=signed).update(description="x")
    )
    refused(lambda: Revision.objects.filter(pk=signed.pk).update(intended_use="x"))


def test_database_refuses_raw_sql_on_a_signed_revision(signed):
    def raw(sql, params):
        with connection.cursor() as cursor:
            cursor.execute(sql, params)

    refused(
        lambda: raw(
            "UPDATE compliance_hazard SET task = %s WHERE revision_id = %s",
            ["changed", signed.pk],
        )
    )
    refused(
        lambda: raw(
            "UPDATE compliance_revision SET content_hash = %s WHERE id = %s",
            ["0" * 64, signed.pk],
        )
    )
    refused(lambda: raw("DELETE FROM compliance_measure", []))


def test_database_refuses_adding_or_deleting_hazards_of_a_signed_revision(
    signed, hazard
):
    refused(lambda: Hazard.objects.create(revision=signed, **CRUSHING))
    refused(lambda: Hazard.objects.filter(pk=hazard.pk).delete())
    refused(lambda: Revision.objects.filter(pk=signed.pk).delete())


def test_signed_content_still_hashes_to_what_was_signed(signed):
    assert services.revision_is_intact(Revision.objects.get(pk=signed.pk))


def test_second_save_of_the_same_hazard_is_a_conflict_with_current_values(
    hazard, safety_engineer, owner
):
    first = Hazard.objects.get(pk=hazard.pk)
    second = Hazard.objects.get(pk=hazard.pk)
    services.hazard_update(
        hazard=first, actor=safety_engineer, version=first.version, severity="S1"
    )
    with pytest.raises(services.Conflict) as excinfo:
        services.hazard_update(
            hazard=second, actor=owner, version=second.version, avoidance="P2"
        )
    assert excinfo.value.current.severity == "S1"
    assert Hazard.objects.get(pk=hazard.pk).avoidance == "P1"  # not overwritten


@pytest.mark.parametrize(
    ("field", "value"),
    [("severity", "S3"), ("phase", "lunch"), ("frequency", "F9")],
)
def test_out_of_range_parameters_are_refused_and_nothing_saved(
    hazard, safety_engineer, field, value
):
    with pytest.raises(ValidationError) as excinfo:
        services.hazard_update(
            hazard=hazard,
            actor=safety_engineer,
            version=hazard.version,
            **{field: value},
        )
    assert field in excinfo.value.message_dict
    assert getattr(Hazard.objects.get(pk=hazard.pk), field) == getattr(hazard, field)


def test_hazard_outside_the_catalogue_is_refused(revision, safety_engineer):
    with pytest.raises(ValidationError):
        services.hazard_add(
            revision=revision,
            actor=safety_engineer,
            **{**CRUSHING, "origin": "dragons"},
        )
    assert not revision.hazards.exists()


def test_hazard_tied_to_another_cells_layout_is_refused(
    revision, safety_engineer, project
):
    other = CellFactory(project=project)
    from tests.factories import OperatorStationFactory

    station = OperatorStationFactory(cell=other)
    with pytest.raises(ValidationError) as excinfo:
        services.hazard_add(
            revision=revision,
            actor=safety_engineer,
            location_key=f"station:{station.pk}",
            **CRUSHING,
        )
    assert "location_key" in excinfo.value.message_dict


def test_measure_linked_to_another_cells_device_is_refused(
    hazard, safety_engineer, project
):
    foreign = DeviceFactory(cell=CellFactory(project=project))
    with pytest.raises(ValidationError) as excinfo:
        services.measure_add(
            hazard=hazard,
            actor=safety_engineer,
            step="safeguarding",
            description="Light curtain",
            device=foreign,
        )
    assert "device" in excinfo.value.message_dict
    assert not hazard.measures.exists()


def test_measure_takes_the_devices_claimed_pl_and_the_hazards_plr(
    hazard, safety_engineer, cell
):
    curtain = DeviceFactory(cell=cell, label="LC1", claimed_pl="c")
    measure = services.measure_add(
        hazard=hazard,
        actor=safety_engineer,
        step="safeguarding",
        description="Light curtain at the infeed",
        device=curtain,
        is_safety_function=True,
    )
    assert measure.pl_claimed == "c"
    assert measure.plr_required == "d"  # S2 F2 P1 → PLr d
    assert measure.linked_label == "LC1"
    assert measure.pl_below_plr


def test_every_change_is_in_the_audit_trail_with_before_and_after(
    hazard, safety_engineer
):
    services.hazard_update(
        hazard=hazard, actor=safety_engineer, version=hazard.version, severity="S1"
    )
    entry = AuditEntry.objects.filter(object_type="hazard", action="update").get()
    assert entry.actor == safety_engineer
    assert entry.object_key == str(hazard.key)
    assert entry.before == {"severity": "S2"}
    assert entry.after == {"severity": "S1"}


def test_bulk_updates_are_audited_row_by_row(revision, hazard, safety_engineer):
    services.hazard_add(revision=revision, actor=safety_engineer, **CRUSHING)
    with audit.acting_as(safety_engineer):
        Hazard.objects.filter(revision=revision).update(low_probability=True)
    entries = AuditEntry.objects.filter(action="update", object_type="hazard")
    assert entries.count() == 2
    assert {e.after["low_probability"] for e in entries} == {True}
    assert {e.actor_id for e in entries} == {safety_engineer.pk}


def test_diff_shows_a_re_estimated_hazard_and_an_added_one(
    signed, hazard, safety_engineer
):
    second = services.revision_start_next(revision=signed, actor=safety_engineer)
    copied = second.hazards.get()
    services.hazard_update(
        hazard=copied, actor=safety_engineer, version=copied.version, avoidance="P2"
    )
    services.hazard_add(
        revision=second,
        actor=safety_engineer,
        **{**CRUSHING, "consequence": "impact", "task": "Teaching the pick point"},
    )
    changes = diff(
        selectors.revision_content(signed), selectors.revision_content(second)
    )
    assert [h.task for h in changes.of_kind("added")] == ["Teaching the pick point"]
    (re_estimated,) = changes.of_kind("re_estimated")
    assert re_estimated.key == str(hazard.key)
    assert [(f.field, f.before, f.after) for f in re_estimated.fields] == [
        ("avoidance", "P1", "P2")
    ]


def test_a_cell_with_a_signed_assessment_cannot_be_deleted(owner_client, signed, cell):
    from django.urls import reverse

    response = owner_client.post(
        reverse("cells:cell_delete", args=[cell.pk]), follow=True
    )
    assert "cannot be deleted" in response.text
    assert type(cell).objects.filter(pk=cell.pk).exists()


def test_a_guard_named_by_a_measure_is_kept(
    owner_client, hazard, safety_engineer, layout
):
    from django.urls import reverse

    segment = layout["segment"]
    services.measure_add(
        hazard=hazard,
        actor=safety_engineer,
        step="safeguarding",
        description="Fence F1",
        segment=segment,
    )
    url = reverse("cells:element_delete", args=[segment.cell_id, "segment", segment.pk])
    response = owner_client.post(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "unlink it there first" in response.text
    assert type(segment).objects.filter(pk=segment.pk).exists()


def test_api_refuses_to_delete_a_cell_with_a_signed_assessment(signed, cell, owner):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(owner)
    response = client.delete(f"/api/v1/cells/{cell.pk}/")
    assert response.status_code == 409
    assert type(cell).objects.filter(pk=cell.pk).exists()
