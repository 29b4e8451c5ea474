"""Which rule packs apply to a cell, and the findings they give.

A cell gets its jurisdiction's pack (``editions.jurisdiction_of`` its
country), then the international baseline (ISO 10218-1/-2, ISO 13857, ISO
13855, IEC 61496, ISO/TS 15066, ISO 13849-1):

- Korea (``KR``): Rules on OSH Standards Arts. 222-224, OSH Act Art. 84;
- EU / EEA: the Machinery Directive 2006/42/EC for a cell put into service up
  to 19 January 2027, the Machinery Regulation (EU) 2023/1230 from 20 January
  2027 (``eu.instrument``);
- United States: ANSI/A3 R15.06-2025 and OSHA 29 CFR 1910.212 and 1910.147;
- anywhere else: the baseline only.

A rule tied to one edition of a standard applies only to a project that
computes with that edition (``CellFacts.editions``). Every set of findings
can name what it was computed under (``computed_under``). Pure Python, no
Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.editions import jurisdiction_of
from compliance.rules import eu, history
from compliance.rules.baseline import BASELINE_RULES
from compliance.rules.facts import CellFacts
from compliance.rules.findings import Finding, Jurisdiction, Rule, Status
from compliance.rules.korea import KOREA_RULES
from compliance.rules.us import US_RULES


@dataclass(frozen=True)
class RulePack:
    """The rules of one jurisdiction, in the order they are shown."""

    key: str  # "korea", "baseline", "eu_regulation", ...
    jurisdiction: Jurisdiction
    title: str  # English, marked with gettext_noop
    rules: tuple[Rule, ...]

    @property
    def version(self) -> int:
        """The release of the rule set that last changed this pack."""
        return history.pack_version(rule.id for rule in self.rules)


KOREA = RulePack(
    key="korea",
    jurisdiction="KR",
    title=gettext_noop("Korea: Rules on OSH Standards Arts. 222-224, OSH Act Art. 84"),
    rules=KOREA_RULES,
)
EU_DIRECTIVE = RulePack(
    key="eu_directive",
    jurisdiction="EU",
    title=gettext_noop(
        "EU / EEA: Machinery Directive 2006/42/EC (cells put into service up to "
        "19 January 2027)"
    ),
    rules=eu.DIRECTIVE_RULES,
)
EU_REGULATION = RulePack(
    key="eu_regulation",
    jurisdiction="EU",
    title=gettext_noop(
        "EU / EEA: Machinery Regulation (EU) 2023/1230 (cells put into service "
        "from 20 January 2027)"
    ),
    rules=eu.REGULATION_RULES,
)
UNITED_STATES = RulePack(
    key="us",
    jurisdiction="US",
    title=gettext_noop(
        "United States: ANSI/A3 R15.06-2025, OSHA 29 CFR 1910.212 and 1910.147"
    ),
    rules=US_RULES,
)
BASELINE = RulePack(
    key="baseline",
    jurisdiction="INTL",
    title=gettext_noop(
        "International baseline: ISO 10218-1/-2, ISO 13857, ISO 13855, "
        "IEC 61496, ISO/TS 15066, ISO 13849-1"
    ),
    rules=BASELINE_RULES,
)
NATIONAL_PACKS: dict[str, RulePack] = {"KR": KOREA, "US": UNITED_STATES}
# Every pack, in the order the Rules page lists them.
ALL_PACKS: tuple[RulePack, ...] = (
    KOREA,
    EU_REGULATION,
    EU_DIRECTIVE,
    UNITED_STATES,
    BASELINE,
)

# The rule packs' version: raise it when a rule's check, figures or texts
# change, so that findings kept under the previous one are not read again
# (``compliance.rules.inputs`` keys them by it, and by the code's own hash).
RULES_VERSION = "2026.12.3"


class RuleFindings(NamedTuple):
    """One rule and what it found in a cell (possibly nothing to check)."""

    rule: Rule
    findings: tuple[Finding, ...]


def rule_packs_for(
    country: str, facts: CellFacts | None = None
) -> tuple[RulePack, ...]:
    """The packs for a cell in ``country`` (ISO alpha-2): its jurisdiction's
    pack if there is one, then the international baseline. For the EU, the
    Directive or the Regulation by the cell's planned start (``facts``;
    without them, the Regulation)."""
    jurisdiction = jurisdiction_of(country)
    if jurisdiction == "EU":
        use_directive = facts is not None and eu.instrument(facts) == "directive"
        return (EU_DIRECTIVE if use_directive else EU_REGULATION, BASELINE)
    national = NATIONAL_PACKS.get(jurisdiction)
    return (national, BASELINE) if national else (BASELINE,)


def all_rules() -> tuple[Rule, ...]:
    """Every rule of every pack, e.g. for a page listing them."""
    return tuple(rule for pack in ALL_PACKS for rule in pack.rules)


def applies(rule: Rule, facts: CellFacts) -> bool:
    """A rule tied to an edition applies where the project uses that edition."""
    if rule.edition is None:
        return True
    standard, year = rule.edition
    return getattr(facts.editions, standard, None) == year


def applied_packs(facts: CellFacts) -> dict[str, tuple[Rule, ...]]:
    """The packs applied to the cell, each with the rules of it that apply."""
    return {
        pack.key: tuple(rule for rule in pack.rules if applies(rule, facts))
        for pack in rule_packs_for(facts.country, facts)
    }


def evaluate(facts: CellFacts) -> tuple[RuleFindings, ...]:
    """Every applicable rule with its findings, packs and rules in their order,
    findings in the order of the cell's segments, openings and devices. A
    finding that relies on devices is no better than their own findings
    (``capped``)."""
    return capped(
        tuple(
            RuleFindings(rule, rule.evaluate(facts))
            for rules in applied_packs(facts).values()
            for rule in rules
        )
    )


# From better to worse, for a verdict capped by what it relies on.
_SEVERITY = {
    Status.PASS: 0,
    Status.WARNING: 1,
    Status.NEEDS_EVIDENCE: 2,
    Status.FAIL: 3,
}
_RELIES = {
    Status.FAIL: gettext_noop(
        "%(label)s relies on %(devices)s, which fails its own checks (below): "
        "the opening is guarded no better than the device it relies on."
    ),
    Status.NEEDS_EVIDENCE: gettext_noop(
        "%(label)s relies on %(devices)s, whose own checks cannot yet be made "
        "(below): until they pass, neither does the opening."
    ),
    Status.WARNING: gettext_noop(
        "%(label)s relies on %(devices)s, which passes its own checks only by an "
        "exception someone must stand behind (below)."
    ),
}


def capped(results: tuple[RuleFindings, ...]) -> tuple[RuleFindings, ...]:
    """The findings with each verdict that relies on devices
    (``Finding.relies_on``) lowered to the worst verdict of those devices' own
    findings, saying which and why, and showing their findings in its
    working: a verdict is never better than what it relies on."""
    by_subject: dict[str, list[tuple[Rule, Finding]]] = {}
    for rule, findings in results:
        for finding in findings:
            by_subject.setdefault(finding.subject_key, []).append((rule, finding))
    if not any(f.relies_on for _, findings in results for f in findings):
        return results
    out = []
    for rule, findings in results:
        kept = []
        for finding in findings:
            if finding.relies_on:
                finding = _capped(finding, by_subject)
            kept.append(finding)
        out.append(RuleFindings(rule, tuple(kept)))
    return tuple(out)


def _capped(
    finding: Finding, by_subject: dict[str, list[tuple[Rule, Finding]]]
) -> Finding:
    relied = [
        (rule, f)
        for key in finding.relies_on
        for rule, f in by_subject.get(key, ())
        if f is not finding
    ]
    worst = max((_SEVERITY[f.status] for _, f in relied), default=0)
    if worst <= _SEVERITY[finding.status]:
        return finding
    status = next(s for s, rank in _SEVERITY.items() if rank == worst)
    below = [(rule, f) for rule, f in relied if f.status == status]
    devices = ", ".join(dict.fromkeys(f.subject_label for _, f in below))
    return finding.model_copy(
        update={
            "status": status,
            "message": _RELIES[status],
            "values": {
                **finding.values,
                "label": finding.subject_label,
                "devices": devices,
            },
            "details": (
                *(Line(text=f.message, values=f.values) for _, f in below),
                Line(text=finding.message, values=finding.values),
                *finding.details,
            ),
        }
    )


def computed_under(facts: CellFacts) -> history.ComputedUnder:
    """What findings of this cell computed now rest on: the release, the packs
    with their versions, the editions, each rule applied."""
    return history.stamp(applied_packs(facts), facts.editions.as_dict())


def summary(results: tuple[RuleFindings, ...]) -> dict[Status, int]:
    """How many findings have each status (every status present, maybe 0)."""
    counts = dict.fromkeys(Status, 0)
    for _, findings in results:
        for finding in findings:
            counts[finding.status] += 1
    return counts
