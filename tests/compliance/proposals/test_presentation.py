"""The customer's proposal as they read it (issue 15): the demo proposals of
seed_demo built in English and Korean, read page by page. Sources are public
citations, assumptions are worded for the customer, the cover names the
author and the organisation's branding, the contents give page numbers,
versions count per language, money is in the proposal's one currency at the
organisation's rates valid on its date (never a made-up one) or else per
currency, weeks are to the half-week."""

from __future__ import annotations

import datetime
import io
import re
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from compliance.costs.models import CustomLineItem, ExchangeRate
from compliance.costs.quotes.models import SupplierQuote
from compliance.plan.labour.models import LabourRate, WorkDefault
from compliance.plan.services import plan_assumption_set
from compliance.proposals.data import proposal_data
from compliance.proposals.models import ProposalDocument
from compliance.proposals.pdf.builder import build_proposal_pdf
from compliance.proposals.pdf.data import ProposalData
from compliance.proposals.services import proposal_request
from tests.compliance.proposals.demo import build_demo, demo_cell, pages_of, seed
from tests.compliance.proposals.pdf.samples import sample_proposal
from tests.kept import forget_kept

pytestmark = pytest.mark.django_db

# The reference data's file names and the repository a law text came from:
# never in what the customer reads.
INTERNAL = ("README", ".json", "legalize", "reference data", "unverified", "9bow")


@pytest.fixture
def demo():
    """The demo palletiser priced from the catalogue alone: its example
    supplier quotes (seed_demo) are removed, so that these tests see the
    catalogue's budgetary estimate, public prices, currencies and lines to be
    quoted; its example labour rates and default work go too. The quoted
    demo: ``quoted_demo``."""
    seed()
    SupplierQuote.objects.all().delete()
    LabourRate.objects.all().delete()
    WorkDefault.objects.all().delete()
    return demo_cell()


@pytest.fixture
def quoted_demo():
    """The demo palletiser as seed_demo leaves it, priced from its example
    supplier quotes."""
    seed()
    return demo_cell()


def _only_rates(project, *currencies):
    """Leave the demo organisation (seed_demo: KRW 1,350 and EUR 0.9 per USD
    from 2026-01-01) only the rates of ``currencies``."""
    ExchangeRate.objects.filter(organisation_id=project.organisation_id).exclude(
        currency__in=currencies
    ).delete()


# The words the proposal once printed for a line without a rate: a customer
# reads totals per currency instead, never these (issue 29).
NOT_CONVERTED = {
    "en": ("not converted", "Not converted", "rate needed"),
    "ko": ("환산 안 됨", "환산되지", "환율 필요"),
}


def _png(size=(120, 40), colour=(31, 58, 95)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.fixture
def english(demo):
    return build_demo("en", demo)


def _text(document) -> str:
    return "\n".join(pages_of(bytes(document.pdf)))


# --- sources ------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "ko"])
def test_costs_cite_public_sources_never_files_or_repositories(demo, language):
    text = _text(build_demo(language, demo))
    for internal in INTERNAL:
        assert internal not in text, internal
    if language == "en":
        # The brief's rough planning range, in the customer's words.
        assert "Budgetary estimate" in text
        # A public price: its publisher and date as published.
        assert "mp-is.eu (cobot integration cost article), undated (page crawled" in (
            " ".join(text.split())
        )
    # Where no price is known, the law and article that ask for the line, in
    # the reader's language (never both halves of the bilingual citation).
    flat = text.replace("\n", " ")
    if language == "en":
        assert "Enforcement Rule Art. 126" in flat
        assert "시행규칙 제126조" not in flat
    else:
        assert "시행규칙 제126조" in flat
        assert "Enforcement Rule" not in flat


# --- assumptions --------------------------------------------------------------


def test_assumptions_are_worded_for_the_customer(english):
    text = _text(english)
    assert "edit to your project" not in text
    assert "an assumption:" not in text
    assumed = re.findall(r"Assumed: [^\n]+", text)
    assert len(assumed) >= 5
    assert "to be confirmed with you" in text
    assert (
        "Assumed: Risk assessment of the whole cell, 2–4 weeks — to be confirmed "
        "with you." in text
    )


def test_an_assumption_the_architect_entered_is_shown_as_written(demo):
    architect = get_user_model().objects.get(username="sa")
    plan_assumption_set(
        cell=demo,
        actor=architect,
        key="risk_assessment",
        weeks_low=Decimal(3),
        weeks_high=Decimal(5),
        source="Hanbit's own HSE team, as agreed on 2026-11-20",
    )
    text = _text(build_demo("en", demo))
    assert (
        "Risk assessment of the whole cell: 3–5 weeks (Hanbit's own HSE team, as "
        "agreed on 2026-11-20)." in text.replace("\n", " ")
    )
    assert "Assumed: Risk assessment of the whole cell" not in text


# --- the headline -------------------------------------------------------------


def test_no_recommendation_says_what_the_choice_depends_on(english):
    summary = pages_of(bytes(english.pdf))[1]
    assert "No recommendation" not in summary
    assert "Recommended plan" not in summary
    assert "What the choice of plan depends on" in summary


# --- the cover ----------------------------------------------------------------


def test_the_cover_names_the_author_and_role(demo):
    architect = get_user_model().objects.get(username="sa")
    architect.first_name, architect.last_name = "Minjun", "Kim"
    architect.save()
    cover = pages_of(bytes(build_demo("en", demo).pdf))[0]
    assert "Prepared by\nMinjun Kim, Solution architect" in cover
    assert "Prepared by\nsa\n" not in cover


def test_the_cover_names_the_architect(english):
    cover = pages_of(bytes(english.pdf))[0]
    assert "Prepared by\n서민지, Solution architect" in cover


def test_the_cover_falls_back_to_the_username(demo):
    get_user_model().objects.filter(username="sa").update(first_name="", last_name="")
    cover = pages_of(bytes(build_demo("en", demo).pdf))[0]
    assert "Prepared by\nsa, Solution architect" in cover


def test_the_branding_is_on_the_cover_and_every_page_header(demo):
    from compliance.proposals.models import OrganisationBranding

    OrganisationBranding.objects.create(
        organisation=demo.project.organisation,
        display_name="Hanul Robotics Integration Ltd.",
        address="12 Teheran-ro, Gangnam-gu\nSeoul 06234",
        logo=_png(),
        logo_type="image/png",
    )
    pdf = bytes(build_demo("en", demo).pdf)
    pages = pages_of(pdf)
    assert "Hanul Robotics Integration Ltd." in pages[0]
    assert "12 Teheran-ro, Gangnam-gu\nSeoul 06234" in pages[0]
    for text in pages[1:]:
        assert text.startswith("Hanul Robotics Integration Ltd. · Proposal")
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages[0].images) >= 1  # the logo on the cover
    assert len(reader.pages[5].images) >= 1  # and in a page header


# --- contents -----------------------------------------------------------------


def test_the_contents_give_each_sections_page(english):
    pages = pages_of(bytes(english.pdf))
    contents = pages[0].split("Contents", 1)[1]
    listed = re.findall(r"(\d+|[A-E]) ([^\n]+)\n(\d+)\n", contents)
    # With the guarding concepts (issue 27), the legal answer and the
    # appendix A to E for the safety engineer (issue 30).
    assert len(listed) == 14
    assert [number for number, _title, _page in listed][-5:] == list("ABCDE")
    for number, title, page in listed:
        heading = f"{number}   {title}"
        assert heading in pages[int(page) - 1], (title, page)
        assert all(heading not in text for text in pages[: int(page) - 1])


# --- versions -----------------------------------------------------------------


def test_versions_are_counted_within_each_language(demo, client):
    korean = build_demo("ko", demo)
    english = build_demo("en", demo)
    again = build_demo("ko", demo)
    assert (korean.version, english.version, again.version) == (1, 1, 2)
    cover = pages_of(bytes(english.pdf))[0]
    assert "Version\n1\n" in cover
    client.force_login(get_user_model().objects.get(username="sa"))
    page = client.get(reverse("compliance:proposal", args=[demo.pk])).text
    rows = re.findall(r"<td>v(\d+)</td>\s*<td>([^<]+)</td>", page)
    assert rows == [("2", "한국어"), ("1", "English"), ("1", "한국어")]


def test_rows_numbered_across_languages_keep_their_numbers(demo):
    first = build_demo("en", demo)  # v1, English
    ProposalDocument.objects.filter(pk=first.pk).update(version=1)
    old_korean = ProposalDocument.objects.create(
        proposal=first.proposal, version=2, language="ko", sections=["summary"]
    )
    assert build_demo("ko", demo).version == 3
    assert build_demo("en", demo).version == 2
    old_korean.refresh_from_db()
    assert old_korean.version == 2


# --- money --------------------------------------------------------------------


def test_one_currency_at_the_organisations_rates(demo):
    pdf = bytes(build_demo("en", demo).pdf)
    text = "\n".join(pages_of(pdf))
    flat = " ".join(text.split())
    # USD 1,466–6,932 of fence and safety controller at seed_demo's 1,350 KRW
    # per USD, and EUR 3,000–5,000 at 1,350 / 0.9 = 1,500 KRW per EUR.
    assert "In the lines' own currencies: EUR 3,000–5,000; USD 1,466–6,932." in flat
    total = "KRW 6,479,100–16,858,200"
    assert total in pages_of(pdf)[1]  # the summary: one currency only
    assert "USD" not in re.sub(r"1 USD\s*=", "", pages_of(pdf)[1])
    assert f"Total in KRW\n{total}" in text
    # The originals beside each converted line, and the rates used, dated.
    assert "(USD 966–1,932)" in text and "(EUR 3,000–5,000)" in text
    source = "Demo organisation's example figure, not a market rate"
    assert (
        f"Exchange rates: 1 USD = 0.9 EUR (2026-01-01, {source}); "
        f"1 USD = 1,350 KRW (2026-01-01, {source})."
    ) in flat
    assert "rate needed" not in text


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_currency_without_a_rate_is_totalled_per_currency(demo, language):
    _only_rates(demo.project, "KRW")  # no EUR rate
    pdf = bytes(build_demo(language, demo).pdf)
    text = "\n".join(pages_of(pdf))
    for words in NOT_CONVERTED[language]:
        assert words not in text, words
    # No total in KRW: a sum of the lines that convert would look complete.
    summary = pages_of(pdf)[1]
    assert "USD 1,466–6,932" in summary and "EUR 3,000–5,000" in summary
    assert "KRW" not in summary
    if language == "en":
        assert "Total in USD\nUSD 1,466–6,932" in text
        assert "Total in EUR\nEUR 3,000–5,000" in text
        assert "Total in KRW" not in text
        # The USD lines convert, and say in which currency.
        assert re.search(r"KRW 1,304,100–\s*2,608,200\s*\(USD 966–1,932\)", text)
    else:
        assert "USD 합계\nUSD 1,466–6,932" in text
        assert "EUR 합계\nEUR 3,000–5,000" in text
        assert "KRW 합계" not in text


def test_no_rate_at_all_totals_each_currency(demo):
    _only_rates(demo.project)
    english = build_demo("en", demo)
    text = _text(english)
    for words in NOT_CONVERTED["en"]:
        assert words not in text, words
    assert "No exchange rate has been entered" not in text
    assert not re.search(r"KRW [\d,]+–", text)
    assert "Exchange rates:" not in text
    assert "Total in USD\nUSD 1,466–6,932" in text


def test_the_rate_valid_on_the_proposals_date_converts(demo):
    ExchangeRate.objects.create(
        organisation_id=demo.project.organisation_id,
        currency="KRW",
        units_per_usd=Decimal(1400),
        valid_from=datetime.date(2026, 12, 1),
        source="Bank rate of the day",
    )
    architect = get_user_model().objects.get(username="sa")
    document = proposal_request(
        cell=demo, actor=architect, language="en", sections=["costs"]
    )
    before = proposal_data(document, on=datetime.date(2026, 11, 30)).costs
    after = proposal_data(document, on=datetime.date(2026, 12, 1)).costs
    assert [r.value for r in before.rates if "KRW" in r.value] == [
        "1,350 KRW (2026-01-01, Demo organisation's example figure, not a market rate)"
    ]
    assert [r.value for r in after.rates if "KRW" in r.value] == [
        "1,400 KRW (2026-12-01, Bank rate of the day)"
    ]
    # EUR 3,000–5,000 at 1,350 / 0.9 and 1,400 / 0.9 KRW per EUR; USD
    # 1,466–6,932 at 1,350 and 1,400.
    assert (before.converted.low, before.converted.high) == (6479100, 16858200)
    assert after.converted.low == 1466 * 1400 + 4666666  # 3,000 × 1,555.5…, down
    assert "2026-11-30" in before.rates_note and "2026-12-01" in after.rates_note


def test_a_korean_demo_proposals_total_is_in_krw_with_the_rates_date(demo):
    document = build_demo("ko", demo)
    data = ProposalData.model_validate(document.data)
    assert data.costs.converted is not None
    assert data.costs.converted.currency == "KRW"
    assert data.summary.costs == (data.costs.converted,)
    flat = " ".join(_text(document).split())
    total = f"KRW {data.costs.converted.low:,}–{data.costs.converted.high:,}"
    assert f"KRW 합계 {total}" in flat
    assert (
        "1 USD = 1,350 KRW (2026-01-01, Demo organisation's example figure, not "
        "a market rate)"
    ) in flat
    for words in NOT_CONVERTED["ko"]:
        assert words not in flat


# --- figures ------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "ko"])
def test_weeks_are_given_to_the_half_week(demo, language):
    text = _text(build_demo(language, demo))
    assert not re.search(r"\d\.(25|75)\b", text)
    # The sim-first plan's 8.75–23.25 weeks to PoC start, outwards.
    assert "8.5–23.5" in text


def test_unknown_costs_are_counted_in_words_and_the_chart_draws(english):
    text = _text(english)
    assert "?)" not in text
    # The risk assessment's activity is costed from its priced line (the
    # catalogue's public EUR 3,000–5,000, KRW 4,500,000–7,500,000 at the demo's
    # rates); five activities are still to be quoted.
    assert "5 items to be quoted" in text
    assert "cannot be drawn" not in text
    assert "Physical first: 5 items to be quoted, not in the bar." in text


def test_plan_costs_are_drawn_converted_or_in_their_own_currency(demo):
    architect = get_user_model().objects.get(username="sa")
    plan_assumption_set(
        cell=demo,
        actor=architect,
        key="risk_assessment",
        cost_low=Decimal(3000),
        cost_high=Decimal(5000),
        currency="EUR",
    )
    # The demo's EUR rate converts the plan's EUR costs.
    text = _text(build_demo("en", demo))
    assert "KRW 4,500,000–7,500,000 + " in text  # the known cost, converted
    assert "1 USD = 0.9 EUR (2026-01-01" in text
    # Without it, the plan's cost stays in EUR: a range, never "not converted".
    _only_rates(demo.project, "KRW")
    text = _text(build_demo("en", demo))
    flat = " ".join(text.split())
    assert "EUR 3,000–5,000 + " in flat
    assert "KRW 4,500,000" not in flat
    for words in NOT_CONVERTED["en"]:
        assert words not in text, words


def test_empty_lists_are_left_out_heading_and_all():
    data = sample_proposal("en")
    data = data.model_copy(
        update={
            "exclusions": (),
            "schedule": data.schedule.model_copy(update={"cannot_prove": ()}),
        }
    )
    text = "\n".join(pages_of(build_proposal_pdf(data)))
    assert "None stated." not in text
    assert "Exclusions" not in text
    assert "What simulation cannot prove" not in text
    assert "Disclaimers" in text  # a list with items stays


# --- queries ------------------------------------------------------------------


def test_the_proposal_data_makes_a_fixed_number_of_queries(
    demo, django_assert_num_queries
):
    architect = get_user_model().objects.get(username="sa")
    document = proposal_request(
        cell=demo, actor=architect, language="en", sections=["summary"]
    )
    proposal_data(document)  # warm caches (the catalogue, content types)
    # Each measured call works the findings and cost lines out (issue 16:
    # they are kept between calls, and a line added changes their version).
    forget_kept()
    with CaptureQueriesContext(connection) as small:
        proposal_data(document)
    for n in range(6):
        CustomLineItem.objects.create(
            cell=demo,
            description=f"Own line {n}",
            quantity=1,
            unit="piece",
            price_low=10,
            price_high=20,
            currency="EUR",
        )
    forget_kept()
    with django_assert_num_queries(len(small.captured_queries)):
        proposal_data(document)


def test_the_proposal_data_reads_the_hazard_register_once(demo):
    """Issue 16: the data read the register twice, once with the findings'
    inputs and again for the risk section (a fifth of the large cell's data
    read). The risk section is the one the findings read: the same hazards,
    measures and order."""
    architect = get_user_model().objects.get(username="sa")
    document = proposal_request(
        cell=demo, actor=architect, language="en", sections=["risk"]
    )
    proposal_data(document)  # warm caches
    forget_kept()
    with CaptureQueriesContext(connection) as read:
        data = proposal_data(document)
    hazard_reads = [
        q["sql"]
        for q in read.captured_queries
        if q["sql"].startswith('SELECT "compliance_hazard"."id"')
    ]
    measure_reads = [
        q["sql"]
        for q in read.captured_queries
        if q["sql"].startswith('SELECT "compliance_measure"."id"')
    ]
    assert len(hazard_reads) == 1, hazard_reads
    assert len(measure_reads) == 1, measure_reads
    # And the section holds the register as the page shows it.
    from compliance.assessment import selectors
    from compliance.assessment.models import Revision

    revision = (
        Revision.objects.filter(assessment__cell=demo).order_by("-number").first()
    )
    register = list(selectors.register(revision))
    assert len(data.risk.hazards) == len(register) > 0
    assert [len(h.measures) for h in data.risk.hazards] == [
        h.measures.count() for h in register
    ]


# --- supplier quotes ------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "ko"])
def test_each_quoted_line_names_its_supplier_date_and_validity(quoted_demo, language):
    """The demo palletiser priced from its example quotes (issue 29): each
    quoted line names the supplier, the quote number, its date and validity,
    the totals are in KRW with the rate's date, and the one line without a
    price (the KCs certification) is counted and named."""
    document = build_demo(language, quoted_demo)
    data = ProposalData.model_validate(document.data)
    quoted = [i for i in data.costs.items if "DEMO-" in i.source]
    assert len(quoted) >= 10
    flat = " ".join(_text(document).split())
    assert "Hanbit Safety Supply (demo example) DEMO-P-2026-031" in flat
    valid = "까지 유효" if language == "ko" else "valid until"
    assert valid in flat
    assert data.costs.converted is not None
    assert data.costs.converted.currency == "KRW"
    assert data.costs.unpriced_lines == 1
    for words in NOT_CONVERTED[language]:
        assert words not in flat
