"""An organisation's supplier quotes, row by row, and how each row is
matched to what the cost lines buy."""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from cells.models import Organisation
from compliance.costs.models import CURRENCY_CHOICES
from compliance.safety_functions.models import LibraryDevice


class SupplierQuote(models.Model):
    """One quote a supplier gave the organisation: who, its number, when it
    was given and until when it holds. Importing the same supplier's quote
    number again replaces its rows (``quotes.services``)."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="supplier_quotes"
    )
    supplier = models.CharField(_("supplier"), max_length=120)
    number = models.CharField(_("quote number"), max_length=60)
    quoted_on = models.DateField(_("quote date"))
    valid_until = models.DateField(_("valid until"), null=True, blank=True)
    file_name = models.CharField(_("file"), max_length=200, blank=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    imported_at = models.DateTimeField(_("imported"), auto_now=True)
    # Raised by every import over it (issue 28).
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)

    class Meta:
        ordering = ["-quoted_on", "-pk"]
        verbose_name = _("supplier quote")
        verbose_name_plural = _("supplier quotes")
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "supplier", "number"],
                name="supplier_quote_unique_number",
            ),
            models.CheckConstraint(
                condition=Q(valid_until__isnull=True)
                | Q(valid_until__gte=F("quoted_on")),
                name="supplier_quote_valid_after_date",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.supplier} {self.number}"

    def expired_on(self, day: date) -> bool:
        """Whether the quote no longer holds on ``day``."""
        return self.valid_until is not None and self.valid_until < day


class MatchedBy(models.TextChoices):
    """How a quote's row was matched to what the cost lines buy."""

    PART_NUMBER = "part_number", _("part number")
    MODEL = "model", _("model")
    KIND = "kind", _("kind")
    PERSON = "person", _("confirmed by a person")
    NONE = "none", _("not matched")


class QuoteRow(models.Model):
    """One item of a supplier's quote: what it is, its unit price (one figure
    or a range) in the quote's currency, the minimum order and the lead time;
    and what it was matched to: a device of the library and the catalogue
    entry whose cost lines it prices."""

    quote = models.ForeignKey(
        SupplierQuote, on_delete=models.CASCADE, related_name="rows"
    )
    row = models.PositiveIntegerField(_("row in the file"))
    kind = models.CharField(_("item kind"), max_length=60, blank=True)
    maker = models.CharField(_("maker"), max_length=80, blank=True)
    part_number = models.CharField(_("part number"), max_length=80, blank=True)
    model = models.CharField(_("model"), max_length=120, blank=True)
    description = models.CharField(_("description"), max_length=300, blank=True)
    unit = models.CharField(
        _("unit"),
        max_length=5,
        choices=[("piece", _("piece")), ("m", _("m")), ("job", _("job"))],
    )
    price_low = models.DecimalField(
        _("unit price from"), max_digits=14, decimal_places=2
    )
    price_high = models.DecimalField(
        _("unit price to"), max_digits=14, decimal_places=2
    )
    currency = models.CharField(_("currency"), max_length=3, choices=CURRENCY_CHOICES)
    minimum_order = models.DecimalField(
        _("minimum order quantity"),
        max_digits=12,
        decimal_places=2,
        null=True,
        blank=True,
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
    # What it prices: the catalogue entry (its cost lines), and the library
    # device when the row names one.
    catalogue_key = models.CharField(_("catalogue entry"), max_length=60, blank=True)
    library_device = models.ForeignKey(
        LibraryDevice,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("library device"),
    )
    matched_by = models.CharField(
        _("matched by"), max_length=12, choices=MatchedBy.choices, default="none"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["quote", "row"]
        verbose_name = _("quote row")
        verbose_name_plural = _("quote rows")
        constraints = [
            models.UniqueConstraint(fields=["quote", "row"], name="quote_row_unique"),
            models.CheckConstraint(
                condition=Q(price_low__gte=0) & Q(price_high__gte=F("price_low")),
                name="quote_row_price_range",
            ),
            models.CheckConstraint(
                condition=(
                    Q(lead_time_weeks_low__isnull=True) | Q(lead_time_weeks_low__gte=0)
                )
                & (Q(minimum_order__isnull=True) | Q(minimum_order__gt=0)),
                name="quote_row_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.part_number or self.model or self.description or self.kind
