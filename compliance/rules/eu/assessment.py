"""EU / EEA: the integrator as the manufacturer of an assembly of machinery,
and the risk assessment of the whole cell it owes before the cell is put into
service (Regulation (EU) 2023/1230 Art. 10 and Annex III; Directive 2006/42/EC
Art. 5 and Annex I). Sources: ``law.SRC_ASSEMBLY``, ``SRC_ROUTE``,
``SRC_DATES`` and ``SRC_DIRECTIVE``, secondary. Pure Python, no Django.
"""

from __future__ import annotations

from compliance.calculators.base import gettext_noop
from compliance.rules.eu.law import (
    _CELL,
    _DIR,
    _REG,
    CHECKED_ON,
    LAW_CAVEAT,
    SRC_ASSEMBLY,
    SRC_DATES,
    SRC_DIRECTIVE,
    SRC_ROUTE,
    _due,
    _start_notes,
)
from compliance.rules.facts import CellFacts
from compliance.rules.findings import Finding, Rule, RuleCertainty, Status


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


RISK_ASSESSMENT_REGULATION = Rule(
    id="EU-MR-risk-assessment",
    jurisdiction="EU",
    citation=(
        f"{_REG}, Art. 10 (obligations of manufacturers) and Annex III (general "
        "principles: risk assessment); assemblies of machinery"
    ),
    text=gettext_noop(
        "From 20 January 2027 the integrator who joins a robot and other machinery "
        "into a cell is the manufacturer of an assembly of machinery: before placing "
        "it on the market or putting it into service, a risk assessment of the whole "
        "cell, covering the hazards of how its parts work together, is carried out and "
        "documented. Checked here: the latest revision of the risk assessment is "
        "signed; a cell due in service without one fails. Read in secondary sources; "
        "confirm against the official text on EUR-Lex."
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
    text=gettext_noop(
        "Until 19 January 2027 the Machinery Directive applies: the integrator who "
        "joins a robot and other machinery into a cell is the manufacturer of an "
        "assembly of machinery and carries out a risk assessment of the whole cell "
        "before it is put into service. Checked here: the latest revision of the risk "
        "assessment is signed; a cell due in service without one fails. Read in "
        "secondary sources; confirm against the official text on EUR-Lex."
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="low",  # repealed from 20 January 2027
    sources=(*SRC_ASSEMBLY, *SRC_DIRECTIVE),
    check=lambda facts: _risk_assessment(RISK_ASSESSMENT_DIRECTIVE, facts),
    caveat=LAW_CAVEAT,
)
