"""The plan's work costed from the organisation's labour rates (issue 29):
its default effort or fee per activity, the project's own effort replacing
it, an entered cost replacing both; a firm line price (a quote, the
organisation's own, the user's) kept; a missing rate named; the labour page
and who may write on it. The rates here are made up for the tests."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from compliance.costs.models import ExchangeRate
from compliance.models import CatalogueEdit
from compliance.plan.labour.models import LabourRate, WorkDefault
from compliance.plan.labour.services import labour_rate_add, work_default_set

pytestmark = pytest.mark.django_db

JAN = datetime.date(2026, 1, 1)


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _as(prefix: str, data: dict) -> dict:
    """A form's data as the labour page posts it (its fields prefixed)."""
    return {f"{prefix}-{name}": value for name, value in data.items()}


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _activity(plan: dict, key: str, name: str = "physical_first") -> dict | None:
    return next(
        (
            a["activity"]
            for a in plan[name]["schedule"]["activities"]
            if a["activity"]["key"] == key
        ),
        None,
    )


def _plan(user, cell) -> dict:
    response = _api(user).get(reverse("cell-plan", args=[cell.pk]))
    assert response.status_code == 200
    return response.json()


def _rate(org, actor, role, low, high=None, unit="hour", **more):
    return labour_rate_add(
        organisation=org,
        actor=actor,
        role=role,
        unit=unit,
        rate_low=Decimal(low),
        rate_high=Decimal(high or low),
        currency=more.pop("currency", "KRW"),
        valid_from=more.pop("valid_from", JAN),
        source=more.pop("source", "Test rate card"),
        **more,
    )


def _work(org, actor, activity, role, low, high, **more):
    return work_default_set(
        organisation=org,
        actor=actor,
        activity=activity,
        role=role,
        unit=more.pop("unit", "hour"),
        effort_low=Decimal(low),
        effort_high=Decimal(high),
        source=more.pop("source", "Test projects"),
        **more,
    )


@pytest.fixture
def korean(cell):
    project = cell.project
    project.country, project.currency = "KR", "KRW"
    project.save()
    return cell


def test_the_organisations_default_work_costs_an_activity(owner, korean):
    org = korean.project.organisation
    before = _activity(_plan(owner, korean), "installation")
    assert before["cost_low"] is None  # no work recorded: no cost, none invented
    _rate(org, owner, "installation", 55000, 65000)
    _rate(org, owner, "electrical_design", 80000)
    _work(org, owner, "installation", "installation", 24, 40)
    _work(org, owner, "installation", "electrical_design", 8, 16)
    installation = _activity(_plan(owner, korean), "installation")
    # 24-40 h × KRW 55,000-65,000 = 1,320,000-2,600,000, and
    # 8-16 h × KRW 80,000 = 640,000-1,280,000: KRW 1,960,000-3,880,000.
    assert (installation["cost_low"], installation["cost_high"]) == (
        "1960000",
        "3880000",
    )
    assert installation["currency"] == "KRW"
    assert (
        "24–40 hours of Installation × KRW 55,000–65,000 per hour"
        in installation["cost_basis"]
    )
    assert (
        "Installation rate valid from 2026-01-01: Test rate card"
        in installation["cost_basis"]
    )


def test_the_integrators_work_adds_to_what_the_lines_buy(owner, korean):
    org = korean.project.organisation
    for currency, units in (("KRW", 1350), ("EUR", "0.9")):
        ExchangeRate.objects.create(
            organisation=org,
            currency=currency,
            units_per_usd=Decimal(units),
            valid_from=JAN,
            source="Test bank",
        )
    risk = _activity(_plan(owner, korean), "risk_assessment")
    # EUR 3,000-5,000 at 1,350 KRW and 0.9 EUR per USD: KRW 4,500,000-7,500,000.
    assert (risk["cost_low"], risk["cost_high"]) == ("4500000", "7500000")
    assert risk["cost_basis"] == ["The priced cost lines of this work"]
    # The organisation's own safety engineering beside the bought
    # documentation: 16-24 h × KRW 100,000 = 1,600,000-2,400,000 added.
    _rate(org, owner, "safety_engineering", 100000)
    _work(org, owner, "risk_assessment", "safety_engineering", 16, 24)
    risk = _activity(_plan(owner, korean), "risk_assessment")
    assert (risk["cost_low"], risk["cost_high"]) == ("6100000", "9900000")
    assert risk["cost_basis"][:2] == [
        "Its priced cost lines: KRW 4,500,000–7,500,000",
        "16–24 hours of Safety engineering × KRW 100,000 per hour",
    ]
    # The organisation's own price of the line replaces the article estimate
    # in the line; the work is still added.
    CatalogueEdit.objects.create(
        organisation=org,
        key="risk_assessment",
        price_low=2000000,
        price_high=3000000,
        currency="KRW",
        source="Consultancy quote",
    )
    risk = _activity(_plan(owner, korean), "risk_assessment")
    assert (risk["cost_low"], risk["cost_high"]) == ("3600000", "5400000")


def test_work_beside_lines_that_do_not_convert_says_which_rate_is_missing(
    owner, korean
):
    # The risk assessment's line is priced in EUR (a public figure) and the
    # organisation has no exchange rate: the work alone is not the cost.
    org = korean.project.organisation
    _rate(org, owner, "safety_engineering", 100000)
    _work(org, owner, "risk_assessment", "safety_engineering", 16, 24)
    risk = _activity(_plan(owner, korean), "risk_assessment")
    assert risk["cost_low"] is None
    assert risk["cost_basis"][-1] == (
        "The cost lines of this work are priced in a currency with no exchange "
        "rate to KRW: record one (the organisation's exchange rates)."
    )


def test_work_beside_lines_still_to_be_quoted_has_no_cost_yet(owner, korean):
    # A Korean cell's KCs step has lines to be quoted: the work alone would
    # look like the whole cost.
    org = korean.project.organisation
    _rate(org, owner, "safety_engineering", 100000)
    _work(org, owner, "kcs_certification", "safety_engineering", 4, 8)
    kcs = _activity(_plan(owner, korean), "kcs_certification")
    assert kcs["cost_low"] is None
    assert kcs["cost_basis"][-1] == (
        "The cost lines of this work are still to be quoted (the Costs tab)."
    )


def test_a_missing_rate_leaves_the_activity_unknown_and_says_why(owner, korean):
    org = korean.project.organisation
    _work(org, owner, "validation_task", "commissioning", 16, 32)
    plan = _plan(owner, korean)
    task = _activity(plan, "validation_task")
    assert task["cost_low"] is None
    assert "validation_task" in plan["physical_first"]["unknown_cost_keys"]
    today = timezone.localdate().isoformat()
    assert task["cost_basis"] == [
        f"No Commissioning rate per hour valid on {today}: record the "
        "organisation's rate to cost this work."
    ]
    # An expired rate is no rate.
    _rate(org, owner, "commissioning", 75000, valid_until=datetime.date(2026, 3, 31))
    task = _activity(_plan(owner, korean), "validation_task")
    assert task["cost_low"] is None


def test_the_projects_own_effort_replaces_the_default_and_a_cost_both(owner, korean):
    org = korean.project.organisation
    _rate(org, owner, "commissioning", 75000)
    _rate(org, owner, "programming", 90000)
    _work(org, owner, "validation_task", "commissioning", 16, 32)
    url = reverse("cell-plan-assumption", args=[korean.pk, "validation_task"])
    response = _api(owner).put(
        url,
        {
            "effort_role": "programming",
            "effort_unit": "hour",
            "effort_low": "10",
            "effort_high": "20",
            "source": "This customer's PLC",
        },
        format="json",
    )
    assert response.status_code == 200, response.json()
    task = _activity(_plan(owner, korean), "validation_task")
    # 10-20 h × KRW 90,000: the project's own, not the default 16-32 h.
    assert (task["cost_low"], task["cost_high"]) == ("900000", "1800000")
    response = _api(owner).put(
        url,
        {
            "cost_low": "500000",
            "cost_high": "700000",
            "currency": "KRW",
            "version": response.json()["version"],
        },
        format="json",
    )
    assert response.status_code == 200, response.json()
    task = _activity(_plan(owner, korean), "validation_task")
    assert (Decimal(task["cost_low"]), Decimal(task["cost_high"])) == (500000, 700000)


@pytest.mark.parametrize(
    ("sent", "field"),
    [
        (
            {"effort_low": "10", "effort_high": "20", "effort_unit": "hour"},
            "effort_role",
        ),
        (
            {"effort_role": "programming", "effort_low": "10", "effort_high": "20"},
            "effort_unit",
        ),
        (
            {"effort_role": "programming", "effort_unit": "hour", "effort_low": "10"},
            "effort_high",
        ),
        (
            {
                "effort_role": "programming",
                "effort_unit": "hour",
                "effort_low": "20",
                "effort_high": "10",
            },
            "effort_high",
        ),
        ({"effort_role": "pilot", "effort_unit": "hour"}, "effort_role"),
        ({"effort_low": "-5", "effort_high": "1"}, "effort_low"),
        ({"effort_low": "1", "effort_high": "99999999999"}, "effort_high"),
    ],
)
def test_a_bad_effort_is_refused_naming_the_field(owner, korean, sent, field):
    url = reverse("cell-plan-assumption", args=[korean.pk, "installation"])
    response = _api(owner).put(url, sent, format="json")
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert not korean.plan_assumptions.exists()


def test_procurement_takes_no_effort(owner, korean):
    url = reverse("cell-plan-assumption", args=[korean.pk, "procurement"])
    response = _api(owner).put(
        url,
        {
            "effort_role": "installation",
            "effort_unit": "hour",
            "effort_low": "1",
            "effort_high": "2",
        },
        format="json",
    )
    assert response.status_code == 400
    assert "effort_low" in response.json()


def test_the_labour_page_records_a_rate_and_refuses_bad_input_whole(
    owner, viewer, korean
):
    org = korean.project.organisation
    page = reverse("compliance:labour", args=[org.pk])
    assert _client(viewer).get(page).status_code == 200
    add = reverse("compliance:labour_rate_add", args=[org.pk])
    good = {
        "role": "safety_engineering",
        "unit": "hour",
        "rate_low": "95000",
        "rate_high": "120000",
        "currency": "KRW",
        "valid_from": "2026-01-01",
        "source": "Rate card 2026",
    }
    assert _client(viewer).post(add, _as("rate", good)).status_code == 403
    for bad, message in (
        ({"rate_low": "-5"}, "greater than or equal to 0"),
        ({"rate_low": "0"}, "A rate must be above zero."),
        ({"rate_high": "100"}, "The upper end must not be below the lower end."),
        ({"valid_until": "2025-12-31"}, "The rate must end on or after"),
        ({"source": ""}, "This field is required."),
        ({"rate_low": "abc"}, "Enter a number."),
        ({"role": "pilot"}, "Select a valid choice."),
    ):
        response = _client(owner).post(add, _as("rate", {**good, **bad}))
        assert response.status_code == 400, bad
        assert message in response.content.decode(), bad
    assert not LabourRate.objects.exists()
    response = _client(owner).post(add, _as("rate", good))
    assert response.status_code == 302
    rate = LabourRate.objects.get()
    assert (rate.rate_low, rate.rate_high, rate.created_by) == (
        Decimal(95000),
        Decimal(120000),
        owner,
    )
    # The same role and unit from the same day: refused, the first kept.
    response = _client(owner).post(add, _as("rate", {**good, "rate_low": "1"}))
    assert response.status_code == 400
    assert LabourRate.objects.get().rate_low == Decimal(95000)
    shown = _client(viewer).get(page).content.decode()
    assert "KRW 95,000–120,000" in shown and "Rate card 2026" in shown


def test_the_labour_page_sets_an_effort_or_a_fee_never_both(owner, korean):
    org = korean.project.organisation
    url = reverse("compliance:work_default_set", args=[org.pk])
    effort = {
        "activity": "risk_assessment",
        "role": "safety_engineering",
        "unit": "hour",
        "per": "activity",
        "effort_low": "16",
        "effort_high": "24",
        "source": "Our past projects",
    }
    for bad, field_message in (
        ({"fee_low": "100", "fee_high": "200", "currency": "KRW"}, "not both"),
        ({"role": "", "fee_low": "", "fee_high": ""}, "or give a fee"),
        ({"activity": "procurement"}, "Select a valid choice"),
        ({"effort_high": ""}, "Give both ends of the range"),
        (
            {
                "activity": "installation",
                "role": "",
                "effort_low": "",
                "effort_high": "",
                "fee_low": "1",
                "fee_high": "2",
            },
            "Choose one of",
        ),
    ):
        response = _client(owner).post(url, _as("work", {**effort, **bad}))
        assert response.status_code == 400, bad
        assert field_message in response.content.decode(), bad
    assert not WorkDefault.objects.exists()
    assert _client(owner).post(url, _as("work", effort)).status_code == 302
    # Set again for the role: replaced, not added.
    again = _as("work", {**effort, "effort_high": "32"})
    assert _client(owner).post(url, again).status_code == 302
    row = WorkDefault.objects.get()
    assert (row.effort_low, row.effort_high) == (Decimal(16), Decimal(32))
    # A fee of an activity with cost lines is their price, not work.
    kiria_fee = {
        "activity": "kiria_certification",
        "per": "activity",
        "fee_low": "6000000",
        "fee_high": "9000000",
        "currency": "KRW",
        "source": "Certification body's offer",
    }
    response = _client(owner).post(url, _as("work", kiria_fee))
    assert response.status_code == 400
    assert "the price of its cost line" in response.content.decode()
    fee = {
        "activity": "installation",
        "per": "activity",
        "fee_low": "6000000",
        "fee_high": "9000000",
        "currency": "KRW",
        "source": "Certification body's offer",
    }
    assert _client(owner).post(url, _as("work", fee)).status_code == 302
    assert WorkDefault.objects.filter(role="").get().fee_high == Decimal(9000000)


def test_another_organisations_work_is_never_used(owner, outsider, korean):
    from tests.factories import CellFactory, ProjectFactory

    other = outsider.memberships.get().organisation
    _rate(other, outsider, "installation", 1000)
    _work(other, outsider, "installation", "installation", 100, 200)
    assert _activity(_plan(owner, korean), "installation")["cost_low"] is None
    theirs = CellFactory(project=ProjectFactory(organisation=other, currency="KRW"))
    assert _activity(_plan(outsider, theirs), "installation")["cost_low"] == "100000"


def test_the_demo_costs_its_work_in_krw_and_says_whose_figures_they_are():
    from django.contrib.auth import get_user_model

    from tests.compliance.proposals.demo import demo_cell, seed

    seed()
    sa = get_user_model().objects.get(username="sa")
    # The fenceless machine-tending cobot: the KIRIA workplace certification
    # is costed (the certification body's fee of the example quote, KRW
    # 6,000,000-9,000,000, and 16-24 h of the integrator's safety engineering
    # at KRW 95,000-120,000: KRW 7,520,000-11,880,000) and scheduled, from
    # the demo organisation's example figures.
    cobot = demo_cell("머신 텐딩")
    plan = _plan(sa, cobot)
    kiria = _activity(plan, "kiria_certification")
    assert (kiria["cost_low"], kiria["cost_high"]) == ("7520000", "11880000")
    assert kiria["currency"] == "KRW"
    assert Decimal(kiria["duration_weeks_high"]) > 0
    assert kiria["cost_basis"] == [
        "Its priced cost lines: KRW 6,000,000–9,000,000",
        "16–24 hours of Safety engineering × KRW 95,000–120,000 per hour",
        "Safety engineering rate valid from 2026-01-01: Demo Integrator Co. rate "
        "card 2026 (demo example)",
    ]
    # Every activity of both plans of the palletiser has a cost in KRW, the
    # work of the installation and the task validation among them, but the
    # KCs certification the demo leaves to be quoted, to show what that is.
    palletiser = demo_cell("팔레타이저")
    plan = _plan(sa, palletiser)
    for name in ("physical_first", "sim_first"):
        assert plan[name]["currency"] == "KRW"
        assert plan[name]["unknown_cost_keys"] == ["kcs_certification"], name
    installation = _activity(plan, "installation")
    assert (
        "24–40 hours of Installation × KRW 55,000–65,000 per hour"
        in (installation["cost_basis"])
    )


def test_concepts_compare_the_work_and_name_the_kiria_fee_only_while_unpriced():
    from django.contrib.auth import get_user_model

    from compliance.concepts.services import concepts_generate
    from tests.compliance.proposals.demo import demo_cell, seed

    seed()
    sa = get_user_model().objects.get(username="sa")
    cobot = demo_cell("머신 텐딩")
    if not cobot.concepts.exists():
        concepts_generate(cell=cobot, actor=sa)
    url = reverse("cell-concepts-compare", args=[cobot.pk])

    def columns():
        response = _api(sa).get(url)
        assert response.status_code == 200
        return {c["kind"]: c for c in response.json()["concepts"] if c["offered"]}

    shown = columns()
    collaborative = shown["collaborative"]
    # Its lines are in KRW and USD (the demo's safety controller): their cost
    # is compared in the project's KRW at the demo's rates, not left out.
    assert collaborative["cost"]["currency"] == "KRW"
    # The integrator's own work at the demo rates (KRW per hour): the risk
    # assessment 24-40 h × 95,000-120,000 = 2,280,000-4,800,000; the
    # installation 24-40 h × 55,000-65,000 + 8-16 h × 80,000 =
    # 1,960,000-3,880,000; the task 16-32 h × 75,000 + 16-40 h ×
    # 85,000-100,000 = 2,560,000-6,400,000; the force measurement 8-16 h ×
    # 95,000-120,000 = 760,000-1,920,000; the KIRIA audit 16-24 h ×
    # 95,000-120,000 = 1,520,000-2,880,000. In all KRW 9,080,000-19,880,000.
    assert collaborative["work"] == {
        "currency": "KRW",
        "low": "9080000",
        "high": "19880000",
    }
    # The stopping-time validation is counted per safety function, and the
    # demo cell records none yet: one activity without a cost, not a zero.
    assert collaborative["work_unknown"] == 1
    # The KIRIA certification is costed from the demo's example fee and work:
    # it is not "to be quoted".
    assert collaborative["certifications"] == []
    # Without the quote that prices the certification body's fee, the
    # activity has no cost, and the concept says the fee is to be quoted.
    from compliance.costs.quotes.models import SupplierQuote
    from compliance.costs.quotes.services import quote_delete

    quote = SupplierQuote.objects.get(rows__catalogue_key="kiria_certification")
    quote_delete(quote=quote, actor=sa)
    assert columns()["collaborative"]["certifications"] == [
        "KIRIA collaborative-robot workplace safety certification: fee to be "
        "quoted, lead time not known (no public figure found)."
    ]


def test_the_api_records_rates_and_work_and_refuses_bad_input_naming_the_field(
    owner, viewer, korean
):
    org = korean.project.organisation
    rates = reverse("organisation-labour-rates", args=[org.pk])
    good = {
        "role": "commissioning",
        "unit": "hour",
        "rate_low": "75000",
        "currency": "KRW",
        "valid_from": "2026-01-01",
        "source": "Rate card 2026",
    }
    assert _api(viewer).post(rates, good, format="json").status_code == 403
    for bad, field in (
        ({"role": "pilot"}, "role"),
        ({"unit": "week"}, "unit"),
        ({"rate_low": "-1"}, "rate_low"),
        ({"rate_low": "abc"}, "rate_low"),
        ({"rate_low": "1e400"}, "rate_low"),
        ({"rate_high": "100"}, "rate_high"),
        ({"currency": "JPY"}, "currency"),
        ({"valid_until": "2025-01-01"}, "valid_until"),
        ({"source": ""}, "source"),
    ):
        response = _api(owner).post(rates, {**good, **bad}, format="json")
        assert response.status_code == 400, bad
        assert field in response.json(), (bad, response.json())
    assert not LabourRate.objects.exists()
    made = _api(owner).post(rates, good, format="json")
    assert made.status_code == 201
    # One figure: both ends the same.
    assert (made.json()["rate_low"], made.json()["rate_high"]) == (
        "75000",
        "75000",
    )
    work = reverse("organisation-work-defaults", args=[org.pk])
    effort = {
        "activity": "validation_task",
        "role": "commissioning",
        "unit": "hour",
        "effort_low": "16",
        "effort_high": "32",
        "source": "Past projects",
    }
    for bad, field in (
        ({"activity": "procurement"}, "activity"),
        ({"per": "robot"}, "per"),
        ({"effort_low": "20", "effort_high": "10"}, "effort_high"),
        ({"effort_high": "99999999"}, "effort_high"),
    ):
        response = _api(owner).post(work, {**effort, **bad}, format="json")
        assert response.status_code == 400, bad
        assert field in response.json(), (bad, response.json())
    assert _api(owner).post(work, effort, format="json").status_code == 201
    task = _activity(_plan(owner, korean), "validation_task")
    # 16-32 h × KRW 75,000 = 1,200,000-2,400,000.
    assert (task["cost_low"], task["cost_high"]) == ("1200000", "2400000")
    row = WorkDefault.objects.get()
    detail = reverse("organisation-work-default", args=[org.pk, row.pk])
    assert _api(owner).delete(detail).status_code == 204
    assert _activity(_plan(owner, korean), "validation_task")["cost_low"] is None
