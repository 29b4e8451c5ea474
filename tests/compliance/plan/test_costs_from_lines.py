"""The plan's procurement cost comes from the cell's cost lines: the priced
guarding and device lines summed, unknown while any of them is unpriced."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.costs.models import ExchangeRate
from compliance.models import CatalogueEdit, PlanAssumption
from tests.factories import GuardSegmentFactory

# The organisation's own prices of the lines a fenced cell needs besides the
# fence (USD 60–120 per metre in the starting catalogue).
PRICES = {
    "safety_controller": (1500, 2500),
    "emergency_stop": (150, 250),
    "signage": (200, 400),
}


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def procurement(plan: dict, name: str = "physical_first") -> dict:
    return next(
        a["activity"]
        for a in plan[name]["schedule"]["activities"]
        if a["activity"]["key"] == "procurement"
    )


@pytest.fixture
def fenced(cell):
    GuardSegmentFactory(cell=cell)  # 4.0 m of 1,800 mm fence, no openings
    return cell


@pytest.fixture
def priced(fenced):
    for key, (low, high) in PRICES.items():
        CatalogueEdit.objects.create(
            organisation_id=fenced.project.organisation_id,
            key=key,
            price_low=low,
            price_high=high,
            currency="USD",
            source="Supplier quote",
        )
    return fenced


def test_procurement_cost_is_unknown_while_lines_are_unpriced(
    owner, owner_client, fenced
):
    plan = api(owner).get(f"/api/v1/cells/{fenced.pk}/plan/").json()
    # The fence and the safety controller are priced (the brief's range and
    # an article estimate); the emergency stop and the signage are still to
    # be quoted.
    assert plan["inputs"]["procurement_unpriced_lines"] == 2
    assert plan["inputs"]["procurement_cost"] is None
    assert procurement(plan)["cost_low"] is None
    page = owner_client.get(reverse("compliance:cell_plan", args=[fenced.pk])).text
    assert "2 of their cost lines are still to be quoted" in page


def test_procurement_cost_is_the_sum_of_the_priced_lines(owner, owner_client, priced):
    plan = api(owner).get(f"/api/v1/cells/{priced.pk}/plan/").json()
    # 4.0 m × USD 60–120 = 240–480, + 1,500–2,500 + 150–250 + 200–400:
    # USD 2,090–3,630, in both plans (both buy the guarding).
    for name in ("physical_first", "sim_first"):
        activity = procurement(plan, name)
        assert (Decimal(activity["cost_low"]), Decimal(activity["cost_high"])) == (
            2090,
            3630,
        )
        assert activity["currency"] == "USD"
    assert plan["physical_first"]["currency"] == "USD"
    assert plan["inputs"]["procurement_unpriced_lines"] == 0
    # The same figures as the Costs tab's guarding and device lines.
    lines = api(owner).get(f"/api/v1/cells/{priced.pk}/line-items/").json()["items"]
    safeguards = [i for i in lines if i["category"] in ("device", "guarding")]
    assert sum(Decimal(i["total_low"]) for i in safeguards) == 2090
    assert sum(Decimal(i["total_high"]) for i in safeguards) == 3630
    page = owner_client.get(reverse("compliance:cell_plan", args=[priced.pk])).text
    assert "USD 2,090–3,630" in page
    assert "is the sum of their priced cost lines" in page


def test_lines_in_another_currency_than_the_plans_are_converted_or_left_unknown(
    owner, priced
):
    # The plan's costs are in EUR (entered for the risk assessment): the USD
    # lines count only at the organisation's rate, never at an assumed one.
    PlanAssumption.objects.create(
        cell=priced,
        key="risk_assessment",
        cost_low=3000,
        cost_high=5000,
        currency="EUR",
    )
    url = f"/api/v1/cells/{priced.pk}/plan/"
    response = api(owner).get(url)
    assert response.status_code == 200
    assert procurement(response.json())["cost_low"] is None
    ExchangeRate.objects.create(
        organisation_id=priced.project.organisation_id,
        currency="EUR",
        units_per_usd=Decimal("0.9"),
        valid_from=datetime.date(2026, 1, 1),
        source="Test bank",
    )
    activity = procurement(api(owner).get(url).json())
    # USD 2,090–3,630 × 0.9 = EUR 1,881–3,267.
    assert (Decimal(activity["cost_low"]), Decimal(activity["cost_high"])) == (
        1881,
        3267,
    )
    assert activity["currency"] == "EUR"


def test_a_procurement_cost_entered_for_the_project_replaces_the_lines(owner, priced):
    PlanAssumption.objects.create(
        cell=priced, key="procurement", cost_low=4000, cost_high=4500, currency="USD"
    )
    activity = procurement(api(owner).get(f"/api/v1/cells/{priced.pk}/plan/").json())
    assert (Decimal(activity["cost_low"]), Decimal(activity["cost_high"])) == (
        4000,
        4500,
    )


def test_the_plan_page_makes_a_fixed_number_of_queries(
    owner_client, priced, django_assert_max_num_queries
):
    for i in range(15):
        GuardSegmentFactory(
            cell=priced, start_y_mm=100 + i * 100, end_y_mm=100 + i * 100
        )
    # With the labour rates and the default work of the organisation: 2.
    with django_assert_max_num_queries(18):
        owner_client.get(reverse("compliance:cell_plan", args=[priced.pk]))


def test_the_plan_core_takes_the_procurement_cost_from_the_lines():
    from pydantic import ValidationError

    from compliance.plan.comparison import compare
    from compliance.plan.inputs import CostRange, PlanInputs

    usd = CostRange(low=Decimal(2090), high=Decimal(3630), currency="USD")
    inputs = PlanInputs(
        country="DE", task_type="mobile_locomotion", procurement_cost=usd
    )
    plan = compare(inputs).physical_first
    assert (plan.cost_known_low, plan.cost_known_high, plan.currency) == (
        2090,
        3630,
        "USD",
    )
    assert "procurement" not in plan.unknown_cost_keys
    with pytest.raises(ValidationError, match="unpriced"):
        PlanInputs(
            country="DE",
            task_type="mobile_locomotion",
            procurement_cost=usd,
            procurement_unpriced_lines=2,
        )
    eur = CostRange(low=Decimal(1), high=Decimal(2), currency="EUR")
    with pytest.raises(ValidationError, match="one currency"):
        PlanInputs(
            country="DE",
            task_type="mobile_locomotion",
            procurement_cost=usd,
            costs={"installation": eur},
        )
