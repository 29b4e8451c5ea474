"""The public figures of the reference start the catalogue (issue 29): each with
its page and date as published, marked as an article estimate, and nothing
estimated beyond them.

The expected figures are written here as the reference gives them
(costs.json, section public_figures_2026_12), not read from it:

- EC type certification by a notified body: EUR 10,000-40,000, orgalim.eu,
  seen 2021-10;
- risk-assessment documentation of a cobot application: EUR 3,000-5,000,
  mp-is.eu, "undated (page crawled 2026)";
- safety relays and controllers, industrialmonitordirect.com, undated:
  hardwired relays for simple systems of 1-2 zones USD 500-2,000, a
  programmable safety relay or controller for medium systems of 2-5 zones USD
  1,500-5,000 (the range taken: USD 500-5,000); for more than 5 zones USD
  5,000-20,000+; per 8 zones USD 350-900 (relay stack) and USD 1,800-2,800
  (safety PLC share); the 2012 list bill of materials (USD 4,157.85) not used;
- KIRIA certification fee: not found.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from compliance.calculators.base import Certainty
from compliance.costs.catalogue import CATALOGUE, CATALOGUE_BY_KEY, fixture_messages
from compliance.costs.derivation import derive_line_items
from compliance.costs.sources import shown_source
from tests.compliance.rules.cells import cell

PUBLIC = {
    # key: (low, high, currency, price date, publisher)
    "safety_controller": (
        "500",
        "5000",
        "USD",
        "undated",
        "industrialmonitordirect.com",
    ),
    "risk_assessment": (
        "3000",
        "5000",
        "EUR",
        "undated (page crawled 2026)",
        "mp-is.eu",
    ),
    "ec_type_certification": ("10000", "40000", "EUR", "2021-10", "orgalim.eu"),
}


def test_the_public_prices_are_those_of_the_reference_and_no_others():
    public = {e.key for e in CATALOGUE if e.basis == "public_price"}
    assert public == set(PUBLIC)


@pytest.mark.parametrize("key", sorted(PUBLIC))
def test_each_public_figure_has_its_price_currency_source_and_date(key):
    low, high, currency, price_date, publisher = PUBLIC[key]
    entry = CATALOGUE_BY_KEY[key]
    assert (entry.price_low, entry.price_high) == (Decimal(low), Decimal(high))
    assert entry.currency == currency
    assert entry.price_date == price_date
    assert entry.source.startswith(publisher)
    assert entry.certainty is Certainty.ONE_SOURCE
    # Marked as what it is: an article's estimate, VAT not stated.
    note = entry.note.lower()
    assert "article estimate" in note
    assert "not a quotation" in note or "not quotations" in note
    assert "vat not stated" in note
    # No lead time is invented beside the price.
    assert entry.lead_time_weeks_low is None


@pytest.mark.parametrize("key", sorted(PUBLIC))
def test_a_public_source_is_shown_whole_with_its_date(key):
    # Nothing of it is taken for an internal note, and it is one message of
    # the catalogue (a ";" would split it into parts translated apart).
    entry = CATALOGUE_BY_KEY[key]
    assert ";" not in entry.source
    assert entry.source in fixture_messages()
    shown = shown_source(
        basis=entry.basis, source=entry.source, price_date=entry.price_date or ""
    )
    assert shown == f"{entry.source}, {entry.price_date}"


def test_ec_type_certification_is_a_service_job_from_orgalim():
    entry = CATALOGUE_BY_KEY["ec_type_certification"]
    assert (entry.category, entry.unit) == ("service", "job")
    assert "notified body" in entry.name.lower()
    assert "EUR 10,000-40,000" in entry.source


def test_the_safety_controller_spans_the_small_and_medium_system_figures():
    entry = CATALOGUE_BY_KEY["safety_controller"]
    # Both figures the range spans are named in the source ...
    assert "1-2 zones USD 500-2,000" in entry.source
    assert "2-5 zones USD 1,500-5,000" in entry.source
    # ... the larger systems and the per-zone hardware in the note, and the
    # 2012 list bill of materials is not the price.
    assert "USD 5,000-20,000" in entry.note
    assert "USD 350-900" in entry.note and "USD 1,800-2,800" in entry.note
    assert "2012" in entry.note and "not used" in entry.note
    assert entry.price_low != Decimal("4157.85")


def test_a_cell_without_a_controller_is_priced_from_the_article_estimate():
    line = {i.key: i for i in derive_line_items(cell())}["safety_controller"]
    assert (line.total_low, line.total_high, line.currency) == (
        Decimal(500),
        Decimal(5000),
        "USD",
    )
    assert line.basis == "public_price"
    assert line.price_date == "undated"


def test_the_kiria_certification_is_an_entry_to_be_quoted_naming_where_it_was_sought():
    entry = CATALOGUE_BY_KEY["kiria_certification"]
    assert entry.name == "KIRIA collaborative-robot workplace safety certification"
    assert (entry.category, entry.unit) == ("service", "job")
    assert entry.price_low is None and entry.lead_time_weeks_low is None
    assert entry.basis == "unknown"
    assert entry.certainty is None
    for place in ("costs.json", "korea_art223.json", "public_figures_2026_12"):
        assert place in entry.source
    assert "No public fee or lead time was found" in entry.note


def test_fees_without_a_public_figure_stay_to_be_quoted():
    for key in ("kcs_certification", "kr_self_declaration", "kr_safety_inspection"):
        entry = CATALOGUE_BY_KEY[key]
        assert entry.price_low is None and entry.basis == "unknown", key
