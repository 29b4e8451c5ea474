"""A validation record keeps the function it was recorded for (issue 27).

Records made before hold for no version the app can name: they are left
empty, so they count as recorded for an earlier version of their function
(kept, shown, and the test performed again), never as evidence for the
function as it is now."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("compliance", "0018_proposal_preview"),
    ]

    operations = [
        migrations.AddField(
            model_name="validationrecord",
            name="function_fingerprint",
            field=models.CharField(
                blank=True,
                editable=False,
                max_length=64,
                verbose_name="function recorded for",
            ),
        ),
    ]
