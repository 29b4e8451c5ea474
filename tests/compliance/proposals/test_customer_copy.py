"""The customer's copy (issue 30): by default a proposal holds what the
customer decides from, led by what the law requires; the working a safety
engineer wants is an appendix the SA may add. Nothing in it is addressed to
the SA, no rule id or username is printed, and the compliance page leads
with the same legal answer, the statute text folded away."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.proposals.building import build_document
from compliance.proposals.models import ProposalDocument
from compliance.proposals.pdf.data import APPENDIX_SECTIONS, CUSTOMER_SECTIONS
from compliance.proposals.services import proposal_request
from tests.compliance.proposals.demo import demo_cell, seed, text_of

pytestmark = pytest.mark.django_db

RULE_ID = re.compile(r"\b(?:KR|INTL|EU|US)-[A-Za-z0-9.-]+")
# Words that tell the reader to do the SA's work.
SA_ADDRESSED = re.compile(
    r"\b(?:[Aa]sk the|[Cc]heck the|check them|[Cc]onfirm (?:them|with|the)|"
    r"[Ee]dit (?:to|the)|Record (?:whether|the|how|which|in)|record (?:how|which)|"
    r"Put in place|Accept the proposed|[Ll]ink it)\b"
)


@pytest.fixture
def demo(db):
    seed()
    return demo_cell()


def _user(username):
    return get_user_model().objects.get(username=username)


def _built(cell, language, sections=CUSTOMER_SECTIONS):
    document = proposal_request(
        cell=cell, actor=_user("sa"), language=language, sections=list(sections)
    )
    build_document(document.pk, "test")
    return text_of(bytes(ProposalDocument.objects.get(pk=document.pk).pdf))


@pytest.mark.parametrize("name", ["팔레타이저", "머신 텐딩"])
def test_the_customer_copy_has_no_rule_id_no_username_and_nothing_for_the_sa(db, name):
    seed()
    text = _built(demo_cell(name), "en")
    flat = " ".join(text.split())
    assert RULE_ID.findall(flat) == []
    assert SA_ADDRESSED.findall(flat) == []
    # People by name: the SA and the safety engineer who signed, never by
    # their usernames ("sa", "safety").
    if name == "팔레타이저":  # its assessment is signed
        assert _user("safety").get_full_name() in flat
    assert _user("sa").get_full_name() in flat
    assert not re.search(r"(?<![\w-])sa(?![\w-])", flat)
    assert not re.search(r"(?:[Bb]y|[Ss]igned by|[Ss]igner:?)\s+safety\b", flat)
    # Nor the rule-set release the findings were computed under.
    assert "rule set release" not in flat.lower()
    # The legal answer leads: right after the summary, citing OSH Act Art. 36.
    assert flat.index("What the law requires in Korea") < flat.rindex("3 The cell")
    assert "OSH Act Art. 36 (risk assessment)" in flat
    # The ISO 13849 working is not in it.
    assert "Annex C" not in flat and "B10d" not in flat


def test_the_korean_customer_copy_leads_with_the_korean_legal_answer(demo):
    flat = " ".join(_built(demo, "ko").split())
    assert "한국 법령의 요구사항" in flat
    assert "산업안전보건법 제36조(위험성평가의 실시)" in flat
    assert "산업안전보건법 제93조(안전검사)" in flat
    assert "KS B ISO 10218-2 (ISO 10218-2)" in flat
    assert RULE_ID.findall(flat) == []


def test_the_appendix_holds_the_working_and_the_rule_ids_when_the_sa_adds_it(demo):
    flat = " ".join(_built(demo, "en", CUSTOMER_SECTIONS + APPENDIX_SECTIONS).split())
    assert "Appendix for the safety engineer" in flat
    assert "A Appendix: Standards and law that apply" in flat
    assert "KR-223-fence-height" in flat  # the rule ids, in the appendix only
    assert "B10d" in flat  # the ISO 13849 working
    appendix = flat.index(
        "Appendix for the safety engineer", flat.index("Contents") + 400
    )
    assert flat.index("KR-223-fence-height") > appendix


def test_the_proposal_form_and_the_api_choose_the_customer_copy_by_default(demo):
    client = Client()
    client.force_login(_user("sa"))
    page = client.get(reverse("compliance:proposal", args=[demo.pk])).text
    for key in CUSTOMER_SECTIONS:
        assert re.search(rf'value="{key}"[^>]*checked', page), key
    for key in APPENDIX_SECTIONS:
        assert re.search(rf'value="{key}"(?![^>]*checked)', page), key
    assert "Appendix for the safety engineer" in page
    api = APIClient()
    api.force_authenticate(_user("sa"))
    response = api.post(
        f"/api/v1/cells/{demo.pk}/proposals/", {"language": "en"}, format="json"
    )
    assert response.status_code in (201, 202), response.content
    assert response.json()["sections"] == list(CUSTOMER_SECTIONS)


def test_the_compliance_page_leads_with_the_legal_answer_statutes_folded(demo):
    client = Client()
    client.force_login(_user("sa"))
    url = reverse("compliance:cell_compliance", args=[demo.pk])
    page = client.get(url).text
    answer = page.index('id="legal-answer"')
    assert answer < page.index('class="card rule-group"')
    assert "OSH Act Art. 36 (risk assessment)" in page
    assert "OSH Act Art. 38 (safety measures)" in page
    # The statute text and its source note fold away under each rule.
    rule = page[page.index('id="rule-KR-223-fence-height"') :]
    details = rule.index('<details class="rule-text">')
    assert details < rule.index("install a fence at least 1.8 m high")
    # The legal answer leads the first page only: a filter shows findings.
    assert 'id="legal-answer"' not in client.get(url, {"status": "fail"}).text
    korean = client.get(url, HTTP_ACCEPT_LANGUAGE="ko").text
    assert "산업안전보건법 제36조(위험성평가의 실시)" in korean
