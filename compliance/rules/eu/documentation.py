"""EU / EEA: how conformity is shown before the CE marking. The technical
documentation and the declaration of conformity (Regulation (EU) 2023/1230
Annexes IV and V; Directive 2006/42/EC Annexes VII and II), and the
presumption of conformity given by harmonised standards cited in the Official
Journal. Sources: ``law.SRC_ROUTE``, ``SRC_HARMONISED`` and ``SRC_DIRECTIVE``,
secondary. Pure Python, no Django.
"""

from __future__ import annotations

from compliance.calculators.base import gettext_noop
from compliance.rules.eu.law import (
    _CELL,
    _DIR,
    _REG,
    CHECKED_ON,
    LAW_CAVEAT,
    SRC_DIRECTIVE,
    SRC_HARMONISED,
    SRC_ROUTE,
    _start_notes,
)
from compliance.rules.facts import CellFacts
from compliance.rules.findings import Finding, Rule, RuleCertainty, Status
from compliance.safety_functions.verification import function_status

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


TECHNICAL_FILE_REGULATION = Rule(
    id="EU-MR-technical-file",
    jurisdiction="EU",
    citation=(
        f"{_REG}, Annex IV (technical documentation), Annex V (EU declaration "
        "of conformity), CE marking"
    ),
    text=gettext_noop(
        "Before the CE marking is affixed, the manufacturer compiles the technical "
        "documentation (Annex IV: among others the risk assessment, how the essential "
        "requirements are met, the safety-related control system and its validation) "
        "and draws up the EU declaration of conformity. Checked here: the risk "
        "assessment is signed and every safety function reaches its PLr and passed its "
        "validation; a function that falls short fails. Read in secondary sources; "
        "confirm against the official text on EUR-Lex."
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
    text=gettext_noop(
        "Before the machinery is put into service the manufacturer compiles the "
        "technical file (Annex VII), draws up the EC declaration of conformity (Annex "
        "II) and affixes the CE marking. Checked here: the risk assessment is signed "
        "and every safety function reaches its PLr and passed its validation; a "
        "function that falls short fails. Read in secondary sources; confirm against "
        "the official text on EUR-Lex."
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
    text=gettext_noop(
        "Machinery designed to harmonised standards whose references are published in "
        "the Official Journal is presumed to meet the essential requirements those "
        "standards cover. Checked here: whether the cell claims the presumption, and "
        "that no standards check of this app fails for it; which editions the OJ cites "
        "is for the user to confirm. Read in secondary sources; confirm against the "
        "official text on EUR-Lex."
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
    text=gettext_noop(
        "Machinery built to a harmonised standard whose reference is published in the "
        "Official Journal is presumed to meet the essential requirements it covers. "
        "Checked here: whether the cell claims the presumption, and that no standards "
        "check of this app fails for it. Read in secondary sources; confirm against "
        "the official text on EUR-Lex."
    ),
    certainty=RuleCertainty.TO_BE_CONFIRMED,
    checked_on=CHECKED_ON,
    volatility="medium",
    sources=SRC_DIRECTIVE,
    check=lambda facts: _harmonised(HARMONISED_DIRECTIVE, facts),
    caveat=LAW_CAVEAT,
)
