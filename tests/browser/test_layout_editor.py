"""A solution architect builds a cell in a real browser and watches the plan
redraw as they add guarding, without full page loads."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from cells.models import (
    Cell,
    Device,
    GuardSegment,
    LayoutUnderlay,
    OperatorStation,
    Role,
)
from tests.factories import (
    CellFactory,
    GuardSegmentFactory,
    MembershipFactory,
    OpeningFactory,
    OrganisationFactory,
    ProjectFactory,
    UserFactory,
)

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


# Editor, first use (issue 31) -------------------------------------------------------


@pytest.fixture
def new_cell(architect):
    """A cell with nothing drawn: the robot's zone alone."""
    organisation = architect.memberships.get().organisation
    return CellFactory(
        project=ProjectFactory(organisation=organisation, name="First use"),
        name="New cell",
        reach_mm=1700,
        robot_base_x_mm=2000,
        robot_base_y_mm=1750,
    )


def on_screen(page: Page, x_mm: float, y_mm: float) -> tuple[float, float]:
    """Where a plan point (mm, y up) is drawn on the screen, as it stands: the
    page is not scrolled to it."""
    return tuple(
        page.evaluate(
            """([x, y]) => {
                const svg = document.querySelector('#workspace svg.layout-svg');
                const p = svg.createSVGPoint(); p.x = x; p.y = -y;
                const s = p.matrixTransform(svg.getScreenCTM());
                return [s.x, s.y];
            }""",
            [x_mm, y_mm],
        )
    )


def click_plan(page: Page, x_mm: float, y_mm: float) -> None:
    page.mouse.click(*on_screen(page, x_mm, y_mm))


def plan_box(page: Page) -> dict:
    return page.evaluate(
        """() => {
            const r = document.querySelector('#workspace svg.layout-svg')
                .getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                    height: window.innerHeight};
        }"""
    )


def smallest_label_px(page: Page) -> float:
    """The smallest text of the plan as drawn, in CSS pixels: its font size
    (in the plan's units) times the plan's scale. Hidden ones (grid figures
    thinned out) aside."""
    return page.evaluate(
        """() => {
            const svg = document.querySelector('#workspace svg.layout-svg');
            const scale = svg.getScreenCTM().a;
            const sizes = [...svg.querySelectorAll('text')]
                .filter((t) => t.getAttribute('visibility') !== 'hidden')
                .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
            return Math.min(...sizes);
        }"""
    )


def status(page: Page):
    return page.locator("#plan-status")


def edited(page: Page, said: str) -> None:
    """The edit saved: the status line says so, the findings reloaded."""
    expect(status(page)).to_contain_text(said)
    expect(page.locator("#findings-summary")).not_to_contain_text(
        "Findings of the rules on this layout"
    )
    page.wait_for_load_state("networkidle")


def test_a_new_cells_plan_opens_whole_and_two_clicks_fence_the_robot(
    page: Page, live_server, architect, screenshot_dir
):
    page.set_viewport_size({"width": 1366, "height": 768})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, live_server.url)
    page.get_by_role("link", name="New project").click()
    page.fill("#id_name", "First use")
    page.fill("#id_customer_name", "Hanbit Foods")
    page.get_by_role("button", name="Save").click()
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
    expect(page.locator(".plan-toolbar")).to_be_visible()
    page.wait_for_load_state("networkidle")

    # The plan is whole on the first screen, its tools above it ...
    box = plan_box(page)
    assert box["top"] >= 0 and box["bottom"] <= 768, box
    tool = page.get_by_role("button", name="Rectangle fence").bounding_box()
    assert tool["y"] >= 0 and tool["y"] + tool["height"] <= box["top"]
    # ... and shows the robot with room round it: 1.5 × the reach and the
    # 200 mm clearance each way from the base.
    room = 1.5 * 1700 + 200
    for x, y in [(2000 - room, 1750 - room), (2000 + room, 1750 + room)]:
        sx, sy = on_screen(page, x, y)
        assert box["left"] <= sx <= box["right"] and box["top"] <= sy <= box["bottom"]
    page.screenshot(path=str(screenshot_dir / "first-use-1366-opened.png"))

    # The tool says what it needs first, then what next.
    page.get_by_role("button", name="Rectangle fence").click()
    expect(status(page)).to_have_text("Give the guard height (mm) first.")
    expect(page.locator('[name="plan-height"]')).to_be_focused()
    page.keyboard.type("1800")
    expect(status(page)).to_have_text("Click two opposite corners.")
    click_plan(page, 2000 - 2100, 1750 - 2100)
    expect(status(page)).to_have_text("Now click the opposite corner.")
    click_plan(page, 2000 + 2100, 1750 + 2100)
    edited(page, "Drew 4 guard segments.")
    cell = Cell.objects.get(name="Case palletiser")
    assert (
        list(GuardSegment.objects.filter(cell=cell).values_list("kind", flat=True))
        == ["fence"] * 4
    )
    assert GuardSegment.objects.filter(cell=cell, start_x_mm=-100).exists()
    # And the next: another rectangle, if wanted.
    expect(status(page)).to_contain_text("Click two opposite corners.")
    page.screenshot(path=str(screenshot_dir / "first-use-1366-fenced.png"))
    assert errors == []


def test_a_click_beside_the_drawing_says_why_nothing_happened(
    page: Page, live_server, new_cell, screenshot_dir
):
    page.set_viewport_size({"width": 1366, "height": 768})
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/cells/{new_cell.pk}/")
    expect(page.locator(".plan-toolbar")).to_be_visible()
    page.fill('[name="plan-height"]', "1800")
    page.get_by_role("button", name="Rectangle fence").click()
    click_plan(page, 0, 0)
    # The second corner beside the drawing, on the plan's card.
    box = plan_box(page)
    page.mouse.click(box["right"] + 8, (box["top"] + box["bottom"]) / 2)
    expect(status(page)).to_have_text(
        "That point is outside the plan: click inside the drawing, or zoom out (−) "
        "for more room."
    )
    expect(status(page).locator(".message.error")).to_be_visible()
    page.locator("#workspace section.plan").screenshot(
        path=str(screenshot_dir / "first-use-1366-outside.png")
    )
    # The first corner was kept: one more click inside draws the fence.
    click_plan(page, 4000, 3500)
    edited(page, "Drew 4 guard segments.")
    assert GuardSegment.objects.filter(cell=new_cell).count() == 4


def test_the_status_line_speaks_korean(
    page: Page, live_server, new_cell, screenshot_dir
):
    page.set_viewport_size({"width": 1366, "height": 768})
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/cells/{new_cell.pk}/")
    page.select_option("#language", "ko")
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    expect(page.locator(".plan-toolbar")).to_be_visible()
    page.locator('[data-tool="rectangle"]').click()
    expect(status(page)).to_have_text("먼저 방호물 높이(mm)를 입력하십시오.")
    page.keyboard.type("1800")
    expect(status(page)).to_have_text("마주 보는 두 모서리를 클릭하십시오.")
    click_plan(page, 0, 0)
    click_plan(page, 4000, 3500)
    expect(status(page)).to_contain_text("방호 구간 4개를 그렸습니다.")
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(screenshot_dir / "first-use-1366-korean.png"))


def test_points_snap_to_the_imported_drawing_and_to_the_grid_chosen(
    page: Page, live_server, new_cell
):
    LayoutUnderlay.objects.create(
        cell=new_cell, lines=[[1234, 567, 3210, 567]], source_name="hall.dxf"
    )
    page.set_viewport_size({"width": 1366, "height": 768})
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/cells/{new_cell.pk}/")
    expect(page.locator(".plan-toolbar")).to_be_visible()

    # A few pixels off an end of an imported line: the point is that end.
    page.get_by_role("button", name="Operator station").click()
    x, y = on_screen(page, 1234, 567)
    page.mouse.move(x + 3, y - 2)
    expect(page.locator("[data-readout]")).to_have_text(
        "x 1,234, y 567 mm · on an end of an imported line"
    )
    page.mouse.click(x + 3, y - 2)
    edited(page, "Placed Station 1.")
    station = OperatorStation.objects.get(cell=new_cell)
    assert (station.x_mm, station.y_mm) == (1234, 567)

    # The grid chosen, 500 mm, is kept for the next visit.
    page.select_option('[name="plan-snap"]', "500")
    page.get_by_role("button", name="Operator station").click()
    click_plan(page, 2730, 1320)
    edited(page, "Placed Station 2.")
    station = OperatorStation.objects.get(cell=new_cell, label="Station 2")
    assert (station.x_mm, station.y_mm) == (2500, 1500)
    page.reload()
    expect(page.locator('[name="plan-snap"]')).to_have_value("500")


@pytest.fixture
def opening_cell(new_cell):
    """A fence round the robot, with an opening in F1 near enough the zone to
    fail for want of a device."""
    corners = [(0, 0), (4000, 0), (4000, 3500), (0, 3500)]
    segments = [
        GuardSegmentFactory(
            cell=new_cell,
            label=f"F{i + 1}",
            start_x_mm=a[0],
            start_y_mm=a[1],
            end_x_mm=b[0],
            end_y_mm=b[1],
            height_mm=1800,
        )
        for i, (a, b) in enumerate(zip(corners, corners[1:] + corners[:1], strict=True))
    ]
    OpeningFactory(
        segment=segments[0],
        label="O1",
        offset_mm=1500,
        width_mm=1000,
        lower_edge_mm=0,
        upper_edge_mm=1800,
    )
    return new_cell


def test_a_light_curtain_drawn_across_an_opening_guards_it_at_once(
    page: Page, live_server, opening_cell, screenshot_dir
):
    page.set_viewport_size({"width": 1366, "height": 768})
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/cells/{opening_cell.pk}/")
    page.locator("svg.layout-svg").scroll_into_view_if_needed()
    opening = page.locator('svg g.opening[data-label="O1"]')
    unguarded = page.locator(
        "#findings-summary li.finding.status-fail", has_text="INTL-opening-guarded"
    )
    expect(opening).to_have_class(re.compile(r"\bstatus-fail\b"))
    expect(unguarded).to_contain_text("O1")

    # Across the opening, in the fence's line: linked at once, with no word
    # typed in the device's form (which opens for its safety data).
    page.get_by_role("button", name="Light curtain").click()
    click_plan(page, 1400, 0)
    expect(status(page)).to_have_text("Now click the other end of the detection line.")
    click_plan(page, 2600, 0)
    expect(page.locator("#editor")).to_be_visible()
    edited(page, "Placed Safety light curtain 1 across opening O1 of F1.")
    device = Device.objects.get(cell=opening_cell)
    assert device.opening.label == "O1"
    expect(opening).not_to_have_class(re.compile(r"\bstatus-fail\b"))
    expect(unguarded).to_have_count(0)
    expect(page.locator("#id_opening")).to_have_value(str(device.opening_id))
    page.screenshot(path=str(screenshot_dir / "first-use-1366-curtain-linked.png"))

    # One that crosses no opening says so, and the form is where to say what.
    page.get_by_role("button", name="Light curtain").click()
    click_plan(page, 1000, 1500)
    click_plan(page, 3000, 1500)
    expect(page.locator("#editor")).to_contain_text("Safety light curtain 2")
    expect(status(page).locator(".message.warning")).to_have_text(
        "Safety light curtain 2 crosses no opening: choose what it guards in its form."
    )
    assert Device.objects.get(label="Safety light curtain 2").opening is None
    page.screenshot(path=str(screenshot_dir / "first-use-1366-curtain-unlinked.png"))


def test_on_a_phone_a_new_plan_opens_in_view_with_readable_labels(
    page: Page, live_server, new_cell, screenshot_dir
):
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/cells/{new_cell.pk}/")
    expect(page.locator(".plan-toolbar")).to_be_visible()
    page.wait_for_load_state("networkidle")
    box = plan_box(page)
    assert 0 <= box["top"] < 844 - 200, box  # the plan's top on the first screen
    assert smallest_label_px(page) >= 11
    page.screenshot(path=str(screenshot_dir / "first-use-390-opened.png"))
    # The tools unfolded push the plan down, not out of view.
    page.locator("[data-tools-toggle]").click()
    assert plan_box(page)["top"] < 844 - 100
    page.screenshot(path=str(screenshot_dir / "first-use-390-tools.png"))


def test_on_a_phone_the_labels_stay_readable_and_grow_when_zoomed(
    page: Page, live_server, opening_cell, screenshot_dir
):
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/cells/{opening_cell.pk}/")
    page.locator("svg.layout-svg").scroll_into_view_if_needed()
    expect(page.locator(".plan-toolbar")).to_be_visible()
    assert smallest_label_px(page) >= 11
    caption = page.locator('svg g.segment[data-label="F1"] text')
    before = caption.bounding_box()["height"]
    assert before >= 11
    page.locator("svg.layout-svg").screenshot(
        path=str(screenshot_dir / "first-use-390-labels.png")
    )
    page.mouse.move(*on_screen(page, 1000, 0))  # zoomed in round F1
    for _ in range(7):
        page.mouse.wheel(0, -100)
    page.wait_for_timeout(100)
    # Drawn at the floor before, at its own size in the plan now: larger.
    assert caption.bounding_box()["height"] > before * 1.3
    assert smallest_label_px(page) >= 11
    page.locator("svg.layout-svg").screenshot(
        path=str(screenshot_dir / "first-use-390-zoomed.png")
    )
