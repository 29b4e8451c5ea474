"""``TextFitter`` breaks a table cell's text into lines that fit. A register
repeats whole texts (phases, tasks, measures: in the bench's large cell two
thirds of the texts broken had been broken before), so each text is broken
once per document (issue 16)."""

from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import stringWidth

from compliance.documents.flowables import TextFitter
from compliance.documents.fonts import register_fonts
from compliance.documents.theme import BOLD, REGULAR

TEXT = "Fixed guard of 1,800 mm with interlocked door; 안전 매트 앞 작업 위치\n둘째 줄"


def test_lines_fit_and_keep_the_text_s_own_breaks():
    register_fonts()
    lines = TextFitter().lines(TEXT, 90, REGULAR, 8)
    assert len(lines) > 3
    assert all(stringWidth(line, REGULAR, 8) <= 90 for line in lines)
    assert lines[-1] == "둘째 줄"
    assert " ".join(lines).split() == TEXT.split()


def test_a_text_broken_again_gives_the_same_lines_from_memory(monkeypatch):
    register_fonts()
    fitter = TextFitter()
    first = fitter.lines(TEXT, 90, REGULAR, 8)
    first.append("changed by the caller")

    def measured(*_args):
        raise AssertionError("measured again")

    monkeypatch.setattr("compliance.documents.flowables.stringWidth", measured)
    again = fitter.lines(TEXT, 90, REGULAR, 8)
    assert again == first[:-1]  # the caller's change is not remembered
    # Another width is broken anew (from the words' widths it knows) ...
    narrower = fitter.lines(TEXT, 60, REGULAR, 8)
    assert len(narrower) > len(again)
    # ... and another font is measured.
    try:
        fitter.lines(TEXT, 90, BOLD, 8)
    except AssertionError as measuring:
        assert "measured again" in str(measuring)
    else:
        raise AssertionError("the bold text came from memory")
