"""A safety engineer records a risk assessment in the browser: hazards from the
catalogue, estimation, a measure, the limits of the machine, sign-off as a
declaration (a reason for each open fail, the statement, the password),
revision 2, the diff and the history."""

from __future__ import annotations

import importlib

import pytest
from django.db import connection
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

declarations = importlib.import_module(
    "compliance.migrations.0008_signature_declaration"
)
PASSWORD = "pass-for-tests-1"  # tests/factories.py
STATEMENT = (
    "I have assessed the risks of this cell as recorded and estimated the "
    "residual risk of every hazard. I accept the residual risks and the open "
    "findings listed, each for the reason given."
)


def remove_declarations() -> None:
    """Signature declarations refuse deletion, like the revisions they sign:
    lift their triggers to clear the committed ones (SQLite), before the
    signed revisions themselves go."""
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        for statement in declarations.SQLITE_REVERSE:
            cursor.execute(statement)
        cursor.execute(f"DELETE FROM {declarations.TABLE}")
        for statement in declarations.SQLITE:
            cursor.execute(statement)


@pytest.fixture
def cell(transactional_db):
    yield _cell()
    remove_declarations()
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
    row.get_by_role("link", name="Edit", exact=True).click()
    form = page.locator(".hazard-form-row")
    prefix = form.locator("select[name$='-severity']").first.get_attribute("id")
    prefix = prefix.removeprefix("id_").removesuffix("severity")
    estimate(form, prefix, "S2", "F1", "P1")
    estimate(form, prefix + "residual_", "S1", "F1", "P1")
    form.get_by_role("button", name="Save").click()
    row = page.locator(".hazard-row", has_text="Replacing the gripper valve")
    expect(row).to_contain_text("PLr c")
    # A lower residual risk rests on a measure.
    row.get_by_role("link", name="+ measure").click()
    measure_form = page.locator(".measure-form-row")
    measure_form.locator("select[name$='-step']").select_option("safeguarding")
    measure_form.locator("input[name$='-description']").fill("Lockout at the valve")
    measure_form.get_by_role("button", name="Add measure").click()
    row = page.locator(".hazard-row", has_text="Replacing the gripper valve")
    expect(row).to_contain_text("Lockout at the valve")
    expect(row.locator(".ok")).to_have_count(1)

    # Accept a suggestion too, and estimate it.
    page.locator(".suggestion", has_text="Infeed").get_by_role(
        "button", name="Accept"
    ).click()
    row2 = page.locator(".hazard-row", has_text="Infeed")
    row2.get_by_role("link", name="Edit", exact=True).click()
    form = page.locator(".hazard-form-row")
    prefix = form.locator("select[name$='-severity']").first.get_attribute("id")
    prefix = prefix.removeprefix("id_").removesuffix("severity")
    estimate(form, prefix, "S2", "F2", "P1")
    estimate(form, prefix + "residual_", "S1", "F1", "P1")
    form.get_by_role("button", name="Save").click()
    expect(page.locator(".hazard-row", has_text="Infeed")).to_contain_text("PLr d")

    # The limits of the machine (ISO 12100 5.3), which signing asks for.
    page.get_by_role("link", name="Edit the limits").click()
    limits = page.locator("#limits")
    limits.locator("#id_intended_use").fill("Palletising cartons of up to 12 kg")
    limits.locator("#id_foreseeable_misuse").fill("Reaching through the infeed")
    limits.locator("#id_time_limits").fill("20 years, two shifts a day")
    limits.locator("input[name=exposed_persons]").first.check()
    limits.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Limits of the machine saved.")).to_be_visible()

    page.get_by_role("button", name="Submit for review").click()
    page.get_by_role("link", name="Sign", exact=True).click()
    # The open findings of the cell: each fail needs the reason it is accepted.
    expect(page.get_by_text("Open findings of the cell")).to_be_visible()
    reasons = page.locator(".sign-form textarea")
    assert reasons.count() >= 1
    for index in range(reasons.count()):
        reasons.nth(index).fill("Accepted for the proof of concept; fixed in week 4.")
    page.get_by_label(STATEMENT).check()
    page.fill("#id_password", "not my password")
    page.get_by_role("button", name="Sign", exact=True).click()
    expect(page.get_by_text("That is not your password")).to_be_visible()
    expect(page.locator("#id_password")).to_be_visible()  # still the form
    page.screenshot(path=screenshot_dir / "risk-assessment-sign.png", full_page=True)
    for index in range(reasons.count()):
        reasons.nth(index).fill("Accepted for the proof of concept; fixed in week 4.")
    page.get_by_label(STATEMENT).check()
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Sign", exact=True).click()
    expect(page.get_by_text("content intact")).to_be_visible()
    # Kept in the project's language (Korean, issue 30), shown beside it in
    # the reader's.
    expect(page.locator("#declaration")).to_contain_text(
        f"In your language: “{STATEMENT}”"
    )
    expect(page.locator("#declaration blockquote")).not_to_have_text(STATEMENT)
    expect(page.locator("#declaration")).to_contain_text(
        "Accepted for the proof of concept; fixed in week 4."
    )
    page.screenshot(path=screenshot_dir / "risk-assessment-signed.png", full_page=True)

    page.get_by_role("button", name="Start a new revision").click()
    expect(page.get_by_text("Revision 2")).to_be_visible()
    row = page.locator(".hazard-row", has_text="Replacing the gripper valve")
    row.get_by_role("link", name="Edit", exact=True).click()
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
    expect(page.locator("ol.history-list")).to_contain_text(
        "se-assess signed revision 1"
    )
    page.screenshot(path=screenshot_dir / "risk-assessment-history.png", full_page=True)
