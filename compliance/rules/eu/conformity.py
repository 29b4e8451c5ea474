"""EU / EEA: the conformity assessment procedure, by the machinery's listing:
Annex I Parts A and B of Regulation (EU) 2023/1230 (Art. 25), Annex IV of
Directive 2006/42/EC (Art. 12, Annexes VIII, IX and X). Sources:
``law.SRC_ROUTE`` and ``SRC_DIRECTIVE``, secondary. Pure Python, no Django.
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
    SRC_ROUTE,
)
from compliance.rules.facts import CellFacts
from compliance.rules.findings import Finding, Rule, RuleCertainty, Status

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


ROUTE_REGULATION = Rule(
    id="EU-MR-conformity-route",
    jurisdiction="EU",
    citation=f"{_REG}, Art. 25 and Annex I (Parts A and B)",
    text=gettext_noop(
        "The conformity assessment procedure follows the machinery's listing in Annex "
        "I: Part A needs a notified body (EU type-examination with conformity to type, "
        "full quality assurance, or unit verification); Part B may follow internal "
        "production control (module A) only when designed to harmonised standards or "
        "common specifications covering all its relevant essential requirements; "
        "machinery not listed follows module A. Checked here: the procedure recorded "
        "for the cell against its recorded listing. Read in secondary sources; confirm "
        "against the official text on EUR-Lex."
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
    text=gettext_noop(
        "Under the Directive, machinery not in Annex IV follows internal checks on "
        "manufacture (Annex VIII); Annex IV machinery may do so only when built to "
        "harmonised standards covering all the relevant essential requirements, and "
        "otherwise needs EC type-examination (Annex IX) or full quality assurance "
        "(Annex X) with a notified body. Checked here: the procedure recorded for the "
        "cell against its recorded listing. Read in secondary sources; confirm against "
        "the official text on EUR-Lex."
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="low",
    sources=SRC_DIRECTIVE,
    check=_route_directive,
    caveat=LAW_CAVEAT,
)
