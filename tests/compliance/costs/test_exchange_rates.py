"""An organisation's exchange rates (issue 29): dated records with their
source, the one valid on the day asked converting, never a rate assumed; the
rates page and API, who may write, and input that is refused whole.

The rates here are made up for the tests (units per 1 USD)."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.costs import custom_item
from compliance.costs.models import ExchangeRate
from compliance.costs.rates import needed, rates_on
from compliance.costs.selectors import converted_total
from tests.factories import OrganisationFactory

pytestmark = pytest.mark.django_db

JAN, JUN, DEC = (datetime.date(2026, m, 1) for m in (1, 6, 12))


def _rate(organisation, currency, units, day=JAN, source="Test bank"):
    return ExchangeRate.objects.create(
        organisation=organisation,
        currency=currency,
        units_per_usd=Decimal(units),
        valid_from=day,
        source=source,
    )


def _line(key, low, high, currency):
    return custom_item(
        key=key,
        description=key,
        quantity=1,
        unit="piece",
        price_low=Decimal(low),
        price_high=Decimal(high),
        currency=currency,
    )


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# --- which rate converts ----------------------------------------------------


def test_the_latest_rate_valid_on_the_day_is_used(organisation):
    _rate(organisation, "KRW", 1300, day=JAN)
    _rate(organisation, "KRW", 1380, day=DEC)
    _rate(OrganisationFactory(), "KRW", 9999, day=JAN)  # another's
    assert rates_on(organisation.pk, datetime.date(2026, 11, 30)).rates == {
        "USD": 1,
        "KRW": Decimal(1300),
    }
    on_dec = rates_on(organisation.pk, DEC)
    assert on_dec.rates["KRW"] == Decimal(1380)
    assert rates_on(organisation.pk, datetime.date(2025, 12, 31)).rates == {"USD": 1}
    assert on_dec.missing_for({"USD", "EUR"}, "KRW") == ["EUR"]
    assert on_dec.lines_for({"USD"}, "KRW") == [
        "1 USD = 1,380 KRW (2026-12-01, Test bank)"
    ]


def test_a_conversion_needs_the_targets_rate_and_each_others():
    assert needed({"USD", "EUR"}, "KRW") == {"EUR", "KRW"}
    assert needed({"KRW"}, "KRW") == set()
    assert needed({"KRW"}, "USD") == {"KRW"}


def test_the_total_converts_at_the_rates_and_names_them(project):
    project.currency = "KRW"
    _rate(project.organisation, "KRW", 1380, day=DEC)
    _rate(project.organisation, "EUR", "0.9", day=JUN)
    items = (_line("a", 100, 200, "USD"), _line("b", 90, 180, "EUR"))
    # USD 100–200 at 1,380 = 138,000–276,000; EUR 90–180 at 1,380 / 0.9 =
    # 138,000–276,000.
    total = converted_total(project, items, DEC)
    assert total["range"] == (Decimal(276000), Decimal(552000))
    assert total["rates"] == [
        "1 USD = 0.9 EUR (2026-06-01, Test bank)",
        "1 USD = 1,380 KRW (2026-12-01, Test bank)",
    ]
    # Before December the KRW rate is not valid yet: no total in KRW.
    assert converted_total(project, items, datetime.date(2026, 11, 30)) is None


def test_lines_in_the_projects_currency_need_no_rate(
    project, django_assert_num_queries
):
    project.currency = "USD"
    with django_assert_num_queries(0):
        total = converted_total(project, (_line("a", 10, 20, "USD"),))
    assert total["range"] == (Decimal(10), Decimal(20)) and total["rates"] == []


# --- the page ---------------------------------------------------------------


def _page(organisation) -> str:
    return reverse("compliance:exchange_rates", args=[organisation.pk])


def _add(organisation) -> str:
    return reverse("compliance:exchange_rate_add", args=[organisation.pk])


GOOD = {
    "currency": "KRW",
    "units_per_usd": "1380",
    "valid_from": "2026-12-01",
    "source": "Seoul Foreign Exchange closing rate",
}


def test_the_page_lists_each_currency_newest_first_with_date_and_source(
    owner_client, organisation
):
    _rate(organisation, "KRW", 1300, day=JAN, source="Bank A")
    _rate(organisation, "KRW", 1380, day=DEC, source="Bank B")
    _rate(organisation, "KRW", 1500, day=datetime.date(2999, 1, 1), source="Bank C")
    _rate(organisation, "EUR", "0.92", day=JUN, source="Bank D")
    page = owner_client.get(_page(organisation)).text
    krw = page[page.index('id="rates-krw"') :]
    assert krw.index("2999-01-01") < krw.index("2026-12-01") < krw.index("2026-01-01")
    assert "1,380 KRW" in krw and "Bank B" in krw and "0.92 EUR" in page
    assert "not yet valid" in krw
    in_use = krw[krw.index("in use today") - 200 : krw.index("in use today")]
    assert "2026-12-01" in in_use
    assert "No rate yet" not in page


def test_the_catalogue_links_to_the_rates(owner_client, organisation):
    page = owner_client.get(reverse("compliance:catalogue", args=[organisation.pk]))
    assert f'href="{_page(organisation)}"' in page.text


def test_an_editor_adds_a_rate(owner, owner_client, organisation):
    response = owner_client.post(_add(organisation), GOOD)
    assert response.status_code == 302
    rate = ExchangeRate.objects.get(organisation=organisation)
    assert (rate.currency, rate.units_per_usd, rate.valid_from, rate.created_by) == (
        "KRW",
        Decimal(1380),
        DEC,
        owner,
    )
    assert (
        "Seoul Foreign Exchange closing rate"
        in owner_client.get(_page(organisation)).text
    )


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("units_per_usd", "-5", "must be above zero"),
        ("units_per_usd", "0", "must be above zero"),
        ("units_per_usd", "1e30", "must be below 100,000"),
        ("units_per_usd", "1380.1234567", "at most 6 decimal places"),
        ("units_per_usd", "abc", "Enter a number"),
        ("source", "", "This field is required"),
        ("source", "   ", "This field is required"),
        ("currency", "USD", "Select a valid choice"),
        ("valid_from", "", "This field is required"),
    ],
)
def test_a_bad_rate_is_refused_on_its_field_and_nothing_saved(
    owner_client, organisation, field, value, message
):
    response = owner_client.post(_add(organisation), {**GOOD, field: value})
    assert response.status_code == 400
    assert set(response.context["form"].errors) == {field}
    assert message in response.text
    assert not ExchangeRate.objects.exists()


def test_a_second_rate_of_the_same_currency_and_day_is_refused(
    owner_client, organisation
):
    _rate(organisation, "KRW", 1300, day=DEC)
    response = owner_client.post(_add(organisation), GOOD)
    assert response.status_code == 400
    assert set(response.context["form"].errors) == {"valid_from"}
    assert ExchangeRate.objects.get().units_per_usd == 1300


def test_an_editor_deletes_a_rate(owner_client, organisation):
    rate = _rate(organisation, "KRW", 1300)
    url = reverse("compliance:exchange_rate_delete", args=[rate.pk])
    assert owner_client.post(url).status_code == 302
    assert not ExchangeRate.objects.exists()


def test_a_viewer_reads_the_rates_but_cannot_change_them(viewer_client, organisation):
    rate = _rate(organisation, "KRW", 1300, source="Bank A")
    page = viewer_client.get(_page(organisation))
    assert page.status_code == 200 and "Bank A" in page.text
    assert _add(organisation) not in page.text  # no form
    assert viewer_client.post(_add(organisation), GOOD).status_code == 403
    delete = reverse("compliance:exchange_rate_delete", args=[rate.pk])
    assert viewer_client.post(delete).status_code == 403
    assert ExchangeRate.objects.count() == 1


def test_an_outsider_finds_no_rates_page_nor_rate(outsider_client, organisation):
    rate = _rate(organisation, "KRW", 1300)
    assert outsider_client.get(_page(organisation)).status_code == 404
    assert outsider_client.post(_add(organisation), GOOD).status_code == 404
    delete = reverse("compliance:exchange_rate_delete", args=[rate.pk])
    assert outsider_client.post(delete).status_code == 404
    assert ExchangeRate.objects.count() == 1


# --- the API ----------------------------------------------------------------


def _list_url(organisation) -> str:
    return f"/api/v1/organisations/{organisation.pk}/exchange-rates/"


def test_the_api_lists_adds_and_deletes_rates(owner, viewer, organisation):
    _rate(organisation, "KRW", 1300, day=JAN)
    created = api(owner).post(_list_url(organisation), GOOD, format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert (body["currency"], Decimal(body["units_per_usd"]), body["valid_from"]) == (
        "KRW",
        Decimal(1380),
        "2026-12-01",
    )
    listed = api(viewer).get(_list_url(organisation)).json()
    assert [r["valid_from"] for r in listed] == ["2026-12-01", "2026-01-01"]
    one = f"{_list_url(organisation)}{body['id']}/"
    assert api(viewer).get(one).json()["source"] == GOOD["source"]
    assert api(owner).delete(one).status_code == 204
    assert ExchangeRate.objects.count() == 1


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("units_per_usd", "-5"),
        ("units_per_usd", "0"),
        ("units_per_usd", "1e30"),
        ("units_per_usd", "NaN"),
        ("source", ""),
        ("source", None),
        ("currency", "USD"),
        ("valid_from", "someday"),
    ],
)
def test_the_api_refuses_a_bad_rate_naming_the_field(owner, organisation, field, value):
    response = api(owner).post(
        _list_url(organisation), {**GOOD, field: value}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()) == {field}
    assert not ExchangeRate.objects.exists()


def test_the_api_refuses_a_missing_source(owner, organisation):
    body = {k: v for k, v in GOOD.items() if k != "source"}
    response = api(owner).post(_list_url(organisation), body, format="json")
    assert response.status_code == 400 and set(response.json()) == {"source"}
    assert not ExchangeRate.objects.exists()


def test_the_api_lets_a_viewer_read_but_not_write(viewer, organisation):
    rate = _rate(organisation, "KRW", 1300)
    client = api(viewer)
    assert client.get(_list_url(organisation)).status_code == 200
    assert client.post(_list_url(organisation), GOOD, format="json").status_code == 403
    assert client.delete(f"{_list_url(organisation)}{rate.pk}/").status_code == 403
    assert ExchangeRate.objects.count() == 1


def test_another_organisations_rate_answers_404(owner, outsider, organisation):
    theirs = _rate(OrganisationFactory(), "KRW", 1300)
    mine = _rate(organisation, "KRW", 1380)
    # Their rate under my organisation's address: not found.
    assert api(owner).get(f"{_list_url(organisation)}{theirs.pk}/").status_code == 404
    assert (
        api(owner).delete(f"{_list_url(organisation)}{theirs.pk}/").status_code == 404
    )
    # An outsider finds neither my organisation's list nor its rate.
    client = api(outsider)
    assert client.get(_list_url(organisation)).status_code == 404
    assert client.post(_list_url(organisation), GOOD, format="json").status_code == 404
    assert client.delete(f"{_list_url(organisation)}{mine.pk}/").status_code == 404
    assert ExchangeRate.objects.count() == 2


def test_the_api_list_makes_a_fixed_number_of_queries(
    owner, organisation, django_assert_max_num_queries
):
    for day in range(1, 21):
        _rate(organisation, "KRW", 1300 + day, day=datetime.date(2026, 1, day))
    client = api(owner)
    client.get(_list_url(organisation))  # warm the session and the roles
    with django_assert_max_num_queries(4):
        assert len(client.get(_list_url(organisation)).json()) == 20


# --- the SA's check before a proposal is built --------------------------------


def test_the_check_before_building_points_at_the_organisations_rates(owner, cell):
    from cells import selectors
    from compliance.proposals.checks import prebuild_notes
    from tests.factories import GuardSegmentFactory

    GuardSegmentFactory(cell=cell)  # a fence in USD, a risk assessment in EUR
    cell.project.currency = "KRW"
    cell.project.save()
    _rate(cell.project.organisation, "KRW", 1380)

    def notes() -> str:
        return " ".join(prebuild_notes(selectors.cell_with_layout(owner, cell.pk)))

    assert (
        "No exchange rate for EUR is valid today: the proposal totals the costs "
        "per currency, not in KRW (add the rate on the organisation's exchange "
        "rates page)."
    ) in notes()
    _rate(cell.project.organisation, "EUR", "0.9")
    assert "exchange rate" not in notes()


# --- the plan's costs in the proposal -------------------------------------------


def test_a_priced_procurement_without_a_rate_is_shown_per_currency(owner, cell):
    """Every guarding and device line priced, one of them in KRW: without a
    KRW rate the plan cannot sum them in USD, and the proposal's schedule
    shows them per currency beside the bar, never as "to be quoted"."""
    from compliance.models import CatalogueEdit
    from compliance.proposals.data import proposal_data
    from compliance.proposals.services import proposal_request
    from tests.factories import GuardSegmentFactory

    GuardSegmentFactory(cell=cell)  # 4.0 m of fence at USD 60–120 per metre
    cell.project.currency = "USD"
    cell.project.save()
    for key, low, high, currency in (
        ("safety_controller", 1500, 2500, "USD"),
        ("emergency_stop", 150, 250, "USD"),
        ("signage", 200000, 400000, "KRW"),
    ):
        CatalogueEdit.objects.create(
            organisation=cell.project.organisation,
            key=key,
            price_low=low,
            price_high=high,
            currency=currency,
            source="Supplier quote",
        )
    document = proposal_request(
        cell=cell, actor=owner, language="en", sections=["schedule"]
    )
    plan = proposal_data(document).schedule.physical_first
    apart = {(c.currency, c.low, c.high) for c in plan.other_costs}
    usd = next(c for c in apart if c[0] == "USD")
    assert ("KRW", 200000, 400000) in apart and usd[1] >= 240 + 1500 + 150
    comparison = proposal_data(document).schedule.comparison
    known = next(row.physical_first for row in comparison if row.metric == "Known cost")
    assert "KRW 200,000–400,000" in known
    # With a KRW rate the plan sums them in USD: nothing apart, and the
    # same activities to be quoted (the priced ones were never among them).
    _rate(cell.project.organisation, "KRW", 1250)
    summed = proposal_data(document).schedule.physical_first
    assert summed.other_costs == ()
    assert summed.unpriced_activities == plan.unpriced_activities


# --- a proposal stored before the rates were the organisation's ------------------


def test_data_stored_before_issue_29_never_prints_not_converted():
    """A version built before keeps its data: rebuilt, its lines left out
    for want of a rate read as lines in other currencies, never "not
    converted", and its partial total is not printed as the total."""
    from compliance.proposals.pdf.builder import build_proposal_pdf
    from compliance.proposals.pdf.data import MoneyRange, Row
    from tests.compliance.proposals.demo import text_of
    from tests.compliance.proposals.pdf.samples import sample_proposal

    data = sample_proposal("en")
    items = tuple(
        item.model_copy(
            update={"converted_low": None, "converted_high": None, "rate_needed": True}
        )
        if item.currency == "EUR"
        else item
        for item in data.costs.items
    )
    plan = data.schedule.physical_first.model_copy(
        update={"not_converted": (Row(label="Risk assessment", value="EUR 3,000"),)}
    )
    data = data.model_copy(
        update={
            "summary": data.summary.model_copy(
                update={"costs": (), "not_converted_lines": 2}
            ),
            "costs": data.costs.model_copy(
                update={"items": items, "missing_rates": ("EUR",)}
            ),
            "schedule": data.schedule.model_copy(update={"physical_first": plan}),
        }
    )
    text = " ".join(text_of(build_proposal_pdf(data)).split())
    assert "not converted" not in text.lower() and "rate needed" not in text
    assert "2 priced lines in other currencies are not in this total." in text
    assert "Risk assessment, EUR 3,000, not in the bar." in text
    partial = data.costs.converted
    assert isinstance(partial, MoneyRange)
    assert f"Total in KRW KRW {partial.low:,}" not in text
    assert "Total in EUR EUR 650–1,200" in text


# --- the guarding concepts side by side -------------------------------------------


def test_each_concepts_cost_is_per_currency_until_every_line_converts(owner, cell):
    from compliance.concepts.services import concepts_generate
    from compliance.proposals.data.concepts import concepts_section
    from compliance.rules.inputs import versioned
    from compliance.rules.selectors import cell_with_layout
    from tests.compliance.concepts.support import fenced_palletiser

    palletiser = fenced_palletiser(cell)
    palletiser.project.currency = "KRW"
    palletiser.project.save()
    concepts_generate(cell=palletiser, actor=owner)

    def columns():
        loaded = versioned(palletiser.pk, lambda: cell_with_layout(palletiser))
        return concepts_section(loaded, on=DEC).offered

    for column in columns():
        assert column.cost is None
        assert {c.currency for c in column.costs} == {"USD", "EUR"}
    _rate(palletiser.project.organisation, "KRW", 1380)
    _rate(palletiser.project.organisation, "EUR", "0.9")
    for column in columns():
        assert column.cost is not None and column.cost.currency == "KRW"
        assert column.costs == ()


def test_the_rates_page_makes_a_fixed_number_of_queries(
    owner, owner_client, organisation, django_assert_max_num_queries
):
    owner_client.get(_page(organisation))  # warm the session
    for day in range(1, 21):
        rate = _rate(organisation, "KRW", 1300 + day, day=datetime.date(2026, 1, day))
        rate.created_by = owner
        rate.save()
    with django_assert_max_num_queries(8):
        page = owner_client.get(_page(organisation))
    assert page.text.count("owner") >= 20
