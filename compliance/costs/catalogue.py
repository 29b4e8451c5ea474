"""The starting device and service catalogue: typed, frozen data with sources.

The entries are data, in ``fixtures/cost_catalogue.json``: every figure there
is copied from the reference data (the file and key are named in each source,
or, for a public price, the page's publisher and gist) and nothing is
estimated: where the reference has no price or lead time the field is ``None``
and ``basis`` is ``"unknown"``, so the page shows "price to be quoted" instead
of a made-up number.

What the reference holds (``costs.json``: "Very little public price data was
found. Every figure is single-source"; its section ``public_figures_2026_12``
holds the public figures found in December 2026, "mostly article estimates",
VAT not stated anywhere). The public prices (``basis`` ``"public_price"``,
``certainty`` ``one_source``) are those article estimates, each with its
page and its date as seen ("2021-10", "undated"), and their notes say so:

- Safety fencing: only the product brief's planning range, USD 60-120 per
  metre (``reference/README.md``, "Planning ranges from the product brief",
  marked "rough, unverified"); ``costs.json`` found no public price.
- Safety laser scanners: the brief says only "thousands of USD each", which is
  not a range; ``costs.json`` found no unit price. Unknown here.
- Light curtain, multi-beam grid, safety mat, interlocked gate, emergency
  stop, signage: not found (``costs.json`` items with ``"value": null``, or
  absent; ``public_figures_2026_12`` names them among those with no public
  price).
- Safety controller (relay or safety PLC): USD 500-5,000, spanning one
  article's system costs for simple (1-2 zones, USD 500-2,000) and medium
  (2-5 zones, USD 1,500-5,000) systems, as a robot cell has a few zones
  (industrialmonitordirect.com, undated); the larger systems and the same
  publisher's per-8-zone hardware figures are quoted in the note; the 2012
  list bill of materials (designnews.com) is not used.
- Cobot risk-assessment documentation: EUR 3,000-5,000 (mp-is.eu, one source;
  the page is undated, seen 2026).
- EC type certification by a notified body (machinery): EUR 10,000-40,000
  (orgalim.eu, 2021-10); an entry to add by hand, derived for no cell.
- The PLC programmers' hourly rates of ``public_figures_2026_12`` are labour
  rates, not catalogue items: not used here.
- Korea: KCs safety-certification fee not found (``costs.json``,
  ``korea_art223.json`` ``fees_and_lead_times``); self-declaration
  (자율안전확인) lead time 3-4 weeks, quoted by one consultant (gcnq.co.kr);
  the statutory review periods of safety certification are in days per stage
  (Enforcement Rule Art. 110) and are quoted in the note, not summed into a
  lead time, because which stages apply depends on the route.
- Korea: KIRIA collaborative-robot workplace certification: fee and lead
  time not found (``costs.json``: the KIRIA guidebook's fee page not
  readable; ``korea_art223.json`` ``cobot_exemption_route``: null), so an
  entry to be quoted, which a fenceless collaborative cell's plan names.
- Safety-component delivery lead times: not found (``costs.json``
  ``lead_times``).

Each organisation edits its own copy of the catalogue in the app; this module
is only the starting point. Names and notes are English, marked with
``gettext_noop``. Pure Python with pydantic, no Django.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from compliance.calculators.base import Certainty, Line, gettext_noop

Category = Literal["device", "guarding", "service"]
Unit = Literal["m", "piece", "job"]
Currency = Literal["KRW", "USD", "EUR"]
CURRENCIES: tuple[str, ...] = ("KRW", "USD", "EUR")
# Where a catalogue price comes from. "unknown": no figure in the reference;
# "organisation": the organisation's own figure, replacing the starting one.
# "quote": the organisation's supplier quotes (``costs.quotes``).
PriceBasis = Literal[
    "public_price", "planning_range", "unknown", "organisation", "quote"
]


def _no_float(value: object) -> object:
    """Money and quantities are Decimal: a float (or a bool) is refused, as
    binary fractions would creep into the totals."""
    if isinstance(value, float | bool):
        raise ValueError(
            "use a Decimal, an int or a numeric string for money and quantities, "
            "never a float"
        )
    return value


# Non-negative, finite, never float. Used for prices, quantities and weeks.
Money = Annotated[Decimal, BeforeValidator(_no_float), Field(ge=0)]
Quantity = Money
Weeks = Money


def check_range(low: Decimal | None, high: Decimal | None, what: str) -> None:
    """Both ends or neither, and low <= high; raises ValueError."""
    if (low is None) != (high is None):
        raise ValueError(f"{what}: give both the low and the high figure, or neither")
    if low is not None and high is not None and low > high:
        raise ValueError(f"{what}: the low figure {low} is above the high {high}")


QUOTE_EXPIRED = gettext_noop("Quote %(number)s of %(supplier)s expired on %(date)s.")
OTHER_CURRENCIES = gettext_noop(
    "%(count)s more quotes in other currencies are not in this range."
)
QUOTE_NOTES = frozenset({QUOTE_EXPIRED, OTHER_CURRENCIES})


class QuotePrice(BaseModel):
    """One quote's price for an item, with what a reader needs to trust it:
    who quoted, its number, its date and until when it holds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    supplier: str
    number: str
    quoted_on: date
    valid_until: date | None = None
    row: int
    price_low: Money
    price_high: Money
    currency: Currency
    lead_time_weeks_low: Weeks | None = None
    lead_time_weeks_high: Weeks | None = None
    minimum_order: Money | None = None
    expired: bool = False

    @property
    def label(self) -> str:
        """How the quote is named: supplier and number."""
        return f"{self.supplier} {self.number}"


class CatalogueEntry(BaseModel):
    """One kind of device, guarding or service that a cell's plan may need,
    with its price range per unit and lead time as far as a source gives them.

    ``price_low``/``price_high`` are per ``unit`` in ``currency``; ``None``
    means no price was found (``basis`` is then ``"unknown"``). Lead times are
    in weeks, ``None`` when unknown. ``certainty`` is ``one_source`` when a
    figure rests on a single public source; ``None`` when the entry has no
    figures, or only the product brief's planning range (no public source:
    ``basis`` says ``planning_range``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str  # English, marked with gettext_noop
    category: Category
    unit: Unit
    price_low: Money | None = None
    price_high: Money | None = None
    currency: Currency | None = None
    price_date: str | None = None  # as published, e.g. "~2025/26"
    lead_time_weeks_low: Weeks | None = None
    lead_time_weeks_high: Weeks | None = None
    basis: PriceBasis
    source: str  # where the price comes from, or where it was looked for
    lead_time_source: str | None = None
    certainty: Certainty | None = None
    note: str = ""  # English, marked with gettext_noop
    # The supplier quotes the price rests on (basis "quote"), and what a
    # reader must know of them (an expired quote).
    quotes: tuple[QuotePrice, ...] = ()
    quote_notes: tuple[Line, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> CatalogueEntry:
        check_range(self.price_low, self.price_high, f"{self.key} price")
        check_range(
            self.lead_time_weeks_low, self.lead_time_weeks_high, f"{self.key} lead time"
        )
        priced = self.price_low is not None
        if priced and self.currency is None:
            raise ValueError(f"{self.key}: a price needs a currency")
        if priced == (self.basis == "unknown"):
            raise ValueError(
                f"{self.key}: basis 'unknown' is for entries without a price, and "
                "only for them"
            )
        if self.lead_time_weeks_low is not None and not self.lead_time_source:
            raise ValueError(f"{self.key}: a lead time needs its source")
        return self

    @property
    def price_known(self) -> bool:
        return self.price_low is not None


# --- The starting catalogue, from fixtures/cost_catalogue.json ---------------

CATALOGUE_FILE = (
    Path(__file__).resolve().parents[2] / "fixtures" / "cost_catalogue.json"
)

# The texts of the fixture's entries are English message ids, translated when
# shown (the makemessages command collects them from the fixture). The note
# of every entry without a public price:
NOT_FOUND = gettext_noop("No public price was found: ask suppliers for a quote.")
# ... and of every device entry without a lead time.
NO_LEAD_TIME = gettext_noop(
    "No public delivery lead time was found for safety components: ask the supplier."
)


def _load(path: Path) -> tuple[CatalogueEntry, ...]:
    entries = json.loads(path.read_text(encoding="utf-8"))["entries"]
    return tuple(CatalogueEntry.model_validate(entry) for entry in entries)


CATALOGUE: tuple[CatalogueEntry, ...] = _load(CATALOGUE_FILE)


def fixture_messages() -> tuple[str, ...]:
    """The texts of the fixture, for the message catalogue (``makemessages``):
    names, notes and the public sources of the prices (their descriptions are
    read in the reader's language)."""
    texts = [e.name for e in CATALOGUE] + [e.note for e in CATALOGUE if e.note]
    texts += [e.source for e in CATALOGUE if e.basis == "public_price"]
    return tuple(dict.fromkeys(texts))


CATALOGUE_BY_KEY: Mapping[str, CatalogueEntry] = MappingProxyType(
    {e.key: e for e in CATALOGUE}
)
