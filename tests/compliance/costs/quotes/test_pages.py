"""Supplier quotes on the pages (issue 29): imported from the template,
matched by part number before kind, pricing the Costs tab with their supplier,
number, date and validity; a re-import of the same quote number replaces it
only after its changes are shown, keeping the matches a person confirmed; a
file with any error saves nothing; another organisation's quote is neither
visible nor pricing."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from compliance.costs.quotes.models import QuoteRow, SupplierQuote
from compliance.costs.quotes.reading import QuoteFile, QuoteRowIn
from compliance.costs.quotes.template import TemplateWords, quote_workbook
from compliance.safety_functions.models import LibraryDevice
from tests.factories import DeviceFactory, GuardSegmentFactory, OpeningFactory

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


def curtain_row(**fields) -> QuoteRowIn:
    values = {
        "row": 7,
        "maker": "SICK",
        "part_number": "C4C-SA06010A10000",
        "model": "deTec4 Core",
        "description": "Safety light curtain, type 4, 600 mm",
        "unit": "piece",
        "price_low": Decimal("1250000"),
        "price_high": Decimal("1250000"),
        "currency": "KRW",
        "lead_time_weeks_low": Decimal("4"),
        "lead_time_weeks_high": Decimal("6"),
        **fields,
    }
    return QuoteRowIn(**values)


def workbook(*rows, number="Q-2026-118", valid_until=None, supplier="Hanbit Safety"):
    quote = QuoteFile(
        supplier=supplier,
        number=number,
        quoted_on=TODAY - timedelta(days=20),
        valid_until=valid_until or TODAY + timedelta(days=40),
        rows=rows or (curtain_row(),),
    )
    data = quote_workbook(quote, TemplateWords())
    return SimpleUploadedFile(
        f"{number}.xlsx",
        data,
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )


@pytest.fixture
def library(organisation):
    return LibraryDevice.objects.create(
        organisation=organisation,
        key="LC-9",
        kind="light_curtain",
        maker="SICK",
        model="deTec4 Core",
        part_number="C4C SA06010A10000",
        pl="e",
        data_source="SICK data sheet",
    )


@pytest.fixture
def curtain_cell(cell):
    segment = GuardSegmentFactory(cell=cell, label="F1")
    infeed = OpeningFactory(segment=segment, label="Infeed", purpose="material_entry")
    DeviceFactory(cell=cell, label="LC1", opening=infeed)
    return cell


def logged_in(user) -> Client:
    """A client of its own (the ``*_client`` fixtures share one)."""
    client = Client()
    client.force_login(user)
    return client


def upload(client, organisation, file, **extra):
    return client.post(
        reverse("compliance:quote_import", args=[organisation.pk]),
        {"file": file, **extra},
    )


def test_an_imported_quote_is_matched_and_prices_the_costs_tab(
    owner_client, organisation, library, curtain_cell
):
    kind_row = curtain_row(
        row=8,
        maker="",
        part_number="",
        model="",
        kind="emergency_stop",
        description="E-stop",
        price_low=Decimal("38000"),
        price_high=Decimal("45000"),
    )
    response = upload(owner_client, organisation, workbook(curtain_row(), kind_row))
    quote = SupplierQuote.objects.get(organisation=organisation)
    assert response.status_code == 302
    assert response.url == reverse("compliance:quote_detail", args=[quote.pk])
    first, second = quote.rows.order_by("row")
    # The part number (written with spaces in the library) beats the kind.
    assert (first.matched_by, first.catalogue_key, first.library_device) == (
        "part_number",
        "light_curtain",
        library,
    )
    assert (second.matched_by, second.catalogue_key) == ("kind", "emergency_stop")
    detail = owner_client.get(response.url).text
    assert "by part number" in detail and "by kind" in detail
    # Prices as the lines show them: grouped, without trailing zeros.
    assert "KRW 1,250,000 /" in detail and "1,250,000.00" not in detail

    costs = owner_client.get(reverse("compliance:cell_costs", args=[curtain_cell.pk]))
    text = costs.text
    assert "KRW 1,250,000" in text
    assert "Hanbit Safety Q-2026-118" in text
    valid = (TODAY + timedelta(days=40)).isoformat()
    assert f"valid until {valid}" in text


def test_an_expired_quote_is_flagged_on_the_costs_tab(
    owner_client, organisation, library, curtain_cell
):
    upload(owner_client, organisation, workbook(valid_until=TODAY - timedelta(days=2)))
    text = owner_client.get(
        reverse("compliance:cell_costs", args=[curtain_cell.pk])
    ).text
    expired = (TODAY - timedelta(days=2)).isoformat()
    assert f"quote expired {expired}, ask again" in text
    assert "KRW 1,250,000" in text  # still shown, never without the note


def test_re_importing_a_quote_number_shows_the_changes_then_replaces_it(
    owner_client, organisation, library
):
    upload(owner_client, organisation, workbook())
    quote = SupplierQuote.objects.get()
    row = quote.rows.get()
    # A person says the row prices the safety controller, not the curtain.
    owner_client.post(
        reverse("compliance:quote_row_match", args=[quote.pk, row.pk]),
        {"catalogue_key": "safety_controller", "library_device": ""},
    )
    row.refresh_from_db()
    assert (row.matched_by, row.catalogue_key) == ("person", "safety_controller")

    cheaper = curtain_row(price_low=Decimal("990000"), price_high=Decimal("990000"))
    preview = upload(owner_client, organisation, workbook(cheaper))
    assert preview.status_code == 200
    assert "is already stored" in preview.text
    assert "changes 1 items" in preview.text
    # Nothing changed yet.
    assert QuoteRow.objects.get().price_low == Decimal("1250000")
    token = preview.context["pending"]
    confirmed = upload(owner_client, organisation, b"", pending=token)
    assert confirmed.status_code == 302
    replaced = QuoteRow.objects.get()
    assert replaced.price_low == Decimal("990000")
    # The person's match follows the same item into the new import.
    assert (replaced.matched_by, replaced.catalogue_key) == (
        "person",
        "safety_controller",
    )
    assert SupplierQuote.objects.count() == 1


def test_a_file_with_errors_saves_nothing_and_names_row_and_column(
    owner_client, organisation
):
    bad = curtain_row(row=9)
    data = workbook(curtain_row(), bad).read()
    # The second item's price becomes text in the file itself.
    from io import BytesIO

    from openpyxl import load_workbook

    book = load_workbook(BytesIO(data))
    sheet = book.worksheets[0]
    prices = [c for row in sheet.iter_rows() for c in row if c.value == 1250000]
    second = prices[-1]  # the second item's price (one column, or both ends)
    for cell in prices:
        if cell.row == second.row:
            cell.value = "about a million"
    out = BytesIO()
    book.save(out)
    response = upload(
        owner_client, organisation, SimpleUploadedFile("bad.xlsx", out.getvalue())
    )
    assert response.status_code == 400
    assert "Nothing was imported" in response.text
    problems = response.context["problems"]
    assert problems and problems[0]["row"] == second.row and problems[0]["column"]
    assert not SupplierQuote.objects.exists()


def test_another_organisations_quote_is_never_seen_nor_prices(
    owner, outsider, organisation, library, curtain_cell
):
    owner_client, outsider_client = logged_in(owner), logged_in(outsider)
    their_org = outsider.memberships.get().organisation
    upload(outsider_client, their_org, workbook(supplier="Their Supplier"))
    theirs = SupplierQuote.objects.get()
    row = theirs.rows.get()
    for url in (
        reverse("compliance:quote_detail", args=[theirs.pk]),
        reverse("compliance:quote_export", args=[theirs.pk]),
        reverse("compliance:quote_row_match", args=[theirs.pk, row.pk]),
        reverse("compliance:quote_list", args=[their_org.pk]),
        reverse("compliance:quote_template", args=[their_org.pk, "en"]),
    ):
        assert owner_client.get(url).status_code == 404, url
    assert (
        owner_client.post(
            reverse("compliance:quote_delete", args=[theirs.pk])
        ).status_code
        == 404
    )
    assert upload(owner_client, their_org, workbook()).status_code == 404
    # Their quote matched their library, not ours, and prices none of our lines.
    assert row.library_device is None
    text = owner_client.get(
        reverse("compliance:cell_costs", args=[curtain_cell.pk])
    ).text
    assert "Their Supplier" not in text
    assert SupplierQuote.objects.filter(pk=theirs.pk).exists()


def test_a_viewer_reads_quotes_but_cannot_import_or_change_them(
    viewer, owner, organisation
):
    viewer_client, owner_client = logged_in(viewer), logged_in(owner)
    upload(owner_client, organisation, workbook())
    quote = SupplierQuote.objects.get()
    row = quote.rows.get()
    assert (
        viewer_client.get(
            reverse("compliance:quote_detail", args=[quote.pk])
        ).status_code
        == 200
    )
    assert upload(viewer_client, organisation, workbook(number="X")).status_code == 403
    assert (
        viewer_client.post(
            reverse("compliance:quote_row_match", args=[quote.pk, row.pk]),
            {"catalogue_key": "fence"},
        ).status_code
        == 403
    )
    assert (
        viewer_client.post(
            reverse("compliance:quote_delete", args=[quote.pk])
        ).status_code
        == 403
    )
    assert SupplierQuote.objects.filter(number="X").count() == 0


def test_the_template_downloads_in_korean_and_english_and_round_trips(
    owner_client, organisation
):
    for language, word in (("ko", "견적"), ("en", "Quote")):
        response = owner_client.get(
            reverse("compliance:quote_template", args=[organisation.pk, language])
        )
        assert response.status_code == 200
        from io import BytesIO

        from openpyxl import load_workbook

        book = load_workbook(BytesIO(response.content))
        assert book.worksheets[0].title.startswith(word)
    upload(owner_client, organisation, workbook())
    quote = SupplierQuote.objects.get()
    exported = owner_client.get(reverse("compliance:quote_export", args=[quote.pk]))
    assert exported.status_code == 200
    # The export reads back as the same quote: importing it changes nothing.
    again = upload(
        owner_client, organisation, SimpleUploadedFile("again.xlsx", exported.content)
    )
    assert again.status_code == 200 and "changes 0 items" in again.text


def test_a_quotes_page_makes_the_same_number_of_queries_for_more_rows(
    owner_client, organisation
):
    def queries(url) -> int:
        owner_client.get(url)  # the session and the like, read once
        with CaptureQueriesContext(connection) as done:
            assert owner_client.get(url).status_code == 200
        return len(done.captured_queries)

    upload(owner_client, organisation, workbook())
    listed = queries(reverse("compliance:quote_list", args=[organisation.pk]))
    few = queries(
        reverse("compliance:quote_detail", args=[SupplierQuote.objects.get().pk])
    )
    rows = [curtain_row(row=7 + n, part_number=f"P-{n}") for n in range(40)]
    upload(owner_client, organisation, workbook(*rows, number="Q-2"))
    many = SupplierQuote.objects.get(number="Q-2")
    assert queries(reverse("compliance:quote_detail", args=[many.pk])) == few
    assert queries(reverse("compliance:quote_list", args=[organisation.pk])) == listed


def test_the_catalogue_shows_the_quoted_price(owner_client, organisation, library):
    upload(owner_client, organisation, workbook())
    text = owner_client.get(
        reverse("compliance:catalogue", args=[organisation.pk])
    ).text
    assert "Hanbit Safety Q-2026-118" in text
    assert date.today().year > 2000  # the page rendered without a 500


def test_the_api_gives_a_quoted_lines_quotes(
    owner, organisation, library, curtain_cell
):
    from rest_framework.test import APIClient

    upload(logged_in(owner), organisation, workbook())
    api = APIClient()
    api.force_authenticate(owner)
    data = api.get(f"/api/v1/cells/{curtain_cell.pk}/line-items/").json()
    (line,) = [i for i in data["items"] if i["catalogue_key"] == "light_curtain"]
    assert (line["basis"], line["price_low"], line["currency"]) == (
        "quote",
        "1250000.00",
        "KRW",
    )
    (quote,) = line["quotes"]
    assert (quote["supplier"], quote["number"], quote["expired"]) == (
        "Hanbit Safety",
        "Q-2026-118",
        False,
    )
    catalogue = api.get(f"/api/v1/organisations/{organisation.pk}/catalogue/").json()
    (entry,) = [e for e in catalogue["entries"] if e["key"] == "light_curtain"]
    assert entry["quotes"][0]["number"] == "Q-2026-118"


def test_a_quote_in_the_korean_template_imports(owner_client, organisation, library):
    """A Korean SA fills the Korean template (Korean headings, units and kind
    names): it reads back as the same quote."""
    from django.utils import translation

    from compliance.costs.quotes.views import template_words

    quote = QuoteFile(
        supplier="한빛안전",
        number="견적-7",
        quoted_on=TODAY,
        valid_until=None,
        rows=(
            curtain_row(),
            curtain_row(
                row=8,
                part_number="",
                model="",
                kind="fence",
                unit="m",
                description="펜스",
            ),
        ),
    )
    with translation.override("ko"):
        data = quote_workbook(quote, template_words())
    response = upload(owner_client, organisation, SimpleUploadedFile("ko.xlsx", data))
    assert response.status_code == 302, response.context and response.context.get(
        "problems"
    )
    stored = SupplierQuote.objects.get(number="견적-7")
    assert [(r.catalogue_key, r.unit) for r in stored.rows.order_by("row")] == [
        ("light_curtain", "piece"),
        ("fence", "m"),
    ]


def test_a_device_chosen_from_the_library_is_priced_by_its_own_quote(
    owner, organisation, library, cell
):
    """A quote row matched by part number to a library device prices the
    line of a device chosen from that library entry, which the library's own
    (absent) price left to be quoted; another curtain's quote does not."""
    from rest_framework.test import APIClient

    chosen = DeviceFactory(cell=cell, label="LC7", library_device=library)
    client = logged_in(owner)
    api = APIClient()
    api.force_authenticate(owner)

    def line():
        data = api.get(f"/api/v1/cells/{cell.pk}/line-items/").json()
        return next(
            i for i in data["items"] if i["key"] == f"recorded:device:{chosen.pk}"
        )

    assert line()["price_low"] is None
    other = curtain_row(part_number="OTHER-1", model="Other curtain", maker="Acme")
    upload(client, organisation, workbook(other, number="Q-other"))
    # Another part number and model, and no kind: it matches nothing.
    assert line()["price_low"] is None
    upload(client, organisation, workbook())
    priced = line()
    assert (priced["basis"], priced["price_low"], priced["quotes"][0]["number"]) == (
        "quote",
        "1250000.00",
        "Q-2026-118",
    )
