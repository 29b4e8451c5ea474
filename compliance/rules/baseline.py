"""International baseline: the checks every cell gets, whatever its country.

- ISO 10218-2:2025: a documented risk assessment of the complete cell.
- The safeguarded space from the plan: a closed perimeter round the hazard
  zone, every opening guarded, the gap under each guard (``safeguarding``).
- ISO 13857:2019, 4.2.2 Table 2 (high risk): reaching over each guard segment.
- ISO 13857:2019, 4.2.4 Table 4: reaching through fence mesh.
- ISO 13855:2010 minimum distances and IEC 61496 types of sensing devices
  (``sensing``).
- ISO/TS 15066:2016, 5.5 collaborative operation, integrated into ISO
  10218-2:2025 (``collaborative``).

The figures come from the calculators in ``compliance.calculators`` (which copy
them from the reference data); nothing is computed twice here. Findings
carry the calculator's working and its certainty. Pure Python, no Django.
"""

from __future__ import annotations

from compliance.calculators.base import gettext_noop
from compliance.calculators.iso13857 import (
    OpeningInput,
    ReachOverInput,
    opening,
    reach_over,
)
from compliance.calculators.iso13857_tables import (
    REACH_OVER_RULES,
    REACHING_UPWARDS,
    SRC_TROAX,
    TABLE2_HIGH_RISK,
    TABLE4_OPENINGS,
)
from compliance.rules.collaborative import COLLABORATIVE_RULES
from compliance.rules.facts import CELL_SUBJECT, CellFacts
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
)
from compliance.rules.functions import FUNCTION_RULES
from compliance.rules.robot import ROBOT_RULES
from compliance.rules.safeguarding import SAFEGUARDING_RULES
from compliance.rules.scanning import SCANNING_RULES
from compliance.rules.sensing import DEVICE_TYPE, INTERLOCK_DISTANCE, MINIMUM_DISTANCE
from compliance.rules.sensing_2024 import MINIMUM_DISTANCE_2024

# --- ISO 10218-2:2025: risk assessment of the complete cell ----------------

# iso10218_2025.json changes[6] ("Part 2 requires documented risk assessment of
# the complete cell per ISO 12100 hierarchy"), confirmed_two_sources: true.
ISO10218_SOURCES = (
    "https://www.robolist.ai/guides/industrial-arm/safety-zones-scanners-fencing",
    "https://industrialsafetysensor.com/?p=2172",
)


def _check_risk_assessment(facts: CellFacts) -> list[Finding]:
    rule = RISK_ASSESSMENT
    a = facts.assessment
    if a.exists and a.signed:
        status, message = (
            Status.PASS,
            gettext_noop("A signed risk assessment of the cell is recorded."),
        )
    elif a.exists:
        status, message = (
            Status.NEEDS_EVIDENCE,
            gettext_noop(
                "The risk assessment of the cell is not signed yet: complete and sign it."
            ),
        )
    else:
        status, message = (
            Status.NEEDS_EVIDENCE,
            gettext_noop(
                "No risk assessment is recorded: ISO 10218-2:2025 requires a documented "
                "risk assessment of the complete cell, following ISO 12100."
            ),
        )
    return [rule.finding(status, (CELL_SUBJECT, gettext_noop("Cell")), message)]


RISK_ASSESSMENT = Rule(
    id="INTL-10218-2-risk-assessment",
    jurisdiction="INTL",
    citation="ISO 10218-2:2025 (risk assessment of the complete robot cell)",
    text=gettext_noop(
        "ISO 10218-2:2025 requires a documented risk assessment of the complete robot "
        "cell, following the ISO 12100 method (identify hazards, estimate and evaluate "
        "risks, reduce them). Read in secondary sources only."
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=REFERENCE_SET_DATE,
    volatility="medium",  # new edition (Feb 2025), details not read
    sources=ISO10218_SOURCES,
    check=_check_risk_assessment,
)


# --- ISO 13857:2019, 4.2.2: reaching over each guard segment ----------------


def _check_reach_over(facts: CellFacts) -> list[Finding]:
    rule = REACH_OVER
    a = facts.hazard_zone_height_mm
    findings = []
    for segment in facts.segments:
        subject = (segment.key, segment.label)
        c = segment.horizontal_distance_to_hazard_mm
        values: dict[str, str | int | float] = {
            "label": segment.label,
            "height": mm(segment.height_mm),
        }
        numbers: dict[str, int | float] = {"height_mm": number(segment.height_mm)}
        missing = []
        if a is None:
            missing.append(gettext_noop("The height a of the hazard zone"))
        if c is None:
            missing.append(
                gettext_noop("The horizontal distance c from the guard to the hazard")
            )
        if a is None or c is None:
            findings.append(
                rule.finding(
                    Status.NEEDS_EVIDENCE,
                    subject,
                    gettext_noop(
                        "Cannot check reaching over %(label)s: the figures listed "
                        "are not recorded."
                    ),
                    values=values,
                    numbers=numbers,
                    details=missing_lines(missing),
                )
            )
            continue
        result, error = calculate(
            reach_over,
            ReachOverInput,
            hazard_height_mm=a,
            hazard_lower_mm=min(facts.hazard_zone_lower_mm, a),
            structure_height_mm=segment.height_mm,
            risk="high",
            horizontal_distance_mm=c,
        )
        if result is None:
            findings.append(
                rule.outside_coverage(subject, values, error, numbers=numbers)
            )
            continue
        lower = min(facts.hazard_zone_lower_mm, a)
        values |= {"a": mm(a), "lower": mm(lower), "distance": mm(c)}
        numbers |= {"hazard_height_mm": number(a), "distance_mm": number(c)}
        if result.horizontal_distance_mm is None:
            # Out of reach upwards (sufficient) or a structure too low to count.
            status = Status.PASS if result.sufficient else Status.FAIL
            message = result.reason or ""
        else:
            required = result.horizontal_distance_mm
            values["required"] = mm(required)
            numbers["required_mm"] = required
            if result.sufficient:
                status, message = (
                    Status.PASS,
                    gettext_noop(
                        "%(label)s (%(height)s mm high) keeps the hazard zone "
                        "%(distance)s mm away; Table 2 requires %(required)s mm for a "
                        "hazard zone from %(lower)s to %(a)s mm high (its worst "
                        "height)."
                    ),
                )
            else:
                status, message = (
                    Status.FAIL,
                    gettext_noop(
                        "%(label)s (%(height)s mm high) is only %(distance)s mm from the "
                        "hazard zone; Table 2 requires %(required)s mm for a hazard zone "
                        "from %(lower)s to %(a)s mm high (its worst height). Move the "
                        "guard out, or raise it."
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
            )
        )
    return findings


REACH_OVER = Rule(
    id="INTL-13857-reach-over",
    jurisdiction="INTL",
    citation="ISO 13857:2019, 4.2.2 (reaching over, Table 2, high risk)",
    text=gettext_noop(
        "Where a person can reach over a fence or guard, the hazard zone must be far "
        "enough behind it for the guard height b and the hazard zone height a (Table "
        "2, high risk). Guards lower than 1,000 mm do not count, and for a high risk a "
        "guard lower than 1,400 mm should not be used without further measures; a "
        "hazard zone at 2,700 mm or higher is out of reach upwards. Most Table 2 cells "
        "rest on one public source: check them against the standard."
    ),
    # iso13857_tables.json table2_high_risk: 11 cells corroborated, the rest one
    # source; each finding carries the certainty of the cell it used.
    certainty=RuleCertainty.TO_BE_CONFIRMED,
    checked_on=REFERENCE_SET_DATE,
    volatility="low",  # 2019 edition, no revision noted in the reference
    sources=tuple(
        dict.fromkeys(
            (
                *REACHING_UPWARDS.sources,
                *REACH_OVER_RULES.sources,
                *TABLE2_HIGH_RISK.sources,
                SRC_TROAX,
            )
        )
    ),
    check=_check_reach_over,
)


# --- ISO 13857:2019, 4.2.4 Table 4: fence mesh -----------------------------


def _check_mesh(facts: CellFacts) -> list[Finding]:
    rule = MESH
    findings = []
    for segment in facts.segments:
        e = segment.mesh_opening_mm
        if e is None and segment.kind != "fence":
            continue  # walls and machine bodies: no mesh to check
        subject = (segment.key, segment.label)
        c = segment.horizontal_distance_to_hazard_mm
        values: dict[str, str | int | float] = {"label": segment.label}
        numbers: dict[str, int | float] = {}
        missing = []
        if e is None:
            missing.append(gettext_noop("The mesh size e of the fence"))
        else:
            values["mesh"] = mm(e)
            numbers["mesh_opening_mm"] = number(e)
        if c is None:
            missing.append(
                gettext_noop("The horizontal distance c from the guard to the hazard")
            )
        if e is None or c is None:
            findings.append(
                rule.finding(
                    Status.NEEDS_EVIDENCE,
                    subject,
                    gettext_noop(
                        "Cannot check reaching through the mesh of %(label)s: the "
                        "figures listed are not recorded."
                    ),
                    values=values,
                    numbers=numbers,
                    details=missing_lines(missing),
                )
            )
            continue
        result, error = calculate(
            opening,
            OpeningInput,
            opening_shape="square",
            opening_size_mm=e,
            distance_to_hazard_mm=c,
        )
        if result is None:
            findings.append(
                rule.outside_coverage(subject, values, error, numbers=numbers)
            )
            continue
        values["distance"] = mm(c)
        numbers["distance_mm"] = number(c)
        if result.safety_distance_mm is None or result.verdict == "needs_evidence":
            status = Status.NEEDS_EVIDENCE
            message = result.undetermined_reason or result.reason or ""
        else:
            values["required"] = mm(result.safety_distance_mm)
            numbers["required_mm"] = result.safety_distance_mm
            if result.verdict == "pass":
                status, message = (
                    Status.PASS,
                    gettext_noop(
                        "The %(mesh)s mm mesh of %(label)s is %(distance)s mm from the "
                        "hazard zone; Table 4 requires %(required)s mm."
                    ),
                )
            else:
                status, message = (
                    Status.FAIL,
                    gettext_noop(
                        "The %(mesh)s mm mesh of %(label)s is only %(distance)s mm from "
                        "the hazard zone; Table 4 requires %(required)s mm. Use a finer "
                        "mesh or move the fence out."
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
            )
        )
    return findings


MESH = Rule(
    id="INTL-13857-mesh",
    jurisdiction="INTL",
    citation="ISO 13857:2019, 4.2.4 (Table 4, openings, persons 14 years and over)",
    text=gettext_noop(
        "A fence's mesh must keep fingers, hands and arms away from the hazard: the "
        "distance from a square mesh opening of size e to the hazard zone must be at "
        "least the safety distance of Table 4 (persons 14 years and over). Table 4 "
        "covers openings up to 120 mm."
    ),
    # table4_regular_openings_14plus: confirmed_two_sources true.
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=REFERENCE_SET_DATE,
    volatility="low",
    sources=TABLE4_OPENINGS.sources,
    check=_check_mesh,
)


# The checks of the cell against the standards (not the robot's class or the
# assessment on file): what a presumption of conformity rests on.
STANDARDS_RULES: tuple[Rule, ...] = (
    *SAFEGUARDING_RULES,
    *SCANNING_RULES,
    REACH_OVER,
    MESH,
    MINIMUM_DISTANCE,
    MINIMUM_DISTANCE_2024,
    INTERLOCK_DISTANCE,
    DEVICE_TYPE,
    *COLLABORATIVE_RULES,
    *FUNCTION_RULES,
)

BASELINE_RULES: tuple[Rule, ...] = (
    RISK_ASSESSMENT,
    *STANDARDS_RULES,
    *ROBOT_RULES,
)
