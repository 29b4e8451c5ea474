"""ISO/TS 15066:2016 judged per segment of a robot program (issue 32).

A cobot program moves fast far from people and slowly near them, so power and
force limiting (Annex A) and speed and separation monitoring (5.5.4) are judged
on each straight segment of the path at its own programmed speed, not on one
speed for the cell. The figures come from the calculators that own them:
``ts15066_pfl`` (Annex A) gives the permissible transient speed of each exposed
body region, once per region; ``ts15066_ssm`` (5.5.4) gives the protective
separation distance S_p. Definitions:

- Distances are on the plan (x, y); z is dropped, as the reference data gives no
  height band for the body regions. A segment's length (for cycle times) is 3D.
- Contact zone: the disc of radius ``contact_reach_mm`` round a station. By
  default 850 mm, ISO 13855:2010 6.2.3's intrusion distance C for an ESPE that
  detects the body but not an arm (detection capability over 40 mm); ISO
  13857:2019 Table 4 gives the same 850 mm for reaching through an opening of 40
  to 120 mm. Both figures rest on two public sources; the reference gives the
  figure, not its meaning, and reading it as the reach of an arm from where the
  person stands is ours. A segment passes through the zone when its least plan
  distance to the station is at most the reach.
- PFL: in a zone, the segment's speed against the lowest permissible transient
  speed of the regions exposed there (the programmed speed taken as the relative
  speed of contact; the pressure route only with ``contact_area_cm2``). Outside
  every zone: pass, the limit applies only where
  people are. A region with no transient limit (skull, forehead, face) fails at
  any speed, as in the rule pack (``compliance.rules.collaborative``).
- Quasi-static contact (clamping): flagged "measure" when, inside a station's
  zone, the segment moves toward an obstacle that lies in the same zone (its end
  is nearer the obstacle than its start) and comes within the clamping gap of
  it: the largest ISO 13854 minimum gap of the body parts exposed there (body
  500, head 300, leg 180, arm 120, hand 100 mm; one source), below which a body
  part is crushed. Annex A gives no speed for it; force and pressure are
  measured on the real cell (ISO/PAS 5672) against the quasi-static limits.
- SSM: S_p (ISO/TS 15066 5.5.4, as ``ts15066_ssm`` gives it, S_s as entered)
  at the segment's speed against the segment's distance to every station (a
  person standing there) and, where the scanner's protective field is given,
  against how far the segment keeps inside its boundary: a person is detected
  at the boundary, so the segment must keep S_p from it for the robot to stop
  before the person reaches it. Fail: the nearest of them is closer than S_p,
  by the shortfall S_p − distance (sure even when S_p is incomplete, as a
  missing term only adds to it; a pass with an incomplete S_p is not_checked).
  A segment outside or across the field is not judged by it: whether a guard
  closes the way to it is judged on the plan. The speed that fits a distance d
  is (d − S_p at rest) / T_r.
- Verdicts, worst first: fail > measure > not_checked > pass. "measure": a
  located hazard only a measurement can clear; "not_checked": a figure is
  missing (a speed, the body regions, an S_p term). Neither is ever a pass.

Cycle times ignore acceleration and braking: each segment runs at its speed.
"""

from __future__ import annotations

from compliance.calculators.base import Certainty, Line, fmt, gettext_noop
from compliance.calculators.iso13857_tables import (
    ISO13854_CONFIRMED_TWO_SOURCES,
    ISO13854_MIN_GAPS_MM,
    ISO13854_SOURCES,
)
from compliance.calculators.ts15066 import (
    PFL_CLAUSE,
    PflInput,
    PflResult,
    SsmInput,
    SsmResult,
    ts15066_pfl,
    ts15066_ssm,
)
from compliance.calculators.ts15066_contact import _line, _unique
from compliance.calculators.ts15066_path_geometry import (
    point_segment_distance,
)
from compliance.calculators.ts15066_path_models import (
    CLAMPING_CLAUSE,
    CLAMPING_PART,
    CLAMPING_PART_UNKNOWN,
    DEFAULT_CONTACT_REACH_MM,
    DEFAULT_REACH_SOURCES,
    MAX_OBSTACLES,
    MAX_SEGMENTS,
    MAX_STATIONS,
    REACH_CLAUSE,
    VERDICT_RANK,
    ObstacleIn,
    PathInput,
    PathResult,
    PathSegmentIn,
    PathSsmIn,
    PlanPointIn,
    PlanVertexIn,
    ProtectiveFieldIn,
    SegmentResult,
    StationIn,
    StationLimit,
    Verdict,
)
from compliance.calculators.ts15066_path_segment import (
    SeparationModel,
    StationZone,
    judge_segment,
)
from compliance.calculators.ts15066_tables import BodyRegion

__all__ = [
    "CLAMPING_PART",
    "DEFAULT_CONTACT_REACH_MM",
    "MAX_OBSTACLES",
    "MAX_SEGMENTS",
    "MAX_STATIONS",
    "VERDICT_RANK",
    "ObstacleIn",
    "PathInput",
    "PathResult",
    "PathSegmentIn",
    "PathSsmIn",
    "PlanPointIn",
    "PlanVertexIn",
    "ProtectiveFieldIn",
    "SegmentResult",
    "StationIn",
    "StationLimit",
    "Verdict",
    "ts15066_path",
]

# S_p is affine in the robot's speed (S_r = v_r × T_r; S_s is entered), so
# ts15066_ssm at rest and at this speed give it for every speed exactly.
_SSM_PROBE_SPEED_MM_S = 1000.0


def _station_limits(
    inp: PathInput, pfl: dict[BodyRegion, PflResult]
) -> tuple[list[StationZone], list[StationLimit], list[Line]]:
    stations, limits, steps = [], [], []
    for st in inp.stations:
        reach = st.contact_reach_mm or DEFAULT_CONTACT_REACH_MM
        regions = tuple(dict.fromkeys(st.body_regions))
        results = [pfl[region] for region in regions]
        speeds = {r.body_region: r.max_speed_mm_s for r in results}
        forbidden = tuple(region for region, v in speeds.items() if v is None)
        permitted = {region: v for region, v in speeds.items() if v is not None}
        governing = min(permitted, key=permitted.__getitem__) if permitted else None
        limit = permitted[governing] if governing else None
        parts = [CLAMPING_PART[region] for region in regions]
        part = max(parts or [CLAMPING_PART_UNKNOWN], key=ISO13854_MIN_GAPS_MM.get)
        gap = float(ISO13854_MIN_GAPS_MM[part])
        in_zone = tuple(
            (o.label, (o.x1_mm, o.y1_mm, o.x2_mm, o.y2_mm))
            for o in inp.obstacles
            if point_segment_distance(
                st.x_mm, st.y_mm, o.x1_mm, o.y1_mm, o.x2_mm, o.y2_mm
            )
            <= reach
        )
        stations.append(
            StationZone(
                st.label,
                st.x_mm,
                st.y_mm,
                reach,
                limit,
                forbidden[0] if forbidden else None,
                not regions,
                gap,
                in_zone,
            )
        )
        limits.append(
            StationLimit(
                label=st.label,
                contact_reach_mm=reach,
                reach_basis="entered" if st.contact_reach_mm else "default",
                transient_limit_mm_s=limit,
                governing_region=governing,
                forbidden_regions=forbidden,
                clamping_gap_mm=gap,
                clamping_body_part=part,
                obstacles_in_zone=tuple(label for label, _ in in_zone),
            )
        )
        listed = ", ".join(
            f"{region.value} {'—' if v is None else fmt(v, 1) + ' mm/s'}"
            for region, v in speeds.items()
        )
        steps.append(
            _line(
                gettext_noop(
                    "%(station)s: contact reach %(reach)s mm; permissible transient "
                    "speed, the lowest over the regions exposed (Annex A); clamping "
                    "gap %(gap)s mm (ISO 13854, %(part)s)"
                ),
                f"v = min({listed or '—'}) = "
                f"{'—' if limit is None else fmt(limit, 1) + ' mm/s'}",
                station=st.label,
                reach=fmt(reach),
                gap=fmt(gap),
                part=part,
            )
        )
    return stations, limits, steps


# --- the program ------------------------------------------------------------


def _ssm_model(inp: PathInput) -> tuple[SeparationModel, SsmResult, list[Line]] | None:
    """S_p as a function of the robot's speed, from ``ts15066_ssm`` itself."""
    if inp.ssm is None:
        return None
    given = inp.ssm.model_dump(exclude={"field"})
    at_rest = ts15066_ssm(SsmInput(robot_speed_mm_s=0.0, **given))
    probe = ts15066_ssm(SsmInput(robot_speed_mm_s=_SSM_PROBE_SPEED_MM_S, **given))
    a = at_rest.separation_distance_mm
    b = (probe.separation_distance_mm - a) / _SSM_PROBE_SPEED_MM_S
    field = inp.ssm.field
    polygon = circle = None
    if field is not None and field.polygon is not None:
        polygon = tuple((v.x_mm, v.y_mm) for v in field.polygon)
    elif field is not None and field.center is not None and field.radius_mm:
        circle = (field.center.x_mm, field.center.y_mm, field.radius_mm)
    model = SeparationModel(
        at_rest_mm=a,
        per_speed_s=b,
        complete=probe.complete,
        terms=", ".join(probe.unverified_terms),
        field_polygon=polygon,
        field_circle=circle,
    )
    steps = [
        _line(
            gettext_noop(
                "Protective separation distance at the segment's speed v "
                "(constant-speed form, from the figures given): S_p = S_h + S_s + "
                "C + Z_d + Z_r + v × T_r"
            ),
            f"S_p = {fmt(a, 1)} mm + {fmt(b, 3)} s × v",
        ),
        _line(
            gettext_noop(
                "S_p is kept from each station (a person standing there) and from "
                "the protective field's boundary (where a person is detected); the "
                "speed that fits a distance d is v = (d − S_p at rest) / T_r"
            )
        ),
    ]
    return model, probe, steps


def ts15066_path(inp: PathInput) -> PathResult:
    """Each segment of a robot program judged by ISO/TS 15066 Annex A (PFL) and
    5.5.4 (SSM) at its own speed, with the cycle time as programmed and as
    limited."""
    # One Annex A calculation per body region, for every station and segment.
    regions = dict.fromkeys(r for st in inp.stations for r in st.body_regions)
    pfl = {
        region: ts15066_pfl(
            PflInput(
                body_region=region,
                robot_moving_mass_kg=inp.robot_moving_mass_kg,
                payload_kg=inp.payload_kg,
                contact="transient",
                contact_area_cm2=inp.contact_area_cm2,
            )
        )
        for region in regions
    }
    stations, limits, steps = _station_limits(inp, pfl)
    ssm_parts = _ssm_model(inp)
    ssm, probe = (ssm_parts[0], ssm_parts[1]) if ssm_parts else (None, None)
    if ssm_parts:
        steps += ssm_parts[2]

    results = tuple(judge_segment(seg, stations, ssm) for seg in inp.segments)

    counts: dict[Verdict, int] = {"fail": 0, "measure": 0, "not_checked": 0, "pass": 0}
    lines_by: dict[str, list[int]] = {"fail": [], "measure": [], "not_checked": []}
    programmed = limited = 0.0
    unknown: list[int] = []
    stuck: list[int] = []
    for r in results:
        counts[r.verdict] += 1
        if r.verdict != "pass":
            lines_by[r.verdict].append(r.line)
        if r.speed_mm_s is None:
            unknown.append(r.line)
            continue
        programmed += r.length_mm / r.speed_mm_s
        speed = r.speed_mm_s
        if r.verdict == "fail":
            if not r.permissible_speed_mm_s:
                stuck.append(r.line)
                continue
            speed = min(speed, r.permissible_speed_mm_s)
        limited += r.length_mm / speed
    worst = max(counts, key=lambda v: VERDICT_RANK[v] if counts[v] else -1)

    known = len(results) - len(unknown)
    steps += [
        _line(
            gettext_noop(
                "Cycle time as programmed: the sum of length / speed over the "
                "%(known)s segments whose speed is known"
            ),
            f"T = Σ L/v = {fmt(programmed, 3)} s",
            known=known,
        ),
        _line(
            gettext_noop(
                "Cycle time as limited: each failing segment slowed to the speed "
                "it may have, the lower of its PFL and SSM limits"
            ),
            "T = Σ L/min(v, v_limit) = " + ("—" if stuck else f"{fmt(limited, 3)} s"),
        ),
    ]
    warnings = _program_warnings(inp, unknown, stuck)
    pfl_results = list(pfl.values())
    warnings += [w for r in pfl_results for w in r.warnings]
    if probe is not None:
        warnings += probe.warnings
    reach_used = any(s.reach_basis == "default" for s in limits)
    clamp_used = any(s.obstacles_in_zone for s in limits)
    certainties = [r.certainty for r in pfl_results]
    if probe is not None:
        certainties.append(probe.certainty)
    if clamp_used and not ISO13854_CONFIRMED_TWO_SOURCES:
        certainties.append(Certainty.ONE_SOURCE)
    clause = [PFL_CLAUSE]
    if probe is not None:
        clause.append(probe.clause)
    if reach_used:
        clause.append(REACH_CLAUSE)
    if clamp_used:
        clause.append(CLAMPING_CLAUSE)
    return PathResult(
        clause="; ".join(clause),
        steps=tuple(steps),
        warnings=_distinct(warnings),
        certainty=min(certainties or [Certainty.TWO_SOURCES], key=_certainty_rank),
        sources=_unique(
            *(r.sources for r in pfl_results),
            probe.sources if probe is not None else (),
            DEFAULT_REACH_SOURCES if reach_used else (),
            ISO13854_SOURCES if clamp_used else (),
        ),
        segments=results,
        stations=tuple(limits),
        counts=counts,
        worst_verdict=worst,
        failing_lines=tuple(dict.fromkeys(lines_by["fail"])),
        measure_lines=tuple(dict.fromkeys(lines_by["measure"])),
        not_checked_lines=tuple(dict.fromkeys(lines_by["not_checked"])),
        pressure_checked=bool(pfl_results)
        and all(r.pressure_checked for r in pfl_results),
        ssm_separation_at_rest_mm=ssm.at_rest_mm if ssm else None,
        ssm_reaction_time_s=ssm.per_speed_s if ssm else None,
        ssm_complete=ssm.complete if ssm else None,
        ssm_unverified_terms=probe.unverified_terms if probe else (),
        cycle_time_programmed_s=programmed,
        cycle_time_limited_s=None if stuck else limited,
        unknown_speed_lines=tuple(unknown),
        cannot_be_slowed_lines=tuple(stuck),
    )


def _distinct(lines: list[Line]) -> tuple[Line, ...]:
    """The lines without repeats (each region's result warns the same way)."""
    seen = {}
    for line in lines:
        seen.setdefault((line.text, line.formula, tuple(line.values.items())), line)
    return tuple(seen.values())


def _certainty_rank(certainty: Certainty) -> int:
    return 0 if certainty is Certainty.ONE_SOURCE else 1


def _program_warnings(
    inp: PathInput, unknown: list[int], stuck: list[int]
) -> list[Line]:
    warnings = [
        _line(
            gettext_noop(
                "Distances are measured on the plan (x, y): the height of the path "
                "and of the body is not taken into account, so a segment above or "
                "below a person counts as near them."
            )
        ),
        _line(
            gettext_noop(
                "The path is the tool centre point's: the robot's arm and the "
                "tool's own size are not on it, so where the arm or the tool passes "
                "nearer a person than the tool centre point, it is to be verified "
                "in simulation."
            )
        ),
        _line(
            gettext_noop(
                "The programmed speed is taken as the relative speed of a contact: "
                "a person moving toward the robot adds to it."
            )
        ),
        _line(
            gettext_noop(
                "Cycle times take each segment at its programmed speed from end to "
                "end: acceleration and braking are ignored, so the real times are "
                "longer."
            )
        ),
    ]
    if unknown:
        warnings.append(
            _line(
                gettext_noop(
                    "%(count)s segments have no known speed (lines %(lines)s): they "
                    "are left out of the cycle times, and where a person may be "
                    "near they cannot be judged."
                ),
                count=len(unknown),
                lines=_listed(unknown),
            )
        )
    if stuck:
        warnings.append(
            _line(
                gettext_noop(
                    "%(count)s failing segments fail at any speed (lines %(lines)s): "
                    "the path must change there, so no limited cycle time is given."
                ),
                count=len(stuck),
                lines=_listed(stuck),
            )
        )
    if inp.ssm is not None:
        warnings.append(
            _line(
                gettext_noop(
                    "The stopping distance S_s is taken as given for every segment: "
                    "give the robot's stopping distance at its highest speed and "
                    "payload, which holds for the slower segments too."
                )
            )
        )
    return warnings


def _listed(lines: list[int], most: int = 20) -> str:
    shown = ", ".join(str(n) for n in dict.fromkeys(lines[:most]))
    return shown + (", …" if len(lines) > most else "")
