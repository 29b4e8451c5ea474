"""A solution architect draws the guarding on the plan itself (issue 14): a
closed fence in two clicks, a corner dragged with both its sides following, an
opening slid along its fence, a light curtain placed with its minimum
distance drawn, undo and redo; the findings follow each step."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from cells.models import Role
from tests.factories import (
    CellFactory,
    MembershipFactory,
    OrganisationFactory,
    ProjectFactory,
    UserFactory,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def plan_cell(transactional_db):
    user = UserFactory(username="sa-drawing")
    organisation = OrganisationFactory()
    MembershipFactory(
        user=user, organisation=organisation, role=Role.SOLUTION_ARCHITECT
    )
    return CellFactory(
        project=ProjectFactory(organisation=organisation),
        name="Drawn cell",
        robot_base_x_mm=3000,
        robot_base_y_mm=3000,
        stopping_time_ms=300,
        hazard_zone_height_mm=1400,
    )


def sign_in(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", "sa-drawing")
    page.fill("#id_password", "pass-for-tests-1")
    page.click("button[type=submit]")
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()


def screen(page: Page, x_mm: float, y_mm: float) -> tuple[float, float]:
    """Where a plan point (mm, y up) is on the screen now."""
    return tuple(
        page.evaluate(
            """([x, y]) => {
                const svg = document.querySelector('#workspace svg.layout-svg');
                const p = svg.createSVGPoint(); p.x = x; p.y = -y;
                let s = p.matrixTransform(svg.getScreenCTM());
                if (s.y < 40 || s.y > window.innerHeight - 40) {
                    window.scrollBy(0, s.y - window.innerHeight / 2);
                    s = p.matrixTransform(svg.getScreenCTM());
                }
                return [s.x, s.y];
            }""",
            [x_mm, y_mm],
        )
    )


def click_at(page: Page, x_mm: float, y_mm: float) -> None:
    page.mouse.click(*screen(page, x_mm, y_mm))


def drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*screen(page, *start))
    page.mouse.down()
    ex, ey = screen(page, *end)
    page.mouse.move(ex, ey, steps=8)
    page.mouse.up()


def plan_model(page: Page) -> dict:
    return json.loads(
        page.locator("[data-plan-editor]").get_attribute("data-plan-model")
    )


def settled(page: Page, saved: str) -> None:
    expect(page.locator("#workspace .message.success")).to_contain_text(saved)
    expect(
        page.locator(
            "#findings-summary table, #findings-summary ul, #findings-summary p"
        ).first
    ).to_be_visible()


def findings(page: Page) -> str:
    summary = page.locator("#findings-summary")
    expect(summary).not_to_contain_text("Findings of the rules on this layout")
    return summary.inner_text()


def shoot(page: Page, folder, name: str) -> None:
    page.locator("#workspace section.plan").screenshot(path=str(folder / f"{name}.png"))


@pytest.mark.parametrize("width", [1280, 390])
def test_architect_draws_the_guarding_on_the_plan(
    page: Page, live_server, plan_cell, screenshot_dir, width
):
    page.set_viewport_size({"width": width, "height": 900})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/cells/{plan_cell.pk}/")
    page.evaluate("window.__samePage = true")
    page.locator("svg.layout-svg").scroll_into_view_if_needed()
    before = findings(page)
    shoot(page, screenshot_dir, f"plan-{width}-0-start")

    # A closed fence of four segments in two clicks.
    # The empty plan shows the robot's zone only: zoom out to room for the fence.
    for _ in range(3):
        page.get_by_role("button", name="Zoom out").click()
    page.get_by_role("button", name="Rectangle fence").click()
    page.fill('[name="plan-height"]', "1800")
    click_at(page, 0, 0)
    click_at(page, 6000, 6000)
    settled(page, "Drew 4 guard segments.")
    expect(page.locator("svg g.segment")).to_have_count(4)
    model = plan_model(page)
    assert [s["a"] for s in model["segments"]] == [
        [0, 0],
        [6000, 0],
        [6000, 6000],
        [0, 6000],
    ]
    fenced = findings(page)
    assert fenced != before
    shoot(page, screenshot_dir, f"plan-{width}-1-rectangle")

    # Drag a corner: both sides meeting there follow.
    page.get_by_role("button", name="Select").click()
    drag(page, (6000, 6000), (6500, 6500))
    settled(page, "Moved the corner of F2, F3.")
    model = plan_model(page)
    assert model["segments"][1]["b"] == [6500, 6500]
    assert model["segments"][2]["a"] == [6500, 6500]
    expect(page.locator('svg g.segment[data-label="F2"]')).to_contain_text("6,519 mm")
    expect(page.locator('svg g.segment[data-label="F3"]')).to_contain_text("6,519 mm")
    shoot(page, screenshot_dir, f"plan-{width}-2-corner")

    # An opening dragged along F1, then slid along it.
    page.get_by_role("button", name="Opening").click()
    drag(page, (2000, 0), (3000, 0))
    settled(page, "Added opening O1.")
    assert plan_model(page)["openings"][0]["offset_mm"] == 2000
    opened = findings(page)
    page.get_by_role("button", name="Select").click()
    drag(page, (2500, 0), (3000, 0))
    settled(page, "Moved opening O1.")
    opening = plan_model(page)["openings"][0]
    assert (opening["offset_mm"], opening["width_mm"]) == (2500, 1000)
    shoot(page, screenshot_dir, f"plan-{width}-3-opening")

    # A light curtain across the opening; its form opens for its safety data,
    # and with it the minimum distance S is drawn round the hazard zone.
    page.get_by_role("button", name="Light curtain").click()
    click_at(page, 2500, 100)
    click_at(page, 3500, 100)
    expect(page.locator("#id_response_time_ms")).to_be_visible()
    page.fill("#id_response_time_ms", "20")
    page.fill("#id_detection_capability_mm", "14")
    page.fill("#id_detection_lower_mm", "300")
    page.fill("#id_detection_upper_mm", "1500")
    page.locator("#editor").get_by_role("button", name="Save").click()
    clearance = page.locator("svg g.clearance").first
    expect(clearance).to_be_attached()
    expect(page.locator("svg g.clearance text").first).to_contain_text("S ≥")
    guarded = findings(page)
    assert guarded != opened
    shoot(page, screenshot_dir, f"plan-{width}-4-curtain")

    # Undo takes the curtain away (and its S); redo brings it back whole.
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+z")
    settled(page, "Undid: Placed")
    expect(page.locator("svg g.curtain")).to_have_count(0)
    expect(page.locator("svg g.clearance")).to_have_count(0)
    assert findings(page) != guarded
    shoot(page, screenshot_dir, f"plan-{width}-5-undo")
    page.keyboard.press("Control+Shift+z")
    settled(page, "Redid: Placed")
    expect(page.locator("svg g.clearance text").first).to_contain_text("S ≥")
    assert findings(page) == guarded

    # A refused edit says why, where it happened, and saves nothing.
    page.get_by_role("button", name="Select").click()
    drag(page, (3000, 0), (500, 0))  # the opening onto the corner: it stops at 0
    settled(page, "Moved opening O1.")
    shoot(page, screenshot_dir, f"plan-{width}-6-done")
    assert page.evaluate("window.__samePage") is True
    assert errors == []
