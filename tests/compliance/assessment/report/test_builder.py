"""The report PDF built from plain data (no database): what a safety engineer
files must say what was signed, by whom, and whether the seal holds."""

from __future__ import annotations

import io
import subprocess
import sys
from datetime import date

import pytest
from django.utils.translation import gettext, override
from pypdf import PdfReader

from compliance.assessment.report.builder import build_report_pdf, long_date
from tests.compliance.assessment.report.samples import sample_report

VERIFIES = "The seal verifies: the revision is as it was signed."
DOES_NOT_VERIFY = "The seal does not verify"


def pages(pdf: bytes) -> list[str]:
    return [
        " ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages
    ]


def text(pdf: bytes) -> str:
    return "\n".join(pages(pdf))


def in_korean(message: str) -> str:
    with override("ko"):
        return gettext(message)


def test_the_signed_report_names_hazards_plr_signer_and_the_seal():
    shown = text(build_report_pdf(sample_report()))
    assert "Signed risk assessment (ISO 12100)" in shown
    assert "Loading parts at the infeed 1" in shown
    assert "Loading parts at the infeed 2" in shown
    assert "S2 F2 P1" in shown
    assert "Kim Minji" in shown and "Safety engineer" in shown
    assert "1 December 2026" in shown
    assert "I have assessed the risks of this cell as recorded." in shown
    assert "ab" * 32 in shown
    assert VERIFIES in shown
    assert DOES_NOT_VERIFY not in shown
    assert "DRAFT" not in shown


def test_the_register_shows_the_plr_of_each_hazard():
    pdf = build_report_pdf(sample_report(hazards=1))
    register = next(p for p in pages(pdf) if "Hazard register" in p)
    assert "S2 F2 P1 d High" in register


def test_measures_are_grouped_by_the_three_steps_in_order():
    shown = text(build_report_pdf(sample_report(hazards=1)))
    first = shown.index("1. Inherently safe design")
    second = shown.index("2. Safeguarding and complementary measures")
    third = shown.index("3. Information for use")
    assert first < shown.index("Lower speed") < second
    assert second < shown.index("Light curtain at the infeed") < third
    assert third < shown.index("Warning sign")


def test_a_seal_that_does_not_verify_is_never_printed_as_verified():
    shown = text(build_report_pdf(sample_report(verifies=False)))
    assert DOES_NOT_VERIFY in shown
    assert "The seal verifies" not in shown


def test_a_draft_is_marked_not_signed_on_every_page():
    pdf = build_report_pdf(sample_report(status="draft", hazards=30))
    every = pages(pdf)
    assert len(every) > 2
    assert all("DRAFT — not signed" in page for page in every)
    assert "Signed risk assessment" not in text(pdf)
    assert "Not signed: this revision has no content hash" in text(pdf)


def test_pages_are_numbered_n_of_m():
    every = pages(build_report_pdf(sample_report()))
    total = len(every)
    for number, page in enumerate(every, start=1):
        assert f"Page {number} of {total}" in page


def test_the_korean_report_dates_and_numbers_pages_as_a_korean_reader_does():
    pdf = build_report_pdf(sample_report(language="ko"))
    shown = text(pdf)
    assert "2026년 12월 1일" in shown
    assert in_korean("Page %(page)s of %(total)s") % {"page": 1, "total": 4} in shown
    assert "Loading parts at the infeed 1" in shown  # the engineer's own words
    assert "Kim Minji" in shown
    assert " ".join(in_korean(VERIFIES).split()) in shown


def test_the_korean_report_of_a_tampered_revision_does_not_say_verified():
    shown = text(build_report_pdf(sample_report(language="ko", verifies=False)))
    assert " ".join(in_korean(VERIFIES).split()) not in shown


def test_a_korean_draft_is_marked_on_every_page():
    pdf = build_report_pdf(sample_report(language="ko", status="draft"))
    mark = in_korean("DRAFT — not signed")
    assert all(mark in page for page in pages(pdf))


@pytest.mark.parametrize(
    "language, expected",
    [("ko", "2026년 12월 1일"), ("en", "1 December 2026")],
)
def test_dates_are_written_in_the_readers_format(language, expected):
    assert long_date(date(2026, 12, 1), language) == expected


def test_the_same_data_gives_the_same_bytes():
    assert build_report_pdf(sample_report()) == build_report_pdf(sample_report())


def test_the_report_builder_uses_no_more_of_django_than_its_translation():
    # Its fixed labels come from Django's catalogue, as the pages' do; no ORM,
    # no settings-bound app code.
    code = (
        "import sys, django.utils.translation; "
        "allowed = {m for m in sys.modules if m.split('.')[0] == 'django'}; "
        "import compliance.assessment.report.builder; "
        "import compliance.assessment.report.data; "
        "sys.exit(1 if {m for m in sys.modules if m.split('.')[0] == 'django'}"
        " - allowed else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_the_declaration_is_timed_in_the_zone_it_is_given_and_names_it():
    """The cover's dates are the site's (Seoul): the declaration's time is too,
    named, so the two never disagree about the day."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    data = sample_report()
    seoul = datetime(2026, 12, 2, 4, 34, tzinfo=ZoneInfo("Asia/Seoul"))
    data = data.model_copy(
        update={"declaration": data.declaration.model_copy(update={"signed_at": seoul})}
    )
    shown = text(build_report_pdf(data))
    assert "kim declared on 2 December 2026 at 04:34 KST:" in shown
    assert "UTC" not in shown
