"""Tamper-evidence that holds against the database owner (issue 13): what
someone who can rewrite the tables does shows, because signed revisions and
the audit chain are sealed with a key the database does not hold; and the
guards the app's own paths meet (a signed assessment keeps its cell, a guard a
signed measure names keeps its cell, signing locks what it hashes)."""

from __future__ import annotations

import importlib
import itertools
import threading
from contextlib import contextmanager

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction
from rest_framework.test import APIClient

from compliance.assessment import content, integrity, selectors, services
from compliance.models import Assessment, AuditEntry, Hazard, Revision
from tests.compliance.conftest import sign_revision
from tests.factories import CellFactory, DeviceFactory

immutability = importlib.import_module(
    "compliance.migrations.0002_signed_revisions_are_immutable"
)

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the guard triggers beyond 0002's and row locks are PostgreSQL's",
)


@pytest.fixture
def signed(revision, hazard, safety_engineer, layout):
    """Revision 1 signed: the hazard at S2/F2/P1 (PLr d), fenced by F1."""
    services.measure_add(
        hazard=hazard,
        actor=safety_engineer,
        step="safeguarding",
        description="Fence F1",
        segment=layout["segment"],
    )
    return sign_revision(
        services.revision_submit(revision=revision, actor=safety_engineer),
        safety_engineer,
    )


@contextmanager
def as_the_owner_without_guards():
    """What the database owner can do and the app cannot: the guard triggers
    off (the owner may ALTER its tables; SQLite has no owner: the triggers
    are dropped), writes made, the triggers back on."""
    if connection.vendor == "postgresql":
        tables = [
            "compliance_revision",
            "compliance_hazard",
            "compliance_measure",
            "compliance_assessment",
            "compliance_auditentry",
            "cells_guardsegment",
        ]
        with connection.cursor() as cursor:
            # ALTER TABLE refuses while deferred foreign-key checks are queued.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for table in tables:
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        yield
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for table in tables:
                cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
    else:
        with connection.cursor() as cursor:
            for statement in immutability.SQLITE_REVERSE:
                cursor.execute(statement)
        yield
        with connection.cursor() as cursor:
            for statement in immutability.SQLITE:
                cursor.execute(statement)


def raw(statement: str, *params) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def verify() -> tuple[bool, str]:
    """``manage.py verify_integrity``: whether it passed, and what it said."""
    from io import StringIO

    out, err = StringIO(), StringIO()
    try:
        call_command("verify_integrity", stdout=out, stderr=err)
    except CommandError as exc:
        return False, err.getvalue() + str(exc)
    return True, out.getvalue()


def api_intact(user, revision) -> bool | None:
    client = APIClient()
    client.force_authenticate(user)
    response = client.get(f"/api/v1/revisions/{revision.pk}/")
    assert response.status_code == 200
    return response.data["intact"]


def test_signed_records_and_the_chain_verify(signed, owner):
    passed, said = verify()
    assert passed, said
    assert "Intact: 1 chains" in said
    assert api_intact(owner, signed) is True
    entries = list(AuditEntry.objects.order_by("sequence"))
    assert [e.sequence for e in entries] == list(range(1, len(entries) + 1))
    assert entries[0].previous_hash == integrity.GENESIS
    assert all(
        later.previous_hash == earlier.entry_hash
        for earlier, later in itertools.pairwise(entries)
    )
    (signing,) = [e for e in entries if e.action == "sign"]
    assert signing.after["seal"] == Revision.objects.get(pk=signed.pk).seal


def test_lowered_rehashed_and_moved_revision_is_detected(signed, hazard, owner):
    """The attack of issue 13: S2/F2/P1 lowered to S1/F1/P1, hashed again with
    the app's own function, the assessment moved to another cell, and no
    audit entry written. Without the key the seal cannot follow."""
    other_cell = CellFactory(project=signed.assessment.cell.project, name="Other")
    with as_the_owner_without_guards():
        raw(
            "UPDATE compliance_hazard SET severity = 'S1', frequency = 'F1' "
            "WHERE id = %s",
            hazard.pk,
        )
        rehashed = content.content_hash(
            selectors.revision_content(Revision.objects.get(pk=signed.pk))
        )
        raw(
            "UPDATE compliance_revision SET content_hash = %s WHERE id = %s",
            rehashed,
            signed.pk,
        )
        raw(
            "UPDATE compliance_assessment SET cell_id = %s WHERE id = %s",
            other_cell.pk,
            signed.assessment_id,
        )

    tampered = Revision.objects.get(pk=signed.pk)
    assert selectors.hazard_plr(Hazard.objects.get(pk=hazard.pk)) == "a"
    assert api_intact(owner, tampered) is False
    assert not services.revision_is_intact(tampered)
    passed, said = verify()
    assert not passed
    assert f"revision id {signed.pk}" in said
    assert "seal does not match" in said
    assert f"its cell is {other_cell.pk}, but was {signed.assessment.cell_id}" in said
    assert "its content hash is" in said


def test_a_seal_made_with_another_key_does_not_count(signed, settings):
    settings.INTEGRITY_KEY = "a key that is not the one the records were sealed with"
    assert not services.revision_is_intact(Revision.objects.get(pk=signed.pk))
    passed, said = verify()
    assert not passed
    assert "written without the key" in said


def test_a_changed_audit_entry_is_named(signed):
    entry = AuditEntry.objects.get(
        action="update", object_type="revision", after__status="signed"
    )
    with as_the_owner_without_guards():
        raw("UPDATE compliance_auditentry SET actor_id = NULL WHERE id = %s", entry.pk)
    passed, said = verify()
    assert not passed
    assert f"audit entry #{entry.sequence} (id {entry.pk}" in said
    assert "its seal does not match its content" in said


def test_a_removed_audit_entry_is_named(signed):
    entries = list(AuditEntry.objects.order_by("sequence"))
    gone = entries[2]
    with as_the_owner_without_guards():
        raw("DELETE FROM compliance_auditentry WHERE id = %s", gone.pk)
    passed, said = verify()
    assert not passed
    assert f"entries #{gone.sequence} before it are missing" in said


def test_a_signed_revision_unsigned_behind_the_app_is_named(signed):
    with as_the_owner_without_guards():
        raw(
            "UPDATE compliance_revision SET status = 'in_review', seal = '' "
            "WHERE id = %s",
            signed.pk,
        )
    passed, said = verify()
    assert not passed
    assert f"records as signed (id {signed.pk}) is gone or no longer signed" in said


def test_a_guard_moved_behind_the_app_is_named(signed, layout, owner):
    segment = layout["segment"]
    other_cell = CellFactory(project=signed.assessment.cell.project)
    with as_the_owner_without_guards():
        raw(
            "UPDATE cells_guardsegment SET cell_id = %s WHERE id = %s",
            other_cell.pk,
            segment.pk,
        )
    assert api_intact(owner, signed) is False
    passed, said = verify()
    assert not passed
    assert f"the segment id {segment.pk}" in said
    assert f"is now in cell {other_cell.pk}" in said


def test_a_signed_assessment_keeps_its_cell(signed, project):
    assessment = Assessment.objects.get(pk=signed.assessment_id)
    assessment.cell = CellFactory(project=project)
    with pytest.raises(ValidationError) as excinfo:
        assessment.full_clean()
    assert "cell" in excinfo.value.message_dict


def test_a_draft_assessment_may_move(revision, project):
    assessment = Assessment.objects.get(pk=revision.assessment_id)
    assessment.cell = CellFactory(project=project)
    assessment.full_clean()


@postgresql_only
def test_the_database_refuses_to_move_a_signed_assessment(signed, project):
    other = CellFactory(project=project)
    with (
        pytest.raises(IntegrityError, match="stays with its cell"),
        transaction.atomic(),
    ):
        Assessment.objects.filter(pk=signed.assessment_id).update(cell=other)


def test_a_guard_named_by_a_signed_measure_cannot_move(signed, layout, owner, project):
    segment = layout["segment"]
    other = CellFactory(project=project)
    client = APIClient()
    client.force_authenticate(owner)
    response = client.patch(
        f"/api/v1/guard-segments/{segment.pk}/", {"cell": other.pk}, format="json"
    )
    assert response.status_code == 400, response.data
    assert "cell" in response.data
    segment.refresh_from_db()
    assert segment.cell_id == signed.assessment.cell_id


@postgresql_only
def test_the_database_refuses_to_move_a_guard_or_device_a_signed_measure_names(
    signed, layout, project, hazard, safety_engineer
):
    other = CellFactory(project=project)
    segment = layout["segment"]
    with pytest.raises(IntegrityError, match="stays in its cell"), transaction.atomic():
        type(segment).objects.filter(pk=segment.pk).update(cell=other)

    # A device named by a measure of the next revision, once that is signed.
    device = DeviceFactory(cell=segment.cell)
    second = services.revision_start_next(revision=signed, actor=safety_engineer)
    services.measure_add(
        hazard=second.hazards.get(),
        actor=safety_engineer,
        step="safeguarding",
        description="Light curtain",
        device=device,
    )
    sign_revision(
        services.revision_submit(revision=second, actor=safety_engineer),
        safety_engineer,
    )
    with pytest.raises(IntegrityError, match="stays in its cell"), transaction.atomic():
        type(device).objects.filter(pk=device.pk).update(cell=other)


@postgresql_only
def test_the_database_refuses_to_change_or_delete_an_audit_entry(signed):
    entry = AuditEntry.objects.first()
    with pytest.raises(IntegrityError, match="never changed"), transaction.atomic():
        raw("UPDATE compliance_auditentry SET action = 'x' WHERE id = %s", entry.pk)
    with pytest.raises(IntegrityError, match="never changed"), transaction.atomic():
        raw("DELETE FROM compliance_auditentry WHERE id = %s", entry.pk)


def test_deleting_a_cell_keeps_its_audit_trail(owner_client, revision, hazard, cell):
    from django.urls import reverse

    kept = AuditEntry.objects.filter(assessment_id=revision.assessment_id).count()
    assert kept
    owner_client.post(reverse("cells:cell_delete", args=[cell.pk]))
    assert not type(cell).objects.filter(pk=cell.pk).exists()
    assert (
        AuditEntry.objects.filter(assessment_id=revision.assessment_id).count() == kept
    )
    passed, said = verify()
    assert passed, said


# Signing locks what it hashes ------------------------------------------------


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_an_edit_during_signing_waits_and_is_refused(
    revision, hazard, safety_engineer, monkeypatch
):
    """An edit made while the signer reads the content (the admin's, or any
    path that does not ask the revision first) must not be signed unseen:
    it waits for the signing's locks and is then refused."""
    submitted = services.revision_submit(revision=revision, actor=safety_engineer)
    signing_read, edit_done = threading.Event(), threading.Event()
    outcome: dict[str, object] = {}
    read_content = selectors.revision_content

    def content_read_slowly(which):
        found = read_content(which)
        # The read that is hashed: in the signing transaction, declaration made.
        if (
            threading.current_thread() is signer
            and selectors.declaration_of(which) is not None
        ):
            signing_read.set()
            edit_done.wait(timeout=2)  # the edit, if it is not held back
        return found

    monkeypatch.setattr(selectors, "revision_content", content_read_slowly)

    def sign() -> None:
        try:
            outcome["signed"] = sign_revision(submitted, safety_engineer)
        except Exception as exc:  # reported below
            outcome["sign_error"] = exc
        finally:
            connection.close()

    def edit() -> None:
        signing_read.wait(timeout=10)
        try:
            with transaction.atomic():
                Hazard.objects.filter(pk=hazard.pk).update(severity="S1")
            outcome["edited"] = True
        except IntegrityError as exc:
            outcome["edit_error"] = exc
        finally:
            edit_done.set()
            connection.close()

    signer = threading.Thread(target=sign)
    editor = threading.Thread(target=edit)
    signer.start()
    editor.start()
    signer.join(timeout=30)
    editor.join(timeout=30)

    assert "sign_error" not in outcome, outcome
    assert "edit_error" in outcome, "the edit went through while signing"
    assert Hazard.objects.get(pk=hazard.pk).severity == "S2"
    assert services.revision_is_intact(Revision.objects.get(pk=submitted.pk))


def test_the_history_shows_the_signing_with_its_seal(owner_client, signed, cell):
    from django.urls import reverse

    response = owner_client.get(reverse("compliance:history", args=[cell.pk]))
    assert "sealed the signature of revision 1" in response.text
    assert Revision.objects.get(pk=signed.pk).seal in response.text
