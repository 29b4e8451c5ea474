"""Guarding concepts of a cell: the same robot and task with different
guarding (fenced, collaborative without a fence, ...), compared side by side.

The cell as drawn is the first concept. Each other concept's guarding lives in
a cell of its own (``Cell.variant_of``: its guards, openings, devices,
stations, modes), judged, priced and scheduled by the same engine as any cell,
with the drawn cell's risk assessment (``compliance.rules.inputs``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cells.models import Cell


class ConceptKind(models.TextChoices):
    AS_DRAWN = "as_drawn", _("As drawn")
    FENCED = "fenced", _("Fenced")
    COLLABORATIVE = "collaborative", _("Collaborative, no fence")
    SSM = "ssm", _("Speed and separation monitoring")
    HYBRID = "hybrid", _("Hybrid")
    COPY = "copy", _("Copy")


class GuardingConcept(models.Model):
    """One guarding concept of a cell: its design (``variant``: a cell of its
    own; None for the cell as drawn, or for a concept not offered), why it was
    designed so or why it is not offered (``reasons``: message ids with their
    values, rendered when read), and which version of the drawn cell it was
    designed from."""

    cell = models.ForeignKey(
        Cell, on_delete=models.CASCADE, related_name="concepts", verbose_name=_("cell")
    )
    variant = models.OneToOneField(
        Cell,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="concept",
        verbose_name=_("design"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=ConceptKind.choices)
    position = models.PositiveSmallIntegerField(_("position"), default=0)
    offered = models.BooleanField(_("offered"), default=True)
    # [{"text": message id, "values": {...}}]: Line objects as JSON.
    reasons = models.JSONField(_("reasons"), default=list, blank=True)
    # The drawn cell's design when this one was made from it (a digest of its
    # exchange document): a different one now says the cell changed since.
    base_version = models.CharField(_("drawn cell's version"), max_length=64)
    chosen = models.BooleanField(_("chosen"), default=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )

    class Meta:
        ordering = ("cell", "position", "id")
        verbose_name = _("guarding concept")
        verbose_name_plural = _("guarding concepts")
        constraints = [
            models.UniqueConstraint(
                fields=["cell"],
                condition=Q(chosen=True),
                name="one_chosen_concept_per_cell",
            ),
            models.UniqueConstraint(
                fields=["cell", "kind"],
                condition=~Q(kind="copy"),
                name="one_concept_of_each_kind_per_cell",
            ),
        ]

    def __str__(self) -> str:
        return str(self.get_kind_display())

    @property
    def design(self) -> Cell:
        """The cell that holds this concept's guarding."""
        return self.variant if self.variant_id else self.cell
