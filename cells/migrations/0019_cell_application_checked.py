# Issue 15, second step: the old task type column goes and the application
# is checked by the database. Apart from 0018 so that, on PostgreSQL, the rows
# updated there are committed before this ALTER TABLE (in one transaction an
# update's pending trigger events forbid it).

import importlib

from django.db import migrations, models

# Back: each row's task type from its application (0018's mapping, frozen
# there), once the column is there again.
backwards = importlib.import_module("cells.migrations.0018_cell_application").backwards


class Migration(migrations.Migration):
    dependencies = [
        ("cells", "0018_cell_application"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, backwards),
        migrations.RemoveField(
            model_name="cell",
            name="task_type",
        ),
        migrations.AddConstraint(
            model_name="cell",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "application__in",
                        [
                            "palletising",
                            "machine_tending",
                            "arc_welding",
                            "spot_welding",
                            "dispensing",
                            "painting",
                            "assembly",
                            "inspection",
                            "pick_and_place",
                            "grinding",
                            "lab_automation",
                            "mobile_manipulation",
                        ],
                    )
                ),
                name="cell_application_valid",
            ),
        ),
    ]
