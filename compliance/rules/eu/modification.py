"""EU / EEA, Regulation only: the substantial modification of machinery in
service (Regulation (EU) 2023/1230 Art. 3(16) and Art. 18; recital 26), which
makes whoever carries it out the manufacturer of the modified machinery.
Sources: ``law.SRC_MODIFICATION``, secondary. Pure Python, no Django.
"""

from __future__ import annotations

from compliance.calculators.base import gettext_noop
from compliance.rules.eu.law import (
    _CELL,
    _REG,
    CHECKED_ON,
    LAW_CAVEAT,
    SRC_MODIFICATION,
)
from compliance.rules.facts import CellFacts
from compliance.rules.findings import Finding, Rule, RuleCertainty, Status

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


MODIFICATION = Rule(
    id="EU-MR-substantial-modification",
    jurisdiction="EU",
    citation=f"{_REG}, Art. 3(16) and Art. 18 (substantial modification)",
    text=gettext_noop(
        "A physical or digital change to machinery in service that its manufacturer "
        "did not foresee, that creates a new hazard or raises a risk, and that needs "
        "new guards or protective devices with changes to the safety control system, "
        "is a substantial modification: whoever carries it out becomes the "
        "manufacturer of the modified machinery. Checked here: whether protective "
        "devices are added where devices are recorded as already in place, and whether "
        "a signed risk assessment of the change exists. Read in secondary sources; "
        "confirm against the official text on EUR-Lex."
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="medium",
    sources=SRC_MODIFICATION,
    check=_modification,
    caveat=LAW_CAVEAT,
)
