"""Where a line's price comes from, as a reader can take it: a public
citation (publisher and year), a planning range called a budgetary estimate,
the organisation's or user's own source as they wrote it; never a file or
repository name of the product's own reference data, nor "not found" notes
(a line with no price says "to be quoted" elsewhere).

Shared by the Costs tab, the organisation's catalogue and the proposal."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from compliance.calculators.presentation import shown_citation
from compliance.costs.line_items import USER_SOURCE
from compliance.costs.selectors import money_range_text

# Fragments that name the product's own files or repositories, or say where a
# price was looked for and not found: never shown.
INTERNAL = re.compile(
    r"(\b[\w.-]+\.(json|md|py|csv|txt)\b|reference/|\bnot found\b|\bno [\w -]+ item\b"
    r"|\b[\w-]+/[\w.-]+\s*:)",
    re.IGNORECASE,
)


def _public_parts(source: str) -> str:
    """A public source's parts, each through the catalogue (a seeded source
    has its translation), the internal ones left out."""
    parts = [p.strip() for p in source.split(";") if not INTERNAL.search(p)]
    return "; ".join(_(p) for p in parts if p)


def shown_source(
    *, basis: str, source: str, price_date: str = "", citation: str = ""
) -> str:
    """The source of a price in the reader's language. ``citation``: what to
    name for a line with no price (the rule that asks for it), or ""."""
    source = (source or "").strip()
    if basis == "planning_range":
        return _("Budgetary estimate (a planning range, not a quotation)")
    if basis == "quote":
        # The supplier and the quote's number (the quotes are listed apart).
        return _("Supplier quote: %(quotes)s") % {"quotes": source}
    if basis in ("organisation", "user"):
        if not source or source == USER_SOURCE:
            return _("Our estimate")
        return source  # as the organisation or the user wrote it
    if basis == "public_price":
        shown = _public_parts(source)
        # A date as published ("2021-10"), or the catalogue's words for one
        # ("undated"), in the reader's language.
        year = _((price_date or "").lstrip("~").strip()) if price_date else ""
        if shown and year:
            return f"{shown}, {year}"
        return shown or year
    # No price: an app's own note (the device library has no price), else
    # the rule that asks for the line.
    translated = _(source) if source else ""
    if translated and translated != source:
        return translated
    return citation


def quote_lines(item) -> list[dict]:
    """The supplier quotes a line's price rests on, as a reader can check
    them: supplier and number, date, validity (an expired one flagged), its
    price, and which end of the line's range it gives."""
    shown = []
    for quote in item.quotes:
        ends = []
        if quote.price_low == item.price_low:
            ends.append(_("lowest"))
        if quote.price_high == item.price_high:
            ends.append(_("highest"))
        # As the lines show a price: exact, grouped as the reader groups.
        price = (
            f"{quote.currency} {money_range_text(quote.price_low, quote.price_high)}"
        )
        shown.append(
            {
                "label": quote.label,
                "date": quote.quoted_on.isoformat(),
                "valid_until": quote.valid_until.isoformat()
                if quote.valid_until
                else "",
                "expired": quote.expired,
                "price": price,
                "ends": ", ".join(ends),
            }
        )
    return shown


def quoted_source(item) -> str:
    """The supplier quotes a line's price rests on, as the customer reads
    them: each supplier and quote number with its date and validity; an
    expired one says so, so that its price is never read as current."""
    parts = []
    for quote in item.quotes:
        if quote.expired:
            when = _("%(date)s, expired on %(until)s: price to be confirmed") % {
                "date": quote.quoted_on.isoformat(),
                "until": quote.valid_until.isoformat() if quote.valid_until else "",
            }
        elif quote.valid_until:
            when = _("%(date)s, valid until %(until)s") % {
                "date": quote.quoted_on.isoformat(),
                "until": quote.valid_until.isoformat(),
            }
        else:
            when = quote.quoted_on.isoformat()
        parts.append(f"{quote.label} ({when})")
    return _("Supplier quote: %(quotes)s") % {"quotes": "; ".join(parts)}


def customer_source(item, *, citation_fallback: bool = True) -> str:
    """Where a line item's price comes from, as the customer reads it."""
    if item.basis == "quote" and item.quotes:
        return quoted_source(item)
    return shown_source(
        basis=item.basis,
        source=item.source,
        price_date=item.price_date or "",
        citation=shown_citation(item.citation) if citation_fallback else "",
    )
