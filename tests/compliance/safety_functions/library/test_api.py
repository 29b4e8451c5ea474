"""The library over the API: paginated and filtered lists, writes through the
services (400s naming the field), CSV export and import; a viewer's write is
a 403 and another organisation's library a 404."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from compliance.safety_functions.library.catalogue import STARTING_ENTRIES
from compliance.safety_functions.models import LibraryDevice
from tests.compliance.safety_functions.library.conftest import (
    PRICED,
    api,
    library_device,
)

pytestmark = pytest.mark.django_db


def list_url(organisation) -> str:
    return reverse("organisation-library-devices", args=[organisation.pk])


def detail_url(organisation, device) -> str:
    return reverse("organisation-library-device", args=[organisation.pk, device.pk])


def test_the_list_is_paginated_and_marks_the_starting_entries(owner, seeded):
    data = api(owner).get(list_url(seeded)).json()
    assert data["count"] == len(STARTING_ENTRIES)
    lc1 = next(d for d in data["results"] if d["key"] == "LC-1")
    assert lc1["from_reference"] is True
    assert lc1["status"] == "From the maker's data sheet; check the current one."
    assert (lc1["pfhd_per_hour"], lc1["response_time_ms"]) == (3.7e-09, "13.0")
    assert lc1["has_price"] is False and lc1["price_low"] is None


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"kind": "multibeam"}, {"LC-2"}),
        ({"q": "AZM201"}, {"IL-2-interlock", "IL-2-guard-locking"}),
        ({"kind": "light_curtain", "pl_at_least": "e"}, {"LC-1", "OWN-1"}),
        ({"has_price": "true"}, {"OWN-1"}),
    ],
)
def test_the_list_filters(owner, seeded, params, expected):
    library_device(seeded, **PRICED)
    data = api(owner).get(list_url(seeded), params).json()
    assert {d["key"] for d in data["results"]} == expected


def test_a_bad_filter_is_a_400_naming_it(owner, seeded):
    response = api(owner).get(list_url(seeded), {"kind": "conveyor"})
    assert response.status_code == 400
    assert "kind" in response.json()


@pytest.mark.parametrize("extra", [3, 40])
def test_the_list_makes_a_fixed_number_of_queries(
    owner, organisation, extra, django_assert_num_queries
):
    for i in range(extra):
        library_device(organisation, key=f"K-{i}")
    client = api(owner)
    with django_assert_num_queries(3):
        response = client.get(list_url(organisation))
    assert response.json()["count"] == extra


def test_an_editor_creates_changes_and_deletes_an_entry(owner, seeded):
    client = api(owner)
    body = {
        "key": "MY-2",
        "kind": "laser_scanner",
        "maker": "Acme",
        "model": "Scan 9",
        "iec61496_type": 3,
        "pl": "d",
        "pfhd_per_hour": 8e-08,
        "price_low": "2500",
        "price_high": "3100",
        "currency": "EUR",
        "price_source": "Quote 12",
        "price_date": "2026-09-30",
    }
    response = client.post(list_url(seeded), body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["has_price"] is True
    device = LibraryDevice.objects.get(pk=response.json()["id"])
    assert device.organisation == seeded
    response = client.patch(
        detail_url(seeded, device), {"price_high": "3300"}, format="json"
    )
    assert response.status_code == 200 and response.json()["price_high"] == "3300.00"
    assert client.delete(detail_url(seeded, device)).status_code == 204
    assert not LibraryDevice.objects.filter(pk=device.pk).exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"price_low": "5"}, "price_high"),
        ({"price_low": "5", "price_high": "9", "currency": "USD"}, "price_source"),
        ({"pfhd_per_hour": 0.001}, "pfhd_per_hour"),
        ({"pl": "z"}, "pl"),
        ({"kind": "conveyor"}, "kind"),
        ({"key": "LC-1"}, "key"),
        ({"maker": ""}, "maker"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(owner, seeded, body, field):
    valid = {"key": "MY-3", "kind": "other", "maker": "M", "model": "N"}
    response = api(owner).post(list_url(seeded), {**valid, **body}, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_a_viewer_reads_but_cannot_write(viewer, seeded):
    client = api(viewer)
    device = LibraryDevice.objects.filter(organisation=seeded).first()
    assert client.get(detail_url(seeded, device)).status_code == 200
    body = {"key": "V-1", "kind": "other", "maker": "M", "model": "N"}
    assert client.post(list_url(seeded), body, format="json").status_code == 403
    assert (
        client.patch(detail_url(seeded, device), {}, format="json").status_code == 403
    )
    assert client.delete(detail_url(seeded, device)).status_code == 403
    seed = reverse("organisation-library-seed", args=[seeded.pk])
    assert client.post(seed).status_code == 403


def test_another_organisations_library_is_a_404(outsider, seeded):
    client = api(outsider)
    device = LibraryDevice.objects.filter(organisation=seeded).first()
    assert client.get(list_url(seeded)).status_code == 404
    assert client.get(detail_url(seeded, device)).status_code == 404
    export = reverse("organisation-library-export", args=[seeded.pk])
    assert client.get(export).status_code == 404


def test_export_and_import_round_trip(owner, seeded):
    client = api(owner)
    export = client.get(reverse("organisation-library-export", args=[seeded.pk]))
    assert export.status_code == 200 and export["Content-Type"].startswith("text/csv")
    url = reverse("organisation-library-import", args=[seeded.pk])
    upload = SimpleUploadedFile("library.csv", export.content, content_type="text/csv")
    response = client.post(url, {"file": upload}, format="multipart")
    assert response.status_code == 200
    assert response.json() == {
        "created": 0,
        "updated": 0,
        "unchanged": len(STARTING_ENTRIES),
    }


def test_import_errors_are_a_400_with_each_row_and_field(owner, seeded):
    url = reverse("organisation-library-import", args=[seeded.pk])
    text = b"key,kind,maker,model,pl\r\nA,light_curtain,SICK,C4C,q\r\n"
    upload = SimpleUploadedFile("library.csv", text, content_type="text/csv")
    response = api(owner).post(url, {"file": upload}, format="multipart")
    assert response.status_code == 400
    (error,) = response.json()["rows"]
    assert (error["row"], error["field"]) == (2, "pl")
    missing = api(owner).post(url, {}, format="multipart")
    assert missing.status_code == 400 and "file" in missing.json()


def test_seeding_over_the_api_is_idempotent(owner, organisation):
    url = reverse("organisation-library-seed", args=[organisation.pk])
    assert api(owner).post(url).json() == {"added": len(STARTING_ENTRIES)}
    assert api(owner).post(url).json() == {"added": 0}
