"""A solution architect prices a cell's plan, changes an assumption of the
schedule, and gets the customer's proposal as a PDF, all in a real browser."""

from __future__ import annotations

import io
import re

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

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

pytestmark = pytest.mark.browser


@pytest.fixture
def cell(transactional_db):
    organisation = OrganisationFactory(name="Browser Integrator")
    user = UserFactory(username="sa-costs")
    MembershipFactory(
        user=user, organisation=organisation, role=Role.SOLUTION_ARCHITECT
    )
    project = ProjectFactory(
        organisation=organisation, name="Proposal PoC", country="KR"
    )
    cell = CellFactory(project=project, name="Case palletiser")
    segment = GuardSegmentFactory(cell=cell, label="F1")
    OpeningFactory(segment=segment, label="Infeed", purpose="material_entry")
    return cell


def sign_in(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", "sa-costs")
    page.fill("#id_password", "pass-for-tests-1")
    page.click("button[type=submit]")
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()


def test_architect_prices_the_plan_and_downloads_the_proposal(
    page: Page, live_server, cell, screenshot_dir
):
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/cells/{cell.pk}/costs/")
    page.evaluate("window.__samePage = true")

    # A line of one's own, added in place: the totals follow.
    page.get_by_role("link", name="Add a line of your own").click()
    page.fill("#id_description", "Turntable guard")
    page.select_option("#id_category", "guarding")
    page.fill("#id_quantity", "2")
    page.fill("#id_price_low", "1000")
    page.fill("#id_price_high", "1500")
    page.select_option("#id_currency", "EUR")
    page.get_by_role("button", name="Add line").click()
    expect(page.locator("#costs")).to_contain_text("Turntable guard")
    expect(page.locator("#costs")).to_contain_text("EUR 2,000–3,000")
    assert page.evaluate("window.__samePage") is True  # no page load

    # The plan: the project's own installation time replaces the assumption.
    page.get_by_role("link", name="Plan", exact=True).click()
    row = page.locator("table.assumptions tr", has_text="Installation")
    row.get_by_role("link", name="Edit").click()
    page.fill("#id_weeks_low", "6")
    page.fill("#id_weeks_high", "8")
    page.fill("#id_source", "Integrator's estimate")
    page.get_by_role("button", name="Save").click()
    # The activity's row, not the edit form's (its role choices name
    # installation too).
    expect(
        page.locator(
            "table.assumptions tr:not(.line-edit-row)", has_text="Installation"
        )
    ).to_contain_text("6–8")
    page.screenshot(path=screenshot_dir / "plan.png", full_page=True)

    # The proposal, in Korean: built, then downloaded.
    page.get_by_role("link", name="Proposal", exact=True).click()
    expect(page.get_by_role("button", name="Build the PDF")).to_be_visible()
    # Without a section: the form comes back with its error (a 400, shown).
    for box in page.locator("input[name=sections]").all():
        box.uncheck()
    # The check before building lists what the customer would ask about (the
    # assessment, the lines to be quoted): built only once it is ticked.
    expect(page.locator(".prebuild-notes")).to_contain_text("to be quoted")
    page.get_by_role("button", name="Build the PDF").click()
    expect(page.locator("#proposal")).to_contain_text("Choose at least one section.")
    expect(page.locator("#proposal")).to_contain_text("tick this to build")
    for box in page.locator("input[name=sections]").all():
        box.check()
    page.select_option("#id_language", "ko")
    page.get_by_label("I have read the notes above and build it as it is").check()
    page.get_by_role("button", name="Build the PDF").click()
    download_link = page.get_by_role("link", name="Download PDF")
    expect(download_link).to_be_visible(timeout=30_000)
    page.screenshot(path=screenshot_dir / "proposal.png", full_page=True)
    with page.expect_download() as info:
        download_link.click()
    download = info.value
    assert download.suggested_filename.endswith("-v1-ko.pdf")
    pdf = download.path().read_bytes()
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Turntable guard" in text
    assert "산업안전보건기준에 관한 규칙" in text  # the Korean rule pack, in Korean


def test_architect_writes_the_summary_in_place_and_previews_the_proposal(
    page: Page, live_server, cell, screenshot_dir
):
    """The texts edited in place, then the pages seen before any version."""
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/cells/{cell.pk}/proposal/")
    english = page.locator("#texts-en")
    english.locator("summary").click()
    english.get_by_role("link", name="Edit the English texts").click()
    summary = english.locator("textarea[name=summary]")
    # It starts from the text generated from the cell.
    expect(summary).to_have_value(re.compile(r"^A proof of concept of the "))
    summary.fill("Our offer <b>as written</b> & nothing else.")
    english.get_by_role("button", name="Save the texts").click()
    expect(english).to_contain_text("As written for this proposal")
    expect(english).to_contain_text("Our offer <b>as written</b> & nothing else.")
    assert page.url.endswith(f"/cells/{cell.pk}/proposal/")  # in place

    page.select_option("#id_language", "en")
    page.get_by_role("button", name="Preview").click()
    preview = page.locator(".preview.status-ready")
    expect(preview).to_be_visible(timeout=30_000)
    thumbnails = preview.locator(".preview-pages img")
    count = thumbnails.count()
    assert count > 1
    expect(preview).to_contain_text(f"{count} pages")
    # Every thumbnail drawn (a broken image has no natural width).
    for index in range(count):
        thumbnails.nth(index).scroll_into_view_if_needed()
        expect(thumbnails.nth(index)).to_have_js_property("complete", True)
        assert thumbnails.nth(index).evaluate("img => img.naturalWidth") == 200
    expect(page.get_by_role("link", name="Download PDF")).to_have_count(0)
    page.screenshot(path=screenshot_dir / "proposal-preview.png", full_page=True)


def test_architect_records_a_rate_and_the_work_and_the_plan_costs_it(
    page: Page, live_server, cell, screenshot_dir
):
    sign_in(page, live_server.url)
    organisation = cell.project.organisation_id
    page.goto(f"{live_server.url}/organisations/{organisation}/labour/")
    # A rate of one's own, then the installation's default work.
    page.locator("#labour-rate-add summary").click()
    page.select_option("#id_rate-role", "installation")
    page.fill("#id_rate-rate_low", "55000")
    page.fill("#id_rate-rate_high", "65000")
    page.select_option("#id_rate-currency", "KRW")
    page.fill("#id_rate-source", "Rate card 2026")
    page.get_by_role("button", name="Add the labour rate").click()
    expect(page.locator("#labour-rates")).to_contain_text("KRW 55,000–65,000")
    page.locator("#work-default-set summary").click()
    page.select_option("#id_work-activity", "installation")
    page.select_option("#id_work-role", "installation")
    page.fill("#id_work-effort_low", "24")
    page.fill("#id_work-effort_high", "40")
    page.fill("#id_work-source", "Our past projects")
    page.locator("#work-default-set").get_by_role("button", name="Save").click()
    expect(page.locator("#work-defaults")).to_contain_text(
        "24–40 hours of Installation"
    )
    page.screenshot(path=screenshot_dir / "labour.png", full_page=True)
    # The plan costs the installation: 24-40 h × KRW 55,000-65,000.
    page.goto(f"{live_server.url}/cells/{cell.pk}/plan/")
    row = page.locator(
        "table.assumptions tr:not(.line-edit-row)", has_text="Installation"
    )
    expect(row).to_contain_text("KRW 1,320,000–2,600,000")
    expect(row).to_contain_text(
        "24–40 hours of Installation × KRW 55,000–65,000 per hour"
    )
