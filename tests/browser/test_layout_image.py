"""A solution architect lays a floor plan under a cell (issue 14): a PNG is
chosen, two points along a wall of known length are clicked on it, and the
plan shows it faded under the layout, served under the page's
Content-Security-Policy; a file that is not a picture is refused with a
clear message and changes nothing. The customer's PDF of the hall (issue 31)
is placed the same way: its first page is drawn by the server as soon as it
is chosen, to click the points on; a PDF past the page limit is refused as
soon as it is chosen."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw
from playwright.sync_api import Page, expect
from reportlab.pdfgen import canvas

from cells.layout_image.models import LayoutImage
from cells.models import Role
from tests.factories import (
    CellFactory,
    MembershipFactory,
    OrganisationFactory,
    ProjectFactory,
    UserFactory,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def image_cell(transactional_db):
    user = UserFactory(username="sa-image")
    organisation = OrganisationFactory()
    MembershipFactory(
        user=user, organisation=organisation, role=Role.SOLUTION_ARCHITECT
    )
    return CellFactory(
        project=ProjectFactory(organisation=organisation), name="Cell on a plan"
    )


def floor_plan() -> bytes:
    """400 × 200 px: a wall drawn along the top, from x 50 to x 250."""
    picture = Image.new("RGB", (400, 200), "white")
    ImageDraw.Draw(picture).line([(50, 20), (250, 20)], fill="black", width=3)
    stream = io.BytesIO()
    picture.save(stream, "PNG")
    return stream.getvalue()


def hall_pdf(pages: int = 1) -> bytes:
    """A hall's layout as a PDF, 10 × 5 inches (2,000 × 1,000 px drawn): its
    walls, a column grid and a wall from 1 to 9 inches along, 1 inch below
    the top edge (pixels 200 to 1,800 on row 200)."""
    stream = io.BytesIO()
    drawing = canvas.Canvas(stream, pagesize=(720, 360))
    drawing.setLineWidth(3)
    drawing.rect(36, 36, 648, 288)
    drawing.line(72, 288, 648, 288)
    drawing.setLineWidth(0.5)
    for x in range(108, 648, 72):
        drawing.circle(x, 180, 4)
    drawing.setFont("Helvetica", 14)
    drawing.drawString(300, 60, "HALL 3 - assembly")
    for _ in range(pages):
        drawing.showPage()
    drawing.save()
    return stream.getvalue()


def sign_in(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", "sa-image")
    page.fill("#id_password", "pass-for-tests-1")
    page.click("button[type=submit]")
    expect(page.get_by_role("heading", name="Projects")).to_be_visible()


def test_architect_places_a_floor_plan_under_the_cell(
    page: Page, live_server, image_cell, screenshot_dir
):
    page.set_viewport_size({"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if "Content Security Policy" in message.text
            else None
        ),
    )
    served: list[int] = []
    page.on(
        "response",
        lambda response: (
            served.append(response.status)
            if "/layout/image/file" in response.url
            else None
        ),
    )
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/cells/{image_cell.pk}/")
    page.get_by_role("link", name="Floor-plan image").click()
    expect(page.get_by_role("heading", name="Floor-plan image")).to_be_visible()
    # No picture yet: no empty picture frame (its alt text) on the page.
    expect(page.locator("#layout-image-preview")).to_be_hidden()

    # Not a picture, whatever its name: refused, nothing kept.
    page.get_by_label("Image or PDF file").set_input_files(
        files=[{"name": "plan.png", "mimeType": "image/png", "buffer": b"GIF89a"}]
    )
    page.get_by_role("button", name="Upload").click()
    expect(page.locator(".field-errors").first).to_contain_text(
        "not a PDF, PNG or JPEG file"
    )
    assert not LayoutImage.objects.exists()

    # The plan: shown once chosen; the wall's two ends clicked on it.
    page.get_by_label("Image or PDF file").set_input_files(
        files=[{"name": "hall.png", "mimeType": "image/png", "buffer": floor_plan()}]
    )
    preview = page.locator("#layout-image-preview")
    expect(preview).to_be_visible()
    page.wait_for_function(
        "() => document.getElementById('layout-image-preview').naturalWidth === 400"
    )
    preview.click(position={"x": 50, "y": 20})
    preview.click(position={"x": 250, "y": 20})
    picked = [
        int(page.locator(f"[name={name}]").input_value())
        for name in ("point1_x_px", "point1_y_px", "point2_x_px", "point2_y_px")
    ]
    assert all(
        abs(a - b) <= 1 for a, b in zip(picked, [50, 20, 250, 20], strict=True)
    ), picked
    # The wall is 4 m long and starts at the plan's origin.
    page.fill("[name=point1_x_px]", "50")
    page.fill("[name=point1_y_px]", "20")
    page.fill("[name=point2_x_px]", "250")
    page.fill("[name=point2_y_px]", "20")
    page.get_by_label("Distance between the points (mm)").fill("4000")
    page.get_by_label("Point 1 on the plan, x (mm)").fill("0")
    page.get_by_label("Point 1 on the plan, y (mm)").fill("0")
    page.screenshot(path=str(screenshot_dir / "image-1-placing.png"), full_page=True)
    page.get_by_role("button", name="Upload").click()

    expect(page.locator(".message.success").first).to_contain_text(
        "The floor-plan image is saved."
    )
    image = LayoutImage.objects.get(cell=image_cell)
    assert image.placement().mm_per_px == 20
    # 400 × 200 px at 20 mm per pixel, its top-left 1,000 mm left of and
    # 400 mm beyond the origin.
    drawn = page.locator("#workspace svg.layout-svg image.underlay-image")
    expect(drawn).to_have_attribute("x", "-1000.0")
    expect(drawn).to_have_attribute("y", "-400.0")
    expect(drawn).to_have_attribute("width", "8000.0")
    expect(drawn).to_have_attribute("height", "4000.0")
    page.wait_for_load_state("networkidle")
    assert served and all(status == 200 for status in served), served
    page.screenshot(path=str(screenshot_dir / "image-2-plan.png"), full_page=True)
    assert errors == []


def test_architect_places_the_halls_pdf_under_the_cell(
    page: Page, live_server, image_cell, screenshot_dir
):
    page.set_viewport_size({"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if "Content Security Policy" in message.text
            else None
        ),
    )
    sign_in(page, live_server.url)
    page.goto(f"{live_server.url}/cells/{image_cell.pk}/layout/image/")
    choose = page.get_by_label("Image or PDF file")
    preview = page.locator("#layout-image-preview")
    refusal = page.locator("#layout-image-error")

    # Too many pages: said as soon as it is chosen, nothing drawn or kept.
    choose.set_input_files(
        files=[
            {
                "name": "hall.pdf",
                "mimeType": "application/pdf",
                "buffer": hall_pdf(pages=500),
            }
        ]
    )
    expect(refusal).to_contain_text("The PDF has 500 pages, more than the 100")
    expect(preview).to_be_hidden()

    # The hall's PDF: its first page drawn by the server, 2,000 × 1,000 px.
    choose.set_input_files(
        files=[
            {"name": "hall.pdf", "mimeType": "application/pdf", "buffer": hall_pdf()}
        ]
    )
    expect(preview).to_be_visible()
    expect(refusal).to_be_hidden()
    page.wait_for_function(
        "() => document.getElementById('layout-image-preview').naturalWidth === 2000"
    )
    # The wall's two ends clicked where the picture shows them.
    box = preview.bounding_box()
    assert box is not None
    shown = box["width"] / 2000
    preview.click(position={"x": 200 * shown, "y": 200 * shown})
    preview.click(position={"x": 1800 * shown, "y": 200 * shown})
    picked = [
        int(page.locator(f"[name={name}]").input_value())
        for name in ("point1_x_px", "point1_y_px", "point2_x_px", "point2_y_px")
    ]
    assert all(
        abs(a - b) <= 3 for a, b in zip(picked, [200, 200, 1800, 200], strict=True)
    ), picked
    # The wall is 3.2 m long (a small hall, to see it whole under the cell)
    # and its left end lies at (0, 2,500) mm on the plan.
    page.fill("[name=point1_x_px]", "200")
    page.fill("[name=point1_y_px]", "200")
    page.fill("[name=point2_x_px]", "1800")
    page.fill("[name=point2_y_px]", "200")
    page.get_by_label("Distance between the points (mm)").fill("3200")
    page.get_by_label("Point 1 on the plan, x (mm)").fill("0")
    page.get_by_label("Point 1 on the plan, y (mm)").fill("2500")
    page.screenshot(path=str(screenshot_dir / "image-pdf-1-placing.png"))
    page.get_by_role("button", name="Upload").click()

    expect(page.locator(".message.success").first).to_contain_text(
        "The floor-plan image is saved."
    )
    image = LayoutImage.objects.get(cell=image_cell)
    assert (image.width_px, image.height_px, image.pdf_page_count) == (2000, 1000, 1)
    assert image.placement().mm_per_px == 2
    # 2,000 × 1,000 px at 2 mm per pixel, its top-left 400 mm left of point 1
    # and 400 mm beyond it.
    drawn = page.locator("#workspace svg.layout-svg image.underlay-image")
    expect(drawn).to_have_attribute("x", "-400.0")
    expect(drawn).to_have_attribute("y", "-2900.0")
    expect(drawn).to_have_attribute("width", "4000.0")
    expect(drawn).to_have_attribute("height", "2000.0")
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(screenshot_dir / "image-pdf-2-plan.png"), full_page=True)

    # The image's page says where the picture came from, and shows it.
    page.get_by_role("link", name="Floor-plan image").click()
    expect(page.get_by_text("Page 1 of hall.pdf (1 page)")).to_be_visible()
    page.wait_for_function(
        "() => document.getElementById('layout-image-preview').naturalWidth === 2000"
    )
    page.screenshot(path=str(screenshot_dir / "image-pdf-3-page.png"))
    assert errors == []
