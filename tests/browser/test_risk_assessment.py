"""A safety engineer records a risk assessment in the browser: hazards from the
catalogue, estimation, a measure, sign-off, revision 2, the diff and the history."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from cells.models import Role
from tests.factories import (
    CellFactory,
    GuardSegmentFactory,
    MembershipFactory,
    OpeningFactory,
    OrganisationFactory,
    ProjectFactory,
    UserFactory,
)
from tests.signed_records import remove_signed_records

pytestmark = pytest.mark.browser


@pytest.fixture
def cell(transactional_db):
    yield _cell()
    remove_signed_records()


def _cell():
    organisation = OrganisationFactory()
    user = UserFactory(username="se-assess")
    MembershipFactory(user=user, organisation=organisation, role=Role.SAFETY_ENGINEER)
    cell = CellFactory(
        project=ProjectFactory(organisation=organisation), name="Palletiser"
    )
    OpeningFactory(segment=GuardSegmentFactory(cell=cell, label="F1"), label="Infeed")
    return cell


def estimate(row_form, prefix: str, s: str, f: str, p: str) -> None:
    row_form.locator(f"#id_{prefix}severity").select_option(s)
    row_form.locator(f"#id_{prefix}frequency").select_option(f)
    row_form.locator(f"#id_{prefix}avoidance").select_option(p)


def test_engineer_records_signs_and_revises_an_assessment(
    page: Page, live_server, cell, screenshot_dir
):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "se-assess")
    page.fill("#id_password", "pass-for-tests-1")
    page.locator("main button[type=submit]").click()
    page.goto(f"{live_server.url}/cells/{cell.pk}/")
    page.get_by_role("link", name="Risk assessment").click()
    page.get_by_role("button", name="Start the risk assessment").click()
    expect(page.get_by_text("Revision 1")).to_be_visible()

    # Add a hazard from the catalogue: an electrical one, so the origins change.
    page.select_option("#id_new-group", "electrical")
    expect(page.locator("#id_new-origin option[value=live_parts]")).to_have_count(1)
    page.select_option("#id_new-origin", "live_parts")
    page.select_option("#id_new-consequence", "electrocution")
    page.select_option("#id_new-phase", "maintenance")
    page.fill("#id_new-task", "Replacing the gripper valve")
    page.get_by_role("button", name="Add hazard").click()
    row = page.locator(".hazard-row", has_text="Replacing the gripper valve")
    expect(row).to_contain_text("not estimated")

    # Estimate it in place: S2 F1 P1 gives PLr c; the residual risk after measures.
    row.get_by_role("link", name="Edit").click()
    form = page.locator(".hazard-form-row")
    prefix = form.locator("select[name$='-severity']").first.get_attribute("id")
    prefix = prefix.removeprefix("id_").removesuffix("severity")
    estimate(form, prefix, "S2", "F1", "P1")
    estimate(form, prefix + "residual_", "S1", "F1", "P1")
    form.get_by_role("button", name="Save").click()
    row = page.locator(".hazard-row", has_text="Replacing the gripper valve")
    expect(row).to_contain_text("PLr c")
    expect(row.locator(".ok")).to_have_count(1)

    # Accept a suggestion too, and estimate it.
    page.locator(".suggestion", has_text="Infeed").get_by_role(
        "button", name="Accept"
    ).click()
    row2 = page.locator(".hazard-row", has_text="Infeed")
    row2.get_by_role("link", name="Edit").click()
    form = page.locator(".hazard-form-row")
    prefix = form.locator("select[name$='-severity']").first.get_attribute("id")
    prefix = prefix.removeprefix("id_").removesuffix("severity")
    estimate(form, prefix, "S2", "F2", "P1")
    estimate(form, prefix + "residual_", "S1", "F1", "P1")
    form.get_by_role("button", name="Save").click()
    expect(page.locator(".hazard-row", has_text="Infeed")).to_contain_text("PLr d")

    page.get_by_role("button", name="Submit for review").click()
    page.get_by_role("button", name="Sign", exact=True).click()
    expect(page.get_by_text("content intact")).to_be_visible()
    page.screenshot(path=screenshot_dir / "risk-assessment-signed.png", full_page=True)

    page.get_by_role("button", name="Start a new revision").click()
    expect(page.get_by_text("Revision 2")).to_be_visible()
    row = page.locator(".hazard-row", has_text="Replacing the gripper valve")
    row.get_by_role("link", name="Edit").click()
    form = page.locator(".hazard-form-row")
    prefix = form.locator("select[name$='-severity']").first.get_attribute("id")
    prefix = prefix.removeprefix("id_").removesuffix("severity")
    estimate(form, prefix, "S2", "F2", "P2")
    form.get_by_role("button", name="Save").click()
    expect(
        page.locator(".hazard-row", has_text="Replacing the gripper valve")
    ).to_contain_text("PLr e")

    page.get_by_role("link", name="Compare revisions").click()
    expect(page.locator(".change-re_estimated")).to_contain_text(
        "Replacing the gripper valve"
    )
    page.go_back()
    page.get_by_role("link", name="History").click()
    expect(page.locator("table.history")).to_contain_text("se-assess")
    page.screenshot(path=screenshot_dir / "risk-assessment-history.png", full_page=True)
