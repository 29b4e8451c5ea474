"""The underlay of a cell's plan (issue 14, DXF in and out): the other lines
of the DXF drawing last imported into the cell, one row per cell."""

import cells.models.bounds
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('cells', '0015_drop_authtoken_token'),
    ]

    operations = [
        migrations.CreateModel(
            name='LayoutUnderlay',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('lines', models.JSONField(default=list, verbose_name='lines')),
                ('source_name', models.CharField(blank=True, max_length=255, verbose_name='imported from')),
                ('imported_at', models.DateTimeField(auto_now=True, verbose_name='imported at')),
                ('cell', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='underlay', to='cells.cell', verbose_name='cell')),
            ],
            options={
                'verbose_name': 'layout underlay',
                'verbose_name_plural': 'layout underlays',
                'constraints': [models.CheckConstraint(condition=cells.models.bounds.PolygonOnThePlan('lines', limit_mm=100000, max_corners=5000), name='underlay_lines_on_the_plan')],
            },
        ),
    ]
