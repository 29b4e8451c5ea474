"""The starting catalogue: only figures the reference gives, each with a source.

The figures below are copied from the reference data: costs.json items[4]
and public_figures_2026_12 (risk assessment, EUR 3,000-5,000, mp-is.eu),
korea_art223.json fees_and_lead_times (self-declaration 3-4 weeks,
gcnq.co.kr; KCs fee null), and the product brief's fencing range in
reference/README.md (USD 60-120/m). The other public figures (the safety
controller, EC type certification) are checked in test_public_figures.py.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from pydantic import ValidationError

from compliance.calculators.base import Certainty
from compliance.costs.catalogue import (
    CATALOGUE,
    CATALOGUE_BY_KEY,
    CatalogueEntry,
)

PRICED = {"fence", "risk_assessment", "safety_controller", "ec_type_certification"}


def test_only_the_entries_with_a_public_figure_have_prices():
    priced = {e.key for e in CATALOGUE if e.price_known}
    assert priced == PRICED


def test_unpriced_entries_are_marked_unknown_with_a_source():
    for entry in CATALOGUE:
        assert entry.source
        if entry.key not in PRICED:
            assert entry.price_low is None and entry.price_high is None
            assert entry.basis == "unknown"


def test_fence_is_the_briefs_rough_planning_range():
    fence = CATALOGUE_BY_KEY["fence"]
    assert (fence.price_low, fence.price_high) == (Decimal(60), Decimal(120))
    assert fence.currency == "USD"
    assert fence.unit == "m"
    assert fence.basis == "planning_range"
    assert "rough" in fence.note.lower() and "not verified" in fence.note


def test_laser_scanner_has_no_invented_range():
    scanner = CATALOGUE_BY_KEY["laser_scanner"]
    assert scanner.price_low is None
    assert scanner.basis == "unknown"
    assert "thousands of USD each" in scanner.note


def test_risk_assessment_is_the_single_published_range():
    entry = CATALOGUE_BY_KEY["risk_assessment"]
    assert (entry.price_low, entry.price_high, entry.currency) == (
        Decimal(3000),
        Decimal(5000),
        "EUR",
    )
    # public_figures_2026_12: "date_seen": "undated (page crawled 2026)".
    assert entry.price_date == "undated (page crawled 2026)"
    assert entry.basis == "public_price"
    assert entry.certainty is Certainty.ONE_SOURCE
    assert "mp-is.eu" in entry.source


def test_korean_lead_times_as_the_reference_gives_them():
    declaration = CATALOGUE_BY_KEY["kr_self_declaration"]
    assert (declaration.lead_time_weeks_low, declaration.lead_time_weeks_high) == (
        Decimal(3),
        Decimal(4),
    )
    assert "gcnq.co.kr" in (declaration.lead_time_source or "")
    assert declaration.price_low is None
    certification = CATALOGUE_BY_KEY["kcs_certification"]
    assert certification.lead_time_weeks_low is None
    assert certification.price_low is None


def test_component_lead_times_are_unknown():
    for key in ("fence", "light_curtain", "laser_scanner", "safety_controller"):
        assert CATALOGUE_BY_KEY[key].lead_time_weeks_low is None


def test_money_is_decimal():
    for entry in CATALOGUE:
        for value in (entry.price_low, entry.price_high, entry.lead_time_weeks_low):
            assert value is None or isinstance(value, Decimal)


def _entry(**kw):
    fields = {
        "key": "thing",
        "name": "Thing",
        "category": "device",
        "unit": "piece",
        "price_low": Decimal(1),
        "price_high": Decimal(2),
        "currency": "USD",
        "basis": "public_price",
        "source": "a quote",
    }
    return CatalogueEntry(**(fields | kw))


def test_negative_price_is_rejected():
    with pytest.raises(ValidationError, match="greater than or equal to 0"):
        _entry(price_low=Decimal(-1))


def test_float_price_is_rejected():
    with pytest.raises(ValidationError, match="never a float"):
        _entry(price_low=1.5)


@pytest.mark.parametrize(
    "fields",
    [
        {"price_high": None},  # one end only
        {"price_low": Decimal(3)},  # low above high
        {"currency": None},  # a price without currency
        {"basis": "unknown"},  # a price marked unknown
        {"price_low": None, "price_high": None},  # no price, basis not unknown
    ],
)
def test_inconsistent_entries_are_rejected(fields):
    with pytest.raises(ValidationError):
        _entry(**fields)


def test_entries_are_frozen():
    with pytest.raises(ValidationError):
        CATALOGUE_BY_KEY["fence"].price_low = Decimal(1)
