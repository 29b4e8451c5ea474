"""Supplier quotes over the API (issue 29): an import answers 201 with the
rows and their matches, 400 listing each row and column at fault (nothing
saved), 409 with what would change for a quote already stored until it says
replace; a row's match is confirmed or corrected; another organisation's
quote is a 404."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from compliance.costs.quotes.models import SupplierQuote
from tests.compliance.costs.quotes.test_pages import curtain_row, workbook

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def post(client, organisation, file, **extra):
    return client.post(
        f"/api/v1/organisations/{organisation.pk}/quotes/",
        {"file": file, **extra},
        format="multipart",
    )


def test_import_then_read_then_replace_then_delete(owner, organisation):
    client = api(owner)
    made = post(client, organisation, workbook())
    assert made.status_code == 201, made.data
    (row,) = made.data["rows"]
    assert (row["catalogue_key"], row["matched_by"]) == ("", "none")
    assert made.data["expired"] is False
    listed = client.get(f"/api/v1/organisations/{organisation.pk}/quotes/").data
    assert [q["number"] for q in listed] == ["Q-2026-118"]

    corrected = client.put(
        f"/api/v1/quotes/{made.data['id']}/rows/{row['id']}/match/",
        {"catalogue_key": "light_curtain"},
        format="json",
    )
    assert (corrected.status_code, corrected.data["matched_by"]) == (200, "person")

    cheaper = curtain_row(price_low=Decimal("990000"), price_high=Decimal("990000"))
    again = post(client, organisation, workbook(cheaper))
    assert again.status_code == 409
    assert (again.data["added"], again.data["removed"], again.data["changed"]) == (
        0,
        0,
        1,
    )
    replaced = post(client, organisation, workbook(cheaper), replace=True)
    assert replaced.status_code == 201
    (row,) = replaced.data["rows"]
    assert (row["price_low"], row["catalogue_key"], row["matched_by"]) == (
        "990000.00",
        "light_curtain",
        "person",
    )
    gone = client.delete(f"/api/v1/quotes/{replaced.data['id']}/")
    assert gone.status_code == 204 and not SupplierQuote.objects.exists()


def test_a_bad_file_is_a_400_naming_rows_and_nothing_is_saved(owner, organisation):
    response = post(
        api(owner), organisation, SimpleUploadedFile("quote.csv", b"Supplier,X\n")
    )
    assert response.status_code == 400
    assert response.data["file"] and "message" in response.data["file"][0]
    assert not SupplierQuote.objects.exists()


def test_bad_matches_are_400s_naming_the_field(owner, outsider, organisation):
    client = api(owner)
    made = post(client, organisation, workbook()).data
    url = f"/api/v1/quotes/{made['id']}/rows/{made['rows'][0]['id']}/match/"
    wrong = client.put(url, {"catalogue_key": "no_such"}, format="json")
    assert wrong.status_code == 400 and "catalogue_key" in wrong.data
    foreign = client.put(
        url, {"catalogue_key": "fence", "library_device": 999999}, format="json"
    )
    assert foreign.status_code == 400 and "library_device" in foreign.data


def test_another_organisations_quotes_are_404s(owner, outsider, organisation, viewer):
    made = post(api(owner), organisation, workbook()).data
    stranger = api(outsider)
    assert stranger.get(f"/api/v1/quotes/{made['id']}/").status_code == 404
    assert stranger.delete(f"/api/v1/quotes/{made['id']}/").status_code == 404
    assert (
        stranger.get(f"/api/v1/organisations/{organisation.pk}/quotes/").status_code
        == 404
    )
    assert post(stranger, organisation, workbook(number="X")).status_code == 404
    assert post(api(viewer), organisation, workbook(number="Y")).status_code == 403
    assert SupplierQuote.objects.count() == 1
