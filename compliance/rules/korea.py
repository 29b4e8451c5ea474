"""Korea rule pack: Rules on Occupational Safety and Health Standards
(산업안전보건기준에 관한 규칙) Arts. 222, 223 and 224, and OSH Act
(산업안전보건법) Art. 84 safety certification (KCs).

Every figure is copied from the reference data ``korea_art223.json`` (the
key is named beside each); the rules' Korean texts are in the catalogue, and
where they quote an article it is the article's own words from there.
The article texts there agree in two secondary sources (legalize-kr's
consolidated text incl. the 2024-06-28 amendment, and Rainbow Robotics' cobot
manual) but were not checked against the National Law Information Center
(국가법령정보센터): every rule here is at most ``secondary_sources`` and says
that the text must be confirmed there. The English is this project's
translation, not an official one.
"""

from __future__ import annotations

from compliance.calculators.base import Line, gettext_noop
from compliance.rules.facts import (
    CELL_SUBJECT,
    SENSING_DEVICE_KINDS,
    CellFacts,
    CertificateFacts,
    DeviceFacts,
)
from compliance.rules.findings import (
    REFERENCE_SET_DATE,
    Finding,
    Rule,
    RuleCertainty,
    Status,
    mm,
    number,
    pending_notes,
)
from compliance.rules.korea_texts import (
    ARTICLE_SOURCES,
    COBOT_ROUTE_SOURCES,
    FENCE_MIN_HEIGHT_MM,
    KCS_SOURCES,
    PROCEDURE_ITEMS,
)

# Devices the reference places under the robot item: its light_curtain_note
# names "Light curtains/laser scanners as industrial-robot protective devices";
# a multi-beam light grid is a photoelectric (광전자식) device like a curtain.
KCS_LISTED_KINDS = ("light_curtain", "multibeam", "laser_scanner")
# Art. 223 names safety mats, but the reference does not say whether mats for
# robots fall under the notified item: asked for, never failed.
KCS_UNSETTLED_KINDS = ("safety_mat",)

LAW_CAVEAT = gettext_noop(
    "The legal text was read in secondary sources and has not been checked "
    "against the National Law Information Center (law.go.kr): confirm it there "
    "before relying on this finding."
)


# The certificate kind that shows the Minister's recognition in practice.
KIRIA_COBOT_WORKPLACE = "kiria_cobot_workplace"


def _kiria_certificates(facts: CellFacts) -> tuple[CertificateFacts, ...]:
    return tuple(c for c in facts.certificates if c.kind == KIRIA_COBOT_WORKPLACE)


def _valid_certificate(facts: CellFacts) -> CertificateFacts | None:
    """The KIRIA certificate in force on the day of the check (the one valid
    longest if several are), or None; none counts when the day is unknown."""
    if facts.checked_on is None:
        return None
    day = facts.checked_on
    valid = [c for c in _kiria_certificates(facts) if c.valid_on(day)]
    return max(valid, key=lambda c: c.valid_until, default=None)


def _cobot_route_taken(facts: CellFacts) -> bool:
    """The Art. 223 proviso holds for a collaborative robot once the conformity
    is recognised, in practice by a KIRIA workplace certificate: a record
    valid on the day of the check, never a line of text. And what relaxes a
    rule comes from the latest signed revision: it must name the route."""
    a = facts.assessment
    return (
        facts.robot_kind == "collaborative"
        and a.signed
        and a.conformity_route_recorded
        and _valid_certificate(facts) is not None
    )


def _certificate_values(certificate: CertificateFacts) -> dict[str, str]:
    return {
        "number": certificate.number,
        "issuer": certificate.issuing_body,
        "issued": certificate.issued_on.isoformat(),
        "valid_until": certificate.valid_until.isoformat(),
    }


def _fenced(facts: CellFacts) -> bool:
    return bool(facts.segments) and all(
        s.height_mm >= FENCE_MIN_HEIGHT_MM for s in facts.segments
    )


def _labels(devices: tuple[DeviceFacts, ...]) -> str:
    return ", ".join(d.label for d in devices)


# --- Art. 223: fence height ---------------------------------------------------

_PROVISO_TEXT = gettext_noop(
    "%(label)s is %(height)s mm high, below the %(required)s mm fence of Art. 223: "
    "this relies on the Art. 223 proviso for the collaborative application, "
    "recognised by KIRIA collaborative-robot workplace safety certificate no. "
    "%(number)s (%(issuer)s, valid until %(valid_until)s; see KR-cobot-route). "
    "The proviso holds for the certified scope only: keep the certificate on "
    "file, and fence the cell if it changes beyond that scope."
)


def _check_fence_height(facts: CellFacts) -> list[Finding]:
    rule = FENCE_HEIGHT
    required = FENCE_MIN_HEIGHT_MM
    certificate = _valid_certificate(facts) if _cobot_route_taken(facts) else None
    if not facts.segments:
        subject = (CELL_SUBJECT, gettext_noop("Cell"))
        numbers = {"required_mm": required}
        if certificate is not None:
            return [
                rule.finding(
                    Status.WARNING,
                    subject,
                    gettext_noop(
                        "No fence is recorded: this relies on the Art. 223 proviso "
                        "for the collaborative application, recognised by KIRIA "
                        "collaborative-robot workplace safety certificate no. "
                        "%(number)s (%(issuer)s, valid until %(valid_until)s; see "
                        "KR-cobot-route). The proviso holds for the certified "
                        "scope only: keep the certificate on file, and fence the "
                        "cell if it changes beyond that scope."
                    ),
                    values=_certificate_values(certificate),
                    numbers=numbers,
                )
            ]
        if facts.robot_kind == "collaborative" and facts.collaborative_modes:
            # The proviso's route exists for a collaborative application: it
            # is allowed once certified, with what is still missing said
            # (KR-cobot-route), never a bare fail nor "no fence needed".
            return [
                rule.finding(
                    Status.NEEDS_EVIDENCE,
                    subject,
                    gettext_noop(
                        "No fence is recorded. Art. 223 requires one at least "
                        "%(required)s mm high unless its proviso for the "
                        "collaborative application holds: allowed once the KIRIA "
                        "collaborative-robot workplace safety certification is on "
                        "record and the signed risk assessment names the "
                        "conformity route; what is still missing is listed with "
                        "the collaborative route."
                    ),
                    values={"required": mm(required)},
                    numbers=numbers,
                )
            ]
        return [
            rule.finding(
                Status.FAIL,
                subject,
                gettext_noop(
                    "No guard segments are recorded: Art. 223 requires a fence at "
                    "least %(required)s mm high around the robot's operating range."
                ),
                values={"required": mm(required)},
                numbers=numbers,
            )
        ]

    findings = []
    for segment in facts.segments:
        values = {
            "label": segment.label,
            "height": mm(segment.height_mm),
            "required": mm(required),
        }
        numbers = {"height_mm": number(segment.height_mm), "required_mm": required}
        subject = (segment.key, segment.label)
        if segment.height_mm >= required:
            status, message = (
                Status.PASS,
                gettext_noop(
                    "%(label)s is %(height)s mm high: at least the %(required)s mm "
                    "fence that Art. 223 requires."
                ),
            )
        elif certificate is not None:
            status, message = Status.WARNING, _PROVISO_TEXT
            values.update(_certificate_values(certificate))
        elif facts.assessment.low_fence_justified:
            status, message = (
                Status.WARNING,
                gettext_noop(
                    "%(label)s is %(height)s mm high, below %(required)s mm. Art. 223 "
                    "allows a lower fence only where, considering the robot's range "
                    'of motion, there is no height-related risk ("로봇의 가동범위 등을 '
                    '고려하여 높이로 인한 위험성이 없는 경우"). The risk assessment '
                    "records this justification: keep it with the assessment and have "
                    "it reviewed."
                ),
            )
        else:
            status, message = (
                Status.FAIL,
                gettext_noop(
                    "%(label)s is %(height)s mm high, below the %(required)s mm fence "
                    "that Art. 223 requires. Raise it to at least %(required)s mm, or "
                    "record in the risk assessment why, given the robot's range of "
                    "motion, a lower guard carries no height-related risk, and sign "
                    "it."
                ),
            )
        notes = (
            pending_notes(facts.assessment, "low_fence_justification")
            if status is Status.FAIL
            else ()
        )
        findings.append(
            rule.finding(
                status, subject, message, values=values, numbers=numbers, notes=notes
            )
        )
    return findings


FENCE_HEIGHT = Rule(
    id="KR-223-fence-height",
    jurisdiction="KR",
    citation=(
        "산업안전보건기준에 관한 규칙 제223조(운전 중 위험 방지) 본문 / Rules on "
        "OSH Standards Art. 223, main text (as amended 2024-06-28)"
    ),
    text=gettext_noop(
        # Translators: the Korean opens with Art. 223 of the Rules on OSH Standards
        # in its own words, verbatim from the reference (korea_art223.json,
        # articles[1].text_ko): keep them as they are.
        "To prevent injury and other dangers to workers from the operation of a robot "
        "(excluding operation for teaching etc. under Art. 222 and operation under the "
        "proviso of Art. 224), the employer shall install a fence at least 1.8 m high "
        "(the height may be reduced where, considering the robot's range of motion "
        "etc., there is no height-related risk), and, for sections where a fence "
        "cannot be installed because of e.g. a conveyor system, shall install "
        "presence-sensing protective devices such as safety mats or photoelectric "
        "(opto-electronic) protective devices. However, where the Minister of "
        "Employment and Labor recognises that the robot's safety standard conforms to "
        "the Korean Industrial Standards (KS) or to internationally accepted safety "
        "standards, the measures in the main text need not be taken. Checked here: "
        "every guard segment at least 1,800 mm high, unless the risk assessment "
        "records why a lower guard carries no height-related risk. The article text "
        "was read in two secondary sources and must be confirmed against the National "
        "Law Information Center (law.go.kr); the English is not an official "
        "translation."
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,  # articles[1].confirmed_two_sources
    checked_on=REFERENCE_SET_DATE,
    volatility="medium",  # amended 2016, 2018, 2022 and 2024 (articles[1].history)
    sources=ARTICLE_SOURCES,
    check=_check_fence_height,
    revision=2,
    caveat=LAW_CAVEAT,
)


# --- Art. 223: presence-sensing devices where a fence cannot be installed ----


def _check_openings(facts: CellFacts) -> list[Finding]:
    rule = OPENINGS
    proviso = _cobot_route_taken(facts)
    findings = []
    for opening in facts.openings:
        linked = facts.devices_for(opening.key)
        sensing = tuple(d for d in linked if d.kind in SENSING_DEVICE_KINDS)
        doors = tuple(d for d in linked if d.kind == "interlocked_door")
        values = {"label": opening.label, "width": mm(opening.width_mm)}
        numbers = {"width_mm": number(opening.width_mm)}
        notes: tuple[Line, ...] = ()
        if sensing:
            status, message = (
                Status.PASS,
                gettext_noop(
                    "%(label)s is guarded by %(devices)s: a presence-sensing protective "
                    "device, as Art. 223 requires where a fence cannot be installed."
                ),
            )
            values["devices"] = _labels(sensing)
        elif doors:
            status, message = (
                Status.PASS,
                gettext_noop(
                    "%(label)s is closed by the interlocked door %(devices)s."
                ),
            )
            values["devices"] = _labels(doors)
            notes = (
                Line(
                    text=gettext_noop(
                        "Art. 223 names fences and presence-sensing devices, not "
                        "doors: an interlocked door is counted here as part of the "
                        "fence."
                    )
                ),
            )
        elif proviso:
            status, message = (
                Status.WARNING,
                gettext_noop(
                    "%(label)s (%(width)s mm wide) has no presence-sensing device or "
                    "interlocked door: this relies on the Art. 223 proviso for the "
                    "collaborative application (see KR-cobot-route)."
                ),
            )
        else:
            status, message = (
                Status.FAIL,
                gettext_noop(
                    "%(label)s (%(width)s mm wide) has no presence-sensing device or "
                    "interlocked door linked to it. Art. 223 requires a presence-sensing "
                    "protective device, such as a safety mat or a light curtain, where "
                    "a fence cannot be installed."
                ),
            )
        findings.append(
            rule.finding(
                status,
                (opening.key, opening.label),
                message,
                values=values,
                numbers=numbers,
                notes=notes,
            )
        )
    return findings


OPENINGS = Rule(
    id="KR-223-openings",
    jurisdiction="KR",
    citation=(
        "산업안전보건기준에 관한 규칙 제223조 본문 (감응형 방호장치) / Rules on OSH "
        "Standards Art. 223, main text (presence-sensing devices)"
    ),
    text=gettext_noop(
        # Translators: the Korean quotes Art. 223's own words on sensing devices,
        # verbatim from the reference (korea_art223.json): keep them as they are.
        "Art. 223: for sections where a fence cannot be installed, e.g. because of a "
        "conveyor system, presence-sensing protective devices such as safety mats or "
        "photoelectric (opto-electronic) protective devices must be installed. Checked "
        "here: each opening in the guard has a presence-sensing device or an "
        "interlocked door linked to it. The article text was read in two secondary "
        "sources and must be confirmed against the National Law Information Center "
        "(law.go.kr); the English is not an official translation."
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,  # articles[1].confirmed_two_sources
    checked_on=REFERENCE_SET_DATE,
    volatility="medium",  # the 2018.8.14 amendment introduced this (history)
    sources=ARTICLE_SOURCES,
    check=_check_openings,
    caveat=LAW_CAVEAT,
)


# --- OSH Act Art. 84: KCs safety certification of protective devices --------

_KCS_NOTE = gettext_noop(
    'The list item for industrial-robot protective devices ("충돌ㆍ협착 등의 위험 '
    "방지에 필요한 산업용 로봇 방호장치로서 고용노동부장관이 정하여 고시하는 "
    '것") was read in one secondary source only, and the current Enforcement '
    "Decree text was not obtained: confirm the item and the Minister's notice "
    "(고시) before relying on this finding."
)


def _check_kcs(facts: CellFacts) -> list[Finding]:
    rule = KCS
    findings = []
    for device in facts.devices_of(*KCS_LISTED_KINDS, *KCS_UNSETTLED_KINDS):
        subject = (device.key, device.label)
        values = {"label": device.label}
        listed = device.kind in KCS_LISTED_KINDS
        if device.kcs_certificate_no:
            values["certificate"] = device.kcs_certificate_no
            status, message = (
                Status.PASS,
                gettext_noop(
                    "%(label)s carries KCs safety certification (안전인증) no. "
                    "%(certificate)s: keep the certificate with the cell's records."
                ),
            )
        elif device.kcs_certified and listed:
            # A tick is not a record: the certificate number is.
            status, message = (
                Status.NEEDS_EVIDENCE,
                gettext_noop(
                    "%(label)s is marked as KCs-certified, but no certificate number "
                    "is recorded: record the number of its KCs safety certificate "
                    "(안전인증)."
                ),
            )
        elif not listed:
            status, message = (
                Status.NEEDS_EVIDENCE,
                gettext_noop(
                    "The reference does not say whether safety mats for robots fall "
                    "under the notified item for industrial-robot protective devices: "
                    "confirm with the Minister's notice whether %(label)s needs KCs "
                    "safety certification, and record it."
                ),
            )
        elif device.kcs_certified is None:
            status, message = (
                Status.NEEDS_EVIDENCE,
                gettext_noop(
                    "Record whether %(label)s carries KCs safety certification "
                    "(안전인증): protective devices for industrial robots that prevent "
                    "collision and crushing are listed as needing it."
                ),
            )
        else:
            status, message = (
                Status.FAIL,
                gettext_noop(
                    "%(label)s is recorded as not KCs-certified. Protective devices for "
                    "industrial robots that prevent collision and crushing are listed "
                    "as needing KCs safety certification (OSH Act Art. 84): choose a "
                    "certified device."
                ),
            )
        findings.append(
            rule.finding(
                status,
                subject,
                message,
                values=values,
                notes=(Line(text=_KCS_NOTE),),
            )
        )
    return findings


KCS = Rule(
    id="KR-84-kcs",
    jurisdiction="KR",
    citation=(
        "산업안전보건법 제84조(안전인증); 같은 법 시행령 제74조제1항제2호 / OSH "
        "Act Art. 84 (safety certification); Enforcement Decree Art. 74(1)(ii)"
    ),
    text=gettext_noop(
        # Translators: the decree's item in quotation marks and its legal basis are
        # the law's own words, verbatim from the reference (korea_art223.json):
        # keep them as they are.
        "OSH Act Art. 84: manufacturers and importers of protective devices designated "
        "for safety certification must obtain the Ministry of Employment and Labor's "
        "safety certification (KCs). The designated protective devices (Enforcement "
        "Decree Art. 74(1)(ii)) include protective devices for industrial robots "
        "needed to prevent collision and crushing, as notified by the Minister; light "
        "curtains and laser scanners used as robot protective devices fall under that "
        "item. That item rests on one secondary source and the current Decree text was "
        "not obtained: to be confirmed."
    ),
    # osh_act_art84...confirmed_two_sources: false; the robot device item is
    # single-source (protective_devices_...confirmation_note).
    certainty=RuleCertainty.TO_BE_CONFIRMED,
    checked_on=REFERENCE_SET_DATE,
    volatility="high",  # the device item is set by a ministerial notice (고시)
    sources=KCS_SOURCES,
    check=_check_kcs,
    caveat=LAW_CAVEAT,
)


# --- Art. 223 proviso: the collaborative-robot route ------------------------

_ROUTE_NAMED = gettext_noop(
    "The route: conformity with KS B ISO 10218-1/-2 and KS B ISO/TS 15066, "
    "recognised through the KIRIA (한국로봇산업진흥원) collaborative-robot "
    "workplace safety certification (협동로봇 설치 작업장 안전인증): document "
    "review and on-site audit, certificate valid 3 years."
)


def _check_cobot_route(facts: CellFacts) -> list[Finding]:
    if facts.robot_kind != "collaborative":
        return []
    rule = COBOT_ROUTE
    subject = (CELL_SUBJECT, gettext_noop("Cell"))
    route = (Line(text=_ROUTE_NAMED),)
    if _fenced(facts):
        return [
            rule.finding(
                Status.PASS,
                subject,
                gettext_noop(
                    "The collaborative robot is fenced to at least %(required)s mm "
                    "all round (Art. 223 main text): the proviso route is not needed."
                ),
                values={"required": mm(FENCE_MIN_HEIGHT_MM)},
            )
        ]
    a = facts.assessment
    certificate = _valid_certificate(facts)
    if _cobot_route_taken(facts) and certificate is not None:
        return [
            rule.finding(
                Status.PASS,
                subject,
                gettext_noop(
                    "KIRIA collaborative-robot workplace safety certificate no. "
                    "%(number)s, issued by %(issuer)s, is valid until "
                    "%(valid_until)s, and the latest signed risk assessment names "
                    "the conformity route: the Art. 223 proviso is taken. The "
                    "exemption from the fence holds for the certified scope only; "
                    "keep the certificate on file and renew it before it expires."
                ),
                values=_certificate_values(certificate),
                details=(*route, _certificate_line(facts), _scope_line(certificate)),
            )
        ]
    if a.signed and a.conformity_route_recorded:
        # The route is named; the certificate is missing or not in force.
        recorded, state = _on_record(facts)
        message = _CERTIFICATE_MESSAGES[state]
        values = _dated_values(facts, recorded) if recorded else {}
    elif certificate is not None:
        values = _certificate_values(certificate)
        message = (
            gettext_noop(
                "KIRIA certificate no. %(number)s (%(issuer)s, valid until "
                "%(valid_until)s) is recorded, but the risk assessment is not "
                "signed: record the conformity route (KS B ISO 10218 / ISO/TS "
                "15066) in it and sign it; until then the Art. 223 fence rule "
                "applies."
            )
            if not a.signed
            else gettext_noop(
                "KIRIA certificate no. %(number)s (%(issuer)s, valid until "
                "%(valid_until)s) is recorded, but the signed risk assessment "
                "records no conformity route (KS B ISO 10218 / ISO/TS 15066) for "
                "working without the fence: record it and sign the revision; "
                "until then the Art. 223 fence rule applies."
            )
        )
    elif not a.signed and not a.conformity_route_recorded:
        message, values = (
            gettext_noop(
                "A collaborative robot is not exempt from the Art. 223 fence by "
                "itself. Record the conformity route (KS B ISO 10218 / ISO/TS "
                "15066) in the risk assessment and sign it, and record the KIRIA "
                "certificate; until then the fence rule applies."
            ),
            {},
        )
    elif not a.signed:
        message, values = (
            gettext_noop(
                "The conformity route is recorded but the risk assessment is not "
                "signed: sign it; until then the Art. 223 fence rule applies."
            ),
            {},
        )
    else:
        message, values = (
            gettext_noop(
                "The risk assessment is signed but records no conformity route (KS "
                "B ISO 10218 / ISO/TS 15066) for working without the fence, and no "
                "KIRIA collaborative-robot workplace safety certificate is on "
                "record: both are needed; until then the Art. 223 fence rule "
                "applies."
            ),
            {},
        )
    return [
        rule.finding(
            Status.NEEDS_EVIDENCE,
            subject,
            message,
            values=values,
            details=(*route, _certificate_line(facts)),
            notes=pending_notes(a, "conformity_route"),
        )
    ]


def _on_record(facts: CellFacts) -> tuple[CertificateFacts | None, str]:
    """The KIRIA certificate that matters on the day of the check, and its
    state: "valid", "undated" (the day is not known), "not_yet_valid" (a
    certificate that starts later, e.g. a renewal), "expired", or "none"."""
    recorded = _kiria_certificates(facts)
    if not recorded:
        return None, "none"
    if facts.checked_on is None:
        return max(recorded, key=lambda c: c.valid_until), "undated"
    valid = _valid_certificate(facts)
    if valid is not None:
        return valid, "valid"
    day = facts.checked_on
    upcoming = [c for c in recorded if c.issued_on > day]
    if upcoming:
        return min(upcoming, key=lambda c: c.issued_on), "not_yet_valid"
    return max(recorded, key=lambda c: c.valid_until), "expired"


def _dated_values(facts: CellFacts, certificate: CertificateFacts) -> dict[str, str]:
    values = _certificate_values(certificate)
    if facts.checked_on is not None:
        values["checked_on"] = facts.checked_on.isoformat()
    return values


_CERTIFICATE_MESSAGES = {
    "none": gettext_noop(
        "The signed risk assessment names conformity with KS B ISO 10218 / "
        "ISO/TS 15066 as the route for working without the Art. 223 fence, but "
        "the route rests on the recognition itself, in practice the KIRIA "
        "collaborative-robot workplace safety certificate: record it (issuing "
        "body, number, issued, valid until, scope). Until then the Art. 223 "
        "fence rule applies."
    ),
    "undated": gettext_noop(
        "KIRIA certificate no. %(number)s is valid from %(issued)s until "
        "%(valid_until)s, but the date of this check is not known, so whether it "
        "is in force cannot be told; until then the Art. 223 fence rule applies."
    ),
    "expired": gettext_noop(
        "KIRIA certificate no. %(number)s (%(issuer)s, issued %(issued)s) was "
        "valid until %(valid_until)s: it has expired by the date of this check "
        "(%(checked_on)s). Renew the certification and record the new "
        "certificate; until then the Art. 223 fence rule applies."
    ),
    "not_yet_valid": gettext_noop(
        "KIRIA certificate no. %(number)s (%(issuer)s) is valid only from "
        "%(issued)s until %(valid_until)s: it is not yet in force on the date of "
        "this check (%(checked_on)s). Until it is, the Art. 223 fence rule "
        "applies."
    ),
}

_CERTIFICATE_LINES = {
    "none": gettext_noop(
        "No KIRIA collaborative-robot workplace safety certificate is recorded "
        "for this cell."
    ),
    "valid": gettext_noop(
        "KIRIA certificate on record: no. %(number)s (%(issuer)s), valid "
        "%(issued)s to %(valid_until)s, in force on the date of this check "
        "(%(checked_on)s)."
    ),
    "undated": gettext_noop(
        "KIRIA certificate on record: no. %(number)s (%(issuer)s), valid "
        "%(issued)s to %(valid_until)s; the date of this check is not known."
    ),
    "expired": gettext_noop(
        "KIRIA certificate on record: no. %(number)s (%(issuer)s), valid "
        "%(issued)s to %(valid_until)s: expired on the date of this check "
        "(%(checked_on)s)."
    ),
    "not_yet_valid": gettext_noop(
        "KIRIA certificate on record: no. %(number)s (%(issuer)s), valid "
        "%(issued)s to %(valid_until)s: not yet in force on the date of this "
        "check (%(checked_on)s)."
    ),
}


def _certificate_line(facts: CellFacts) -> Line:
    """What the cell records of the KIRIA certificate, for the details."""
    certificate, state = _on_record(facts)
    values = _dated_values(facts, certificate) if certificate else {}
    return Line(text=_CERTIFICATE_LINES[state], values=values)


def _scope_line(certificate: CertificateFacts) -> Line:
    if certificate.scope:
        return Line(
            text=gettext_noop("Certified scope: %(scope)s"),
            values={"scope": certificate.scope},
        )
    return Line(
        text=gettext_noop(
            "No scope is recorded with the certificate: record what it covers, "
            "as it states it, so that a change to the cell beyond that scope is "
            "noticed."
        )
    )


COBOT_ROUTE = Rule(
    id="KR-cobot-route",
    jurisdiction="KR",
    citation=(
        "산업안전보건기준에 관한 규칙 제223조 단서; KS B ISO 10218-2, KS B ISO/TS "
        "15066 (KIRIA 협동로봇 설치 작업장 안전인증) / Rules on OSH Standards Art. "
        "223 proviso; KIRIA collaborative-robot workplace certification"
    ),
    text=gettext_noop(
        # Translators: the Korean quotes the proviso of Art. 223 in its own words,
        # verbatim from the reference (korea_art223.json): keep them as they are.
        "Art. 223 proviso: the fence and sensing devices need not be provided where "
        "the Minister of Employment and Labor recognises that the robot's safety "
        "conforms to the Korean Industrial Standards or to internationally accepted "
        "standards. In practice (MOEL guidance of April 2018) KIRIA certifies "
        "collaborative-robot workplaces against KS B ISO 10218-2 / ISO 10218-2 and "
        "ISO/TS 15066: document review and on-site audit, certificate valid 3 years. A "
        "collaborative robot is never exempt by itself. Checked here: the cell records "
        "a KIRIA collaborative-robot workplace safety certificate in force on the day "
        "of the check (issued on or before it, valid until it or later) and the latest "
        "signed risk assessment names the conformity route; even then the exemption "
        "holds for the certified scope only. The article text was read in two "
        "secondary sources and must be confirmed against the National Law Information "
        "Center (law.go.kr); the English is not an official translation."
    ),
    # articles[1] and cobot_exemption_route: confirmed_two_sources true.
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=REFERENCE_SET_DATE,
    volatility="high",  # administrative practice; new KS (mobile cobots 2024-11-01)
    sources=(*ARTICLE_SOURCES, *COBOT_ROUTE_SOURCES),
    check=_check_cobot_route,
    revision=2,
    caveat=LAW_CAVEAT,
)


# --- Arts. 222 and 224: teaching and repair procedures ----------------------


def _check_procedures(facts: CellFacts) -> list[Finding]:
    rule = PROCEDURES
    return [
        rule.finding(
            Status.NEEDS_EVIDENCE,
            (CELL_SUBJECT, gettext_noop("Cell")),
            gettext_noop(
                "Put in place written procedures for teaching (Art. 222) and for "
                "repair, inspection, adjustment, cleaning and lubrication (Art. "
                "224), and keep them with the cell's documents."
            ),
            details=tuple(Line(text=item) for item in PROCEDURE_ITEMS),
            notes=(
                Line(
                    text=gettext_noop(
                        "The topics of Art. 222 item 1 (a)-(f) are confirmed, but "
                        "their exact Korean wording was not verified verbatim."
                    )
                ),
            ),
        )
    ]


PROCEDURES = Rule(
    id="KR-222-224-procedures",
    jurisdiction="KR",
    citation=(
        "산업안전보건기준에 관한 규칙 제222조(교시 등), 제224조(수리 등 작업 시의 "
        "조치 등) / Rules on OSH Standards Arts. 222 (teaching) and 224 (repair)"
    ),
    text=gettext_noop(
        # Translators: the Korean quotes Arts. 222 and 224 in their own words,
        # verbatim from the reference (korea_art223.json, articles[0] and
        # articles[2]); the item topics of Art. 222 are not verbatim-verified.
        "Art. 222: when teaching within the robot's operating range, the employer sets "
        "guidelines (operating method and sequence, manipulator speed, signalling, "
        "action on an abnormality, restarting, other measures) and has the work done "
        "by them; the worker or watcher can stop the robot at once; the start switch "
        "is marked 'work in progress'. Art. 224: for repair, inspection, adjustment, "
        "cleaning or lubrication the robot is stopped and its start switch locked (key "
        "kept separately) or signed, unless the work must be done while it runs and "
        "the Art. 222 measures are taken. The article text was read in two secondary "
        "sources and must be confirmed against the National Law Information Center "
        "(law.go.kr); the English is not an official translation."
    ),
    # articles[0] and articles[2]: confirmed_two_sources true.
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=REFERENCE_SET_DATE,
    volatility="low",  # Art. 222 last amended 2016.4.7; Art. 224 shows no tag
    sources=ARTICLE_SOURCES,
    check=_check_procedures,
    caveat=LAW_CAVEAT,
)


KOREA_RULES: tuple[Rule, ...] = (
    FENCE_HEIGHT,
    OPENINGS,
    KCS,
    COBOT_ROUTE,
    PROCEDURES,
)
