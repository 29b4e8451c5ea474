"""An organisation's labour rates and its default work per plan activity."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from cells.models import Organisation
from compliance.costs.models import CURRENCY_CHOICES, not_negative
from compliance.plan.inputs import WORK_NAMES
from compliance.plan.labour.costing import PER_NAMES, ROLE_NAMES, UNIT_NAMES

ROLE_CHOICES = [(key, _(name)) for key, name in ROLE_NAMES.items()]
UNIT_CHOICES = [(key, _(name)) for key, name in UNIT_NAMES.items()]
ACTIVITY_CHOICES = [(key, _(name)) for key, name in WORK_NAMES.items()]
PER_CHOICES = [(key, _(name)) for key, name in PER_NAMES.items()]


class LabourRate(models.Model):
    """The organisation's rate of one role, per hour or per day, from
    ``valid_from`` (until ``valid_until`` when given): a figure, or a range
    when it depends on who does the work. A plan costs an activity's effort
    with the latest rate of its role valid on the plan's day."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="labour_rates"
    )
    role = models.CharField(_("role"), max_length=30, choices=ROLE_CHOICES)
    unit = models.CharField(_("unit"), max_length=4, choices=UNIT_CHOICES)
    rate_low = models.DecimalField(_("rate from"), max_digits=14, decimal_places=2)
    rate_high = models.DecimalField(_("rate to"), max_digits=14, decimal_places=2)
    currency = models.CharField(_("currency"), max_length=3, choices=CURRENCY_CHOICES)
    valid_from = models.DateField(_("valid from"))
    valid_until = models.DateField(_("valid until"), null=True, blank=True)
    source = models.CharField(_("source"), max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["role", "unit", "-valid_from"]
        verbose_name = _("labour rate")
        verbose_name_plural = _("labour rates")
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "role", "unit", "valid_from"],
                name="labour_rate_one_per_day",
            ),
            models.CheckConstraint(
                condition=Q(rate_low__gt=0) & Q(rate_high__gte=F("rate_low")),
                name="labour_rate_ordered",
            ),
            models.CheckConstraint(
                condition=Q(valid_until__isnull=True)
                | Q(valid_until__gte=F("valid_from")),
                name="labour_rate_validity_ordered",
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.role} {self.currency} {self.rate_low}-{self.rate_high}/{self.unit}"
        )


class WorkDefault(models.Model):
    """The organisation's default work for one activity of the plan: an effort
    of one role (hours or days, for the activity or per safety function), or
    a fee (``role`` blank). An activity may have several, one per role, and a
    fee; its cost is their sum. A cell's own entry replaces them."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="work_defaults"
    )
    activity = models.CharField(_("activity"), max_length=60, choices=ACTIVITY_CHOICES)
    role = models.CharField(_("role"), max_length=30, blank=True, choices=ROLE_CHOICES)
    unit = models.CharField(_("unit"), max_length=4, blank=True, choices=UNIT_CHOICES)
    per = models.CharField(
        _("counted"), max_length=20, default="activity", choices=PER_CHOICES
    )
    effort_low = models.DecimalField(
        _("effort from"), max_digits=8, decimal_places=1, null=True, blank=True
    )
    effort_high = models.DecimalField(
        _("effort to"), max_digits=8, decimal_places=1, null=True, blank=True
    )
    fee_low = models.DecimalField(
        _("fee from"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    fee_high = models.DecimalField(
        _("fee to"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    currency = models.CharField(
        _("currency"), max_length=3, blank=True, choices=CURRENCY_CHOICES
    )
    source = models.CharField(_("source"), max_length=200)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["activity", "role"]
        verbose_name = _("default work of an activity")
        verbose_name_plural = _("default work of activities")
        constraints = [
            # One effort per role and one fee (role blank) per activity.
            models.UniqueConstraint(
                fields=["organisation", "activity", "role"],
                name="work_default_one_per_role",
            ),
            models.CheckConstraint(
                condition=not_negative(
                    "effort_low", "effort_high", "fee_low", "fee_high"
                ),
                name="work_default_not_negative",
            ),
            # An effort (a role, a unit, both ends) or a fee (both ends and a
            # currency), never both or neither.
            models.CheckConstraint(
                condition=(
                    ~Q(role="")
                    & ~Q(unit="")
                    & Q(effort_low__isnull=False)
                    & Q(effort_high__gte=F("effort_low"))
                    & Q(fee_low__isnull=True)
                    & Q(fee_high__isnull=True)
                )
                | (
                    Q(role="")
                    & Q(effort_low__isnull=True)
                    & Q(effort_high__isnull=True)
                    & Q(fee_low__isnull=False)
                    & Q(fee_high__gte=F("fee_low"))
                    & ~Q(currency="")
                ),
                name="work_default_effort_or_fee",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.activity} {self.role or 'fee'}"
