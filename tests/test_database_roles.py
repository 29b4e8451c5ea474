"""The app's PostgreSQL role (config/database_roles.py) reads and writes rows
and nothing more: it cannot truncate, alter, disable or drop a trigger,
replace a guard function, switch triggers off for its session, or change or
delete an audit entry; and the app works as it.

The tests run as the role that owns the test database (``.ci/run``: the owner
role, which is a member of the app role; locally perhaps a superuser), grant
the app role its rights in the test database as ``manage.py db_roles grant``
does, and act as it with ``SET LOCAL ROLE``: all of it is rolled back with
the test's transaction.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import ProgrammingError, connection, transaction

from compliance.assessment import services
from compliance.models import AuditEntry, Revision
from config import database_roles
from tests.compliance.conftest import CRUSHING, sign_revision

APP_ROLE = "csp_app"

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="database roles are PostgreSQL's: SQLite has none",
)


def _fetch(sql: str, *params):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


@pytest.fixture
def as_app(db):
    """The rest of the test runs as the app role, with the rights it is given."""
    (superuser,) = _fetch("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
    if _fetch("SELECT 1 FROM pg_roles WHERE rolname = %s", APP_ROLE) is None:
        if not superuser:
            pytest.skip(f"no role {APP_ROLE}: run `manage.py db_roles create` first")
        with connection.cursor() as cursor:
            cursor.execute(f"CREATE ROLE {APP_ROLE} NOLOGIN")
    (member,) = _fetch("SELECT pg_has_role(current_user, %s, 'MEMBER')", APP_ROLE)
    if not member:
        pytest.skip(f"this role cannot act as {APP_ROLE} (db_roles create --for-tests)")
    with connection.cursor() as cursor:
        database_roles.grant_app(cursor, app=APP_ROLE)
        cursor.execute(f"SET LOCAL ROLE {APP_ROLE}")
    yield
    with connection.cursor() as cursor:
        cursor.execute("RESET ROLE")


def refused(statement: str, *params) -> None:
    with (
        pytest.raises(ProgrammingError, match=r"permission denied|must be owner"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement, params)


def test_the_app_role_owns_nothing_and_has_no_special_rights(as_app):
    assert _fetch("SELECT current_user") == (APP_ROLE,)
    assert _fetch(
        "SELECT rolsuper, rolcreatedb, rolcreaterole, rolbypassrls FROM pg_roles "
        "WHERE rolname = current_user"
    ) == (False, False, False, False)
    assert _fetch(
        "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' "
        "AND tableowner = current_user"
    ) == (0,)
    assert _fetch(
        "SELECT bool_or(has_table_privilege(current_user, c.oid, 'TRUNCATE')) "
        "OR bool_or(has_table_privilege(current_user, c.oid, 'TRIGGER')) "
        "OR bool_or(has_table_privilege(current_user, c.oid, 'REFERENCES')) "
        "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = 'public' AND c.relkind = 'r'"
    ) == (False,)


@pytest.mark.parametrize(
    "statement",
    [
        "TRUNCATE compliance_revision CASCADE",
        "TRUNCATE compliance_auditentry",
        "ALTER TABLE compliance_revision DISABLE TRIGGER compliance_revision_immutable",
        "ALTER TABLE compliance_hazard DISABLE TRIGGER USER",
        "DROP TRIGGER compliance_measure_immutable ON compliance_measure",
        "DROP TRIGGER compliance_auditentry_append_only ON compliance_auditentry",
        "SET session_replication_role = replica",
        "CREATE OR REPLACE FUNCTION compliance_revision_guard() RETURNS trigger "
        "AS $$ BEGIN RETURN NEW; END $$ LANGUAGE plpgsql",
        "CREATE FUNCTION compliance_anything() RETURNS int AS $$ SELECT 1 $$ "
        "LANGUAGE sql",
        "ALTER FUNCTION compliance_revision_guard() RENAME TO compliance_gone",
        "ALTER TABLE compliance_revision ADD COLUMN note text",
        "CREATE TABLE compliance_shadow (id int)",
        "DROP TABLE compliance_auditentry",
        "INSERT INTO django_migrations (app, name, applied) "
        "VALUES ('compliance', '9999_forged', now())",
        "DELETE FROM django_migrations",
    ],
)
def test_the_app_role_cannot_lift_the_guards(as_app, statement):
    refused(statement)


def test_the_app_role_cannot_change_or_delete_audit_entries(
    cell, safety_engineer, as_app
):
    services.assessment_open(cell=cell, actor=safety_engineer)
    entry = AuditEntry.objects.get()
    refused("UPDATE compliance_auditentry SET action = 'x' WHERE id = %s", entry.pk)
    refused("DELETE FROM compliance_auditentry WHERE id = %s", entry.pk)
    with (
        pytest.raises(ProgrammingError, match="permission denied"),
        transaction.atomic(),
    ):
        AuditEntry.objects.filter(pk=entry.pk).delete()


def test_the_app_works_as_the_app_role(cell, segment, safety_engineer, as_app):
    """Open, edit, submit, sign, start the next revision, delete a hazard of
    it: every write the assessment makes, and the chain that records them."""
    revision = services.assessment_open(cell=cell, actor=safety_engineer)
    revision = services.revision_update_limits(
        revision=revision,
        actor=safety_engineer,
        version=revision.version,
        intended_use="Palletising",
        foreseeable_misuse="Reaching in",
        time_limits="20 years",
        exposed_persons=["operators"],
    )
    hazard = services.hazard_add(
        revision=revision,
        actor=safety_engineer,
        severity="S2",
        frequency="F2",
        avoidance="P1",
        # Signing needs the residual risk estimated too (issue 27).
        residual_severity="S2",
        residual_frequency="F1",
        residual_avoidance="P1",
        **CRUSHING,
    )
    services.measure_add(
        hazard=hazard,
        actor=safety_engineer,
        step="safeguarding",
        description="Fence F1",
        segment=segment,
    )
    signed = sign_revision(
        services.revision_submit(revision=revision, actor=safety_engineer),
        safety_engineer,
    )
    assert services.revision_is_intact(Revision.objects.get(pk=signed.pk))
    second = services.revision_start_next(revision=signed, actor=safety_engineer)
    services.hazard_delete(hazard=second.hazards.get(), actor=safety_engineer)

    call_command("verify_integrity")  # raises on a break
