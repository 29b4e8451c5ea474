"""A cell may use several ISO/TS 15066 collaborative modes, each for its own
zone or task: the one ``collaborative_mode`` becomes the list
``collaborative_modes`` ("" → [], "pfl" → ["pfl"]; back: the first mode)."""

from django.db import migrations, models


def modes_from_mode(mode: str) -> list[str]:
    return [mode] if mode else []


def mode_from_modes(modes: list[str]) -> str:
    return modes[0] if modes else ""


def forwards(apps, schema_editor):
    Cell = apps.get_model("cells", "Cell")
    for cell in Cell.objects.exclude(collaborative_mode="").only("collaborative_mode"):
        cell.collaborative_modes = modes_from_mode(cell.collaborative_mode)
        cell.save(update_fields=["collaborative_modes"])


def backwards(apps, schema_editor):
    Cell = apps.get_model("cells", "Cell")
    for cell in Cell.objects.only("collaborative_modes"):
        mode = mode_from_modes(cell.collaborative_modes or [])
        if mode:
            cell.collaborative_mode = mode
            cell.save(update_fields=["collaborative_mode"])


class Migration(migrations.Migration):

    dependencies = [
        ("cells", "0008_cell_certificate"),
    ]

    operations = [
        migrations.AddField(
            model_name="cell",
            name="collaborative_modes",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text=(
                    "The modes the cell uses, each for its own zone or task; none "
                    "if it does not work collaboratively."
                ),
                verbose_name="collaborative modes (ISO/TS 15066)",
            ),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="cell", name="collaborative_mode"),
    ]
