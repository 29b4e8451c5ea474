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


def pick_tool(page: Page, name: str) -> None:
    """Choose a drawing tool; on a phone, from behind the Tools button."""
    toggle = page.locator("[data-tools-toggle]")
    if toggle.is_visible():
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
    page.get_by_role("button", name=name, exact=True).click()


def plan_model(page: Page) -> dict:
    return json.loads(
        page.locator("[data-plan-editor]").get_attribute("data-plan-model")
    )


def settled(page: Page, saved: str) -> None:
    """The edit saved, the workspace redrawn and its findings loaded (htmx
    loads them after the swap: nothing moves under the next gesture)."""
    expect(page.locator("#workspace .message.success")).to_contain_text(saved)
    expect(
        page.locator(
            "#findings-summary table, #findings-summary ul, #findings-summary p"
        ).first
    ).to_be_visible()
    expect(page.locator("#findings-summary")).not_to_contain_text(
        "Findings of the rules on this layout"
    )
    page.wait_for_load_state("networkidle")


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
    toggle = page.locator("[data-tools-toggle]")
    if width < 640:  # the tools fold behind one button, so the plan stays in view
        expect(page.get_by_role("button", name="Rectangle fence")).to_be_hidden()
        toggle.click()
    else:
        expect(toggle).to_be_hidden()
    page.fill('[name="plan-height"]', "1800")
    page.get_by_role("button", name="Rectangle fence").click()
    if width < 640:
        expect(toggle).to_have_attribute("aria-expanded", "false")
        expect(toggle).to_contain_text("Rectangle fence")
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
    pick_tool(page, "Select")
    drag(page, (6000, 6000), (6500, 6500))
    settled(page, "Moved the corner of F2, F3.")
    model = plan_model(page)
    assert model["segments"][1]["b"] == [6500, 6500]
    assert model["segments"][2]["a"] == [6500, 6500]
    expect(page.locator('svg g.segment[data-label="F2"]')).to_contain_text("6,519 mm")
    expect(page.locator('svg g.segment[data-label="F3"]')).to_contain_text("6,519 mm")
    shoot(page, screenshot_dir, f"plan-{width}-2-corner")

    # An opening dragged along F1, then slid along it.
    pick_tool(page, "Opening")
    drag(page, (2000, 0), (3000, 0))
    settled(page, "Added opening O1.")
    assert plan_model(page)["openings"][0]["offset_mm"] == 2000
    opened = findings(page)
    pick_tool(page, "Select")
    drag(page, (2500, 0), (3000, 0))
    settled(page, "Moved opening O1.")
    opening = plan_model(page)["openings"][0]
    assert (opening["offset_mm"], opening["width_mm"]) == (2500, 1000)
    shoot(page, screenshot_dir, f"plan-{width}-3-opening")

    # A light curtain across the opening; its form opens for its safety data,
    # and with it the minimum distance S is drawn round the hazard zone.
    pick_tool(page, "Light curtain")
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

    # Undo takes back the form's save first (its figures), then the curtain
    # itself (and its S); redo brings both back whole.
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+z")
    settled(page, "Undid: Saved Safety light curtain")
    expect(page.locator("svg g.curtain")).to_have_count(1)
    page.keyboard.press("Control+z")
    settled(page, "Undid: Placed")
    expect(page.locator("svg g.curtain")).to_have_count(0)
    expect(page.locator("svg g.clearance")).to_have_count(0)
    assert findings(page) != guarded
    shoot(page, screenshot_dir, f"plan-{width}-5-undo")
    page.keyboard.press("Control+Shift+z")
    settled(page, "Redid: Placed")
    page.keyboard.press("Control+Shift+z")
    settled(page, "Redid: Saved Safety light curtain")
    expect(page.locator("svg g.clearance text").first).to_contain_text("S ≥")
    assert findings(page) == guarded

    # A refused edit says why, where it happened, and saves nothing.
    pick_tool(page, "Select")
    drag(page, (3000, 0), (500, 0))  # the opening onto the corner: it stops at 0
    settled(page, "Moved opening O1.")
    shoot(page, screenshot_dir, f"plan-{width}-6-done")
    assert page.evaluate("window.__samePage") is True
    assert errors == []


@pytest.fixture
def fenced_cell(plan_cell):
    """Three sides of a fence, joined at two corners, a free segment off the
    grid, and a station."""
    from tests.factories import GuardSegmentFactory, OperatorStationFactory

    for label, a, b in [
        ("F1", (0, 0), (6000, 0)),
        ("F2", (6000, 0), (6000, 6000)),
        ("F3", (6000, 6000), (0, 6000)),
        ("W1", (1234, 4321), (2234, 4321)),
    ]:
        GuardSegmentFactory(
            cell=plan_cell,
            label=label,
            start_x_mm=a[0],
            start_y_mm=a[1],
            end_x_mm=b[0],
            end_y_mm=b[1],
            height_mm=1800,
        )
    OperatorStationFactory(cell=plan_cell, label="Loading", x_mm=3000, y_mm=2000)
    return plan_cell


def open_plan(page: Page, live_server, cell) -> None:
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/cells/{cell.pk}/")
    page.locator("svg.layout-svg").scroll_into_view_if_needed()
    expect(page.locator(".plan-toolbar")).to_be_visible()


def test_handles_and_snapping_to_other_elements(
    page: Page, live_server, fenced_cell, screenshot_dir
):
    page.set_viewport_size({"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_plan(page, live_server, fenced_cell)
    handles = page.locator("svg g.editor-handles rect")
    # Before anything is chosen: the two corners where fences meet.
    expect(handles).to_have_count(2)
    expect(page.locator("svg g.editor-handles rect.shared")).to_have_count(2)

    # Choosing F2 marks both its ends (each one shared with a neighbour).
    click_at(page, 6000, 3000)
    expect(page.locator("#editor")).to_contain_text("F2")  # its form, beside the plan
    expect(page.locator("svg g.editor-handles rect.selected")).to_have_count(2)
    expect(page.locator("svg g.editor-handles rect.selected.shared")).to_have_count(2)
    page.keyboard.press("Escape")

    # The station dragged to a few pixels off W1's end, which is off the grid:
    # the mark shows it caught the end, the read-out gives that end, and
    # there it is dropped, not on the 50 mm grid.
    page.mouse.move(*screen(page, 3000, 2000))
    page.mouse.down()
    x, y = screen(page, 1234, 4321)
    page.mouse.move(x + 4, y + 3, steps=10)
    expect(page.locator("svg g.editor-overlay .snap-mark.to-end")).to_have_count(1)
    readout = page.locator("[data-readout]")
    expect(readout).to_have_text("x 1,234, y 4,321 mm · on an end point")
    page.screenshot(path=str(screenshot_dir / "plan-1280-snap-end.png"))
    page.mouse.up()
    settled(page, "Moved Loading.")
    assert plan_model(page)["stations"][0]["at"] == [1234, 4321]

    # W1's free end dragged onto F2, a little off it: it lands on F2's line
    # (x 6000), its y where the pointer was (snapped onto the segment).
    page.mouse.move(*screen(page, 2234, 4321))
    page.mouse.down()
    x, y = screen(page, 6000, 4321)  # where F2 is now the drag has begun
    page.mouse.move(x - 5, y, steps=10)
    # The read-out first: a failure then says where the pointer snapped.
    expect(readout).to_contain_text("on a segment")
    expect(readout).to_contain_text("x 6,000,")
    expect(page.locator("svg g.editor-overlay .snap-mark.to-segment")).to_have_count(1)
    page.mouse.up()
    settled(page, "Moved the corner of W1.")
    assert plan_model(page)["segments"][3]["b"][0] == 6000
    page.locator("#workspace section.plan").screenshot(
        path=str(screenshot_dir / "plan-1280-snapped.png")
    )
    assert errors == []


def test_phone_folds_the_tools_and_draws_by_touch(
    browser, live_server, fenced_cell, screenshot_dir
):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_plan(page, live_server, fenced_cell)
    toggle = page.locator("[data-tools-toggle]")
    expect(toggle).to_be_visible()
    expect(page.get_by_role("button", name="Operator station")).to_be_hidden()
    # The folded toolbar leaves the plan on the first screen below it.
    toolbar = page.locator(".plan-toolbar").bounding_box()
    plan = page.locator("svg.layout-svg").bounding_box()
    assert toolbar["height"] < 120
    assert plan["width"] <= 390
    page.screenshot(path=str(screenshot_dir / "plan-390-folded.png"))

    toggle.tap()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    page.screenshot(path=str(screenshot_dir / "plan-390-tools-open.png"))
    page.get_by_role("button", name="Operator station").tap()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_contain_text("Operator station")
    page.touchscreen.tap(*screen(page, 3000, 3000))
    settled(page, "Placed Station 1.")
    assert [3000, 3000] in [s["at"] for s in plan_model(page)["stations"]]
    page.screenshot(path=str(screenshot_dir / "plan-390-touch.png"))
    assert errors == []
    context.close()
