"""The declaration a safety engineer makes in signing a revision, kept as
immutable as the revision it signs: the database refuses to change or delete
a declaration. Triggers on PostgreSQL (plpgsql) and SQLite, as in 0002.

A declaration is written in the signing transaction just before the revision
is marked signed; PostgreSQL also refuses to add one to a revision already
signed. SQLite does not: a trigger body that names ``compliance_revision``
would break every later rebuild of that table (SQLite rebuilds a table to
alter it, and 0002's ``sqlite_triggers_lifted`` lifts only 0002's triggers),
so the SQLite triggers here name no other table. A declaration added to a
signed revision afterwards still shows: the revision's content hash covers its
declaration, so the revision no longer matches its signature.

SQLite drops a table's triggers with the table when it rebuilds it: a later
migration that alters the declaration table must run ``SQLITE`` again after.
"""

import django.db.models.deletion
import importlib
from django.conf import settings
from django.db import migrations, models

immutability = importlib.import_module(
    "compliance.migrations.0002_signed_revisions_are_immutable"
)

MESSAGE = immutability.MESSAGE
TABLE = "compliance_signaturedeclaration"

POSTGRESQL = [
    f"""
CREATE OR REPLACE FUNCTION compliance_declaration_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' OR EXISTS (
      SELECT 1 FROM compliance_revision WHERE id = NEW.revision_id AND status = 'signed')
  THEN
    RAISE EXCEPTION '{MESSAGE} (declaration)'
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
""",
    f"""
CREATE TRIGGER compliance_declaration_immutable
BEFORE INSERT OR UPDATE OR DELETE ON {TABLE}
FOR EACH ROW EXECUTE FUNCTION compliance_declaration_guard();
""",
]

POSTGRESQL_REVERSE = [
    f"DROP TRIGGER IF EXISTS compliance_declaration_immutable ON {TABLE};",
    "DROP FUNCTION IF EXISTS compliance_declaration_guard();",
]

SQLITE = [
    f"CREATE TRIGGER {name} BEFORE {when} ON {TABLE} "
    f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;"
    for name, when in (
        ("compliance_declaration_no_update", "UPDATE"),
        ("compliance_declaration_no_delete", "DELETE"),
    )
]

SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS compliance_declaration_no_update;",
    "DROP TRIGGER IF EXISTS compliance_declaration_no_delete;",
]


class Migration(migrations.Migration):

    dependencies = [
        ("compliance", "0007_hazard_contact"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="SignatureDeclaration",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("signer_name", models.CharField(max_length=150, verbose_name="signed by")),
                ("signed_at", models.DateTimeField(verbose_name="signed")),
                ("statement", models.TextField(verbose_name="statement")),
                ("language", models.CharField(blank=True, max_length=10, verbose_name="language")),
                ("findings", models.JSONField(default=list, verbose_name="open findings at signing")),
                ("revision", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="declaration", to="compliance.revision")),
                ("signer", models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "verbose_name": "signature declaration",
                "verbose_name_plural": "signature declarations",
            },
        ),
        migrations.RunPython(
            immutability._run({"postgresql": POSTGRESQL, "sqlite": SQLITE}),
            immutability._run(
                {"postgresql": POSTGRESQL_REVERSE, "sqlite": SQLITE_REVERSE}
            ),
        ),
    ]
