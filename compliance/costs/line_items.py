"""The safeguards and work a cell's plan needs, as priced line items. Pure
Python with pydantic, no Django.

A ``LineItem`` says what to buy or commission and which rule or finding asks
for it. Prices and lead times come from the catalogue
(``compliance.costs.catalogue``, from the reference data); where it has none
the line shows "price to be quoted" and the totals count it as unknown. Lines
are derived in ``compliance.costs.derivation``; users edit the result with
``apply_overrides`` and add their own with ``custom_item`` (here); money is
totalled in ``compliance.costs.money``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

from compliance.calculators.base import Certainty, Line, gettext_noop
from compliance.costs.catalogue import (
    QUOTE_NOTES,
    CatalogueEntry,
    Category,
    Currency,
    Money,
    Quantity,
    QuotePrice,
    Unit,
    Weeks,
    check_range,
)

# Where a line's price comes from: the catalogue's basis, or the user's own.
LineBasis = Literal[
    "public_price", "planning_range", "unknown", "organisation", "quote", "user"
]

USER_SOURCE = "entered by the user"
PRICE_TO_BE_QUOTED = gettext_noop("price to be quoted")

# iso10218_2025.json changes[3] (two sources: ibf-solutions, Mitsubishi
# Electric): the required PL/SIL is given per safety function.
SAFETY_FUNCTION_CITATION = "ISO 10218-1/-2:2025 (required PL/SIL per safety function)"
# korea_art223.json osh_act_art84_safety_certification.summary_en ("Art. 89:
# 자율안전확인 신고") and ...industrial_robot_itself (gcnq.co.kr, cobots.tistory).
SELF_DECLARATION_CITATION = (
    "산업안전보건법 제89조 (자율안전확인 신고) / OSH Act Art. 89 (self-declaration)"
)
# korea_art223.json osh_act_art84...summary_en ("Art. 93: 안전검사") and
# enforcement_rule_periods.art126_safety_inspection_industrial_robot.
SAFETY_INSPECTION_CITATION = (
    "산업안전보건법 제93조, 시행규칙 제126조 / OSH Act Art. 93 (safety "
    "inspection), Enforcement Rule Art. 126"
)

KCS_NEW_DEVICE_NOTE = gettext_noop(
    "Korea: protective devices of industrial robots that prevent collision and "
    "crushing are listed as needing KCs safety certification (안전인증): choose a "
    "certified device. The list item rests on one secondary source: confirm "
    "it."
)
KCS_ITEM_NOTE = gettext_noop(
    "The list item for industrial-robot protective devices rests on one "
    "secondary source and the current Enforcement Decree text was not "
    "obtained: confirm it before relying on this line."
)


class FindingRef(BaseModel):
    """The finding a line answers: which rule, its status, about what."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule_id: str
    status: str  # "pass", "fail", "warning", "needs_evidence"
    subject_key: str


class LineItem(BaseModel):
    """One line of a cell's safety budget: a device, guarding or a service,
    its quantity, why it is needed, its price range per unit and lead time.

    ``price_low``/``price_high`` are per ``unit`` in ``currency``; ``None``
    when no price is known (the line then shows "price to be quoted").
    ``basis`` and ``source`` say where the price comes from; ``certainty``
    is ``one_source`` when it rests on one public source and ``None`` when
    there is no figure, only the brief's planning range, or the user's entry.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str = Field(min_length=1)  # stable across re-derivation: overrides use it
    catalogue_key: str | None  # None for a custom line
    category: Category
    description: Line  # English template marked with gettext_noop, and values
    quantity: Quantity
    unit: Unit
    reason: Line  # which rule or finding asks for it
    citation: str = ""  # law and article, or standard and clause
    findings: tuple[FindingRef, ...] = ()
    price_low: Money | None = None
    price_high: Money | None = None
    currency: Currency | None = None
    price_date: str | None = None
    lead_time_weeks_low: Weeks | None = None
    lead_time_weeks_high: Weeks | None = None
    basis: LineBasis
    source: str
    lead_time_source: str | None = None
    certainty: Certainty | None = None
    notes: tuple[Line, ...] = ()
    # The supplier quotes its price rests on (basis "quote").
    quotes: tuple[QuotePrice, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> LineItem:
        check_range(self.price_low, self.price_high, f"{self.key} price")
        check_range(
            self.lead_time_weeks_low, self.lead_time_weeks_high, f"{self.key} lead time"
        )
        priced = self.price_low is not None
        if priced and self.currency is None:
            raise ValueError(f"{self.key}: a price needs a currency")
        if priced == (self.basis == "unknown"):
            raise ValueError(
                f"{self.key}: basis 'unknown' is for lines without a price, and only "
                "for them"
            )
        return self

    @property
    def price_known(self) -> bool:
        return self.price_low is not None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total_low(self) -> Decimal | None:
        """Quantity × low unit price, exact; None when the price is unknown."""
        return None if self.price_low is None else self.quantity * self.price_low

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total_high(self) -> Decimal | None:
        """Quantity × high unit price, exact; None when the price is unknown."""
        return None if self.price_high is None else self.quantity * self.price_high

    @computed_field  # type: ignore[prop-decorator]
    @property
    def price_note(self) -> str:
        """ "price to be quoted" (marked for translation) when there is no price."""
        return "" if self.price_known else PRICE_TO_BE_QUOTED


# --- Lines by hand, and the user's edits ------------------------------------


def catalogue_item(
    entry: CatalogueEntry,
    *,
    key: str,
    quantity: Decimal | int | str,
    reason: Line | None = None,
    description: Line | None = None,
    citation: str = "",
    findings: tuple[FindingRef, ...] = (),
    notes: tuple[Line, ...] = (),
) -> LineItem:
    """A line for a catalogue entry, priced as the catalogue prices it (e.g. a
    safety mat the user adds from the catalogue)."""
    entry_notes = (Line(text=entry.note),) if entry.note else ()
    return LineItem(
        key=key,
        catalogue_key=entry.key,
        category=entry.category,
        description=description or Line(text=entry.name),
        quantity=quantity,
        unit=entry.unit,
        reason=reason or Line(text=gettext_noop("Added by the user.")),
        citation=citation,
        findings=findings,
        price_low=entry.price_low,
        price_high=entry.price_high,
        currency=entry.currency,
        price_date=entry.price_date,
        lead_time_weeks_low=entry.lead_time_weeks_low,
        lead_time_weeks_high=entry.lead_time_weeks_high,
        basis=entry.basis,
        source=entry.source,
        lead_time_source=entry.lead_time_source,
        certainty=entry.certainty,
        notes=(*entry_notes, *entry.quote_notes, *notes),
        quotes=entry.quotes,
    )


def custom_item(
    *,
    key: str,
    description: str,
    quantity: Decimal | int | str,
    unit: Unit,
    category: Category = "device",
    price_low: Decimal | int | str | None = None,
    price_high: Decimal | int | str | None = None,
    currency: Currency | None = None,
    lead_time_weeks_low: Decimal | int | str | None = None,
    lead_time_weeks_high: Decimal | int | str | None = None,
    source: str = USER_SOURCE,
    note: str = "",
) -> LineItem:
    """A line the user adds by hand. ``description`` is the user's own text.
    Without prices it shows "price to be quoted"; a price needs both ends and
    a currency. Raises ``pydantic.ValidationError`` (a ValueError) on a
    negative figure or a float."""
    priced = price_low is not None or price_high is not None
    return LineItem(
        key=key,
        catalogue_key=None,
        category=category,
        description=Line(text=description),
        quantity=quantity,
        unit=unit,
        reason=Line(text=gettext_noop("Added by the user.")),
        price_low=price_low,
        price_high=price_high,
        currency=currency,
        lead_time_weeks_low=lead_time_weeks_low,
        lead_time_weeks_high=lead_time_weeks_high,
        basis="user" if priced else "unknown",
        source=source,
        lead_time_source=source if lead_time_weeks_low is not None else None,
        notes=(Line(text=note),) if note else (),
    )


class Override(BaseModel):
    """The user's edit of one derived line: any field left ``None`` keeps the
    line's own. Prices are per unit; ``currency`` is needed when the line had
    no price, and ``source`` names the quote (default "entered by the user")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    quantity: Quantity | None = None
    price_low: Money | None = None
    price_high: Money | None = None
    currency: Currency | None = None
    source: str | None = None


def apply_overrides(
    items: Iterable[LineItem], overrides: Mapping[str, Override]
) -> tuple[LineItem, ...]:
    """The lines with the user's edits applied, matched by ``LineItem.key``.

    A new price makes the line's basis ``user`` (no public source behind it).
    Overrides whose key matches no line are ignored: the line was not derived
    this time (e.g. the opening now has a device). Raises ValueError (a
    pydantic ``ValidationError``) when the edit leaves the line inconsistent,
    e.g. one end of a price range on an unpriced line.
    """
    result = []
    for item in items:
        override = overrides.get(item.key)
        result.append(item if override is None else _override(item, override))
    return tuple(result)


def _override(item: LineItem, override: Override) -> LineItem:
    update: dict[str, Any] = {}
    if override.quantity is not None:
        update["quantity"] = override.quantity
    new_price = override.price_low is not None or override.price_high is not None
    if (
        override.currency is not None
        and override.currency != item.currency
        and (override.price_low is None or override.price_high is None)
    ):
        raise ValueError(
            f"{item.key}: a new currency needs both the low and the high price"
        )
    if new_price:
        low, high = override.price_low, override.price_high
        update |= {
            "price_low": item.price_low if low is None else low,
            "price_high": item.price_high if high is None else high,
            "currency": override.currency or item.currency,
            "price_date": None,
            "basis": "user",
            "source": override.source or USER_SOURCE,
            "certainty": None,
            # The quotes no longer price it, nor their notes.
            "quotes": (),
            "notes": tuple(n for n in item.notes if n.text not in QUOTE_NOTES),
        }
    return LineItem(**(dict(item) | update))
