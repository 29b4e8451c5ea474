"""Every page a person can reach passes axe-core's WCAG 2.1 A and AA rules
(no critical or serious violation) at a desktop and a phone width, in English
and Korean; on the phone nothing but a table inside its card scrolls
sideways, and the language menu and Sign out stay on screen. The keyboard
meets a skip link first, and every control shows where the focus is."""

from __future__ import annotations

import importlib
import io
import re
from dataclasses import dataclass
from pathlib import Path

import axe_playwright_python
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from playwright.sync_api import Browser, Page, expect

from cells.management.commands.seed_demo import DEMO_PASSWORD
from cells.models import Cell, Organisation
from compliance.assessment import services as assessment_services
from compliance.assessment.models import Hazard, Revision
from compliance.calculators.registry import CALCULATORS
from compliance.costs.services import custom_line_save
from compliance.proposals.models import Proposal, ProposalDocument
from compliance.safety_functions.models import SafetyFunction, Subsystem
from tests.cells.certificates import CellCertificateFactory
from tests.signed_records import remove_signed_records

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
EDIT_ROW = ".line-edit-row"  # a table's row being edited, in place
SIGN_OUT = ".topbar form[action$='/logout/'] button"

# Named URLs that are no page of their own, with the reason: the coverage test
# fails when a new page is neither walked nor listed here.
NOT_PAGES = {
    "healthz": "a probe for the load balancer, plain text",
    "logout": "POST only",
    "set_language": "POST only",
    # No e-mail is configured and no page links the reset: not offered.
    "password_reset": "not offered (no e-mail configured, not linked)",
    "password_reset_done": "not offered (no e-mail configured, not linked)",
    "password_reset_confirm": "not offered (no e-mail configured, not linked)",
    "password_reset_complete": "not offered (no e-mail configured, not linked)",
    "cells:cell_layout_svg": "an SVG file",
    "cells:layout_dxf_export": "a DXF file",
    "cells:layout_image_file": "the floor-plan image itself (PNG or JPEG)",
    "cells:layout_image_remove": "POST only",
    "cells:plan_edit": "POST only (the plan's drawing tools)",
    "cells:element_delete": "POST only (the editor's button asks first)",
    "cells:certificate_delete": "POST only",
    "compliance:catalogue_home": "redirects to the organisation's catalogue",
    "compliance:library_home": "redirects to the organisation's library",
    "compliance:compliance_summary": "an htmx fragment of the layout page",
    "compliance:hazard_row": "an htmx fragment of the assessment page",
    "compliance:proposal_document_row": "an htmx fragment of the proposal page",
    "compliance:proposal_document_download": "the PDF",
    "compliance:report": "the risk-assessment report, a PDF",
    "compliance:register_export": "the hazard register, an XLSX file",
    "compliance:branding_logo": "the organisation's logo itself (PNG or JPEG)",
    "compliance:library_export": "a CSV file",
    "compliance:assessment_start": "POST only",
    "compliance:suggestion_accept": "POST only",
    "compliance:suggestion_dismiss": "POST only",
    "compliance:hazard_delete": "POST only",
    "compliance:proposal_document_retry": "POST only",
    "compliance:proposal_document_rebuild": "POST only (GET returns to the proposal)",
    "compliance:function_suggestion_accept": "POST only",
    "compliance:function_suggestion_dismiss": "POST only",
    "compliance:safety_function_delete": "POST only (the button asks first)",
    "compliance:subsystem_delete": "POST only",
    "compliance:subsystem_preview": "POST only, an htmx fragment",
    "compliance:validation_record_add": "POST only (its form is on the detail page)",
    "compliance:validation_record_delete": "POST only",
    "compliance:pfhd_table_delete": "POST only",
    "compliance:library_seed": "POST only",
    "compliance:custom_line_delete": "POST only",
}


@dataclass(frozen=True)
class Visit:
    name: str  # the URL's name, for the coverage test
    url: str
    # The viewer sees it without the editors' buttons and forms (the other
    # pages are the same for everyone, or closed to the viewer).
    viewer: bool = False
    status: int = 200
    # A link to click first, where the page is an htmx fragment of another.
    click: str = ""
    # Where axe looks, on a page that is another one (checked in full on its
    # own) with a form open: the layout with its editor, the costs with a line
    # being edited.
    scope: str = ""


@pytest.fixture
def demo(transactional_db):
    """The demo data, and the few rows a page needs to show all it can: a
    revision in review (the signing page), a certificate, a custom cost line
    and proposal documents (their table)."""
    call_command("seed_demo", stdout=io.StringIO())
    safety = get_user_model().objects.get(username="safety")
    palletiser = Cell.objects.get(name__startswith="Case palletiser")
    cobot = Cell.objects.get(name__startswith="Machine tending")
    signed = Revision.objects.get(assessment__cell=palletiser)
    in_review = assessment_services.revision_start_next(revision=signed, actor=safety)
    in_review = assessment_services.revision_submit(revision=in_review, actor=safety)
    draft = Revision.objects.get(assessment__cell=cobot)
    # A measure to edit and to delete (its editor and its question).
    measure = assessment_services.measure_add(
        hazard=Hazard.objects.filter(revision=draft).first(),
        actor=safety,
        step="information_for_use",
        description="Warning sign at the lathe door",
    )
    custom = custom_line_save(
        cell=palletiser, actor=safety, description="Turntable guard", quantity=1
    )
    proposal = Proposal.objects.create(
        cell=palletiser, number="CSP-0001-0001", created_by=safety
    )
    Status = ProposalDocument.Status
    for version, status in ((1, Status.FAILED), (2, Status.PENDING)):
        ProposalDocument.objects.create(
            proposal=proposal,
            version=version,
            language="ko",
            sections=["cover"],
            status=status,
            error="Worker lost" if status == Status.FAILED else "",
            requested_by=safety,
        )
    function = SafetyFunction.objects.filter(cell=palletiser).first()
    yield {
        "organisation": Organisation.objects.get(slug="demo"),
        "palletiser": palletiser,
        "cobot": cobot,
        "in_review": in_review,
        "draft": draft,
        "hazard": Hazard.objects.filter(revision=draft).first(),
        "measure": measure,
        "certificate": CellCertificateFactory(cell=cobot),
        "custom": custom,
        "function": function,
        "subsystem": Subsystem.objects.filter(function=function).first(),
    }
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


def visits(d: dict) -> list[Visit]:
    """Every page, on the demo data: the palletiser for a cell's pages, the
    cobot where its draft assessment or its certificate is needed."""
    org, cell, cobot = d["organisation"].pk, d["palletiser"].pk, d["cobot"].pk
    project = d["palletiser"].project_id
    layout = d["palletiser"]
    opening = layout.segments.filter(openings__isnull=False).first().openings.first()
    elements = {
        "segment": layout.segments.first().pk,
        "opening": opening.pk,
        "device": layout.devices.first().pk,
        "station": layout.stations.first().pk,
    }
    library_device = d["organisation"].library_devices.first().pk
    limits = reverse("compliance:limits_edit", args=[d["draft"].pk])

    def v(name: str, *args, **options) -> Visit:
        return Visit(name, reverse(name, args=args), **options)

    return [
        v("cells:project_list", viewer=True),
        v("cells:project_create"),
        v("cells:project_detail", project, viewer=True),
        v("cells:project_edit", project),
        v("cells:project_delete", project),
        v("cells:cell_create", project),
        v("cells:cell_detail", cell, viewer=True),
        v("cells:cell_edit", cell),
        v("cells:cell_delete", cell),
        v("cells:hazard_zone_edit", cell, scope="#editor"),
        *[
            visit
            for kind, pk in elements.items()
            for visit in (
                v("cells:element_add", cell, kind, scope="#editor"),
                v("cells:element_edit", cell, kind, pk, scope="#editor"),
            )
        ],
        v("cells:layout_dxf_import", cell),
        v("cells:layout_image_edit", cell),
        v("cells:certificate_add", cobot),
        v("cells:certificate_edit", cobot, d["certificate"].pk),
        v("compliance:cell_compliance", cell),
        v("compliance:assessment", cell, viewer=True),
        v("compliance:assessment", cobot, viewer=True),
        # Its link opens the form inside the assessment page.
        Visit(
            "compliance:limits_edit",
            reverse("compliance:assessment", args=[cobot]),
            click=f"a[href='{limits}']",
            scope="#limits",
        ),
        v("compliance:history", cell),
        v("compliance:revision_diff", d["in_review"].pk),
        v("compliance:register_import", d["draft"].pk),
        v("compliance:revision_action", d["in_review"].pk, "sign"),
        v("compliance:hazard_add", d["draft"].pk, scope="#add-hazard"),
        v("compliance:hazard_edit", d["hazard"].pk, scope=".hazard-form-row"),
        v("compliance:measure_add", d["hazard"].pk, scope=".measure-form-row"),
        # Opened directly, each editor is the whole page with it open.
        v("compliance:limits_edit", d["draft"].pk, scope="#limits"),
        v("compliance:measure_edit", d["measure"].pk, scope=".measure-edit"),
        v("compliance:measure_delete", d["measure"].pk, scope=".measure-confirm"),
        v("compliance:safety_functions", cell, viewer=True),
        v("compliance:safety_function_add", cell),
        v("compliance:safety_documents", cell),
        v("compliance:safety_function_detail", d["function"].pk, viewer=True),
        v("compliance:safety_function_edit", d["function"].pk),
        v("compliance:subsystem_add", d["function"].pk),
        v("compliance:subsystem_edit", d["subsystem"].pk),
        v("compliance:pfhd_table", org),
        v("compliance:cell_costs", cell, viewer=True),
        v("compliance:custom_line_add", cell, scope=".add-line"),
        v("compliance:custom_line_edit", cell, d["custom"].pk, scope=EDIT_ROW),
        v("compliance:line_item_edit", cell, "fence:1800", scope=EDIT_ROW),
        v("compliance:cell_plan", cell, viewer=True),
        v("compliance:plan_assumption_edit", cell, "risk_assessment", scope=EDIT_ROW),
        v("compliance:proposal", cell, viewer=True),
        v("compliance:catalogue", org, viewer=True),
        v("compliance:branding_edit", org, viewer=True),
        v("compliance:catalogue_edit", org, "fence", scope=EDIT_ROW),
        v("compliance:library", org, viewer=True),
        v("compliance:library_device_add", org),
        v("compliance:library_device_edit", org, library_device),
        v("compliance:library_device_delete", org, library_device),
        v("compliance:library_import", org),
        v("compliance:rules"),
        v("compliance:calculator_list"),
        *[v("compliance:calculator_detail", name) for name in CALCULATORS],
        v("password_change"),
        v("password_change_done"),
        Visit("not-found", "/cells/999999/", status=404),
    ]


SIGNED_OUT = [Visit("login", reverse("login"))]


def _page_names() -> set[str]:
    """The named URLs outside the API and the admin."""

    def walk(patterns, prefix: str, namespace: str):
        for p in patterns:
            if isinstance(p, URLResolver):
                inner = ":".join(filter(None, [namespace, p.namespace or ""]))
                yield from walk(p.url_patterns, prefix + str(p.pattern), inner)
            elif isinstance(p, URLPattern) and p.name:
                route = prefix + str(p.pattern)
                if route.startswith(("api/", "admin/")):
                    continue
                yield f"{namespace}:{p.name}" if namespace else p.name

    return set(walk(get_resolver().url_patterns, "", ""))


def test_every_page_is_walked_or_said_to_be_no_page(demo):
    walked = {visit.name for visit in [*visits(demo), *SIGNED_OUT]}
    assert _page_names() - walked - set(NOT_PAGES) == set(), (
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
