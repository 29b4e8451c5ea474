"""Edits of a cell's cost lines: a quantity or a quoted price, checked against
the line as derived so that nothing inconsistent is saved."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from pydantic import ValidationError as PydanticValidationError

from cells.models import Cell
from cells.permissions import require_edit
from compliance.costs import Override, apply_overrides
from compliance.models import LineItemEdit


def edits_of(cell: Cell) -> dict[str, Override]:
    return {
        edit.key: Override(
            quantity=edit.quantity,
            price_low=edit.price_low,
            price_high=edit.price_high,
            currency=edit.currency or None,
            source=edit.source or None,
        )
        for edit in cell.line_item_edits.all()
    }


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
) -> LineItemEdit:
    """Save the user's edit of one derived line ``item`` of ``cell``."""
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
    edit, _created = LineItemEdit.objects.update_or_create(
        cell=cell,
        key=item.key,
        defaults={
            "quantity": quantity,
            "price_low": price_low,
            "price_high": price_high,
            "currency": currency,
            "source": source,
            "updated_by": actor,
        },
    )
    return edit
