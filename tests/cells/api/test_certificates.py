"""Certificates on file through the API: create, change, delete, validate, filter."""

from __future__ import annotations

import pytest

from cells.models import CellCertificate
from tests.cells.api.support import certificate_body, detail_url, list_url
from tests.cells.certificates import CellCertificateFactory
from tests.factories import CellFactory

pytestmark = pytest.mark.django_db


def test_editor_records_a_certificate_and_is_named_as_its_recorder(
    owner_api, owner, cell
):
    response = owner_api.post(
        list_url("certificate"), certificate_body(cell), format="json"
    )

    assert response.status_code == 201
    certificate = CellCertificate.objects.get(pk=response.data["id"])
    assert (certificate.cell, certificate.number) == (cell, "KIRIA-CW-2026-101")
    assert certificate.created_by == owner
    assert response.data["valid_until"] == "2029-01-14"
    assert response.data["created_by"] == owner.pk


def test_editor_corrects_and_deletes_a_certificate(owner_api, certificate):
    changed = owner_api.patch(
        detail_url("certificate", certificate.pk),
        {"valid_until": "2028-03-31"},
        format="json",
    )
    deleted = owner_api.delete(detail_url("certificate", certificate.pk))

    assert changed.status_code == 200
    assert changed.data["valid_until"] == "2028-03-31"
    assert deleted.status_code == 204
    assert not CellCertificate.objects.exists()


def test_validity_ending_before_issue_is_a_400_on_valid_until(owner_api, cell):
    body = certificate_body(cell, issued_on="2026-01-15", valid_until="2026-01-15")

    response = owner_api.post(list_url("certificate"), body, format="json")

    assert response.status_code == 400
    assert "after it was issued (2026-01-15)" in str(response.data["valid_until"])
    assert not CellCertificate.objects.exists()


def test_patching_only_one_date_is_checked_against_the_other(owner_api, certificate):
    # The fixture was issued on 2025-03-01.
    response = owner_api.patch(
        detail_url("certificate", certificate.pk),
        {"valid_until": "2024-12-31"},
        format="json",
    )

    assert response.status_code == 400
    assert "valid_until" in response.data
    certificate.refresh_from_db()
    assert str(certificate.valid_until) == "2028-02-28"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("number", ""),
        ("number", "   "),
        ("issuing_body", ""),
        ("issued_on", "not a date"),
        ("valid_until", "2026-02-30"),
        ("kind", "kcs"),
        ("scope", "x" * 1001),
        ("number", "N" * 61),
    ],
)
def test_bad_input_is_a_400_naming_the_field(owner_api, cell, field, value):
    body = certificate_body(cell, **{field: value})

    response = owner_api.post(list_url("certificate"), body, format="json")

    assert response.status_code == 400
    assert field in response.data


def test_missing_required_fields_are_each_named(owner_api, cell):
    response = owner_api.post(list_url("certificate"), {"cell": cell.pk}, format="json")

    assert response.status_code == 400
    assert {"issuing_body", "number", "issued_on", "valid_until"} <= set(response.data)


def test_scope_of_1000_characters_is_accepted(owner_api, cell):
    body = certificate_body(cell, scope="x" * 1000)

    assert owner_api.post(list_url("certificate"), body, format="json").status_code == (
        201
    )


def test_list_filters_by_cell_and_is_paginated(owner_api, cell, project, certificate):
    other = CellCertificateFactory(cell=CellFactory(project=project))

    mine = owner_api.get(list_url("certificate"), {"cell": cell.pk})
    everything = owner_api.get(list_url("certificate"))

    assert [row["id"] for row in mine.data["results"]] == [certificate.pk]
    assert everything.data["count"] == 2
    assert {row["id"] for row in everything.data["results"]} == {
        certificate.pk,
        other.pk,
    }


def test_filtering_by_a_foreign_cell_finds_nothing(owner_api, outsider, certificate):
    foreign = CellCertificateFactory()

    response = owner_api.get(list_url("certificate"), {"cell": foreign.cell_id})

    assert response.status_code == 200
    assert response.data["count"] == 0


def test_editor_cannot_move_a_certificate_to_a_foreign_cell(owner_api, certificate):
    foreign = CellFactory()

    response = owner_api.patch(
        detail_url("certificate", certificate.pk),
        {"cell": foreign.pk},
        format="json",
    )

    assert response.status_code == 400
    assert "does not exist" in str(response.data["cell"][0])
    certificate.refresh_from_db()
    assert certificate.cell_id != foreign.pk


def test_recorder_and_time_cannot_be_set(owner_api, owner, safety_engineer, cell):
    body = certificate_body(
        cell, created_by=safety_engineer.pk, created_at="2000-01-01T00:00:00Z"
    )

    response = owner_api.post(list_url("certificate"), body, format="json")

    assert response.status_code == 201
    certificate = CellCertificate.objects.get(pk=response.data["id"])
    assert certificate.created_by == owner
    assert certificate.created_at.year != 2000
