"""What the law requires, in a real browser (issue 30): a Korean SA opens the
Compliance tab on a phone and on a desktop, reads the legal answer first,
in Korean, and the statute text stays folded until asked for."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from cells.models import Role
from tests.factories import (
    CellFactory,
    DeviceFactory,
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
    user = UserFactory(username="sa-law")
    MembershipFactory(
        user=user, organisation=organisation, role=Role.SOLUTION_ARCHITECT
    )
    project = ProjectFactory(organisation=organisation, name="PoC", country="KR")
    cell = CellFactory(project=project, name="팔레타이저")
    # A guard of 1,400 mm: Art. 223 asks 1,800 mm.
    low = GuardSegmentFactory(cell=cell, label="F1", height_mm=1400)
    opening = OpeningFactory(segment=low, label="투입구", purpose="material_entry")
    DeviceFactory(cell=cell, kind="light_curtain", label="LC1", opening=opening)
    return cell


@pytest.mark.parametrize("width", [390, 1366])
def test_the_legal_answer_leads_the_compliance_tab_in_korean(
    page: Page, live_server, cell, width
):
    page.set_viewport_size({"width": width, "height": 800})
    page.context.set_extra_http_headers({"Accept-Language": "ko"})
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "sa-law")
    page.fill("#id_password", "pass-for-tests-1")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/cells/{cell.pk}/compliance/")

    answer = page.locator("#legal-answer")
    expect(answer).to_be_visible()
    expect(answer.get_by_role("heading")).to_have_text("한국 법령의 요구사항")
    # The fence line: missing, with the finding's words on F1.
    fence = page.locator("#duty-kr_223_fence")
    expect(fence.locator(".duty-status")).to_have_text("미충족")
    expect(fence).to_contain_text("F1")
    expect(page.locator("#duty-kr_36")).to_contain_text("산업안전보건법 제36조")
    # First on the page: above every rule's findings.
    first_rule = page.locator(".rule-group").first
    assert answer.bounding_box()["y"] < first_rule.bounding_box()["y"]
    # The statute text is folded until the reader opens it.
    rule = page.locator("#rule-KR-223-fence-height")
    text = rule.locator("details.rule-text p").first
    expect(text).to_be_hidden()
    rule.locator("details.rule-text summary").click()
    expect(text).to_be_visible()
    expect(text).to_contain_text("1.8미터")
    # Nothing runs off the side of a phone.
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1
