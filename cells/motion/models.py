"""A robot program imported into a cell (issue 32). Found by Django through
``cells.models``; the reading itself is pure (``cells.motion.reading``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cells.models.cell import Cell

# Programs one cell keeps: a cobot cell runs a handful (one per product).
MAX_PROGRAMS_PER_CELL = 10


class ProgramFormat(models.TextChoices):
    CSV = "csv", _("CSV waypoints")
    URSCRIPT = "urscript", "URScript"
    RAPID = "rapid", "ABB RAPID"
    KRL = "krl", "KUKA KRL"


class MotionProgram(models.Model):
    """A motion program of the cell's robot as the robot programmer wrote it:
    the file kept unchanged (its checksum says so), who imported it and
    when, and how it was read. Its path is drawn on the plan from the
    robot base's position and rotation, and judged segment by segment
    where people are (``compliance.calculators.ts15066_path``)."""

    cell = models.ForeignKey(
        Cell,
        on_delete=models.CASCADE,
        related_name="motion_programs",
        verbose_name=_("cell"),
    )
    file_name = models.CharField(_("file name"), max_length=255)
    format = models.CharField(_("format"), max_length=10, choices=ProgramFormat.choices)
    # For CSV: the coordinates' units when the header does not say them.
    units = models.CharField(_("units"), max_length=4, blank=True)
    data = models.BinaryField(_("file"), editable=False)
    sha256 = models.CharField(_("SHA-256"), max_length=64, editable=False)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("imported by"),
    )
    imported_at = models.DateTimeField(_("imported at"), auto_now_add=True)
    # Read once, on import (``cells.motion.reading``), in the robot's base
    # frame: the path's straight pieces [line, x1, y1, z1, x2, y2, z2, speed
    # or None, kind] in mm and mm/s, and the lines not checked and skipped
    # [line, reason, text]. The file above is what they were read from.
    segments = models.JSONField(_("segments"), default=list, editable=False)
    not_checked = models.JSONField(_("lines not checked"), default=list, editable=False)
    skipped = models.JSONField(_("lines skipped"), default=list, editable=False)
    move_count = models.PositiveIntegerField(_("moves"), default=0, editable=False)

    class Meta:
        ordering = ["cell_id", "imported_at", "id"]
        verbose_name = _("motion program")
        verbose_name_plural = _("motion programs")
        constraints = [
            models.CheckConstraint(
                condition=Q(format__in=ProgramFormat.values),
                name="motion_program_format_valid",
            ),
            models.CheckConstraint(
                condition=Q(units__in=["", "mm", "m"]),
                name="motion_program_units_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.file_name
