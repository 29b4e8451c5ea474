"""Korean typesetting (issue 30): a line of a PDF never breaks inside a
number and its unit, a currency and its amount, a performance level or a
Korean date, at any width, in a paragraph or in a table cell."""

from __future__ import annotations

from itertools import pairwise

import pytest
from reportlab.lib.styles import ParagraphStyle

from compliance.documents.flowables import NBSP, Para, TextFitter, keep_together, markup
from compliance.documents.fonts import register_fonts
from compliance.documents.theme import REGULAR

TEXT = (
    "울타리는 높이 1,800 mm 이상이어야 하며 정지 시간 300 ms, 가반하중 12 kg, "
    "비용 KRW 1,500,000, 성능수준 PL d 및 PLr c, 날짜 2027년 3월 1일입니다."
)
KEPT = (
    "1,800 mm",
    "300 ms",
    "12 kg",
    "KRW 1,500,000",
    "PL d",
    "PLr c",
    "2027년 3월 1일",
)


def test_the_spaces_inside_are_no_break_spaces():
    kept = keep_together(TEXT)
    for phrase in KEPT:
        assert phrase.replace(" ", NBSP) in kept, phrase
    # Between words, a line may still break.
    assert "울타리는 높이" in kept
    # A word that only looks like a unit is not glued: "3 minutes" is not "3 m".
    assert keep_together("3 minutes") == "3 minutes"
    assert keep_together("in 2 mmm") == "in 2 mmm"


@pytest.mark.parametrize("width", range(40, 260, 7))
def test_no_paragraph_or_table_cell_breaks_them_at_any_width(width):
    register_fonts()
    style = ParagraphStyle("t", fontName=REGULAR, fontSize=9, leading=12)
    paragraph = Para(markup(TEXT), style)
    paragraph.wrap(width, 10_000)
    lines = [" ".join(words) for _w, words in paragraph.blPara.lines]
    joined = [line.replace(NBSP, " ") for line in lines]
    for phrase in KEPT:
        for a, b in pairwise(joined):
            head, tail = phrase.split(" ", 1)
            assert not (a.endswith(head) and b.startswith(tail)), (width, a, b)
    cells = [
        line.replace(NBSP, " ") for line in TextFitter().lines(TEXT, width, REGULAR, 9)
    ]
    for phrase in KEPT:
        for a, b in pairwise(cells):
            head, tail = phrase.split(" ", 1)
            assert not (a.endswith(head) and b.startswith(tail)), (width, a, b)
