"""A cell's robot programs in its proposal (issue 32): the path on the plan,
the segments to slow with the speed each may have and the cycle times, filled
from the cell's snapshot as the findings judge it; the program named "Robot
program 1", never by its file; in English and Korean."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from compliance.models import ProposalDocument
from compliance.proposals.building import build_document
from compliance.proposals.services import proposal_request
from tests.cells.motion.test_findings import cobot, imported, program

pytestmark = pytest.mark.django_db

__all__ = ["cobot"]  # the fixture, used by name
CUSTOMER = ["summary", "cell", "risk", "costs", "schedule", "terms"]


def built(cell, owner, language: str) -> ProposalDocument:
    document = proposal_request(
        cell=cell, actor=owner, language=language, sections=CUSTOMER
    )
    build_document(document.pk, "test")
    document.refresh_from_db()
    assert document.status == "ready", document.error
    return document


def flat_text(document: ProposalDocument) -> tuple[str, int]:
    reader = PdfReader(io.BytesIO(bytes(document.pdf)))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return " ".join(text.split()), len(reader.pages)


def test_the_proposal_tables_the_failing_line_with_its_permissible_speed(owner, cobot):
    imported(cobot, owner, program("1.0"), name="tending_cell_A.script")
    document = built(cobot, owner, "en")
    text, pages = flat_text(document)
    # ISO/TS 15066 Annex A, chest: 471.8 mm/s, as the PFL finding says.
    assert "Segments to slow" in text
    assert "Robot program 1 3 1,000 471.8 Load" in text
    assert "cycle time of its straight moves" in text
    assert "tending_cell_A" not in text  # the file is the SA's
    assert 3 <= pages <= 20
    cell = document.data["cell"]
    (path,) = cell["programs"]
    assert path["label"] == "Robot program 1"
    # Its one straight move, from the first pose (line 2) to line 3's.
    (piece,) = path["pieces"]
    assert (piece["verdict"], piece["lines"]) == ("fail", [3])
    assert piece["points_mm"] == [[400.0, 300.0], [400.0, -300.0]]
    (zone,) = cell["contact_zones"]
    assert (zone["station"], zone["radius_mm"]) == ("Load", 850.0)


def test_the_korean_proposal_builds_with_the_program(owner, cobot):
    imported(cobot, owner, program("1.0"), name="tending_cell_A.script")
    text, pages = flat_text(built(cobot, owner, "ko"))
    assert "로봇 프로그램 1" in text
    assert "471.8" in text
    assert "tending_cell_A" not in text
    assert 3 <= pages <= 20


def test_a_slow_program_has_no_segment_to_slow(owner, cobot):
    imported(cobot, owner, program("0.25"))
    document = built(cobot, owner, "en")
    text, _pages = flat_text(document)
    assert "Robot programs" in text
    assert "Segments to slow" not in text
    assert "no move to slow" in text
    assert document.data["cell"]["slow_segments"] == []
