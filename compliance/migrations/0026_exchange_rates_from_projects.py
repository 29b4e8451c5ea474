"""The rates a project had entered become dated exchange rates of its
organisation (issue 29), before the project's own fields go (cells 0025):
one record per currency, valid from the date the project gave its rates (or
the day the project was made), its source naming the project. A record the
organisation already has for that currency and day is kept; of two projects
with the same, the first made wins."""

from django.db import migrations
from django.utils import timezone

SOURCE = "Entered on project %s"
FIELDS = {"KRW": "krw_per_usd", "EUR": "eur_per_usd"}


def copy_project_rates(apps, schema_editor):
    Project = apps.get_model("cells", "Project")
    ExchangeRate = apps.get_model("compliance", "ExchangeRate")
    taken = set(
        ExchangeRate.objects.values_list("organisation_id", "currency", "valid_from")
    )
    for project in Project.objects.order_by("pk"):
        day = project.rates_date or timezone.localtime(project.created_at).date()
        for currency, field in FIELDS.items():
            value = getattr(project, field)
            # The project's form refused a rate at or below zero; a row that
            # has one anyway is no rate.
            if value is None or value <= 0:
                continue
            key = (project.organisation_id, currency, day)
            if key in taken:
                continue
            taken.add(key)
            ExchangeRate.objects.create(
                organisation_id=project.organisation_id,
                currency=currency,
                units_per_usd=value,
                valid_from=day,
                source=(SOURCE % project.name)[:200],
                created_by_id=project.created_by_id,
            )


class Migration(migrations.Migration):
    dependencies = [
        ("cells", "0024_row_versions"),
        ("compliance", "0025_supplier_quotes_exchange_rates"),
    ]

    # Going back leaves the organisation's records (the project's fields come
    # back empty with cells 0025 reversed).
    operations = [
        migrations.RunPython(copy_project_rates, migrations.RunPython.noop),
    ]
