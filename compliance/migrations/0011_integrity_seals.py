"""Tamper-evidence that holds against the database owner (issue 13), part 1:
the columns. A signed revision gets a seal (HMAC-SHA256 under the server's
key), each audit entry its place in its organisation's chain and its seal.

Audit entries no longer cascade or get nulled: the trail outlives the
assessment and organisation it names (no database constraint on those two),
and a person who acted cannot be deleted (PROTECT: deactivate them). So the
app never updates or deletes an entry, and its database role may not
(``config/database_roles.py``). 0012 seals what exists; 0013 makes the chain
required and adds the PostgreSQL guards.
"""

import importlib

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

immutability = importlib.import_module(
    "compliance.migrations.0002_signed_revisions_are_immutable"
)


class Migration(migrations.Migration):
    dependencies = [
        ("cells", "0011_device_library_device"),
        ("compliance", "0010_seed_device_library"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        *immutability.sqlite_triggers_lifted(
            migrations.AddField(
                model_name="revision",
                name="seal",
                field=models.CharField(
                    blank=True, max_length=64, verbose_name="seal (HMAC-SHA256)"
                ),
            ),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="sequence",
            field=models.PositiveBigIntegerField(editable=False, null=True),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="previous_hash",
            field=models.CharField(default="", editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="auditentry",
            name="entry_hash",
            field=models.CharField(
                default="",
                editable=False,
                max_length=64,
                verbose_name="seal (HMAC-SHA256)",
            ),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="actor",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="assessment",
            field=models.ForeignKey(
                db_constraint=False,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="audit_entries",
                to="compliance.assessment",
            ),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="organisation",
            field=models.ForeignKey(
                db_constraint=False,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="cells.organisation",
            ),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="at",
            field=models.DateTimeField(
                db_index=True, default=django.utils.timezone.now, editable=False
            ),
        ),
    ]
