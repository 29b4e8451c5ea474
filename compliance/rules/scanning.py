"""The protective fields of safety laser scanners on the plan: does a field
stop a person walking up to the hazard zone in time, from every side no guard
closes? Pure Python, no Django.

A scanner's figure is never taken on trust: its protective field is drawn on
the plan (the disc of its radius round the scanner, ``cells.perimeter.
approach``), and every approach to the zone that crosses no guard must run
inside a field from S out to the zone. S is the protective separation
distance S_p of ISO/TS 15066 5.5.4 where the cell uses speed and separation
monitoring, else the minimum distance of ISO 13855:2010 6.3 for a detection
zone parallel to the approach (K = 1,600 mm/s); with several scanners, the
largest. An approach left open is a fail at that side (or at the opening it
passes through), drawn on the plan.
"""

from __future__ import annotations

import math

from cells.perimeter.approach import Barrier, Field, Uncovered, uncovered
from compliance.calculators.base import CalcResult, Line, gettext_noop
from compliance.calculators.iso13855_horizontal import (
    ParallelInput,
    iso13855_parallel,
)
from compliance.calculators.ts15066 import (
    DEFAULT_HUMAN_SPEED_MM_S,
    SsmInput,
    ts15066_ssm,
)
from compliance.calculators.ts15066_tables import SSM_FORMULA_SOURCES
from compliance.rules.facts import CELL_SUBJECT, CellFacts, DeviceFacts
from compliance.rules.findings import (
    REFERENCE_SET_DATE,
    Finding,
    Rule,
    RuleCertainty,
    Status,
    calculate,
    mm,
)
from compliance.rules.safeguarding import GUARDING_KINDS, needs_perimeter

_CELL = (CELL_SUBJECT, gettext_noop("Cell"))
# The subject of approaches from one side that pass through no opening.
SIDE_PREFIX = "approach:"
SIDE_KEYS = tuple(
    f"{SIDE_PREFIX}{side}" for side in ("E", "NE", "N", "NW", "W", "SW", "S", "SE")
)


def approach_keys(scanner: DeviceFacts) -> tuple[str, ...]:
    """The subjects of the approach findings a scanner's verdict relies on:
    the way in through the opening it is linked to; a scanner linked to none
    watches the sides."""
    return (scanner.opening_key,) if scanner.opening_key else SIDE_KEYS


def fields_of(facts: CellFacts) -> list[DeviceFacts]:
    """The scanners drawn on the plan with a protective field."""
    return [
        d
        for d in facts.devices_of("laser_scanner")
        if d.position_mm is not None and d.protective_field_mm is not None
    ]


def applies(facts: CellFacts) -> bool:
    """Scanners guard the cell's approaches where it uses speed and
    separation monitoring, or where it is no collaborative cell (then every
    approach needs a guard); in a cell of power and force limiting alone, a
    scanner is no safeguard of its own."""
    return bool(fields_of(facts)) and (
        "ssm" in facts.collaborative_modes or needs_perimeter(facts)
    )


def separation_distance(
    *,
    ssm: bool,
    response_ms: float,
    controller_ms: float,
    stopping_ms: float,
    speed_mm_s: float,
    stopping_distance_mm: float | None,
    field_height_mm: float | None,
    detection_capability_mm: float | None,
) -> tuple[CalcResult | None, float | None, str]:
    """S for a scanner's field with these figures: S_p (ISO/TS 15066 5.5.4,
    with speed and separation monitoring; terms not recorded taken as 0 and
    named) or ISO 13855:2010 6.3 (needs the field's height and the scanner's
    detection capability). (the result, S rounded up to the mm, why it is
    outside what the calculator covers)."""
    if ssm:
        result, error = calculate(
            ts15066_ssm,
            SsmInput,
            human_speed_mm_s=DEFAULT_HUMAN_SPEED_MM_S,
            robot_speed_mm_s=speed_mm_s,
            reaction_time_ms=response_ms + controller_ms,
            stopping_time_ms=stopping_ms,
            stopping_distance_mm=stopping_distance_mm,
            detection_height_mm=field_height_mm,
        )
        s = None if result is None else result.separation_distance_mm
    else:
        result, error = calculate(
            iso13855_parallel,
            ParallelInput,
            field_height_mm=field_height_mm,
            detection_capability_mm=detection_capability_mm,
            response_time_ms=response_ms,
            controller_time_ms=controller_ms,
            stopping_time_ms=stopping_ms,
        )
        s = None if result is None else result.minimum_distance_rounded_up_mm
    if result is None or s is None:
        return result, None, error
    return result, float(math.ceil(round(s, 6))), ""


def separation(
    facts: CellFacts, scanner: DeviceFacts
) -> tuple[CalcResult | None, float | None, list[str], str]:
    """The distance S the field of ``scanner`` must reach out from the zone:
    (the calculator's result, S rounded up to the mm, the figures missing,
    why it is outside what the calculator covers)."""
    missing = []
    if scanner.response_time_ms is None:
        missing.append(gettext_noop("The response time of %(label)s"))
    if facts.robot_stopping_time_ms is None:
        missing.append(gettext_noop("The robot's stopping time"))
    ssm = "ssm" in facts.collaborative_modes
    if not ssm:
        if scanner.field_height_mm is None:
            missing.append(
                gettext_noop("The height of the protective field of %(label)s")
            )
        if scanner.detection_capability_mm is None:
            missing.append(
                gettext_noop("The detection capability (resolution) of %(label)s")
            )
    if missing:
        return None, None, missing, ""
    result, s, error = separation_distance(
        ssm=ssm,
        response_ms=float(scanner.response_time_ms or 0),
        controller_ms=facts.controller_time_ms,
        stopping_ms=float(facts.robot_stopping_time_ms or 0),
        speed_mm_s=facts.robot_speed_mm_s,
        stopping_distance_mm=facts.robot_stopping_distance_mm,
        field_height_mm=scanner.field_height_mm,
        detection_capability_mm=scanner.detection_capability_mm,
    )
    return result, s, [], error


def _barriers(facts: CellFacts) -> list[Barrier]:
    """The guards on the plan, each with the openings an approach may pass
    through: an opening a door, curtain, grid or mat guards is judged by the
    openings' rule, as is, in a cell that needs its perimeter closed, an
    opening nothing guards; an opening a scanner guards is passed through
    and must lie in its field."""
    layout = facts.layout
    if layout is None:
        return []
    closing = needs_perimeter(facts)
    passable: dict[str, list[tuple[float, float, str]]] = {}
    for o in layout.openings:
        linked = [d for d in facts.devices_for(o.key) if d.kind in GUARDING_KINDS]
        others = [d for d in linked if d.kind != "laser_scanner"]
        if others or (closing and not linked):
            continue
        passable.setdefault(o.segment_key, []).append(
            (o.offset_mm, o.offset_mm + o.width_mm, o.key)
        )
    return [
        Barrier(start=s.start, end=s.end, passable=tuple(passable.get(s.key, ())))
        for s in layout.segments
    ]


def open_approaches(facts: CellFacts, s_mm: float) -> list[Uncovered]:
    """The approaches no guard closes and no field covers from ``s_mm`` out."""
    layout = facts.layout
    if layout is None:
        return []
    fields = [
        Field(
            key=d.key,
            centre=d.position_mm,
            radius_mm=float(d.protective_field_mm),
        )
        for d in fields_of(facts)
        if d.position_mm is not None and d.protective_field_mm is not None
    ]
    return uncovered(layout.zone, s_mm, fields, _barriers(facts))


def _check(facts: CellFacts) -> list[Finding]:
    rule = APPROACHES
    if not applies(facts) or facts.layout is None:
        return []
    scanners = fields_of(facts)
    worst: tuple[float, CalcResult, DeviceFacts] | None = None
    for scanner in scanners:
        values = {"label": scanner.label}
        result, s, missing, error = separation(facts, scanner)
        if missing:
            return [
                rule.finding(
                    Status.NEEDS_EVIDENCE,
                    _CELL,
                    gettext_noop(
                        "Whether the protective fields stop a person in time "
                        "cannot be checked: the figures listed are not recorded."
                    ),
                    details=tuple(Line(text=text, values=values) for text in missing),
                )
            ]
        if s is None or result is None:
            return [rule.outside_coverage(_CELL, values, error)]
        if worst is None or s > worst[0]:
            worst = (s, result, scanner)
    assert worst is not None
    s_mm, result, scanner = worst
    complete = bool(getattr(result, "complete", True))
    labels = {o.key: o.label for o in facts.openings}
    base = {"s": mm(s_mm), "scanner": scanner.label}
    findings = []
    for gap in open_approaches(facts, s_mm):
        values = base | {
            "reach": mm(gap.reach_mm),
            "from": f"{gap.from_deg % 360:.0f}",
            "to": f"{gap.to_deg % 360:.0f}",
            "side": gap.side,
        }
        numbers = {
            "required_mm": s_mm,
            "reach_mm": gap.reach_mm,
            "from_deg": gap.from_deg,
            "to_deg": gap.to_deg,
        }
        if gap.through is not None:
            subject = (gap.through, labels.get(gap.through, gap.through))
            values["label"] = subject[1]
            message = gettext_noop(
                "A person walking in through %(label)s is not inside a protective "
                "field from S = %(s)s mm out to the hazard zone: the fields reach "
                "only %(reach)s mm out there (directions %(from)s° to %(to)s°). "
                "Enlarge the field or move the scanner so that it covers the "
                "opening, or guard the opening otherwise."
            )
        else:
            subject = (f"{SIDE_PREFIX}{gap.side}", gap.side)
            message = gettext_noop(
                "The approach from the %(side)s side (directions %(from)s° to "
                "%(to)s°, 0° = +x) is neither behind a guard nor inside a "
                "protective field from S = %(s)s mm out to the hazard zone: the "
                "fields reach only %(reach)s mm out there. Enlarge or add a field, "
                "or close that side with a guard."
            )
        findings.append(
            rule.from_result(
                Status.FAIL,
                subject,
                message,
                result,
                values=values,
                numbers=numbers,
                citation=_citation(facts),
            )
        )
    if findings:
        return findings
    if complete:
        status, message = (
            Status.PASS,
            gettext_noop(
                "Every approach to the hazard zone is behind a guard or inside a "
                "protective field from S = %(s)s mm out (the largest S, that of "
                "%(scanner)s)."
            ),
        )
    else:
        status, message = (
            Status.NEEDS_EVIDENCE,
            gettext_noop(
                "Every approach to the hazard zone is behind a guard or inside a "
                "protective field from %(s)s mm out, but S is not complete: "
                "figures are missing from it (its working says which). Record "
                "them and check the fields again."
            ),
        )
    return [
        rule.from_result(
            status,
            _CELL,
            message,
            result,
            values=base,
            numbers={"required_mm": s_mm},
            citation=_citation(facts),
        )
    ]


def _citation(facts: CellFacts) -> str:
    if "ssm" in facts.collaborative_modes:
        return "ISO/TS 15066:2016, 5.5.4 (protective separation distance S_p)"
    return "ISO 13855:2010, 6.3 (detection zone parallel to the approach)"


APPROACHES = Rule(
    id="INTL-scanner-approach",
    jurisdiction="INTL",
    citation=(
        "ISO 13855:2010, 6.3 (K = 1,600 mm/s); ISO/TS 15066:2016, 5.5.4 "
        "(speed and separation monitoring)"
    ),
    text=gettext_noop(
        "A safety laser scanner guards only where its protective field lies: every "
        "way a person can walk up to the hazard zone that no guard closes must run "
        "inside a protective field from the minimum distance S out to the zone "
        "(ISO 13855 for a field that stops the robot; the protective separation "
        "distance of ISO/TS 15066 with speed and separation monitoring). The field "
        "is checked as drawn on the plan, a disc of its radius round the scanner; a "
        "side it does not cover fails, and is drawn on the plan."
    ),
    certainty=RuleCertainty.SECONDARY_SOURCES,
    checked_on=REFERENCE_SET_DATE,
    volatility="low",
    sources=SSM_FORMULA_SOURCES,
    check=_check,
)

SCANNING_RULES: tuple[Rule, ...] = (APPROACHES,)
