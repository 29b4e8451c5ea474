"""Which rule packs apply to a cell, and the findings they give.

Korea (``KR``): the Korea pack (Rules on OSH Standards Arts. 222-224, OSH Act
Art. 84) and then the international baseline (ISO 10218-2, ISO 13857, ISO
13855, IEC 61496, ISO/TS 15066). Any other country: the baseline only, as no
other national pack exists yet. Pure Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from compliance.calculators.base import gettext_noop
from compliance.rules.baseline import BASELINE_RULES
from compliance.rules.facts import CellFacts
from compliance.rules.findings import Finding, Jurisdiction, Rule, Status
from compliance.rules.korea import KOREA_RULES


@dataclass(frozen=True)
class RulePack:
    """The rules of one jurisdiction, in the order they are shown."""

    key: str  # "korea", "baseline"
    jurisdiction: Jurisdiction
    title: str  # English, marked with gettext_noop
    rules: tuple[Rule, ...]


KOREA = RulePack(
    key="korea",
    jurisdiction="KR",
    title=gettext_noop("Korea: Rules on OSH Standards Arts. 222-224, OSH Act Art. 84"),
    rules=KOREA_RULES,
)
BASELINE = RulePack(
    key="baseline",
    jurisdiction="INTL",
    title=gettext_noop(
        "International baseline: ISO 10218-2, ISO 13857, ISO 13855, "
        "IEC 61496, ISO/TS 15066"
    ),
    rules=BASELINE_RULES,
)
NATIONAL_PACKS: dict[str, RulePack] = {"KR": KOREA}

# The rule packs' version: raise it when a rule's check, figures or texts
# change, so that findings kept under the previous one are not read again
# (``compliance.rules.inputs`` keys them by it, and by the code's own hash).
RULES_VERSION = "2026.12.1"


class RuleFindings(NamedTuple):
    """One rule and what it found in a cell (possibly nothing to check)."""

    rule: Rule
    findings: tuple[Finding, ...]


def rule_packs_for(country: str) -> tuple[RulePack, ...]:
    """The national pack of ``country`` (ISO alpha-2) if there is one, then the
    international baseline."""
    national = NATIONAL_PACKS.get(country.upper())
    return (national, BASELINE) if national else (BASELINE,)


def all_rules() -> tuple[Rule, ...]:
    """Every rule of every pack, e.g. for a page listing them."""
    packs = (*NATIONAL_PACKS.values(), BASELINE)
    return tuple(rule for pack in packs for rule in pack.rules)


def evaluate(facts: CellFacts) -> tuple[RuleFindings, ...]:
    """Every applicable rule with its findings, packs and rules in their order,
    findings in the order of the cell's segments, openings and devices."""
    return tuple(
        RuleFindings(rule, rule.evaluate(facts))
        for pack in rule_packs_for(facts.country)
        for rule in pack.rules
    )


def summary(results: tuple[RuleFindings, ...]) -> dict[Status, int]:
    """How many findings have each status (every status present, maybe 0)."""
    counts = dict.fromkeys(Status, 0)
    for _, findings in results:
        for finding in findings:
            counts[finding.status] += 1
    return counts
