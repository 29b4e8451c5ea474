"""The costs API's responses, as typed models: a cell's safeguards and cost
lines with their totals, and an organisation's catalogue, field by field.

The views pass their data through these models before answering, so each
response and the OpenAPI schema (drf-spectacular reads these models) cannot
drift apart. Money, quantities and weeks are exact decimals, sent as strings
("16.1", "1932.0"); ``None`` (null) means not known, never zero. Texts are in
the reader's language. Pure pydantic, no Django.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Annotated, get_args

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from compliance.calculators.base import Certainty
from compliance.costs.catalogue import Category, Currency, PriceBasis, Unit
from compliance.costs.line_items import LineBasis
from compliance.rules.findings import Status

# The codes of a cost category, which the schema names (ENUM_NAME_OVERRIDES in
# config.settings): bare codes, unlike a custom line's labelled choices.
CATEGORY_CODES: tuple[str, ...] = get_args(Category)

# An exact decimal, sent as its string ("60", "16.1"): never a binary float.
DecimalText = Annotated[
    Decimal, WithJsonSchema({"type": "string", "format": "decimal"})
]


class _Shown(BaseModel):
    # Every field is always present in the response: none has a default.
    model_config = ConfigDict(frozen=True, extra="forbid")


class LineFinding(_Shown):
    """The finding a cost line answers: which rule, its status, about what."""

    rule_id: str
    status: Status
    subject_key: str  # "segment:1", "opening:2", "device:1" or "cell"


class QuoteSource(_Shown):
    """A supplier quote a price rests on: who quoted, its number, its date
    and validity (``expired`` on the day of the answer), the row of its file
    and its price for the item."""

    supplier: str
    number: str
    quoted_on: date
    valid_until: date | None
    row: int
    price_low: DecimalText
    price_high: DecimalText
    currency: Currency
    lead_time_weeks_low: DecimalText | None
    lead_time_weeks_high: DecimalText | None
    minimum_order: DecimalText | None
    expired: bool


class CostLine(_Shown):
    """One line of the cell's safety budget: a device, guarding or a service,
    its quantity, why it is needed, its price range per unit and lead time.

    ``catalogue_key`` is null for a line the user added. A line without a
    price has ``basis`` "unknown", null prices and totals, and ``price_note``
    "price to be quoted"; ``certainty`` is "one_source" when the figures rest
    on one public source and null when there is no sourced figure."""

    key: str = Field(min_length=1)  # stable: edits of the line use it
    catalogue_key: str | None
    category: Category
    description: str
    quantity: DecimalText
    unit: Unit
    reason: str  # which rule or finding asks for it
    citation: str  # law and article, or standard and clause; "" when none
    findings: list[LineFinding]
    price_low: DecimalText | None  # per unit, in currency
    price_high: DecimalText | None
    currency: Currency | None
    price_date: str | None  # as published, e.g. "~2025/26"
    lead_time_weeks_low: DecimalText | None
    lead_time_weeks_high: DecimalText | None
    basis: LineBasis
    source: str
    lead_time_source: str | None
    certainty: Certainty | None
    notes: list[str]
    quotes: list[QuoteSource]  # the supplier quotes of basis "quote"
    total_low: DecimalText | None  # quantity × price_low, exact
    total_high: DecimalText | None
    price_note: str  # "price to be quoted" when there is no price, else ""


class CellSafeguards(_Shown):
    """The physical safeguards among the cell's cost lines: guarding and
    devices, each with the rule and findings it answers."""

    cell: int
    safeguards: list[CostLine]


class CurrencyTotal(_Shown):
    """The exact sum of the priced lines in one currency (no exchange rate)."""

    currency: Currency
    low: DecimalText
    high: DecimalText


class UnpricedTotal(_Shown):
    """How many lines (of a quantity above zero) have no price: always the
    last of the totals."""

    unknown_count: int = Field(ge=0)


class CellLineItems(_Shown):
    """The safeguards and work the cell's findings call for, then the user's
    own lines, with totals per currency and the count of unpriced lines."""

    cell: int
    items: list[CostLine]
    totals: list[CurrencyTotal | UnpricedTotal]


class OrganisationCatalogueEntry(_Shown):
    """One kind of device, guarding or service, with its price range per unit
    and lead time as far as a source (or the organisation) gives them: null
    where none is known (``basis`` is then "unknown")."""

    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    category: Category
    unit: Unit
    price_low: DecimalText | None  # per unit, in currency
    price_high: DecimalText | None
    currency: Currency | None
    price_date: str | None  # as published ("~2025/26"), or the date entered
    lead_time_weeks_low: DecimalText | None
    lead_time_weeks_high: DecimalText | None
    basis: PriceBasis
    source: str
    lead_time_source: str | None
    certainty: Certainty | None
    note: str  # "" when none
    quotes: list[QuoteSource]  # the supplier quotes of basis "quote"
    quote_notes: list[str]  # what a reader must know of them (one expired)


class OrganisationCatalogue(_Shown):
    """The organisation's catalogue: the starting entries with its own
    figures, in the starting catalogue's order."""

    organisation: int
    entries: list[OrganisationCatalogueEntry]
