"""Seed the device library of every existing organisation with the starting
entries (fixtures/device_library.json), read by the library's pure loader.

Organisations created later are seeded where they are created (the
``create_organisation`` and ``seed_demo`` commands), and an editor can add
missing starting entries from the library page. Idempotent: an entry whose
key an organisation's library has already is left as it is. Reversing
removes only the starting entries still marked as the reference's.
"""

from django.db import migrations


def seed(apps, schema_editor):
    from compliance.safety_functions.library.catalogue import load_entries

    Organisation = apps.get_model("cells", "Organisation")
    LibraryDevice = apps.get_model("compliance", "LibraryDevice")
    # Only the fields this migration's model has: the loader may learn more.
    names = {field.name for field in LibraryDevice._meta.concrete_fields}
    entries = load_entries()
    for organisation in Organisation.objects.all():
        present = set(
            LibraryDevice.objects.filter(organisation=organisation).values_list(
                "key", flat=True
            )
        )
        LibraryDevice.objects.bulk_create(
            [
                LibraryDevice(
                    organisation=organisation,
                    from_reference=True,
                    **{k: v for k, v in entry.as_fields().items() if k in names},
                )
                for entry in entries
                if entry.key not in present
            ],
            ignore_conflicts=True,
        )


def unseed(apps, schema_editor):
    from compliance.safety_functions.library.catalogue import load_entries

    LibraryDevice = apps.get_model("compliance", "LibraryDevice")
    keys = [entry.key for entry in load_entries()]
    LibraryDevice.objects.filter(key__in=keys, from_reference=True).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("cells", "0011_device_library_device"),
        ("compliance", "0009_safety_functions"),
    ]

    operations = [migrations.RunPython(seed, unseed)]
