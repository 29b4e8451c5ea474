"""The underlay of a cell's plan: the lines of an imported CAD drawing that
are not guarding (the hall's walls, columns, conveyors), kept to draw behind
the layout. Found by Django through ``cells.models``."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from cells.exchange import COORDINATE_LIMIT_MM
from cells.layout_dxf.layers import MAX_UNDERLAY_LINES
from cells.models.bounds import PolygonOnThePlan
from cells.models.cell import Cell


class LayoutUnderlay(models.Model):
    """The background of a cell's plan, from the DXF drawing last imported
    into it: straight lines in plan millimetres, shown faintly and never
    read by a finding (a verdict rests on the guard segments drawn). A new
    import replaces it."""

    cell = models.OneToOneField(
        Cell,
        on_delete=models.CASCADE,
        related_name="underlay",
        verbose_name=_("cell"),
    )
    # [[x1, y1, x2, y2], ...] in mm.
    lines = models.JSONField(_("lines"), default=list)
    source_name = models.CharField(_("imported from"), max_length=255, blank=True)
    imported_at = models.DateTimeField(_("imported at"), auto_now=True)

    class Meta:
        verbose_name = _("layout underlay")
        verbose_name_plural = _("layout underlays")
        constraints = [
            # A list of lists of numbers, as a polygon's corners are: the same
            # check bounds how many (on SQLite) and, on PostgreSQL, every
            # figure of every line to the plan's 100 m.
            models.CheckConstraint(
                condition=PolygonOnThePlan(
                    "lines",
                    max_corners=MAX_UNDERLAY_LINES,
                    limit_mm=COORDINATE_LIMIT_MM,
                ),
                name="underlay_lines_on_the_plan",
            ),
        ]

    def __str__(self) -> str:
        return self.source_name or str(_("underlay"))

    def clean(self) -> None:
        lines = self.lines
        if not isinstance(lines, list) or len(lines) > MAX_UNDERLAY_LINES:
            raise ValidationError(
                {
                    "lines": _("At most %(limit)s lines.")
                    % {"limit": f"{MAX_UNDERLAY_LINES:,}"}
                }
            )
        for line in lines:
            if not (
                isinstance(line, list)
                and len(line) == 4
                and all(
                    isinstance(v, int)
                    and not isinstance(v, bool)
                    and abs(v) <= COORDINATE_LIMIT_MM
                    for v in line
                )
            ):
                raise ValidationError(
                    {
                        "lines": _(
                            "Each line is [x1, y1, x2, y2] in whole millimetres "
                            "within 100 m of the origin."
                        )
                    }
                )


# Layer names an organisation's mapping remembers; past it the oldest go.
MAX_REMEMBERED_LAYERS = 500
LAYER_NAME_MAX_LENGTH = 255


MAPPING_TARGETS = [
    ("fence", _("Fence")),
    ("wall", _("Wall")),
    ("machine_body", _("Machine body")),
    ("door", _("Door opening")),
    ("underlay", _("Underlay")),
    ("ignore", _("Left out")),
]


class DxfLayerMapping(models.Model):
    """What an organisation's DXF layer of a given name became at its last
    import ("A-ZAUN" → fence): offered first at its next import, before the
    guess from the name. Names are kept as the drawing spelled them and
    compared without regard to case (``layer_key``)."""

    organisation = models.ForeignKey(
        "cells.Organisation",
        on_delete=models.CASCADE,
        related_name="dxf_layer_mappings",
        verbose_name=_("organisation"),
    )
    layer_name = models.CharField(_("layer"), max_length=LAYER_NAME_MAX_LENGTH)
    layer_key = models.CharField(max_length=LAYER_NAME_MAX_LENGTH, editable=False)
    target = models.CharField(_("becomes"), max_length=20, choices=MAPPING_TARGETS)
    updated_at = models.DateTimeField(_("last used"), auto_now=True)

    class Meta:
        verbose_name = _("DXF layer mapping")
        verbose_name_plural = _("DXF layer mappings")
        ordering = ["organisation_id", "layer_key"]
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "layer_key"], name="dxf_layer_mapping_once"
            ),
            models.CheckConstraint(
                condition=models.Q(target__in=[t for t, _label in MAPPING_TARGETS]),
                name="dxf_layer_mapping_target_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.layer_name} → {self.get_target_display()}"
