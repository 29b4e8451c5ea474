"""A solution architect checks the robot programmer's program in the browser
(issue 32): imports a URScript file on the Motion tab, finds line 3 failing
at the speed it may have, sees the path red on the plan where it passes the
loading station, and narrows the table to the failing segments."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from cells.models import MotionProgram, OperatorStation, Role
from tests.factories import (
    CellFactory,
    MembershipFactory,
    OrganisationFactory,
    ProjectFactory,
    UserFactory,
)

pytestmark = pytest.mark.browser

# The program: line 3 passes the operator's chest at 1 m/s.
PROGRAM = """def main():
  movel(p[0.40, 0.30, 0.30, 0, 3.14, 0], a=1.2, v=0.25)
  movel(p[0.40, -0.30, 0.30, 0, 3.14, 0], a=1.2, v=1.0)
  movel(p[0.40, 0.30, 0.30, 0, 3.14, 0], a=1.2, v=0.25)
end
"""


@pytest.fixture
def cobot(transactional_db):
    """The issue's cobot: 33.5 kg moving, 5 kg payload, its base at the
    plan's origin; an operator loading with the chest exposed."""
    user = UserFactory(username="sa-motion")
    organisation = OrganisationFactory()
    MembershipFactory(
        user=user, organisation=organisation, role=Role.SOLUTION_ARCHITECT
    )
    cell = CellFactory(
        project=ProjectFactory(organisation=organisation),
        name="Cobot",
        robot_kind="collaborative",
        collaborative_modes=["pfl"],
        moving_mass_kg=33.5,
        payload_kg=5,
        robot_base_x_mm=0,
        robot_base_y_mm=0,
    )
    OperatorStation.objects.create(
        cell=cell, label="Load", x_mm=400, y_mm=-900, exposed_regions=["chest"]
    )
    return cell


@pytest.mark.parametrize("width", [1366, 390])
def test_importing_a_program_and_finding_its_failing_line(
    page: Page, live_server, cobot, screenshot_dir, tmp_path, width
):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "sa-motion")
    page.fill("#id_password", "pass-for-tests-1")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/cells/{cobot.pk}/")
    page.locator("nav.tabs").get_by_role("link", name="Motion").click()
    expect(page.get_by_text("No robot program is imported yet.")).to_be_visible()

    program = tmp_path / "main.script"
    program.write_text(PROGRAM)
    page.set_input_files("#id_file", str(program))
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.get_by_text("“main.script” is imported and judged.")).to_be_visible()
    assert MotionProgram.objects.filter(cell=cobot).count() == 1

    # The summary names the failing line; the table has it with its speed.
    expect(page.get_by_text("Fails on line 3.")).to_be_visible()
    table = page.locator("table.motion-segments")
    expect(table.locator("tbody tr[class^='verdict-']")).to_have_count(2)
    failing = table.locator("tr.verdict-fail")
    expect(failing).to_have_count(1)
    expect(failing.locator("td").first).to_have_text("3")
    expect(failing).to_contain_text("471.8")
    # The path on the plan: red where it passes the station, green elsewhere.
    plan = page.locator("#motion-program svg.layout-svg")
    red = plan.locator("polyline.verdict-fail")
    expect(red).to_have_count(1)
    assert red.get_attribute("stroke") == "#c0392b"
    expect(plan.locator("polyline.verdict-pass")).to_have_count(1)
    expect(plan.locator(".motion-zones circle")).to_have_count(1)
    page.screenshot(path=screenshot_dir / f"motion-{width}.png", full_page=True)

    # The failing filter: only line 3, in place (htmx), the address kept.
    page.locator("#motion-segments nav").get_by_role("link", name="Fail").click()
    expect(page).to_have_url(
        f"{live_server.url}/cells/{cobot.pk}/motion/"
        f"{MotionProgram.objects.get().pk}/?verdict=fail"
    )
    expect(table.locator("tbody tr[class^='verdict-']")).to_have_count(1)
    expect(page.get_by_text("Only the segments judged Fail")).to_be_visible()
    # The plan is still there: only the table was swapped.
    expect(red).to_have_count(1)
