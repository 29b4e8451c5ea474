"""The cover holds the longest values the fields allow, in English and in
Korean, without text drawn over text: above all not over its note that the
proposal does not certify the cell as safe. Nor do the running header and
footer of the other pages overprint."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.utils.translation import gettext, override
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from cells.models import Cell, Organisation, Project
from compliance.documents.fonts import BOLD, REGULAR, register_fonts
from compliance.documents.theme import PAGE_WIDTH
from compliance.proposals.models import Proposal
from compliance.proposals.pdf.builder import COVER_RULE, build_proposal_pdf
from compliance.proposals.pdf.data import SECTIONS
from compliance.proposals.pdf.kit import section_titles
from tests.compliance.proposals.pdf.samples import sample_proposal


def _max(model, field: str) -> int:
    return model._meta.get_field(field).max_length


# What the cover shows, at the longest each field allows.
LONGEST = {
    "number": _max(Proposal, "number"),
    "organisation": _max(Organisation, "name"),
    "customer": _max(Project, "customer_name"),
    "site": _max(Project, "site_name"),
    "cell_name": _max(Cell, "name"),
    # The requester's full name ("first last"), else the username.
    "prepared_by": _max(User, "first_name") + 1 + _max(User, "last_name"),
}
WORDS = {"en": "Wide Palletising Line", "ko": "넓은 팔레타이징 라인"}


def _fill(length: int, words: str, spaced: bool) -> str:
    unit = f"{words} " if spaced else words.replace(" ", "")
    return (unit * (length // len(unit) + 1))[:length].strip().ljust(length, "W")


def longest_proposal(language: str, *, spaced: bool = True):
    data = sample_proposal(language, sections=SECTIONS)
    values = {
        field: _fill(length, WORDS[language], spaced)
        for field, length in LONGEST.items()
    }
    values["number"] = _fill(LONGEST["number"], "CSP-2026-0042", spaced)
    return data.model_copy(update={"meta": data.meta.model_copy(update=values)})


@dataclass(frozen=True)
class Box:
    """Where a run of text was drawn, in points from the page's bottom left."""

    text: str
    left: float
    right: float
    bottom: float
    top: float

    def overlaps(self, other: Box) -> bool:
        # A little slack: neighbouring runs of one line touch.
        across = min(self.right, other.right) - max(self.left, other.left)
        up = min(self.top, other.top) - max(self.bottom, other.bottom)
        return across > 1 and up > 1


def text_boxes(pdf: bytes, page: int) -> list[Box]:
    register_fonts()
    boxes: list[Box] = []
    # reportlab switches font subsets inside one line (Latin, then Hangul):
    # pypdf reports each run at the line's start, so the runs are laid end
    # to end here.
    line: dict = {"at": None, "advance": 0.0}
    # pypdf reports the text of a form (a contents line's page number, drawn
    # once the pages are known) in the form's own space: the page's matrix
    # where the form was drawn is composed here.
    outer: list[list[float]] = []

    def before(operator, operands, cm, tm):
        if operator == b"Do":
            outer.append(list(cm))

    def after(operator, operands, cm, tm):
        if operator == b"Do" and outer:
            outer.pop()

    def visit(text, cm, tm, font, size):
        text = text.strip("\n")
        if not text or font is None:
            return
        for o in reversed(outer):
            cm = [
                cm[0] * o[0] + cm[1] * o[2],
                cm[0] * o[1] + cm[1] * o[3],
                cm[2] * o[0] + cm[3] * o[2],
                cm[2] * o[1] + cm[3] * o[3],
                cm[4] * o[0] + cm[5] * o[2] + o[4],
                cm[4] * o[1] + cm[5] * o[3] + o[5],
            ]
        face = BOLD if "Bold" in font.get("/BaseFont", "") else REGULAR
        # The text matrix, then the page's: scaled and moved as drawn.
        a, d = tm[0] * cm[0], tm[3] * cm[3]
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        at = (tuple(cm), tuple(tm))
        if at != line["at"]:
            line.update(at=at, advance=0.0)
        x += line["advance"]
        line["advance"] += stringWidth(text, face, size) * a
        if not text.strip():
            return
        # Only the ink: spaces at either end of a run draw nothing.
        x += stringWidth(text[: len(text) - len(text.lstrip())], face, size) * a
        width = stringWidth(text.strip(), face, size) * a
        height = size * d
        boxes.append(Box(text, x, x + width, y - 0.2 * height, y + 0.8 * height))

    PdfReader(io.BytesIO(pdf)).pages[page].extract_text(
        visitor_text=visit, visitor_operand_before=before, visitor_operand_after=after
    )
    return boxes


def overprints(boxes: list[Box]) -> list[tuple[str, str]]:
    return [
        (one.text[:40], other.text[:40])
        for i, one in enumerate(boxes)
        for other in boxes[i + 1 :]
        if one.overlaps(other)
    ]


CASES = [("en", True), ("ko", True), ("en", False), ("ko", False)]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]}-spaced{c[1]}")
def longest(request):
    language, spaced = request.param
    data = longest_proposal(language, spaced=spaced)
    return data, build_proposal_pdf(data)


def test_the_cover_with_the_longest_values_has_no_text_over_text(longest):
    _data, pdf = longest
    assert overprints(text_boxes(pdf, 0)) == []


# Text that comes within 1 mm of the rule above the note touches it.
CLEAR_OF_THE_RULE = COVER_RULE + 72 / 25.4

NOTE = (
    "This proposal prepares the safety work for a proof of concept. It "
    "does not certify the cell as safe: the cell must be validated on "
    "site, by competent people, before it is used."
)


def _squeezed(text: str) -> str:
    return "".join(text.split())


def test_the_cover_keeps_its_note_whole_and_alone_under_its_rule(longest):
    data, pdf = longest
    with override(data.language):
        note = gettext(NOTE)
    boxes = text_boxes(pdf, 0)
    under_rule = [b for b in boxes if b.bottom < CLEAR_OF_THE_RULE]
    # Under the rule there is the note, all of it, and nothing else; above
    # it nothing comes down to the rule.
    assert _squeezed("".join(b.text for b in under_rule)) == _squeezed(note)
    assert all(b.top < COVER_RULE for b in under_rule)


def _words(length: int, word: str) -> str:
    return ((word + " ") * (length // (len(word) + 1) + 1))[:length]


# Covers that overprinted: long values whose cover ended on the note's text
# (the one reported), and on its rule.
ENDING_AT_THE_FOOT = {
    "reported": {
        "number": "N" * LONGEST["number"],
        "prepared_by": _words(150, "Maximilian") + " " + _words(150, "Wolfeschlegel"),
        "organisation": _words(LONGEST["organisation"], "Organisation"),
        "customer": _words(LONGEST["customer"], "Customer"),
        "site": _words(LONGEST["site"], "Site"),
        "cell_name": _words(LONGEST["cell_name"], "Palletiser"),
    },
    "on the rule": {
        **longest_proposal("en").meta.model_dump(include=set(LONGEST)),
        "prepared_by": _fill(100, WORDS["en"], spaced=True),
    },
}


@pytest.mark.parametrize("case", sorted(ENDING_AT_THE_FOOT))
def test_a_cover_that_ended_at_the_foot_leaves_the_note_alone(case):
    data = sample_proposal("en", sections=SECTIONS)
    meta = data.meta.model_copy(update=ENDING_AT_THE_FOOT[case])
    pdf = build_proposal_pdf(data.model_copy(update={"meta": meta}))
    boxes = text_boxes(pdf, 0)
    assert overprints(boxes) == []
    under_rule = [b for b in boxes if b.bottom < CLEAR_OF_THE_RULE]
    assert _squeezed("".join(b.text for b in under_rule)) == _squeezed(NOTE)


def test_the_cover_is_one_page_and_shows_every_value_whole(longest):
    data, pdf = longest
    reader = PdfReader(io.BytesIO(pdf))
    cover = _squeezed(reader.pages[0].extract_text())
    for field in LONGEST:
        assert _squeezed(getattr(data.meta, field)) in cover, field
    # The whole contents list is on the cover; the next page is section 1.
    with override(data.language):
        titles = section_titles()
    for key in SECTIONS:
        assert _squeezed(titles[key]) in cover, key
    first = _squeezed(reader.pages[1].extract_text())
    assert f"1{_squeezed(titles[SECTIONS[0]])}" in first


def test_no_text_runs_off_the_cover(longest):
    _data, pdf = longest
    for box in text_boxes(pdf, 0):
        assert box.left >= 0 and box.right <= PAGE_WIDTH, box.text[:40]


def test_the_running_header_and_footer_do_not_overprint(longest):
    _data, pdf = longest
    for page in (1, 2):
        boxes = text_boxes(pdf, page)
        assert overprints(boxes) == []
        for box in boxes:
            assert box.left >= 0 and box.right <= PAGE_WIDTH, box.text[:40]
