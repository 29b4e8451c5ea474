"""Certificates on file for a cell: the record, and its list and editor on
the cell page (htmx, and plain forms without JavaScript)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from cells.models import CellCertificate
from tests.cells.certificates import CellCertificateFactory
from tests.factories import CellFactory

HTMX = {"HTTP_HX_REQUEST": "true"}

FORM = {
    "kind": "kiria_cobot_workplace",
    "issuing_body": "한국로봇산업진흥원 (KIRIA)",
    "number": "KIRIA-CW-2026-101",
    "issued_on": "2026-01-15",
    "valid_until": "2029-01-14",
    "scope": "Machine tending at CNC 2 with one PFL collaborative robot.",
}


def add_url(cell):
    return reverse("cells:certificate_add", args=[cell.pk])


def edit_url(certificate):
    return reverse("cells:certificate_edit", args=[certificate.cell_id, certificate.pk])


def delete_url(certificate):
    return reverse(
        "cells:certificate_delete", args=[certificate.cell_id, certificate.pk]
    )


@pytest.fixture
def certificate(cell):
    return CellCertificateFactory(cell=cell, number="KIRIA-CW-2025-017")


# The record -------------------------------------------------------------------


def _certificate(cell, **kw) -> CellCertificate:
    fields = {
        "cell": cell,
        "issuing_body": "KIRIA",
        "number": "KIRIA-1",
        "issued_on": date(2025, 3, 1),
        "valid_until": date(2028, 2, 28),
    }
    return CellCertificate(**(fields | kw))


@pytest.mark.django_db
@pytest.mark.parametrize("valid_until", [date(2025, 3, 1), date(2025, 2, 1)])
def test_validity_must_end_after_issue(cell, valid_until):
    with pytest.raises(ValidationError) as caught:
        _certificate(cell, valid_until=valid_until).full_clean()
    assert caught.value.message_dict["valid_until"] == [
        "The certificate must be valid until a date after it was issued (2025-03-01)."
    ]


@pytest.mark.django_db
def test_database_refuses_a_validity_ending_before_issue(cell):
    with pytest.raises(IntegrityError), transaction.atomic():
        _certificate(cell, valid_until=date(2025, 1, 1)).save()


@pytest.mark.django_db
def test_database_refuses_an_empty_number_and_an_overlong_scope(cell):
    with pytest.raises(IntegrityError), transaction.atomic():
        _certificate(cell, number="").save()
    with pytest.raises(IntegrityError), transaction.atomic():
        _certificate(cell, scope="x" * 1001).save()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value"),
    [("number", "  "), ("issuing_body", "  "), ("scope", "x" * 1001)],
)
def test_clean_refuses_blank_names_and_an_overlong_scope(cell, field, value):
    with pytest.raises(ValidationError) as caught:
        _certificate(cell, **{field: value}).full_clean()
    assert field in caught.value.message_dict


@pytest.mark.django_db
def test_certificate_is_in_force_from_its_first_to_its_last_day(cell):
    certificate = _certificate(cell)
    assert certificate.is_valid_on(date(2025, 3, 1))
    assert certificate.is_valid_on(date(2028, 2, 28))
    assert not certificate.is_valid_on(date(2025, 2, 28))
    assert not certificate.is_valid_on(date(2028, 2, 29))


@pytest.mark.django_db
def test_certificates_go_with_their_cell(cell, certificate):
    cell.delete()
    assert not CellCertificate.objects.exists()


# The cell page ------------------------------------------------------------------


def test_cell_page_lists_certificates_with_their_state(owner_client, cell):
    today = timezone.localdate()
    CellCertificateFactory(
        cell=cell,
        number="IN-FORCE",
        issued_on=today - timedelta(days=10),
        valid_until=today + timedelta(days=10),
    )
    CellCertificateFactory(
        cell=cell,
        number="EXPIRED",
        issued_on=today - timedelta(days=1200),
        valid_until=today - timedelta(days=1),
    )
    CellCertificateFactory(
        cell=cell,
        number="AHEAD",
        issued_on=today + timedelta(days=1),
        valid_until=today + timedelta(days=1000),
    )
    response = owner_client.get(reverse("cells:cell_detail", args=[cell.pk]))
    text = response.text
    assert text.count('class="certificate-row"') == 3
    assert "KIRIA collaborative-robot workplace safety certification" in text
    for state in ("in force", "expired", "not yet valid"):
        assert state in text
    # The longest-running first.
    assert text.index("AHEAD") < text.index("IN-FORCE") < text.index("EXPIRED")


@pytest.mark.parametrize(
    ("robot_kind", "explained"), [("collaborative", True), ("industrial", False)]
)
def test_cell_without_certificates_says_what_one_is_for(
    owner_client, cell, robot_kind, explained
):
    cell.robot_kind = robot_kind
    cell.save()
    response = owner_client.get(reverse("cells:cell_detail", args=[cell.pk]))
    assert "No certificates on file" in response.text
    assert ("without the Art. 223 fence" in response.text) is explained
    assert add_url(cell) in response.text


def test_adding_a_certificate_with_htmx_redraws_the_workspace(
    owner_client, owner, cell
):
    response = owner_client.post(add_url(cell), FORM, **HTMX)
    assert response.status_code == 200
    assert "<html" not in response.text
    assert 'id="workspace"' in response.text
    assert "KIRIA-CW-2026-101" in response.text
    assert response["HX-Push-Url"] == reverse("cells:cell_detail", args=[cell.pk])
    certificate = CellCertificate.objects.get(cell=cell)
    assert certificate.created_by == owner
    assert certificate.valid_until == date(2029, 1, 14)


def test_adding_a_certificate_without_javascript_redirects_to_the_cell(
    owner_client, cell
):
    response = owner_client.post(add_url(cell), FORM)
    assert response.status_code == 302
    assert response.url == reverse("cells:cell_detail", args=[cell.pk])
    assert CellCertificate.objects.filter(cell=cell).exists()


def test_add_form_opens_as_a_fragment_for_htmx_and_as_a_page_otherwise(
    owner_client, cell
):
    fragment = owner_client.get(add_url(cell), **HTMX)
    page = owner_client.get(add_url(cell))
    for response in (fragment, page):
        assert 'name="valid_until"' in response.text
        assert 'type="date"' in response.text
    assert "<html" not in fragment.text and "<html" in page.text
    assert "HX-Request" in fragment["Vary"]


def test_bad_dates_get_a_form_error_and_nothing_is_saved(owner_client, cell):
    response = owner_client.post(
        add_url(cell), {**FORM, "valid_until": "2026-01-15"}, **HTMX
    )
    assert response.status_code == 200
    assert "after it was issued (2026-01-15)" in response.text
    assert 'class="field has-error"' in response.text
    assert not CellCertificate.objects.exists()


def test_missing_number_is_a_form_error(owner_client, cell):
    response = owner_client.post(add_url(cell), {**FORM, "number": ""}, **HTMX)
    assert 'class="field has-error"' in response.text
    assert not CellCertificate.objects.exists()


def test_editing_a_certificate_shows_its_iso_dates_and_saves(owner_client, certificate):
    form = owner_client.get(edit_url(certificate), **HTMX)
    assert 'value="2025-03-01"' in form.text
    response = owner_client.post(
        edit_url(certificate), {**FORM, "number": "KIRIA-CW-2025-017"}, **HTMX
    )
    assert response.status_code == 200
    certificate.refresh_from_db()
    assert certificate.valid_until == date(2029, 1, 14)


def test_deleting_a_certificate(owner_client, certificate):
    response = owner_client.post(delete_url(certificate), **HTMX)
    assert response.status_code == 200
    assert "KIRIA-CW-2025-017" in response.text  # "Deleted certificate …"
    assert 'class="certificate-row"' not in response.text
    assert not CellCertificate.objects.exists()


def test_delete_is_post_only(owner_client, certificate):
    assert owner_client.get(delete_url(certificate)).status_code == 405
    assert CellCertificate.objects.exists()


def test_viewer_sees_certificates_without_edit_controls(viewer_client, certificate):
    response = viewer_client.get(
        reverse("cells:cell_detail", args=[certificate.cell_id])
    )
    assert "KIRIA-CW-2025-017" in response.text
    assert add_url(certificate.cell) not in response.text
    assert edit_url(certificate) not in response.text
    assert delete_url(certificate) not in response.text


def test_viewer_cannot_add_change_or_delete_certificates(viewer_client, certificate):
    cell = certificate.cell
    assert viewer_client.get(add_url(cell)).status_code == 403
    assert viewer_client.post(add_url(cell), FORM).status_code == 403
    assert viewer_client.post(edit_url(certificate), FORM).status_code == 403
    assert viewer_client.post(delete_url(certificate)).status_code == 403
    assert CellCertificate.objects.get().number == "KIRIA-CW-2025-017"


def test_safety_engineer_can_add_a_certificate(client, safety_engineer, cell):
    client.force_login(safety_engineer)
    assert client.post(add_url(cell), FORM).status_code == 302
    assert CellCertificate.objects.get().created_by == safety_engineer


def test_outsider_gets_404_for_certificates(outsider_client, certificate):
    assert outsider_client.get(add_url(certificate.cell)).status_code == 404
    assert outsider_client.post(edit_url(certificate), FORM).status_code == 404
    assert outsider_client.post(delete_url(certificate)).status_code == 404
    assert CellCertificate.objects.exists()


def test_certificate_of_another_cell_is_not_found_through_this_cell(
    owner_client, cell, project
):
    other = CellCertificateFactory(cell=CellFactory(project=project))
    url = reverse("cells:certificate_edit", args=[cell.pk, other.pk])
    assert owner_client.get(url).status_code == 404
    url = reverse("cells:certificate_delete", args=[cell.pk, other.pk])
    assert owner_client.post(url).status_code == 404
    assert CellCertificate.objects.filter(pk=other.pk).exists()
