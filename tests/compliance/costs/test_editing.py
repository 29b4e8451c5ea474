"""Costs a user can change: the organisation's catalogue, lines of the user's
own, and the plan's assumptions; on pages and over the API."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.models import CatalogueEdit, CustomLineItem, PlanAssumption
from tests.factories import GuardSegmentFactory, OpeningFactory


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def lines(user, cell) -> dict[str, dict]:
    data = api(user).get(f"/api/v1/cells/{cell.pk}/line-items/").json()
    return {item["key"]: item for item in data["items"]}


@pytest.fixture
def unguarded_opening(cell):
    segment = GuardSegmentFactory(cell=cell, label="F1")
    return OpeningFactory(segment=segment, label="Infeed", purpose="material_entry")


def curtain_line(items: dict[str, dict]) -> dict:
    return next(i for i in items.values() if i["catalogue_key"] == "light_curtain")


# --- the organisation's catalogue ---------------------------------------------


def test_a_catalogue_quote_prices_every_cell_of_the_organisation(
    owner, owner_client, cell, unguarded_opening, outsider
):
    assert curtain_line(lines(owner, cell))["price_low"] is None
    url = reverse(
        "compliance:catalogue_edit",
        args=[cell.project.organisation_id, "light_curtain"],
    )
    response = owner_client.post(
        url,
        {
            "price_low": "2100000",
            "price_high": "2600000",
            "currency": "KRW",
            "price_date": "2026-11-02",
            "source": "Supplier quote Q-2611-07",
        },
    )
    assert response.status_code == 200
    line = curtain_line(lines(owner, cell))
    assert (Decimal(line["price_low"]), Decimal(line["price_high"])) == (
        2100000,
        2600000,
    )
    assert line["currency"] == "KRW"
    assert line["basis"] == "organisation"
    assert line["source"] == "Supplier quote Q-2611-07"
    assert line["price_date"] == "2026-11-02"
    # Another organisation still sees its own (starting) catalogue.
    other = api(outsider).get(
        f"/api/v1/organisations/{outsider.memberships.get().organisation_id}/catalogue/"
    )
    entry = next(e for e in other.json()["entries"] if e["key"] == "light_curtain")
    assert entry["price_low"] is None


def test_a_catalogue_quote_without_source_is_refused_and_nothing_saved(
    owner_client, organisation
):
    url = reverse("compliance:catalogue_edit", args=[organisation.pk, "light_curtain"])
    response = owner_client.post(
        url, {"price_low": "10", "price_high": "5", "currency": "USD", "source": ""}
    )
    assert response.status_code == 200
    assert "This field is required." in response.text
    response = owner_client.post(
        url, {"price_low": "10", "price_high": "5", "currency": "USD", "source": "q"}
    )
    assert "The upper end must not be below the lower end." in response.text
    assert not CatalogueEdit.objects.exists()


def test_catalogue_back_to_the_starting_figures(owner, organisation):
    client = api(owner)
    url = f"/api/v1/organisations/{organisation.pk}/catalogue/safety_mat/"
    body = {"price_low": "900", "price_high": "1200", "currency": "EUR", "source": "q"}
    assert client.put(url, body, format="json").json()["price_low"] == "900.00"
    assert client.delete(url).status_code == 204
    entries = client.get(f"/api/v1/organisations/{organisation.pk}/catalogue/").json()
    mat = next(e for e in entries["entries"] if e["key"] == "safety_mat")
    assert mat["price_low"] is None and mat["basis"] == "unknown"


def test_catalogue_api_names_the_bad_field(owner, organisation):
    url = f"/api/v1/organisations/{organisation.pk}/catalogue/safety_mat/"
    response = api(owner).put(
        url, {"price_low": "-5", "price_high": "10", "source": "q"}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()) >= {"price_low", "currency"}
    unknown = api(owner).put(
        f"/api/v1/organisations/{organisation.pk}/catalogue/no_such/",
        {"source": "q"},
        format="json",
    )
    assert unknown.status_code == 404


def test_viewer_cannot_change_the_catalogue(viewer, viewer_client, organisation):
    url = reverse("compliance:catalogue_edit", args=[organisation.pk, "fence"])
    assert viewer_client.get(url).status_code == 403
    response = api(viewer).put(
        f"/api/v1/organisations/{organisation.pk}/catalogue/fence/",
        {"price_low": "1", "price_high": "2", "currency": "USD", "source": "q"},
        format="json",
    )
    assert response.status_code == 403


def test_catalogue_link_goes_to_the_users_organisation(owner_client, organisation):
    response = owner_client.get(reverse("compliance:catalogue_home"))
    assert response.url == reverse("compliance:catalogue", args=[organisation.pk])


# --- lines of the user's own -----------------------------------------------------


def eur_total(user, cell) -> tuple[Decimal, Decimal]:
    totals = api(user).get(f"/api/v1/cells/{cell.pk}/line-items/").json()["totals"]
    eur = next((t for t in totals if t.get("currency") == "EUR"), None)
    return (Decimal(eur["low"]), Decimal(eur["high"])) if eur else (0, 0)


def test_a_line_of_ones_own_is_added_to_the_costs_and_totals(owner, owner_client, cell):
    before = eur_total(owner, cell)
    response = owner_client.post(
        reverse("compliance:custom_line_add", args=[cell.pk]),
        {
            "description": "Turntable guard",
            "category": "guarding",
            "quantity": "2",
            "unit": "piece",
            "price_low": "1000",
            "price_high": "1500",
            "currency": "EUR",
            "source": "Supplier quote 17",
        },
    )
    assert response.status_code == 200
    assert "Turntable guard" in response.text
    row = CustomLineItem.objects.get()
    line = lines(owner, cell)[row.key]
    assert (Decimal(line["total_low"]), Decimal(line["total_high"])) == (2000, 3000)
    after = eur_total(owner, cell)
    assert (after[0] - before[0], after[1] - before[1]) == (2000, 3000)


def test_a_bad_line_of_ones_own_gets_field_errors_and_nothing_saved(owner_client, cell):
    url = reverse("compliance:custom_line_add", args=[cell.pk])
    response = owner_client.post(
        url,
        {
            "description": "Turntable guard",
            "category": "guarding",
            "quantity": "1",
            "unit": "piece",
            "price_low": "1000",
            "price_high": "900",
        },
    )
    assert response.status_code == 200
    assert "The upper end must not be below the lower end." in response.text
    assert "A price needs its currency." in response.text
    assert not CustomLineItem.objects.exists()


def test_lines_of_ones_own_over_the_api(owner, cell):
    client = api(owner)
    url = f"/api/v1/cells/{cell.pk}/custom-line-items/"
    bad = client.post(
        url,
        {"description": "Pallet gate", "quantity": "-1", "unit": "piece"},
        format="json",
    )
    assert bad.status_code == 400 and "quantity" in bad.json()
    unknown_currency = client.post(
        url,
        {
            "description": "Pallet gate",
            "quantity": "1",
            "unit": "piece",
            "price_low": "1",
            "price_high": "2",
            "currency": "GBP",
        },
        format="json",
    )
    assert unknown_currency.status_code == 400
    assert "currency" in unknown_currency.json()
    created = client.post(
        url,
        {"description": "Pallet gate", "quantity": "1", "unit": "piece"},
        format="json",
    )
    assert created.status_code == 201
    line_url = f"{url}{created.json()['id']}/"
    line = lines(owner, cell)[created.json()["key"]]
    assert line["price_low"] is None  # no price given: to be quoted
    changed = client.put(
        line_url,
        {
            "description": "Pallet gate",
            "quantity": "1",
            "unit": "piece",
            "price_low": "300",
            "price_high": "450",
            "currency": "USD",
        },
        format="json",
    )
    assert changed.status_code == 200
    assert lines(owner, cell)[created.json()["key"]]["price_high"] == "450.00"
    assert client.delete(line_url).status_code == 204
    assert client.get(url).json() == []


def test_viewer_cannot_add_lines(viewer, viewer_client, cell):
    url = reverse("compliance:custom_line_add", args=[cell.pk])
    assert viewer_client.post(url, {"description": "x"}).status_code == 403
    response = api(viewer).post(
        f"/api/v1/cells/{cell.pk}/custom-line-items/",
        {"description": "x", "quantity": "1", "unit": "piece"},
        format="json",
    )
    assert response.status_code == 403
    assert not CustomLineItem.objects.exists()


# --- derived lines over the API, and the safeguards ------------------------------------


def test_a_derived_line_is_quoted_over_the_api_and_reset(
    owner, cell, unguarded_opening
):
    key = curtain_line(lines(owner, cell))["key"]
    url = f"/api/v1/cells/{cell.pk}/line-items/{key}/"
    body = {"price_low": "4000", "price_high": "3000", "currency": "USD"}
    assert api(owner).put(url, body, format="json").status_code == 400
    body["price_high"] = "5000"
    quoted = api(owner).put(url, body | {"source": "Quote 9"}, format="json")
    assert quoted.status_code == 200
    assert quoted.json()["source"] == "Quote 9"
    assert quoted.json()["basis"] == "user"
    assert api(owner).delete(url).status_code == 204
    assert curtain_line(lines(owner, cell))["price_low"] is None


def test_safeguards_are_the_devices_and_guarding_the_findings_call_for(
    owner, cell, unguarded_opening
):
    data = api(owner).get(f"/api/v1/cells/{cell.pk}/safeguards/").json()
    kinds = {s["catalogue_key"] for s in data["safeguards"]}
    assert {"fence", "light_curtain"} <= kinds
    assert all(s["category"] in ("device", "guarding") for s in data["safeguards"])
    curtain = next(
        s for s in data["safeguards"] if s["catalogue_key"] == "light_curtain"
    )
    assert curtain["findings"]  # the finding it answers


# --- the plan's assumptions ------------------------------------------------------


def weeks_to_poc(user, cell) -> tuple[str, str]:
    data = api(user).get(f"/api/v1/cells/{cell.pk}/plan/").json()["physical_first"]
    return data["poc_start_weeks_low"], data["poc_start_weeks_high"]


def test_entering_the_installation_time_moves_poc_start(owner, owner_client, cell):
    before = weeks_to_poc(owner, cell)
    response = owner_client.post(
        reverse("compliance:plan_assumption_edit", args=[cell.pk, "installation"]),
        {"weeks_low": "6", "weeks_high": "8", "source": "Integrator's estimate"},
    )
    assert response.status_code == 200
    after = weeks_to_poc(owner, cell)
    # The default installation is 1–3 weeks; 6–8 adds 5 weeks at both ends.
    assert Decimal(after[0]) - Decimal(before[0]) == 5
    assert Decimal(after[1]) - Decimal(before[1]) == 5
    assert "Integrator&#x27;s estimate" in response.text
    owner_client.post(
        reverse("compliance:plan_assumption_edit", args=[cell.pk, "installation"]),
        {"reset": "1"},
    )
    assert weeks_to_poc(owner, cell) == before


def test_plan_costs_must_share_one_currency(owner, cell):
    client = api(owner)
    url = f"/api/v1/cells/{cell.pk}/plan/assumptions/"
    first = {"cost_low": "3000", "cost_high": "5000", "currency": "EUR"}
    assert client.put(f"{url}risk_assessment/", first, format="json").status_code == 200
    second = {"cost_low": "1000", "cost_high": "2000", "currency": "USD"}
    response = client.put(f"{url}installation/", second, format="json")
    assert response.status_code == 400 and "currency" in response.json()
    half = client.put(f"{url}installation/", {"weeks_low": "2"}, format="json")
    assert half.status_code == 400 and "weeks_high" in half.json()
    unknown = client.put(f"{url}coffee/", {"weeks_low": "1"}, format="json")
    assert unknown.status_code == 400 and "key" in unknown.json()
    assert PlanAssumption.objects.count() == 1
    plan = client.get(f"/api/v1/cells/{cell.pk}/plan/").json()["physical_first"]
    assert plan["currency"] == "EUR" and Decimal(plan["cost_known_low"]) == 3000


def test_plan_page_draws_the_costs_it_has_and_an_entered_one_replaces_them(
    owner, owner_client, cell
):
    """The risk assessment's cost line (the catalogue's public EUR 3,000-5,000)
    costs its plan activity from the start (issue 29: all 8 activities said
    "cost unknown"); a cost entered for the project replaces it. (A project
    in euros: the line needs no exchange rate.)"""
    cell.project.currency = "EUR"
    cell.project.save()
    url = reverse("compliance:cell_plan", args=[cell.pk])
    text = owner_client.get(url).text
    assert 'class="cost-chart"' in text and "EUR 3,000–5,000" in text
    api(owner).put(
        f"/api/v1/cells/{cell.pk}/plan/assumptions/risk_assessment/",
        {"cost_low": "3500", "cost_high": "4500", "currency": "EUR"},
        format="json",
    )
    text = owner_client.get(url).text
    assert "EUR 3,500–4,500" in text and "EUR 3,000–5,000" not in text


# --- pages make a fixed number of queries -------------------------------------


def test_costs_and_plan_pages_query_counts_do_not_grow_with_lines(
    owner, owner_client, cell, django_assert_max_num_queries
):
    for i in range(30):
        CustomLineItem.objects.create(
            cell=cell, description=f"Item {i}", quantity=1, unit="piece"
        )
    for name in ("installation", "risk_assessment"):
        PlanAssumption.objects.create(cell=cell, key=name, weeks_low=1, weeks_high=2)
    with django_assert_max_num_queries(16):
        owner_client.get(reverse("compliance:cell_costs", args=[cell.pk]))
    with django_assert_max_num_queries(16):
        owner_client.get(reverse("compliance:cell_plan", args=[cell.pk]))
    with django_assert_max_num_queries(10):
        owner_client.get(
            reverse("compliance:catalogue", args=[cell.project.organisation_id])
        )


# --- the compliance summary on the cell page --------------------------------------


def test_cell_page_summary_follows_the_layout(owner_client, cell, unguarded_opening):
    url = reverse("compliance:compliance_summary", args=[cell.pk])
    response = owner_client.get(url)
    assert "Infeed" in response.text  # the unguarded opening fails a rule
    assert "status-fail" in response.text
    page = owner_client.get(reverse("cells:cell_detail", args=[cell.pk]))
    assert f'hx-get="{url}"' in page.text  # loaded after every redraw


def test_cell_page_summary_makes_a_fixed_number_of_queries(
    owner_client, cell, django_assert_max_num_queries
):
    for i in range(20):
        segment = GuardSegmentFactory(cell=cell, start_y_mm=i * 100, end_y_mm=i * 100)
        OpeningFactory(segment=segment, label=f"O{i}")
    with django_assert_max_num_queries(10):
        response = owner_client.get(
            reverse("compliance:compliance_summary", args=[cell.pk])
        )
    # The first six open findings are listed; the rest are counted, with a
    # link to the fails among them.
    assert response.text.count('<li class="finding') == 6
    assert " more " in response.text
    assert "?status=fail" in response.text


def test_costs_show_units_and_sources_in_the_readers_words(owner_client, cell):
    GuardSegmentFactory(cell=cell)
    response = owner_client.get(reverse("compliance:cell_costs", args=[cell.pk]))
    assert "/work/shared" not in response.text
    # Sources as a reader can take them: the fence's planning range is a
    # budgetary estimate, never the product's own files (issue 15).
    assert "Budgetary estimate (a planning range, not a quotation)" in response.text
    for internal in ("README", ".json", "reference/", "legalize"):
        assert internal not in response.text


def test_an_edited_line_goes_back_to_the_derived_one_on_the_page(
    owner, owner_client, cell, unguarded_opening
):
    key = curtain_line(lines(owner, cell))["key"]
    url = reverse("compliance:line_item_edit", args=[cell.pk, key])
    owner_client.post(
        url, {"price_low": "3000", "price_high": "5000", "currency": "USD"}
    )
    assert curtain_line(lines(owner, cell))["price_low"] == "3000.00"
    assert "Back to the derived line" in owner_client.get(url).text
    owner_client.post(url, {"reset": "1"})
    assert curtain_line(lines(owner, cell))["price_low"] is None
