"""Signing freezes more with the declaration: the robot's safety configuration
assessed, the fingerprint of the cell as assessed, and the rules the findings
were computed under (issue 17); a proposal version records the rules it was
computed under.

The new columns are nullable without a default, so both databases add them in
place: no row is rewritten, and SQLite does not rebuild the declaration table
(which would drop its triggers, 0008). Declarations made before have NULL in
each, which the content hash leaves out, so their revisions verify as before.
The SQLite triggers of 0008 are laid again afterwards all the same, as 0008
asks of a migration that alters its table.
"""

import importlib

from django.db import migrations, models

immutability = importlib.import_module(
    "compliance.migrations.0002_signed_revisions_are_immutable"
)
declarations = importlib.import_module(
    "compliance.migrations.0008_signature_declaration"
)


class Migration(migrations.Migration):

    dependencies = [
        ("compliance", "0015_proposal_notes"),
    ]

    operations = [
        migrations.AddField(
            model_name="proposaldocument",
            name="computed_under",
            field=models.JSONField(
                blank=True, editable=False, null=True, verbose_name="rules computed under"
            ),
        ),
        migrations.AddField(
            model_name="signaturedeclaration",
            name="cell_fingerprint",
            field=models.CharField(
                blank=True,
                max_length=16,
                null=True,
                verbose_name="fingerprint of the cell assessed",
            ),
        ),
        migrations.AddField(
            model_name="signaturedeclaration",
            name="computed_under",
            field=models.JSONField(
                blank=True, null=True, verbose_name="rules the findings were computed under"
            ),
        ),
        migrations.AddField(
            model_name="signaturedeclaration",
            name="safety_configuration",
            field=models.JSONField(
                blank=True, null=True, verbose_name="robot safety configuration assessed"
            ),
        ),
        migrations.RunPython(
            immutability._run(
                {"sqlite": [*declarations.SQLITE_REVERSE, *declarations.SQLITE]}
            ),
            migrations.RunPython.noop,
        ),
    ]
