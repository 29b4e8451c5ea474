"""The customer's proposal as they read it (issue 15): the demo proposals of
seed_demo built in English and Korean, read page by page. Sources are public
citations, assumptions are worded for the customer, the cover names the
author and the organisation's branding, the contents give page numbers,
versions count per language, money is in the proposal's one currency at the
project's own rates (never a made-up one), weeks are to the half-week."""

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

from compliance.costs.models import CustomLineItem
from compliance.plan.services import plan_assumption_set
from compliance.proposals.data import proposal_data
from compliance.proposals.models import ProposalDocument
from compliance.proposals.pdf.builder import build_proposal_pdf
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
    seed()
    return demo_cell()


def _rates(project, **rates):
    for field, value in rates.items():
        setattr(project, field, value)
    project.rates_date = datetime.date(2026, 11, 30)
    project.save()


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
        # A public price: its publisher and year.
        assert "mp-is.eu (cobot integration cost article), 2025/26" in (
            text.replace("\n", " ")
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
    listed = re.findall(r"(\d+) ([^\n]+)\n(\d+)\n", contents)
    assert len(listed) == 12  # with the guarding concepts (issue 27)
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


def test_one_currency_at_the_projects_rates(demo):
    _rates(demo.project, krw_per_usd=Decimal("1350"), eur_per_usd=Decimal("0.9"))
    pdf = bytes(build_demo("en", demo).pdf)
    text = "\n".join(pages_of(pdf))
    # USD 966–1,932 of fence at 1,350 and EUR 3,000–5,000 at 1,350 / 0.9.
    total = "KRW 5,804,100–10,108,200"
    assert total in pages_of(pdf)[1]  # the summary: one currency only
    assert "USD" not in pages_of(pdf)[1] and "EUR" not in pages_of(pdf)[1]
    assert f"Total in KRW\n{total}" in text
    # The originals beside each converted line, and the rates used.
    assert "(USD 966–1,932)" in text and "(EUR 3,000–5,000)" in text
    assert "1 EUR = 1,500 KRW; 1 USD = 1,350 KRW" in text
    assert "rate needed" not in text


def test_a_currency_without_a_rate_is_not_converted_nor_totalled(demo):
    _rates(demo.project, krw_per_usd=Decimal("1350"))  # no EUR rate
    pdf = bytes(build_demo("en", demo).pdf)
    text = "\n".join(pages_of(pdf))
    assert "not converted — rate needed" in text.replace("\n", " ")
    assert "No exchange rate has been entered for EUR" in text
    # Only the fence, converted: EUR is never turned into KRW at a made-up rate.
    assert "Total in KRW of the converted lines\nKRW 1,304,100–2,608,200" in text
    assert "1 priced line is not converted" in pages_of(pdf)[1].replace("\n", " ")


def test_no_rate_at_all_converts_nothing(english):
    text = _text(english)
    assert "No exchange rate has been entered for EUR, USD" in text
    assert "Not converted yet" in pages_of(bytes(english.pdf))[1]
    assert not re.search(r"KRW [\d,]+–", text)


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
    assert "6 items to be quoted" in text
    assert "cannot be drawn" not in text
    assert "Physical first: 6 items to be quoted, not in the bar." in text


def test_converted_plan_costs_are_drawn_and_unconverted_ones_listed(demo):
    architect = get_user_model().objects.get(username="sa")
    plan_assumption_set(
        cell=demo,
        actor=architect,
        key="risk_assessment",
        cost_low=Decimal(3000),
        cost_high=Decimal(5000),
        currency="EUR",
    )
    text = _text(build_demo("en", demo))
    assert "Risk assessment of the whole cell, EUR 3,000–5,000: not converted" in (
        text.replace("\n", " ")
    )
    _rates(demo.project, krw_per_usd=Decimal("1350"), eur_per_usd=Decimal("0.9"))
    text = _text(build_demo("en", demo))
    assert "KRW 4,500,000–7,500,000 + " in text  # the known cost, converted


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
