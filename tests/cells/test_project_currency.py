"""A project proposes in its country's currency unless it chooses another
(issue 29: a German project defaulted to KRW)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cells.models import Project
from cells.models.projects import default_currency

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("country", "currency"),
    [
        ("KR", "KRW"),
        ("DE", "EUR"),
        ("FR", "EUR"),
        ("NO", "EUR"),
        ("US", "USD"),
        ("JP", "USD"),
    ],
)
def test_the_default_currency_follows_the_country(country, currency):
    assert default_currency(country) == currency


def create(client, **fields):
    body = {
        "name": "Cell PoC",
        "customer_name": "Kunde GmbH",
        "country": "DE",
        "proposal_language": "en",
        **fields,
    }
    return client.post(reverse("cells:project_create"), body)


def test_a_german_project_made_on_the_page_is_in_euros(owner_client, organisation):
    form = owner_client.get(reverse("cells:project_create")).text
    # The form offers the country's currency, not the model's KRW.
    assert '<option value="" selected>' in form
    create(owner_client, organisation=organisation.pk)
    assert Project.objects.get(name="Cell PoC").currency == "EUR"


def test_a_chosen_currency_is_kept(owner_client, organisation):
    create(owner_client, organisation=organisation.pk, currency="USD")
    assert Project.objects.get(name="Cell PoC").currency == "USD"
