"""Sensing protective devices: where they must be, and what they must be.

- ISO 13855:2010, 6.2.3 / 6.2 / 7: minimum distance S = K × T + C of light
  curtains, multi-beam grids and mats, from the device's response time, the
  safety controller's and the robot's stopping time (``iso13855`` calculators);
- IEC 61496-2/-3: the type of each opto-electronic device is recorded.

Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from compliance.calculators import iso13855_common
from compliance.calculators import iso13855_tables as tables13855
from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.iso13855 import (
    MatInput,
    iso13855_mat,
)
from compliance.calculators.iso13855_interlock import (
    CLAUSE_INTERLOCK,
    InterlockInput,
    iso13855_interlock,
)
from compliance.calculators.iso13855_vertical import (
    VerticalZoneInput,
    iso13855_vertical_zone,
)
from compliance.rules.closing import in_plane
from compliance.rules.facts import CellFacts, DeviceFacts
from compliance.rules.findings import (
    OUTSIDE_COVERAGE,
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

# --- ISO 13855:2010: minimum distance of sensing devices --------------------

DISTANCE_KINDS = ("light_curtain", "multibeam", "safety_mat")
_RESPONSE = gettext_noop("The response time of the device")
_STOPPING = gettext_noop("The robot's stopping time")
_DISTANCE = gettext_noop("The device's distance from the hazard zone")
_SCANNER = gettext_noop(
    "The minimum distance of the protective field of %(label)s (ISO 13855:2010, "
    "6.3, detection zone parallel to the approach) depends on the field's height "
    "above the floor, which is not recorded here: work it out with the "
    "horizontal-field calculator and record the result."
)


_NOT_PLACED = gettext_noop(
    "%(label)s is not placed on the plan: draw it (its detection line, or the "
    "mat's outline) so that its distance from the hazard zone is measured, not "
    "typed."
)
_INSIDE = gettext_noop(
    "%(label)s lies inside the hazard zone: a person is already within reach "
    "when it detects them. Move it out of the zone."
)


def overall_time_ms(facts: CellFacts, device: DeviceFacts) -> float:
    """T: the device's response, the safety controller's and the robot's
    stopping time (each recorded, checked by the caller), as ISO 13855 adds
    them up (``iso13855_common.overall_time_ms``)."""
    return iso13855_common.overall_time_ms(
        device.response_time_ms or 0,
        facts.controller_time_ms,
        facts.robot_stopping_time_ms or 0,
    )


def _distance_inputs(
    facts: CellFacts, device: DeviceFacts
) -> tuple[Callable[[Any], Any], type[BaseModel], dict[str, Any], list[str]]:
    """The calculator for a device, its inputs, and the figures missing."""
    missing = []
    if device.response_time_ms is None:
        missing.append(_RESPONSE)
    if facts.robot_stopping_time_ms is None:
        missing.append(_STOPPING)
    if device.kind == "safety_mat":
        times = {
            "response_time_ms": device.response_time_ms,
            "controller_time_ms": facts.controller_time_ms,
            "stopping_time_ms": facts.robot_stopping_time_ms,
        }
        return iso13855_mat, MatInput, times, missing
    # A light curtain or grid: reaching through and over its detection zone,
    # over the whole height range the hazard zone occupies.
    if facts.hazard_zone_height_mm is None:
        missing.append(gettext_noop("The height of the hazard zone"))
    inputs: dict[str, Any] = {
        "device_kind": device.kind,
        "overall_stopping_time_ms": overall_time_ms(facts, device),
        "hazard_lower_mm": facts.hazard_zone_lower_mm,
        "hazard_upper_mm": facts.hazard_zone_height_mm,
    }
    upper = reach_over_edge_mm(facts, device)
    if device.kind == "light_curtain":
        if device.detection_capability_mm is None:
            missing.append(gettext_noop("The detection capability of the curtain"))
        if upper is None:
            missing.append(gettext_noop("The height of the curtain's highest beam"))
        inputs["detection_capability_mm"] = device.detection_capability_mm
        inputs["upper_edge_height_mm"] = upper
    else:
        if device.beam_count is None:
            missing.append(gettext_noop("The number of beams"))
        inputs["beam_count"] = device.beam_count
        if upper is not None:
            inputs["upper_edge_height_mm"] = upper
    return iso13855_vertical_zone, VerticalZoneInput, inputs, missing


def reach_over_edge_mm(facts: CellFacts, device: DeviceFacts) -> float | None:
    """The height b a person must reach over: the device's highest beam, or,
    for a device that spans the top of the opening it guards in the plane of
    its guard, the guard above that opening (a fence panel continues above an
    infeed). A device standing in front of the guard is reached over at its
    own top, whatever the fence behind it."""
    top = device.detection_upper_mm
    if top is None or device.opening_key is None or not in_plane(device):
        return top
    opening = next((o for o in facts.openings if o.key == device.opening_key), None)
    if opening is None or opening.upper_edge_mm > top:
        return top
    segment = next((s for s in facts.segments if s.key == opening.segment_key), None)
    return max(top, segment.height_mm) if segment is not None else top


def _check_minimum_distance(facts: CellFacts) -> list[Finding]:
    rule = MINIMUM_DISTANCE
    findings = []
    for device in facts.devices_of(*DISTANCE_KINDS, "laser_scanner"):
        subject = (device.key, device.label)
        values: dict[str, str | int | float] = {"label": device.label}
        if device.kind == "laser_scanner":
            if "ssm" not in facts.collaborative_modes:  # else INTL-15066-ssm does
                findings.append(
                    rule.finding(
                        Status.NEEDS_EVIDENCE, subject, _SCANNER, values=values
                    )
                )
            continue
        if device.inside_hazard_zone:
            findings.append(
                rule.finding(
                    Status.FAIL,
                    subject,
                    _INSIDE,
                    values=values,
                    numbers={"distance_mm": 0},
                )
            )
            continue
        run, model, inputs, missing = _distance_inputs(facts, device)
        actual = device.distance_to_hazard_mm if device.placed else None
        if missing:
            if actual is None:
                missing.append(_DISTANCE)
            findings.append(
                rule.finding(
                    Status.NEEDS_EVIDENCE,
                    subject,
                    gettext_noop(
                        "Cannot compute the minimum distance of %(label)s: the "
                        "figures listed are not recorded."
                    ),
                    values=values,
                    details=missing_lines(missing),
                )
            )
            continue
        result, error = calculate(run, model, **inputs)
        required = None if result is None else result.minimum_distance_rounded_up_mm
        if result is None or required is None:
            reason = (
                getattr(result, "undetermined_reason", None) or error or ""
                if result is not None
                else error
            )
            findings.append(
                rule.finding(
                    Status.NEEDS_EVIDENCE,
                    subject,
                    OUTSIDE_COVERAGE,
                    values={**values, "error": reason or ""},
                    details=tuple(result.steps) if result is not None else (),
                )
            )
            continue
        values["required"] = mm(required)
        numbers: dict[str, int | float] = {
            "required_mm": required,
            "t_ms": number(result.t_ms),
        }
        if actual is None:
            status, message = Status.NEEDS_EVIDENCE, _NOT_PLACED
        else:
            values["distance"] = mm(actual)
            numbers["distance_mm"] = number(actual)
            if actual >= required:
                status, message = (
                    Status.PASS,
                    gettext_noop(
                        "%(label)s is %(distance)s mm from the hazard zone; ISO 13855 "
                        "requires at least %(required)s mm."
                    ),
                )
            else:
                status, message = (
                    Status.FAIL,
                    gettext_noop(
                        "%(label)s is only %(distance)s mm from the hazard zone; ISO "
                        "13855 requires at least %(required)s mm. Move it out, or "
                        "shorten the stopping time."
                    ),
                )
        notes: tuple[Line, ...] = ()
        if facts.controller_time_ms == 0:
            notes = (
                *notes,
                Line(
                    text=gettext_noop(
                        "No safety-controller response time is recorded: T holds "
                        "only the device's response and the robot's stopping time. "
                        "Add the controller's time if the signal passes through one."
                    )
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
                notes=notes,
            )
        )
    return findings


MINIMUM_DISTANCE = Rule(
    id="INTL-13855-distance",
    jurisdiction="INTL",
    citation=(
        "ISO 13855:2010, 6.2.3 (ESPE), 6.2 (multiple separate beams), Table 1 "
        "(reaching over, C_RO), 7 (pressure-sensitive mats): S = K × T + C, "
        "S = max(S_RT, S_RO)"
    ),
    text=gettext_noop(
        "A light curtain, light grid or safety mat must be far enough from the hazard "
        "zone that the robot has stopped before a person reaches it: S = K × T + C, "
        "with K the approach speed, T the device's response time plus the safety "
        "controller's and the robot's stopping time, and C the intrusion distance. For "
        "a light curtain or grid S is the larger of reaching through (S_RT) and "
        "reaching over its detection zone (S_RO, C_RO from Table 1, over the whole "
        "height range of the hazard zone); where the table gives no value the check "
        "needs evidence. The device's distance is measured from where it is drawn on "
        "the plan."
    ),
    # iso13855.json normal_approach_espe, multibeam_heights_mm,
    # parallel_approach, pressure_sensitive_mats: confirmed_two_sources true.
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=REFERENCE_SET_DATE,
    volatility="medium",  # EN ISO 13855:2025 published; changes not read
    sources=tuple(
        dict.fromkeys(
            source
            for group in (
                tables13855.APPROACH_SPEEDS,
                tables13855.ESPE_D_LE_40,
                tables13855.ESPE_D_GT_40,
                tables13855.MULTIBEAM,
                tables13855.PARALLEL,
                tables13855.MATS,
            )
            for source in group.sources
        )
    ),
    check=_check_minimum_distance,
    # Raised when the check changes (issue 27).
    revision=2,
    edition=("iso13855", "2010"),
)


# --- ISO 13855: interlocking guards without guard locking --------------------


def _door_distance(facts: CellFacts, device: DeviceFacts) -> float | None:
    for o in facts.openings:
        if o.key == device.opening_key:
            return o.distance_to_hazard_mm
    return None


def _check_interlock(facts: CellFacts) -> list[Finding]:
    rule = INTERLOCK_DISTANCE
    findings = []
    for device in facts.devices_of("interlocked_door"):
        subject = (device.key, device.label)
        values: dict[str, str | int | float] = {"label": device.label}
        if device.guard_locking:
            findings.append(
                rule.finding(
                    Status.PASS,
                    subject,
                    gettext_noop(
                        "%(label)s is recorded with guard locking (ISO 14119): the "
                        "door stays locked until the hazard has stopped, so no "
                        "approach distance applies. Validate the locking and its "
                        "release on the real cell."
                    ),
                    values=values,
                )
            )
            continue
        missing = []
        if device.opening_key is None:
            missing.append(gettext_noop("The opening the door closes"))
        if facts.robot_stopping_time_ms is None:
            missing.append(_STOPPING)
        distance = _door_distance(facts, device)
        if device.opening_key is not None and distance is None:
            missing.append(_DISTANCE)
        if missing:
            findings.append(
                rule.finding(
                    Status.NEEDS_EVIDENCE,
                    subject,
                    gettext_noop(
                        "Cannot check the distance of %(label)s from the hazard "
                        "zone: the figures listed are not recorded."
                    ),
                    values=values,
                    details=missing_lines(missing),
                )
            )
            continue
        result, error = calculate(
            iso13855_interlock,
            InterlockInput,
            overall_stopping_time_ms=overall_time_ms(facts, device),
            distance_to_hazard_mm=distance,
        )
        if result is None:
            findings.append(rule.outside_coverage(subject, values, error))
            continue
        required = result.minimum_distance_rounded_up_mm
        values |= {"required": mm(required), "distance": mm(distance)}
        numbers = {
            "required_mm": required,
            "distance_mm": number(distance),
            "t_ms": number(result.t_ms),
        }
        if result.sufficient:
            status, message = (
                Status.PASS,
                gettext_noop(
                    "%(label)s opens %(distance)s mm from the hazard zone; without "
                    "guard locking ISO 13855 asks at least %(required)s mm (S = K × "
                    "T, K = 1600 mm/s)."
                ),
            )
        else:
            status, message = (
                Status.FAIL,
                gettext_noop(
                    "%(label)s opens only %(distance)s mm from the hazard zone: "
                    "without guard locking ISO 13855 asks at least %(required)s mm "
                    "(S = K × T, K = 1600 mm/s). Add guard locking (ISO 14119), "
                    "shorten the stopping time, or move the door."
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


INTERLOCK_DISTANCE = Rule(
    id="INTL-13855-interlock",
    jurisdiction="INTL",
    citation=CLAUSE_INTERLOCK,
    text=gettext_noop(
        "An interlocked guard without guard locking lets the door open while the robot "
        "is still moving: it must be so far from the hazard zone that the robot has "
        "stopped before a person reaches it, S = K × T with K = 1600 mm/s and T from "
        "opening the door to standstill. Otherwise the door needs guard locking (ISO "
        "14119)."
    ),
    # iso13855_additions.json interlocking_guards_without_locking: two sources.
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=REFERENCE_SET_DATE,
    volatility="medium",
    sources=tables13855.INTERLOCK.sources,
    check=_check_interlock,
)


# --- IEC 61496: type of opto-electronic protective devices ------------------

TYPE_KINDS = ("light_curtain", "multibeam", "laser_scanner")
# iso13849_pl_verification.json iec61496_espe_types: the highest PL a device of
# each type can carry (two sources each).
MAX_PL_BY_TYPE: dict[int, str] = {2: "c", 3: "d", 4: "e"}
ESPE_TYPE_SOURCES = (
    "ReeR AUS X manual (Type 2 limited to SIL 1 / PL c since EN 61496-1 Ed. 3)",
    "industrialsafetysensor.com (Type 2: PL c, Type 3 scanners: PL d, Type 4: PL e)",
)


def _check_device_type(facts: CellFacts) -> list[Finding]:
    rule = DEVICE_TYPE
    findings = []
    for device in facts.devices_of(*TYPE_KINDS):
        values: dict[str, str | int | float] = {"label": device.label}
        numbers: dict[str, int | float] = {}
        if device.iec61496_type is None:
            status, message = (
                Status.NEEDS_EVIDENCE,
                gettext_noop(
                    "Record the IEC 61496 type of %(label)s (from its data sheet or "
                    "certificate)."
                ),
            )
        else:
            max_pl = MAX_PL_BY_TYPE[device.iec61496_type]
            values |= {"type": device.iec61496_type, "max_pl": max_pl}
            numbers = {"iec61496_type": device.iec61496_type}
            if device.plr_served is None:
                status, message = (
                    Status.NEEDS_EVIDENCE,
                    gettext_noop(
                        "%(label)s is IEC 61496 Type %(type)s, which carries at most "
                        "PL %(max_pl)s. No hazard of the signed risk assessment "
                        "names it as a measure, so the PL it must carry is not "
                        "known: link it to the hazards it reduces and sign."
                    ),
                )
            else:
                values["plr"] = device.plr_served
                if device.plr_served <= max_pl:
                    status, message = (
                        Status.PASS,
                        gettext_noop(
                            "%(label)s is IEC 61496 Type %(type)s, good for up to PL "
                            "%(max_pl)s; the hazards it reduces need PL %(plr)s."
                        ),
                    )
                else:
                    status, message = (
                        Status.FAIL,
                        gettext_noop(
                            "%(label)s is IEC 61496 Type %(type)s, good for at most "
                            "PL %(max_pl)s, but the hazards it reduces need PL "
                            "%(plr)s: use a device of a higher type."
                        ),
                    )
        findings.append(
            rule.finding(
                status,
                (device.key, device.label),
                message,
                values=values,
                numbers=numbers,
            )
        )
    return findings


DEVICE_TYPE = Rule(
    id="INTL-61496-type",
    jurisdiction="INTL",
    citation=(
        "IEC 61496-1, IEC 61496-2 (light curtains and grids), IEC 61496-3 "
        "(laser scanners); ISO 13849-1:2023 (PLr)"
    ),
    text=gettext_noop(
        "Light curtains, light grids and safety laser scanners are electro-sensitive "
        "protective equipment tested to IEC 61496. A device's type limits the "
        "performance level it can carry: Type 2 at most PL c, Type 3 (safety laser "
        "scanners) PL d, Type 4 PL e. Checked against the highest PLr of the hazards "
        "the device reduces in the signed risk assessment."
    ),
    # iso13849_pl_verification.json iec61496_espe_types: confirmed_two_sources.
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=REFERENCE_SET_DATE,
    volatility="low",
    sources=ESPE_TYPE_SOURCES,
    check=_check_device_type,
)


SENSING_RULES: tuple[Rule, ...] = (MINIMUM_DISTANCE, INTERLOCK_DISTANCE, DEVICE_TYPE)
