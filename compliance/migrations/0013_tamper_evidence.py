"""Tamper-evidence, part 3: every audit entry has its place in its
organisation's chain, every signed revision a seal, and on PostgreSQL the
database refuses

- any change to or deletion of an audit entry;
- moving an assessment that has a signed revision to another cell;
- moving a device or guard segment that a signed revision's measure names to
  another cell.

These guards are PostgreSQL's only. On SQLite a trigger that names another
table breaks every later rebuild of that table (see 0002), and the row
deletes of a test's flush would meet an append-only trigger; there the
services and ``clean()`` refuse the moves, and the seals show any change made
around them. The app's PostgreSQL role can neither disable nor replace these
triggers (``config/database_roles.py``); the owner can, which the seals are
for.
"""

import importlib

from django.db import migrations, models

immutability = importlib.import_module(
    "compliance.migrations.0002_signed_revisions_are_immutable"
)

MESSAGE = immutability.MESSAGE

POSTGRESQL = [
    """
CREATE OR REPLACE FUNCTION compliance_auditentry_guard() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'audit entries are never changed or deleted (entry id %)', OLD.id
    USING ERRCODE = 'integrity_constraint_violation';
END $$ LANGUAGE plpgsql;
""",
    """
CREATE TRIGGER compliance_auditentry_append_only
BEFORE UPDATE OR DELETE ON compliance_auditentry
FOR EACH ROW EXECUTE FUNCTION compliance_auditentry_guard();
""",
    f"""
CREATE OR REPLACE FUNCTION compliance_assessment_guard() RETURNS trigger AS $$
BEGIN
  IF NEW.cell_id IS DISTINCT FROM OLD.cell_id AND EXISTS (
      SELECT 1 FROM compliance_revision
      WHERE assessment_id = OLD.id AND status = 'signed')
  THEN
    RAISE EXCEPTION '{MESSAGE} (assessment id %: it stays with its cell)', OLD.id
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
""",
    """
CREATE TRIGGER compliance_assessment_keeps_cell
BEFORE UPDATE ON compliance_assessment
FOR EACH ROW EXECUTE FUNCTION compliance_assessment_guard();
""",
    # TG_ARGV[0] names the measure's column that points at the row.
    f"""
CREATE OR REPLACE FUNCTION compliance_linked_element_guard() RETURNS trigger AS $$
BEGIN
  IF NEW.cell_id IS DISTINCT FROM OLD.cell_id AND EXISTS (
      SELECT 1 FROM compliance_measure m
      JOIN compliance_hazard h ON h.id = m.hazard_id
      JOIN compliance_revision r ON r.id = h.revision_id
      WHERE r.status = 'signed'
        AND CASE TG_ARGV[0] WHEN 'device' THEN m.device_id = OLD.id
                            ELSE m.segment_id = OLD.id END)
  THEN
    RAISE EXCEPTION '{MESSAGE} (a signed measure names this %, id %: it stays in its cell)',
      TG_ARGV[0], OLD.id
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
""",
    """
CREATE TRIGGER compliance_device_keeps_cell
BEFORE UPDATE ON cells_device
FOR EACH ROW EXECUTE FUNCTION compliance_linked_element_guard('device');
""",
    """
CREATE TRIGGER compliance_segment_keeps_cell
BEFORE UPDATE ON cells_guardsegment
FOR EACH ROW EXECUTE FUNCTION compliance_linked_element_guard('segment');
""",
]

POSTGRESQL_REVERSE = [
    "DROP TRIGGER IF EXISTS compliance_segment_keeps_cell ON cells_guardsegment;",
    "DROP TRIGGER IF EXISTS compliance_device_keeps_cell ON cells_device;",
    "DROP FUNCTION IF EXISTS compliance_linked_element_guard();",
    "DROP TRIGGER IF EXISTS compliance_assessment_keeps_cell ON compliance_assessment;",
    "DROP FUNCTION IF EXISTS compliance_assessment_guard();",
    "DROP TRIGGER IF EXISTS compliance_auditentry_append_only ON compliance_auditentry;",
    "DROP FUNCTION IF EXISTS compliance_auditentry_guard();",
]


class Migration(migrations.Migration):
    dependencies = [("compliance", "0012_seal_existing_records")]

    operations = [
        migrations.AlterField(
            model_name="auditentry",
            name="sequence",
            field=models.PositiveBigIntegerField(editable=False),
        ),
        migrations.AddConstraint(
            model_name="auditentry",
            constraint=models.UniqueConstraint(
                fields=("organisation", "sequence"), name="auditentry_chain_sequence"
            ),
        ),
        *immutability.sqlite_triggers_lifted(
            migrations.AddConstraint(
                model_name="revision",
                constraint=models.CheckConstraint(
                    condition=~models.Q(status="signed") | ~models.Q(seal=""),
                    name="revision_signed_has_seal",
                ),
            ),
        ),
        migrations.RunPython(
            immutability._run({"postgresql": POSTGRESQL}),
            immutability._run({"postgresql": POSTGRESQL_REVERSE}),
        ),
    ]
