"""Line items for the work a cell's plan needs: signage, the risk assessment,
the Korean certifications and inspection (the KCs certification of devices,
the robot's self-declaration, the safety inspection and, for a collaborative
cell without the Art. 223 fence, the KIRIA workplace certification), the CE
conformity assessment and technical file of a cell in the EU / EEA, and the
measurements on the real cell. Pure Python, no Django."""

from __future__ import annotations

from decimal import Decimal

from compliance.calculators.base import Line, gettext_noop
from compliance.costs.builder import LineBuilder
from compliance.costs.line_items import (
    KCS_ITEM_NOTE,
    SAFETY_INSPECTION_CITATION,
    SELF_DECLARATION_CITATION,
)
from compliance.rules import baseline, collaborative, eu, korea, sensing


def signage(b: LineBuilder) -> None:
    if b.korea:
        reason = gettext_noop(
            "Signs for the cell, including the 'work in progress' sign for the "
            "start switch while teaching (Art. 222 item 3) and during repair, "
            "inspection, adjustment or cleaning (Art. 224)."
        )
        citation = korea.PROCEDURES.citation
        refs = b.about((korea.PROCEDURES.id,))
    else:
        reason = gettext_noop(
            "Warning signs at the cell's entrances: a planning allowance, not "
            "taken from a cited clause."
        )
        citation, refs = "", ()
    b.add(
        "signage",
        key="signage",
        quantity=Decimal(1),
        reason=Line(text=reason),
        citation=citation,
        findings=refs,
    )


def risk_assessment(b: LineBuilder) -> None:
    b.add(
        "risk_assessment",
        key="risk_assessment",
        quantity=Decimal(1),
        reason=Line(
            text=gettext_noop(
                "ISO 10218-2:2025 requires a documented risk assessment of the "
                "complete cell, following ISO 12100."
            )
        ),
        citation=baseline.RISK_ASSESSMENT.citation,
        findings=b.about((baseline.RISK_ASSESSMENT.id,)),
    )


def kcs_certifications(b: LineBuilder) -> None:
    for device in b.facts.devices_of(*korea.KCS_LISTED_KINDS):
        if device.kcs_certified is True:
            continue
        reason = (
            gettext_noop(
                "%(label)s is recorded as not KCs-certified: certify it, or "
                "replace it with a certified device."
            )
            if device.kcs_certified is False
            else gettext_noop(
                "%(label)s is not recorded as KCs-certified: check its "
                "certificate, or certify or replace it."
            )
        )
        values = {"label": device.label}
        b.add(
            "kcs_certification",
            key=f"kcs_certification:{device.key}",
            quantity=Decimal(1),
            description=Line(
                text=gettext_noop("KCs safety certification of %(label)s"),
                values=values,
            ),
            reason=Line(text=reason, values=values),
            citation=korea.KCS.citation,
            findings=b.about((korea.KCS.id,), (device.key,)),
            notes=(Line(text=KCS_ITEM_NOTE),),
        )


def self_declaration(b: LineBuilder) -> None:
    b.add(
        "kr_self_declaration",
        key="kr_self_declaration",
        quantity=Decimal(1),
        reason=Line(
            text=gettext_noop(
                "An industrial robot (3 or more axes) is subject to "
                "self-declaration of safety (자율안전확인 신고), not to safety "
                "certification: plan its lead time. Set the quantity to 0 if "
                "the robot's supplier has already filed it."
            )
        ),
        citation=SELF_DECLARATION_CITATION,
    )


def safety_inspection(b: LineBuilder) -> None:
    b.add(
        "kr_safety_inspection",
        key="kr_safety_inspection",
        quantity=Decimal(1),
        reason=Line(
            text=gettext_noop(
                "The first safety inspection (안전검사) of an industrial robot "
                "is due within 3 years of installation, then every 2 years."
            )
        ),
        citation=SAFETY_INSPECTION_CITATION,
    )


def kiria_certification(b: LineBuilder) -> None:
    """The KIRIA collaborative-robot workplace safety certification, the Art.
    223 proviso route, for a collaborative robot not fenced to the Art. 223
    height all round, unless a KIRIA certificate is in force on the day of
    the check. Decided on the same facts as the conformity-route rule
    (KR-cobot-route), which asks for the certificate: one decision, so the
    rule's helpers are called rather than copied."""
    facts = b.facts
    if facts.robot_kind != "collaborative" or korea._fenced(facts):
        return
    if korea._valid_certificate(facts) is not None:
        return
    b.add(
        "kiria_certification",
        key="kiria_certification",
        quantity=Decimal(1),
        reason=Line(
            text=gettext_noop(
                "A collaborative robot without the Art. 223 fence all round "
                "needs the Minister's recognition that it conforms to KS B ISO "
                "10218-2 and ISO/TS 15066, in practice the KIRIA "
                "collaborative-robot workplace safety certification (document "
                "review and on-site audit of the installed cell), and the cell "
                "records no KIRIA certificate in force."
            )
        ),
        citation=korea.COBOT_ROUTE.citation,
        findings=b.about((korea.COBOT_ROUTE.id,)),
    )


def ce_conformity(b: LineBuilder) -> None:
    """The CE conformity assessment and technical file of a cell in the EU /
    EEA: the integrator who assembles the cell is the manufacturer of the
    assembly and follows the conformity assessment procedure, compiles the
    technical file, draws up the declaration of conformity and affixes the CE
    marking. It answers the EU rules on the procedure and on the technical
    file of the instrument that applies to the cell (the Directive up to 19
    January 2027, the Regulation from 20 January 2027), and cites the latter,
    the one that names the CE marking. To be quoted: no public figure exists
    for an integrator's own assessment. A notified body's EC type examination
    (catalogue entry ``ec_type_certification``) is not derived: only Annex IV
    machinery (Directive) or Annex I Part A machinery (Regulation) needs
    one, which the cell's facts do not decide."""
    if eu.instrument(b.facts) == "directive":
        route, technical_file = eu.ROUTE_DIRECTIVE, eu.TECHNICAL_FILE_DIRECTIVE
        law = "Directive 2006/42/EC"
    else:
        route, technical_file = eu.ROUTE_REGULATION, eu.TECHNICAL_FILE_REGULATION
        law = "Regulation (EU) 2023/1230"
    b.add(
        "ce_conformity",
        key="ce_conformity",
        quantity=Decimal(1),
        reason=Line(
            text=gettext_noop(
                "The integrator who joins the robot, its tooling and guards into "
                "a cell is the manufacturer of the assembly (%(law)s): before the "
                "cell is put into service it follows the conformity assessment "
                "procedure, compiles the technical file, draws up the "
                "declaration of conformity and affixes the CE marking."
            ),
            values={"law": law},
        ),
        citation=technical_file.citation,
        findings=b.about((route.id, technical_file.id)),
    )


def measurements(b: LineBuilder) -> None:
    notes: tuple[Line, ...] = ()
    if b.facts.robot_stopping_time_ms is None:
        notes = (
            Line(text=gettext_noop("No stopping time is recorded for the robot.")),
        )
    b.add(
        "stopping_time_measurement",
        key="stopping_time_measurement",
        quantity=Decimal(1),
        reason=Line(
            text=gettext_noop(
                "The minimum distance of each sensing device (ISO 13855, S = K "
                "× T + C) and the protective separation distance of speed and "
                "separation monitoring use the robot's stopping time: measure "
                "it in the cell."
            )
        ),
        citation=sensing.MINIMUM_DISTANCE.citation,
        findings=b.about((sensing.MINIMUM_DISTANCE.id, collaborative.SSM.id)),
        notes=notes,
    )
    if "pfl" in b.facts.collaborative_modes:
        b.add(
            "pfl_measurement",
            key="pfl_measurement",
            quantity=Decimal(1),
            reason=Line(
                text=gettext_noop(
                    "Power and force limiting allows contact only within the "
                    "ISO/TS 15066 Annex A force and pressure limits of each body "
                    "region: measure the forces and pressures in the cell."
                )
            ),
            citation=collaborative.PFL.citation,
            findings=b.about((collaborative.PFL.id,)),
        )
