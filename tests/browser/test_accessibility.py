"""Every page a person can reach passes axe-core's WCAG 2.1 A and AA rules
(no critical or serious violation) at a desktop and a phone width, in English
and Korean; on the phone nothing but a table inside its card scrolls
sideways, and the language menu and Sign out stay on screen. The keyboard
meets a skip link first, and every control shows where the focus is."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import axe_playwright_python
import pytest
from django.db import connection
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from compliance.management.commands.seed_demo import DEMO_PASSWORD
from tests.signed_records import remove_signed_records
from tests.walk import NOT_PAGES, SIGNED_OUT, Visit, demo_world, page_names, visits

pytestmark = pytest.mark.browser

DECLARATIONS = importlib.import_module(
    "compliance.migrations.0008_signature_declaration"
)

# axe-core as the package bundles it, added to every document by the browser
# (outside the page's Content-Security-Policy, which would refuse a <script>
# tag): the pages are checked under their real policy.
AXE_SCRIPT = Path(axe_playwright_python.__file__).parent / "axe.min.js"
AXE_RUN = """
async (scope) => {
  const result = await axe.run(scope ? {include: [scope]} : document, {
    runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    resultTypes: ["violations"],
    preload: false,
  });
  return result.violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => `${v.impact} ${v.id} (${v.help}): `
                + v.nodes.slice(0, 6).map((n) => n.target.join(" ")).join(", "));
}
"""
# htmx has swapped in what the page loads after it (the layout's findings):
# those requests start before the load event and mark their element. (A
# function, not an expression: the policy refuses to eval a string.)
SETTLED = """() => !document.querySelector(
  ".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")"""
# What sticks out past the viewport, to say where an overflow comes from.
WIDEST = """() => [...document.querySelectorAll("body *")]
  .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1
          && !e.closest(".table-scroll"))
  .slice(-3)
  .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")}`
              + ` right=${Math.round(e.getBoundingClientRect().right)}`)
  .join("; ")"""
DESKTOP, PHONE = 1280, 390
SIGN_OUT = ".topbar form[action$='/logout/'] button"


@pytest.fixture
def demo(transactional_db):
    """The demo data, and the few rows a page needs to show all it can
    (``tests.walk.demo_world``)."""
    yield demo_world()
    # Signed records refuse the flush (SQLite): lift their triggers first.
    _remove_declarations()
    remove_signed_records()


def _remove_declarations() -> None:
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        for statement in DECLARATIONS.SQLITE_REVERSE:
            cursor.execute(statement)
        cursor.execute(f"DELETE FROM {DECLARATIONS.TABLE}")
        for statement in DECLARATIONS.SQLITE:
            cursor.execute(statement)


def test_every_page_is_walked_or_said_to_be_no_page(demo):
    walked = {visit.name for visit in [*visits(demo), *SIGNED_OUT]}
    assert page_names() - walked - set(NOT_PAGES) == set(), (
        "walk these pages in visits(), or say in NOT_PAGES why they are none"
    )
    assert walked & set(NOT_PAGES) == set()


# The walk ------------------------------------------------------------------


def _signed_in(browser: Browser, live_server, username: str, language: str) -> Page:
    """A browser set to the language (its Accept-Language, as a phone set to
    Korean sends it), signed in as ``username`` unless that is empty."""
    context = browser.new_context(locale="ko-KR" if language == "ko" else "en-GB")
    context.add_init_script(path=AXE_SCRIPT)
    page = context.new_page()
    if username:
        page.goto(f"{live_server.url}{reverse('login')}")
        page.fill("#id_username", username)
        page.fill("#id_password", DEMO_PASSWORD)
        page.locator("main button[type=submit]").click()
        expect(page.locator(SIGN_OUT)).to_be_visible()
    return page


def _off_the_phone(page: Page) -> list[str]:
    """What a phone user could not reach: a page wider than the screen, the
    language menu or Sign out outside it."""
    found = []
    wide, screen = page.evaluate(
        "[document.documentElement.scrollWidth, window.innerWidth]"
    )
    if wide > screen:
        found.append(f"the page scrolls sideways: {wide} > {screen} px")
        found.append(f"  sticking out: {page.evaluate(WIDEST)}")
    controls = {"the language menu": page.locator("#language")}
    if page.locator(SIGN_OUT).count():
        controls["Sign out"] = page.locator(SIGN_OUT)
    for name, control in controls.items():
        box = control.bounding_box() if control.count() else None
        if box is None or box["x"] < 0 or box["x"] + box["width"] > screen:
            found.append(f"{name} is off screen: {box}")
    return found


def _walk(
    page: Page,
    live_server,
    to_visit: list[Visit],
    language: str,
    folder: Path,
    widths: tuple[int, ...] = (DESKTOP, PHONE),
) -> dict[str, list[str]]:
    """Each page at each width: axe's critical and serious violations, on the
    phone what is off screen, and a screenshot."""
    failures: dict[str, list[str]] = {}
    for visit in to_visit:
        page.set_viewport_size({"width": widths[0], "height": 900})
        response = page.goto(f"{live_server.url}{visit.url}")
        page.wait_for_function(SETTLED)
        where = f"{visit.url} ({language})"
        if response.status != visit.status:
            failures[where] = [f"answered {response.status}"]
            continue
        if page.url != f"{live_server.url}{visit.url}":
            failures[where] = [f"went on to {page.url}"]
            continue
        if visit.click:
            page.locator(visit.click).click()
            page.wait_for_function(SETTLED)
        if page.evaluate("document.documentElement.lang") != language:
            failures[where] = ["not in the language asked for"]
            continue
        for width in widths:
            page.set_viewport_size({"width": width, "height": 900})
            found = page.evaluate(AXE_RUN, visit.scope)
            if width <= PHONE:
                found += _off_the_phone(page)
            if found:
                failures[f"{visit.url} at {width} px ({language})"] = found
            name = _slug(f"{language} {width} {visit.url}") or "home"
            if visit.click:
                name += f"-{_slug(visit.name)}"
            # The whole page on the phone, the first screen on the desktop.
            page.screenshot(path=folder / f"{name}.png", full_page=width <= PHONE)
    return failures


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_page_passes_axe_and_fits_a_phone(
    browser: Browser, live_server, demo, language, screenshot_dir
):
    pages = visits(demo)
    walks = [
        ("", SIGNED_OUT, (DESKTOP, PHONE)),
        # The safety engineer reaches every page (the solution architect the
        # same ones, less the signing).
        ("safety", pages, (DESKTOP, PHONE)),
    ]
    if language == "ko":
        # The viewer's pages lack their edit buttons, the same markup
        # otherwise: only the phone's layout is new, and Korean's longer words
        # try it hardest.
        walks.append(("viewer", [v for v in pages if v.viewer], (PHONE,)))
    failures = {}
    for username, to_visit, widths in walks:
        page = _signed_in(browser, live_server, username, language)
        folder = screenshot_dir / (username or "signed-out")
        found = _walk(page, live_server, to_visit, language, folder, widths)
        failures |= {
            f"{where} as {username or 'nobody'}": f for where, f in found.items()
        }
        page.context.close()
    report = "\n".join(
        f"{where}:\n  " + "\n  ".join(found) for where, found in failures.items()
    )
    assert not failures, f"{len(failures)} page(s) with problems:\n{report}"


# The keyboard --------------------------------------------------------------

FOCUS_RING = """() => {
  const e = document.activeElement, s = getComputedStyle(e);
  return {tag: e.tagName.toLowerCase(), text: (e.textContent || e.value || "")
          .trim().slice(0, 30), style: s.outlineStyle,
          width: parseFloat(s.outlineWidth)};
}"""


def test_the_keyboard_skips_to_the_content_and_always_shows_the_focus(
    browser: Browser, live_server, demo
):
    page = _signed_in(browser, live_server, "safety", "en")
    url = (
        f"{live_server.url}{reverse('cells:cell_detail', args=[demo['palletiser'].pk])}"
    )
    page.goto(url)
    page.wait_for_function(SETTLED)
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to content")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    expect(page.locator("main#content")).to_be_focused()

    # From the top again: every control the keyboard reaches draws a ring.
    page.goto(url)
    page.wait_for_function(SETTLED)
    unmarked = []
    for _ in range(60):
        page.keyboard.press("Tab")
        ring = page.evaluate(FOCUS_RING)
        if ring["style"] == "none" or ring["width"] < 2:
            unmarked.append(ring)
    assert unmarked == []

    # In Korean, on the narrowest phones and on a tablet, the header wraps
    # and nothing leaves the screen.
    page.select_option("#language", "ko")
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    for width in (360, 768):
        page.set_viewport_size({"width": width, "height": 800})
        assert _off_the_phone(page) == [], width
    page.context.close()
