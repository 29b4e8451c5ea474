"""A solution architect builds a cell in a real browser and watches the plan
redraw as they add guarding, without full page loads."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from cells.models import Role
from tests.factories import MembershipFactory, OrganisationFactory, UserFactory

pytestmark = pytest.mark.browser


@pytest.fixture
def architect(transactional_db):
    user = UserFactory(username="sa-browser")
    MembershipFactory(
        user=user, organisation=OrganisationFactory(), role=Role.SOLUTION_ARCHITECT
    )
    return user


def sign_in(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", "sa-browser")
    page.fill("#id_password", "pass-for-tests-1")
    page.click("button[type=submit]")
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()


def test_architect_draws_a_cell_and_the_plan_redraws_in_place(
    page: Page, live_server, architect, screenshot_dir
):
    sign_in(page, live_server.url)

    page.get_by_role("link", name="New project").click()
    page.fill("#id_name", "Browser PoC")
    page.fill("#id_customer_name", "Hanbit Foods")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name="Browser PoC")).to_be_visible()

    page.get_by_role("link", name="New cell").click()
    for field, value in {
        "name": "Case palletiser",
        "robot_manufacturer": "Acme",
        "robot_model": "R-20",
        "payload_kg": "20",
        "reach_mm": "1700",
        "max_tcp_speed_mm_s": "2000",
        "moving_mass_kg": "230",
        "robot_base_x_mm": "2000",
        "robot_base_y_mm": "1750",
    }.items():
        page.fill(f"#id_{field}", value)
    page.select_option("#id_application", "palletising")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name="Case palletiser")).to_be_visible()

    # From here on every change must redraw the plan without a page load.
    page.evaluate("window.__samePage = true")

    page.get_by_role("link", name="Add guard segment").click()
    page.fill("#id_label", "F1")
    page.fill("#id_start_x_mm", "0")
    page.fill("#id_start_y_mm", "0")
    page.fill("#id_end_x_mm", "4000")
    page.fill("#id_end_y_mm", "0")
    page.fill("#id_height_mm", "0")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("The height must be greater than zero.")).to_be_visible()

    page.fill("#id_height_mm", "1800")
    page.get_by_role("button", name="Save").click()
    segment = page.locator('svg g.segment[data-label="F1"]')
    expect(segment).to_be_visible()
    expect(segment).to_contain_text("4,000 mm")

    page.get_by_role("link", name="Add opening").click()
    page.fill("#id_label", "Infeed")
    page.select_option("#id_segment", label="F1")
    page.fill("#id_offset_mm", "1500")
    page.fill("#id_width_mm", "1000")
    page.fill("#id_lower_edge_mm", "300")
    page.fill("#id_upper_edge_mm", "1500")
    page.get_by_role("button", name="Save").click()
    opening = page.locator('svg g.opening[data-label="Infeed"]')
    expect(opening).to_be_visible()
    expect(opening).to_contain_text("1,000 mm")
    expect(page.locator("svg g.segment[data-label='F1'] line")).to_have_count(2)

    assert page.evaluate("window.__samePage === true"), "a full page load happened"
    assert page.url.endswith("/"), page.url  # back on the cell's own address
    page.screenshot(path=screenshot_dir / "cell-layout-editor.png", full_page=True)
