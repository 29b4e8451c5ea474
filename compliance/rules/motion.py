"""A robot program's path judged where people are, from the cell's snapshot
(issue 32): what the PFL and SSM rules, the Motion tab, the segments API, the
proposal and the sim-first plan all read, so they agree.

The calculator is ``compliance.calculators.ts15066_path``; this module hands
it what the snapshot records:

- the path on the plan (``ProgramFacts.segments``);
- each operator station with the body regions exposed there: those the SA
  recorded on the station together with those the latest signed risk
  assessment says may be contacted. Recording regions on a station can only
  add to the signed ones, never relax them; whether a pass may stand on
  regions no signed revision names is the rule's to say (needs evidence);
- the guards, walls and machine bodies as what a person can be clamped
  against;
- the robot's moving mass and payload, and the smallest contact area the
  signed assessment records (the cautious one: the pressure limit gives the
  lowest speed over the smallest area);
- for speed and separation monitoring, one scanner's response time with the
  safety controller's, the robot's stopping time and distance, the field's
  height and its protective field as a circle round it on the plan.

Each (program, scanner) is judged once per snapshot. Pure Python, no Django.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from pydantic import ValidationError

from compliance.calculators.iso13855_common import overall_time_ms
from compliance.calculators.ts15066 import DEFAULT_HUMAN_SPEED_MM_S
from compliance.calculators.ts15066_path import (
    ObstacleIn,
    PathInput,
    PathResult,
    PathSegmentIn,
    PathSsmIn,
    PlanPointIn,
    PlanVertexIn,
    ProtectiveFieldIn,
    StationIn,
    ts15066_path,
)
from compliance.calculators.ts15066_path_models import DEFAULT_CONTACT_REACH_MM
from compliance.calculators.ts15066_tables import BodyRegion
from compliance.rules.facts import CellFacts, DeviceFacts
from compliance.rules.motion_facts import ProgramFacts, StationFacts

OBSTACLE_KINDS = {"fence": "fence", "wall": "wall", "machine_body": "machine"}
LABEL_MAX = 100


def signed_regions(facts: CellFacts) -> tuple[BodyRegion, ...]:
    """The body regions the latest signed risk assessment says the robot may
    contact (its contacts', else its listed regions)."""
    a = facts.assessment
    regions = [c.body_region for c in a.contacts] or list(a.contact_regions)
    return tuple(BodyRegion(r) for r in dict.fromkeys(regions))


def station_regions(facts: CellFacts, station: StationFacts) -> tuple[BodyRegion, ...]:
    """The regions a station is judged for: its own and the signed ones."""
    return tuple(dict.fromkeys((*station.exposed_regions, *signed_regions(facts))))


def station_labels(facts: CellFacts) -> dict[str, str]:
    """Each station's label as the path's results name it: the plan's label,
    numbered where two stations share one."""
    labels: dict[str, str] = {}
    seen: dict[str, int] = {}
    for station in facts.stations:
        base = (station.label.strip() or station.key)[: LABEL_MAX - 6]
        seen[base] = seen.get(base, 0) + 1
        labels[station.key] = base if seen[base] == 1 else f"{base} ({seen[base]})"
    return labels


def _contact_area(facts: CellFacts) -> float | None:
    areas = [
        c.contact_area_cm2
        for c in facts.assessment.contacts
        if c.contact_area_cm2 is not None
    ]
    return min(areas, default=None)


def ssm_input(facts: CellFacts, scanner: DeviceFacts) -> PathSsmIn | None:
    """SSM's figures from the scanner and the robot; None where one that S_p
    needs is not recorded (the rule says which)."""
    if (
        scanner.response_time_ms is None
        or facts.robot_stopping_time_ms is None
        or facts.robot_stopping_distance_mm is None
    ):
        return None
    field = None
    if scanner.position_mm is not None and scanner.protective_field_mm:
        x, y = scanner.position_mm
        field = ProtectiveFieldIn(
            center=PlanVertexIn(x_mm=float(x), y_mm=float(y)),
            radius_mm=float(scanner.protective_field_mm),
        )
    return PathSsmIn(
        human_speed_mm_s=float(DEFAULT_HUMAN_SPEED_MM_S),
        # T_r: the scanner's and the controller's response, as ISO 13855
        # sums its times (the robot's stopping is S_s, apart).
        reaction_time_ms=overall_time_ms(
            scanner.response_time_ms, facts.controller_time_ms, 0
        ),
        stopping_time_ms=float(facts.robot_stopping_time_ms),
        stopping_distance_mm=float(facts.robot_stopping_distance_mm),
        detection_height_mm=(
            None if scanner.field_height_mm is None else float(scanner.field_height_mm)
        ),
        field=field,
    )


def cautious_reach(station: StationFacts) -> float | None:
    """The station's contact reach, never shorter than ISO 13855's default:
    what a pass must also hold at when a shorter one was entered."""
    reach = station.contact_reach_mm
    return None if reach is None or reach < DEFAULT_CONTACT_REACH_MM else reach


def shortened_reach(facts: CellFacts) -> tuple[StationFacts, ...]:
    """The stations whose contact reach was entered shorter than the default."""
    return tuple(
        s
        for s in facts.stations
        if s.contact_reach_mm is not None
        and s.contact_reach_mm < DEFAULT_CONTACT_REACH_MM
    )


def _surroundings(
    facts: CellFacts, scanner: DeviceFacts | None, cautious: bool = False
) -> dict[str, object]:
    """Everything the calculator is given but the path: small."""
    labels = station_labels(facts)
    return {
        "stations": tuple(
            StationIn(
                label=labels[station.key],
                x_mm=float(station.position_mm[0]),
                y_mm=float(station.position_mm[1]),
                body_regions=station_regions(facts, station),
                contact_reach_mm=(
                    cautious_reach(station) if cautious else station.contact_reach_mm
                ),
            )
            for station in facts.stations
        ),
        "obstacles": tuple(
            ObstacleIn(
                label=(segment.label or segment.key)[:LABEL_MAX],
                kind=OBSTACLE_KINDS.get(segment.kind, "other"),
                x1_mm=float(segment.start_mm[0]),
                y1_mm=float(segment.start_mm[1]),
                x2_mm=float(segment.end_mm[0]),
                y2_mm=float(segment.end_mm[1]),
            )
            for segment in facts.segments
            if segment.start_mm is not None and segment.end_mm is not None
        ),
        "robot_moving_mass_kg": float(facts.robot_moving_mass_kg),
        "payload_kg": float(facts.payload_kg),
        "contact_area_cm2": _contact_area(facts),
        "ssm": None if scanner is None else ssm_input(facts, scanner),
    }


def path_input(
    facts: CellFacts, program: ProgramFacts, scanner: DeviceFacts | None = None
) -> PathInput:
    """What the calculator is given for one program (and, for SSM, one
    scanner). Raises pydantic's ValidationError for figures outside what it
    covers."""
    return _path_input(program, _surroundings(facts, scanner))


def _path_input(program: ProgramFacts, surroundings: dict[str, object]) -> PathInput:
    return PathInput(
        segments=tuple(
            PathSegmentIn(
                index=index,
                line=line,
                start=PlanPointIn(x_mm=x1, y_mm=y1, z_mm=z1),
                end=PlanPointIn(x_mm=x2, y_mm=y2, z_mm=z2),
                speed_mm_s=speed,
            )
            for index, (line, x1, y1, z1, x2, y2, z2, speed) in enumerate(
                program.segments
            )
        ),
        **surroundings,
    )


# The paths this process judged lately, by what they were judged from: an
# edit of the cell that changes neither the path nor what surrounds it (a
# guard's height, a cost line) finds its program judged already. A few
# programs of 10,000 segments are some megabytes.
RECENT_PATHS = 8
_recent: OrderedDict[tuple, tuple[PathResult | None, str]] = OrderedDict()
_recent_lock = threading.Lock()


def _judged(
    program: ProgramFacts,
    scanner: DeviceFacts | None,
    facts: CellFacts,
    cautious: bool = False,
):
    try:
        surroundings = _surroundings(facts, scanner, cautious)
    except ValidationError as exc:
        return None, _why(exc)
    around = repr(
        [
            v.model_dump(mode="json") if hasattr(v, "model_dump") else v
            for v in (*surroundings["stations"], *surroundings["obstacles"])
        ]
        + [
            surroundings[k]
            for k in ("robot_moving_mass_kg", "payload_kg", "contact_area_cm2")
        ]
        + [
            surroundings["ssm"].model_dump(mode="json")
            if surroundings["ssm"] is not None
            else None
        ]
    )
    key = (program.sha256, hash(program.segments), len(program.segments), around)
    with _recent_lock:
        found = _recent.get(key)
        if found is not None:
            _recent.move_to_end(key)
            return found
    try:
        found = (ts15066_path(_path_input(program, surroundings)), "")
    except ValidationError as exc:
        found = (None, _why(exc))
    with _recent_lock:
        _recent[key] = found
        while len(_recent) > RECENT_PATHS:
            _recent.popitem(last=False)
    return found


def _why(exc: ValidationError) -> str:
    return "; ".join(str(err["msg"]) for err in exc.errors())


def program_path(
    facts: CellFacts,
    program: ProgramFacts,
    scanner: DeviceFacts | None = None,
    *,
    cautious: bool = False,
) -> tuple[PathResult | None, str]:
    """The program's path judged (for SSM, against ``scanner``), once per
    snapshot: (result, "") or (None, why it cannot be judged). ``cautious``:
    with no station's contact reach shorter than the default (``cautious_
    reach``), to tell whether a pass rests on a shorter one entered."""
    key = (program.key, scanner.key if scanner is not None else None, cautious)
    paths = facts._paths
    if key not in paths:
        paths[key] = (
            (None, "no segment")
            if not program.segments
            else _judged(program, scanner, facts, cautious)
        )
    return paths[key]


def program_number(facts: CellFacts, program: ProgramFacts) -> int:
    """The program's place among the cell's, from 1 (as the pages list them)."""
    return facts.programs.index(program) + 1
