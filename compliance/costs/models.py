"""What an organisation and its users change about costs: edits of a cell's
derived cost lines, lines of one's own, and the organisation's catalogue
figures (price, lead time, source and date)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cells.models import Cell, Organisation


class LineItemEdit(models.Model):
    """The user's edit of one derived cost line of a cell: a quantity or a
    quoted price. The line itself is derived afresh from the findings."""

    cell = models.ForeignKey(
        Cell, on_delete=models.CASCADE, related_name="line_item_edits"
    )
    key = models.CharField(max_length=120)
    quantity = models.DecimalField(
        max_digits=12, decimal_places=2, null=True, blank=True
    )
    price_low = models.DecimalField(
        max_digits=14, decimal_places=2, null=True, blank=True
    )
    price_high = models.DecimalField(
        max_digits=14, decimal_places=2, null=True, blank=True
    )
    currency = models.CharField(
        max_length=3,
        blank=True,
        choices=[("KRW", "KRW"), ("USD", "USD"), ("EUR", "EUR")],
    )
    source = models.CharField(_("source of the price"), max_length=200, blank=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)
    # Raised by every save of the row: a save that names the version it read
    # is refused when another saved since (``costs.services``, issue 28).
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)

    class Meta:
        verbose_name = _("cost line edit")
        verbose_name_plural = _("cost line edits")
        constraints = [
            models.UniqueConstraint(
                fields=["cell", "key"], name="line_edit_unique_key"
            ),
            models.CheckConstraint(
                condition=(Q(quantity__isnull=True) | Q(quantity__gte=0))
                & (Q(price_low__isnull=True) | Q(price_low__gte=0))
                & (Q(price_high__isnull=True) | Q(price_high__gte=0)),
                name="line_edit_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.key


_NOT_NEGATIVE = (
    "quantity",
    "price_low",
    "price_high",
    "lead_time_weeks_low",
    "lead_time_weeks_high",
)


CURRENCY_CHOICES = [("KRW", "KRW"), ("USD", "USD"), ("EUR", "EUR")]


def not_negative(*fields: str) -> Q:
    condition = Q()
    for field in fields:
        condition &= Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__gte": 0})
    return condition


class CustomLineItem(models.Model):
    """A cost line the user adds by hand to a cell's plan (a device or a
    service the findings do not derive), with the user's own price."""

    cell = models.ForeignKey(
        Cell, on_delete=models.CASCADE, related_name="custom_line_items"
    )
    description = models.CharField(_("description"), max_length=200)
    category = models.CharField(
        _("category"),
        max_length=10,
        choices=[
            ("device", _("device")),
            ("guarding", _("guarding")),
            ("service", _("service")),
        ],
        default="device",
    )
    quantity = models.DecimalField(_("quantity"), max_digits=12, decimal_places=2)
    unit = models.CharField(
        _("unit"),
        max_length=5,
        choices=[("piece", _("piece")), ("m", _("m")), ("job", _("job"))],
        default="piece",
    )
    price_low = models.DecimalField(
        _("unit price from"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    price_high = models.DecimalField(
        _("unit price to"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    currency = models.CharField(
        _("currency"), max_length=3, blank=True, choices=CURRENCY_CHOICES
    )
    lead_time_weeks_low = models.DecimalField(
        _("lead time from (weeks)"),
        max_digits=6,
        decimal_places=1,
        null=True,
        blank=True,
    )
    lead_time_weeks_high = models.DecimalField(
        _("lead time to (weeks)"),
        max_digits=6,
        decimal_places=1,
        null=True,
        blank=True,
    )
    source = models.CharField(_("source of the price"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Raised by every save of the row: a save that names the version it read
    # is refused when another saved since (``costs.services``, issue 28).
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("custom cost line")
        verbose_name_plural = _("custom cost lines")
        constraints = [
            models.CheckConstraint(
                condition=not_negative(*_NOT_NEGATIVE),
                name="custom_line_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.description

    @property
    def key(self) -> str:
        return f"custom-{self.pk}"


class CatalogueEdit(models.Model):
    """An organisation's own price or lead time for one entry of the starting
    catalogue (``compliance.costs.catalogue``), with its source and date. It
    replaces the starting figures in every cell of the organisation."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="catalogue_edits"
    )
    key = models.CharField(max_length=60)
    price_low = models.DecimalField(
        _("unit price from"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    price_high = models.DecimalField(
        _("unit price to"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    currency = models.CharField(
        _("currency"), max_length=3, blank=True, choices=CURRENCY_CHOICES
    )
    price_date = models.DateField(_("price date"), null=True, blank=True)
    lead_time_weeks_low = models.DecimalField(
        _("lead time from (weeks)"),
        max_digits=6,
        decimal_places=1,
        null=True,
        blank=True,
    )
    lead_time_weeks_high = models.DecimalField(
        _("lead time to (weeks)"),
        max_digits=6,
        decimal_places=1,
        null=True,
        blank=True,
    )
    source = models.CharField(_("source"), max_length=200)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)
    # Raised by every save of the row: a save that names the version it read
    # is refused when another saved since (``costs.services``, issue 28).
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)

    class Meta:
        verbose_name = _("catalogue entry edit")
        verbose_name_plural = _("catalogue entry edits")
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "key"], name="catalogue_edit_unique_key"
            ),
            models.CheckConstraint(
                condition=not_negative(*_NOT_NEGATIVE[1:]),
                name="catalogue_edit_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.key


class ExchangeRate(models.Model):
    """A dated exchange rate the organisation uses, with where it comes from:
    units of ``currency`` per 1 USD from ``valid_from`` until the next rate
    of the same currency. A proposal converts with the rate valid on its
    date; there is never a default rate."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="exchange_rates"
    )
    currency = models.CharField(
        _("currency"),
        max_length=3,
        choices=[c for c in CURRENCY_CHOICES if c[0] != "USD"],
    )
    units_per_usd = models.DecimalField(
        _("units per 1 USD"), max_digits=18, decimal_places=6
    )
    valid_from = models.DateField(_("valid from"))
    source = models.CharField(_("source"), max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)

    class Meta:
        ordering = ["currency", "-valid_from"]
        verbose_name = _("exchange rate")
        verbose_name_plural = _("exchange rates")
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "currency", "valid_from"],
                name="exchange_rate_one_per_day",
            ),
            models.CheckConstraint(
                condition=Q(units_per_usd__gt=0), name="exchange_rate_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.units_per_usd} {self.currency}/USD ({self.valid_from})"
