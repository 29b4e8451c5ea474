"""A catalogue entry priced from the supplier quotes matched to it. Pure
Python with pydantic, no Django.

Several quotes for one item give a range: from the lowest price quoted to
the highest, each end naming the quote it comes from. Quotes that still hold
on the day are used; only when every quote for the item has expired are the
expired ones used, and the entry then says so ("quote expired on ..."), so
that no page or proposal shows an expired price without that note. Prices
stay in the quotes' currency: when the quotes of one item are in several
currencies, the range is taken in the currency most of them use (ties: the
one first in ``CURRENCIES``) and the others are counted in a note.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from compliance.calculators.base import Line
from compliance.costs.catalogue import (
    CURRENCIES,
    NO_LEAD_TIME,
    OTHER_CURRENCIES,
    QUOTE_EXPIRED,
    QUOTE_NOTES,
    CatalogueEntry,
    QuotePrice,
)
from compliance.costs.line_items import LineItem


def _key(price: QuotePrice) -> tuple:
    return (price.price_low, price.price_high, price.quoted_on, price.label)


def used_quotes(
    prices: Sequence[QuotePrice],
) -> tuple[tuple[QuotePrice, ...], int]:
    """The quotes an item's price rests on (those still holding, else the
    expired ones), in one currency; and how many others, in other
    currencies, are left out."""
    holding = [p for p in prices if not p.expired]
    pool = holding or list(prices)
    if not pool:
        return (), 0
    counts = Counter(p.currency for p in pool)
    currency = max(CURRENCIES, key=lambda c: (counts[c], -CURRENCIES.index(c)))
    used = tuple(sorted((p for p in pool if p.currency == currency), key=_key))
    return used, len(pool) - len(used)


def quoted_entry(entry: CatalogueEntry, prices: Sequence[QuotePrice]) -> CatalogueEntry:
    """``entry`` priced from ``prices`` (the quotes matched to it; each
    marked expired or not on the day of pricing); ``entry`` as it is when
    there are none."""
    used, left_out = used_quotes(prices)
    if not used:
        return entry
    low = min(used, key=lambda p: p.price_low)
    high = max(used, key=lambda p: p.price_high)
    notes = [
        Line(
            text=QUOTE_EXPIRED,
            values={
                "number": p.number,
                "supplier": p.supplier,
                "date": p.valid_until.isoformat() if p.valid_until else "",
            },
        )
        for p in used
        if p.expired
    ]
    if left_out:
        notes.append(Line(text=OTHER_CURRENCIES, values={"count": left_out}))
    data = entry.model_dump()
    data |= {
        "price_low": low.price_low,
        "price_high": high.price_high,
        "currency": low.currency,
        "price_date": max(p.quoted_on for p in used).isoformat(),
        "basis": "quote",
        "source": low.label if low is high else f"{low.label}; {high.label}",
        "certainty": None,
        "quotes": used,
        "quote_notes": tuple(notes),
    }
    weeks = [p for p in used if p.lead_time_weeks_low is not None]
    if weeks:
        data |= {
            "lead_time_weeks_low": min(p.lead_time_weeks_low for p in weeks),
            "lead_time_weeks_high": max(
                p.lead_time_weeks_high or p.lead_time_weeks_low for p in weeks
            ),
            "lead_time_source": "; ".join(dict.fromkeys(p.label for p in weeks)),
        }
    # The starting catalogue's notes say what public figures were (not)
    # found; the quotes now give the figure.
    if "found" in data["note"] or (weeks and data["note"] == NO_LEAD_TIME):
        data["note"] = ""
    return CatalogueEntry.model_validate(data)


def quoted_line(item: LineItem, prices: Sequence[QuotePrice]) -> LineItem:
    """A line for a device chosen from the library, priced from the quotes
    matched to that very device (by part number or model), in place of the
    library's own price; ``item`` as it is when there are none."""
    used, _others = used_quotes(prices)
    if not used:
        return item
    entry = quoted_entry(
        CatalogueEntry(
            key=item.catalogue_key or "library_device",
            name=item.description.text,
            category=item.category,
            unit=item.unit,
            basis="unknown",
            source=item.source,
        ),
        prices,
    )
    kept = tuple(n for n in item.notes if n.text not in QUOTE_NOTES)
    return LineItem(
        **(
            dict(item)
            | {
                "price_low": entry.price_low,
                "price_high": entry.price_high,
                "currency": entry.currency,
                "price_date": entry.price_date,
                "basis": "quote",
                "source": entry.source,
                "certainty": None,
                "quotes": entry.quotes,
                "notes": (*kept, *entry.quote_notes),
                **(
                    {
                        "lead_time_weeks_low": entry.lead_time_weeks_low,
                        "lead_time_weeks_high": entry.lead_time_weeks_high,
                        "lead_time_source": entry.lead_time_source,
                    }
                    if entry.lead_time_weeks_low is not None
                    else {}
                ),
            }
        )
    )
