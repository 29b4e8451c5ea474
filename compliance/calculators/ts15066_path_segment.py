"""One segment of a robot program judged on the plan (``ts15066_path``).

Given what each station is judged against (its contact reach, its permissible
transient speed from ``ts15066_pfl``, its clamping gap and the obstacles in its
zone) and S_p as a function of speed (from ``ts15066_ssm``), one segment is
judged in time linear in the stations and the obstacles in their zones: ISO/TS
15066:2016 Annex A (transient contact, and quasi-static contact flagged to be
measured) and 5.5.4 (speed and separation monitoring). The definitions are in
``ts15066_path``'s docstring. Pure Python, no Django; no figure lives here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, NamedTuple

from compliance.calculators.base import Line, fmt, gettext_noop
from compliance.calculators.ts15066 import MEASUREMENT_METHOD
from compliance.calculators.ts15066_contact import _line
from compliance.calculators.ts15066_path_geometry import (
    depth_inside_circle,
    depth_inside_polygon,
    point_segment_distance,
    segment_segment_distance,
)
from compliance.calculators.ts15066_path_models import (
    VERDICT_RANK,
    PathSegmentIn,
    SegmentResult,
    Verdict,
)
from compliance.calculators.ts15066_tables import REGIONS_BY_ID, BodyRegion

# --- messages -----------------------------------------------------------------

_OUTSIDE = _line(
    gettext_noop(
        "Outside every contact zone: the speed limit applies only where people are."
    )
)
_NO_STATIONS = _line(
    gettext_noop(
        "No operator station is recorded: where a person may be touched is not known."
    )
)
_PFL_PASS = gettext_noop(
    "%(speed)s mm/s within reach of %(station)s: within the %(limit)s mm/s "
    "permissible for transient contact."
)
_PFL_FAIL = gettext_noop(
    "%(speed)s mm/s within reach of %(station)s: above the %(limit)s mm/s "
    "permissible for transient contact; the speed it may have there is "
    "%(limit)s mm/s."
)
_PFL_FORBIDDEN = gettext_noop(
    "Within reach of %(station)s, where %(region)s is exposed: no transient contact "
    "is permitted with it at any speed (ISO/TS 15066 Table A.2)."
)
_PFL_UNKNOWN_SPEED = gettext_noop(
    "Speed not known, within reach of %(station)s: the permissible speed for "
    "transient contact there is %(limit)s mm/s."
)
_PFL_NO_REGIONS = gettext_noop(
    "Within reach of %(station)s, but no body regions are recorded for it: the "
    "permissible speed cannot be found."
)
_CLAMPING = gettext_noop(
    "Moves toward %(obstacle)s, to %(gap)s mm or closer, within reach of "
    "%(station)s: a body part may be clamped (quasi-static contact, no permissible "
    "speed). Measure force and pressure on the real cell (%(method)s) against the "
    "ISO/TS 15066 Annex A quasi-static limits."
)
_SSM_FAIL = gettext_noop(
    "At %(speed)s mm/s S_p is %(separation)s mm, but the segment comes within "
    "%(distance)s mm of %(target)s: %(shortfall)s mm short."
)
_SSM_FIELD = gettext_noop("the protective field's boundary")
_SSM_OUTSIDE_FIELD = _line(
    gettext_noop(
        "Runs outside or across the scanner's protective field: a person could "
        "approach it undetected unless a guard closes the way, which the plan "
        "shows."
    )
)
_SSM_INCOMPLETE = gettext_noop(
    "At %(speed)s mm/s S_p is %(separation)s mm so far, but incomplete: "
    "%(terms)s left at 0."
)
_SSM_UNKNOWN_SPEED = _line(
    gettext_noop(
        "Speed not known: the protective separation distance S_p depends on it."
    )
)
_SSM_NOTHING = _line(
    gettext_noop(
        "No station and no protective field is recorded: there is nothing to keep "
        "S_p from."
    )
)


# --- what each station is judged against ------------------------------------

Segment2D = tuple[float, float, float, float]


@dataclass(frozen=True)
class StationZone:
    """A station as every segment is judged against it, worked out once: its
    reach, its permissible transient speed (None: no region, or none permitted),
    the first region exposed there with no transient limit, its clamping gap and
    the obstacles inside its contact zone."""

    label: str
    x: float
    y: float
    reach: float
    limit: float | None
    forbidden: BodyRegion | None
    no_regions: bool
    gap: float
    obstacles: tuple[tuple[str, Segment2D], ...]


# --- one segment --------------------------------------------------------------


@dataclass(frozen=True)
class SeparationModel:
    """S_p as ``ts15066_ssm`` gives it, as a function of the robot's speed
    (S_p = S_p at rest + v × T_r), and the scanner's field on the plan."""

    at_rest_mm: float
    per_speed_s: float  # dS_p/dv_r = T_r
    complete: bool
    terms: str
    field_polygon: tuple[tuple[float, float], ...] | None
    field_circle: tuple[float, float, float] | None

    def separation(self, speed: float) -> float:
        return self.at_rest_mm + self.per_speed_s * speed

    def admissible(self, distance: float) -> float | None:
        """The highest speed whose S_p fits ``distance``; None: any speed."""
        room = distance - self.at_rest_mm
        if self.per_speed_s == 0:
            return None if room >= 0 else 0.0
        return max(room / self.per_speed_s, 0.0)

    def field_depth(self, ax: float, ay: float, bx: float, by: float) -> float | None:
        if self.field_polygon is not None:
            return depth_inside_polygon(ax, ay, bx, by, self.field_polygon)
        if self.field_circle is not None:
            return depth_inside_circle(ax, ay, bx, by, *self.field_circle)
        return None


def _worst(*verdicts: Verdict | None) -> Verdict:
    return max((v for v in verdicts if v), key=VERDICT_RANK.__getitem__)


def _least(*speeds: float | None) -> float | None:
    known = [v for v in speeds if v is not None]
    return min(known) if known else None


def judge_segment(
    seg: PathSegmentIn, stations: list[StationZone], ssm: SeparationModel | None
) -> SegmentResult:
    """One segment: PFL in the contact zones it enters, the clamping flag, SSM
    against the stations and the field; lines only for what is not a pass."""
    a, b = seg.start, seg.end
    ax, ay, bx, by = a.x_mm, a.y_mm, b.x_mm, b.y_mm
    speed = seg.speed_mm_s
    said = {"speed": fmt(speed, 1)} if speed is not None else {}
    lines: list[Line] = []
    distances = [point_segment_distance(s.x, s.y, ax, ay, bx, by) for s in stations]
    near = min(range(len(stations)), key=distances.__getitem__, default=None)
    zone = [s for s, d in zip(stations, distances, strict=True) if d <= s.reach]

    # Power and force limiting, transient contact.
    pfl_limit = pfl_station = None
    ruled = [s for s in zone if s.limit is not None]
    if ruled:
        governing = min(ruled, key=lambda s: s.limit or 0.0)
        pfl_limit, pfl_station = governing.limit, governing.label
    forbidden = next((s for s in zone if s.forbidden is not None), None)
    pfl: Verdict
    if not stations:
        pfl = "not_checked"
        lines.append(_NO_STATIONS)
    elif not zone:
        pfl = "pass"
    elif forbidden is not None:
        pfl = "fail"
        region = REGIONS_BY_ID[forbidden.forbidden].name
        lines.append(_line(_PFL_FORBIDDEN, station=forbidden.label, region=region))
    elif speed is not None and pfl_limit is not None and speed > pfl_limit:
        pfl = "fail"
        lines.append(
            _line(_PFL_FAIL, station=pfl_station or "", limit=fmt(pfl_limit, 1), **said)
        )
    elif any(s.no_regions for s in zone):
        pfl = "not_checked"
        unknown = next(s for s in zone if s.no_regions)
        lines.append(_line(_PFL_NO_REGIONS, station=unknown.label))
    elif speed is None:
        pfl = "not_checked"
        lines.append(
            _line(
                _PFL_UNKNOWN_SPEED,
                station=pfl_station or "",
                limit=fmt(pfl_limit or 0.0, 1),
            )
        )
    else:
        pfl = "pass"

    # Quasi-static contact: moving toward a fixed part inside the same zone.
    clamp: tuple[float, str, StationZone] | None = None
    low_x, high_x = min(ax, bx), max(ax, bx)
    low_y, high_y = min(ay, by), max(ay, by)
    for s in zone:
        for label, (x1, y1, x2, y2) in s.obstacles:
            # Boxes farther apart than the gap: the segments are too.
            if (
                min(x1, x2) - high_x > s.gap
                or low_x - max(x1, x2) > s.gap
                or min(y1, y2) - high_y > s.gap
                or low_y - max(y1, y2) > s.gap
            ):
                continue
            from_start = point_segment_distance(ax, ay, x1, y1, x2, y2)
            from_end = point_segment_distance(bx, by, x1, y1, x2, y2)
            if from_end >= from_start:
                continue
            gap = segment_segment_distance(ax, ay, bx, by, x1, y1, x2, y2)
            if gap <= s.gap and (clamp is None or gap < clamp[0]):
                clamp = (gap, label, s)
    if clamp is not None:
        lines.append(
            _line(
                _CLAMPING,
                obstacle=clamp[1],
                station=clamp[2].label,
                gap=fmt(clamp[2].gap),
                method=MEASUREMENT_METHOD,
            )
        )

    sj = _judge_ssm(ssm, stations, distances, speed, (ax, ay, bx, by), lines)
    verdict = _worst(pfl, "measure" if clamp else "pass", sj.verdict)
    if forbidden is not None:
        permissible: float | None = 0.0
    else:
        permissible = _least(pfl_limit, sj.limit)
    if not lines:
        if zone and pfl_limit is not None:
            lines.append(
                _line(
                    _PFL_PASS,
                    station=pfl_station or "",
                    limit=fmt(pfl_limit, 1),
                    **said,
                )
            )
        else:
            lines.append(_OUTSIDE)
    return SegmentResult.model_construct(
        index=seg.index,
        line=seg.line,
        length_mm=math.dist((a.x_mm, a.y_mm, a.z_mm), (b.x_mm, b.y_mm, b.z_mm)),
        speed_mm_s=speed,
        nearest_station=None if near is None else stations[near].label,
        nearest_station_distance_mm=None if near is None else distances[near],
        contact_stations=tuple(s.label for s in zone),
        pfl_verdict=pfl,
        pfl_limit_mm_s=pfl_limit,
        pfl_station=pfl_station,
        clamping_verdict="measure" if clamp else "pass",
        clamping_obstacle=clamp[1] if clamp else None,
        clamping_station=clamp[2].label if clamp else None,
        ssm_verdict=sj.verdict,
        ssm_separation_mm=sj.separation,
        ssm_target=sj.target,
        ssm_target_kind=sj.target_kind,
        ssm_shortfall_mm=sj.shortfall,
        ssm_limit_mm_s=sj.limit,
        permissible_speed_mm_s=permissible,
        verdict=verdict,
        lines=tuple(lines),
    )


class _SsmJudged(NamedTuple):
    verdict: Verdict | None = None  # None: the cell uses no SSM
    separation: float | None = None  # S_p at the segment's speed
    target: str | None = None  # the station nearest the segment, or None
    target_kind: Literal["station", "field"] | None = None
    shortfall: float | None = None  # S_p − distance to the target
    limit: float | None = None  # the highest speed whose S_p fits every target


def _judge_ssm(
    ssm: SeparationModel | None,
    stations: list[StationZone],
    distances: list[float],
    speed: float | None,
    ends: Segment2D,
    lines: list[Line],
) -> _SsmJudged:
    """S_p at the segment's speed against its distance to every station and its
    depth inside the protective field; S_p is the same for all, so the nearest
    of them is the one to judge."""
    if ssm is None:
        return _SsmJudged()
    targets: list[tuple[str | None, float]] = [
        (s.label, d) for s, d in zip(stations, distances, strict=True)
    ]
    depth = ssm.field_depth(*ends)
    has_field = ssm.field_polygon is not None or ssm.field_circle is not None
    outside = has_field and depth is None
    if depth is not None:
        targets.append((None, depth))  # None: the field's boundary
    if not targets:
        lines.append(
            _SSM_UNKNOWN_SPEED
            if speed is None
            else _SSM_OUTSIDE_FIELD
            if outside
            else _SSM_NOTHING
        )
        separation = None if speed is None else ssm.separation(speed)
        return _SsmJudged("not_checked", separation)
    # The speed that fits grows with the distance: the nearest target sets it.
    name, distance = min(targets, key=lambda t: t[1])
    limit = ssm.admissible(distance)
    if speed is None:
        lines.append(_SSM_UNKNOWN_SPEED)
        return _SsmJudged("not_checked", limit=limit)
    sep = ssm.separation(speed)
    kind: Literal["station", "field"] = "field" if name is None else "station"
    shortfall = sep - distance
    verdict: Verdict = "pass"
    if shortfall > 0:
        verdict = "fail"
        lines.append(
            _line(
                _SSM_FAIL,
                speed=fmt(speed, 1),
                separation=fmt(sep, 1),
                distance=fmt(distance, 1),
                target=_SSM_FIELD if name is None else name,
                shortfall=fmt(shortfall, 1),
            )
        )
    elif outside:
        verdict = "not_checked"
        lines.append(_SSM_OUTSIDE_FIELD)
    elif not ssm.complete:
        # The terms left out only add to S_p: a fail above is sure, a pass not.
        verdict = "not_checked"
        lines.append(
            _line(
                _SSM_INCOMPLETE,
                speed=fmt(speed, 1),
                separation=fmt(sep, 1),
                terms=ssm.terms,
            )
        )
    return _SsmJudged(verdict, sep, name, kind, shortfall, limit)
