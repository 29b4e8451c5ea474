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

By topic: ``law`` (which instrument applies, the sources, the caveat),
``assessment`` (the integrator's risk assessment of the assembly),
``conformity`` (the conformity assessment procedure), ``documentation`` (the
technical documentation and the presumption of conformity), and, for the
Regulation only, ``modification`` and ``corruption``. The packs are assembled
here, in the order they are shown.
"""

from __future__ import annotations

from compliance.rules.eu.assessment import (
    RISK_ASSESSMENT_DIRECTIVE,
    RISK_ASSESSMENT_REGULATION,
)
from compliance.rules.eu.conformity import (
    PROCEDURE_LABELS,
    ROUTE_DIRECTIVE,
    ROUTE_REGULATION,
)
from compliance.rules.eu.corruption import CORRUPTION
from compliance.rules.eu.documentation import (
    HARMONISED_DIRECTIVE,
    HARMONISED_REGULATION,
    TECHNICAL_FILE_DIRECTIVE,
    TECHNICAL_FILE_REGULATION,
)
from compliance.rules.eu.law import (
    CHECKED_ON,
    DIRECTIVE_LAST_DAY,
    LAW_CAVEAT,
    REGULATION_APPLIES_FROM,
    SRC_ASSEMBLY,
    SRC_CORRUPTION,
    SRC_DATES,
    SRC_DIRECTIVE,
    SRC_HARMONISED,
    SRC_MODIFICATION,
    SRC_ROUTE,
    Instrument,
    instrument,
)
from compliance.rules.eu.modification import ADDED_KINDS, MODIFICATION
from compliance.rules.findings import Rule

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

__all__ = [
    "ADDED_KINDS",
    "CHECKED_ON",
    "CORRUPTION",
    "DIRECTIVE_LAST_DAY",
    "DIRECTIVE_RULES",
    "HARMONISED_DIRECTIVE",
    "HARMONISED_REGULATION",
    "LAW_CAVEAT",
    "MODIFICATION",
    "PROCEDURE_LABELS",
    "REGULATION_APPLIES_FROM",
    "REGULATION_RULES",
    "RISK_ASSESSMENT_DIRECTIVE",
    "RISK_ASSESSMENT_REGULATION",
    "ROUTE_DIRECTIVE",
    "ROUTE_REGULATION",
    "SRC_ASSEMBLY",
    "SRC_CORRUPTION",
    "SRC_DATES",
    "SRC_DIRECTIVE",
    "SRC_HARMONISED",
    "SRC_MODIFICATION",
    "SRC_ROUTE",
    "TECHNICAL_FILE_DIRECTIVE",
    "TECHNICAL_FILE_REGULATION",
    "Instrument",
    "instrument",
]
