"""Writes of an organisation's labour rates and default work. Bad input
raises a ``ValidationError`` naming the field and saves nothing; only an
editor of the organisation may write.

A rate is never changed in place, as an exchange rate is not: a later rate
replaces it from its day on, and one entered by mistake is deleted. A
default work row is set (made or replaced) per activity and role."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from cells.models import Organisation
from cells.permissions import require_edit
from compliance.costs.models import CURRENCY_CHOICES
from compliance.costs.services import check_ranges
from compliance.plan.inputs import ACTIVITY_LINES, WORK_KEYS
from compliance.plan.labour.costing import PER_NAMES, ROLES, UNITS
from compliance.plan.labour.models import LabourRate, WorkDefault

CURRENCIES = tuple(code for code, _label in CURRENCY_CHOICES)
SOURCE_LENGTH = LabourRate._meta.get_field("source").max_length
# A rate per hour or per day below this; an effort below this many hours or
# days: far above any real figure, so that a typo of extra digits is refused
# rather than stored (the fields hold 14 and 8 digits).
MAX_RATE = Decimal(100_000_000)
MAX_EFFORT = Decimal(10_000)
MAX_FEE = Decimal(10_000_000_000)


def _choice(field: str, value: str, allowed) -> None:
    if value not in allowed:
        raise ValidationError(
            {field: _("Choose one of %(choices)s.") % {"choices": ", ".join(allowed)}}
        )


def _source(source: str | None) -> str:
    source = (source or "").strip()
    if not source:
        raise ValidationError(
            {"source": _("Say where the figure comes from (a contract, a price list).")}
        )
    if len(source) > SOURCE_LENGTH:
        raise ValidationError(
            {"source": _("At most %(count)s characters.") % {"count": SOURCE_LENGTH}}
        )
    return source


def _below(values: dict, names: tuple[str, ...], limit: Decimal) -> None:
    for name in names:
        value = values.get(name)
        if value is not None and value >= limit:
            raise ValidationError(
                {name: _("Must be below %(max)s.") % {"max": f"{limit:,}"}}
            )


def check_effort(values: dict, low="effort_low", high="effort_high") -> None:
    """Both ends of an effort, not negative, in order and bounded."""
    check_ranges(values, (low, high))
    _below(values, (low, high), MAX_EFFORT)


@transaction.atomic
def labour_rate_add(
    *,
    organisation: Organisation,
    actor,
    role: str,
    unit: str,
    rate_low: Decimal,
    rate_high: Decimal | None,
    currency: str,
    valid_from: date,
    valid_until: date | None = None,
    source: str,
) -> LabourRate:
    """A rate of ``role`` per ``unit`` from ``valid_from``: one figure
    (``rate_high`` None) or a range."""
    require_edit(actor, organisation.pk)
    _choice("role", role, ROLES)
    _choice("unit", unit, UNITS)
    _choice("currency", currency, CURRENCIES)
    if rate_high is None:
        rate_high = rate_low
    values = {"rate_low": rate_low, "rate_high": rate_high}
    check_ranges(values, ("rate_low", "rate_high"))
    if rate_low is None or rate_low <= 0:
        raise ValidationError({"rate_low": _("A rate must be above zero.")})
    _below(values, ("rate_low", "rate_high"), MAX_RATE)
    if not isinstance(valid_from, date):
        raise ValidationError(
            {"valid_from": _("Enter the day the rate is valid from.")}
        )
    if valid_until is not None and valid_until < valid_from:
        raise ValidationError(
            {"valid_until": _("The rate must end on or after the day it starts.")}
        )
    taken = _(
        "There is already a rate of this role and unit valid from that day: "
        "delete it first, or give another day."
    )
    if LabourRate.objects.filter(
        organisation=organisation, role=role, unit=unit, valid_from=valid_from
    ).exists():
        raise ValidationError({"valid_from": taken})
    try:
        with transaction.atomic():
            return LabourRate.objects.create(
                organisation=organisation,
                role=role,
                unit=unit,
                rate_low=rate_low,
                rate_high=rate_high,
                currency=currency,
                valid_from=valid_from,
                valid_until=valid_until,
                source=_source(source),
                created_by=actor,
            )
    except IntegrityError as exc:
        raise ValidationError({"valid_from": taken}) from exc


@transaction.atomic
def labour_rate_delete(*, rate: LabourRate, actor) -> None:
    require_edit(actor, rate.organisation_id)
    LabourRate.objects.filter(pk=rate.pk).delete()


@transaction.atomic
def work_default_set(
    *,
    organisation: Organisation,
    actor,
    activity: str,
    role: str = "",
    unit: str = "",
    per: str = "activity",
    effort_low: Decimal | None = None,
    effort_high: Decimal | None = None,
    fee_low: Decimal | None = None,
    fee_high: Decimal | None = None,
    currency: str = "",
    source: str,
) -> WorkDefault:
    """The organisation's default work of ``activity`` for ``role``: an
    effort (role, unit, both ends), or a fee (no role; both ends and a
    currency). Made, or replaced where one of the role is recorded."""
    require_edit(actor, organisation.pk)
    _choice("activity", activity, sorted(WORK_KEYS))
    _choice("per", per, tuple(PER_NAMES))
    values = {
        "effort_low": effort_low,
        "effort_high": effort_high,
        "fee_low": fee_low,
        "fee_high": fee_high,
    }
    check_effort(values)
    check_ranges(values, ("fee_low", "fee_high"), money=None)
    _below(values, ("fee_low", "fee_high"), MAX_FEE)
    if role:
        _choice("role", role, ROLES)
        _choice("unit", unit, UNITS)
        if effort_low is None:
            raise ValidationError({"effort_low": _("Give the effort, both ends.")})
        if fee_low is not None:
            raise ValidationError(
                {"fee_low": _("Give an effort or a fee, not both: a fee has no role.")}
            )
        currency = ""
    else:
        if fee_low is None:
            raise ValidationError(
                {"role": _("Choose the role doing the work, or give a fee.")}
            )
        if effort_low is not None:
            raise ValidationError(
                {"effort_low": _("An effort needs the role doing the work.")}
            )
        if activity in ACTIVITY_LINES:
            raise ValidationError(
                {
                    "fee_low": _(
                        "This activity's fee is the price of its cost line: "
                        "record it in the catalogue or a supplier quote."
                    )
                }
            )
        _choice("currency", currency, CURRENCIES)
        unit, per = "", "activity"
    row, _created = WorkDefault.objects.update_or_create(
        organisation=organisation,
        activity=activity,
        role=role,
        defaults={
            "unit": unit,
            "per": per,
            **values,
            "currency": currency,
            "source": _source(source),
            "updated_by": actor,
        },
    )
    return row


@transaction.atomic
def work_default_delete(*, row: WorkDefault, actor) -> None:
    require_edit(actor, row.organisation_id)
    WorkDefault.objects.filter(pk=row.pk).delete()
