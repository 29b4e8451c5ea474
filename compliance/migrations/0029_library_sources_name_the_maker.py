"""The starting device library's sources name the maker's document, not the
repository and file a public compilation of it was read in (issue 30): the
rows seeded from fixtures/device_library.json before, changed the same way.
An organisation's own wording is left as it is."""

from django.db import migrations

OLD = (
    ", as compiled by TomPodlena/plc-studio (components.json), which cites the "
    "maker's document; that document was not read here"
)
NEW = (
    " from the maker's data, as reproduced in a public compilation of component "
    "safety figures that cites the maker's document; the maker's document itself "
    "was not read"
)


def forwards(apps, schema_editor):
    LibraryDevice = apps.get_model("compliance", "LibraryDevice")
    for row in LibraryDevice.objects.filter(data_source__endswith=OLD):
        row.data_source = row.data_source.replace(OLD, NEW)[:300]
        row.save(update_fields=["data_source"])


def backwards(apps, schema_editor):
    LibraryDevice = apps.get_model("compliance", "LibraryDevice")
    for row in LibraryDevice.objects.filter(data_source__endswith=NEW):
        row.data_source = row.data_source.replace(NEW, OLD)[:300]
        row.save(update_fields=["data_source"])


class Migration(migrations.Migration):
    dependencies = [("compliance", "0028_work_activity_names")]

    operations = [migrations.RunPython(forwards, backwards)]
