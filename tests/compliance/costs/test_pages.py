"""Costs and Plan of a cell, from its layout and findings, on pages and the API."""

from __future__ import annotations

import datetime
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

from django.urls import reverse
from rest_framework.test import APIClient

from compliance.costs.models import ExchangeRate
from tests.factories import GuardSegmentFactory, OpeningFactory


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_line_items_price_the_fence_and_quote_the_rest(owner, cell):
    segment = GuardSegmentFactory(cell=cell, label="F1")  # 4,000 mm fence
    OpeningFactory(segment=segment, label="Infeed", purpose="material_entry")
    data = api(owner).get(f"/api/v1/cells/{cell.pk}/line-items/").json()
    items = {i["catalogue_key"]: i for i in data["items"]}
    fence = next(i for i in data["items"] if i["unit"] == "m")
    # 4,000 mm less the 800 mm opening: 3.2 m at the brief's planning range of
    # USD 60–120 per metre.
    assert Decimal(fence["quantity"]) == Decimal("3.2")
    assert (Decimal(fence["total_low"]), Decimal(fence["total_high"])) == (192, 384)
    curtains = [i for i in data["items"] if "light curtain" in i["description"].lower()]
    assert curtains and curtains[0]["price_low"] is None  # price to be quoted
    assert any(t.get("unknown_count") for t in data["totals"])
    assert items  # every line names its catalogue entry or is custom


def test_costs_page_shows_lines_still_to_be_quoted(owner_client, cell):
    GuardSegmentFactory(cell=cell)
    response = owner_client.get(reverse("compliance:cell_costs", args=[cell.pk]))
    assert response.status_code == 200
    assert "price to be quoted" in response.text
    assert "USD" in response.text


def test_plan_for_korea_schedules_kcs_and_never_skips_real_validation(owner, cell):
    cell.project.country = "KR"
    cell.project.save()
    data = api(owner).get(f"/api/v1/cells/{cell.pk}/plan/").json()
    physical = [
        a["activity"]["name"] for a in data["physical_first"]["schedule"]["activities"]
    ]
    sim = [a["activity"]["name"] for a in data["sim_first"]["schedule"]["activities"]]
    assert any("KCs" in name for name in physical)
    assert any("real cell" in name for name in sim)
    assert data["cannot_prove"]


def test_contact_rich_task_keeps_simulation_an_evaluation_aid(owner_client, cell):
    cell.task_type = "contact_rich_manipulation"
    cell.save()
    response = owner_client.get(reverse("compliance:cell_plan", args=[cell.pk]))
    assert response.status_code == 200
    assert "evaluation aid" in response.text
    assert "never a deployment gate" in response.text


def test_costs_page_makes_a_fixed_number_of_queries(
    owner_client, cell, django_assert_max_num_queries
):
    for i in range(15):
        GuardSegmentFactory(cell=cell, start_y_mm=i * 100, end_y_mm=i * 100)
    # 15 with the organisation's exchange rates, read once (issue 29).
    with django_assert_max_num_queries(15):
        owner_client.get(reverse("compliance:cell_costs", args=[cell.pk]))


def _rate(organisation, currency, units, day=datetime.date(2026, 1, 1)):
    return ExchangeRate.objects.create(
        organisation=organisation,
        currency=currency,
        units_per_usd=Decimal(units),
        valid_from=day,
        source="Test bank's rate",
    )


def test_costs_convert_to_the_project_currency_at_the_organisations_rates(
    owner, owner_client, cell
):
    GuardSegmentFactory(cell=cell)  # 4.0 m of fence at USD 60–120 per metre
    project = cell.project
    project.currency = "KRW"
    project.save()
    _rate(project.organisation, "KRW", 1400)
    _rate(project.organisation, "EUR", "0.9")
    data = api(owner).get(f"/api/v1/cells/{cell.pk}/line-items/").json()
    per = {t["currency"]: t for t in data["totals"] if "currency" in t}
    assert set(per) == {"USD", "EUR"}
    # 1,400 KRW per USD and 1,400 / 0.9 per EUR, each line widened to whole
    # won outwards, as the page sums them.
    per_unit = {"USD": Decimal(1400), "EUR": Decimal(1400) / Decimal("0.9")}
    priced = [i for i in data["items"] if i["total_low"] is not None]
    low = sum(
        (Decimal(i["total_low"]) * per_unit[i["currency"]]).to_integral_value(
            ROUND_FLOOR
        )
        for i in priced
    )
    high = sum(
        (Decimal(i["total_high"]) * per_unit[i["currency"]]).to_integral_value(
            ROUND_CEILING
        )
        for i in priced
    )
    response = owner_client.get(reverse("compliance:cell_costs", args=[cell.pk]))
    assert f"Total in KRW: {int(low):,}–{int(high):,}" in response.text
    # Which rates were used, with their dates and source.
    assert "1 USD = 0.9 EUR (2026-01-01, Test bank&#x27;s rate)" in response.text
    assert "1 USD = 1,400 KRW (2026-01-01, Test bank&#x27;s rate)" in response.text
    assert 'id="rates-missing"' not in response.text


def test_the_page_converts_with_todays_rate_not_a_later_one(owner_client, cell):
    GuardSegmentFactory(cell=cell)
    project = cell.project
    project.currency = "USD"
    project.save()
    _rate(project.organisation, "EUR", "0.5", day=datetime.date(2026, 1, 1))
    _rate(project.organisation, "EUR", "0.8", day=datetime.date(2999, 1, 1))
    page = owner_client.get(reverse("compliance:cell_costs", args=[cell.pk])).text
    assert "1 USD = 0.5 EUR (2026-01-01" in page
    assert "0.8 EUR" not in page


def test_a_missing_rate_is_named_once_at_the_totals_with_a_link(owner_client, cell):
    GuardSegmentFactory(cell=cell)
    project = cell.project
    project.currency = "KRW"
    project.save()
    _rate(project.organisation, "KRW", 1400)  # no EUR rate
    page = owner_client.get(reverse("compliance:cell_costs", args=[cell.pk])).text
    assert page.count('id="rates-missing"') == 1
    assert "No exchange rate for EUR yet" in page
    assert "Total in KRW" not in page  # per currency until every line converts
    rates_page = reverse("compliance:exchange_rates", args=[project.organisation_id])
    assert f'href="{rates_page}?currency=EUR"' in page


def test_without_any_rate_the_costs_name_each_missing_one(owner_client, cell):
    GuardSegmentFactory(cell=cell)
    project = cell.project
    project.currency = "KRW"
    project.save()
    page = owner_client.get(reverse("compliance:cell_costs", args=[cell.pk])).text
    assert "No exchange rates for EUR, KRW yet" in page
    assert "Enter the exchange rates on the project" not in page


def test_a_viewer_is_told_which_rate_is_missing_without_a_link(viewer_client, cell):
    GuardSegmentFactory(cell=cell)
    project = cell.project
    project.currency = "KRW"
    project.save()
    page = viewer_client.get(reverse("compliance:cell_costs", args=[cell.pk])).text
    assert "No exchange rates for EUR, KRW yet" in page
    rates_page = reverse("compliance:exchange_rates", args=[project.organisation_id])
    assert rates_page not in page


def test_the_project_form_has_no_exchange_rates_any_more(owner_client, project):
    page = owner_client.get(reverse("cells:project_edit", args=[project.pk])).text
    assert "krw_per_usd" not in page and "rates_date" not in page


def _fence_key(owner, cell) -> str:
    data = api(owner).get(f"/api/v1/cells/{cell.pk}/line-items/").json()
    return next(i["key"] for i in data["items"] if i["unit"] == "m")


def test_quoting_a_price_and_quantity_changes_the_line(owner, owner_client, cell):
    GuardSegmentFactory(cell=cell)
    key = _fence_key(owner, cell)
    url = reverse("compliance:line_item_edit", args=[cell.pk, key])
    response = owner_client.post(
        url,
        {
            "quantity": "5",
            "price_low": "100",
            "price_high": "110",
            "currency": "USD",
            "source": "Quote 2026-11 from a fence maker",
        },
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert 'id="costs"' in response.text
    assert "USD 500–550" in response.text  # 5 m at USD 100–110


def test_an_inconsistent_price_is_refused_and_nothing_saved(owner, owner_client, cell):
    from compliance.models import LineItemEdit

    GuardSegmentFactory(cell=cell)
    key = _fence_key(owner, cell)
    url = reverse("compliance:line_item_edit", args=[cell.pk, key])
    response = owner_client.post(
        url,
        {"price_low": "200", "price_high": "100", "currency": "USD"},
        HTTP_HX_REQUEST="true",
    )
    assert "consistent price" in response.text
    negative = owner_client.post(url, {"quantity": "-1"}, HTTP_HX_REQUEST="true")
    assert "greater than or equal to 0" in negative.text
    assert not LineItemEdit.objects.exists()


def test_viewer_cannot_edit_cost_lines(viewer_client, cell):
    GuardSegmentFactory(cell=cell)
    url = reverse("compliance:line_item_edit", args=[cell.pk, "anything"])
    assert viewer_client.get(url).status_code == 403


# --- the page, the API and the PDF show the same money ---------------------------


def test_page_api_and_pdf_show_the_same_exact_money(owner, owner_client, cell):
    from compliance.proposals.data import proposal_data
    from compliance.proposals.services import proposal_request

    # 18,000 mm of fence less a 1,000 mm door: 17.0 m at USD 60–120 per metre
    # is USD 1,020–2,040. Rounded to two significant figures (outwards) the
    # page used to show 1,000–2,100 while the API said 1,020–2,040.
    segment = GuardSegmentFactory(cell=cell, end_x_mm=18000)
    OpeningFactory(segment=segment, width_mm=1000, purpose="operator_access")
    data = api(owner).get(f"/api/v1/cells/{cell.pk}/line-items/").json()
    fence = next(i for i in data["items"] if i["unit"] == "m")
    assert (Decimal(fence["total_low"]), Decimal(fence["total_high"])) == (1020, 2040)
    # With the safety controller's public USD 500–5,000 (the catalogue).
    assert {"currency": "USD", "low": "1520", "high": "7040"} in data["totals"]
    assert {"currency": "EUR", "low": "3000", "high": "5000"} in data["totals"]

    page = owner_client.get(reverse("compliance:cell_costs", args=[cell.pk])).text
    for total in (t for t in data["totals"] if "currency" in t):
        low, high = Decimal(total["low"]), Decimal(total["high"])
        assert f"<strong>{total['currency']} {low:,}–{high:,}</strong>" in page
    assert page.count("USD 1,020–2,040") == 1  # the fence line
    assert page.count("USD 1,520–7,040") == 1  # the total
    assert "1,000–2,100" not in page and "1000–2100" not in page

    document = proposal_request(cell=cell, actor=owner, language="en", sections=[])
    pdf_totals = {
        t.currency: (t.low, t.high) for t in proposal_data(document).costs.totals
    }
    assert pdf_totals == {
        "USD": (Decimal(1520), Decimal(7040)),
        "EUR": (Decimal(3000), Decimal(5000)),
    }


# --- recorded devices on the Costs tab ------------------------------------------


def test_recorded_devices_are_lines_and_their_openings_get_no_second_one(owner, cell):
    from tests.factories import DeviceFactory

    segment = GuardSegmentFactory(cell=cell, label="F1")
    infeed = OpeningFactory(segment=segment, label="Infeed", purpose="material_entry")
    curtain = DeviceFactory(cell=cell, label="LC1", opening=infeed)
    DeviceFactory(cell=cell, kind="enabling_device", label="Pendant")
    data = api(owner).get(f"/api/v1/cells/{cell.pk}/line-items/").json()
    items = {i["key"]: i for i in data["items"]}
    line = items[f"recorded:device:{curtain.pk}"]
    assert line["description"] == (
        "Safety light curtain (IEC 61496 type 4 or 2): LC1, recorded in the layout"
    )
    assert (Decimal(line["quantity"]), line["price_low"]) == (1, None)
    # The curtain at the infeed is priced once: no "light curtain to add".
    assert [
        i["key"] for i in data["items"] if i["catalogue_key"] == "light_curtain"
    ] == [f"recorded:device:{curtain.pk}"]
    assert any(
        k.startswith("recorded:") and "Pendant" in v["description"]
        for k, v in items.items()
    )


def test_a_recorded_device_without_a_catalogue_entry_can_be_quoted(
    owner, owner_client, cell
):
    from tests.factories import DeviceFactory

    pendant = DeviceFactory(cell=cell, kind="enabling_device", label="Pendant")
    key = f"recorded:device:{pendant.pk}"
    url = reverse("compliance:line_item_edit", args=[cell.pk, key])
    response = owner_client.post(
        url,
        {"price_low": "180", "price_high": "240", "currency": "USD", "source": "Q-1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert "USD 180–240" in response.text


def test_the_catalogue_names_its_entries_never_by_their_internal_keys(
    owner_client, cell
):
    # Regression (issue 30): each entry showed its key (laser_scanner,
    # kr_self_declaration) beside its name.
    import re

    from compliance.costs.catalogue import CATALOGUE

    for language in ("en", "ko"):
        page = owner_client.get(
            reverse("compliance:catalogue", args=[cell.project.organisation_id]),
            HTTP_ACCEPT_LANGUAGE=language,
        ).content.decode()
        # What a reader sees: the text between the tags.
        shown = re.sub(r"<[^>]+>", " ", page)
        keys = [e.key for e in CATALOGUE if "_" in e.key]
        assert keys
        assert [k for k in keys if re.search(rf"\b{k}\b", shown)] == []


def test_the_plan_names_the_robots_self_declaration_as_such(owner_client, cell):
    # Regression (issue 30): the Plan tab called the Korean step "KCs 인증"
    # (KCs certification), another procedure than the robot's
    # self-declaration (자율안전확인 신고) the step mostly is.
    cell.project.country = "KR"
    cell.project.save()
    page = owner_client.get(
        reverse("compliance:cell_plan", args=[cell.pk]), HTTP_ACCEPT_LANGUAGE="ko"
    ).content.decode()
    assert "자율안전확인 신고 및 KCs 안전인증(한국)" in page
    assert "KCs 인증(한국)" not in page
