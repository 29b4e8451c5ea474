"""Minimum distances of sensing devices by ISO 13855:2024 (EN ISO 13855:2025),
for projects that compute with that edition (``compliance.calculators.editions``).

S = K × T + D_DS + Z (``calculators.iso13855_2024``):

- a light curtain, approached at right angles: D_DS the largest of reaching
  through, over and under. D_DO, the reach over, comes from the 2024 table,
  which the app's reference data do not hold: the engineer records it from
  their copy (``DeviceFacts.reach_over_ddo_mm``); until then the check fails
  a curtain already too close without it and otherwise needs evidence;
- a safety laser scanner's horizontal field (parallel approach): D_DS = 1200
  mm, compared with the depth of its protective field;
- a safety mat: the parallel approach at floor level (the 2024 text for mats
  was not read; the 2010 mat formula is the 2010 parallel formula at H = 0);
- a multi-beam grid: the 2024 reach-through distance for separate beams is not
  in the reference data, so it needs evidence.

Z, the device's supplement, is a record from its data sheet: without it the
check needs evidence. Pure Python, no Django.
"""

from __future__ import annotations

from compliance.calculators import iso13855_tables as tables13855
from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.iso13855_2024 import (
    Result2024,
    Summed2024Input,
    iso13855_2024_summed,
)
from compliance.rules.facts import CellFacts, DeviceFacts
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
from compliance.rules.scanning import approach_keys
from compliance.rules.sensing import overall_time_ms

_RESPONSE = gettext_noop("The response time of the device")
_STOPPING = gettext_noop("The robot's stopping time")
_SUPPLEMENT = gettext_noop(
    "The supplement Z of the device for ISO 13855:2024 (its data sheet; 0 if it "
    "gives none)"
)
_MISSING = gettext_noop(
    "Cannot compute the ISO 13855:2024 minimum distance of %(label)s: the "
    "figures listed are not recorded."
)
_MAT_NOTE = gettext_noop(
    "The 2024 text for pressure-sensitive mats was not read: the parallel-"
    "approach rule is applied at floor level (the 2010 mat formula, S = 1600 × T "
    "+ 1200, is the 2010 parallel formula at H = 0)."
)


def _missing(facts: CellFacts, device: DeviceFacts) -> list[str]:
    missing = []
    if device.response_time_ms is None:
        missing.append(_RESPONSE)
    if facts.robot_stopping_time_ms is None:
        missing.append(_STOPPING)
    if device.supplement_z_mm is None:
        missing.append(_SUPPLEMENT)
    if device.kind == "light_curtain":
        if device.detection_capability_mm is None:
            missing.append(gettext_noop("The detection capability of the curtain"))
        if device.detection_lower_mm is None:
            missing.append(
                gettext_noop(
                    "The height of the curtain's lowest beam (for reaching under)"
                )
            )
    if device.kind == "laser_scanner":
        if device.field_height_mm is None:
            missing.append(gettext_noop("The height of the scanner's protective field"))
        if device.detection_capability_mm is None:
            missing.append(
                gettext_noop("The detection capability (resolution) of the scanner")
            )
        if device.protective_field_mm is None:
            missing.append(gettext_noop("The radius of the scanner's protective field"))
    return missing


def _inputs(facts: CellFacts, device: DeviceFacts) -> dict:
    inputs = {
        "overall_stopping_time_ms": overall_time_ms(facts, device),
        "supplement_z_mm": device.supplement_z_mm,
    }
    if device.kind == "light_curtain":
        return inputs | {
            "approach": "orthogonal",
            "detection_capability_mm": device.detection_capability_mm,
            "gap_beneath_mm": device.detection_lower_mm,
            "reach_over_mm": device.reach_over_ddo_mm,
        }
    if device.kind == "laser_scanner":
        return inputs | {
            "approach": "parallel",
            "field_height_mm": device.field_height_mm,
            "detection_capability_mm": device.detection_capability_mm,
        }
    return inputs | {"approach": "parallel", "field_height_mm": 0.0}


def _actual(device: DeviceFacts) -> float | None:
    """What is compared with S: a scanner's protective field radius, else the
    device's measured distance on the plan (None when not placed)."""
    if device.kind == "laser_scanner":
        return device.protective_field_mm
    return device.distance_to_hazard_mm if device.placed else None


def _check(facts: CellFacts) -> list[Finding]:
    rule = MINIMUM_DISTANCE_2024
    findings: list[Finding] = []
    kinds = ("light_curtain", "multibeam", "safety_mat", "laser_scanner")
    for device in facts.devices_of(*kinds):
        subject = (device.key, device.label)
        values: dict[str, str | int | float] = {"label": device.label}
        if device.kind == "laser_scanner" and "ssm" in facts.collaborative_modes:
            continue  # INTL-15066-ssm checks the scanner's field
        if device.kind == "multibeam":
            findings.append(
                rule.finding(
                    Status.NEEDS_EVIDENCE,
                    subject,
                    gettext_noop(
                        "The ISO 13855:2024 distance of %(label)s, a grid of "
                        "separate beams, cannot be worked out: the 2024 reach-"
                        "through distance for separate beams is not in the "
                        "reference data. Work it out from the standard and "
                        "record the result."
                    ),
                    values=values,
                )
            )
            continue
        if device.kind != "laser_scanner" and device.inside_hazard_zone:
            findings.append(
                rule.finding(
                    Status.FAIL,
                    subject,
                    gettext_noop(
                        "%(label)s lies inside the hazard zone: a person is already "
                        "within reach when it detects them. Move it out of the zone."
                    ),
                    values=values,
                    numbers={"distance_mm": 0},
                )
            )
            continue
        missing = _missing(facts, device)
        actual = _actual(device)
        if missing:
            if actual is None and device.kind != "laser_scanner":
                missing.append(
                    gettext_noop("The device's distance from the hazard zone")
                )
            findings.append(
                rule.finding(
                    Status.NEEDS_EVIDENCE,
                    subject,
                    _MISSING,
                    values=values,
                    details=missing_lines(missing),
                )
            )
            continue
        result, error = calculate(
            iso13855_2024_summed, Summed2024Input, **_inputs(facts, device)
        )
        if result is None:
            findings.append(rule.outside_coverage(subject, values, error))
            continue
        findings.append(_verdict(rule, facts, device, result, actual))
    # A scanner's field is judged on the plan, approach by approach
    # (``scanning.APPROACHES``): its verdict here is never better than that.
    scanners = {d.key: d for d in facts.devices_of("laser_scanner")}
    return [
        f.model_copy(update={"relies_on": approach_keys(scanners[f.subject_key])})
        if f.subject_key in scanners
        else f
        for f in findings
    ]


def _verdict(
    rule: Rule,
    facts: CellFacts,
    device: DeviceFacts,
    result: Result2024,
    actual: float | None,
) -> Finding:
    subject = (device.key, device.label)
    complete = result.minimum_distance_mm is not None and (
        device.kind != "light_curtain"
        or (
            getattr(result, "reach_over_checked", False)
            and getattr(result, "reach_under_checked", False)
        )
    )
    known = result.known_minimum_rounded_up_mm
    values: dict[str, str | int | float] = {
        "label": device.label,
        "required": mm(known),
    }
    numbers: dict[str, int | float] = {
        "required_mm": known,
        "t_ms": number(result.t_ms),
        "z_mm": number(result.z_mm),
        "d_ds_mm": number(result.d_ds_mm),
    }
    notes: tuple[Line, ...] = ()
    if device.kind == "safety_mat":
        notes = (Line(text=_MAT_NOTE),)
    scanner = device.kind == "laser_scanner"
    if actual is None:
        return rule.from_result(
            Status.NEEDS_EVIDENCE,
            subject,
            gettext_noop(
                "%(label)s is not placed on the plan: draw it (its detection line, "
                "or the mat's outline) so that its distance from the hazard zone "
                "is measured, not typed."
            ),
            result,
            values=values,
            numbers=numbers,
            notes=notes,
        )
    values["distance"] = mm(actual)
    numbers["distance_mm"] = number(actual)
    if actual < known:
        if scanner:
            message = gettext_noop(
                "The protective field of %(label)s reaches only %(distance)s mm from "
                "the hazard zone; ISO 13855:2024 (parallel approach, S = 1600 × T + "
                "1200 + Z) requires at least %(required)s mm. Enlarge the field, or "
                "shorten the stopping time."
            )
        elif complete:
            message = gettext_noop(
                "%(label)s is only %(distance)s mm from the hazard zone; ISO "
                "13855:2024 requires at least %(required)s mm (S = K × T + D_DS + "
                "Z). Move it out, or shorten the stopping time."
            )
        else:
            message = gettext_noop(
                "%(label)s is only %(distance)s mm from the hazard zone; even "
                "before reaching over is counted, ISO 13855:2024 requires at least "
                "%(required)s mm. Move it out, or shorten the stopping time."
            )
        status = Status.FAIL
    elif not complete:
        status = Status.NEEDS_EVIDENCE
        message = gettext_noop(
            "%(label)s is %(distance)s mm from the hazard zone, at least the "
            "%(required)s mm that reaching through and under ask by ISO "
            "13855:2024; reaching over is not checked: record D_DO from the 2024 "
            "table (the app's reference data do not hold it), or the height of "
            "the lowest beam if the gap beneath is not covered."
        )
    elif scanner:
        status = Status.PASS
        message = gettext_noop(
            "The protective field of %(label)s reaches %(distance)s mm from the "
            "hazard zone; ISO 13855:2024 (parallel approach, S = 1600 × T + 1200 + "
            "Z) requires at least %(required)s mm."
        )
    else:
        status = Status.PASS
        message = gettext_noop(
            "%(label)s is %(distance)s mm from the hazard zone; ISO 13855:2024 "
            "requires at least %(required)s mm (S = K × T + D_DS + Z)."
        )
    return rule.from_result(
        status, subject, message, result, values=values, numbers=numbers, notes=notes
    )


MINIMUM_DISTANCE_2024 = Rule(
    id="INTL-13855-2024-distance",
    jurisdiction="INTL",
    citation=(
        "ISO 13855:2024 (EN ISO 13855:2025), 6 (orthogonal approach) and 6.3 "
        "(parallel approach): S = K × T + D_DS + Z"
    ),
    text=gettext_noop(
        "For projects computing with ISO 13855:2024: a light curtain, a safety mat or "
        "a safety laser scanner's field must be far enough from the hazard zone that "
        "the robot has stopped before a person reaches it: S = K × T + D_DS + Z. For a "
        "light curtain D_DS is the largest of reaching through, over (D_DO, from the "
        "2024 table, recorded by the engineer) and under the detection zone; for a "
        "horizontal field D_DS = 1200 mm whatever its height; Z is the device's "
        "supplement for its measurement and reflection errors, from its data sheet. "
        "The 2024 figures rest on secondary sources, some on one only: the findings "
        "say which."
    ),
    # iso13855_additions.json edition_2024: formula two sources; K, D_DT, D_DU
    # and the parallel approach one source each.
    certainty=RuleCertainty.TO_BE_CONFIRMED,
    checked_on=REFERENCE_SET_DATE,
    volatility="high",  # new edition; its details read in secondary sources
    sources=tuple(
        dict.fromkeys(
            (
                *tables13855.FORMULA_2024.sources,
                *tables13855.K_2024_PARALLEL.sources,
                *tables13855.Z_EXAMPLES.sources,
            )
        )
    ),
    check=_check,
    edition=("iso13855", "2024"),
    # Raised when a scanner's verdict came to rest on its field on the plan
    # (issue 27).
    revision=2,
)
