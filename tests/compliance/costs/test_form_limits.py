"""Figures too large or too fine for the columns get a form error, not a
database error (PostgreSQL refuses an overflowing numeric)."""

from __future__ import annotations

from django.urls import reverse

from compliance.models import CustomLineItem, LineItemEdit, PlanAssumption
from tests.factories import GuardSegmentFactory


def test_an_overflowing_price_is_a_form_error(owner_client, cell):
    GuardSegmentFactory(cell=cell)
    url = reverse("compliance:line_item_edit", args=[cell.pk, "risk_assessment"])
    response = owner_client.post(
        url, {"price_low": "1e20", "price_high": "1e21", "currency": "EUR"}
    )
    assert response.status_code == 200
    assert "Ensure that there are no more than 14 digits in total." in response.text
    assert not LineItemEdit.objects.exists()


def test_weeks_with_too_many_digits_are_a_form_error(owner_client, cell):
    url = reverse("compliance:plan_assumption_edit", args=[cell.pk, "installation"])
    response = owner_client.post(url, {"weeks_low": "1.25", "weeks_high": "123456789"})
    assert "Ensure that there are no more than 1 decimal place." in response.text
    assert "Ensure that there are no more than 6 digits in total." in response.text
    assert not PlanAssumption.objects.exists()


def test_a_negative_quantity_of_ones_own_line_is_a_form_error(owner_client, cell):
    response = owner_client.post(
        reverse("compliance:custom_line_add", args=[cell.pk]),
        {
            "description": "Gate",
            "category": "guarding",
            "quantity": "-3",
            "unit": "piece",
        },
    )
    assert "Ensure this value is greater than or equal to 0." in response.text
    assert "Constraint" not in response.text
    assert not CustomLineItem.objects.exists()


def test_an_overflowing_quantity_over_the_api_is_a_400(owner, cell):
    from rest_framework.test import APIClient

    GuardSegmentFactory(cell=cell)
    client = APIClient()
    client.force_authenticate(owner)
    response = client.put(
        f"/api/v1/cells/{cell.pk}/line-items/risk_assessment/",
        {"quantity": "10000000000000"},
        format="json",
    )
    assert response.status_code == 400 and "quantity" in response.json()
    assert not LineItemEdit.objects.exists()
