"""A solution architect downloads the quote template, imports a supplier's
quote, corrects a match, and sees the Costs tab priced from it, in a real
browser (issue 29)."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from cells.models import Role
from compliance.costs.quotes.reading import QuoteFile, QuoteRowIn
from compliance.costs.quotes.template import TemplateWords, quote_workbook
from tests.browser.test_costs_and_proposal import sign_in
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
    """A cell with a fence of an organisation whose architect signs in as
    ``sign_in`` does."""
    organisation = OrganisationFactory(name="Quote Integrator")
    user = UserFactory(username="sa-costs")
    MembershipFactory(
        user=user, organisation=organisation, role=Role.SOLUTION_ARCHITECT
    )
    project = ProjectFactory(organisation=organisation, name="Quotes PoC")
    cell = CellFactory(project=project, name="Case palletiser")
    segment = GuardSegmentFactory(cell=cell, label="F1")
    OpeningFactory(segment=segment, label="Infeed", purpose="material_entry")
    return cell


def test_architect_imports_a_quote_and_the_costs_tab_shows_it(
    page: Page,
    live_server,
    cell,
    tmp_path,
    screenshot_dir,
):
    organisation = cell.project.organisation
    today = datetime.date.today()
    quote = QuoteFile(
        supplier="Hanbit Safety",
        number="Q-77",
        quoted_on=today,
        valid_until=today + datetime.timedelta(days=60),
        rows=(
            QuoteRowIn(
                row=8,
                kind="fence",
                description="Mesh fence per metre",
                unit="m",
                price_low=Decimal("85000"),
                price_high=Decimal("95000"),
                currency="KRW",
            ),
            QuoteRowIn(
                row=9,
                kind="signage",
                description="Signs",
                unit="job",
                price_low=Decimal("150000"),
                price_high=Decimal("150000"),
                currency="KRW",
            ),
        ),
    )
    file = tmp_path / "quote.xlsx"
    file.write_bytes(quote_workbook(quote, TemplateWords()))

    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/organisations/{organisation.pk}/quotes/")
    with page.expect_download() as download:
        page.get_by_role("link", name="English").click()
    assert download.value.suggested_filename == "supplier-quote-template-en.xlsx"
    page.set_input_files("#id_file", str(file))
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("heading", name="Hanbit Safety · Q-77")).to_be_visible()
    expect(page.get_by_text("by kind").first).to_be_visible()

    # The signs' row prices the safety controller instead, say.
    page.get_by_role("link", name="Confirm or correct").nth(1).click()
    page.select_option("#id_catalogue_key", "safety_controller")
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_text("confirmed by")).to_be_visible()

    page.goto(f"{live_server.url}/cells/{cell.pk}/costs/")
    expect(page.get_by_text("Hanbit Safety Q-77").first).to_be_visible()
    expect(page.get_by_text("KRW 85,000–95,000").first).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "quotes-costs.png"), full_page=True)
