"""The safety functions in the proposal PDF: their verification (PLr and where
it comes from, PL reached, PFHd and its basis, verdict, block diagram and
working), their safety requirements specification and their validation plan,
in English and Korean; a cell without functions says so in a sentence."""

from __future__ import annotations

import datetime
import gettext
import io
import re

import pytest
from django.utils.translation import override, trans_real
from pypdf import PdfReader

from compliance.assessment import services as assessment_services
from compliance.proposals.building import build_document
from compliance.proposals.data import proposal_data
from compliance.proposals.data.safety_functions import (
    safety_function_rows as _safety_functions,
)
from compliance.proposals.pdf.builder import build_proposal_pdf
from compliance.proposals.pdf.data import (
    PfhdFigure,
    PlannedTest,
    PlrSource,
    Row,
    SafetyFunctionRow,
    Specification,
    SubsystemRow,
    ValidationResult,
)
from compliance.proposals.pdf.kit import section_titles
from compliance.proposals.services import proposal_request
from compliance.safety_functions import selectors as function_selectors
from compliance.safety_functions import services
from tests.compliance.conftest import sign_revision
from tests.compliance.proposals.pdf.samples import sample_proposal

# The customer's safety functions, and the appendix with their ISO 13849
# working, specification and validation plan (issue 30).
SECTIONS = ["risk", "safety_functions", "working", "specification", "validation"]
# The functions, their subsystems and records, and the assessment's revisions,
# hazards and measures (Table K.1 is read only for designed subsystems).
QUERIES = 7
CURTAIN = {
    "role": "input",
    "label": "Light curtain LC1",
    "route": "certified",
    "pl": "e",
    "pfhd_per_hour": 3.7e-9,
}
RELAY = {
    "role": "logic",
    "label": "Safety relay",
    "route": "certified",
    "pl": "e",
    "pfhd_per_hour": 2.31e-9,
}
ROBOT = {
    "role": "output",
    "label": "Robot safety input",
    "route": "certified",
    "pl": "d",
    "pfhd_per_hour": 1.3e-7,
}


def pages_of(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def flat(pdf: bytes) -> str:
    """The PDF's text with every run of white space one space."""
    return " ".join(" ".join(pages_of(pdf)).split())


# --- from the database ------------------------------------------------------------


@pytest.fixture
def signed(revision, hazard, safety_engineer):
    """Revision 1 signed with the crushing hazard (S2, F2, P1: PLr d)."""
    submitted = assessment_services.revision_submit(
        revision=revision, actor=safety_engineer
    )
    return sign_revision(submitted, safety_engineer)


def light_curtain_function(cell, actor, hazard, **fields):
    function = services.function_create(
        cell=cell,
        actor=actor,
        name=fields.pop("name", "Infeed light curtain: protective stop"),
        safeguard="guarded_opening",
        trigger=fields.pop("trigger", "Light curtain LC1 at the infeed interrupted"),
        reaction=fields.pop("reaction", "Robot protective stop"),
        stop_category="1",
        hazard_keys=[str(hazard.key)],
        **fields,
    )
    for values in (CURTAIN, RELAY, ROBOT):
        services.subsystem_add(function=function, actor=actor, **values)
    return function


def built(cell, actor, language: str, sections=SECTIONS) -> bytes:
    document = proposal_request(
        cell=cell, actor=actor, language=language, sections=sections
    )
    assert build_document(document.pk, claim="t") == "ready"
    document.refresh_from_db()
    return bytes(document.pdf)


def test_the_pdf_verifies_specifies_and_plans_a_light_curtain_function(
    cell, signed, hazard, safety_engineer
):
    function = light_curtain_function(cell, safety_engineer, hazard)
    services.validation_record_add(
        function=function,
        actor=safety_engineer,
        test="stopping_time",
        performed_by="K. Lee",
        performed_on=datetime.date(2026, 11, 30),
        instrument="Stopping-time meter SM-7",
        measured_value="212 ms",
        outcome="passed",
        notes="internal: rerun after the brake change",
    )
    text = flat(built(cell, safety_engineer, "en"))

    # The verification: PLr d from the signed hazard, PL d, the PFHd summed
    # from the makers' figures, the verdict with its reason.
    assert "Infeed light curtain: protective stop" in text
    assert "PLr d · revision 1 of the risk assessment, signed" in text
    assert "Loading parts at the infeed (PLr d)" in text
    assert "PL reached PL d" in text
    assert "Basis: the makers' figures." in text
    assert "Needs evidence" in text
    # Issue 17: the validation is cited in ISO 13849-1:2023, Clause 10.
    assert "the validation (ISO 13849-1:2023, 10) is not yet recorded as passed" in text
    # The block diagram's boxes and the bar, and the working per subsystem.
    assert "Light curtain LC1" in text and "Robot safety input" in text
    assert "PLr d" in text
    assert "The maker's figures for a certified subsystem" in text
    assert "sum of its subsystems' PFHd" in text
    assert re.search(r"1\.36 × 10 ?-7", text)
    # The specification, and what is still to be stated.
    assert "Trigger Light curtain LC1 at the infeed interrupted" in text
    assert "Reaction Robot protective stop" in text
    assert "Stop category 1 (controlled stop, then power removed)" in text
    assert "State the reset and the restart behaviour." in text
    # The validation plan: each test and the result recorded, by whom.
    for title in (
        "Functional test of the safety function",
        "Stopping-time measurement",
        "Fault injection",
        "Reset and restart",
    ):
        assert title in text
    assert "K. Lee 2026-11-30 Stopping-time meter SM-7 212 ms Pass" in text
    # What the customer reads holds no internal notes or sources' file names.
    assert "internal: rerun" not in text
    for internal in ("code-index", ".json", "/work/"):
        assert internal not in text


def test_the_korean_pdf_shows_the_function_and_its_verdict_in_korean(
    cell, signed, hazard, safety_engineer
):
    light_curtain_function(
        cell,
        safety_engineer,
        hazard,
        name="투입구 라이트 커튼: 보호 정지",
        trigger="투입구 라이트 커튼 LC1 차단",
        reaction="로봇 보호 정지",
    )
    text = flat(built(cell, safety_engineer, "ko"))

    assert "투입구 라이트 커튼: 보호 정지" in text
    assert "투입구 라이트 커튼 LC1 차단" in text and "로봇 보호 정지" in text
    assert "근거 필요" in text  # "Needs evidence", from the catalogue
    assert "Needs evidence" not in text
    # Every fixed label is read from the Korean catalogue: the titles come
    # out as it translates them (in Korean once the translations are added).
    with override("ko"):
        titles = section_titles()
    for key in ("safety_functions", "specification", "validation"):
        assert titles[key] in text


def test_a_function_below_its_plr_fails_first_with_each_basis_named(
    cell, signed, hazard, safety_engineer
):
    light_curtain_function(cell, safety_engineer, hazard)
    door = services.function_create(
        cell=cell,
        actor=safety_engineer,
        name="Door D1 interlock: safe torque off",
        safeguard="door_interlock",
        trigger="Door D1 opened",
        reaction="Safe torque off",
        stop_category="0",
        hazard_keys=[str(hazard.key)],
    )
    for values in (
        {
            "role": "input",
            "label": "Door switch pair",
            "route": "designed",
            "category": "3",
            "mttfd_years": 50,
            "dcavg_percent": 95,
            "ccf_measures": [
                "separation",
                "diversity",
                "fmea",
                "competence",
                "emc_contamination",
                "other_environment",
            ],
        },
        {"role": "logic", "label": "Safety relay", "route": "pl_only", "pl": "d"},
        {
            "role": "output",
            "label": "Contactors",
            "route": "certified",
            "pl": "c",
            "pfhd_per_hour": 2e-6,
        },
    ):
        services.subsystem_add(function=door, actor=safety_engineer, **values)
    pages = pages_of(built(cell, safety_engineer, "en"))
    section = " ".join(
        " ".join(pages[1:]).split()  # after the cover's contents
    )

    assert section.index("Door D1 interlock") < section.index("Infeed light curtain")
    assert "Fail Door D1 interlock: safe torque off Door interlock d c" in section
    assert "The PL reached, c, is below the PLr d." in section
    assert "Basis, per subsystem:" in section
    assert "Door switch pair: the range of PL d: Table K.1 is not available" in section
    assert "Safety relay: the value ISO 13849-1 assumes for the PL" in section
    assert "Contactors: the makers' figures" in section
    # The designed subsystem's working, and that part of it rests on one source.
    assert "Simplified procedure (ISO 13849-1:2015, 6.1.8 and Table 6" in section
    assert "Rests on one public source" in section


def test_the_stored_data_rebuilds_the_same_pdf(cell, signed, hazard, safety_engineer):
    from compliance.proposals.pdf.data import ProposalData

    light_curtain_function(cell, safety_engineer, hazard)
    document = proposal_request(
        cell=cell, actor=safety_engineer, language="ko", sections=SECTIONS
    )
    assert build_document(document.pk, claim="t") == "ready"
    document.refresh_from_db()
    rebuilt = build_proposal_pdf(ProposalData.model_validate(document.data))
    assert rebuilt == bytes(document.pdf)


def test_the_data_of_a_cell_without_functions_has_none(cell, safety_engineer):
    document = proposal_request(
        cell=cell, actor=safety_engineer, language="en", sections=SECTIONS
    )
    assert proposal_data(document).safety_functions == ()


@pytest.mark.parametrize("count", [1, 4])
def test_the_proposal_reads_the_functions_in_a_fixed_number_of_queries(
    cell, signed, hazard, safety_engineer, django_assert_num_queries, count
):
    for index in range(count):
        light_curtain_function(cell, safety_engineer, hazard, name=f"F{index}")
    with django_assert_num_queries(QUERIES):
        found = _safety_functions(function_selectors.cell_functions(cell))
    assert len(found) == count


# --- from the data alone ---------------------------------------------------------------


def _function(name: str = "LC1: protective stop", **changes) -> SafetyFunctionRow:
    values = {
        "name": name,
        "safeguard": "Guarded opening (sensing device)",
        "device": "LC1",
        "status": "needs_evidence",
        "reasons": ("The validation is not yet recorded as passed.",),
        "plr": PlrSource(
            plr="d",
            hazards=(Row(label="Loading parts at the infeed", value="PLr d"),),
            revision=1,
            signed=True,
        ),
        "pl": "d",
        "pfhd": PfhdFigure(basis="maker", per_hour=1.3601e-7),
        "steps": ("PFHd = 3.7 × 10⁻⁹ + 2.31 × 10⁻⁹ + 1.3 × 10⁻⁷ = 1.36 × 10⁻⁷ /h",),
        "clause": "ISO 13849-1:2015, 6.3",
        "subsystems": (
            SubsystemRow(
                role="input",
                role_label="Input (sensor)",
                label="Light curtain LC1",
                route="Certified",
                pl="e",
                pfhd=PfhdFigure(basis="maker", per_hour=3.7e-9),
                steps=("PL e, PFHd = 3.7 × 10⁻⁹ /h",),
            ),
            SubsystemRow(
                role="output",
                role_label="Output (actuator)",
                label="Robot safety input",
                route="Certified",
                pl="d",
                pfhd=PfhdFigure(basis="maker", per_hour=1.3e-7),
            ),
        ),
        "specification": Specification(
            trigger="LC1 interrupted",
            reaction="Protective stop",
            stop_category="Stop category 1",
            response_time_needed=True,
            gaps=("State the reset and the restart behaviour.",),
        ),
        "plan": (
            PlannedTest(
                title="Stopping-time measurement",
                procedure="Measure the overall stopping time.",
                record="The longest stopping time in ms.",
            ),
        ),
    }
    return SafetyFunctionRow(**{**values, **changes})


def _pdf(*functions: SafetyFunctionRow, language: str = "en", **changes) -> bytes:
    data = sample_proposal(
        language,
        sections=changes.pop("sections", tuple(SECTIONS)),
        safety_functions=functions,
        **changes,
    )
    return build_proposal_pdf(data)


def test_a_cell_without_functions_gets_a_sentence_not_a_table():
    text = flat(_pdf())
    sentence = "No safety function is specified for this cell yet."
    # One in each of the four sections.
    assert text.count(sentence) == 4
    assert "the performance level (PL) of the safeguards is not verified" in text
    for header in ("Verdict", "Performed by", "Stop category"):
        assert header not in text


def test_fails_come_first():
    passing = _function("Door D1: stop", status="pass")
    failing = _function("Scanner S1: stop", status="fail", pl="c")
    pages = pages_of(_pdf(passing, failing))[1:]  # after the cover's contents
    for title in ("2   Safety functions", "C   Appendix: Validation plan"):
        page = next(p for p in pages if title in p)
        assert page.index("Scanner S1: stop") < page.index("Door D1: stop")


def test_a_plr_from_a_draft_is_marked_not_signed():
    draft = PlrSource(plr="d", revision=2, signed=False)
    text = flat(_pdf(_function(plr=draft)))
    assert "revision 2 of the risk assessment: draft, not signed" in text


def test_the_pfhd_names_its_basis():
    k1 = _function(
        "Designed stop",
        pfhd=PfhdFigure(basis="table_k1", per_hour=2.5e-8),
        k1_source="Acme Integration's licensed copy",
        subsystems=(),
    )
    ranged = _function(
        "Unknown stop",
        pl="d",
        pfhd=PfhdFigure(basis="pl_range", low_per_hour=1e-7, high_per_hour=1e-6),
        subsystems=(),
    )
    text = flat(_pdf(k1, ranged))
    assert "ISO 13849-1 Table K.1, from Acme Integration's licensed copy" in text
    assert "the range of PL d: Table K.1 is not available" in text


def test_results_are_filled_from_the_records_and_blank_lines_left_to_fill_in():
    recorded = PlannedTest(
        title="Fault injection",
        procedure="Simulate the faults.",
        record="Each fault injected.",
        results=(
            ValidationResult(
                performed_by="K. Lee",
                performed_on=datetime.date(2026, 11, 30),
                instrument="Test box",
                value="4 of 4 detected",
                passed=False,
            ),
        ),
    )
    planned = PlannedTest(
        title="Muting", procedure="Check the sequence.", record="Each sequence."
    )
    text = flat(_pdf(_function(plan=(recorded, planned))))
    assert "K. Lee 2026-11-30 Test box 4 of 4 detected Fail" in text
    # Two blank lines under the record, three under the test not yet done.
    assert text.count("Pass / Fail") == 2 + 3


def test_a_missing_statement_is_marked_to_be_stated():
    spec = Specification(reaction="Protective stop", response_time_needed=True)
    text = flat(_pdf(_function(specification=spec)))
    assert "Trigger To be stated" in text
    assert "Required response time To be stated" in text
    assert "Reset To be stated" in text


def test_the_page_count_grows_by_a_bounded_amount():
    without = len(pages_of(_pdf(sections=("risk",))))
    none = len(pages_of(_pdf()))
    plan = tuple(
        PlannedTest(title=title, procedure="What to do. " * 8, record="What to note.")
        for title in ("Functional test", "Stopping time", "Faults", "Reset")
    )
    one = len(pages_of(_pdf(_function(plan=plan))))
    three = len(pages_of(_pdf(*(_function(f"F{i}", plan=plan) for i in range(3)))))
    assert none == without + 4  # a page with a sentence per section
    assert none <= one <= none + 2
    assert one < three <= one + 2 * 3  # at most three pages more per function


def test_the_same_functions_give_the_same_bytes():
    assert _pdf(_function(), language="ko") == _pdf(_function(), language="ko")


class _Marked(gettext.NullTranslations):
    """A catalogue that marks every message, to see which labels it is asked for."""

    def gettext(self, message: str) -> str:
        return f"한:{message}"

    def to_language(self) -> str:
        return "ko"


def test_every_label_is_looked_up_in_the_documents_language(monkeypatch):
    # The PDF translates as the pages do (Django's catalogue, issue 26).
    monkeypatch.setattr(trans_real, "translation", lambda language: _Marked())
    text = flat(_pdf(_function(), language="ko"))
    for label in (
        "Safety functions",
        "Safety requirements specification",
        "Validation plan",
        "Verdict",
        "PL reached",
        "Needs evidence",
        "Working",
        "Trigger",
        "To be stated",
        "Performed by",
        "Instrument",
        "Pass or fail",
    ):
        assert f"한:{label}" in text, label
