"""The bill of materials prices a recorded device from the library entry it
was chosen from: the entry's price range, currency, lead time, source and
date; to be quoted when the entry has no price; existing equipment stays at
quantity 0. Without more queries per device."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from compliance.costs import selectors as cost_selectors
from compliance.costs.derivation import derive_line_items
from compliance.rules.facts import CellFacts, DeviceFacts, LibraryPrice
from tests.compliance.safety_functions.library.conftest import (
    PRICED,
    api,
    library_device,
)
from tests.factories import DeviceFactory

pytestmark = pytest.mark.django_db


def line_of(owner, cell, device) -> dict:
    data = api(owner).get(f"/api/v1/cells/{cell.pk}/line-items/").json()
    return next(i for i in data["items"] if i["key"] == f"recorded:device:{device.pk}")


def test_a_device_chosen_from_a_priced_entry_is_priced_from_it(
    owner, cell, organisation
):
    entry = library_device(organisation, price_date=date(2026, 10, 15), **PRICED)
    device = DeviceFactory(cell=cell, kind="light_curtain", library_device=entry)
    line = line_of(owner, cell, device)
    assert (Decimal(line["price_low"]), Decimal(line["price_high"])) == (1800, 2100)
    assert line["currency"] == "USD"
    assert (
        Decimal(line["lead_time_weeks_low"]),
        Decimal(line["lead_time_weeks_high"]),
    ) == (3, 5)
    assert line["basis"] == "organisation"
    assert line["source"] == "Acme quote Q-114" and line["price_date"] == "2026-10-15"
    assert (
        "Priced from the device library: Acme Safety Curtain 30, Acme quote Q-114, "
        "2026-10-15" in line["notes"]
    )
    assert Decimal(line["quantity"]) == 1 and Decimal(line["total_low"]) == 1800


def test_an_entry_without_a_price_makes_the_line_to_be_quoted(owner, cell, seeded):
    from compliance.safety_functions.models import LibraryDevice

    lc1 = LibraryDevice.objects.get(organisation=seeded, key="LC-1")
    device = DeviceFactory(cell=cell, kind="light_curtain", library_device=lc1)
    line = line_of(owner, cell, device)
    assert line["price_low"] is None and line["price_note"] == "price to be quoted"
    assert line["basis"] == "unknown"
    assert any("SICK deTec4 Core" in note for note in line["notes"])


def test_existing_equipment_stays_at_quantity_zero(owner, cell, organisation):
    entry = library_device(organisation, **PRICED)
    device = DeviceFactory(
        cell=cell, kind="light_curtain", library_device=entry, existing=True
    )
    line = line_of(owner, cell, device)
    assert Decimal(line["quantity"]) == 0
    assert Decimal(line["price_low"]) == 1800 and Decimal(line["total_low"]) == 0


def test_the_costs_page_shows_the_library_price(owner_client, cell, organisation):
    entry = library_device(organisation, **PRICED)
    DeviceFactory(cell=cell, kind="light_curtain", library_device=entry)
    text = owner_client.get(reverse("compliance:cell_costs", args=[cell.pk])).text
    assert "USD 1,800–2,100" in text
    assert "Priced from the device library" in text


def test_linked_devices_add_no_query_per_device(owner_client, cell, organisation):
    url = reverse("compliance:cell_costs", args=[cell.pk])

    def link(count: int, start: int) -> int:
        for i in range(start, start + count):
            entry = library_device(organisation, key=f"E-{i}", **PRICED)
            DeviceFactory(cell=cell, kind="light_curtain", library_device=entry)
        owner_client.get(url)  # the user's roles are read once
        with CaptureQueriesContext(connection) as queries:
            owner_client.get(url)
        return len(queries)

    assert link(2, 0) == link(10, 2)


def test_the_pure_pricing_of_library_lines():
    facts = CellFacts(
        country="US",
        robot_kind="industrial",
        robot_max_speed_mm_s=1500,
        robot_moving_mass_kg=60,
        payload_kg=10,
        devices=(
            DeviceFacts(
                key="device:1",
                label="LC1",
                kind="light_curtain",
                library=LibraryPrice(
                    key="X",
                    name="Maker Model",
                    price_low=Decimal(10),
                    price_high=Decimal(12),
                    currency="EUR",
                    price_source="Quote 1",
                ),
            ),
            DeviceFacts(
                key="device:2",
                label="ED1",
                kind="enabling_device",
                library=LibraryPrice(key="Y", name="Pendant"),
            ),
        ),
    )
    lines = {i.key: i for i in derive_line_items(facts)}
    priced, quoted = lines["recorded:device:1"], lines["recorded:device:2"]
    assert (priced.price_low, priced.currency, priced.basis) == (
        10,
        "EUR",
        "organisation",
    )
    assert "no date given" in priced.notes[0].render()
    assert priced.catalogue_key == "light_curtain"
    assert quoted.price_low is None and quoted.catalogue_key is None
    assert "Pendant" in quoted.notes[0].render()


def test_line_items_selector_uses_the_library(cell, organisation):
    from cells.selectors import cell_with_layout
    from tests.factories import MembershipFactory, UserFactory

    user = UserFactory()
    MembershipFactory(user=user, organisation=organisation)
    entry = library_device(organisation, **PRICED)
    DeviceFactory(cell=cell, kind="light_curtain", library_device=entry)
    items = cost_selectors.line_items(cell_with_layout(user, cell.pk))
    assert any(i.source == "Acme quote Q-114" for i in items)


def test_facts_read_the_entries_in_one_query_when_not_loaded_with_the_devices(
    cell, organisation
):
    from compliance.rules.cell_facts import cell_facts
    from compliance.rules.selectors import cell_with_layout

    def facts_queries(count: int, start: int) -> int:
        for i in range(start, start + count):
            entry = library_device(organisation, key=f"F-{i}", **PRICED)
            DeviceFactory(cell=cell, kind="light_curtain", library_device=entry)
        loaded = cell_with_layout(cell)  # devices without their library entries
        with CaptureQueriesContext(connection) as queries:
            facts = cell_facts(loaded)
        assert all(d.library and d.library.priced for d in facts.devices)
        return len(queries)

    assert facts_queries(2, 0) == facts_queries(10, 2)
