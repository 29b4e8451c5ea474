"""The robot by ISO 10218-1/-2:2025: its class, the cybersecurity requirement,
and its safety configuration tied to the signed risk assessment.

- Robot classes (ISO 10218-1:2025): Class I, a robot of low energy transfer
  capability (at most 10 kg, 50 N and 250 mm/s, by its maximum capability),
  and Class II, every other robot. The force is measured by the standard's
  test method and is not recorded here, so Class I can never be concluded;
  a maximum speed above 250 mm/s makes the robot Class II.
- Cybersecurity (ISO 10218-1/-2:2025, with reference to IEC 62443): what to
  put in place; nothing recorded decides it, so it always needs evidence.
- The robot's safety configuration: where safety-rated robot functions
  (speed, zone or force limits) carry part of the safeguarding, the
  configuration deployed on the controller must be the one assessed. The
  cell records its identity as the maker shows it (a Universal Robots safety
  checksum, an ABB SafeMove CRC, a KUKA SafeOperation checksum, a FANUC DCS
  signature, or another maker's); signing a revision freezes it; the finding
  compares the two.

Figures from the reference data ``iso10218_2025.json`` and
``iso10218_2025_additions.json``. Pure Python, no Django.
"""

from __future__ import annotations

from typing import Literal

from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.editions import ESREL, GT_10218, PLCMASTERS
from compliance.rules.facts import CELL_SUBJECT, CellFacts, SafetyConfigFacts
from compliance.rules.findings import (
    REFERENCE_SET_DATE,
    Finding,
    Rule,
    RuleCertainty,
    Status,
    mm,
    number,
)

_CELL = (CELL_SUBJECT, gettext_noop("Cell"))

# iso10218_2025_additions.json "robot_classes": class_I limits (two sources;
# the mass's basis not read).
CLASS_I_MASS_KG = 10
CLASS_I_FORCE_N = 50
CLASS_I_SPEED_MM_S = 250
MITSUBISHI = (
    "si.mitsubishielectric.com article on ISO 10218:2025 (Class I <= 10 kg, "
    "<= 50 N, <= 250 mm/s)"
)
ISO_TC299 = (
    "ISO/TC 299 page (archived copy on megalodon.jp): 'Class I having low energy "
    "transfer capability'"
)

# The maker's name for each kind of identity, for messages and forms.
CONFIG_KIND_LABELS: dict[str, str] = {
    "ur_checksum": gettext_noop("Universal Robots safety checksum"),
    "abb_safemove_crc": gettext_noop("ABB SafeMove configuration CRC"),
    "kuka_safeoperation_checksum": gettext_noop("KUKA SafeOperation checksum"),
    "fanuc_dcs_signature": gettext_noop("FANUC DCS signature"),
    "other": gettext_noop("Another maker's configuration identifier"),
}
CONFIG_SOURCES = (
    "https://www.universal-robots.com/manuals/EN/HTML/SW5_21/Content/prod-usr-man/"
    "complianceUR5e/H_g5_sections/firstuse/Safety_checksum_g5_en.htm (UR e-Series "
    "manual: the Safety Checksum shows the applied safety configuration and "
    "changes with the safety settings)",
    "https://industrialmonitordirect.com/blogs/knowledgebase/updating-dcs-"
    "signature-in-guardlogix-after-fanuc-servo-motor-replacement (FANUC DCS "
    "signature numbers on the teach pendant; they change with the safety "
    "parameters)",
    "https://industrialmonitordirect.com/ru/blogs/knowledgebase/kuka-krc4-"
    "kss15068-safety-checksum-error-resolution (KUKA KRC4: the safety "
    "configuration checksum must be approved after a change)",
)


def config_text(config: SafetyConfigFacts) -> Line:
    """A configuration as a line: its kind (translated) and value."""
    return Line(
        text=gettext_noop("%(kind)s %(value)s"),
        values={"kind": CONFIG_KIND_LABELS[config.kind], "value": config.value},
    )


# --- robot class -------------------------------------------------------------


def _check_class(facts: CellFacts) -> list[Finding]:
    rule = ROBOT_CLASS
    speed = facts.robot_max_speed_mm_s
    values: dict[str, str | int | float] = {
        "speed": mm(speed),
        "limit": mm(CLASS_I_SPEED_MM_S),
    }
    numbers: dict[str, int | float] = {
        "max_speed_mm_s": number(speed),
        "class_i_speed_mm_s": CLASS_I_SPEED_MM_S,
    }
    if speed > CLASS_I_SPEED_MM_S:
        return [
            rule.finding(
                Status.PASS,
                _CELL,
                gettext_noop(
                    "The robot's maximum TCP speed is %(speed)s mm/s, above the "
                    "%(limit)s mm/s of Class I: it is a Class II robot by ISO "
                    "10218-1:2025, and the requirements for Class II apply."
                ),
                values=values,
                numbers=numbers,
            )
        ]
    return [
        rule.finding(
            Status.NEEDS_EVIDENCE,
            _CELL,
            gettext_noop(
                "The robot's maximum TCP speed is %(speed)s mm/s, within the "
                "%(limit)s mm/s of Class I. It is Class I only if its mass is at "
                "most 10 kg and its maximum force, measured by the ISO "
                "10218-1:2025 test method, at most 50 N: the force is not "
                "recorded. Take the class from the robot maker's declaration."
            ),
            values=values,
            numbers=numbers,
            notes=(
                Line(
                    text=gettext_noop(
                        "Whether the 10 kg is the manipulator's mass or its "
                        "payload was not read in the sources."
                    )
                ),
            ),
        )
    ]


ROBOT_CLASS = Rule(
    id="INTL-10218-1-robot-class",
    jurisdiction="INTL",
    citation="ISO 10218-1:2025 (robot classes I and II)",
    text=gettext_noop(
        "ISO 10218-1:2025 sorts robots into two classes: Class I, robots of low energy "
        "transfer capability (by their maximum capability, not by limits set in safety "
        "functions: mass at most 10 kg, maximum force at most 50 N by the standard's "
        "test method, TCP speed at most 250 mm/s), and Class II, every other robot. "
        "Checked here: a maximum TCP speed above 250 mm/s makes the robot Class II; "
        "Class I needs the maker's declaration."
    ),
    # robot_classes: confirmed_two_sources true (ESREL, Mitsubishi, GT, TC 299).
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=REFERENCE_SET_DATE,
    volatility="medium",  # new in the 2025 edition
    sources=(ESREL, MITSUBISHI, GT_10218, ISO_TC299),
    check=_check_class,
)


# --- cybersecurity -----------------------------------------------------------

_CYBER_ITEMS = (
    gettext_noop(
        "Identify the cell's connections that can reach its safety functions: "
        "networks, remote access, USB and teach-pendant ports, safety "
        "configuration files."
    ),
    gettext_noop(
        "Assess the threats to those safety functions and record the measures, "
        "with reference to IEC 62443."
    ),
    gettext_noop(
        "Protect the robot's safety configuration from unauthorised change "
        "(passwords, user roles) and keep its identity on record, so that a "
        "change shows."
    ),
)
IBF = "ibf-solutions (ISO 10218:2025 change article)"
GT_CHANGES = "gt-engineering ISO 10218 change list"


def _check_cyber(facts: CellFacts) -> list[Finding]:
    return [
        CYBERSECURITY.finding(
            Status.NEEDS_EVIDENCE,
            _CELL,
            gettext_noop(
                "ISO 10218-1/-2:2025 add cybersecurity requirements: record how "
                "the cell's safety functions are protected against tampering and "
                "unauthorised access (the items listed)."
            ),
            details=tuple(Line(text=item) for item in _CYBER_ITEMS),
        )
    ]


CYBERSECURITY = Rule(
    id="INTL-10218-cybersecurity",
    jurisdiction="INTL",
    citation="ISO 10218-1:2025, ISO 10218-2:2025 (cybersecurity; IEC 62443)",
    text=gettext_noop(
        "ISO 10218-1/-2:2025 add cybersecurity requirements, with reference to IEC "
        "62443: threats that could defeat the safety functions through the cell's "
        "connections are to be assessed and met. What the requirements say in detail "
        "was not read; nothing the app records decides them, so this always asks for "
        "the measures."
    ),
    # iso10218_2025.json changes[1]: confirmed_two_sources true.
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=REFERENCE_SET_DATE,
    volatility="medium",
    sources=(IBF, GT_CHANGES),
    check=_check_cyber,
)


# --- the robot's safety configuration and the signed assessment ----------------

ConfigState = Literal["missing", "unsigned", "not_frozen", "match", "mismatch"]


def config_state(facts: CellFacts) -> ConfigState:
    """The cell's safety configuration against the one frozen at signing."""
    if facts.safety_configuration is None:
        return "missing"
    a = facts.assessment
    if not a.signed:
        return "unsigned"
    if a.signed_safety_configuration is None:
        return "not_frozen"
    if a.signed_safety_configuration == facts.safety_configuration:
        return "match"
    return "mismatch"


def safety_rated_functions_carry_safeguarding(facts: CellFacts) -> bool:
    """Whether safety-rated robot functions carry part of the safeguarding:
    the cell records it, or works collaboratively (every mode rests on the
    robot's monitored stop, speed or force limits), or a safety function is
    a speed or force limit."""
    return (
        facts.safety_rated_limits
        or bool(facts.collaborative_modes)
        or any(f.safeguard == "collaborative_limit" for f in facts.functions)
    )


CONFIG_MESSAGES: dict[ConfigState, str] = {
    "missing": gettext_noop(
        "Safety-rated robot functions carry part of the safeguarding, but the "
        "robot controller's safety configuration is not recorded: record its "
        "identity (the maker's checksum, CRC or signature) so that the "
        "configuration deployed can be matched with the one assessed."
    ),
    "unsigned": gettext_noop(
        "The robot's safety configuration is recorded (%(kind)s %(value)s), but no "
        "revision of the risk assessment is signed: signing freezes the "
        "configuration assessed."
    ),
    "not_frozen": gettext_noop(
        "The robot's safety configuration is recorded (%(kind)s %(value)s), but revision "
        "%(revision)s was signed before the configuration was recorded: sign a "
        "new revision to freeze the configuration assessed."
    ),
    "match": gettext_noop(
        "The robot's safety configuration (%(kind)s %(value)s) is the one frozen with "
        "signed revision %(revision)s. Check on the controller that the "
        "configuration deployed still shows it."
    ),
    "mismatch": gettext_noop(
        "The robot's safety configuration recorded now (%(kind)s %(value)s) is not the "
        "one signed revision %(revision)s assessed (%(signed_kind)s %(signed_value)s): the "
        "assessment does not cover the configuration now on record. Assess the "
        "change and sign a new revision, or restore the assessed configuration."
    ),
}
CONFIG_STATUS: dict[ConfigState, Status] = {
    "missing": Status.NEEDS_EVIDENCE,
    "unsigned": Status.NEEDS_EVIDENCE,
    "not_frozen": Status.NEEDS_EVIDENCE,
    "match": Status.PASS,
    "mismatch": Status.FAIL,
}


def config_values(facts: CellFacts) -> dict[str, str | int | float]:
    """The figures the configuration messages fill in."""
    values: dict[str, str | int | float] = {}
    config = facts.safety_configuration
    if config is not None:
        values |= {"kind": CONFIG_KIND_LABELS[config.kind], "value": config.value}
    a = facts.assessment
    if a.signed_revision is not None:
        values["revision"] = a.signed_revision
    signed = a.signed_safety_configuration
    if signed is not None:
        values |= {
            "signed_kind": CONFIG_KIND_LABELS[signed.kind],
            "signed_value": signed.value,
        }
    return values


def config_finding(rule: Rule, facts: CellFacts, state: ConfigState) -> Finding:
    details: tuple[Line, ...] = ()
    if facts.safety_configuration is not None:
        details = (config_text(facts.safety_configuration),)
    return rule.finding(
        CONFIG_STATUS[state],
        _CELL,
        CONFIG_MESSAGES[state],
        values=config_values(facts),
        details=details,
    )


def _check_config(facts: CellFacts) -> list[Finding]:
    if not safety_rated_functions_carry_safeguarding(facts):
        return []
    return [config_finding(SAFETY_CONFIGURATION, facts, config_state(facts))]


SAFETY_CONFIGURATION = Rule(
    id="INTL-robot-safety-configuration",
    jurisdiction="INTL",
    citation=(
        "ISO 10218-2:2025 (safety functions of the robot application: "
        "verification and validation)"
    ),
    text=gettext_noop(
        "Where safety-rated robot functions (speed, zone or force limits, the "
        "monitored stop of collaborative operation) carry part of the safeguarding, "
        "the configuration of those functions on the robot controller is part of what "
        "the risk assessment assessed. The cell records the configuration's identity "
        "as the maker shows it (a Universal Robots safety checksum, an ABB SafeMove "
        "CRC, a KUKA SafeOperation checksum, a FANUC DCS signature); signing a "
        "revision freezes it. Checked here: the configuration on record is the one the "
        "latest signed revision froze."
    ),
    # The identities and how they change: makers' manuals and one support
    # site; that ISO 10218-2:2025 asks the validated configuration be the
    # deployed one is this project's reading (the text was not read).
    certainty=RuleCertainty.TO_BE_CONFIRMED,
    checked_on=REFERENCE_SET_DATE,
    volatility="low",
    sources=(*CONFIG_SOURCES, PLCMASTERS),
    check=_check_config,
)


ROBOT_RULES: tuple[Rule, ...] = (ROBOT_CLASS, CYBERSECURITY, SAFETY_CONFIGURATION)
