"""EU / EEA, Regulation only: protection against corruption of the software and
data critical for compliance (Regulation (EU) 2023/1230 Annex III 1.1.9, with
1.2.1 on the safety and reliability of control systems), checked on the
robot's safety configuration. Sources: ``law.SRC_CORRUPTION``, secondary. Pure
Python, no Django.
"""

from __future__ import annotations

from compliance.calculators.base import Line, gettext_noop
from compliance.rules.eu.law import (
    _REG,
    CHECKED_ON,
    LAW_CAVEAT,
    SRC_CORRUPTION,
)
from compliance.rules.facts import CellFacts
from compliance.rules.findings import Finding, Rule, RuleCertainty
from compliance.rules.robot import config_finding, config_state

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


CORRUPTION = Rule(
    id="EU-MR-protection-against-corruption",
    jurisdiction="EU",
    citation=(
        f"{_REG}, Annex III 1.1.9 (protection against corruption) and 1.2.1 "
        "(safety and reliability of control systems)"
    ),
    text=gettext_noop(
        "Software and data critical for the machinery's compliance are identified and "
        "protected against accidental or intentional corruption, and evidence of "
        "interventions in them is collected; a control system is designed so that "
        "faults, lost connections or attacks lead to no hazardous situation. Checked "
        "here: the robot's safety configuration, the software most critical to a robot "
        "cell, is identified (the maker's checksum, CRC or signature) and is the one "
        "the signed risk assessment froze. Read in secondary sources; confirm against "
        "the official text on EUR-Lex."
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="high",  # new requirement; standards for it still to come
    sources=SRC_CORRUPTION,
    check=_corruption,
    caveat=LAW_CAVEAT,
)
