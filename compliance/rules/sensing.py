"""Sensing protective devices: where they must be, and what they must be.

- ISO 13855:2010, 6.2.3 / 6.2 / 7: minimum distance S = K × T + C of light
  curtains, multi-beam grids and mats, from the device's response time, the
  safety controller's and the robot's stopping time (``iso13855`` calculators);
- IEC 61496-2/-3: the type of each opto-electronic device is recorded.

Pure Python, no Django.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from compliance.calculators import iso13855_tables as tables13855
from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.iso13855 import (
    EspeInput,
    MatInput,
    MultibeamInput,
    iso13855_espe,
    iso13855_mat,
    iso13855_multibeam,
)
from compliance.rules.facts import CellFacts, DeviceFacts
from compliance.rules.findings import (
    OUTSIDE_COVERAGE,
    REFERENCE_SET_DATE,
    Finding,
    Rule,
    RuleCertainty,
    Status,
    calculate,
    certainty_of,
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


def _distance_inputs(
    facts: CellFacts, device: DeviceFacts
) -> tuple[Callable[[Any], Any], type[BaseModel], dict[str, Any], list[str]]:
    """The calculator for a device, its inputs, and the figures missing."""
    missing = []
    if device.response_time_ms is None:
        missing.append(_RESPONSE)
    if facts.robot_stopping_time_ms is None:
        missing.append(_STOPPING)
    times = {
        "response_time_ms": device.response_time_ms,
        "controller_time_ms": facts.controller_time_ms,
        "stopping_time_ms": facts.robot_stopping_time_ms,
    }
    if device.kind == "light_curtain":
        if device.detection_capability_mm is None:
            missing.append(gettext_noop("The detection capability of the curtain"))
        inputs = {**times, "detection_capability_mm": device.detection_capability_mm}
        return iso13855_espe, EspeInput, inputs, missing
    if device.kind == "multibeam":
        if device.beam_count is None:
            missing.append(gettext_noop("The number of beams"))
        inputs = {**times, "beam_count": device.beam_count}
        return iso13855_multibeam, MultibeamInput, inputs, missing
    return iso13855_mat, MatInput, times, missing


def _actual_distance(
    facts: CellFacts, device: DeviceFacts
) -> tuple[float | None, tuple[Line, ...]]:
    """The device's distance, or for a curtain or grid in an opening the
    opening's distance when the device's own is not recorded."""
    if device.distance_to_hazard_mm is not None or device.kind == "safety_mat":
        return device.distance_to_hazard_mm, ()
    for o in facts.openings:
        if o.key == device.opening_key and o.distance_to_hazard_mm is not None:
            line = Line(
                text=gettext_noop(
                    "Distance taken from the opening it guards, %(opening)s"
                ),
                values={"opening": o.label},
                formula=f"{mm(o.distance_to_hazard_mm)} mm",
            )
            return o.distance_to_hazard_mm, (line,)
    return None, ()


def _check_minimum_distance(facts: CellFacts) -> list[Finding]:
    rule = MINIMUM_DISTANCE
    findings = []
    for device in facts.devices_of(*DISTANCE_KINDS, "laser_scanner"):
        subject = (device.key, device.label)
        values: dict[str, str | int | float] = {"label": device.label}
        if device.kind == "laser_scanner":
            if facts.collaborative_mode != "ssm":  # else INTL-15066-ssm checks it
                findings.append(
                    rule.finding(
                        Status.NEEDS_EVIDENCE, subject, _SCANNER, values=values
                    )
                )
            continue
        run, model, inputs, missing = _distance_inputs(facts, device)
        actual, where = _actual_distance(facts, device)
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
        if result is None:
            findings.append(
                rule.finding(
                    Status.NEEDS_EVIDENCE,
                    subject,
                    OUTSIDE_COVERAGE,
                    values={**values, "error": error},
                )
            )
            continue
        # The calculator's own "rounded up to the next whole millimetre".
        required = math.ceil(round(result.minimum_distance_mm, 6))
        values["required"] = mm(required)
        numbers: dict[str, int | float] = {
            "required_mm": required,
            "t_ms": number(result.t_ms),
        }
        if actual is None:
            status, message = (
                Status.NEEDS_EVIDENCE,
                gettext_noop(
                    "%(label)s must be at least %(required)s mm from the hazard zone; "
                    "record its distance to check it."
                ),
            )
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
        notes = result.warnings
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
            rule.finding(
                status,
                subject,
                message,
                values=values,
                numbers=numbers,
                details=(*where, *result.steps),
                notes=notes,
                certainty=certainty_of(result.certainty),
                sources=result.sources,
                citation=result.clause,
            )
        )
    return findings


MINIMUM_DISTANCE = Rule(
    id="INTL-13855-distance",
    jurisdiction="INTL",
    citation=(
        "ISO 13855:2010, 6.2.3 (ESPE), 6.2 (multiple separate beams), 6.3 "
        "(parallel approach), 7 (pressure-sensitive mats): S = K × T + C"
    ),
    text_en=(
        "A light curtain, light grid or safety mat must be far enough from the "
        "hazard zone that the robot has stopped before a person reaches it: "
        "S = K × T + C, with K the approach speed, T the device's response time "
        "plus the safety controller's and the robot's stopping time, and C the "
        "intrusion distance. A laser scanner's horizontal field needs its height "
        "above the floor, which is not recorded, so it is asked for. Reaching "
        "over the detection zone (C_RO) is not checked: that table is not in the "
        "reference data."
    ),
    text_ko=(
        "라이트 커튼, 멀티빔 라이트 그리드, 안전매트는 사람이 위험구역에 닿기 전에 "
        "로봇이 멈출 수 있을 만큼 떨어져 있어야 합니다: S = K × T + C (K 접근 속도, "
        "T 장치 응답시간, 안전 컨트롤러 응답시간, 로봇 정지시간의 합, C 침입거리). "
        "레이저 스캐너의 수평 보호영역은 바닥으로부터의 높이가 필요한데 기록되어 "
        "있지 않으므로 따로 요청합니다. 검출영역 위로 손을 뻗는 경우(C_RO)는 참조 "
        "자료에 표가 없어 확인하지 않습니다."
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
)


# --- IEC 61496: type of opto-electronic protective devices ------------------

TYPE_KINDS = ("light_curtain", "multibeam", "laser_scanner")


def _check_device_type(facts: CellFacts) -> list[Finding]:
    rule = DEVICE_TYPE
    findings = []
    for device in facts.devices_of(*TYPE_KINDS):
        values: dict[str, str | int | float] = {"label": device.label}
        if device.iec61496_type is None:
            status, message = (
                Status.NEEDS_EVIDENCE,
                gettext_noop(
                    "Record the IEC 61496 type of %(label)s (from its data sheet or "
                    "certificate)."
                ),
            )
            numbers: dict[str, int | float] = {}
        else:
            values["type"] = device.iec61496_type
            numbers = {"iec61496_type": device.iec61496_type}
            status, message = (
                Status.PASS,
                gettext_noop(
                    "%(label)s is recorded as IEC 61496 Type %(type)s. Whether that type "
                    "suits the safety function's required performance level is not "
                    "checked here."
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
        "(laser scanners)"
    ),
    text_en=(
        "Light curtains, light grids and safety laser scanners are electro-"
        "sensitive protective equipment tested to IEC 61496: record each device's "
        "type. IEC 61496 is not in the project's reference data: to be confirmed."
    ),
    text_ko=(
        "라이트 커튼, 라이트 그리드, 안전 레이저 스캐너는 IEC 61496에 따라 시험된 "
        "전기감응형 보호설비입니다. 장치마다 형식(Type)을 기록하십시오. IEC 61496은 "
        "프로젝트 참조 자료에 없으므로 확인이 필요합니다."
    ),
    certainty=RuleCertainty.TO_BE_CONFIRMED,  # not in the reference data
    checked_on=REFERENCE_SET_DATE,
    volatility="low",
    sources=(),
    check=_check_device_type,
)


SENSING_RULES: tuple[Rule, ...] = (MINIMUM_DISTANCE, DEVICE_TYPE)
