"""The proposal PDF: what it says, its fonts, byte stability, long tables and
purity. No database: the builder reads only the data object."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from django.utils.translation import override
from pypdf import PdfReader

from compliance.proposals.pdf.builder import build_proposal_pdf
from compliance.proposals.pdf.data import SECTIONS, HazardRow
from compliance.proposals.pdf.kit import section_titles
from tests.compliance.proposals.pdf.samples import (
    SIGNED_HASH,
    draft_risk,
    large_proposal,
    sample_proposal,
)

ROOT = Path(__file__).resolve().parents[4]


def pages_text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def text_of(pdf: bytes) -> str:
    return "\n".join(pages_text(pdf))


@pytest.fixture(scope="module")
def english() -> str:
    return text_of(build_proposal_pdf(sample_proposal()))


@pytest.fixture(scope="module")
def large_pdf() -> bytes:
    return build_proposal_pdf(large_proposal())


# --- what it says ------------------------------------------------------------------


def test_every_section_title_is_in_the_pdf(english):
    with override("en"):
        titles = section_titles()
    for key in SECTIONS:
        assert titles[key] in english


def test_cover_names_the_proposal_and_its_people(english):
    for text in (
        "CSP-2026-0042",
        "Hanbit Foods (demo)",
        "Icheon plant (demo)",
        "Case palletiser A",
        "Jiwoo Park, safety engineer",
        "1 December 2026",
    ):
        assert text in english


def test_running_header_and_page_numbers_are_on_the_pages():
    pages = pages_text(build_proposal_pdf(sample_proposal()))
    assert len(pages) > 5
    for number, text in enumerate(pages[1:], start=2):
        assert "Proposal CSP-2026-0042 · version 2" in text
        assert f"Page {number} of {len(pages)}" in text


def test_figures_from_the_data_are_in_the_pdf(english):
    assert "KRW 38,000,000–61,000,000" in english  # the summary's total
    assert "KRW 8,400,000–17,700,000" in english  # the converted line items
    assert "S ≥ 544 mm" in english  # a minimum distance, on the plan
    assert "1,100" in english  # its actual distance, in the table
    assert "10–23 weeks" in english  # weeks to PoC start
    assert "9.75–22.25" in english
    assert "ISO 13855:2010, 6.2.3" in english  # a citation
    assert "required 850 mm" in english  # a failing finding's figures
    assert "2 items to be quoted, not in the total." in english  # in words


def test_open_findings_in_full_and_passes_summarised_by_rule(english):
    """Issue 15: 17 of 18 rows were passes repeating their citations. The
    fails, warnings and needs-evidence findings are shown whole; a pass is a
    line of its rule, with how many passed and of what."""
    flat = " ".join(english.split())
    assert "The 40 mm mesh of F1 is too close" in flat  # the fail, whole
    assert "mesh 40 mm" in flat and "required 850 mm" in flat  # its figures
    assert "Record whether the door switch holds KCs" in flat  # needs evidence
    assert "Checks passed" in english
    # The passes' own sentences and figures are not repeated.
    assert "LC1 stands far enough" not in flat
    assert "required distance 600 mm" not in flat
    assert "INTL-13857-REACH-OVER" in english and "INTL-13855-ESPE" in english


def test_rules_that_find_nothing_in_the_cell_are_named_not_listed():
    rules = sample_proposal().rules.model_copy(update={"left_out": ("INTL-15066-pfl",)})
    text = text_of(build_proposal_pdf(sample_proposal(rules=rules)))
    assert "Not applicable to this cell, so not listed: INTL-15066-pfl" in text


def test_a_hazards_plr_is_in_its_row():
    hazard = HazardRow(
        hazard="Crushing at the pallet station",
        phase="Operation",
        task="Jam recovery",
        plr="e",
        measures=("Two-hand control",),
        residual_risk="Acceptable",
    )
    risk = sample_proposal().risk.model_copy(update={"hazards": (hazard,)})
    text = text_of(build_proposal_pdf(sample_proposal(risk=risk)))
    assert "Jam recovery\ne\n" in text


def test_a_korean_proposal_shows_its_korean_text():
    text = text_of(build_proposal_pdf(sample_proposal("ko")))
    for korean in ("케이스 팔레타이저 A", "한빛식품(데모)", "위험성평가", "방호울"):
        assert korean in text


def test_a_korean_proposal_dates_as_a_korean_reader_does():
    """Issue 15: "2026년 12월 1일", not "2026-12-01", on the cover, in every
    page's footer and in the signed register's line."""
    text = text_of(build_proposal_pdf(sample_proposal("ko")))
    assert "2026년 12월 1일" in text
    assert "2026년 11월 27일" in text  # the register's signing
    assert "2026-12-01" not in text and "2026-11-27" not in text


def test_a_left_out_section_is_absent():
    data = sample_proposal(sections=("summary", "schedule"))
    text = text_of(build_proposal_pdf(data))
    with override("en"):
        titles = section_titles()
    assert titles["summary"] in text
    assert titles["schedule"] in text
    for key in ("cell", "rules", "risk", "findings", "costs", "terms"):
        assert titles[key] not in text
    assert "INTL-13857-OPENING" not in text  # a finding
    assert SIGNED_HASH not in text


def test_sections_are_numbered_in_document_order_whatever_the_given_order():
    data = sample_proposal(sections=("costs", "summary"))
    text = text_of(build_proposal_pdf(data))
    assert "1   Executive summary" in text
    assert "2   Safeguards and line items" in text


def test_a_draft_assessment_is_marked_draft():
    pdf = build_proposal_pdf(sample_proposal(risk=draft_risk()))
    pages = pages_text(pdf)
    register = [t for t in pages if "Residual risk" in t]
    assert register
    assert all("DRAFT" in t for t in register)
    assert "Revision 4 has not been signed" in "\n".join(pages)
    # The banner and watermark stay within the register's section.
    assert sum("DRAFT" in t for t in pages) == len(register)


def test_a_signed_assessment_shows_its_revision_and_hash(english):
    assert SIGNED_HASH in english
    assert "revision 3, signed by Jiwoo Park on 27 November 2026" in english
    assert "DRAFT" not in english


# --- fonts ---------------------------------------------------------------------------


def _fonts(resources, seen: set[int]) -> list:
    """Every font in a resource dictionary, including those of its forms."""
    found = []
    if resources is None:
        return found
    resources = resources.get_object()
    fonts = resources.get("/Font")
    if fonts is not None:
        found.extend(font.get_object() for font in fonts.get_object().values())
    xobjects = resources.get("/XObject")
    if xobjects is not None:
        for ref in xobjects.get_object().values():
            xobject = ref.get_object()
            key = id(xobject)
            if xobject.get("/Subtype") == "/Form" and key not in seen:
                seen.add(key)
                found.extend(_fonts(xobject.get("/Resources"), seen))
    return found


@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_font_is_embedded(language):
    pdf = build_proposal_pdf(sample_proposal(language, risk=draft_risk(language)))
    fonts = []
    seen: set[int] = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        fonts.extend(_fonts(page.get("/Resources"), seen))
    assert fonts
    for font in fonts:
        descendants = font.get("/DescendantFonts")
        if descendants is not None:
            font = descendants.get_object()[0].get_object()
        descriptor = font["/FontDescriptor"].get_object()
        assert {"/FontFile", "/FontFile2", "/FontFile3"} & set(descriptor), font
        assert "Nanum" in font["/BaseFont"]


# --- byte stability --------------------------------------------------------------------


def test_same_data_gives_the_same_bytes():
    assert build_proposal_pdf(sample_proposal()) == build_proposal_pdf(
        sample_proposal()
    )


def test_different_data_gives_different_bytes():
    first = build_proposal_pdf(sample_proposal())
    meta = sample_proposal().meta.model_copy(update={"version": 3})
    assert build_proposal_pdf(sample_proposal(meta=meta)) != first


def test_same_bytes_in_another_process():
    """Nothing in the file depends on the process (ids, hash seeds, time)."""
    code = (
        "import django, hashlib, sys; django.setup(); "
        "from compliance.proposals.pdf.builder import build_proposal_pdf; "
        "from tests.compliance.proposals.pdf.samples import sample_proposal; "
        "print(hashlib.sha256(build_proposal_pdf(sample_proposal('ko'))).hexdigest())"
    )
    env = {"DJANGO_SETTINGS_MODULE": "config.settings", "PATH": "/usr/bin:/bin"}
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            env={**env, "PYTHONHASHSEED": seed},
        ).stdout.strip()
        for seed in ("1", "2")
    }
    assert len(digests) == 1
    assert len(digests.pop()) == 64


# --- long tables -------------------------------------------------------------------------


def test_the_large_proposal_runs_over_many_pages(large_pdf):
    assert len(PdfReader(io.BytesIO(large_pdf)).pages) > 30


def test_long_tables_repeat_their_header_on_every_page(large_pdf):
    pages = pages_text(large_pdf)
    register = [t for t in pages if "Mechanical " in t and ": crushing" in t]
    assert len(register) > 10
    assert all("Residual risk" in t for t in register)
    items = [t for t in pages if "mounting brackets and wiring" in t]
    assert len(items) > 1
    assert all("Unit price" in t for t in items)
    # No row is lost where the tables split.
    text = "\n".join(pages)
    for number in (1, 100, 200):
        assert f"Mechanical {number}: crushing" in text
    for number in (1, 40, 80):
        assert f"Line {number}: safety component" in text


# --- purity ----------------------------------------------------------------------------


def test_builder_imports_no_database_and_no_models():
    code = (
        "import sys, compliance.proposals.pdf.builder, compliance.proposals.pdf.data; "
        "print(sorted(m for m in sys.modules "
        "if m.startswith('django.db') or m.endswith('.models') "
        "or m.startswith('django.conf.settings')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "[]"


def test_data_module_imports_no_django():
    code = (
        "import sys, compliance.proposals.pdf.data; "
        "print(sorted(m for m in sys.modules if m.startswith('django')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "[]"


def test_a_devices_kcs_certificate_number_is_in_the_cell_section():
    """The evidence for OSH Act Art. 84 on file is shown to the customer (a
    passed KCs finding is summarised, so its sentence no longer carries it)."""
    data = sample_proposal()
    layout = data.cell.layout
    devices = list(layout.devices)
    devices[0] = devices[0].model_copy(update={"kcs_certificate_no": "KCs-2026-0042"})
    cell = data.cell.model_copy(
        update={"layout": layout.model_copy(update={"devices": devices})}
    )
    text = text_of(build_proposal_pdf(sample_proposal(cell=cell)))
    assert "KCs safety certificates" in text and "KCs-2026-0042" in text
    plain = text_of(build_proposal_pdf(data))
    assert "KCs safety certificates" not in plain
