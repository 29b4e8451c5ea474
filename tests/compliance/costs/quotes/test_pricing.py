"""A catalogue entry priced from the quotes matched to it: the range across
them, each end from its quote; an expired quote used only when no other
holds, and then flagged (issue 29)."""

from __future__ import annotations

import random
from datetime import date
from decimal import Decimal

import pytest

from compliance.costs.catalogue import CATALOGUE_BY_KEY, QUOTE_EXPIRED, QuotePrice
from compliance.costs.line_items import Override, apply_overrides, catalogue_item
from compliance.costs.money import totals
from compliance.costs.quotes.pricing import quoted_entry

CURTAIN = CATALOGUE_BY_KEY["light_curtain"]


def quote(number, low, high, *, currency="KRW", expired=False, weeks=None):
    return QuotePrice(
        supplier=f"Supplier {number}",
        number=number,
        quoted_on=date(2026, 11, 2),
        valid_until=date(2026, 10, 1) if expired else date(2027, 1, 31),
        row=1,
        price_low=Decimal(low),
        price_high=Decimal(high),
        currency=currency,
        lead_time_weeks_low=None if weeks is None else Decimal(weeks[0]),
        lead_time_weeks_high=None if weeks is None else Decimal(weeks[1]),
        expired=expired,
    )


def test_no_quote_leaves_the_entry_to_be_quoted():
    assert quoted_entry(CURTAIN, []) is CURTAIN
    assert CURTAIN.price_low is None


def test_several_quotes_give_a_range_from_the_lowest_to_the_highest():
    entry = quoted_entry(
        CURTAIN,
        [
            quote("Q-1", "1200000", "1200000", weeks=("4", "6")),
            quote("Q-2", "980000", "1100000", weeks=("8", "8")),
            quote("Q-3", "1500000", "1650000"),
        ],
    )
    assert (entry.price_low, entry.price_high, entry.currency) == (
        Decimal("980000"),
        Decimal("1650000"),
        "KRW",
    )
    assert entry.basis == "quote"
    assert entry.source == "Supplier Q-2 Q-2; Supplier Q-3 Q-3"
    assert (entry.lead_time_weeks_low, entry.lead_time_weeks_high) == (
        Decimal("4"),
        Decimal("8"),
    )
    assert [q.number for q in entry.quotes] == ["Q-2", "Q-1", "Q-3"]
    assert entry.note == ""  # "no public price was found" no longer applies


def test_an_expired_quote_is_left_out_while_another_holds():
    entry = quoted_entry(
        CURTAIN,
        [quote("OLD", "500000", "500000", expired=True), quote("Q-1", "9", "9")],
    )
    assert entry.price_low == Decimal("9") and entry.quote_notes == ()


def test_only_expired_quotes_still_price_the_item_but_say_so():
    entry = quoted_entry(CURTAIN, [quote("OLD", "500000", "600000", expired=True)])
    assert entry.price_low == Decimal("500000")
    (note,) = entry.quote_notes
    assert note.text == QUOTE_EXPIRED
    assert note.render() == "Quote OLD of Supplier OLD expired on 2026-10-01."
    line = catalogue_item(entry, key="lc", quantity=2)
    assert note in line.notes and line.quotes[0].expired


def test_quotes_in_several_currencies_take_the_most_used_and_count_the_others():
    entry = quoted_entry(
        CURTAIN,
        [
            quote("A", "1000", "1000", currency="EUR"),
            quote("B", "1300000", "1300000"),
            quote("C", "1400000", "1400000"),
        ],
    )
    assert entry.currency == "KRW" and entry.price_low == Decimal("1300000")
    assert entry.quote_notes[-1].values == {"count": 1}


def test_a_users_price_replaces_the_quotes_and_their_notes():
    entry = quoted_entry(CURTAIN, [quote("OLD", "5", "6", expired=True)])
    line = catalogue_item(entry, key="lc", quantity=1)
    (edited,) = apply_overrides(
        [line],
        {
            "lc": Override(
                price_low=Decimal("7"), price_high=Decimal("7"), currency="KRW"
            )
        },
    )
    assert edited.quotes == () and edited.basis == "user"
    assert all(n.text != QUOTE_EXPIRED for n in edited.notes)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_thousand_random_quotes_sum_exactly_as_decimals(seed):
    """Money stays Decimal from the quote to the total: the lines' totals
    equal the sum worked out here, digit for digit."""
    rng = random.Random(seed)
    lines, expected_low, expected_high = [], Decimal(0), Decimal(0)
    for n in range(1000):
        low = Decimal(rng.randint(0, 10**9)) / 100
        high = low + Decimal(rng.randint(0, 10**7)) / 100
        quantity = Decimal(rng.randint(1, 40)) / 2
        entry = quoted_entry(CURTAIN, [quote(f"Q{n}", low, high, currency="EUR")])
        lines.append(catalogue_item(entry, key=f"k{n}", quantity=quantity))
        expected_low += quantity * low
        expected_high += quantity * high
    result = totals(lines, "EUR", {})
    assert (result.low, result.high) == (expected_low, expected_high)
    assert isinstance(result.low, Decimal)


def test_the_customer_reads_each_quotes_supplier_date_and_validity():
    from django.utils import translation

    from compliance.costs.sources import customer_source

    entry = quoted_entry(CURTAIN, [quote("Q-1", "9", "9"), quote("Q-2", "7", "8")])
    line = catalogue_item(entry, key="lc", quantity=1)
    with translation.override("en"):
        assert customer_source(line) == (
            "Supplier quote: Supplier Q-2 Q-2 (2026-11-02, valid until 2027-01-31); "
            "Supplier Q-1 Q-1 (2026-11-02, valid until 2027-01-31)"
        )
    old = catalogue_item(
        quoted_entry(CURTAIN, [quote("OLD", "5", "6", expired=True)]),
        key="lc",
        quantity=1,
    )
    with translation.override("en"):
        assert customer_source(old) == (
            "Supplier quote: Supplier OLD OLD (2026-11-02, expired on 2026-10-01: "
            "price to be confirmed)"
        )
    with translation.override("ko"):
        assert "만료" in customer_source(old)
