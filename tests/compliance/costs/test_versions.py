"""A change of a cost row names the version it read (issue 28): a derived
line's edit, a line of one's own and an organisation's catalogue figures. A
stale version answers 409 with the row as stored and the fields that differ,
and nothing is saved; the current one saves and raises the version; the web
forms carry the version and say when someone else saved since."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.models import CatalogueEdit, CustomLineItem, LineItemEdit
from tests.factories import GuardSegmentFactory, OpeningFactory

pytestmark = pytest.mark.django_db

CONFLICT = "Someone else saved this since you opened it: nothing was saved."


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def curtain_key(owner, cell) -> str:
    """The key of the light curtain's line: an unguarded opening asks for it."""
    segment = GuardSegmentFactory(cell=cell, label="F1")
    OpeningFactory(segment=segment, label="Infeed", purpose="material_entry")
    data = api(owner).get(f"/api/v1/cells/{cell.pk}/line-items/").json()
    return next(
        i["key"] for i in data["items"] if i["catalogue_key"] == "light_curtain"
    )


# --- a derived line's edit ------------------------------------------------------------


def test_a_derived_line_refuses_a_change_sent_with_a_stale_version(
    owner, cell, curtain_key
):
    client = api(owner)
    url = f"/api/v1/cells/{cell.pk}/line-items/{curtain_key}/"
    # As derived: no edit, no version yet.
    read = client.get(url).json()
    assert read["version"] is None and read["line"]["key"] == curtain_key
    assert client.put(url, {"quantity": "3"}, format="json").status_code == 200
    assert client.get(url).json()["version"] == 1
    # A change with the version read saves and raises it.
    first = client.put(url, {"quantity": "4", "version": 1}, format="json")
    assert first.status_code == 200, first.json()
    read = client.get(url).json()
    assert read["version"] == 2 and Decimal(read["line"]["quantity"]) == 4
    # Another, sent with the version read before that: refused, nothing saved.
    stale = client.put(url, {"quantity": "5", "version": 1}, format="json")
    assert stale.status_code == 409, stale.json()
    body = stale.json()
    assert body["differs"] == ["quantity"]
    assert Decimal(body["current"]["line"]["quantity"]) == 4
    assert body["current"]["version"] == 2
    edit = LineItemEdit.objects.get(cell=cell, key=curtain_key)
    assert (edit.quantity, edit.version) == (4, 2)
    # A version out of bounds is a 400 naming it.
    bad = client.put(url, {"quantity": "5", "version": "x"}, format="json")
    assert bad.status_code == 400 and "version" in bad.json()
    # Without a version, the change is made as before.
    plain = client.put(url, {"quantity": "5"}, format="json")
    assert plain.status_code == 200 and Decimal(plain.json()["quantity"]) == 5
    assert client.get(url).json()["version"] == 3


def test_a_dropped_edit_starts_again_at_version_1(owner, cell, curtain_key):
    client = api(owner)
    url = f"/api/v1/cells/{cell.pk}/line-items/{curtain_key}/"
    client.put(url, {"quantity": "3"}, format="json")
    client.put(url, {"quantity": "4", "version": 1}, format="json")
    assert client.delete(url).status_code == 204
    assert client.get(url).json()["version"] is None
    assert client.put(url, {"quantity": "2"}, format="json").status_code == 200
    assert client.get(url).json()["version"] == 1


def test_an_edit_made_by_another_request_at_the_same_moment_is_changed(
    cell, monkeypatch
):
    # Both requests find no edit; the other one inserts it first: this one's
    # insert breaks the unique key and it changes the other's edit instead.
    from django.db.models import QuerySet

    from compliance.costs.services import versioned_upsert

    LineItemEdit.objects.create(cell=cell, key="fence", quantity=1)
    first = QuerySet.first
    missed = []

    def misses_once(self):
        if self.model is LineItemEdit and not missed:
            missed.append(True)
            return None
        return first(self)

    monkeypatch.setattr(QuerySet, "first", misses_once)
    row = versioned_upsert(
        LineItemEdit, {"cell": cell, "key": "fence"}, {"quantity": 2}, None, []
    )
    assert missed and (row.quantity, row.version) == (2, 2)
    assert LineItemEdit.objects.filter(cell=cell).count() == 1


def test_the_line_edit_form_says_someone_else_saved_and_keeps_theirs(
    owner, owner_client, cell, curtain_key
):
    url = reverse("compliance:line_item_edit", args=[cell.pk, curtain_key])
    owner_client.post(url, {"quantity": "2"})
    edit = LineItemEdit.objects.get(cell=cell, key=curtain_key)
    page = owner_client.get(url).text
    assert f'name="version" value="{edit.version}"' in page
    # Someone saves over the API meanwhile.
    line_url = f"/api/v1/cells/{cell.pk}/line-items/{curtain_key}/"
    api(owner).put(line_url, {"quantity": "7"}, format="json")
    response = owner_client.post(url, {"quantity": "3", "version": edit.version})
    assert response.status_code == 200
    assert CONFLICT in response.text
    edit.refresh_from_db()
    assert (edit.quantity, edit.version) == (7, 2)
    # Saving again, knowingly, replaces theirs.
    assert f'name="version" value="{edit.version}"' in response.text
    owner_client.post(url, {"quantity": "3", "version": edit.version})
    edit.refresh_from_db()
    assert (edit.quantity, edit.version) == (3, 3)


# --- a line of one's own -----------------------------------------------------------


LINE = {
    "description": "Pallet gate",
    "category": "guarding",
    "quantity": "1",
    "unit": "piece",
}


def test_a_line_of_ones_own_refuses_a_change_sent_with_a_stale_version(owner, cell):
    client = api(owner)
    created = client.post(
        f"/api/v1/cells/{cell.pk}/custom-line-items/", LINE, format="json"
    )
    assert created.status_code == 201 and created.json()["version"] == 1
    url = f"/api/v1/cells/{cell.pk}/custom-line-items/{created.json()['id']}/"
    assert client.get(url).json()["version"] == 1
    first = client.put(url, {**LINE, "quantity": "2", "version": 1}, format="json")
    assert first.status_code == 200, first.json()
    assert first.json()["version"] == 2
    stale = client.put(url, {**LINE, "quantity": "3", "version": 1}, format="json")
    assert stale.status_code == 409, stale.json()
    body = stale.json()
    assert body["differs"] == ["quantity"]
    assert Decimal(body["current"]["quantity"]) == 2
    assert body["current"]["version"] == 2
    row = CustomLineItem.objects.get()
    assert (row.quantity, row.version) == (2, 2)
    assert client.get(url).json()["version"] == 2
    bad = client.put(url, {**LINE, "version": "x"}, format="json")
    assert bad.status_code == 400 and "version" in bad.json()
    # Without a version, the change is made as before.
    plain = client.put(url, {**LINE, "quantity": "4"}, format="json")
    assert plain.status_code == 200 and plain.json()["version"] == 3


def test_the_custom_line_form_says_someone_else_saved_and_keeps_theirs(
    owner, owner_client, cell
):
    row = CustomLineItem.objects.create(
        cell=cell, description="Pallet gate", quantity=1, unit="piece"
    )
    url = reverse("compliance:custom_line_edit", args=[cell.pk, row.pk])
    assert 'name="version" value="1"' in owner_client.get(url).text
    api(owner).put(
        f"/api/v1/cells/{cell.pk}/custom-line-items/{row.pk}/",
        {**LINE, "quantity": "5"},
        format="json",
    )
    form = {**LINE, "quantity": "2", "version": 1}
    response = owner_client.post(url, form)
    assert response.status_code == 200
    assert CONFLICT in response.text
    row.refresh_from_db()
    assert (row.quantity, row.version) == (5, 2)
    owner_client.post(url, {**form, "version": 2})
    row.refresh_from_db()
    assert (row.quantity, row.version) == (2, 3)


# --- the organisation's catalogue ------------------------------------------------


QUOTE = {"price_low": "100", "price_high": "200", "currency": "EUR", "source": "Q-1"}


def test_a_catalogue_entry_refuses_a_change_sent_with_a_stale_version(
    owner, organisation
):
    client = api(owner)
    url = f"/api/v1/organisations/{organisation.pk}/catalogue/safety_mat/"
    read = client.get(url).json()
    assert read["version"] is None and read["entry"]["key"] == "safety_mat"
    assert client.put(url, QUOTE, format="json").status_code == 200
    assert client.get(url).json()["version"] == 1
    first = client.put(url, {**QUOTE, "price_high": "300", "version": 1}, format="json")
    assert first.status_code == 200, first.json()
    read = client.get(url).json()
    assert read["version"] == 2 and read["entry"]["price_high"] == "300.00"
    stale = client.put(url, {**QUOTE, "price_high": "250", "version": 1}, format="json")
    assert stale.status_code == 409, stale.json()
    body = stale.json()
    assert body["differs"] == ["price_high"]
    assert body["current"]["entry"]["price_high"] == "300.00"
    assert body["current"]["version"] == 2
    edit = CatalogueEdit.objects.get()
    assert (edit.price_high, edit.version) == (300, 2)
    bad = client.put(url, {**QUOTE, "version": "x"}, format="json")
    assert bad.status_code == 400 and "version" in bad.json()


def test_the_catalogue_form_says_someone_else_saved_and_keeps_theirs(
    owner, owner_client, organisation
):
    client = api(owner)
    entry_url = f"/api/v1/organisations/{organisation.pk}/catalogue/safety_mat/"
    client.put(entry_url, QUOTE, format="json")
    url = reverse("compliance:catalogue_edit", args=[organisation.pk, "safety_mat"])
    assert 'name="version" value="1"' in owner_client.get(url).text
    client.put(entry_url, {**QUOTE, "source": "Q-2"}, format="json")
    response = owner_client.post(url, {**QUOTE, "source": "Q-3", "version": 1})
    assert response.status_code == 200
    assert CONFLICT in response.text
    edit = CatalogueEdit.objects.get()
    assert (edit.source, edit.version) == ("Q-2", 2)
    assert 'name="version" value="2"' in response.text
