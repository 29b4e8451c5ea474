"""The project's own figures for the PoC plan's activities."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from cells.models import Cell
from compliance.costs.models import CURRENCY_CHOICES, not_negative
from compliance.plan.labour.models import PER_CHOICES, ROLE_CHOICES, UNIT_CHOICES


class PlanAssumption(models.Model):
    """The project's own figure for one activity of the PoC plan, replacing
    the assumption default: its duration in weeks and, optionally, its cost."""

    cell = models.ForeignKey(
        Cell, on_delete=models.CASCADE, related_name="plan_assumptions"
    )
    key = models.CharField(max_length=60)
    weeks_low = models.DecimalField(
        _("weeks from"), max_digits=6, decimal_places=1, null=True, blank=True
    )
    weeks_high = models.DecimalField(
        _("weeks to"), max_digits=6, decimal_places=1, null=True, blank=True
    )
    cost_low = models.DecimalField(
        _("cost from"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    cost_high = models.DecimalField(
        _("cost to"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    currency = models.CharField(
        _("currency"), max_length=3, blank=True, choices=CURRENCY_CHOICES
    )
    # The work the activity takes in this project: an effort of one role,
    # costed at the organisation's rate (replacing its default work for the
    # activity); a cost entered above replaces it in turn.
    role = models.CharField(_("role"), max_length=30, blank=True, choices=ROLE_CHOICES)
    effort_unit = models.CharField(
        _("effort unit"), max_length=4, blank=True, choices=UNIT_CHOICES
    )
    effort_per = models.CharField(
        _("counted"), max_length=20, default="activity", choices=PER_CHOICES
    )
    effort_low = models.DecimalField(
        _("effort from"), max_digits=8, decimal_places=1, null=True, blank=True
    )
    effort_high = models.DecimalField(
        _("effort to"), max_digits=8, decimal_places=1, null=True, blank=True
    )
    source = models.CharField(_("source"), max_length=200, blank=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)
    # Raised by every save of the row: a save that names the version it read
    # is refused when another saved since (``plan.services``, issue 28).
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)

    class Meta:
        verbose_name = _("plan assumption")
        verbose_name_plural = _("plan assumptions")
        constraints = [
            models.UniqueConstraint(
                fields=["cell", "key"], name="plan_assumption_unique_key"
            ),
            models.CheckConstraint(
                condition=not_negative(
                    "weeks_low",
                    "weeks_high",
                    "cost_low",
                    "cost_high",
                    "effort_low",
                    "effort_high",
                ),
                name="plan_assumption_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.key
