"""Two people edit one guard segment in their browsers (issue 28): the one
who saves second is told that someone else saved since, with the fields that
differ, and nothing of the first person's is undone; saving again replaces
it knowingly."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from cells.models import GuardSegment, Role
from tests.factories import (
    CellFactory,
    GuardSegmentFactory,
    MembershipFactory,
    OrganisationFactory,
    ProjectFactory,
    UserFactory,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def shared_segment(transactional_db):
    organisation = OrganisationFactory()
    for name in ("sa-one", "sa-two"):
        MembershipFactory(
            user=UserFactory(username=name),
            organisation=organisation,
            role=Role.SOLUTION_ARCHITECT,
        )
    cell = CellFactory(project=ProjectFactory(organisation=organisation), name="Pal")
    return GuardSegmentFactory(cell=cell, label="F1", height_mm=1800)


def _editing(browser: Browser, live_server, segment, username):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pass-for-tests-1")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/cells/{segment.cell_id}/segment/{segment.pk}/edit/")
    return page


def test_the_second_saver_is_told_and_the_first_change_stays(
    browser: Browser, live_server, shared_segment, screenshot_dir
):
    one = _editing(browser, live_server, shared_segment, "sa-one")
    two = _editing(browser, live_server, shared_segment, "sa-two")
    one.fill("#id_height_mm", "2000")
    one.get_by_role("button", name="Save").click()
    expect(one.get_by_text("Saved F1")).to_be_visible()
    two.fill("#id_height_mm", "2200")
    two.get_by_role("button", name="Save").click()
    told = two.get_by_text("Someone else saved this since you opened it")
    expect(told).to_be_visible()
    expect(told).to_contain_text("differ from yours in: Height")
    two.screenshot(
        path=str(screenshot_dir / "two-editors-conflict.png"), full_page=True
    )
    assert GuardSegment.objects.get(pk=shared_segment.pk).height_mm == 2000
    # Saving again, knowingly, replaces it.
    two.get_by_role("button", name="Save").click()
    expect(two.get_by_text("Saved F1")).to_be_visible()
    assert GuardSegment.objects.get(pk=shared_segment.pk).height_mm == 2200
