"""Collaborative operation, ISO/TS 15066:2016 5.5 (integrated into ISO
10218-2:2025): the four modes, each checked only when the cell uses it. A cell
may use several, each for its own zone or task (SSM at the loading zone, PFL
for a hand-over): each is then checked.

- power and force limiting: the robot's speed against the Annex A permissible
  speed for each body region the risk assessment says may be contacted;
- speed and separation monitoring (5.5.4): a laser scanner whose protective
  field covers the protective separation distance S_p;
- hand guiding: an enabling device, an emergency stop and safety-rated
  monitored speed;
- safety-rated monitored stop: a presence-sensing device for the
  collaborative workspace and the robot's monitored standstill.

The figures come from ``compliance.calculators.ts15066``; the required
functions of each mode from ``ts15066_body_regions.json`` "collaborative_modes"
(which lists sources but no ``confirmed_two_sources`` flag, so those two rules
are ``to_be_confirmed``). That ISO 10218-2:2025 integrates ISO/TS 15066 is from
``iso10218_2025.json`` changes[0] (two sources). Pure Python, no Django.
"""

from __future__ import annotations

import math

from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.ts15066 import (
    DEFAULT_HUMAN_SPEED_MM_S,
    PflContactInput,
    PflInput,
    SsmInput,
    pfl_contact,
    ts15066_pfl,
    ts15066_ssm,
)
from compliance.calculators.ts15066_tables import (
    BODY_MODEL_SOURCES,
    PFL_FORMULA_SOURCES,
    REGIONS_BY_ID,
    SSM_FORMULA_SOURCES,
    BodyRegion,
)
from compliance.rules.collaborative_motion import (
    pfl_program_finding,
    ssm_program_finding,
)
from compliance.rules.facts import (
    CELL_SUBJECT,
    SENSING_DEVICE_KINDS,
    CellFacts,
    ContactFacts,
)
from compliance.rules.findings import (
    REFERENCE_SET_DATE,
    Finding,
    Rule,
    RuleCertainty,
    Status,
    calculate,
    missing_lines,
    mm,
    number,
    pending_notes,
)
from compliance.rules.scanning import approach_keys

_CELL = (CELL_SUBJECT, gettext_noop("Cell"))
_ISO10218 = "integrated into ISO 10218-2:2025"
# iso10218_2025.json changes[0].source
ISO10218_TS_SOURCES = (
    "ibf-solutions (10218:2025 change article)",
    "gt-engineering ISO 10218 change list",
)
# ts15066_body_regions.json collaborative_modes[*].source
MODE_SOURCES = {
    "srms": (
        "jherrodthomas/reBot-DevArm GitHub wiki",
        "https://www.robolist.ai",
        "https://docs.roboticks.io",
    ),
    "hand_guiding": (
        "jherrodthomas/reBot-DevArm GitHub wiki",
        "https://docs.roboticks.io",
    ),
}
MODE_NAMES = {
    "srms": gettext_noop("safety-rated monitored stop"),
    "hand_guiding": gettext_noop("hand guiding"),
    "ssm": gettext_noop("speed and separation monitoring"),
    "pfl": gettext_noop("power and force limiting"),
}


def _speed_line(facts: CellFacts) -> Line:
    if facts.programmed_speed_mm_s is not None:
        text = gettext_noop("Robot speed checked: the programmed speed")
    else:
        text = gettext_noop(
            "Robot speed checked: no programmed speed is recorded, so the robot's "
            "maximum speed"
        )
    return Line(text=text, formula=f"v = {mm(facts.robot_speed_mm_s)} mm/s")


# --- the mode is recorded ---------------------------------------------------


def _check_mode(facts: CellFacts) -> list[Finding]:
    rule = MODE
    modes = facts.collaborative_modes
    if len(modes) == 1:
        return [
            rule.finding(
                Status.PASS,
                _CELL,
                gettext_noop("The collaborative operation mode is %(mode)s."),
                values={"mode": MODE_NAMES[modes[0]]},
            )
        ]
    if modes:
        # One line per mode: each name is translated on its own.
        return [
            rule.finding(
                Status.PASS,
                _CELL,
                gettext_noop(
                    "The cell uses %(count)s collaborative operation modes, each "
                    "for its own zone or task; each mode is checked on its own."
                ),
                values={"count": len(modes)},
                details=tuple(Line(text=MODE_NAMES[m]) for m in modes),
            )
        ]
    if facts.robot_kind != "collaborative":
        return []
    return [
        rule.finding(
            Status.NEEDS_EVIDENCE,
            _CELL,
            gettext_noop(
                "Record which collaborative operation mode the cell uses (safety-"
                "rated monitored stop, hand guiding, speed and separation "
                "monitoring, or power and force limiting): each has its own "
                "requirements."
            ),
        )
    ]


MODE = Rule(
    id="INTL-15066-mode",
    jurisdiction="INTL",
    citation=f"ISO/TS 15066:2016, 5.5 (collaborative operation modes), {_ISO10218}",
    text=gettext_noop(
        "A collaborative application works in one or more of four modes, each for its "
        "own zone or task: safety-rated monitored stop, hand guiding, speed and "
        "separation monitoring, or power and force limiting; each has its own "
        "requirements. ISO 10218-2:2025 integrates the ISO/TS 15066 requirements and "
        "speaks of collaborative applications rather than collaborative robots."
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,  # changes[0]: two sources
    checked_on=REFERENCE_SET_DATE,
    volatility="medium",  # the 2025 edition moved TS 15066 into ISO 10218
    sources=ISO10218_TS_SOURCES,
    check=_check_mode,
)


# --- power and force limiting -------------------------------------------------


def _contacts(facts: CellFacts) -> tuple[ContactFacts, ...]:
    """The possible contacts of the signed assessment; where it names only
    body regions, one contact per region with its kind and area unknown."""
    a = facts.assessment
    if a.contacts:
        return a.contacts
    return tuple(
        ContactFacts(hazard_key=region, hazard_label="", body_region=region)
        for region in a.contact_regions
    )


def _check_pfl(facts: CellFacts) -> list[Finding]:
    if "pfl" not in facts.collaborative_modes:
        return []
    rule = PFL
    contacts = _contacts(facts)
    if facts.programs:
        # Judged on the path, segment by segment; a contact the signed
        # assessment records as clamping is measured whatever the speed.
        clamping = tuple(c for c in contacts if c.contact == "quasi_static")
        return [
            pfl_program_finding(rule, facts, program) for program in facts.programs
        ] + _contact_findings(facts, clamping)
    if not contacts:
        return [
            rule.finding(
                Status.NEEDS_EVIDENCE,
                _CELL,
                gettext_noop(
                    "Record in the risk assessment which body regions the robot may "
                    "contact, and sign it: the permissible speed depends on the "
                    "region."
                ),
                notes=pending_notes(facts.assessment, "contact_regions"),
            )
        ]
    return _contact_findings(facts, contacts)


def _contact_findings(
    facts: CellFacts, contacts: tuple[ContactFacts, ...]
) -> list[Finding]:
    """Each contact judged at the cell's one programmed speed."""
    rule = PFL
    speed = facts.robot_speed_mm_s
    findings = []
    for contact in contacts:
        region = REGIONS_BY_ID[BodyRegion(contact.body_region)]
        label = (
            f"{region.name}: {contact.hazard_label}"
            if contact.hazard_label
            else region.name
        )
        subject = (contact.hazard_key, label)
        values: dict[str, str | int | float] = {
            "region": region.name,
            "speed": mm(speed),
        }
        common = {
            "body_region": region.region_id,
            "robot_moving_mass_kg": facts.robot_moving_mass_kg,
            "payload_kg": facts.payload_kg,
            "contact": contact.contact or "transient",
        }
        if contact.contact_area_cm2 is not None:
            values["area"] = number(contact.contact_area_cm2)
            result, error = calculate(
                pfl_contact,
                PflContactInput,
                contact_area_cm2=contact.contact_area_cm2,
                **common,
            )
        else:
            result, error = calculate(ts15066_pfl, PflInput, **common)
        if result is None:
            findings.append(
                rule.outside_coverage(subject, {"label": region.name}, error)
            )
            continue
        numbers: dict[str, int | float] = {"speed_mm_s": number(speed)}
        # The evidence the calculator asks for is among its warnings, which
        # the finding carries already (``Rule.from_result``): not twice.
        notes: tuple[Line, ...] = ()
        if contact.contact == "quasi_static":
            status, message = (
                Status.NEEDS_EVIDENCE,
                gettext_noop(
                    "%(region)s: quasi-static contact (clamping) gives no "
                    "permissible speed; the force and pressure limits of Annex A "
                    "must be measured on the real cell (ISO/PAS 5672), or the "
                    "clamping point designed out."
                ),
            )
            if result.force_limit_n is not None:
                numbers["force_limit_n"] = number(result.force_limit_n)
        elif result.max_speed_mm_s is None:
            status = Status.FAIL
            message = result.max_speed_reason or ""
        else:
            permissible = round(result.max_speed_mm_s, 1)
            values["permissible"] = mm(permissible)
            values["route"] = result.governing_limit or ""
            numbers["permissible_mm_s"] = permissible
            if speed > result.max_speed_mm_s:
                status, message = (
                    Status.FAIL,
                    gettext_noop(
                        "%(region)s: the robot moves at %(speed)s mm/s, above the "
                        "%(permissible)s mm/s permissible for transient contact. Slow "
                        "it down where this region can be touched, or lighten the "
                        "payload, or blunt the edge that may touch."
                    ),
                )
            elif not result.pressure_checked:
                # The force route alone: a sharp edge can exceed the pressure
                # limit at a far lower speed (0.5 cm² on the back of the hand:
                # 968 mm/s where the force route gives 1,355.5 mm/s).
                status, message = (
                    Status.NEEDS_EVIDENCE,
                    gettext_noop(
                        "%(region)s: the robot moves at %(speed)s mm/s, within the "
                        "%(permissible)s mm/s the force limit permits for transient "
                        "contact, but the pressure limit cannot be checked: record "
                        "the contact area (the tool's smallest edge) and the kind of "
                        "contact in the risk assessment."
                    ),
                )
            elif contact.contact is None:
                status, message = (
                    Status.NEEDS_EVIDENCE,
                    gettext_noop(
                        "%(region)s: within the %(permissible)s mm/s permissible for "
                        "transient contact at %(speed)s mm/s, but the kind of contact "
                        "is not recorded: if the body part can be clamped, the "
                        "contact is quasi-static and must be measured."
                    ),
                )
            elif result.energy_checked:
                status, message = (
                    Status.PASS,
                    gettext_noop(
                        "%(region)s: the robot moves at %(speed)s mm/s, within the "
                        "%(permissible)s mm/s permissible for transient contact over "
                        "%(area)s cm² (the lowest of the force, pressure and energy "
                        "limits). Measure it on the real cell."
                    ),
                )
            else:
                # No Table A.4 energy value in the reference for the region:
                # the speed is checked against the force and pressure limits
                # only, and says so (the evidence asked names the energy).
                status, message = (
                    Status.PASS,
                    gettext_noop(
                        "%(region)s: the robot moves at %(speed)s mm/s, within the "
                        "%(permissible)s mm/s permissible for transient contact over "
                        "%(area)s cm² (the lower of the force and pressure limits; "
                        "the energy limit is not checked). Measure it on the real "
                        "cell."
                    ),
                )
        findings.append(
            rule.from_result(
                status,
                subject,
                message,
                result,
                values=values,
                numbers=numbers,
                details=(_speed_line(facts),),
                notes=notes,
                citation=f"{result.clause}; {_ISO10218}",
            )
        )
    return findings


PFL = Rule(
    id="INTL-15066-pfl",
    jurisdiction="INTL",
    citation=(
        "ISO/TS 15066:2016, 5.5 (power and force limiting), Annex A (Tables A.2, "
        f"A.3; v = F/√(μk)), {_ISO10218}"
    ),
    text=gettext_noop(
        "With power and force limiting the robot may touch a person, within the Annex "
        "A force and pressure limits of each body region. For transient contact the "
        "limits give a maximum relative speed from the robot's moving mass and payload "
        "and the region's stiffness and mass; the robot must not move faster where "
        "that region can be touched. The limits must still be measured on the real "
        "cell. ISO 10218-2:2025 took these limits in; one secondary source places them "
        "in its Annex M (measurement in 6.3.3 and Annex N), not confirmed. With the "
        "robot's program imported, each straight move is judged at its own speed "
        "where it passes within reach of an operator station, and the worst move "
        "decides."
    ),
    # ts15066_body_regions.json regions and formulas: confirmed_two_sources
    # true (non-dominant hand pressures: one source, per finding).
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=REFERENCE_SET_DATE,
    volatility="medium",
    sources=tuple(dict.fromkeys((*PFL_FORMULA_SOURCES, *BODY_MODEL_SOURCES))),
    check=_check_pfl,
    # Raised when a robot program came to be judged segment by segment
    # (issue 32).
    revision=2,
)


# --- speed and separation monitoring ----------------------------------------


def _check_ssm(facts: CellFacts) -> list[Finding]:
    if "ssm" not in facts.collaborative_modes:
        return []
    rule = SSM
    scanners = facts.devices_of("laser_scanner")
    if not scanners:
        return [
            rule.finding(
                Status.FAIL,
                _CELL,
                gettext_noop(
                    "Speed and separation monitoring needs a sensing device that "
                    "tracks the separation: no safety laser scanner is recorded."
                ),
            )
        ]
    speed = facts.robot_speed_mm_s
    findings = []
    for scanner in scanners:
        subject = (scanner.key, scanner.label)
        values: dict[str, str | int | float] = {"label": scanner.label}
        field = scanner.protective_field_mm
        response = scanner.response_time_ms
        missing = []
        if response is None:
            missing.append(gettext_noop("The response time of the scanner"))
        if facts.robot_stopping_time_ms is None:
            missing.append(gettext_noop("The robot's stopping time"))
        if facts.robot_stopping_distance_mm is None:
            missing.append(gettext_noop("The robot's stopping distance"))
        if field is None:
            missing.append(gettext_noop("The radius of the scanner's protective field"))
        if missing or field is None or response is None:
            findings.append(
                rule.finding(
                    Status.NEEDS_EVIDENCE,
                    subject,
                    gettext_noop(
                        "Cannot compute the protective separation distance for "
                        "%(label)s: the figures listed are not recorded."
                    ),
                    values=values,
                    details=missing_lines(missing),
                )
            )
            continue
        if (
            facts.programs
            and scanner.position_mm is not None
            and facts.layout is not None
        ):
            # Judged on the path: S_p at each segment's speed from each
            # station and from the field's boundary.
            findings += [
                ssm_program_finding(
                    rule, facts, program, scanner, approach_keys(scanner)
                )
                for program in facts.programs
            ]
            continue
        result, error = calculate(
            ts15066_ssm,
            SsmInput,
            human_speed_mm_s=DEFAULT_HUMAN_SPEED_MM_S,
            robot_speed_mm_s=speed,
            reaction_time_ms=response + facts.controller_time_ms,
            stopping_time_ms=facts.robot_stopping_time_ms,
            stopping_distance_mm=facts.robot_stopping_distance_mm,
            detection_height_mm=scanner.field_height_mm,
        )
        if result is None:
            findings.append(rule.outside_coverage(subject, values, error))
            continue
        required = math.ceil(round(result.separation_distance_mm, 6))
        values |= {
            "field": mm(field),
            "required": mm(required),
            "terms": ", ".join(result.unverified_terms),
        }
        numbers = {
            "protective_field_mm": number(field),
            "required_mm": required,
            "c_mm": number(result.c_mm),
        }
        # The field is judged on the plan, approach by approach
        # (``scanning.APPROACHES``): this verdict is never better than that.
        relies_on: tuple[str, ...] = ()
        if scanner.position_mm is None or facts.layout is None:
            status, message = (
                Status.NEEDS_EVIDENCE,
                gettext_noop(
                    "S_p for %(label)s is %(required)s mm, but the scanner is not "
                    "drawn on the plan, so whether its protective field (%(field)s "
                    "mm round it) reaches S_p on every side cannot be checked: "
                    "place it on the plan."
                ),
            )
        elif not result.complete:
            status, message = (
                Status.NEEDS_EVIDENCE,
                gettext_noop(
                    "S_p for %(label)s is %(required)s mm so far, but it is "
                    "incomplete: %(terms)s not recorded (taken as 0). Record them "
                    "(the field's height gives C; the maker's data give the "
                    "uncertainties). The plan shows whether the field reaches S_p "
                    "on every side."
                ),
            )
            relies_on = approach_keys(scanner)
        else:
            status, message = (
                Status.PASS,
                gettext_noop(
                    "S_p for %(label)s is %(required)s mm; the plan shows that its "
                    "protective field reaches it on every side no guard closes."
                ),
            )
            relies_on = approach_keys(scanner)
        findings.append(
            rule.from_result(
                status,
                subject,
                message,
                result,
                values=values,
                numbers=numbers,
                details=(_speed_line(facts),),
                notes=result.evidence_required,
                citation=f"{result.clause}; {_ISO10218}",
            ).model_copy(update={"relies_on": relies_on})
        )
    return findings


SSM = Rule(
    id="INTL-15066-ssm",
    jurisdiction="INTL",
    citation=(
        "ISO/TS 15066:2016, 5.5.4 (speed and separation monitoring: protective "
        f"separation distance S_p), {_ISO10218}"
    ),
    text=gettext_noop(
        "With speed and separation monitoring the robot keeps at least the protective "
        "separation distance from a person: S_p = S_h + S_r + S_s + C + Z_d + Z_r, "
        "from the person's speed (1,600 mm/s), the robot's speed, the reaction and "
        "stopping times and the robot's stopping distance. The safety laser scanner's "
        "protective field, as drawn on the plan, must reach at least S_p out from the "
        "hazard zone on every side no guard closes. With the robot's program "
        "imported, S_p is computed at each straight move's speed and kept from each "
        "operator station and from the boundary of the protective field."
    ),
    # formulas.ssm_protective_separation_distance: confirmed_two_sources true.
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=REFERENCE_SET_DATE,
    volatility="medium",
    sources=SSM_FORMULA_SOURCES,
    check=_check_ssm,
    # Raised when the field came to be judged on the plan (issue 27), and
    # when a robot program came to be judged segment by segment (issue 32).
    revision=3,
)


# --- hand guiding -----------------------------------------------------------


def _check_hand_guiding(facts: CellFacts) -> list[Finding]:
    if "hand_guiding" not in facts.collaborative_modes:
        return []
    rule = HAND_GUIDING
    enabling = facts.devices_of("enabling_device")
    stops = facts.devices_of("emergency_stop")
    if enabling and stops:
        return [
            rule.finding(
                Status.NEEDS_EVIDENCE,
                _CELL,
                gettext_noop(
                    "An enabling device (%(enabling)s) and an emergency stop "
                    "(%(stop)s) are recorded for hand guiding; the safety-rated "
                    "monitored speed while guiding is not recorded: record the "
                    "robot's configured speed limit and its safety rating."
                ),
                values={
                    "enabling": ", ".join(d.label for d in enabling),
                    "stop": ", ".join(d.label for d in stops),
                },
            )
        ]
    missing = []
    if not enabling:
        missing.append(gettext_noop("An enabling device near the end effector"))
    if not stops:
        missing.append(gettext_noop("An emergency stop on the hand-guiding device"))
    return [
        rule.finding(
            Status.FAIL,
            _CELL,
            gettext_noop(
                "Hand guiding needs an enabling device and an emergency stop at the "
                "hand-guiding device; the devices listed are missing."
            ),
            details=missing_lines(missing),
        )
    ]


HAND_GUIDING = Rule(
    id="INTL-15066-hand-guiding",
    jurisdiction="INTL",
    citation=f"ISO/TS 15066:2016, 5.5 (hand guiding), {_ISO10218}",
    text=gettext_noop(
        "Hand guiding needs a hand-guiding device with an emergency stop and an "
        "enabling device near the end effector, and safety-rated monitored speed. The "
        "required functions rest on secondary sources without a two-source check: to "
        "be confirmed."
    ),
    certainty=RuleCertainty.TO_BE_CONFIRMED,  # collaborative_modes: no flag
    checked_on=REFERENCE_SET_DATE,
    volatility="medium",
    sources=MODE_SOURCES["hand_guiding"],
    check=_check_hand_guiding,
)


# --- safety-rated monitored stop ---------------------------------------------


def _check_srms(facts: CellFacts) -> list[Finding]:
    if "srms" not in facts.collaborative_modes:
        return []
    rule = SRMS
    sensing = facts.devices_of(*SENSING_DEVICE_KINDS)
    if not sensing:
        return [
            rule.finding(
                Status.FAIL,
                _CELL,
                gettext_noop(
                    "A safety-rated monitored stop needs a presence-sensing device "
                    "(light curtain, mat or scanner) that detects a person entering "
                    "the collaborative workspace; none is recorded."
                ),
            )
        ]
    return [
        rule.finding(
            Status.NEEDS_EVIDENCE,
            _CELL,
            gettext_noop(
                "%(devices)s detects a person entering the collaborative "
                "workspace; the robot's safety-rated monitored standstill while "
                "the person is there is not recorded: record the robot's safety "
                "function and its rating."
            ),
            values={"devices": ", ".join(d.label for d in sensing)},
        )
    ]


SRMS = Rule(
    id="INTL-15066-srms",
    jurisdiction="INTL",
    citation=f"ISO/TS 15066:2016, 5.5 (safety-rated monitored stop), {_ISO10218}",
    text=gettext_noop(
        "With a safety-rated monitored stop the robot stops (protective stop, "
        "monitored standstill) when a person enters the collaborative workspace and "
        "resumes automatically when the person leaves. The required functions rest on "
        "secondary sources without a two-source check: to be confirmed."
    ),
    certainty=RuleCertainty.TO_BE_CONFIRMED,  # collaborative_modes: no flag
    checked_on=REFERENCE_SET_DATE,
    volatility="medium",
    sources=MODE_SOURCES["srms"],
    check=_check_srms,
)


COLLABORATIVE_RULES: tuple[Rule, ...] = (MODE, PFL, SSM, HAND_GUIDING, SRMS)
