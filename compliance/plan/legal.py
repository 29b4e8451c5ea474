"""What the law requires of a cell, on one page (issue 30): the duties of the
cell's jurisdiction, each cited once, with what the design already meets,
what is missing (a fail, or an open point and who will close it) and the
cost and lead time of the plan activity that closes it.

A duty is judged by the findings of the rules named with it, never by text:
the worst of them decides (a fail: missing; needs evidence or a warning: an
open point; all passed: met). A duty no rule can check (the robot's
self-declaration) is an open point while it has no record; one that comes
after installation (the periodic safety inspection) is said to come later.
The international standards' findings not used by a legal duty are judged
together on one line.

Korean duties cite the articles of ``../shared/reference/korea_art223.json``
(Rules on OSH Standards Arts. 222-224; OSH Act Arts. 84, 89 and 93 from
``osh_act_art84_safety_certification.summary_en``; the inspection periods
from ``enforcement_rule_periods.art126``). OSH Act Art. 36 (the employer's
risk assessment) and Art. 38 (safety measures) are cited by number and
subject only: their text is not in the reference set, so they carry the
certainty "to be confirmed". Pure Python and pydantic, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from compliance.calculators.base import gettext_noop
from compliance.plan.inputs import CE_CONFORMITY, KIRIA_CERTIFICATION
from compliance.plan.schedule import KCS_CERTIFICATION, RISK_ASSESSMENT

# The duties keep the law's order; each line says its status.
DutyStatus = Literal["met", "missing", "open", "later"]
FindingStatus = Literal["pass", "fail", "warning", "needs_evidence"]

INTEGRATOR = gettext_noop("the integrator's safety engineer")
EMPLOYER = gettext_noop("the customer as employer, with the integrator")
SUPPLIER = gettext_noop("the integrator, with the supplier's certificate")
ROBOT_SUPPLIER = gettext_noop("the robot's manufacturer or importer")
KIRIA_BODY = gettext_noop("the integrator, with KIRIA")
NOTIFIED = gettext_noop("the integrator as manufacturer of the cell")

NOT_READ = gettext_noop(
    "Cited by article number and subject; the article's text is not in the "
    "reference set this app was checked against."
)


@dataclass(frozen=True)
class Duty:
    """One duty of a jurisdiction's law, or the standards it points to.

    ``rules``: the rules whose findings judge it; none, and it is judged by
    ``unchecked`` (an open point, or a duty for later). ``covers``: duties
    listed below it that carry it out (OSH Act Art. 38 by Arts. 222-224);
    it is as good as the worst of them. ``citation`` empty: the citation of
    its first rule with a finding. ``activity``: the plan activity that
    closes it, its cost and lead time shown while it is not met."""

    key: str
    requirement: str  # English, gettext_noop
    citation: str = ""
    rules: tuple[str, ...] = ()
    covers: tuple[str, ...] = ()
    open_point: str = gettext_noop("Evidence is still to be recorded.")
    closed_by: str = INTEGRATOR
    activity: str = ""
    unchecked: DutyStatus | None = None
    note: str = ""
    # Shown only while a rule of it has a finding for this cell.
    conditional: bool = False


KOREA = (
    Duty(
        "kr_36",
        gettext_noop(
            "The employer assesses the risks of the work and records them and "
            "the measures taken."
        ),
        "산업안전보건법 제36조(위험성평가의 실시) / OSH Act Art. 36 (risk assessment)",
        rules=("INTL-10218-2-risk-assessment",),
        open_point=gettext_noop("The risk assessment of the cell is to be signed."),
        activity=RISK_ASSESSMENT,
        note=NOT_READ,
    ),
    Duty(
        "kr_38",
        gettext_noop(
            "The employer takes the safety measures against the dangers of "
            "machines; for an industrial robot the Rules on OSH Standards "
            "Arts. 222-224 below say which."
        ),
        "산업안전보건법 제38조(안전조치) / OSH Act Art. 38 (safety measures)",
        covers=("kr_223_fence", "kr_223_sensing", "kr_222_224"),
        note=NOT_READ,
    ),
    Duty(
        "kr_223_fence",
        gettext_noop(
            "A fence at least 1.8 m high round the robot's operating range; "
            "lower only where its height carries no risk."
        ),
        "산업안전보건기준에 관한 규칙 제223조 본문(울타리) / Rules on OSH "
        "Standards Art. 223, main text (fence)",
        rules=("KR-223-fence-height", "INTL-safeguarded-space"),
        open_point=gettext_noop("The fence is to be confirmed on the drawing."),
    ),
    Duty(
        "kr_223_sensing",
        gettext_noop(
            "Presence-sensing devices (a safety mat, a light curtain) where a "
            "fence cannot stand, for example at a conveyor."
        ),
        "산업안전보건기준에 관한 규칙 제223조 본문(감응형 방호장치) / Rules on "
        "OSH Standards Art. 223, main text (presence-sensing devices)",
        rules=("KR-223-openings", "INTL-opening-guarded"),
        open_point=gettext_noop(
            "The device guarding the opening is to be confirmed as installed."
        ),
    ),
    Duty(
        "kr_222_224",
        gettext_noop(
            "Written procedures for teaching, and for repair, cleaning and "
            "adjustment with the robot stopped and its start switch locked or "
            "marked."
        ),
        "산업안전보건기준에 관한 규칙 제222조(교시 등), 제224조(수리 등 작업 시의 "
        "조치 등) / Rules on OSH Standards Art. 222 (teaching) and Art. 224 "
        "(repair and similar work)",
        rules=("KR-222-224-procedures",),
        open_point=gettext_noop(
            "The written procedures are to be prepared and kept with the cell's "
            "documents."
        ),
        closed_by=EMPLOYER,
    ),
    Duty(
        "kr_84",
        gettext_noop(
            "The protective devices of an industrial robot carry the KCs safety "
            "certification."
        ),
        "산업안전보건법 제84조(안전인증) / OSH Act Art. 84 (safety certification)",
        rules=("KR-84-kcs",),
        open_point=gettext_noop("Its KCs certificate is to be on record."),
        closed_by=SUPPLIER,
        activity=KCS_CERTIFICATION,
    ),
    Duty(
        "kr_89",
        gettext_noop(
            "The industrial robot itself is self-declared (not certified) as a "
            "machine subject to self-declaration."
        ),
        "산업안전보건법 제89조(자율안전확인의 신고) / OSH Act Art. 89 "
        "(self-declaration)",
        open_point=gettext_noop(
            "The robot's self-declaration certificate is to be on record."
        ),
        closed_by=ROBOT_SUPPLIER,
        activity=KCS_CERTIFICATION,
        unchecked="open",
    ),
    Duty(
        "kr_kiria",
        gettext_noop(
            "Collaborative operation without the fence: the Minister's "
            "recognition under the proviso of Art. 223, in practice KIRIA's "
            "certification of the collaborative-robot workplace."
        ),
        "산업안전보건기준에 관한 규칙 제223조 단서; 한국로봇산업진흥원(KIRIA) 협동로봇 "
        "설치 작업장 안전인증 / Rules on OSH Standards Art. 223, proviso; KIRIA "
        "collaborative-robot workplace certification",
        rules=("KR-cobot-route",),
        open_point=gettext_noop(
            "KIRIA's certificate for this workplace is to be obtained."
        ),
        closed_by=KIRIA_BODY,
        activity=KIRIA_CERTIFICATION,
        conditional=True,
    ),
    Duty(
        "kr_93",
        gettext_noop(
            "Periodic safety inspection of the installed robot: the first within "
            "3 years of installation, then every 2 years."
        ),
        "산업안전보건법 제93조(안전검사), 같은 법 시행규칙 제126조 / OSH Act Art. 93 "
        "(safety inspection), Enforcement Rule Art. 126",
        closed_by=gettext_noop("the customer as employer, after installation"),
        unchecked="later",
    ),
)

EUROPE = (
    Duty(
        "eu_risk",
        gettext_noop(
            "The manufacturer of the machinery (for a cell, the integrator) "
            "assesses its risks before it is put into service."
        ),
        rules=(
            "EU-MR-risk-assessment",
            "EU-MD-risk-assessment",
            "INTL-10218-2-risk-assessment",
        ),
        open_point=gettext_noop("The risk assessment of the cell is to be signed."),
        activity=RISK_ASSESSMENT,
    ),
    Duty(
        "eu_requirements",
        gettext_noop(
            "The essential health and safety requirements, met through "
            "harmonised standards such as EN ISO 10218-2."
        ),
        rules=(
            "EU-MR-harmonised-standards",
            "EU-MD-harmonised-standards",
            "EU-MR-protection-against-corruption",
        ),
    ),
    Duty(
        "eu_conformity",
        gettext_noop("The conformity assessment procedure the machinery requires."),
        rules=("EU-MR-conformity-route", "EU-MD-conformity-route"),
        closed_by=NOTIFIED,
        activity=CE_CONFORMITY,
    ),
    Duty(
        "eu_file",
        gettext_noop(
            "The technical file, the EU declaration of conformity and the CE marking."
        ),
        rules=("EU-MR-technical-file", "EU-MD-technical-file"),
        closed_by=NOTIFIED,
        activity=CE_CONFORMITY,
    ),
    Duty(
        "eu_modification",
        gettext_noop(
            "A substantial modification of existing machinery makes the one who "
            "made it its manufacturer."
        ),
        rules=("EU-MR-substantial-modification",),
        conditional=True,
    ),
)

UNITED_STATES = (
    Duty(
        "us_integration",
        gettext_noop(
            "The integrator's risk assessment and safeguarding of the whole "
            "robot system."
        ),
        rules=("US-R15.06-integration", "INTL-10218-2-risk-assessment"),
        open_point=gettext_noop("The risk assessment of the cell is to be signed."),
        activity=RISK_ASSESSMENT,
    ),
    Duty(
        "us_guarding",
        gettext_noop(
            "Machine guarding that protects the operator and other employees in "
            "the machine area."
        ),
        rules=("US-OSHA-1910.212",),
    ),
    Duty(
        "us_users",
        gettext_noop(
            "The user's duties once the cell is installed: an ongoing risk "
            "assessment as the cell changes."
        ),
        rules=("US-R15.06-part3-users",),
        closed_by=EMPLOYER,
    ),
    Duty(
        "us_lockout",
        gettext_noop(
            "Control of hazardous energy (lockout/tagout) for servicing and "
            "maintenance."
        ),
        rules=("US-OSHA-1910.147",),
        closed_by=EMPLOYER,
    ),
)

BASELINE = (
    Duty(
        "intl_risk",
        gettext_noop(
            "A documented risk assessment of the complete cell, following ISO 12100."
        ),
        rules=("INTL-10218-2-risk-assessment",),
        open_point=gettext_noop("The risk assessment of the cell is to be signed."),
        activity=RISK_ASSESSMENT,
    ),
)

STANDARDS = Duty(
    "standards",
    gettext_noop(
        "Safeguarding as ISO 10218-2 and the standards it cites require: "
        "distances (ISO 13855), reach (ISO 13857), sensing devices (IEC 61496), "
        "safety functions (ISO 13849-1) and collaborative operation (ISO/TS "
        "15066)."
    ),
    "ISO 10218-2:2025",
)

DUTIES = {"KR": KOREA, "EU": EUROPE, "US": UNITED_STATES, "INTL": BASELINE}
TITLES = {
    "KR": gettext_noop("What the law requires in Korea"),
    "EU": gettext_noop("What the law requires in the EU / EEA"),
    "US": gettext_noop("What the law requires in the United States"),
    "INTL": gettext_noop("What the international standards require"),
}

# What stays open on a standards finding that needs evidence, by rule: said
# to the customer, not to the SA.
OPEN_POINTS = {
    "KR-223-fence-height": gettext_noop(
        "No fence: the cell relies on the proviso of Art. 223 (the KIRIA line)."
    ),
    "INTL-safeguarded-space": gettext_noop(
        "No closed perimeter: every check of collaborative operation must pass."
    ),
    "INTL-opening-guarded": gettext_noop(
        "The checks of the device guarding it are to be completed first."
    ),
    "INTL-13849-function": gettext_noop(
        "Its safety function is still to be verified and validated."
    ),
    "INTL-13857-mesh": gettext_noop("The fence's mesh size is to be recorded."),
    "INTL-scanner-approach": gettext_noop(
        "The figures behind the scanner's protective field are to be confirmed."
    ),
    "INTL-15066-mode": gettext_noop(
        "The collaborative operation mode is to be recorded in the risk assessment."
    ),
    "INTL-10218-cybersecurity": gettext_noop(
        "The protection of the safety functions against tampering is to be recorded."
    ),
    "INTL-13855-distance": gettext_noop(
        "The response and stopping times behind its minimum distance are to be "
        "confirmed."
    ),
    "INTL-13855-interlock": gettext_noop(
        "The stopping time behind the door's distance is to be confirmed."
    ),
    "INTL-61496-type": gettext_noop(
        "The hazards the device reduces are to be linked in the risk assessment."
    ),
    "INTL-13857-reach-over": gettext_noop(
        "The reach over the guard is to be confirmed."
    ),
    "INTL-15066-pfl": gettext_noop(
        "The body regions the robot may touch are to be recorded, then forces "
        "and pressures measured on the real cell."
    ),
    "INTL-15066-ssm": gettext_noop(
        "The figures behind the separation distance are to be confirmed."
    ),
    "INTL-robot-safety-configuration": gettext_noop(
        "The robot controller's safety configuration is to be recorded."
    ),
    "INTL-13855-2024-distance": gettext_noop(
        "The response and stopping times behind its minimum distance are to be "
        "confirmed."
    ),
    "EU-MR-protection-against-corruption": gettext_noop(
        "The robot controller's safety configuration is to be recorded."
    ),
    "EU-MR-conformity-route": gettext_noop(
        "Whether the cell or a part of it is listed in Annex I, which sets the "
        "procedure, is to be recorded."
    ),
    "EU-MD-conformity-route": gettext_noop(
        "Whether the cell or a part of it is listed in Annex IV, which sets the "
        "procedure, is to be recorded."
    ),
    "EU-MR-harmonised-standards": gettext_noop(
        "The harmonised standards the design follows are to be recorded."
    ),
    "EU-MD-harmonised-standards": gettext_noop(
        "The harmonised standards the design follows are to be recorded."
    ),
    "EU-MR-technical-file": gettext_noop(
        "The technical file is to be compiled once the risk assessment is signed."
    ),
    "EU-MD-technical-file": gettext_noop(
        "The technical file is to be compiled once the risk assessment is signed."
    ),
    "US-R15.06-part3-users": gettext_noop(
        "The site's way of keeping the risk assessment current is to be set up."
    ),
    "US-OSHA-1910.147": gettext_noop(
        "The energy control procedures for servicing are to be put in place."
    ),
}


class Item(BaseModel):
    """One finding, as the answer reads it."""

    model_config = ConfigDict(frozen=True)

    rule_id: str
    status: FindingStatus
    subject: str  # in the reader's language
    citation: str = ""  # the rule's, as written
    message: str = ""  # what a fail says, in the reader's language


class Cost(BaseModel):
    """What the plan activity that closes a duty costs and takes."""

    model_config = ConfigDict(frozen=True)

    name: str
    cost_low: Decimal | None = Field(default=None, ge=0)
    cost_high: Decimal | None = Field(default=None, ge=0)
    currency: str = ""
    weeks_low: Decimal = Field(ge=0)
    weeks_high: Decimal = Field(ge=0)


class Gap(BaseModel):
    """What is missing for a duty: a fail (``message``) or an open point."""

    model_config = ConfigDict(frozen=True)

    subject: str
    status: FindingStatus
    # A fail: the finding's words (reader's language); an open point: an
    # English message id (gettext_noop).
    message: str
    closed_by: str


class Answer(BaseModel):
    """One duty for this cell."""

    model_config = ConfigDict(frozen=True)

    key: str
    requirement: str
    citation: str
    status: DutyStatus
    met: tuple[str, ...] = ()  # subjects that meet it
    gaps: tuple[Gap, ...] = ()
    closed_by: str = ""
    note: str = ""
    # Carried out by the duties below it (OSH Act Art. 38).
    covered: bool = False
    cost: Cost | None = None
    # Its activity's cost is on an earlier line (shown once).
    cost_above: bool = False


class LegalAnswer(BaseModel):
    model_config = ConfigDict(frozen=True)

    jurisdiction: str
    title: str
    duties: tuple[Answer, ...]

    @property
    def missing(self) -> int:
        return sum(1 for d in self.duties if d.status == "missing")

    @property
    def open(self) -> int:
        return sum(1 for d in self.duties if d.status == "open")


_WORST = {"fail": 0, "warning": 1, "needs_evidence": 1, "pass": 2}


def _status(items: list[Item]) -> DutyStatus:
    worst = min(_WORST[i.status] for i in items)
    return ("missing", "open", "met")[worst]


def _gaps(duty: Duty, items: list[Item]) -> tuple[Gap, ...]:
    gaps: list[Gap] = []
    for item in items:
        if item.status == "pass":
            continue
        if item.status == "fail":
            message = item.message
        else:
            message = OPEN_POINTS.get(item.rule_id, duty.open_point)
        gap = Gap(
            subject=item.subject,
            status=item.status,
            message=message,
            closed_by=duty.closed_by,
        )
        if gap not in gaps:
            gaps.append(gap)
    # Fails first, in the findings' order.
    return tuple(sorted(gaps, key=lambda g: _WORST[g.status]))


def _unchecked_gaps(duty: Duty, status: DutyStatus) -> tuple[Gap, ...]:
    """A duty no rule checks: its open point while it is open."""
    if status != "open":
        return ()
    return (
        Gap(
            subject="",
            status="needs_evidence",
            message=duty.open_point,
            closed_by=duty.closed_by,
        ),
    )


def _met(items: list[Item]) -> tuple[str, ...]:
    subjects: list[str] = []
    for item in items:
        if item.status == "pass" and item.subject and item.subject not in subjects:
            subjects.append(item.subject)
    return tuple(subjects)


def legal_answer(
    jurisdiction: str, items: list[Item], costs: dict[str, Cost]
) -> LegalAnswer:
    """The duties of ``jurisdiction`` ("KR", "EU", "US", "INTL") for a cell
    whose findings are ``items``; ``costs``: the plan's activities by key."""
    duties = DUTIES.get(jurisdiction, BASELINE)
    by_rule: dict[str, list[Item]] = {}
    for item in items:
        by_rule.setdefault(item.rule_id, []).append(item)
    used = {rule for duty in duties for rule in duty.rules}
    answers: dict[str, Answer] = {}
    costed: set[str] = set()
    # The duties carried out by others last: they read the others' answers.
    for duty in sorted((*duties, STANDARDS), key=lambda d: bool(d.covers)):
        if duty is STANDARDS:
            found = [
                i
                for i in items
                if i.rule_id.startswith("INTL-") and i.rule_id not in used
            ]
        else:
            found = [i for rule in duty.rules for i in by_rule.get(rule, [])]
        if duty.covers:
            covered = [answers[k] for k in duty.covers if k in answers]
            if not covered:
                continue
            rank = {"missing": 0, "open": 1, "met": 2}
            status = min((a.status for a in covered), key=lambda s: rank[s])
            answers[duty.key] = Answer(
                key=duty.key,
                requirement=duty.requirement,
                citation=duty.citation,
                status=status,
                note=duty.note,
                covered=True,
            )
            continue
        if found:
            status = _status(found)
        elif duty.unchecked is not None:
            status = duty.unchecked
        else:
            continue  # no finding: the duty does not apply to this cell
        citation = duty.citation or next((i.citation for i in found), "")
        cost = costs.get(duty.activity) if duty.activity else None
        shown = status in ("missing", "open") and cost is not None
        answer = Answer(
            key=duty.key,
            requirement=duty.requirement,
            citation=citation,
            status=status,
            met=_met(found),
            gaps=_gaps(duty, found) if found else _unchecked_gaps(duty, status),
            closed_by=duty.closed_by,
            note=duty.note,
            cost=cost if shown else None,
            cost_above=shown and duty.activity in costed,
        )
        if shown:
            costed.add(duty.activity)
        answers[duty.key] = answer
    # Art. 38 stands before the articles that carry it out, as the law reads.
    ordered = [answers[d.key] for d in (*duties, STANDARDS) if d.key in answers]
    return LegalAnswer(
        jurisdiction=jurisdiction,
        title=TITLES.get(jurisdiction, TITLES["INTL"]),
        duties=tuple(ordered),
    )


def open_point(rule_id: str) -> str:
    """What stays open on a finding of ``rule_id`` that needs evidence, said
    to the customer (English, gettext_noop): the rule's own, else that of
    the duty it judges."""
    if rule_id in OPEN_POINTS:
        return OPEN_POINTS[rule_id]
    for duties in DUTIES.values():
        for duty in duties:
            if rule_id in duty.rules:
                return duty.open_point
    return STANDARDS.open_point


# The laws and standards the answer rests on (issue 30): a Korean statute
# under its Korean title, a standard by its number and, where KS adopts it,
# its KS number (korea_art223.json cobot_exemption_route.standards: KS B ISO
# 10218-1, KS B ISO 10218-2, KS B ISO/TS 15066; no other adoption is in the
# reference set, so no other KS number is given).
KOREAN_LAWS = (
    ("산업안전보건법", "Occupational Safety and Health Act"),
    ("산업안전보건법 시행령", "Enforcement Decree of the OSH Act"),
    ("산업안전보건법 시행규칙", "Enforcement Rule of the OSH Act"),
    (
        "산업안전보건기준에 관한 규칙",
        "Rules on Occupational Safety and Health Standards",
    ),
)
KS_ADOPTED = {
    "ISO 10218-1": "KS B ISO 10218-1",
    "ISO 10218-2": "KS B ISO 10218-2",
    "ISO/TS 15066": "KS B ISO/TS 15066",
}
STANDARDS_CITED = (
    "ISO 12100",
    "ISO 10218-1",
    "ISO 10218-2",
    "ISO 13849-1",
    "ISO 13855",
    "ISO 13857",
    "IEC 61496",
    "ISO/TS 15066",
)


def bibliography(jurisdiction: str, *, korean: bool) -> tuple[str, ...]:
    """The laws (Korea's) and standards cited, as a reader in Korean
    (``korean``) or in English reads them."""
    cited: list[str] = []
    if jurisdiction == "KR":
        cited += [
            native if korean else f"{english} ({native})"
            for native, english in KOREAN_LAWS
        ]
    for number in STANDARDS_CITED:
        ks = KS_ADOPTED.get(number)
        if ks and korean:
            cited.append(f"{ks} ({number})")
        elif ks and jurisdiction == "KR":
            cited.append(f"{number} ({ks})")
        else:
            cited.append(number)
    return tuple(cited)
