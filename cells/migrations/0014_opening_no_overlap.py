"""On PostgreSQL, no two openings of one segment overlap, whoever writes them
(issue 13): an exclusion constraint on the segment and the opening's span
along it, [offset, offset + width), so openings that only touch are kept.

The services lock the segment and check first, so that the app answers with
the field named; this is what holds when two writes race past any check, or
a write comes from outside the app. SQLite has no exclusion constraints; it
takes one write transaction at a time (transaction_mode IMMEDIATE). The
constraint lives only in the database, not in the models' state.
"""

from django.db import migrations

CONSTRAINT = "opening_no_overlap"


def add_exclusion(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    # btree_gist lets a GiST index compare the segment id with "=".
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS btree_gist")
    schema_editor.execute(
        f"ALTER TABLE cells_opening ADD CONSTRAINT {CONSTRAINT} EXCLUDE USING gist "
        "(segment_id WITH =, int4range(offset_mm, offset_mm + width_mm) WITH &&)"
    )


def drop_exclusion(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        f"ALTER TABLE cells_opening DROP CONSTRAINT IF EXISTS {CONSTRAINT}"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("cells", "0013_bounds"),
    ]

    operations = [
        migrations.RunPython(add_exclusion, drop_exclusion),
    ]
