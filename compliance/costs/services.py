"""Writes of costs and the plan: edits of a cell's derived cost lines, the
user's own lines, the organisation's catalogue figures and the plan's
assumptions. Each is checked so that nothing inconsistent is saved, and bad
input raises a ``ValidationError`` naming the field. A change of a stored row
is made to the row as stored, locked before it is read; with the ``version``
the caller read, a row saved by someone else since is refused with
``cells.services.Conflict`` (issue 28)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Model
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from pydantic import ValidationError as PydanticValidationError

from cells.models import Cell, Organisation
from cells.permissions import require_edit
from cells.services import Conflict
from compliance.costs import Override, apply_overrides
from compliance.costs.catalogue import CATALOGUE_BY_KEY
from compliance.costs.models import CatalogueEdit, CustomLineItem, LineItemEdit
from compliance.costs.organisation import EntryEdit, edited_entry


def versioned_change(
    row: Model,
    values: dict[str, Any],
    version: int | None,
    sent: list[str],
    check: Callable[[Model], None] | None = None,
) -> Model:
    """Write ``values`` onto ``row`` (locked and read inside the caller's
    transaction), ``check`` it, and raise its version. With ``version`` (the
    one the caller read), a row saved by someone else since is refused with
    ``Conflict`` naming those of the fields ``sent`` whose stored value is
    another."""
    if version is not None and row.version != version:
        raise Conflict(row, [n for n in sent if getattr(row, n) != values[n]])
    for name, value in values.items():
        setattr(row, name, value)
    if check is not None:
        check(row)
    row.version += 1
    stamped = [f.name for f in row._meta.concrete_fields if f.name == "updated_at"]
    row.save(update_fields=[*values, "version", *stamped])
    return row


def versioned_upsert(
    model: type[Model],
    lookup: dict[str, Any],
    values: dict[str, Any],
    version: int | None,
    sent: list[str],
) -> Model:
    """The row of ``model`` that ``lookup`` names (an edit made on its first
    save) with ``values``: a new one starts at version 1; a stored one is
    locked, read again and changed by ``versioned_change``. A version sent for
    a row that is not stored (never saved, or dropped since) is not checked:
    the row is made anew."""
    row = model.objects.select_for_update().filter(**lookup).first()
    if row is None:
        try:
            with transaction.atomic():  # another request may make it at once
                return model.objects.create(**lookup, **values)
        except IntegrityError:
            row = model.objects.select_for_update().filter(**lookup).first()
            if row is None:
                raise
    return versioned_change(row, values, version, sent)


@transaction.atomic
def line_item_edit(
    *,
    cell: Cell,
    actor,
    item,
    quantity: Decimal | None,
    price_low: Decimal | None,
    price_high: Decimal | None,
    currency: str,
    source: str,
    version: int | None = None,
) -> LineItemEdit:
    """Save the user's edit of one derived line ``item`` of ``cell``: made on
    its first save, then changed under a lock and refused on a stale
    ``version`` (``versioned_upsert``)."""
    require_edit(actor, cell.project.organisation_id)
    for name, value in (
        ("quantity", quantity),
        ("price_low", price_low),
        ("price_high", price_high),
    ):
        if value is not None and value < 0:
            raise ValidationError({name: _("Must not be negative.")})
    try:
        override = Override(
            quantity=quantity,
            price_low=price_low,
            price_high=price_high,
            currency=currency or None,
            source=source or None,
        )
        apply_overrides([item], {item.key: override})
    except (PydanticValidationError, ValueError) as exc:
        raise ValidationError(
            _(
                "These values do not make a consistent price: give both ends of the range "
                "and a currency, with the low end not above the high one."
            )
        ) from exc
    sent = {
        "quantity": quantity,
        "price_low": price_low,
        "price_high": price_high,
        "currency": currency,
        "source": source,
    }
    return versioned_upsert(
        LineItemEdit,
        {"cell": cell, "key": item.key},
        {**sent, "updated_by": actor},
        version,
        list(sent),
    )


@transaction.atomic
def line_item_edit_reset(*, cell: Cell, actor, key: str) -> None:
    """Drop the user's edit of a derived line: the line is as derived again."""
    require_edit(actor, cell.project.organisation_id)
    LineItemEdit.objects.filter(cell=cell, key=key).delete()


def check_ranges(values: dict, *pairs: tuple[str, str], money: str | None = None):
    """Field errors for negative figures, half ranges and reversed ranges, and
    for a price without a currency (``money``: the currency field's name)."""
    errors: dict[str, list[str]] = {}
    for name, value in values.items():
        if isinstance(value, Decimal) and value < 0:
            errors.setdefault(name, []).append(_("Must not be negative."))
    for low_name, high_name in pairs:
        low, high = values.get(low_name), values.get(high_name)
        if (low is None) != (high is None):
            missing = high_name if high is None else low_name
            errors.setdefault(missing, []).append(
                _("Give both ends of the range, or neither.")
            )
        elif low is not None and high < low:
            errors.setdefault(high_name, []).append(
                _("The upper end must not be below the lower end.")
            )
    if money and values.get(pairs[0][0]) is not None and not values.get(money):
        errors.setdefault(money, []).append(_("A price needs its currency."))
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def custom_line_save(
    *,
    cell: Cell,
    actor,
    row: CustomLineItem | None = None,
    version: int | None = None,
    **fields,
) -> CustomLineItem:
    """Add a line of the user's own to ``cell``, or change ``row``: the line
    as stored, locked before it is read (404 if deleted since), refused on a
    stale ``version`` (``versioned_change``)."""
    require_edit(actor, cell.project.organisation_id)
    if not str(fields.get("description") or "").strip():
        raise ValidationError({"description": _("Describe the item.")})
    if fields.get("quantity") is None:
        raise ValidationError({"quantity": _("Give a quantity.")})
    check_ranges(
        fields,
        ("price_low", "price_high"),
        ("lead_time_weeks_low", "lead_time_weeks_high"),
        money="currency",
    )
    values = {**fields, "currency": fields.get("currency") or ""}
    if row is None:
        row = CustomLineItem(cell=cell, created_by=actor, **values)
        row.full_clean(exclude=["cell", "created_by"])
        row.save()
        return row
    current = get_object_or_404(
        CustomLineItem.objects.select_for_update(), pk=row.pk, cell=cell
    )
    return versioned_change(
        current,
        values,
        version,
        list(values),
        lambda line: line.full_clean(exclude=["cell", "created_by"]),
    )


@transaction.atomic
def custom_line_delete(*, row: CustomLineItem, actor) -> None:
    require_edit(actor, row.cell.project.organisation_id)
    row.delete()


@transaction.atomic
def catalogue_entry_edit(
    *,
    organisation: Organisation,
    actor,
    key: str,
    version: int | None = None,
    **fields,
) -> CatalogueEdit:
    """Record the organisation's own price and lead time for catalogue entry
    ``key``, with their source; every cell of the organisation uses them. Made
    on its first save, then changed under a lock and refused on a stale
    ``version`` (``versioned_upsert``)."""
    require_edit(actor, organisation.pk)
    entry = CATALOGUE_BY_KEY.get(key)
    if entry is None:
        raise ValidationError({"key": _("There is no such catalogue entry.")})
    check_ranges(
        fields,
        ("price_low", "price_high"),
        ("lead_time_weeks_low", "lead_time_weeks_high"),
        money="currency",
    )
    if not str(fields.get("source") or "").strip():
        raise ValidationError({"source": _("Name the quote or price list.")})
    if fields.get("price_low") is None and fields.get("lead_time_weeks_low") is None:
        raise ValidationError(_("Give a price range, a lead time, or both."))
    edit = EntryEdit(**{**fields, "currency": fields.get("currency") or None})
    edited_entry(entry, edit)  # the same checks the pricing will make
    sent = {**fields, "currency": fields.get("currency") or ""}
    return versioned_upsert(
        CatalogueEdit,
        {"organisation": organisation, "key": key},
        {**sent, "updated_by": actor},
        version,
        list(sent),
    )


@transaction.atomic
def catalogue_entry_reset(*, organisation: Organisation, actor, key: str) -> None:
    """Go back to the starting catalogue's figures for ``key``."""
    require_edit(actor, organisation.pk)
    CatalogueEdit.objects.filter(organisation=organisation, key=key).delete()
