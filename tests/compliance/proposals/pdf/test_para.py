"""``Para`` keeps a paragraph's lines while its width stays the same (issue
16: platypus wrapped each paragraph of a demo proposal 1.6 times on average,
each time breaking its lines anew). The document it makes is the same, byte
for byte, as with reportlab's own Paragraph."""

from __future__ import annotations

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from compliance.documents.flowables import Para
from compliance.documents.fonts import register_fonts
from compliance.documents.theme import REGULAR
from compliance.proposals.pdf.builder import build_proposal_pdf
from tests.compliance.proposals.pdf.samples import sample_proposal

TEXT = " ".join(["보호 울타리의 높이는 1,800 mm 이상이어야 한다."] * 12)


def counted(monkeypatch) -> list[float]:
    calls: list[float] = []
    original = Paragraph.breakLines

    def breaking(self, widths):
        calls.append(widths[0])
        return original(self, widths)

    monkeypatch.setattr(Paragraph, "breakLines", breaking)
    return calls


def para() -> Para:
    register_fonts()
    return Para(TEXT, ParagraphStyle("t", fontName=REGULAR, fontSize=9, leading=12))


def test_wrapped_again_at_the_same_width_its_lines_are_kept(monkeypatch):
    calls = counted(monkeypatch)
    p = para()
    first = p.wrap(200, 1000)
    assert p.wrap(200, 50) == first  # the height offered changes nothing
    assert len(calls) == 1
    narrower = p.wrap(120, 1000)
    assert narrower[1] > first[1] and len(calls) == 2
    assert p.wrap(200, 1000) == first and len(calls) == 3


def test_a_split_that_gives_up_is_wrapped_again(monkeypatch):
    calls = counted(monkeypatch)
    p = para()
    p.wrap(200, 1000)
    assert p.split(200, 5) == []  # no room for two lines: reportlab drops its lines
    assert "blPara" not in p.__dict__
    p.wrap(200, 1000)
    assert len(calls) == 2 and p.blPara.lines


def test_the_proposal_is_the_same_bytes_as_with_reportlabs_paragraph(monkeypatch):
    data = sample_proposal()
    kept = build_proposal_pdf(data)
    monkeypatch.setattr(Para, "wrap", Paragraph.wrap)
    assert build_proposal_pdf(data) == kept
