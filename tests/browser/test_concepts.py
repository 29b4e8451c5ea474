"""A solution architect compares guarding concepts in the browser (issue 27):
designs them from the cell as drawn, reads them side by side with the plans
at one scale, chooses one, and follows a concept to its own layout."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from cells.models import Role
from tests.compliance.concepts.support import fenced_palletiser
from tests.factories import (
    CellFactory,
    MembershipFactory,
    OrganisationFactory,
    ProjectFactory,
    UserFactory,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def concept_cell(transactional_db):
    user = UserFactory(username="sa-concepts")
    organisation = OrganisationFactory()
    MembershipFactory(
        user=user, organisation=organisation, role=Role.SOLUTION_ARCHITECT
    )
    cell = CellFactory(project=ProjectFactory(organisation=organisation), name="Pal")
    return fenced_palletiser(cell)


@pytest.mark.parametrize("width", [1280, 390])
def test_designing_comparing_and_choosing_concepts(
    page: Page, live_server, concept_cell, screenshot_dir, width
):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "sa-concepts")
    page.fill("#id_password", "pass-for-tests-1")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/cells/{concept_cell.pk}/concepts/")
    expect(page.get_by_text("No concept is designed yet")).to_be_visible()
    page.get_by_role("button", name="Design guarding concepts").click()
    expect(page.get_by_text("The guarding concepts are designed.")).to_be_visible()
    table = page.locator("table.concepts")
    for name in ("As drawn", "Fenced", "Hybrid"):
        expect(table.get_by_role("columnheader", name=name)).to_be_visible()
    # Four plans, each framed alike: one scale.
    frames = page.locator("svg.concept-frame")
    expect(frames).to_have_count(4)  # as drawn, fenced, SSM, hybrid
    boxes = {frames.nth(i).get_attribute("viewBox") for i in range(3)}
    assert len(boxes) == 1
    expect(page.get_by_role("heading", name="Recommendation")).to_be_visible()
    expect(page.get_by_text("Not offered")).to_be_visible()
    page.screenshot(path=screenshot_dir / f"concepts-{width}.png", full_page=True)
    # Choosing the fenced concept marks it.
    page.locator("form[action$='/choose/'] button").nth(1).click()
    expect(page.get_by_text("is the chosen concept.")).to_be_visible()
    expect(table.get_by_text("chosen")).to_be_visible()
    # A concept's own layout opens like a cell's, and leads back.
    page.get_by_role("link", name="Edit this concept's layout").first.click()
    expect(page.get_by_role("link", name="Back to the comparison")).to_be_visible()
