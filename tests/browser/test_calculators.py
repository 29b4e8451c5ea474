"""A safety engineer changes a calculator's inputs and the result follows as
they type, without a page load."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from cells.models import Role
from tests.factories import MembershipFactory, OrganisationFactory, UserFactory

pytestmark = pytest.mark.browser


@pytest.fixture
def engineer(transactional_db):
    user = UserFactory(username="se-browser")
    MembershipFactory(
        user=user, organisation=OrganisationFactory(), role=Role.SAFETY_ENGINEER
    )
    return user


def test_light_curtain_distance_updates_as_the_engineer_types(
    page: Page, live_server, engineer, screenshot_dir
):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "se-browser")
    page.fill("#id_password", "pass-for-tests-1")
    page.locator("main button[type=submit]").click()

    page.get_by_role("link", name="Calculators").click()
    page.get_by_role(
        "link", name="Light curtain minimum distance (normal approach)"
    ).click()
    distance = page.locator('[data-field="minimum_distance_mm"] .value')
    # The worked example (SICK C4000: d = 14 mm, T = 320 ms) is shown first.
    expect(distance).to_have_text("512")
    page.evaluate("window.__samePage = true")

    # T = 20 + 80 = 100 ms: S = 2000 × 0.1 + 0 = 200 mm.
    page.fill("#id_stopping_time_ms", "80")
    expect(distance).to_have_text("200")

    # A negative time: a message, and the typed value stays in the form.
    page.fill("#id_response_time_ms", "-5")
    expect(page.locator("#result")).to_contain_text("Correct the inputs")
    expect(page.locator("#id_response_time_ms")).to_have_value("-5")

    page.fill("#id_response_time_ms", "20")
    expect(distance).to_have_text("200")
    assert page.evaluate("window.__samePage === true"), "a full page load happened"
    assert "stopping_time_ms=80" in page.url  # the address can be shared
    page.screenshot(path=screenshot_dir / "calculator-espe.png", full_page=True)


def test_picking_a_body_region_shows_its_limits(page: Page, live_server, engineer):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "se-browser")
    page.fill("#id_password", "pass-for-tests-1")
    page.locator("main button[type=submit]").click()
    page.goto(f"{live_server.url}/calculators/ts15066-pfl/")

    force = page.locator('[data-field="force_limit_n"] .value')
    expect(force).to_have_text("280")  # hands and fingers, transient: 2 × 140 N
    page.get_by_role("link", name="Abdomen").click()
    expect(page.locator("#id_body_region")).to_have_value("abdomen")
    expect(force).to_have_text("220")  # abdomen, transient: 2 × 110 N
    page.select_option("#id_contact", "quasi_static")
    expect(force).to_have_text("110")
