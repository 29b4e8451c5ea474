"""The library's pages: the table with search and filters (htmx fragment
with an href fallback), the entries of the organisation's own, CSV export and
import; editors write, viewers read, outsiders find nothing."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from compliance.safety_functions.library.catalogue import STARTING_ENTRIES
from compliance.safety_functions.models import LibraryDevice
from tests.compliance.safety_functions.library.conftest import PRICED, library_device

pytestmark = pytest.mark.django_db
STATUS = "From the maker&#x27;s data sheet; check the current one."


def page(client, organisation, **params):
    return client.get(reverse("compliance:library", args=[organisation.pk]), params)


def keys(response) -> set[str]:
    return {row["device"].key for row in response.context["rows"]}


def test_the_library_lists_its_entries_with_their_figures(owner_client, seeded):
    response = page(owner_client, seeded)
    assert response.status_code == 200
    assert keys(response) == {e.key for e in STARTING_ENTRIES}
    text = response.text
    assert STATUS in text
    assert "deTec4 Core" in text and "C4C-PA06010A10000" in text
    assert "3.7E-9" in text  # the PFHd exactly as recorded
    assert "price to be quoted" in text  # no starting entry has a price


def test_a_priced_entry_shows_its_range_and_source(owner_client, seeded):
    library_device(seeded, **PRICED)
    text = page(owner_client, seeded, q="Acme").text
    assert "USD 1,800–2,100" in text and "Acme quote Q-114" in text


def test_the_home_link_opens_the_users_own_library(owner_client, seeded):
    response = owner_client.get(reverse("compliance:library_home"))
    assert response.url == reverse("compliance:library", args=[seeded.pk])
    assert 'href="/library/"' in owner_client.get(response.url).text  # the nav link


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"q": "deTec4"}, {"LC-1"}),
        ({"q": "C4C-PA06010A10000"}, {"LC-1"}),  # part number
        # Two words, in the function or in the kind as shown ("Interlock with
        # guard locking"): every guard-locking entry (issue 30).
        (
            {"q": "guard locking"},
            {"IL-2-guard-locking", "IL-2-interlock", "IL-4"},
        ),
        ({"kind": "multibeam"}, {"LC-2"}),
        ({"kind": "laser_scanner", "iec61496_type": "3"}, {"SC-1"}),
        ({"iec61496_type": "4"}, {"LC-2", "OWN-1"}),
        ({"kind": "drive_sto", "pl_at_least": "e"}, {"DR-3"}),
        ({"has_price": "true"}, {"OWN-1"}),
    ],
)
def test_search_and_filters(owner_client, seeded, params, expected):
    library_device(seeded, **PRICED)
    assert keys(page(owner_client, seeded, **params)) == expected


def test_to_be_quoted_filter_and_pl_at_least(owner_client, seeded):
    library_device(seeded, **PRICED)
    quoted = keys(page(owner_client, seeded, has_price="false"))
    assert "OWN-1" not in quoted and len(quoted) == len(STARTING_ENTRIES)
    at_least_d = keys(page(owner_client, seeded, pl_at_least="d"))
    assert "RB-3-overspeed-protection" not in at_least_d  # PL c
    assert "LC-3" not in at_least_d  # no PL recorded
    assert {"SC-1", "LC-1"} <= at_least_d


def test_a_bad_filter_is_shown_and_ignored(owner_client, seeded):
    response = page(owner_client, seeded, pl_at_least="z", q="x" * 101)
    assert response.status_code == 200
    assert response.context["filter_form"].errors.keys() == {"pl_at_least", "q"}
    assert len(keys(response)) == len(STARTING_ENTRIES)


def test_the_filters_answer_htmx_with_the_table_alone(owner_client, seeded):
    response = page(owner_client, seeded, kind="multibeam")
    assert 'hx-get="/organisations/' in response.text
    assert 'action="/organisations/' in response.text  # works without htmx
    fragment = owner_client.get(
        reverse("compliance:library", args=[seeded.pk]),
        {"kind": "multibeam"},
        headers={"HX-Request": "true"},
    )
    assert fragment.text.lstrip().startswith('<section class="card" id="library">')
    assert "deTem4" in fragment.text and "<html" not in fragment.text
    assert "HX-Request" in fragment["Vary"] and "HX-Request" in response["Vary"]


@pytest.mark.parametrize("extra", [5, 90])
def test_the_page_makes_a_fixed_number_of_queries(
    owner_client, organisation, extra, django_assert_num_queries
):
    for i in range(extra):
        library_device(organisation, key=f"K-{i}", **PRICED)
    with django_assert_num_queries(7):
        response = page(owner_client, organisation)
    assert len(keys(response)) == extra


def test_an_editor_adds_changes_and_deletes_an_entry(owner_client, seeded):
    add = reverse("compliance:library_device_add", args=[seeded.pk])
    body = {
        "key": "MY-1",
        "kind": "safety_mat",
        "maker": "Acme",
        "model": "Mat 3",
        "pl": "d",
        "category": "3",
        "pfhd_per_hour": "2.5E-08",
        "price_low": "400",
        "price_high": "520",
        "currency": "EUR",
        "price_source": "Quote 7",
        "price_date": "2026-10-01",
    }
    response = owner_client.post(add, body)
    assert response.status_code == 302
    device = LibraryDevice.objects.get(organisation=seeded, key="MY-1")
    assert device.pfhd_per_hour == 2.5e-08 and device.price_high == 520
    edit = reverse("compliance:library_device_edit", args=[seeded.pk, device.pk])
    assert owner_client.post(edit, {**body, "price_high": "600"}).status_code == 302
    device.refresh_from_db()
    assert device.price_high == 600
    delete = reverse("compliance:library_device_delete", args=[seeded.pk, device.pk])
    assert "Delete" in owner_client.get(delete).text
    assert owner_client.post(delete).status_code == 302
    assert not LibraryDevice.objects.filter(pk=device.pk).exists()


def test_form_errors_name_the_field(owner_client, seeded):
    add = reverse("compliance:library_device_add", args=[seeded.pk])
    body = {"key": "LC-1", "kind": "other", "maker": "M", "model": "N"}
    response = owner_client.post(add, {**body, "price_low": "5"})
    form = response.context["form"]
    assert response.status_code == 200
    assert "price_high" in form.errors
    response = owner_client.post(add, body)
    assert "key" in response.context["form"].errors  # LC-1 is taken
    response = owner_client.post(add, {**body, "key": "N-1", "pfhd_per_hour": "1"})
    assert "pfhd_per_hour" in response.context["form"].errors


def test_viewers_read_and_export_but_change_nothing(viewer_client, seeded):
    device = LibraryDevice.objects.filter(organisation=seeded).first()
    assert page(viewer_client, seeded).status_code == 200
    assert "Add a device" not in page(viewer_client, seeded).text
    export = reverse("compliance:library_export", args=[seeded.pk])
    assert viewer_client.get(export).status_code == 200
    for url in (
        reverse("compliance:library_device_add", args=[seeded.pk]),
        reverse("compliance:library_device_edit", args=[seeded.pk, device.pk]),
        reverse("compliance:library_device_delete", args=[seeded.pk, device.pk]),
        reverse("compliance:library_import", args=[seeded.pk]),
        reverse("compliance:library_seed", args=[seeded.pk]),
    ):
        assert viewer_client.post(url, {}).status_code == 403, url
    assert LibraryDevice.objects.filter(pk=device.pk).exists()


def test_another_organisations_library_is_not_found(outsider_client, seeded):
    device = LibraryDevice.objects.filter(organisation=seeded).first()
    assert page(outsider_client, seeded).status_code == 404
    edit = reverse("compliance:library_device_edit", args=[seeded.pk, device.pk])
    assert outsider_client.get(edit).status_code == 404


def test_an_entry_of_another_library_is_not_found_under_this_one(
    owner_client, seeded, outsider
):
    theirs = library_device(outsider.memberships.get().organisation)
    edit = reverse("compliance:library_device_edit", args=[seeded.pk, theirs.pk])
    assert owner_client.get(edit).status_code == 404


def test_export_is_a_csv_of_every_entry(owner_client, seeded):
    response = owner_client.get(reverse("compliance:library_export", args=[seeded.pk]))
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(rows) == len(STARTING_ENTRIES)
    lc1 = next(r for r in rows if r["key"] == "LC-1")
    assert (lc1["pfhd_per_hour"], lc1["pl"], lc1["price_low"]) == ("3.7e-09", "e", "")


def upload(text: str, name: str = "library.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="text/csv")


def test_import_lists_each_error_and_saves_nothing(owner_client, seeded):
    url = reverse("compliance:library_import", args=[seeded.pk])
    text = (
        "key,kind,maker,model,pl\r\nA-1,light_curtain,SICK,C4C,e\r\nA-2,bogus,,X,e\r\n"
    )
    response = owner_client.post(url, {"file": upload(text)})
    assert response.status_code == 200
    errors = [(e.row, e.field) for e in response.context["row_errors"]]
    assert errors == [(3, "kind"), (3, "maker")]
    assert "Nothing was saved" in response.text
    assert not LibraryDevice.objects.filter(organisation=seeded, key="A-1").exists()


def test_import_saves_every_row_when_all_pass(owner_client, seeded):
    url = reverse("compliance:library_import", args=[seeded.pk])
    text = "key,kind,maker,model,price_low,price_high,currency,price_source\r\n"
    text += "LC-1,light_curtain,SICK,deTec4 Core,1200,1400,USD,Distributor 2026\r\n"
    response = owner_client.post(url, {"file": upload(text)}, follow=True)
    assert "0 added, 1 updated" in response.text
    lc1 = LibraryDevice.objects.get(organisation=seeded, key="LC-1")
    assert lc1.price_low == Decimal(1200)


def test_seeding_from_the_page_adds_the_missing_starting_entries(
    owner_client, organisation
):
    response = page(owner_client, organisation)
    assert "The library is empty" in response.text
    assert "Add the missing starting entries" in response.text
    owner_client.post(reverse("compliance:library_seed", args=[organisation.pk]))
    assert LibraryDevice.objects.filter(organisation=organisation).count() == len(
        STARTING_ENTRIES
    )


def test_the_type_filter_starts_at_any_type(owner_client, organisation):
    from django.urls import reverse

    body = owner_client.get(
        reverse("compliance:library", args=[organisation.pk])
    ).content.decode()
    start = body.index('name="iec61496_type"')
    first_option = body[start:].split("<option", 2)[1]
    assert 'value=""' in first_option


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        # The kind as shown, "가드 잠금 인터록": as "guard locking" in English.
        ("가드 잠금", {"IL-2-guard-locking", "IL-2-interlock", "IL-4"}),
        # The kind as the Korean page names it.
        (
            "레이저 스캐너",
            {e.key for e in STARTING_ENTRIES if e.kind == "laser_scanner"},
        ),
        # Makers and models as typed, in any language.
        ("deTec4", {"LC-1"}),
    ],
)
def test_korean_search_finds_what_the_korean_page_shows(
    owner_client, seeded, q, expected
):
    response = owner_client.get(
        reverse("compliance:library", args=[seeded.pk]),
        {"q": q},
        HTTP_ACCEPT_LANGUAGE="ko",
    )
    assert keys(response) == expected and expected


def test_korean_words_find_nothing_on_the_english_page(owner_client, seeded):
    assert keys(page(owner_client, seeded, q="가드 잠금")) == set()


def test_an_entry_typed_in_one_language_says_so_where_the_reader_reads_another(
    owner_client, seeded
):
    # Issue 30: the shipped entries are in both languages; an organisation's
    # own entry is shown as typed, its language named where it is not the
    # reader's.
    library_device(seeded, function="presence detection, muting at the infeed")
    library_device(seeded, key="OWN-2", model="Curtain 14", function="투입구 인체 감지")
    url = reverse("compliance:library", args=[seeded.pk])
    korean = owner_client.get(url, HTTP_ACCEPT_LANGUAGE="ko").text
    assert (
        '<span lang="en">presence detection, muting at the infeed</span> (영어)'
        in korean
    )
    assert "투입구 인체 감지 (" not in korean  # in the reader's language: as typed
    assert "가드 잠금 기능" in korean  # a shipped entry, translated
    english = owner_client.get(url, HTTP_ACCEPT_LANGUAGE="en").text
    assert '<span lang="ko">투입구 인체 감지</span> (Korean)' in english
    assert "presence detection, muting at the infeed (" not in english
