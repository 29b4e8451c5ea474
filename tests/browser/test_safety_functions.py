"""A safety engineer accepts a proposed safety function, builds its chain
from the device library and sees the PL recomputed as they type, in a real
browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from cells.models import Role
from compliance.safety_functions.library.services import library_seed
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


@pytest.fixture
def cell(transactional_db):
    organisation = OrganisationFactory(name="Browser Integrator")
    library_seed(organisation=organisation)
    user = UserFactory(username="se-functions")
    MembershipFactory(user=user, organisation=organisation, role=Role.SAFETY_ENGINEER)
    project = ProjectFactory(organisation=organisation, name="PoC", country="KR")
    cell = CellFactory(project=project, name="Case palletiser")
    segment = GuardSegmentFactory(cell=cell, label="F1")
    opening = OpeningFactory(segment=segment, label="Infeed", purpose="material_entry")
    DeviceFactory(cell=cell, kind="light_curtain", label="LC1", opening=opening)
    return cell


def test_engineer_accepts_a_function_and_sees_the_pl_live(
    page: Page, live_server, cell, screenshot_dir
):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "se-functions")
    page.fill("#id_password", "pass-for-tests-1")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/cells/{cell.pk}/safety-functions/")
    expect(page.locator("#functions")).to_contain_text("LC1 interrupted")
    page.get_by_role("button", name="Accept").click()

    # The function's page: its chain input → logic → output, drawn.
    expect(page.get_by_role("heading", name="Block diagram")).to_be_visible()
    expect(page.locator("svg.sf-diagram .sf-block")).to_have_count(3)

    # The logic from the library: the PL is recomputed before saving.
    logic = page.locator(".sf-subsystems > li", has_text="Safety controller")
    logic.get_by_role("link", name="Edit").click()
    page.select_option("#id_route", "certified")
    page.select_option("#id_pl", "e")
    page.fill("#id_pfhd_per_hour", "2.31e-9")
    page.locator("#id_label").press("Tab")
    expect(page.locator("#sf-preview")).to_contain_text("This subsystem: PL e")
    page.screenshot(path=str(screenshot_dir / "subsystem-live.png"), full_page=True)
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".sf-subsystems")).to_contain_text("PL e")


def test_table_headers_keep_the_case_of_symbols_and_units(
    page: Page, live_server, cell
):
    # PLr, PFHd and mm are written as the standards write them: no style
    # turns them into PLR, PFHD or MM (issue 30).
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "se-functions")
    page.fill("#id_password", "pass-for-tests-1")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/cells/{cell.pk}/safety-functions/")
    page.get_by_role("button", name="Accept").click()
    expect(page.get_by_role("heading", name="Block diagram")).to_be_visible()
    page.goto(f"{live_server.url}/cells/{cell.pk}/safety-functions/")
    headers = page.locator("table thead th").all_inner_texts()
    assert "PLr" in headers and "PFHd" in headers, headers
    page.goto(f"{live_server.url}/cells/{cell.pk}/")
    shown = " ".join(page.locator("table thead th").all_inner_texts())
    assert "MM" not in shown.split() and "(MM)" not in shown, shown
