"""Drop the table of DRF's old API tokens (issue 13).

API tokens are django-rest-knox's now, kept as SHA-512 digests; DRF's
``authtoken_token`` held every token in plain text and nothing reads it any
more. IF EXISTS: a database made after the change never had it. Its rows in
``django_migrations`` go too, so that the app, if it were ever installed
again, would make its table afresh. Going back restores nothing: the old
tokens are not wanted back.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("cells", "0014_opening_no_overlap"),
    ]

    operations = [
        migrations.RunSQL(
            sql=[
                "DROP TABLE IF EXISTS authtoken_token",
                "DELETE FROM django_migrations WHERE app = 'authtoken'",
            ],
            reverse_sql=migrations.RunSQL.noop,
        ),
    ]
