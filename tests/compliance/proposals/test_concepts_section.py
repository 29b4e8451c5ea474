"""The guarding concepts in the proposal (issue 27): right after the schedule,
the offered concepts' plans at one scale, a column per concept, the
recommendation and the concepts not offered, in the customer's words; left
out when the cell has no concepts."""

from __future__ import annotations

import io
import re

import pytest
from django.utils import translation
from pypdf import PdfReader

from compliance.concepts.models import GuardingConcept
from compliance.concepts.selectors import concepts_compared
from compliance.concepts.services import concept_choose, concepts_generate
from compliance.documents.theme import CONTENT_WIDTH
from compliance.proposals.building import build_document
from compliance.proposals.models import ProposalDocument
from compliance.proposals.pdf.builder import build_proposal_pdf
from compliance.proposals.pdf.data import SECTIONS, ProposalData
from compliance.proposals.pdf.kit import section_titles
from compliance.proposals.pdf.sections.concepts import (
    PLAN_GAP,
    PLAN_MAX_HEIGHT,
    shared_scale,
)
from compliance.proposals.services import proposal_request
from compliance.rules.inputs import versioned
from compliance.rules.selectors import cell_with_layout
from tests.compliance.concepts.support import fenced_palletiser
from tests.compliance.proposals.pdf.samples import sample_proposal

pytestmark = pytest.mark.django_db

# A rule's id, as the packs write them: never in the customer's copy.
RULE_ID = re.compile(r"\b(?:INTL|KR|EU|US)-[A-Za-z0-9-]+")


def pages_of(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


@pytest.fixture
def palletiser(cell):
    """A fence round the robot with an infeed behind a light curtain and a
    door without an interlock (as in tests/compliance/concepts)."""
    return fenced_palletiser(cell)


@pytest.fixture
def with_concepts(palletiser, owner):
    concepts_generate(cell=palletiser, actor=owner)
    return palletiser


def built(cell, actor, language: str) -> ProposalDocument:
    document = proposal_request(
        cell=cell, actor=actor, language=language, sections=list(SECTIONS), notes=[]
    )
    build_document(document.pk, "test-claim")
    document = ProposalDocument.objects.get(pk=document.pk)
    assert document.status == "ready", document.error
    return document


def compared(cell, language: str) -> dict:
    loaded = versioned(cell.pk, lambda: cell_with_layout(cell))
    with translation.override(language):
        return concepts_compared(loaded)


def section_pages(pages: list[str], title: str, next_title: str) -> str:
    """The text of the section titled ``title``, up to the next one (the
    cover, which lists them all, left out)."""
    start = next(i for i, page in enumerate(pages) if i and page_heads(page, title))
    end = next(
        i for i, page in enumerate(pages[start:], start) if page_heads(page, next_title)
    )
    return "\n".join(pages[start:end])


def page_heads(page: str, title: str) -> bool:
    """Whether ``page`` starts a numbered section titled ``title``."""
    return re.search(rf"^\d+\s+{re.escape(title)}$", page, re.MULTILINE) is not None


def test_the_proposal_compares_the_concepts_right_after_the_schedule(
    with_concepts, owner
):
    document = built(with_concepts, owner, "en")
    assert document.data["sections"].index("concepts") == (
        document.data["sections"].index("schedule") + 1
    )
    pages = pages_of(bytes(document.pdf))
    with translation.override("en"):
        titles = section_titles()
    text = section_pages(pages, titles["concepts"], titles["terms"])
    assert any(page_heads(page, titles["schedule"]) for page in pages)
    shown = compared(with_concepts, "en")
    for column in shown["columns"]:
        assert str(column["name"]) in text
    # The recommendation, in the sentences the concepts page gives.
    first = shown["recommendation_lines"][0]
    assert " ".join(first.split()[:3]) in " ".join(text.split())
    # A collaborative concept for an industrial robot is not offered: why.
    assert "Not offered" in text
    assert "not recorded as a robot designed for collaborative" in " ".join(
        text.split()
    )
    # Costs as ranges with their currency, or what is still to be quoted.
    assert re.search(r"[A-Z]{3} [\d,.]+–[\d,.]+", text) or "to be quoted" in text
    for row in ("Fails", "Needs evidence", "Passes", "Legal route", "Floor space"):
        assert row in text
    assert "weeks" in text


def test_the_customers_copy_names_no_rule_and_speaks_to_no_colleague(
    with_concepts, owner
):
    pages = pages_of(bytes(built(with_concepts, owner, "en").pdf))
    with translation.override("en"):
        titles = section_titles()
    section = section_pages(pages, titles["concepts"], titles["terms"])
    assert RULE_ID.search(section) is None
    for word in ("Edit", "edit ", "Confirm", "confirm ", "Ask ", "http", "/cells/"):
        assert word not in section, word


def test_the_plans_are_drawn_at_one_scale(with_concepts, owner):
    document = built(with_concepts, owner, "en")
    offered = ProposalData.model_validate(document.data).concepts.offered
    assert [c.name for c in offered] == [
        "As drawn",
        "Fenced",
        "Speed and separation monitoring",
        "Hybrid",
    ]
    pages = pages_of(bytes(document.pdf))
    with translation.override("en"):
        titles = section_titles()
    text = section_pages(pages, titles["concepts"], titles["terms"])
    # Each plan's scale bar, and the caption, name the one scale.
    scales = re.findall(r"1:[\d,]+", text)
    assert len(scales) == len(offered) + 1 and len(set(scales)) == 1
    width = (CONTENT_WIDTH - PLAN_GAP) / 2
    assert scales[0] == f"1:{shared_scale(offered, width, PLAN_MAX_HEIGHT):,}"


def test_a_collaborative_robot_is_offered_a_concept_without_a_fence(palletiser, owner):
    palletiser.robot_kind = "collaborative"
    palletiser.save()
    concepts_generate(cell=palletiser, actor=owner)
    document = built(palletiser, owner, "en")
    data = ProposalData.model_validate(document.data)
    names = [c.name for c in data.concepts.offered]
    assert names == [
        "As drawn",
        "Fenced",
        "Collaborative, no fence",
        "Speed and separation monitoring",
        "Hybrid",
    ]
    assert data.concepts.not_offered == ()
    fenceless = data.concepts.offered[2]
    assert fenceless.layout.guard_segments == []
    with translation.override("en"):
        titles = section_titles()
    text = section_pages(
        pages_of(bytes(document.pdf)), titles["concepts"], titles["terms"]
    )
    # Four concepts: two tables of two columns, each with its rows.
    assert text.count("Collaborative speed") == 2
    assert "Not offered" not in text
    # Korea: without a fence, the KIRIA certification, which no public figure
    # prices, is named to be quoted (issue 27).
    assert fenceless.certifications and "KIRIA" in fenceless.certifications[0]
    assert "Certifications not priced" in text
    assert "fee to be quoted" in " ".join(text.split())
    # Speed and separation monitoring has no collaborative speed to check
    # (its scanner's field is judged on the plan): a dash, never "not
    # checked yet" as if a check were owed.
    from compliance.proposals.pdf.sections.concepts import _speed

    ssm = data.concepts.offered[3]
    assert ssm.layout.robot.collaborative_modes == ["ssm"]
    assert _speed(ssm) == [("—", None)]


def test_the_chosen_concept_is_marked(with_concepts, owner):
    concept_choose(
        concept=GuardingConcept.objects.get(cell=with_concepts, kind="fenced")
    )
    text = "\n".join(pages_of(bytes(built(with_concepts, owner, "en").pdf)))
    assert "Chosen: Fenced." in text


def test_the_korean_proposal_has_the_section_in_korean(with_concepts, owner):
    document = built(with_concepts, owner, "ko")
    pages = pages_of(bytes(document.pdf))
    with translation.override("ko"):
        titles = section_titles()
        names = [str(c["name"]) for c in compared(with_concepts, "ko")["columns"]]
    assert titles["concepts"] == "방호 방식"
    text = section_pages(pages, titles["concepts"], titles["terms"])
    assert "Guarding concepts" not in text
    for name in names:
        assert name in text
    assert "Fenced" not in text and "As drawn" not in text
    assert "권장" in text  # the recommendation
    assert RULE_ID.search(text) is None


def test_a_cell_without_concepts_has_no_such_section(palletiser, owner):
    document = built(palletiser, owner, "en")
    assert "concepts" not in document.data["sections"]
    assert document.data["concepts"] is None
    with translation.override("en"):
        title = section_titles()["concepts"]
    assert title not in "\n".join(pages_of(bytes(document.pdf)))


def test_proposal_data_from_before_the_concepts_still_builds():
    stored = sample_proposal().model_dump(mode="json")
    del stored["concepts"]
    stored["sections"] = [s for s in stored["sections"] if s != "concepts"]
    data = ProposalData.model_validate(stored)
    assert data.concepts is None and "concepts" not in data.sections
    assert build_proposal_pdf(data).startswith(b"%PDF")
    # Without sections given, the concepts are left out when there are none.
    fresh = sample_proposal(concepts=None)
    assert "concepts" not in fresh.sections
    with pytest.raises(ValueError, match="concepts"):
        sample_proposal(concepts=None, sections=SECTIONS)
