"""The legal frame of the EU / EEA packs: which instrument applies to a cell,
the sources the legal texts were read in, and the caveat every EU rule carries.

The Machinery Directive 2006/42/EC applies to a cell put into service up to 19
January 2027, the Machinery Regulation (EU) 2023/1230 from 20 January 2027
(Regulation Art. 54 and Art. 51(2), as corrected by the corrigendum of 4 July
2023). The texts were read in the secondary sources below (``SRC_*``, public
pages searched in December 2026), not in EUR-Lex. Pure Python, no Django.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from compliance.calculators.base import Line, gettext_noop
from compliance.rules.facts import CELL_SUBJECT, CellFacts

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


# How the rules cite the two instruments.
_REG = "Regulation (EU) 2023/1230"
_DIR = "Directive 2006/42/EC"
