"""Issue 17's migrations over rows: cells 0020 and compliance 0016."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection


@pytest.mark.django_db(transaction=True)
def test_issue_17_migrations_run_over_rows_and_keep_declarations_guarded(
    cell, revision, hazard, safety_engineer
):
    """Cells 0020 and compliance 0016 (editions, planned start, the robot's
    safety configuration, EU conformity, the ISO 13855:2024 figures, what a
    declaration freezes) over a database with a signed revision: back and
    forth, the rows keep their values, the new columns their defaults, and
    the database still refuses to change a declaration (on SQLite the
    triggers of 0008 are laid again)."""
    from django.db import IntegrityError, transaction
    from django.db.migrations.executor import MigrationExecutor

    from cells.models import Cell, Device, Project
    from compliance.assessment import services
    from compliance.assessment.models import SignatureDeclaration
    from tests.compliance.conftest import sign_revision
    from tests.factories import DeviceFactory

    DeviceFactory(cell=cell, label="LC1", response_time_ms=20)
    signed = sign_revision(
        services.revision_submit(revision=revision, actor=safety_engineer),
        safety_engineer,
    )
    before = [
        ("cells", "0019_cell_application_checked"),
        ("compliance", "0015_proposal_notes"),
    ]
    after = [
        ("cells", "0020_editions_jurisdictions_safety_configuration"),
        ("compliance", "0016_declaration_freezes_configuration_and_rules"),
    ]
    try:
        MigrationExecutor(connection).migrate(before)
        MigrationExecutor(connection).migrate(after)
    finally:
        call_command("migrate", verbosity=0)

    project = Project.objects.get(pk=cell.project_id)
    assert (project.standard_editions, project.planned_start) == ({}, None)
    assert project.editions["iso13855"] == "2010"  # Korea's default
    stored = Cell.objects.get(pk=cell.pk)
    assert (stored.name, stored.safety_config_kind, stored.safety_rated_limits) == (
        cell.name,
        "",
        False,
    )
    assert stored.harmonised_standards is None
    device = Device.objects.get(cell=cell)
    assert (device.response_time_ms, device.supplement_z_mm) == (20, None)
    declaration = SignatureDeclaration.objects.get(revision=signed)
    assert declaration.computed_under is None  # dropped and added again
    with pytest.raises(IntegrityError), transaction.atomic():
        SignatureDeclaration.objects.filter(pk=declaration.pk).update(
            statement="changed"
        )
    _forget_signed_rows()


def _forget_signed_rows() -> None:
    """The flush after a transactional test deletes rows; on SQLite the
    triggers refuse that for what is signed: lift them, delete, lay them
    again (PostgreSQL's flush truncates, which row triggers do not see)."""
    import importlib

    from compliance.assessment.models import Assessment

    if connection.vendor != "sqlite":
        return
    immutability = importlib.import_module(
        "compliance.migrations.0002_signed_revisions_are_immutable"
    )
    declarations = importlib.import_module(
        "compliance.migrations.0008_signature_declaration"
    )
    lifted = [*immutability.SQLITE_REVERSE, *declarations.SQLITE_REVERSE]
    laid = [*immutability.SQLITE, *declarations.SQLITE]
    with connection.cursor() as cursor:
        for statement in lifted:
            cursor.execute(statement)
    Assessment.objects.all().delete()
    with connection.cursor() as cursor:
        for statement in laid:
            cursor.execute(statement)
