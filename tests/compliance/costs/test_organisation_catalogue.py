"""An organisation's own figures in place of the starting catalogue's (pure)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from pydantic import ValidationError

from compliance.costs import CATALOGUE_BY_KEY
from compliance.costs.catalogue import NOT_FOUND
from compliance.costs.organisation import (
    EntryEdit,
    edited_entry,
    organisation_catalogue,
)


def test_a_quote_replaces_price_to_be_quoted_with_its_source_and_date():
    mat = CATALOGUE_BY_KEY["safety_mat"]
    assert mat.price_low is None and mat.note == NOT_FOUND
    quoted = edited_entry(
        mat,
        EntryEdit(
            price_low=Decimal("2100000"),
            price_high=Decimal("2600000"),
            currency="KRW",
            price_date=date(2026, 11, 2),
            source="Supplier quote Q-2611-07",
        ),
    )
    assert (quoted.price_low, quoted.price_high) == (2100000, 2600000)
    assert quoted.basis == "organisation"
    assert quoted.source == "Supplier quote Q-2611-07"
    assert quoted.price_date == "2026-11-02"
    assert quoted.certainty is None  # a private quote, not a public source
    assert quoted.note == ""  # "no public price was found" no longer applies
    assert quoted.lead_time_weeks_low is None  # not given: stays unknown


def test_a_lead_time_alone_keeps_the_starting_price():
    fence = CATALOGUE_BY_KEY["fence"]
    edited = edited_entry(
        fence,
        EntryEdit(
            lead_time_weeks_low=Decimal(3),
            lead_time_weeks_high=Decimal(5),
            source="Fence supplier, phone call",
        ),
    )
    assert (edited.price_low, edited.price_high) == (fence.price_low, fence.price_high)
    assert edited.basis == fence.basis
    assert (edited.lead_time_weeks_low, edited.lead_time_weeks_high) == (3, 5)
    assert edited.lead_time_source == "Fence supplier, phone call"


@pytest.mark.parametrize(
    "fields",
    [
        {"price_low": Decimal(5)},  # half a range
        {"price_low": Decimal(9), "price_high": Decimal(5), "currency": "USD"},
        {"price_low": Decimal(5), "price_high": Decimal(9)},  # no currency
        {"price_low": Decimal(-1), "price_high": Decimal(9), "currency": "USD"},
    ],
)
def test_inconsistent_figures_are_refused(fields):
    with pytest.raises((ValidationError, ValueError)):
        edited_entry(
            CATALOGUE_BY_KEY["light_curtain"], EntryEdit(**fields, source="quote")
        )


def test_a_figure_needs_its_source():
    with pytest.raises(ValidationError):
        EntryEdit(
            price_low=Decimal(1), price_high=Decimal(2), currency="USD", source=""
        )


def test_the_organisation_catalogue_changes_only_the_edited_entries():
    edit = EntryEdit(
        price_low=Decimal(900), price_high=Decimal(1200), currency="EUR", source="q"
    )
    catalogue = organisation_catalogue({"safety_mat": edit, "retired_entry": edit})
    assert catalogue["safety_mat"].price_low == 900
    assert catalogue["light_curtain"] == CATALOGUE_BY_KEY["light_curtain"]
    assert "retired_entry" not in catalogue
    assert set(catalogue) == set(CATALOGUE_BY_KEY)
