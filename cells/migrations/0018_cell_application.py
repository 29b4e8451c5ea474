# Issue 15: the cell records its application; the task type (the sim-to-real
# class) is derived from it (cells.applications) and no longer stored. Each
# existing row gets the application its task type stood for.

from django.db import migrations, models

# Frozen here, as they were when this migration was written: the code's
# mappings (cells.applications) may change later, this conversion may not.
APPLICATION_FOR_TASK_TYPE = {
    "structured_pick_place": "pick_and_place",
    "contact_rich_manipulation": "assembly",
    "mobile_locomotion": "mobile_manipulation",
}
# Back: the old task type with the same sim-first maturity (the process
# applications were planned as contact-rich: simulation an evaluation aid).
TASK_TYPE_FOR_APPLICATION = {
    "palletising": "structured_pick_place",
    "machine_tending": "structured_pick_place",
    "arc_welding": "contact_rich_manipulation",
    "spot_welding": "contact_rich_manipulation",
    "dispensing": "contact_rich_manipulation",
    "painting": "contact_rich_manipulation",
    "assembly": "contact_rich_manipulation",
    "inspection": "structured_pick_place",
    "pick_and_place": "structured_pick_place",
    "grinding": "contact_rich_manipulation",
    "lab_automation": "structured_pick_place",
    "mobile_manipulation": "mobile_locomotion",
}


def application_for(task_type: str) -> str:
    """The application an old row's task type stood for (an unknown value, as
    before applications, counts as structured pick-and-place)."""
    return APPLICATION_FOR_TASK_TYPE.get(task_type, "pick_and_place")


def task_type_for(application: str) -> str:
    return TASK_TYPE_FOR_APPLICATION.get(application, "structured_pick_place")


def forwards(apps, schema_editor):
    Cell = apps.get_model("cells", "Cell")
    # One UPDATE per old task type, whatever the number of cells.
    for task_type in Cell.objects.values_list("task_type", flat=True).distinct():
        Cell.objects.filter(task_type=task_type).update(
            application=application_for(task_type)
        )


def backwards(apps, schema_editor):  # run by 0019, backwards
    Cell = apps.get_model("cells", "Cell")
    for application in Cell.objects.values_list("application", flat=True).distinct():
        Cell.objects.filter(application=application).update(
            task_type=task_type_for(application)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("cells", "0017_layout_image"),
    ]

    operations = [
        migrations.AddField(
            model_name="cell",
            name="application",
            field=models.CharField(
                choices=[
                    ("palletising", "Palletising and depalletising"),
                    ("machine_tending", "Machine tending"),
                    ("arc_welding", "Arc welding"),
                    ("spot_welding", "Spot welding"),
                    ("dispensing", "Dispensing and gluing"),
                    ("painting", "Painting"),
                    ("assembly", "Assembly and screwdriving"),
                    ("inspection", "Inspection and testing"),
                    ("pick_and_place", "Pick-and-place and packaging"),
                    ("grinding", "Deburring and grinding"),
                    ("lab_automation", "Laboratory automation"),
                    ("mobile_manipulation", "Mobile manipulation"),
                ],
                default="pick_and_place",
                help_text=(
                    "What the cell does. The hazards proposed for it and how far "
                    "simulation can carry its task follow from it."
                ),
                max_length=30,
                verbose_name="application",
            ),
        ),
        # Back, the rows get their task type in 0019 (where the column is
        # added again), not here: a data change and a column dropped in one
        # transaction is what PostgreSQL refuses.
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
