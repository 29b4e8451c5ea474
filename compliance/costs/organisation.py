"""An organisation's own catalogue: the starting entries with the
organisation's prices and lead times put in place of the starting figures.

The starting catalogue (``catalogue``) holds only what the reference gives,
mostly "price to be quoted". Once an organisation has its suppliers' quotes it
records them once, with their source and date, and every cell of the
organisation is priced from them. Pure Python with pydantic, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field

from compliance.costs.catalogue import (
    CATALOGUE_BY_KEY,
    NO_LEAD_TIME,
    NOT_FOUND,
    CatalogueEntry,
    Currency,
    Money,
    Weeks,
    check_range,
)


class EntryEdit(BaseModel):
    """The organisation's figures for one entry. A price needs both ends and a
    currency; a lead time both ends. ``source`` names the quote or price list
    the figures come from; it is required, as every figure carries its source."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    price_low: Money | None = None
    price_high: Money | None = None
    currency: Currency | None = None
    price_date: date | None = None
    lead_time_weeks_low: Weeks | None = None
    lead_time_weeks_high: Weeks | None = None
    source: str = Field(min_length=1, max_length=200)


def edited_entry(entry: CatalogueEntry, edit: EntryEdit) -> CatalogueEntry:
    """``entry`` with the organisation's figures. Figures the edit leaves out
    stay as the starting catalogue has them. Raises ValueError (a pydantic
    ``ValidationError``) when the result is inconsistent: half a range, a low
    end above the high one, or a price without a currency."""
    check_range(edit.price_low, edit.price_high, f"{entry.key} price")
    check_range(
        edit.lead_time_weeks_low, edit.lead_time_weeks_high, f"{entry.key} lead time"
    )
    data = entry.model_dump()
    notes_dropped = set()
    if edit.price_low is not None:
        if edit.currency is None:
            raise ValueError(f"{entry.key}: a price needs a currency")
        data |= {
            "price_low": edit.price_low,
            "price_high": edit.price_high,
            "currency": edit.currency,
            "price_date": edit.price_date.isoformat() if edit.price_date else None,
            "basis": "organisation",
            "source": edit.source,
            "certainty": None,
        }
        notes_dropped.add(NOT_FOUND)
    if edit.lead_time_weeks_low is not None:
        data |= {
            "lead_time_weeks_low": edit.lead_time_weeks_low,
            "lead_time_weeks_high": edit.lead_time_weeks_high,
            "lead_time_source": edit.source,
        }
        notes_dropped.add(NO_LEAD_TIME)
    if data["note"] in notes_dropped:
        data["note"] = ""
    return CatalogueEntry.model_validate(data)


def organisation_catalogue(
    edits: Mapping[str, EntryEdit],
    starting: Mapping[str, CatalogueEntry] = CATALOGUE_BY_KEY,
) -> Mapping[str, CatalogueEntry]:
    """The starting catalogue with the organisation's ``edits`` (by entry key)
    applied. Edits of keys the catalogue no longer has are ignored."""
    return MappingProxyType(
        {
            key: edited_entry(entry, edits[key]) if key in edits else entry
            for key, entry in starting.items()
        }
    )
