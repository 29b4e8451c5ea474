"""Korean pages draw their Hangul in the bundled Nanum Gothic (static/fonts,
OFL), whatever fonts the machine has: the browser loads the app's own face and
uses it for the Korean text, and the Latin text keeps the system font."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from cells.models import Role
from tests.factories import MembershipFactory, OrganisationFactory, UserFactory

pytestmark = pytest.mark.browser

FACE = "Nanum Gothic App"


@pytest.fixture
def signed_in(page: Page, live_server, transactional_db) -> Page:
    organisation = OrganisationFactory(name="Font Integrator")
    user = UserFactory(username="se-fonts")
    MembershipFactory(user=user, organisation=organisation, role=Role.SAFETY_ENGINEER)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "se-fonts")
    page.fill("#id_password", "pass-for-tests-1")
    page.locator("main button[type=submit]").click()
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()
    return page


def _faces(page: Page) -> list[dict]:
    page.evaluate("document.fonts.ready")
    return page.evaluate(
        """[...document.fonts].map(f => ({family: f.family.replaceAll('"', ''),
             weight: f.weight, status: f.status}))"""
    )


def test_a_korean_page_draws_hangul_in_the_bundled_face(
    signed_in: Page, screenshot_dir
):
    page = signed_in
    page.select_option("#language", "ko")
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    # The page's Hangul makes the browser fetch the face (in its own time).
    # A function, not an expression: Playwright polls an expression through
    # eval(), which the page's policy refuses (CI failed so on a late font).
    page.wait_for_function(
        """() => [...document.fonts].some(f => f.family.includes('Nanum Gothic App')
             && f.status === 'loaded')"""
    )
    loaded = [
        f for f in _faces(page) if f["family"] == FACE and f["status"] == "loaded"
    ]
    assert loaded, _faces(page)
    # The page's own stylesheet names the face first, for every element.
    assert "Nanum Gothic App" in page.evaluate(
        "getComputedStyle(document.querySelector('h1')).fontFamily"
    )
    page.screenshot(path=str(screenshot_dir / "fonts-ko-projects.png"))


def test_the_font_files_are_served_as_woff2(signed_in: Page, live_server):
    page = signed_in
    for name in ("NanumGothic-hangul.woff2", "NanumGothicBold-hangul.woff2"):
        response = page.request.get(f"{live_server.url}/static/fonts/{name}")
        assert response.status == 200
        assert response.body()[:4] == b"wOF2"
    licence = page.request.get(f"{live_server.url}/static/fonts/OFL.txt")
    assert licence.status == 200 and "SIL OPEN FONT LICENSE" in licence.text().upper()


def test_korean_labels_wrap_between_words_not_inside_them(signed_in: Page, live_server):
    """Issue 15: the Rules page broke "2차 출처에서 옮김" one character a line.
    Each certainty label stays on one line, and Korean text wraps at spaces."""
    page = signed_in
    page.select_option("#language", "ko")
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_server.url}/rules/")
        badges = page.locator(".certainty-badge")
        assert badges.count() > 5
        heights = badges.evaluate_all(
            """els => els.map(e => e.getBoundingClientRect().height /
                 parseFloat(getComputedStyle(e).lineHeight || '20'))"""
        )
        assert max(heights) < 1.6, (width, heights)
        assert page.evaluate("getComputedStyle(document.body).wordBreak") == "keep-all"
