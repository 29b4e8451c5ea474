"""Writes of an organisation's exchange rates: adding a dated rate with its
source, and deleting one. Bad input raises a ``ValidationError`` naming the
field and saves nothing; only an editor of the organisation may write.

A rate is never changed in place: a new rate from a later day replaces it
for the proposals of that day on, and one entered by mistake is deleted,
so that a proposal's date always finds the rate it was converted with."""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from cells.models import Organisation
from cells.permissions import require_edit
from compliance.costs.models import ExchangeRate

CURRENCIES = tuple(
    code for code, _label in ExchangeRate._meta.get_field("currency").choices
)
# Units of a currency per 1 USD, above zero and below this: the rates the app
# prices in (KRW about 1,400, EUR about 0.9) with room to spare, and a typo
# of a few extra digits refused rather than stored.
MAX_UNITS_PER_USD = Decimal(100_000)
DECIMAL_PLACES = ExchangeRate._meta.get_field("units_per_usd").decimal_places
SOURCE_LENGTH = ExchangeRate._meta.get_field("source").max_length

__all__ = [
    "MAX_UNITS_PER_USD",
    "exchange_rate_add",
    "exchange_rate_delete",
    "require_edit",
]


def _units(value) -> Decimal:
    try:
        units = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        units = None
    if units is None or not units.is_finite():
        raise ValidationError({"units_per_usd": _("Enter a number.")})
    if units <= 0:
        raise ValidationError(
            {"units_per_usd": _("An exchange rate must be above zero.")}
        )
    if units >= MAX_UNITS_PER_USD:
        raise ValidationError(
            {
                "units_per_usd": _(
                    "An exchange rate must be below %(max)s units per 1 USD."
                )
                % {"max": f"{MAX_UNITS_PER_USD:,}"}
            }
        )
    if units != units.quantize(Decimal(1).scaleb(-DECIMAL_PLACES)):
        raise ValidationError(
            {
                "units_per_usd": _(
                    "Give the rate to at most %(places)s decimal places."
                )
                % {"places": DECIMAL_PLACES}
            }
        )
    return units


@transaction.atomic
def exchange_rate_add(
    *,
    organisation: Organisation,
    actor,
    currency: str,
    units_per_usd: Decimal,
    valid_from: date,
    source: str,
) -> ExchangeRate:
    """A new rate of ``organisation``: ``units_per_usd`` of ``currency`` per
    1 USD from ``valid_from``, with where it comes from."""
    require_edit(actor, organisation.pk)
    if currency not in CURRENCIES:
        raise ValidationError(
            {
                "currency": _("Choose one of %(currencies)s.")
                % {"currencies": ", ".join(CURRENCIES)}
            }
        )
    units = _units(units_per_usd)
    if not isinstance(valid_from, date):
        raise ValidationError(
            {"valid_from": _("Enter the day the rate is valid from.")}
        )
    source = (source or "").strip()
    if not source:
        raise ValidationError(
            {"source": _("Say where the rate comes from (a bank, a contract, a date).")}
        )
    if len(source) > SOURCE_LENGTH:
        raise ValidationError(
            {"source": _("At most %(count)s characters.") % {"count": SOURCE_LENGTH}}
        )
    taken = _(
        "There is already a %(currency)s rate valid from that day: delete it "
        "first, or give another day."
    ) % {"currency": currency}
    if ExchangeRate.objects.filter(
        organisation=organisation, currency=currency, valid_from=valid_from
    ).exists():
        raise ValidationError({"valid_from": taken})
    try:
        with transaction.atomic():  # another request may add the same at once
            return ExchangeRate.objects.create(
                organisation=organisation,
                currency=currency,
                units_per_usd=units,
                valid_from=valid_from,
                source=source,
                created_by=actor,
            )
    except IntegrityError as exc:
        raise ValidationError({"valid_from": taken}) from exc


@transaction.atomic
def exchange_rate_delete(*, rate: ExchangeRate, actor) -> None:
    """Delete ``rate``: the proposals built since keep the figures they
    printed; those built from now on convert with the rate valid before it,
    or stay per currency."""
    require_edit(actor, rate.organisation_id)
    ExchangeRate.objects.filter(pk=rate.pk).delete()
