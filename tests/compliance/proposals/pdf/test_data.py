"""The proposal data object: what it refuses."""

from __future__ import annotations

import io

import pytest
from pydantic import ValidationError
from pypdf import PdfReader

from compliance.proposals.pdf.builder import build_proposal_pdf
from compliance.proposals.pdf.data import RiskSection
from tests.compliance.proposals.pdf.samples import SIGNED_HASH, sample_proposal


def test_an_included_section_needs_its_data():
    with pytest.raises(ValidationError, match="sections without data: costs"):
        sample_proposal(costs=None)


def test_a_left_out_section_needs_no_data():
    data = sample_proposal(sections=("summary",), costs=None, schedule=None)
    assert data.ordered_sections == ("summary",)


def test_a_section_listed_twice_is_refused():
    with pytest.raises(ValidationError, match="listed twice"):
        sample_proposal(sections=("summary", "summary"))


def test_a_signed_revision_has_a_hash_and_a_draft_has_none():
    with pytest.raises(ValidationError, match="content hash"):
        RiskSection(signed=True, revision=1)
    with pytest.raises(ValidationError, match="no content hash"):
        RiskSection(signed=False, revision=1, content_hash=SIGNED_HASH)


def test_a_distance_names_a_device_of_the_layout():
    cell = sample_proposal().cell
    distance = cell.distances[0].model_copy(update={"device_index": 9})
    with pytest.raises(ValidationError, match="no device 9"):
        type(cell).model_validate(
            {**cell.model_dump(), "distances": [distance.model_dump()]}
        )


def test_the_data_is_frozen():
    data = sample_proposal()
    with pytest.raises(ValidationError):
        data.language = "ko"


def test_data_stored_with_one_collaborative_mode_still_reads():
    stored = sample_proposal().model_dump(mode="json")
    del stored["cell"]["collaborative_modes"]
    stored["cell"]["collaborative_mode"] = "Power and force limiting"
    stored["cell"]["layout"]["robot"].pop("collaborative_modes")
    stored["cell"]["layout"]["robot"]["collaborative_mode"] = "pfl"

    cell = type(sample_proposal()).model_validate(stored).cell

    assert cell.collaborative_modes == ("Power and force limiting",)
    assert cell.layout.robot.collaborative_modes == ["pfl"]


def test_the_pdf_names_every_collaborative_mode():
    data = sample_proposal()
    cell = data.cell.model_copy(
        update={
            "collaborative_modes": (
                "Speed and separation monitoring",
                "Power and force limiting",
            )
        }
    )
    pdf = build_proposal_pdf(data.model_copy(update={"cell": cell}))
    text = " ".join(
        page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages
    ).replace("\n", " ")

    assert "Speed and separation monitoring, Power and force limiting" in text
