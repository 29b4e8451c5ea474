"""Citations in the reader's language (issue 15): a Korean reader sees the
Korean law's own titles and the standards' clause lines in Korean, an English
reader the English titles; nothing bilingual ("Korean / English") is shown."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from cells.models import Cell
from compliance.calculators.citations import (
    CITATION_PARTS,
    citation_parts,
    citation_text,
)
from compliance.rules.cell_facts import cell_facts
from compliance.rules.engine import all_rules, evaluate

KOREAN_LAW = (
    "산업안전보건법 제84조(안전인증); 같은 법 시행령 제74조제1항제2호 / OSH "
    "Act Art. 84 (safety certification); Enforcement Decree Art. 74(1)(ii)"
)


def test_parts_split_at_semicolons_outside_brackets():
    pfl = (
        "ISO/TS 15066:2016, 5.5 (power and force limiting), Annex A (Tables A.2, "
        "A.3; v = F/√(μk)), integrated into ISO 10218-2:2025; ISO 14120 (guards)"
    )
    assert citation_parts(pfl) == [
        pfl[: pfl.index("; ISO 14120")],
        "ISO 14120 (guards)",
    ]


def test_a_korean_law_citation_gives_the_readers_half():
    assert citation_text(KOREAN_LAW, str, korean=True) == (
        "산업안전보건법 제84조(안전인증); 같은 법 시행령 제74조제1항제2호"
    )
    assert citation_text(KOREAN_LAW, str, korean=False) == (
        "OSH Act Art. 84 (safety certification); Enforcement Decree Art. 74(1)(ii)"
    )


def test_each_standard_part_goes_through_the_catalogue():
    seen = []

    def translate(text: str) -> str:
        seen.append(text)
        return f"«{text}»"

    shown = citation_text(
        "ISO 13857:2019, 4.2.2 (Table 2); ISO 14120 (guards)", translate, korean=True
    )
    assert shown == "«ISO 13857:2019, 4.2.2 (Table 2)»; «ISO 14120 (guards)»"
    assert seen == ["ISO 13857:2019, 4.2.2 (Table 2)", "ISO 14120 (guards)"]


def _standard_parts(citation: str) -> list[str]:
    """The parts a Korean reader gets through the catalogue."""
    native, separator, _english = citation.partition(" / ")
    if separator and any("\uac00" <= c <= "\ud7a3" for c in native):
        citation = native
    return [
        part
        for part in citation_parts(citation)
        if not any("\uac00" <= c <= "\ud7a3" for c in part)
    ]


@pytest.mark.django_db
def test_every_citation_the_packs_make_is_in_the_catalogue_list():
    call_command("seed_demo", stdout=io.StringIO())
    citations = {rule.citation for rule in all_rules()}
    for cell in Cell.objects.all():
        for result in evaluate(cell_facts(cell)):
            citations.update(finding.citation for finding in result.findings)
    missing = {
        part
        for citation in citations
        for part in _standard_parts(citation)
        if part not in CITATION_PARTS
    }
    assert missing == set(), (
        "add these to compliance.calculators.citations.CITATION_PARTS"
    )


@pytest.mark.django_db
def test_the_rules_page_cites_in_korean(owner_client):
    owner_client.post(reverse("set_language"), {"language": "ko", "next": "/"})
    text = owner_client.get(reverse("compliance:rules")).text
    assert "ISO 13857:2019, 4.2.2(넘어 닿기, 표 2, 고위험)" in text
    assert "산업안전보건법 제84조(안전인증)" in text
    assert "한국: 산업안전보건기준에 관한 규칙 제222조~제224조" in text
    assert "OSH Act Art. 84 (safety certification)" not in text
    assert "(reaching over, Table 2, high risk)" not in text


@pytest.mark.django_db
def test_the_rules_page_cites_in_english(owner_client):
    text = owner_client.get(reverse("compliance:rules")).text
    assert "ISO 13857:2019, 4.2.2 (reaching over, Table 2, high risk)" in text
    assert "OSH Act Art. 84 (safety certification)" in text
    assert "산업안전보건법 제84조(안전인증)" not in text


@pytest.mark.django_db
def test_every_figure_the_findings_compare_has_a_name():
    from compliance.rules.figures import FIGURE_NAMES

    call_command("seed_demo", stdout=io.StringIO())
    suffixes = ("_mm_s", "_mm", "_ms", "_kg")
    names = set()
    for cell in Cell.objects.all():
        for result in evaluate(cell_facts(cell)):
            for finding in result.findings:
                for key in finding.numbers:
                    for suffix in suffixes:
                        if key.endswith(suffix):
                            key = key.removesuffix(suffix)
                            break
                    names.add(key)
    assert names - set(FIGURE_NAMES) == set()


def test_a_figure_line_reads_in_the_readers_language():
    from django.utils import translation

    from compliance.proposals.data.figures import number_line as _number_line

    with translation.override("ko"):
        assert _number_line("required_mm", 1800) == "필요 1,800 mm"
        assert _number_line("hazard_height_mm", 2200) == "위험 높이 2,200 mm"
    with translation.override("en"):
        assert _number_line("required_mm", 1800) == "required 1,800 mm"
