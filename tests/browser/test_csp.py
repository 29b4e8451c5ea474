"""Under the Content-Security-Policy the pages still work in a real browser
and the browser reports no violation: htmx sends the CSRF token as a header,
the language switch submits, a delete asks first, Swagger UI draws."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from cells.models import Role
from compliance.assessment import services as assessment_services
from compliance.safety_functions import services as function_services
from compliance.safety_functions.models import SafetyFunction
from tests.factories import (
    CellFactory,
    DeviceFactory,
    GuardSegmentFactory,
    MembershipFactory,
    OpeningFactory,
    OrganisationFactory,
    ProjectFactory,
    UserFactory,
)

pytestmark = pytest.mark.browser

# Runs before the page's own scripts in every document (outside the policy, as
# Playwright injects it): each violation the browser reports is kept.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


@pytest.fixture
def objects(transactional_db):
    organisation = OrganisationFactory(name="CSP Integrator")
    user = UserFactory(username="se-csp")
    MembershipFactory(user=user, organisation=organisation, role=Role.SAFETY_ENGINEER)
    project = ProjectFactory(organisation=organisation, name="CSP PoC", country="KR")
    cell = CellFactory(project=project, name="Case palletiser")
    segment = GuardSegmentFactory(cell=cell, label="F1")
    opening = OpeningFactory(segment=segment, label="Infeed", purpose="material_entry")
    DeviceFactory(cell=cell, kind="light_curtain", label="LC1", opening=opening)
    assessment_services.assessment_open(cell=cell, actor=user)
    function = function_services.function_create(
        cell=cell,
        actor=user,
        name="Protective stop at the infeed",
        safeguard="guarded_opening",
        trigger="Light curtain interrupted",
        reaction="Protective stop",
    )
    return {"organisation": organisation, "cell": cell, "function": function}


@pytest.fixture
def signed_in(page: Page, live_server, objects) -> Page:
    page.add_init_script(RECORD_VIOLATIONS)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "se-csp")
    page.fill("#id_password", "pass-for-tests-1")
    page.locator("main button[type=submit]").click()
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()
    return page


def violations(page: Page) -> list[str]:
    return page.evaluate("window.__violations")


def test_the_main_pages_report_no_policy_violation(
    signed_in: Page, live_server, objects
):
    page = signed_in
    cell = objects["cell"].pk
    organisation = objects["organisation"].pk
    urls = [
        reverse("cells:project_list"),
        reverse("cells:project_detail", args=[objects["cell"].project_id]),
        reverse("cells:cell_detail", args=[cell]),
        reverse("cells:cell_layout_svg", args=[cell]),
        reverse("compliance:cell_compliance", args=[cell]),
        reverse("compliance:assessment", args=[cell]),
        reverse("compliance:cell_costs", args=[cell]),
        reverse("compliance:cell_plan", args=[cell]),
        reverse("compliance:proposal", args=[cell]),
        reverse("compliance:safety_functions", args=[cell]),
        reverse("compliance:safety_function_detail", args=[objects["function"].pk]),
        reverse("compliance:calculator_list"),
        reverse("compliance:calculator_detail", args=["ts15066-pfl"]),
        reverse("compliance:library", args=[organisation]),
        reverse("compliance:rules"),
    ]
    seen = {}
    for url in urls:
        page.goto(f"{live_server.url}{url}")
        page.wait_for_load_state("networkidle")
        seen[url] = violations(page)
    assert {url: found for url, found in seen.items() if found} == {}

    # The plan in the page is drawn with its stylesheet, the legend with app.css.
    page.goto(f"{live_server.url}{reverse('cells:cell_detail', args=[cell])}")
    stroke = page.evaluate(
        "getComputedStyle(document.querySelector('.layout-svg .segment line')).stroke"
    )
    assert stroke == "rgb(43, 108, 176)"
    curtain = page.evaluate(
        "getComputedStyle(document.querySelector('.swatch.curtain')).borderTopStyle"
    )
    assert curtain == "dotted"

    # The standalone plan is drawn with its embedded style (the nonce holds).
    page.goto(f"{live_server.url}{reverse('cells:cell_layout_svg', args=[cell])}")
    stroke = page.evaluate(
        "getComputedStyle(document.querySelector('.segment line')).stroke"
    )
    assert stroke == "rgb(43, 108, 176)"

    # Swagger UI draws the operations from its script file.
    page.goto(f"{live_server.url}{reverse('api-docs')}")
    expect(page.locator(".opblock").first).to_be_visible(timeout=15_000)
    assert violations(page) == []


def test_htmx_posts_with_the_csrf_header_alone(signed_in: Page, live_server, objects):
    page = signed_in
    page.goto(
        f"{live_server.url}{reverse('cells:cell_detail', args=[objects['cell'].pk])}"
    )
    page.get_by_role("link", name="Add guard segment").click()
    page.fill("#id_label", "F2")
    for field, value in {"start_x_mm": "0", "start_y_mm": "3000"}.items():
        page.fill(f"#id_{field}", value)
    page.fill("#id_end_x_mm", "4000")
    page.fill("#id_end_y_mm", "3000")
    page.fill("#id_height_mm", "1800")
    # Without the form's token only the header can satisfy Django's CSRF check.
    page.evaluate(
        "document.querySelectorAll('#editor input[name=csrfmiddlewaretoken]')"
        ".forEach((e) => e.remove())"
    )
    with page.expect_request(lambda r: r.method == "POST") as request:
        page.get_by_role("button", name="Save").click()
    assert request.value.headers.get("x-csrftoken")
    expect(page.locator('svg g.segment[data-label="F2"]')).to_be_visible()
    assert violations(page) == []


def test_the_language_switch_submits_on_change(signed_in: Page, live_server):
    page = signed_in
    page.select_option("#language", "ko")
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    page.select_option("#language", "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert violations(page) == []


def test_a_delete_asks_first_and_no_keeps_the_function(
    signed_in: Page, live_server, objects
):
    page = signed_in
    function = objects["function"]
    url = reverse("compliance:safety_function_detail", args=[function.pk])
    page.goto(f"{live_server.url}{url}")
    questions = []

    def answer(dialog, accept: bool) -> None:
        questions.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda d: answer(d, accept=False))
    page.get_by_role("button", name="Delete").click()
    expect(page.get_by_role("heading", name=function.name)).to_be_visible()
    assert SafetyFunction.objects.filter(pk=function.pk).exists()

    page.once("dialog", lambda d: answer(d, accept=True))
    page.get_by_role("button", name="Delete").click()
    expect(page.get_by_role("heading", name="Safety functions")).to_be_visible()
    assert questions == ["Delete this safety function?"] * 2
    assert not SafetyFunction.objects.filter(pk=function.pk).exists()


def test_a_body_region_link_fills_the_calculator_in_place(signed_in: Page, live_server):
    page = signed_in
    url = reverse("compliance:calculator_detail", args=["ts15066-pfl"])
    page.goto(f"{live_server.url}{url}")
    page.evaluate("window.__samePage = true")
    link = page.locator(".body-regions a").nth(3)
    region = link.get_attribute("data-fill-value")
    link.click()
    expect(page.locator("#id_body_region")).to_have_value(region)
    assert page.evaluate("window.__samePage") is True
    assert violations(page) == []


def test_a_late_condition_is_waited_for_under_the_policy(
    page: Page, live_server, transactional_db
):
    """CI failed once on a font that loaded a moment late: Playwright polls a
    ``wait_for_function`` *expression* through eval(), which the policy
    refuses, so only a condition true at the first look passed. A function is
    compiled once, outside the policy, and is waited for; the tests use that."""
    response = page.goto(f"{live_server.url}/accounts/login/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    later = "setTimeout(() => { document.body.dataset.late = 'yes'; }, 400)"
    page.evaluate(later)
    with pytest.raises(Exception, match="unsafe-eval"):
        page.wait_for_function("document.body.dataset.late === 'yes'", timeout=3_000)
    page.evaluate("delete document.body.dataset.late")
    page.evaluate(later)
    page.wait_for_function("() => document.body.dataset.late === 'yes'", timeout=5_000)
    assert page.evaluate("document.body.dataset.late") == "yes"
