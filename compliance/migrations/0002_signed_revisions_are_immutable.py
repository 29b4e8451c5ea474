"""The database refuses any change to a signed revision, its hazards and its
measures: updates, deletes and inserts, whether they come from the app, the
admin, a bulk update or raw SQL. Triggers on PostgreSQL (plpgsql) and SQLite.
"""

from __future__ import annotations

from django.db import migrations

MESSAGE = "signed risk-assessment revision cannot be changed"

POSTGRESQL = [
    f"""
CREATE OR REPLACE FUNCTION compliance_revision_guard() RETURNS trigger AS $$
BEGIN
  IF OLD.status = 'signed' THEN
    RAISE EXCEPTION '{MESSAGE} (revision id %)', OLD.id
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
""",
    """
CREATE TRIGGER compliance_revision_immutable
BEFORE UPDATE OR DELETE ON compliance_revision
FOR EACH ROW EXECUTE FUNCTION compliance_revision_guard();
""",
    f"""
CREATE OR REPLACE FUNCTION compliance_hazard_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND EXISTS (
      SELECT 1 FROM compliance_revision WHERE id = OLD.revision_id AND status = 'signed')
  OR TG_OP <> 'DELETE' AND EXISTS (
      SELECT 1 FROM compliance_revision WHERE id = NEW.revision_id AND status = 'signed')
  THEN
    RAISE EXCEPTION '{MESSAGE} (hazard)' USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
""",
    """
CREATE TRIGGER compliance_hazard_immutable
BEFORE INSERT OR UPDATE OR DELETE ON compliance_hazard
FOR EACH ROW EXECUTE FUNCTION compliance_hazard_guard();
""",
    f"""
CREATE OR REPLACE FUNCTION compliance_measure_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND EXISTS (
      SELECT 1 FROM compliance_hazard h JOIN compliance_revision r ON r.id = h.revision_id
      WHERE h.id = OLD.hazard_id AND r.status = 'signed')
  OR TG_OP <> 'DELETE' AND EXISTS (
      SELECT 1 FROM compliance_hazard h JOIN compliance_revision r ON r.id = h.revision_id
      WHERE h.id = NEW.hazard_id AND r.status = 'signed')
  THEN
    RAISE EXCEPTION '{MESSAGE} (measure)' USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
""",
    """
CREATE TRIGGER compliance_measure_immutable
BEFORE INSERT OR UPDATE OR DELETE ON compliance_measure
FOR EACH ROW EXECUTE FUNCTION compliance_measure_guard();
""",
]

POSTGRESQL_REVERSE = [
    "DROP TRIGGER IF EXISTS compliance_measure_immutable ON compliance_measure;",
    "DROP TRIGGER IF EXISTS compliance_hazard_immutable ON compliance_hazard;",
    "DROP TRIGGER IF EXISTS compliance_revision_immutable ON compliance_revision;",
    "DROP FUNCTION IF EXISTS compliance_measure_guard();",
    "DROP FUNCTION IF EXISTS compliance_hazard_guard();",
    "DROP FUNCTION IF EXISTS compliance_revision_guard();",
]

_SIGNED_REVISION = "(SELECT status FROM compliance_revision WHERE id = {0}) = 'signed'"
_SIGNED_HAZARD = (
    "(SELECT r.status FROM compliance_hazard h JOIN compliance_revision r "
    "ON r.id = h.revision_id WHERE h.id = {0}) = 'signed'"
)


def _sqlite_trigger(name: str, when: str, table: str, condition: str) -> str:
    return (
        f"CREATE TRIGGER {name} BEFORE {when} ON {table} WHEN {condition} "
        f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;"
    )


SQLITE = [
    _sqlite_trigger(
        "compliance_revision_no_update", "UPDATE", "compliance_revision", "OLD.status = 'signed'"
    ),
    _sqlite_trigger(
        "compliance_revision_no_delete", "DELETE", "compliance_revision", "OLD.status = 'signed'"
    ),
    _sqlite_trigger(
        "compliance_hazard_no_insert",
        "INSERT",
        "compliance_hazard",
        _SIGNED_REVISION.format("NEW.revision_id"),
    ),
    _sqlite_trigger(
        "compliance_hazard_no_update",
        "UPDATE",
        "compliance_hazard",
        f"{_SIGNED_REVISION.format('OLD.revision_id')} OR "
        f"{_SIGNED_REVISION.format('NEW.revision_id')}",
    ),
    _sqlite_trigger(
        "compliance_hazard_no_delete",
        "DELETE",
        "compliance_hazard",
        _SIGNED_REVISION.format("OLD.revision_id"),
    ),
    _sqlite_trigger(
        "compliance_measure_no_insert",
        "INSERT",
        "compliance_measure",
        _SIGNED_HAZARD.format("NEW.hazard_id"),
    ),
    _sqlite_trigger(
        "compliance_measure_no_update",
        "UPDATE",
        "compliance_measure",
        f"{_SIGNED_HAZARD.format('OLD.hazard_id')} OR {_SIGNED_HAZARD.format('NEW.hazard_id')}",
    ),
    _sqlite_trigger(
        "compliance_measure_no_delete",
        "DELETE",
        "compliance_measure",
        _SIGNED_HAZARD.format("OLD.hazard_id"),
    ),
]

SQLITE_REVERSE = [
    f"DROP TRIGGER IF EXISTS {name};"
    for name in (
        "compliance_revision_no_update",
        "compliance_revision_no_delete",
        "compliance_hazard_no_insert",
        "compliance_hazard_no_update",
        "compliance_hazard_no_delete",
        "compliance_measure_no_insert",
        "compliance_measure_no_update",
        "compliance_measure_no_delete",
    )
]


def sqlite_triggers_lifted(*operations):
    """Schema changes wrapped so that SQLite can rebuild these tables.

    SQLite rebuilds a table to alter it, and a trigger naming a table that is
    briefly gone breaks the rebuild: later migrations that alter the revision,
    hazard or measure tables put their operations inside this.
    """
    return [
        migrations.RunPython(_run({"sqlite": SQLITE_REVERSE}), _run({"sqlite": SQLITE})),
        *operations,
        migrations.RunPython(_run({"sqlite": SQLITE}), _run({"sqlite": SQLITE_REVERSE})),
    ]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            # No parameters: "%" in plpgsql is not a placeholder.
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("compliance", "0001_initial")]

    operations = [
        migrations.RunPython(
            _run({"postgresql": POSTGRESQL, "sqlite": SQLITE}),
            _run({"postgresql": POSTGRESQL_REVERSE, "sqlite": SQLITE_REVERSE}),
        )
    ]
