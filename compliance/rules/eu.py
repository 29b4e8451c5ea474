"""EU / EEA rule packs: the Machinery Directive 2006/42/EC until 19 January
2027, the Machinery Regulation (EU) 2023/1230 from 20 January 2027.

Which applies to a cell follows from when it is planned to be put into
service (``CellFacts.planned_start``; without one, the day of the check).
The integrator who joins a robot, its tooling, guards and other machines
into a cell is the manufacturer of an assembly of machinery: the risk
assessment of the whole, the conformity assessment procedure its Annex
listing allows, the technical documentation, the declaration of conformity
and the CE marking are the integrator's. The Regulation adds the
substantial modification of machinery in service (Art. 3(16), Art. 18) and
protection against corruption of safety-related software and data (Annex
III 1.1.9).

The legal texts were read in secondary sources (named with each rule), not
in EUR-Lex: every rule says so and is at most ``secondary_sources``. The
checks rest on records (the signed revision, the safety functions and their
validation, the cell's Annex listing and procedure, the devices already in
place, the safety configuration) and on the plan, never on text. Pure Python,
no Django.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from compliance.calculators.base import Line, gettext_noop
from compliance.rules.facts import CELL_SUBJECT, CellFacts
from compliance.rules.findings import (
    Finding,
    Rule,
    RuleCertainty,
    Status,
)
from compliance.rules.robot import config_finding, config_state
from compliance.safety_functions.verification import function_status

_CELL = (CELL_SUBJECT, gettext_noop("Cell"))

# When the Regulation starts to apply and the Directive is repealed (Art. 54
# and Art. 51(2) as corrected by the corrigendum of 4 July 2023; first
# published as 14 January 2027).
REGULATION_APPLIES_FROM = date(2027, 1, 20)
DIRECTIVE_LAST_DAY = date(2027, 1, 19)
CHECKED_ON = date(2026, 12, 2)  # when these texts were read

Instrument = Literal["directive", "regulation"]

# Sources, as read (search of public pages, December 2026).
SRC_DATES = (
    "https://adt-zielke.com/en/eu-machinery-regulation-ripe-for-your-calendar "
    "(Regulation (EU) 2023/1230 applies from 20 January 2027 after the "
    "corrigendum published in the OJ on 4 July 2023)",
    "https://cem4.eu/en/news/13-content/13-machinery-directive (Regulation (EU) "
    "2023/1230 Art. 51: 'Directive 2006/42/EC is repealed with effect from 20 "
    "January 2027')",
    "https://www.advolo.it/en/news/the-new-machinery-regulation-1230-2023/ "
    "(in force 19 July 2023; Directive 2006/42/EC until 20 January 2027)",
)
SRC_ASSEMBLY = (
    "https://noex.se/en/articles/sammansatta-maskiner-vem-ansvarar-f%C3%B6r-ce-"
    "m%C3%A4rkningen (whoever assembles machines into a whole is the "
    "manufacturer: CE marking, new risk assessment of the whole)",
    "https://tpsafety.de/en/manufacturer/assemblies-of-machinery (the "
    "integrator linking machines is the manufacturer of the assembly and "
    "carries out the conformity assessment)",
)
SRC_ROUTE = (
    "https://www.sorena.io/artifacts/eu/machinery-regulation/conformity-"
    "assessment-and-ce (Art. 25: Annex I Part A needs a notified-body "
    "procedure; Part B allows module A only with harmonised standards or "
    "common specifications covering all relevant EHSRs; not listed: module A)",
    "https://github.com/jherrodthomas/reBot-DevArm/wiki/Machinery-Regulation "
    "(risk assessment, Annex IV technical documentation, module A or notified "
    "body, EU declaration, CE marking)",
)
SRC_DIRECTIVE = (
    "https://en.declaration.tech/kopiya-2014-30-es (Directive 2006/42/EC: "
    "Annex IV categories need a notified body unless a harmonised standard "
    "covers all the essential requirements; EC declaration and technical file "
    "in every case)",
    "https://vdocuments.us/guide-md-preambles-and-articles-july-2009.html "
    "(European Commission, Guide to application of the Machinery Directive "
    "2006/42/EC: conformity assessment, Annex IV machinery, CE marking, "
    "technical file)",
)
SRC_MODIFICATION = (
    "https://www.sorena.io/artifacts/eu/machinery-regulation/substantial-"
    "modification (Art. 3(16) definition; Art. 18 makes whoever carries out a "
    "substantial modification the manufacturer)",
    "https://hazardlens.ai/blog/the-substantial-modification-trap (the three "
    "criteria, incl. added guards or protective devices that need the safety "
    "control system changed)",
    "https://gt-engineering.it/en/insights/machinery-directive/machinery-"
    "substantial-modifications (Regulation recital 26)",
)
SRC_CORRUPTION = (
    "https://advolo.it/en/?p=3958 (Annex III 1.1.9: software and data critical "
    "for compliance identified and protected against corruption; evidence of "
    "interventions collected)",
    "https://physical-ai-safety.com/he/blog/annex-iii-five-new-clauses (Annex "
    "III 1.1.9 protection against corruption; 1.2.1 safety and reliability of "
    "control systems)",
    "https://www.sorena.io/artifacts/eu/machinery-regulation/software-and-"
    "cybersecurity-considerations (1.1.9 as the Regulation's cybersecurity "
    "hook)",
)
SRC_HARMONISED = (
    "https://ics-cert.org/servicedetail/2023-1230-eu-machinery-regulation "
    "(technical details mainly through European harmonised standards)",
    "https://www.sorena.io/artifacts/eu/machinery-regulation/checklist "
    "(harmonised standards cited in the OJ support the presumption of "
    "conformity)",
)

LAW_CAVEAT = gettext_noop(
    "The legal text was read in secondary sources and has not been checked "
    "against EUR-Lex: confirm it there before relying on this finding."
)
_CAVEAT_EN = " Read in secondary sources; confirm against the official text on EUR-Lex."
_CAVEAT_KO = " ※ 2차 자료로 확인한 내용입니다. EUR-Lex의 공식 본문으로 확인하십시오."


def instrument(facts: CellFacts) -> Instrument:
    """The Directive for a cell put into service up to 19 January 2027, the
    Regulation from 20 January 2027: by the planned start, else the day of
    the check; with neither known, the Regulation (the law from 2027)."""
    day = facts.planned_start or facts.checked_on
    if day is not None and day < REGULATION_APPLIES_FROM:
        return "directive"
    return "regulation"


def _start_notes(facts: CellFacts) -> tuple[Line, ...]:
    if facts.planned_start is not None:
        return ()
    return (
        Line(
            text=gettext_noop(
                "No planned start of service is recorded for the cell: the "
                "applicable law was chosen by the day of the check. Record the "
                "planned start (the Directive applies up to 19 January 2027, the "
                "Regulation from 20 January 2027)."
            )
        ),
    )


def _due(facts: CellFacts) -> bool:
    """The cell is planned to be in service by the day of the check."""
    return (
        facts.planned_start is not None
        and facts.checked_on is not None
        and facts.planned_start <= facts.checked_on
    )


# --- the integrator as the manufacturer of an assembly: risk assessment ------


def _risk_assessment(rule: Rule, facts: CellFacts) -> list[Finding]:
    a = facts.assessment
    notes = _start_notes(facts)
    values: dict[str, str | int | float] = {}
    if a.signed:
        values["revision"] = a.signed_revision or 0
        status, message = (
            Status.PASS,
            gettext_noop(
                "As manufacturer of the cell, an assembly of machinery, the "
                "integrator has a signed risk assessment of the whole cell "
                "(revision %(revision)s)."
            ),
        )
    elif _due(facts):
        values["start"] = facts.planned_start.isoformat()  # type: ignore[union-attr]
        status, message = (
            Status.FAIL,
            gettext_noop(
                "The cell is planned to be in service from %(start)s, but no signed "
                "risk assessment of the whole cell is recorded: as manufacturer "
                "of the assembly the integrator must carry it out before the "
                "cell is put into service."
            ),
        )
    else:
        status, message = (
            Status.NEEDS_EVIDENCE,
            gettext_noop(
                "As manufacturer of the cell, an assembly of machinery, the "
                "integrator must carry out and document a risk assessment of the "
                "whole cell before it is put into service: complete and sign it."
            ),
        )
    return [rule.finding(status, _CELL, message, values=values, notes=notes)]


# --- the conformity assessment procedure ---------------------------------------

PROCEDURE_LABELS = {
    "internal_control": gettext_noop("internal production control (module A)"),
    "type_examination": gettext_noop("EU type-examination (modules B and C)"),
    "full_quality_assurance": gettext_noop("full quality assurance (module H)"),
    "unit_verification": gettext_noop("unit verification (module G)"),
}
_RECORD_CATEGORY = gettext_noop(
    "Record whether the cell, or a machine or safety component in it that you "
    "place on the market, is listed in Annex I (Part A or Part B), and which "
    "conformity assessment procedure you follow."
)


def _route_regulation(facts: CellFacts) -> list[Finding]:
    rule = ROUTE_REGULATION
    c = facts.conformity
    if c.annex_category is None or c.procedure is None:
        return [rule.finding(Status.NEEDS_EVIDENCE, _CELL, _RECORD_CATEGORY)]
    values = {"procedure": PROCEDURE_LABELS[c.procedure]}
    internal = c.procedure == "internal_control"
    if c.annex_category == "part_a":
        if internal:
            return [
                rule.finding(
                    Status.FAIL,
                    _CELL,
                    gettext_noop(
                        "Machinery listed in Annex I Part A cannot follow "
                        "%(procedure)s: Art. 25(2) asks for EU type-examination "
                        "(B + C), full quality assurance (H) or unit verification "
                        "(G), each with a notified body."
                    ),
                    values=values,
                )
            ]
        return [_route_ok(rule, values)]
    if c.annex_category == "part_b":
        if not internal:
            return [_route_ok(rule, values)]
        if c.harmonised_standards is True:
            return [
                rule.finding(
                    Status.PASS,
                    _CELL,
                    gettext_noop(
                        "Annex I Part B machinery designed to harmonised standards "
                        "or common specifications that cover all its relevant "
                        "essential requirements may follow %(procedure)s (Art. "
                        "25(3))."
                    ),
                    values=values,
                )
            ]
        if c.harmonised_standards is False:
            return [
                rule.finding(
                    Status.FAIL,
                    _CELL,
                    gettext_noop(
                        "Annex I Part B machinery not designed to harmonised "
                        "standards or common specifications covering all its "
                        "relevant essential requirements cannot follow "
                        "%(procedure)s: Art. 25(3) asks for a notified-body "
                        "procedure (B + C, H or G)."
                    ),
                    values=values,
                )
            ]
        return [
            rule.finding(
                Status.NEEDS_EVIDENCE,
                _CELL,
                gettext_noop(
                    "Annex I Part B machinery may follow %(procedure)s only if it "
                    "is designed to harmonised standards or common specifications "
                    "that cover all its relevant essential requirements: record "
                    "whether it is."
                ),
                values=values,
            )
        ]
    if internal:
        return [
            rule.finding(
                Status.PASS,
                _CELL,
                gettext_noop(
                    "Machinery not listed in Annex I follows %(procedure)s (Art. "
                    "25(4)): the integrator draws up the technical documentation "
                    "and declares conformity without a notified body."
                ),
                values=values,
            )
        ]
    return [
        rule.finding(
            Status.WARNING,
            _CELL,
            gettext_noop(
                "Art. 25(4) names internal production control (module A) for "
                "machinery not listed in Annex I; %(procedure)s is recorded. Check "
                "that the procedure chosen is open to this machinery."
            ),
            values=values,
        )
    ]


def _route_ok(rule: Rule, values: dict[str, str]) -> Finding:
    return rule.finding(
        Status.PASS,
        _CELL,
        gettext_noop(
            "The procedure recorded, %(procedure)s, involves a notified body, as "
            "the Annex I listing allows."
        ),
        values=values,
    )


def _route_directive(facts: CellFacts) -> list[Finding]:
    rule = ROUTE_DIRECTIVE
    c = facts.conformity
    if c.annex_category is None or c.procedure is None:
        return [
            rule.finding(
                Status.NEEDS_EVIDENCE,
                _CELL,
                gettext_noop(
                    "Record whether the cell, or a machine or safety component in "
                    "it that you place on the market, is one of the categories of "
                    "Annex IV, and which conformity assessment procedure you "
                    "follow."
                ),
            )
        ]
    values = {"procedure": PROCEDURE_LABELS[c.procedure]}
    if c.procedure == "unit_verification":
        return [
            rule.finding(
                Status.FAIL,
                _CELL,
                gettext_noop(
                    "The Directive has no unit verification (module G): follow "
                    "internal checks (Annex VIII), EC type-examination (Annex IX) "
                    "or full quality assurance (Annex X)."
                ),
                values=values,
            )
        ]
    listed = c.annex_category in ("part_a", "part_b")
    internal = c.procedure == "internal_control"
    if not listed:
        if internal:
            return [
                rule.finding(
                    Status.PASS,
                    _CELL,
                    gettext_noop(
                        "Machinery not in Annex IV follows internal checks on the "
                        "manufacture (Annex VIII, %(procedure)s)."
                    ),
                    values=values,
                )
            ]
        return [
            rule.finding(
                Status.WARNING,
                _CELL,
                gettext_noop(
                    "Machinery not in Annex IV follows internal checks on the "
                    "manufacture (Annex VIII); %(procedure)s is recorded. Check "
                    "that the procedure chosen is open to this machinery."
                ),
                values=values,
            )
        ]
    if not internal:
        return [_route_ok(rule, values)]
    if c.harmonised_standards is True:
        return [
            rule.finding(
                Status.PASS,
                _CELL,
                gettext_noop(
                    "Annex IV machinery built to harmonised standards that cover "
                    "all the relevant essential requirements may follow internal "
                    "checks (Annex VIII)."
                ),
                values=values,
            )
        ]
    if c.harmonised_standards is False:
        return [
            rule.finding(
                Status.FAIL,
                _CELL,
                gettext_noop(
                    "Annex IV machinery not built to harmonised standards covering "
                    "all the relevant essential requirements cannot follow "
                    "internal checks: EC type-examination (Annex IX) or full "
                    "quality assurance (Annex X) with a notified body."
                ),
                values=values,
            )
        ]
    return [
        rule.finding(
            Status.NEEDS_EVIDENCE,
            _CELL,
            gettext_noop(
                "Annex IV machinery may follow internal checks only if built to "
                "harmonised standards that cover all the relevant essential "
                "requirements: record whether it is."
            ),
            values=values,
        )
    ]


# --- technical documentation, declaration, CE marking -------------------------


def _technical_file(rule: Rule, facts: CellFacts) -> list[Finding]:
    a = facts.assessment
    notes = _start_notes(facts)
    if not a.signed:
        return [
            rule.finding(
                Status.NEEDS_EVIDENCE,
                _CELL,
                gettext_noop(
                    "The technical documentation rests on the risk assessment of "
                    "the whole cell: sign it, then the verification and validation "
                    "of each safety function go into the file before the "
                    "declaration of conformity is drawn up and the CE marking "
                    "affixed."
                ),
                notes=notes,
            )
        ]
    if not facts.functions:
        return [
            rule.finding(
                Status.NEEDS_EVIDENCE,
                _CELL,
                gettext_noop(
                    "No safety function is specified: the technical documentation "
                    "must show how the safety-related control system meets the "
                    "essential requirements (each function specified, verified "
                    "and validated)."
                ),
                notes=notes,
            )
        ]
    statuses = {
        f.label: function_status(
            pl=f.pl, plr=f.plr, failed=f.tests_failed, missing=f.tests_missing
        )
        for f in facts.functions
    }
    failing = [label for label, status in statuses.items() if status == "fail"]
    open_ = [label for label, status in statuses.items() if status != "pass"]
    if failing:
        return [
            rule.finding(
                Status.FAIL,
                _CELL,
                gettext_noop(
                    "The technical documentation cannot show conformity while a "
                    "safety function falls short of its PLr or failed its "
                    "validation (%(functions)s): no declaration of conformity or "
                    "CE marking until it is corrected."
                ),
                values={"functions": ", ".join(failing)},
                notes=notes,
            )
        ]
    if open_:
        return [
            rule.finding(
                Status.NEEDS_EVIDENCE,
                _CELL,
                gettext_noop(
                    "Complete the verification or validation of %(functions)s "
                    "for the technical documentation before the declaration of "
                    "conformity and the CE marking."
                ),
                values={"functions": ", ".join(open_)},
                notes=notes,
            )
        ]
    return [
        rule.finding(
            Status.PASS,
            _CELL,
            gettext_noop(
                "The risk assessment is signed and every safety function reaches "
                "its PLr and passed its validation: the core of the technical "
                "documentation is on record. Then draw up the declaration of "
                "conformity and affix the CE marking."
            ),
            notes=notes,
        )
    ]


# --- harmonised standards and the presumption of conformity ---------------------


def _standard_fails(facts: CellFacts) -> list[str]:
    """The standards rules of the baseline that fail for this cell (ids)."""
    from compliance.rules.baseline import STANDARDS_RULES

    failed = []
    for candidate in STANDARDS_RULES:
        if candidate.edition and (
            getattr(facts.editions, candidate.edition[0]) != candidate.edition[1]
        ):
            continue
        if any(f.status is Status.FAIL for f in candidate.evaluate(facts)):
            failed.append(candidate.id)
    return failed


def _harmonised(rule: Rule, facts: CellFacts) -> list[Finding]:
    claimed = facts.conformity.harmonised_standards
    if claimed is None:
        return [
            rule.finding(
                Status.NEEDS_EVIDENCE,
                _CELL,
                gettext_noop(
                    "Record whether the cell is designed to harmonised standards "
                    "(cited in the Official Journal) that cover its essential "
                    "requirements: that is what gives the presumption of "
                    "conformity."
                ),
            )
        ]
    if not claimed:
        return [
            rule.finding(
                Status.WARNING,
                _CELL,
                gettext_noop(
                    "No presumption of conformity is claimed: the technical "
                    "documentation must show, requirement by requirement, how the "
                    "essential health and safety requirements are met."
                ),
            )
        ]
    failed = _standard_fails(facts)
    if failed:
        return [
            rule.finding(
                Status.FAIL,
                _CELL,
                gettext_noop(
                    "A presumption of conformity cannot rest on standards the cell "
                    "does not meet: %(rules)s fail here."
                ),
                values={"rules": ", ".join(failed)},
            )
        ]
    return [
        rule.finding(
            Status.PASS,
            _CELL,
            gettext_noop(
                "The cell is designed to harmonised standards and none of the "
                "standards checks here fails. The presumption holds for the "
                "editions cited in the Official Journal: check that the editions "
                "the project computes with are the cited ones."
            ),
        )
    ]


# --- Regulation only: substantial modification; protection against corruption ----

ADDED_KINDS = (
    "light_curtain",
    "multibeam",
    "safety_mat",
    "laser_scanner",
    "interlocked_door",
    "safety_controller",
)


def _modification(facts: CellFacts) -> list[Finding]:
    rule = MODIFICATION
    existing = [d for d in facts.devices if d.existing]
    added = [d for d in facts.devices_of(*ADDED_KINDS) if not d.existing]
    if not existing:
        return [
            rule.finding(
                Status.PASS,
                _CELL,
                gettext_noop(
                    "No device is recorded as already in place: the cell is a new "
                    "assembly, not a modification of machinery in service."
                ),
            )
        ]
    if not added:
        return [
            rule.finding(
                Status.PASS,
                _CELL,
                gettext_noop(
                    "Nothing is added to the safeguarding already in place: the "
                    "work is not a substantial modification on this ground."
                ),
            )
        ]
    values = {"added": ", ".join(d.label for d in added)}
    if facts.assessment.signed:
        return [
            rule.finding(
                Status.WARNING,
                _CELL,
                gettext_noop(
                    "Protective devices are added to machinery in service "
                    "(%(added)s): if the change was not foreseen by its "
                    "manufacturer and creates a new hazard or raises a risk, it "
                    "is a substantial modification (Art. 3(16)), and whoever "
                    "carries it out is the manufacturer of the modified machinery "
                    "(Art. 18): conformity assessment, declaration and CE marking "
                    "for it. Keep the signed risk assessment as the basis of that "
                    "decision."
                ),
                values=values,
            )
        ]
    return [
        rule.finding(
            Status.FAIL,
            _CELL,
            gettext_noop(
                "Protective devices are added to machinery in service (%(added)s) "
                "with no signed risk assessment of the change: whether it is a "
                "substantial modification (Art. 3(16)), which would make whoever "
                "carries it out its manufacturer (Art. 18), must be decided on a "
                "risk assessment before the change is made."
            ),
            values=values,
        )
    ]


_CORRUPTION_ITEMS = (
    gettext_noop(
        "Identify the software and data critical for the cell's compliance (the "
        "robot's safety configuration, the safety controller's program) and "
        "protect them against accidental or intentional corruption."
    ),
    gettext_noop(
        "Collect evidence of every intervention in that software or data, "
        "legitimate or not, and of every version uploaded."
    ),
    gettext_noop(
        "Protect the hardware that carries signals or data critical for safety, "
        "and design the control system so that a fault, a lost connection or an "
        "attack leads to no hazardous situation (1.2.1)."
    ),
)


def _corruption(facts: CellFacts) -> list[Finding]:
    rule = CORRUPTION
    finding = config_finding(rule, facts, config_state(facts))
    return [
        finding.model_copy(
            update={
                "details": (
                    *finding.details,
                    *(Line(text=item) for item in _CORRUPTION_ITEMS),
                )
            }
        )
    ]


# --- the rules -------------------------------------------------------------------

_REG = "Regulation (EU) 2023/1230"
_DIR = "Directive 2006/42/EC"

RISK_ASSESSMENT_REGULATION = Rule(
    id="EU-MR-risk-assessment",
    jurisdiction="EU",
    citation=(
        f"{_REG}, Art. 10 (obligations of manufacturers) and Annex III (general "
        "principles: risk assessment); assemblies of machinery"
    ),
    text_en=(
        "From 20 January 2027 the integrator who joins a robot and other "
        "machinery into a cell is the manufacturer of an assembly of machinery: "
        "before placing it on the market or putting it into service, a risk "
        "assessment of the whole cell, covering the hazards of how its parts "
        "work together, is carried out and documented. Checked here: the "
        "latest revision of the risk assessment is signed; a cell due in "
        "service without one fails." + _CAVEAT_EN
    ),
    text_ko=(
        "2027년 1월 20일부터 로봇과 다른 기계를 셀로 결합하는 통합 업체는 '기계 "
        "조립체'의 제조자입니다: 시장 출시나 사용 개시 전에 셀 전체(구성 요소가 "
        "함께 작동하며 생기는 위험 포함)의 위험성평가를 수행하고 문서로 남겨야 "
        "합니다. (확인 항목: 위험성평가의 최근 개정판이 서명되었는지. 사용 개시 "
        "예정일이 지났는데 서명된 평가가 없으면 부적합.)" + _CAVEAT_KO
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="medium",  # new law; guidance on it still appearing
    sources=(*SRC_ASSEMBLY, *SRC_ROUTE[1:], *SRC_DATES[:1]),
    check=lambda facts: _risk_assessment(RISK_ASSESSMENT_REGULATION, facts),
    caveat=LAW_CAVEAT,
)

RISK_ASSESSMENT_DIRECTIVE = Rule(
    id="EU-MD-risk-assessment",
    jurisdiction="EU",
    citation=(
        f"{_DIR}, Art. 5 (placing on the market) and Annex I (general "
        "principles: risk assessment); assemblies of machinery"
    ),
    text_en=(
        "Until 19 January 2027 the Machinery Directive applies: the integrator "
        "who joins a robot and other machinery into a cell is the manufacturer "
        "of an assembly of machinery and carries out a risk assessment of the "
        "whole cell before it is put into service. Checked here: the latest "
        "revision of the risk assessment is signed; a cell due in service "
        "without one fails." + _CAVEAT_EN
    ),
    text_ko=(
        "2027년 1월 19일까지는 기계지침이 적용됩니다: 로봇과 다른 기계를 셀로 "
        "결합하는 통합 업체는 '기계 조립체'의 제조자이며, 사용 개시 전에 셀 전체의 "
        "위험성평가를 수행해야 합니다. (확인 항목: 위험성평가의 최근 개정판이 "
        "서명되었는지. 사용 개시 예정일이 지났는데 서명된 평가가 없으면 부적합.)"
        + _CAVEAT_KO
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="low",  # repealed from 20 January 2027
    sources=(*SRC_ASSEMBLY, *SRC_DIRECTIVE),
    check=lambda facts: _risk_assessment(RISK_ASSESSMENT_DIRECTIVE, facts),
    caveat=LAW_CAVEAT,
)

ROUTE_REGULATION = Rule(
    id="EU-MR-conformity-route",
    jurisdiction="EU",
    citation=f"{_REG}, Art. 25 and Annex I (Parts A and B)",
    text_en=(
        "The conformity assessment procedure follows the machinery's listing in "
        "Annex I: Part A needs a notified body (EU type-examination with "
        "conformity to type, full quality assurance, or unit verification); "
        "Part B may follow internal production control (module A) only when "
        "designed to harmonised standards or common specifications covering all "
        "its relevant essential requirements; machinery not listed follows "
        "module A. Checked here: the procedure recorded for the cell against "
        "its recorded listing." + _CAVEAT_EN
    ),
    text_ko=(
        "적합성 평가 절차는 부속서 I의 분류에 따릅니다: A부는 인증기관이 "
        "필요합니다(EU 형식시험과 형식 적합, 완전 품질보증, 또는 "
        "단위 검증). B부는 관련 필수 요구사항을 모두 다루는 조화규격 또는 공통 "
        "사양에 따라 설계된 경우에만 내부 생산 관리(모듈 A)를 쓸 수 있고, 목록에 "
        "없는 기계는 모듈 A를 따릅니다. (확인 항목: 셀에 기록된 부속서 I 분류와 "
        "절차.)" + _CAVEAT_KO
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="medium",  # Annex I may be amended by delegated acts
    sources=SRC_ROUTE,
    check=_route_regulation,
    caveat=LAW_CAVEAT,
)

ROUTE_DIRECTIVE = Rule(
    id="EU-MD-conformity-route",
    jurisdiction="EU",
    citation=f"{_DIR}, Art. 12 and Annex IV (Annexes VIII, IX, X)",
    text_en=(
        "Under the Directive, machinery not in Annex IV follows internal checks "
        "on manufacture (Annex VIII); Annex IV machinery may do so only when "
        "built to harmonised standards covering all the relevant essential "
        "requirements, and otherwise needs EC type-examination (Annex IX) or "
        "full quality assurance (Annex X) with a notified body. Checked here: "
        "the procedure recorded for the cell against its recorded listing." + _CAVEAT_EN
    ),
    text_ko=(
        "기계지침에서 부속서 IV에 없는 기계는 제조 내부 점검(부속서 VIII)을 "
        "따릅니다. 부속서 IV의 기계는 관련 필수 요구사항을 모두 다루는 조화규격에 "
        "따라 제작된 경우에만 그렇게 할 수 있으며, 그 밖에는 인증기관의 EC 형식시험 "
        "(부속서 IX) 또는 완전 품질보증(부속서 X)이 필요합니다. (확인 항목: 셀에 "
        "기록된 분류와 절차.)" + _CAVEAT_KO
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="low",
    sources=SRC_DIRECTIVE,
    check=_route_directive,
    caveat=LAW_CAVEAT,
)

TECHNICAL_FILE_REGULATION = Rule(
    id="EU-MR-technical-file",
    jurisdiction="EU",
    citation=(
        f"{_REG}, Annex IV (technical documentation), Annex V (EU declaration "
        "of conformity), CE marking"
    ),
    text_en=(
        "Before the CE marking is affixed, the manufacturer compiles the "
        "technical documentation (Annex IV: among others the risk assessment, "
        "how the essential requirements are met, the safety-related control "
        "system and its validation) and draws up the EU declaration of "
        "conformity. Checked here: the risk assessment is signed and every "
        "safety function reaches its PLr and passed its validation; a function "
        "that falls short fails." + _CAVEAT_EN
    ),
    text_ko=(
        "CE 마킹 전에 제조자는 기술문서(부속서 IV: 위험성평가, 필수 요구사항 충족 "
        "방법, 안전 관련 제어 시스템과 그 유효성 확인 등)를 작성하고 EU 적합성 "
        "선언서를 작성합니다. (확인 항목: 위험성평가가 서명되었고 모든 안전 기능이 "
        "PLr에 도달하며 유효성 확인을 통과했는지. 미달하는 기능이 있으면 부적합.)"
        + _CAVEAT_KO
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="medium",
    sources=SRC_ROUTE,
    check=lambda facts: _technical_file(TECHNICAL_FILE_REGULATION, facts),
    caveat=LAW_CAVEAT,
)

TECHNICAL_FILE_DIRECTIVE = Rule(
    id="EU-MD-technical-file",
    jurisdiction="EU",
    citation=(
        f"{_DIR}, Art. 5 and Annex VII (technical file), Annex II (EC "
        "declaration of conformity), CE marking"
    ),
    text_en=(
        "Before the machinery is put into service the manufacturer compiles the "
        "technical file (Annex VII), draws up the EC declaration of conformity "
        "(Annex II) and affixes the CE marking. Checked here: the risk "
        "assessment is signed and every safety function reaches its PLr and "
        "passed its validation; a function that falls short fails." + _CAVEAT_EN
    ),
    text_ko=(
        "사용 개시 전에 제조자는 기술 파일(부속서 VII)을 작성하고 EC 적합성 "
        "선언서(부속서 II)를 작성하며 CE 마킹을 부착합니다. (확인 항목: "
        "위험성평가가 서명되었고 모든 안전 기능이 PLr에 도달하며 유효성 확인을 "
        "통과했는지. 미달하는 기능이 있으면 부적합.)" + _CAVEAT_KO
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="low",
    sources=SRC_DIRECTIVE,
    check=lambda facts: _technical_file(TECHNICAL_FILE_DIRECTIVE, facts),
    caveat=LAW_CAVEAT,
)

HARMONISED_REGULATION = Rule(
    id="EU-MR-harmonised-standards",
    jurisdiction="EU",
    citation=f"{_REG} (presumption of conformity: harmonised standards in the OJ)",
    text_en=(
        "Machinery designed to harmonised standards whose references are "
        "published in the Official Journal is presumed to meet the essential "
        "requirements those standards cover. Checked here: whether the cell "
        "claims the presumption, and that no standards check of this app fails "
        "for it; which editions the OJ cites is for the user to confirm." + _CAVEAT_EN
    ),
    text_ko=(
        "관보에 인용된 조화규격에 따라 설계된 기계는 그 규격이 다루는 필수 "
        "요구사항을 충족한 것으로 추정됩니다. (확인 항목: 셀이 이 추정을 주장하는지, "
        "그리고 이 앱의 규격 점검에서 부적합이 없는지. 관보가 인용하는 판은 "
        "사용자가 확인해야 합니다.)" + _CAVEAT_KO
    ),
    # No article number: the sources name the presumption, not the article.
    certainty=RuleCertainty.TO_BE_CONFIRMED,
    checked_on=CHECKED_ON,
    volatility="high",  # the OJ list changes as standards are cited
    sources=SRC_HARMONISED,
    check=lambda facts: _harmonised(HARMONISED_REGULATION, facts),
    caveat=LAW_CAVEAT,
)

HARMONISED_DIRECTIVE = Rule(
    id="EU-MD-harmonised-standards",
    jurisdiction="EU",
    citation=f"{_DIR} (presumption of conformity: harmonised standards in the OJ)",
    text_en=(
        "Machinery built to a harmonised standard whose reference is published "
        "in the Official Journal is presumed to meet the essential requirements "
        "it covers. Checked here: whether the cell claims the presumption, and "
        "that no standards check of this app fails for it." + _CAVEAT_EN
    ),
    text_ko=(
        "관보에 인용된 조화규격에 따라 제작된 기계는 그 규격이 다루는 필수 "
        "요구사항을 충족한 것으로 추정됩니다. (확인 항목: 셀이 이 추정을 주장하는지, "
        "그리고 이 앱의 규격 점검에서 부적합이 없는지.)" + _CAVEAT_KO
    ),
    certainty=RuleCertainty.TO_BE_CONFIRMED,
    checked_on=CHECKED_ON,
    volatility="medium",
    sources=SRC_DIRECTIVE,
    check=lambda facts: _harmonised(HARMONISED_DIRECTIVE, facts),
    caveat=LAW_CAVEAT,
)

MODIFICATION = Rule(
    id="EU-MR-substantial-modification",
    jurisdiction="EU",
    citation=f"{_REG}, Art. 3(16) and Art. 18 (substantial modification)",
    text_en=(
        "A physical or digital change to machinery in service that its "
        "manufacturer did not foresee, that creates a new hazard or raises a "
        "risk, and that needs new guards or protective devices with changes to "
        "the safety control system, is a substantial modification: whoever "
        "carries it out becomes the manufacturer of the modified machinery. "
        "Checked here: whether protective devices are added where devices are "
        "recorded as already in place, and whether a signed risk assessment of "
        "the change exists." + _CAVEAT_EN
    ),
    text_ko=(
        "사용 중인 기계에 대한 물리적·디지털 변경이 제조자가 예상하지 않은 것이고, "
        "새로운 위험을 만들거나 위험을 높이며, 안전 제어 시스템을 바꾸는 새로운 "
        "가드나 보호장치가 필요하면 '실질적 변경'입니다: 이를 수행하는 자가 변경된 "
        "기계의 제조자가 됩니다. (확인 항목: 이미 설치된 장치가 기록된 셀에 보호장치가 "
        "추가되는지, 그리고 변경에 대한 서명된 위험성평가가 있는지.)" + _CAVEAT_KO
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="medium",
    sources=SRC_MODIFICATION,
    check=_modification,
    caveat=LAW_CAVEAT,
)

CORRUPTION = Rule(
    id="EU-MR-protection-against-corruption",
    jurisdiction="EU",
    citation=(
        f"{_REG}, Annex III 1.1.9 (protection against corruption) and 1.2.1 "
        "(safety and reliability of control systems)"
    ),
    text_en=(
        "Software and data critical for the machinery's compliance are "
        "identified and protected against accidental or intentional "
        "corruption, and evidence of interventions in them is collected; a "
        "control system is designed so that faults, lost connections or "
        "attacks lead to no hazardous situation. Checked here: the robot's "
        "safety configuration, the software most critical to a robot cell, is "
        "identified (the maker's checksum, CRC or signature) and is the one the "
        "signed risk assessment froze." + _CAVEAT_EN
    ),
    text_ko=(
        "기계의 적합성에 결정적인 소프트웨어와 데이터는 그렇게 식별되고 우발적·"
        "의도적 손상으로부터 보호되어야 하며, 그에 대한 개입의 증거가 수집되어야 "
        "합니다. 제어 시스템은 고장, 연결 끊김, 공격이 위험한 상황으로 이어지지 "
        "않도록 설계해야 합니다. (확인 항목: 로봇 셀에서 가장 중요한 소프트웨어인 "
        "로봇 안전 설정이 제조사의 체크섬·CRC·시그니처로 식별되어 있고, 서명된 "
        "위험성평가에 고정된 설정과 같은지.)" + _CAVEAT_KO
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="high",  # new requirement; standards for it still to come
    sources=SRC_CORRUPTION,
    check=_corruption,
    caveat=LAW_CAVEAT,
)

REGULATION_RULES: tuple[Rule, ...] = (
    RISK_ASSESSMENT_REGULATION,
    ROUTE_REGULATION,
    TECHNICAL_FILE_REGULATION,
    HARMONISED_REGULATION,
    MODIFICATION,
    CORRUPTION,
)
DIRECTIVE_RULES: tuple[Rule, ...] = (
    RISK_ASSESSMENT_DIRECTIVE,
    ROUTE_DIRECTIVE,
    TECHNICAL_FILE_DIRECTIVE,
    HARMONISED_DIRECTIVE,
)
