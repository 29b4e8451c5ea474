"""Writes of the library: seeding, entries of the organisation's own, the
CSV import (all rows or none), and who may write."""

from __future__ import annotations

import importlib
from datetime import date
from decimal import Decimal

import pytest
from django.apps import apps
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from compliance.safety_functions.library import selectors, services
from compliance.safety_functions.library.catalogue import STARTING_ENTRIES
from compliance.safety_functions.library.csv_io import MAX_BYTES
from compliance.safety_functions.models import LibraryDevice
from tests.compliance.safety_functions.library.conftest import PRICED, library_device
from tests.factories import OrganisationFactory

pytestmark = pytest.mark.django_db


def snapshot(organisation) -> list[dict]:
    return list(
        LibraryDevice.objects.filter(organisation=organisation).order_by("key").values()
    )


def test_seeding_copies_every_starting_entry_once(organisation):
    assert services.library_seed(organisation=organisation) == len(STARTING_ENTRIES)
    before = snapshot(organisation)
    assert services.library_seed(organisation=organisation) == 0
    assert snapshot(organisation) == before  # idempotent, nothing touched
    assert all(row["from_reference"] for row in before)
    assert all(row["price_low"] is None for row in before)  # to be quoted


def test_seeding_again_restores_only_what_was_deleted(seeded):
    LibraryDevice.objects.filter(organisation=seeded, key="LC-1").delete()
    LibraryDevice.objects.filter(organisation=seeded, key="LC-2").update(notes="ours")
    assert services.library_seed(organisation=seeded) == 1
    assert LibraryDevice.objects.get(organisation=seeded, key="LC-2").notes == "ours"


def test_each_organisation_has_its_own_library(seeded):
    other = OrganisationFactory()
    services.library_seed(organisation=other)
    assert LibraryDevice.objects.filter(organisation=other).count() == len(
        STARTING_ENTRIES
    )
    assert not selectors.library_devices(other).filter(organisation=seeded).exists()


def test_the_data_migration_seeds_existing_organisations(organisation):
    migration = importlib.import_module(
        "compliance.migrations.0010_seed_device_library"
    )
    migration.seed(apps, None)
    migration.seed(apps, None)
    assert LibraryDevice.objects.filter(organisation=organisation).count() == len(
        STARTING_ENTRIES
    )


def test_the_create_organisation_command_seeds_its_library(db):
    from django.core.management import call_command

    call_command("create_organisation", "Busan Safety", "--slug", "busan")
    assert LibraryDevice.objects.filter(organisation__slug="busan").count() == len(
        STARTING_ENTRIES
    )


def test_an_own_entry_is_saved_with_its_price(organisation, owner):
    device = services.library_device_save(
        organisation=organisation,
        actor=owner,
        key="OWN-7",
        kind="laser_scanner",
        maker="Acme",
        model="Scan 5",
        pl="d",
        price_date=date(2026, 11, 2),
        **PRICED,
    )
    assert device.has_price and not device.from_reference


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"price_low": Decimal(5)}, "price_high"),
        (
            {"price_low": Decimal(9), "price_high": Decimal(5), "currency": "USD"},
            "price_high",
        ),
        (
            {"price_low": Decimal(5), "price_high": Decimal(9), "price_source": "q"},
            "currency",
        ),
        (
            {"price_low": Decimal(5), "price_high": Decimal(9), "currency": "USD"},
            "price_source",
        ),
        ({"currency": "USD"}, "currency"),
        ({"pfhd_per_hour": 1e-4}, "pfhd_per_hour"),
        ({"pfhd_per_hour": 0.5}, "pfhd_per_hour"),
        ({"pl": "f"}, "pl"),
        ({"maker": ""}, "maker"),
        ({"lead_time_weeks_low": Decimal(2)}, "lead_time_weeks_high"),
    ],
)
def test_inconsistent_entries_are_refused_on_their_field(
    organisation, owner, fields, field
):
    values = {"key": "X", "kind": "other", "maker": "M", "model": "N", **fields}
    with pytest.raises(ValidationError) as caught:
        services.library_device_save(organisation=organisation, actor=owner, **values)
    assert field in caught.value.message_dict


def test_a_code_is_unique_in_the_library(seeded, owner):
    with pytest.raises(ValidationError) as caught:
        services.library_device_save(
            organisation=seeded,
            actor=owner,
            key="LC-1",
            kind="other",
            maker="M",
            model="N",
        )
    assert "key" in caught.value.message_dict


def test_a_changed_safety_figure_makes_a_starting_entry_the_organisations_own(
    seeded, owner
):
    entry = LibraryDevice.objects.get(organisation=seeded, key="LC-1")
    priced = services.library_device_save(
        organisation=seeded,
        actor=owner,
        device=entry,
        price_date=date(2026, 1, 5),
        **PRICED,
    )
    assert priced.from_reference  # a price is the organisation's, not a figure
    changed = services.library_device_save(
        organisation=seeded, actor=owner, device=entry, response_time_ms=Decimal(15)
    )
    assert not changed.from_reference


def test_viewers_cannot_write_the_library(seeded, viewer):
    entry = LibraryDevice.objects.filter(organisation=seeded).first()
    with pytest.raises(PermissionDenied):
        services.library_device_save(
            organisation=seeded, actor=viewer, device=entry, notes="x"
        )
    with pytest.raises(PermissionDenied):
        services.library_device_delete(device=entry, actor=viewer)
    with pytest.raises(PermissionDenied):
        services.library_import_csv(organisation=seeded, actor=viewer, data=b"")
    with pytest.raises(PermissionDenied):
        services.library_seed(organisation=seeded, actor=viewer)


# --- CSV import ---------------------------------------------------------------


def test_an_export_imported_again_changes_nothing(seeded, owner):
    library_device(seeded, price_date=date(2026, 3, 1), notes="=SUM(A1)", **PRICED)
    before = snapshot(seeded)
    result = services.library_import_csv(
        organisation=seeded,
        actor=owner,
        data=selectors.library_csv(seeded).encode("utf-8-sig"),
    )
    assert (result.created, result.updated) == (0, 0)
    assert result.unchanged == len(before)
    assert snapshot(seeded) == before  # updated_at too: nothing was written


def test_a_row_updates_the_entry_of_its_key_and_adds_others(seeded, owner):
    csv = (
        "key,kind,maker,model,price_low,price_high,currency,price_source,price_date\r\n"
        "LC-1,light_curtain,SICK,deTec4 Core,900,1100,EUR,Distributor list 2026,2026-02-01\r\n"
        "NEW-1,safety_mat,Acme,Mat 1,,,,,\r\n"
    )
    result = services.library_import_csv(
        organisation=seeded, actor=owner, data=csv.encode()
    )
    assert (result.created, result.updated) == (1, 1)
    lc1 = LibraryDevice.objects.get(organisation=seeded, key="LC-1")
    assert (lc1.price_low, lc1.currency, lc1.price_date) == (
        900,
        "EUR",
        date(2026, 2, 1),
    )
    assert lc1.from_reference  # its figures are still the reference's
    assert lc1.pfhd_per_hour == 3.7e-09  # a column the file leaves out is kept
    new = LibraryDevice.objects.get(organisation=seeded, key="NEW-1")
    assert not new.from_reference and new.price_low is None


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ("R-1,light_curtain,SICK,C4C,f,,", "pl"),
        ("R-1,light_curtain,SICK,C4C,e,0.5,", "pfhd_per_hour"),  # out of range
        ("R-1,light_curtain,SICK,C4C,e,1E-4,", "pfhd_per_hour"),  # the bound itself
        ("R-1,conveyor,SICK,C4C,e,,", "kind"),
        ("R-1,light_curtain,,C4C,e,,", "maker"),
        ("R-1,light_curtain,SICK,C4C,e,,-3", "response_time_ms"),
        ("R-1,light_curtain,SICK,C4C,e,,99999999", "response_time_ms"),
    ],
)
def test_a_bad_row_saves_nothing_and_names_its_row_and_field(
    seeded, owner, line, field
):
    before = snapshot(seeded)
    csv = (
        "key,kind,maker,model,pl,pfhd_per_hour,response_time_ms\r\n"
        "OK-1,light_curtain,SICK,C4C,e,3.7E-09,13\r\n"
        f"{line}\r\n"
    )
    with pytest.raises(services.LibraryImportRefused) as caught:
        services.library_import_csv(organisation=seeded, actor=owner, data=csv.encode())
    assert {(e.row, e.field) for e in caught.value.errors} == {(3, field)}
    assert snapshot(seeded) == before  # not even the good row


def test_errors_of_every_row_are_listed_together(seeded, owner):
    csv = (
        "key,kind,maker,model,pl,pfhd_per_hour\r\n"
        "A,light_curtain,,C4C,e,\r\n"
        "B,light_curtain,SICK,C4C,x,0.5\r\n"
    )
    with pytest.raises(services.LibraryImportRefused) as caught:
        services.library_import_csv(organisation=seeded, actor=owner, data=csv.encode())
    assert [(e.row, e.field) for e in caught.value.errors] == [
        (2, "maker"),
        (3, "pfhd_per_hour"),
        (3, "pl"),
    ]


def test_a_file_too_big_is_refused_as_a_whole(seeded, owner):
    with pytest.raises(services.LibraryImportRefused) as caught:
        services.library_import_csv(
            organisation=seeded, actor=owner, data=b"k" * (MAX_BYTES + 1)
        )
    (error,) = caught.value.errors
    assert (error.row, error.field) == (0, "file")
    assert "larger than" in error.message


def _import_queries(organisation, owner, rows: int) -> list[str]:
    lines = ["key,kind,maker,model,pfhd_per_hour"]
    lines += [f"K-{rows}-{i},safety_relay,Maker,Relay {i},1E-9" for i in range(rows)]
    with CaptureQueriesContext(connection) as queries:
        result = services.library_import_csv(
            organisation=organisation, actor=owner, data="\r\n".join(lines).encode()
        )
    assert result.created == rows
    return [q["sql"] for q in queries.captured_queries]


def test_an_import_reads_a_fixed_number_of_times_whatever_its_rows(organisation, owner):
    # Only the database's insert batches grow with the rows (SQLite holds
    # few parameters per statement); nothing is looked up row by row.
    _import_queries(organisation, owner, 1)  # the user's roles are read once
    small = _import_queries(organisation, owner, 3)
    large = _import_queries(organisation, owner, 400)
    reads = [q for q in large if not q.startswith("INSERT")]
    assert len(reads) == len([q for q in small if not q.startswith("INSERT")])
    assert len(reads) <= 6
