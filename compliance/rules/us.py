"""United States rule pack: ANSI/A3 R15.06-2025 and OSHA 29 CFR 1910.

- ANSI/A3 R15.06-2025, Parts 1 and 2: the national adoption of ISO
  10218-1/-2:2025 (the robot; its application and the cell): the
  integrator's risk assessment of the whole cell.
- ANSI/A3 R15.06-2025, Part 3: what the users of a robot cell do once it is
  installed, developed in the US (ISO standards do not cover users): an
  ongoing, on-site risk assessment as layouts change and cells are
  reconfigured.
- OSHA 29 CFR 1910.212(a)(1): one or more methods of machine guarding
  protect the operator and other employees in the machine area.
- OSHA 29 CFR 1910.147: an energy control program (procedures, training,
  periodic inspections at least annually) for servicing and maintenance.

R15.06-2025 itself was not read (it is sold by A3): its rules rest on the
announcements and summaries named with each. The OSHA texts were read in
copies and OSHA's own eTool pages, not checked against the eCFR. Checks
rest on the plan and on the signed risk assessment, never on text. Pure
Python, no Django.
"""

from __future__ import annotations

from datetime import date

from compliance.calculators.base import Line, gettext_noop
from compliance.rules.facts import CELL_SUBJECT, CellFacts
from compliance.rules.findings import Finding, Rule, RuleCertainty, Status

_CELL = (CELL_SUBJECT, gettext_noop("Cell"))
CHECKED_ON = date(2026, 12, 2)

SRC_R1506 = (
    "https://www.imtr.net/article/new-ansia3-r1506-2025-american-national-"
    "standard-for-industrial-robot-safety-0a60 (ANSI/A3 R15.06-2025, the US "
    "adoption of ISO 10218 Parts 1 and 2, available September 2025)",
    "https://www.plcmasters.com/pt/blogs/news/ansi-a3-r15-06-2025-modernizing-"
    "industrial-robot-safety-standards (R15.06-2025 builds on ISO 10218-1:2025 "
    "and ISO 10218-2:2025)",
)
SRC_PART3 = (
    "https://roboticsandautomationnews.com/2026/01/30/new-us-robot-safety-rules-"
    "focus-on-how-robots-are-actually-used-on-the-factory-floor/98408 (A3 "
    "announces R15.06-2025 Part 3, the use of industrial robot cells: user "
    "responsibilities, ongoing risk assessment)",
    "https://dawn.company/new-robot-safety-rules-for-the-usa (summary of the "
    "same article: Part 3 requires ongoing risk assessments on site; not an "
    "independent source)",
)
SRC_1910_212 = (
    "https://up.codes/s/machine-guarding (29 CFR 1910.212(a)(1) text)",
    "https://www.oshrc.gov/assets/1/18/Docket_No._76-647.htm (OSHRC decision "
    "quoting 1910.212(a)(1) and (a)(3)(ii))",
    "https://safety.pinnacol.com/resources/osha-interpretation-machine-guarding-"
    "for-drill-presses-and-lathes (OSHA interpretation quoting 1910.212(a)(1))",
)
SRC_1910_147 = (
    "https://osha.gov/etools/lockout-tagout/tutorial/energy-control-program "
    "(OSHA eTool: the energy control program, 1910.147(c)(1), (c)(4))",
    "https://www.osha.gov/etools/lockout-tagout/hot-topics/energy-control-"
    "program/periodic-inspections (periodic inspection at least annually)",
    "http://edocket.access.gpo.gov/cfr_2002/julqtr/29cfr1910.147.htm (29 CFR "
    "1910.147, July 2002 edition: scope, servicing and maintenance)",
)

OSHA_CAVEAT = gettext_noop(
    "The regulation's text was read in copies and OSHA's guidance pages, not "
    "in the current eCFR: confirm it there before relying on this finding."
)
STANDARD_CAVEAT = gettext_noop(
    "ANSI/A3 R15.06-2025 was not read; this rule rests on the publisher's "
    "announcements as reported: check it against the standard."
)


def _due(facts: CellFacts) -> bool:
    return (
        facts.planned_start is not None
        and facts.checked_on is not None
        and facts.planned_start <= facts.checked_on
    )


# --- R15.06-2025 Parts 1 and 2: the integrator's risk assessment ----------------


def _check_integration(facts: CellFacts) -> list[Finding]:
    rule = INTEGRATION
    a = facts.assessment
    if a.signed:
        return [
            rule.finding(
                Status.PASS,
                _CELL,
                gettext_noop(
                    "A signed risk assessment of the whole robot cell is recorded "
                    "(revision %(revision)s), as R15.06-2025 Part 2 (ISO "
                    "10218-2:2025) asks of the integrator."
                ),
                values={"revision": a.signed_revision or 0},
            )
        ]
    if _due(facts):
        return [
            rule.finding(
                Status.FAIL,
                _CELL,
                gettext_noop(
                    "The cell is planned to be in use from %(start)s, but no "
                    "signed risk assessment of the whole cell is recorded: R15.06-"
                    "2025 Part 2 (ISO 10218-2:2025) asks for it before the cell "
                    "is used."
                ),
                values={"start": facts.planned_start.isoformat()},  # type: ignore[union-attr]
            )
        ]
    return [
        rule.finding(
            Status.NEEDS_EVIDENCE,
            _CELL,
            gettext_noop(
                "R15.06-2025 Part 2 (ISO 10218-2:2025) asks the integrator for a "
                "documented risk assessment of the whole cell: complete and sign "
                "it before the cell is used."
            ),
        )
    ]


INTEGRATION = Rule(
    id="US-R15.06-integration",
    jurisdiction="US",
    citation=(
        "ANSI/A3 R15.06-2025, Parts 1 and 2 (adopting ISO 10218-1:2025 and ISO "
        "10218-2:2025)"
    ),
    text=gettext_noop(
        "ANSI/A3 R15.06-2025 is the American National Standard for industrial robots "
        "and robot systems. Its Parts 1 and 2 adopt ISO 10218-1:2025 (the robot) and "
        "ISO 10218-2:2025 (the robot application and cell), under which the integrator "
        "carries out and documents a risk assessment of the whole cell. Checked here: "
        "the latest revision of the risk assessment is signed; a cell due in use "
        "without one fails."
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="medium",  # published September 2025
    sources=SRC_R1506,
    check=_check_integration,
    caveat=STANDARD_CAVEAT,
)


# --- R15.06-2025 Part 3: the users' ongoing on-site risk assessment ---------------


def _check_users(facts: CellFacts) -> list[Finding]:
    rule = USERS
    a = facts.assessment
    if not a.signed:
        return [
            rule.finding(
                Status.NEEDS_EVIDENCE,
                _CELL,
                gettext_noop(
                    "R15.06-2025 Part 3 asks the users of the cell to keep its "
                    "risk assessment current on site: it starts from a signed "
                    "risk assessment, and none is recorded."
                ),
            )
        ]
    values = {"revision": a.signed_revision or 0}
    if a.signed_cell_fingerprint is None:
        return [
            rule.finding(
                Status.NEEDS_EVIDENCE,
                _CELL,
                gettext_noop(
                    "Revision %(revision)s was signed before the app recorded what "
                    "the cell looked like when it was assessed, so whether the "
                    "cell has changed since cannot be told: sign a new revision "
                    "after reviewing the cell on site."
                ),
                values=values,
            )
        ]
    if a.signed_cell_fingerprint != facts.cell_fingerprint():
        return [
            rule.finding(
                Status.FAIL,
                _CELL,
                gettext_noop(
                    "The cell has changed since revision %(revision)s was signed "
                    "(its robot figures, hazard zone, guards, openings or "
                    "devices): R15.06-2025 Part 3 asks the users to assess such "
                    "changes on site. Assess them and sign a new revision."
                ),
                values=values,
            )
        ]
    return [
        rule.finding(
            Status.PASS,
            _CELL,
            gettext_noop(
                "The cell is as it was when revision %(revision)s was signed. Keep "
                "the assessment current on site as the cell is used, changed or "
                "reconfigured (R15.06-2025 Part 3)."
            ),
            values=values,
            details=(
                Line(
                    text=gettext_noop(
                        "Part 3 covers the users' operating procedures, risk "
                        "management and ongoing safety practices for the cell."
                    )
                ),
            ),
        )
    ]


USERS = Rule(
    id="US-R15.06-part3-users",
    jurisdiction="US",
    citation="ANSI/A3 R15.06-2025, Part 3 (use of industrial robot cells)",
    text=gettext_noop(
        "R15.06-2025 Part 3, developed in the US because ISO standards do not cover "
        "users, sets out what the users of a robot cell do once it is installed: "
        "operating procedures, risk management and an ongoing risk assessment on site "
        "as layouts change and cells are reconfigured. Checked here: the cell as drawn "
        "now is the cell the latest signed revision assessed (the app records the "
        "cell's fingerprint at signing). Read in one report of the publisher's "
        "announcement."
    ),
    # One report of A3's announcement; the second page repeats it.
    certainty=RuleCertainty.TO_BE_CONFIRMED,
    checked_on=CHECKED_ON,
    volatility="high",  # Part 3 announced January 2026
    sources=SRC_PART3,
    check=_check_users,
    caveat=STANDARD_CAVEAT,
)


# --- OSHA 1910.212: machine guarding ------------------------------------------------


def _check_guarding(facts: CellFacts) -> list[Finding]:
    from compliance.rules.safeguarding import ENCLOSURE, OPENINGS_GUARDED

    rule = GUARDING
    found = [*ENCLOSURE.evaluate(facts), *OPENINGS_GUARDED.evaluate(facts)]
    failing = [f for f in found if f.status is Status.FAIL]
    if failing:
        subjects = ", ".join(dict.fromkeys(f.subject_label for f in failing))
        return [
            rule.finding(
                Status.FAIL,
                _CELL,
                gettext_noop(
                    "The plan leaves the robot's hazard zone open to people in the "
                    "machine area (%(subjects)s; see INTL-safeguarded-space and "
                    "INTL-opening-guarded): 1910.212(a)(1) asks for one or more "
                    "methods of machine guarding."
                ),
                values={"subjects": subjects},
            )
        ]
    if not found or any(f.status is Status.NEEDS_EVIDENCE for f in found):
        return [
            rule.finding(
                Status.NEEDS_EVIDENCE,
                _CELL,
                gettext_noop(
                    "Whether the guarding protects the operator and other "
                    "employees in the machine area cannot be told from the plan "
                    "yet (see INTL-safeguarded-space and INTL-opening-guarded)."
                ),
            )
        ]
    return [
        rule.finding(
            Status.PASS,
            _CELL,
            gettext_noop(
                "The plan guards the robot's hazard zone (closed perimeter, every "
                "opening guarded, or collaborative operation checked by its own "
                "rules), as 1910.212(a)(1) asks."
            ),
        )
    ]


GUARDING = Rule(
    id="US-OSHA-1910.212",
    jurisdiction="US",
    citation="29 CFR 1910.212(a)(1) (machine guarding)",
    text=gettext_noop(
        "OSHA 1910.212(a)(1): one or more methods of machine guarding shall be "
        "provided to protect the operator and other employees in the machine area from "
        "hazards such as those created by point of operation, ingoing nip points and "
        "rotating parts (barrier guards, two-hand tripping devices, electronic safety "
        "devices and the like). Checked here on the plan: the robot's hazard zone is "
        "enclosed and every opening guarded."
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="low",
    sources=SRC_1910_212,
    check=_check_guarding,
    caveat=OSHA_CAVEAT,
)


# --- OSHA 1910.147: lockout/tagout --------------------------------------------------

# The ISO 12100 life-cycle phases that are servicing, with the assessment's
# own labels for them.
SERVICING_PHASES = {
    "setting_teaching": gettext_noop("Setting, teaching and programming"),
    "cleaning": gettext_noop("Cleaning"),
    "fault_finding": gettext_noop("Fault finding"),
    "maintenance": gettext_noop("Maintenance"),
}
_LOTO_ITEMS = (
    gettext_noop(
        "Energy control procedures for the cell's energy sources (electrical, "
        "pneumatic, hydraulic, gravity, stored energy) for servicing and "
        "maintenance (1910.147(c)(4))."
    ),
    gettext_noop("Training of authorized and affected employees (1910.147(c)(7))."),
    gettext_noop(
        "A periodic inspection of each procedure at least annually (1910.147(c)(6))."
    ),
)


def _check_lockout(facts: CellFacts) -> list[Finding]:
    rule = LOCKOUT
    a = facts.assessment
    details = tuple(Line(text=item) for item in _LOTO_ITEMS)
    if not a.signed:
        return [
            rule.finding(
                Status.NEEDS_EVIDENCE,
                _CELL,
                gettext_noop(
                    "1910.147 applies to servicing and maintenance of the cell: "
                    "sign a risk assessment that covers those tasks, and put in "
                    "place the energy control program (the items listed)."
                ),
                details=details,
            )
        ]
    covered = [phase for phase in SERVICING_PHASES if phase in a.phases]
    if not covered:
        return [
            rule.finding(
                Status.FAIL,
                _CELL,
                gettext_noop(
                    "The signed risk assessment (revision %(revision)s) records "
                    "no hazard in maintenance, cleaning, fault finding or setting: "
                    "the servicing that 1910.147 governs is not assessed, so the "
                    "energy control procedures have nothing to rest on."
                ),
                values={"revision": a.signed_revision or 0},
                details=details,
            )
        ]
    return [
        rule.finding(
            Status.PASS,
            _CELL,
            gettext_noop(
                "The signed risk assessment covers servicing tasks (the phases "
                "listed): base the energy control procedures on them and keep the "
                "program (the items listed)."
            ),
            details=(*(Line(text=SERVICING_PHASES[p]) for p in covered), *details),
        )
    ]


LOCKOUT = Rule(
    id="US-OSHA-1910.147",
    jurisdiction="US",
    citation="29 CFR 1910.147 (the control of hazardous energy, lockout/tagout)",
    text=gettext_noop(
        "OSHA 1910.147 covers the servicing and maintenance of machines in which an "
        "unexpected start-up or release of stored energy could harm employees: the "
        "employer establishes an energy control program of procedures, employee "
        "training and periodic inspections (at least annually), so that the machine is "
        "isolated from its energy sources and made inoperative before servicing. "
        "Checked here: the signed risk assessment covers servicing tasks (maintenance, "
        "cleaning, fault finding, setting)."
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=CHECKED_ON,
    volatility="low",
    sources=SRC_1910_147,
    check=_check_lockout,
    caveat=OSHA_CAVEAT,
)


US_RULES: tuple[Rule, ...] = (INTEGRATION, USERS, GUARDING, LOCKOUT)
