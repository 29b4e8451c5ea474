"""Korean, complete (issue 15): every page and both demo proposals, read in
Korean, show no English word the app wrote. What a person typed (a cell's
name, a fence's label, a hazard described in English) is shown as typed and
is left out of the check; so is a short allow-list of what stays in Latin
letters in a Korean safety document: standard and law names, units,
abbreviations, makers and product names."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.utils import translation
from pypdf import PdfReader

from compliance.calculators import written
from compliance.proposals.data import proposal_data
from compliance.proposals.models import Proposal, ProposalDocument
from compliance.proposals.pdf.builder import build_proposal_pdf
from compliance.proposals.views import SECTION_CHOICES
from tests.walk import SIGNED_OUT, demo_world, visits

pytestmark = pytest.mark.django_db

KO = {"HTTP_ACCEPT_LANGUAGE": "ko"}

# Latin words a Korean reader expects in a robot-safety document.
_ALLOWED_WORDS = (
    # standards, laws, bodies and marks
    "ISO IEC TS PAS EN KS ANSI RIA OSHA KOSHA KIRIA KCs KC CE UL NFPA IFR A3 "
    "EU EEA US CFR eCFR EC EUR Lex "
    # robot makers and the names of their safety controllers' configuration
    "ABB KUKA FANUC UR SafeMove SafeOperation DCS CRC USB "
    # robot programming languages and their files
    "URScript RAPID KRL mod src "
    # the standards' own symbols and abbreviations, and the functions of
    # their formulas
    "PL PLr SIL PFHd PFH MTTFd DCavg DC CCF Cat SRP CS SRS ESPE AOPD AOPDD AOPDDR "
    "VBPD SRMCD PFL SSM HG SMS PSD STO SOS SLS SLP RSM FMEA EMC TCP PLC NC Sp sr "
    "max min "
    # units and formats
    "mm cm cm² m m² ms kg MB KB MP px PDF XLSX DXF DWG CAD CSV SVG PNG JPEG API "
    "JSON HTML SHA HMAC KST USD EUR KRW "
    # proof of concept, a term Korean integrators use as it is
    "PoC "
    # the language menu names each language in itself
    "English "
    # keys as printed on the keyboard
    "Ctrl Shift Esc Enter Delete "
    # the font the pages and PDFs ship
    "Nanum Gothic OFL "
    # the Korean law's own text glosses the word (Rules on OSH Standards
    # Art. 222: 매니퓰레이터(manipulator))
    "manipulator "
    # the figures of makers' data sheets as they name them (a contactor's
    # rated current, its share of dangerous failures, PFDavg, SIL CL...)
    "Ie RDF PFD PFDavg SFF RFID RPI URL CL"
)
ALLOWED = set(_ALLOWED_WORDS.split())
# Two or more letters: a single letter is a symbol (x, y, h, a point's name).
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*[A-Za-z]")
# Codes and addresses, not words: a rule's id (KR-223-openings), a web
# address or a domain named as a source (law.go.kr).
CODES = re.compile(
    r"\b(?:KR|INTL|EU|US)-[\w.-]+"
    # a symbol with a subscript (C_RO, t_cycle) or a label (LC1, LC-7)
    r"|\b\w+_\w+\b|\b[A-Z]{1,4}-?\d+\b"
    # a maker's part code (GL-R) or a model or part number (S120, E94AYAF)
    r"|\b[A-Z]{2,}-[A-Z0-9]+\b"
    r"|\b[\w-]*\d[\w-]*\b"
    r"|https?://\S+"
    # an annex's Roman number (Annex IV, class II)
    r"|(?<![A-Za-z])[IVX]{2,}(?![A-Za-z])"
    # a time zone's name (Asia/Seoul), a DXF header variable ($INSUNITS)
    r"|\b[A-Z][a-z]+/[A-Z][A-Za-z_]+\b|\$[A-Z]+\b"
    r"|\b(?=[0-9a-f]*\d)[0-9a-f]{6,}\b…?"
    r"|\b[\w-]+(?:\.[\w-]+)*\.(?:com|kr|eu|org|net|de|it|io|jp|gov|ee|sg|ls)(?![A-Za-z])[\w/.-]*"
)


def _typed_strings() -> set[str]:
    """Every text stored in the database that the catalogue cannot translate:
    what people typed, shown as typed. A text the app wrote in English (a
    suggestion, the space limits, a seeded catalogue line) has a Korean
    translation and stays in the check."""
    typed: set[str] = set()
    with translation.override("ko"):
        for model in apps.get_models():
            fields = [
                f.attname
                for f in model._meta.concrete_fields
                if isinstance(f, models.CharField | models.TextField)
            ]
            if not fields:
                continue
            # Where the app wrote a text, its source is stored beside it.
            sourced = any(f.name == "texts" for f in model._meta.concrete_fields)
            columns = [*fields, "texts"] if sourced else fields
            for row in model._default_manager.values_list(*columns):
                sources = (row[-1] or {}) if sourced else {}
                for field, value in zip(fields, row, strict=False):
                    if not isinstance(value, str) or not LATIN_WORD.search(value):
                        continue
                    shown = written.shown(
                        value, sources.get(field), translation.gettext
                    )
                    if shown == value:
                        typed.add(value)
    return typed


class _Text(HTMLParser):
    """The text a reader meets: element text (not scripts or styles) and the
    attributes read aloud or shown (title, alt, placeholder, aria-label)."""

    # Code is not prose: a column's or a file's name is shown as it is typed.
    SKIP = {"script", "style", "code", "kbd"}
    SHOWN = {"title", "alt", "placeholder", "aria-label"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skipping = 0
        self._skipped: list[str] = []

    def handle_starttag(self, tag, attrs):
        shown = dict(attrs)
        # Text marked English (lang="en") is skipped in two places only: a
        # list of sources is a bibliography (the public documents cited, named
        # in their own language), and the English proposal's texts shown or
        # edited beside the Korean ones on the Proposal tab.
        classes = set((shown.get("class") or "").split())
        english = shown.get("lang") == "en" and (
            bool(classes & {"sources", "authored"}) or tag == "textarea"
        )
        if tag in self.SKIP or english:
            self._skipping += 1
            self._skipped.append(tag)
        for name, value in attrs:
            if name in self.SHOWN and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if self._skipped and tag == self._skipped[-1]:
            self._skipped.pop()
            self._skipping -= 1

    def handle_data(self, data):
        if not self._skipping and data.strip():
            self.parts.append(data)


def _english(texts: list[str], typed: list[str]) -> dict[str, str]:
    """The Latin words left in ``texts`` once the typed strings (longest
    first), codes and addresses and the allowed words are taken out, each
    with where it was first met."""
    found: dict[str, str] = {}
    # Codes and numbers out of both first, so a typed text is found whatever
    # the page did with its numbers.
    typed = [CODES.sub(" ", value).strip() for value in typed]
    typed = [value for value in typed if LATIN_WORD.search(value)]
    for text in texts:
        text = CODES.sub(" ", text)
        if text.endswith("…") and any(v.startswith(text[:-1].strip()) for v in typed):
            continue  # a typed text, shortened to fit
        for value in typed:
            if value in text:
                # Whole words only: a typed "Co" leaves "Cobot" as it is.
                text = re.sub(
                    rf"(?<![A-Za-z]){re.escape(value)}(?![A-Za-z])", " ", text
                )
        for match in LATIN_WORD.finditer(text):
            word = match.group()
            if word not in ALLOWED and word not in found:
                start, end = max(0, match.start() - 50), match.end() + 50
                found[word] = " ".join(text[start:end].split())
    return found


def _report(where: str, found: dict[str, str]) -> list[str]:
    return [f"{where}: {word!r} in «{context}»" for word, context in found.items()]


@pytest.fixture
def demo(db):
    return demo_world()


@pytest.fixture
def typed(demo):
    return sorted(_typed_strings(), key=len, reverse=True)


def test_every_page_read_in_korean_has_no_english_the_app_wrote(client, demo, typed):
    problems: list[str] = []
    pages = [visit for visit in SIGNED_OUT if not visit.click]
    for visit in pages:
        problems += _page_problems(client, visit, typed)
    client.force_login(get_user_model().objects.get(username="safety"))
    for visit in visits(demo):
        if visit.click:
            continue  # the link's target is walked on its own
        problems += _page_problems(client, visit, typed)
    assert problems == [], "\n".join(problems)


def _page_problems(client, visit, typed) -> list[str]:
    response = client.get(visit.url, **KO)
    assert response.status_code == visit.status, visit.url
    parser = _Text()
    parser.feed(response.content.decode())
    return _report(visit.url, _english(parser.parts, typed))


@pytest.mark.parametrize("cell_name", ["케이스 팔레타이저 A", "머신 텐딩 협동로봇"])
def test_the_demo_proposals_in_korean_have_no_english_the_app_wrote(
    demo, typed, cell_name
):
    cell = demo["palletiser"] if cell_name == "케이스 팔레타이저 A" else demo["cobot"]
    proposal, _ = Proposal.objects.get_or_create(
        cell=cell,
        defaults={
            "number": "CSP-0001-0009",
            "created_by": demo["in_review"].created_by,
        },
    )
    document = ProposalDocument.objects.create(
        proposal=proposal,
        version=99,
        language="ko",
        sections=[key for key, _ in SECTION_CHOICES],
        requested_by=proposal.created_by,
    )
    pdf = build_proposal_pdf(proposal_data(document))
    reader = PdfReader(io.BytesIO(pdf))
    lines = [line for page in reader.pages for line in page.extract_text().splitlines()]
    # A typed text can wrap across lines in the PDF: compare it word by word.
    typed_words = {w for value in typed for w in LATIN_WORD.findall(value)}
    found = {
        w: where for w, where in _english(lines, typed).items() if w not in typed_words
    }
    problems = _report(f"{cell_name} proposal", found)
    assert problems == [], "\n".join(problems)
