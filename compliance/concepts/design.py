"""Guarding concepts of one cell, designed from the cell as drawn: each an
editable draft (an exchange document of the same cell with another guarding)
with the reasons for what was placed. Pure Python with pydantic, no Django.

The robot, the application and the task stay the cell's; what differs is the
guarding: guards and openings, devices, operator stations, collaborative
modes. Every concept is judged afterwards by the same rules as the cell, so
nothing here decides a verdict: a figure placed here (a fence height, a
clearance) is placed by the standard the rules check it against, and what
cannot be placed from a record is left for the rules to ask for.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict

from cells import perimeter
from cells.exchange import (
    CellDocument,
    DeviceDoc,
    GuardSegmentDoc,
    OpeningDoc,
    OpeningRef,
    PointDoc,
)
from cells.perimeter.approach import Barrier, approaches, passes_through
from compliance.calculators import iso13855_common
from compliance.calculators.base import Line, gettext_noop
from compliance.calculators.iso13855_vertical import (
    VerticalZoneInput,
    iso13855_vertical_zone,
)
from compliance.calculators.iso13857 import ReachOverInput, reach_over
from compliance.calculators.iso13857_tables import REACH_OVER_TABLES
from compliance.rules.korea_texts import FENCE_MIN_HEIGHT_MM

# Devices that guard an opening, as the openings' rule counts them; the
# others (stops, controllers) are kept.
from compliance.rules.safeguarding import GUARDING_KINDS
from compliance.rules.scanning import separation_distance

ConceptKind = Literal["as_drawn", "fenced", "collaborative", "ssm", "hybrid"]

# A fence's height where no law sets one (ISO 13857 then asks for the
# distance that suits it): the same 1,800 mm, so that the designs compare.
FENCE_HEIGHT_MM = FENCE_MIN_HEIGHT_MM
# Clearances are rounded up to whole 100 mm, as a fence is set out.
SET_OUT_MM = 100


# The hybrid's reasons for the light curtain on the open side, which the
# speed and separation concept replaces with a scanner.
OPEN_SIDE_CURTAIN = gettext_noop(
    "The side people work at%(at)s is left open, closed by a type 4 light curtain "
    "across its whole width in the fence's plane; the other sides are fenced."
)
CURTAIN_ACROSS = gettext_noop(
    "%(opening)s: a type 4 light curtain across the whole opening, in the fence's "
    "plane, from its lower to its upper edge, so that it closes it; its distance "
    "is checked by ISO 13855."
)


class Design(BaseModel):
    """One concept as designed: its document (None when not offered) and the
    reasons for what was placed, or why it is not offered."""

    model_config = ConfigDict(frozen=True)

    kind: ConceptKind
    document: CellDocument | None
    reasons: tuple[Line, ...] = ()

    @property
    def offered(self) -> bool:
        return self.document is not None


def _round_up(value: float) -> int:
    return int(math.ceil(value / SET_OUT_MM) * SET_OUT_MM)


def zone_box(document: CellDocument) -> tuple[float, float, float, float]:
    """The hazard zone's extent on the plan: min x, min y, max x, max y."""
    zone = document.hazard_zone
    if zone.shape == "polygon" and len(zone.polygon_mm) >= 3:
        xs = [float(x) for x, _ in zone.polygon_mm]
        ys = [float(y) for _, y in zone.polygon_mm]
        return min(xs), min(ys), max(xs), max(ys)
    r = float(document.hazard_zone_radius_mm)
    x, y = float(document.robot_base.x_mm), float(document.robot_base.y_mm)
    return x - r, y - r, x + r, y + r


def reach_over_clearance(document: CellDocument, height_mm: float) -> tuple[int, Line]:
    """The horizontal distance ISO 13857 asks between a fence ``height_mm``
    high and the hazard zone (Table 2, high risk, as the rules check it); for
    a zone whose height is not recorded, the largest the table asks at that
    height, whatever the zone's height."""
    zone = document.hazard_zone
    if zone.height_mm is not None:
        result = reach_over(
            ReachOverInput(
                hazard_height_mm=float(zone.height_mm),
                hazard_lower_mm=float(min(zone.lower_mm, zone.height_mm)),
                structure_height_mm=float(height_mm),
                risk="high",
            )
        )
        c = result.horizontal_distance_mm
        if c is not None:
            return _round_up(max(c, 1)), Line(
                text=gettext_noop(
                    "Set %(clearance)s mm out from the hazard zone: ISO 13857 asks "
                    "%(c)s mm between a %(height)s mm fence and a zone up to "
                    "%(zone)s mm high (Table 2)."
                ),
                values={
                    "clearance": f"{_round_up(max(c, 1)):,}",
                    "c": f"{c:,}",
                    "height": f"{int(height_mm):,}",
                    "zone": f"{int(zone.height_mm):,}",
                },
            )
    table = REACH_OVER_TABLES["high"]
    column = max((b for b in table.b_columns_mm if b <= height_mm), default=None)
    index = table.b_columns_mm.index(column) if column is not None else 0
    worst = max((row.c_mm[index] or 0) for row in table.rows)
    return _round_up(max(worst, 1)), Line(
        text=gettext_noop(
            "Set %(clearance)s mm out from the hazard zone: the zone's height is "
            "not recorded, so the largest distance ISO 13857 Table 2 asks behind "
            "a %(height)s mm fence at any height is used."
        ),
        values={
            "clearance": f"{_round_up(max(worst, 1)):,}",
            "height": f"{int(height_mm):,}",
        },
    )


def curtain_clearance(
    document: CellDocument, curtain: DeviceDoc | None, *, top_mm: float
) -> tuple[int, Line] | None:
    """The minimum distance S (ISO 13855) of a light curtain across an
    opening in a fence ``top_mm`` high, with the figures of the cell's own
    curtain (``curtain``) and robot; None when one is not recorded (the
    rules then ask for it)."""
    robot, zone = document.robot, document.hazard_zone
    if (
        curtain is None
        or curtain.response_time_ms is None
        or curtain.detection_capability_mm is None
        or robot.stopping_time_ms is None
        or zone.height_mm is None
    ):
        return None
    controller = max(
        (
            float(d.response_time_ms)
            for d in document.devices
            if d.kind == "safety_controller" and d.response_time_ms is not None
        ),
        default=0.0,
    )
    result = iso13855_vertical_zone(
        VerticalZoneInput(
            device_kind="light_curtain",
            overall_stopping_time_ms=iso13855_common.overall_time_ms(
                float(curtain.response_time_ms),
                controller,
                float(robot.stopping_time_ms),
            ),
            detection_capability_mm=float(curtain.detection_capability_mm),
            upper_edge_height_mm=float(top_mm),
            hazard_lower_mm=float(min(zone.lower_mm, zone.height_mm)),
            hazard_upper_mm=float(zone.height_mm),
        )
    )
    s = result.minimum_distance_rounded_up_mm
    if s is None:
        return None
    return _round_up(s), Line(
        text=gettext_noop(
            "Set %(clearance)s mm out, so that the light curtains across the "
            "openings stand at least their minimum distance S = %(s)s mm from "
            "the hazard zone (ISO 13855, with the cell's curtain and stopping "
            "time)."
        ),
        values={"clearance": f"{_round_up(s):,}", "s": f"{s:,}"},
    )


def _fence(box, clearance: int):
    """Fence runs round ``box`` ``clearance`` out, counter-clockwise from the
    south-west corner, by side."""
    x0, y0, x1, y1 = box
    x0, y0 = math.floor(x0 - clearance), math.floor(y0 - clearance)
    x1, y1 = math.ceil(x1 + clearance), math.ceil(y1 + clearance)
    corners = {
        "S": ((x0, y0), (x1, y0)),
        "E": ((x1, y0), (x1, y1)),
        "N": ((x1, y1), (x0, y1)),
        "W": ((x0, y1), (x0, y0)),
    }
    return corners


def _segment(label, a, b, height, openings=()):
    return GuardSegmentDoc(
        label=label,
        start=PointDoc(x_mm=a[0], y_mm=a[1]),
        end=PointDoc(x_mm=b[0], y_mm=b[1]),
        height_mm=height,
        kind="fence",
        openings=list(openings),
    )


def _midpoint(document: CellDocument, s_index: int, opening: OpeningDoc):
    segment = document.guard_segments[s_index]
    (ax, ay), (bx, by) = (
        (segment.start.x_mm, segment.start.y_mm),
        (segment.end.x_mm, segment.end.y_mm),
    )
    length = math.hypot(bx - ax, by - ay) or 1.0
    t = (opening.offset_mm + opening.width_mm / 2) / length
    return ax + (bx - ax) * t, ay + (by - ay) * t


def _nearest_side(point, runs) -> str:
    def distance(side):
        (ax, ay), (_bx, by) = runs[side]
        if ay == by:
            return abs(point[1] - ay)
        return abs(point[0] - ax)

    return min(runs, key=distance)


def _kept_devices(document: CellDocument) -> list[DeviceDoc]:
    """The devices that guard no opening (stops, enabling devices, the safety
    controller), as drawn."""
    return [
        d.model_copy(update={"opening": None})
        for d in document.devices
        if d.kind not in GUARDING_KINDS
    ]


def _like(document: CellDocument, kind: str) -> DeviceDoc | None:
    """A device of ``kind`` the cell has already: its figures are carried
    over to the one placed (none are made up)."""
    return next((d for d in document.devices if d.kind == kind), None)


def _work_side(document: CellDocument, runs) -> tuple[str, str]:
    """The side people work at: the one nearest the first operator station,
    else the first opening; with its station's label."""
    if document.operator_stations:
        station = document.operator_stations[0]
        return _nearest_side((station.x_mm, station.y_mm), runs), station.label
    for s_index, segment in enumerate(document.guard_segments):
        for opening in segment.openings:
            return _nearest_side(_midpoint(document, s_index, opening), runs), ""
    return "S", ""


def fenced(document: CellDocument, *, country: str, hybrid: bool = False) -> Design:
    """The perimeter closed round the hazard zone at the jurisdiction's height
    and ISO 13857's distance; each of the cell's openings on the nearest side,
    a material opening closed by a light curtain across it, an access opening
    by an interlocked door. ``hybrid``: the side people work at is left open,
    closed by a light curtain across it, the others fenced."""
    height = FENCE_HEIGHT_MM
    reasons = [
        Line(
            text=gettext_noop(
                "A fence %(height)s mm high all round: Korea's Rules Art. 223 "
                "asks at least 1,800 mm."
            )
            if country == "KR"
            else gettext_noop(
                "A fence %(height)s mm high all round, at the distance ISO 13857 "
                "asks for that height."
            ),
            values={"height": f"{height:,}"},
        )
    ]
    clearance, why = reach_over_clearance(document, height)
    reasons.append(why)
    has_material = hybrid or any(
        o.purpose == "material_entry"
        for s in document.guard_segments
        for o in s.openings
    )
    curtain = (
        curtain_clearance(document, _like(document, "light_curtain"), top_mm=height)
        if has_material
        else None
    )
    if curtain is not None and curtain[0] > clearance:
        clearance, why = curtain
        reasons.append(why)
    runs = _fence(zone_box(document), clearance)
    on_side: dict[str, list[OpeningDoc]] = {side: [] for side in runs}
    open_side, station = _work_side(document, runs) if hybrid else ("", "")
    moved = []
    for s_index, segment in enumerate(document.guard_segments):
        for opening in segment.openings:
            side = _nearest_side(_midpoint(document, s_index, opening), runs)
            if side != open_side:  # the open side takes it in
                moved.append((side, opening))
    devices: list[DeviceDoc] = []
    placed: list[tuple[str, OpeningDoc]] = []
    curtained: list[OpeningDoc] = []
    if open_side:
        (ax, ay), (bx, by) = runs[open_side]
        whole = OpeningDoc(
            label="OP",
            offset_mm=0,
            width_mm=int(math.hypot(bx - ax, by - ay)),
            lower_edge_mm=0,
            upper_edge_mm=height,
            purpose="operator_access",
        )
        on_side[open_side].append(whole)
        placed.append((open_side, whole))
        curtained.append(whole)
        reasons.append(
            Line(
                text=OPEN_SIDE_CURTAIN,
                values={"at": f" ({station})" if station else ""},
            )
        )
    left_out = 0
    for side in runs:
        (ax, ay), (bx, by) = runs[side]
        length = math.hypot(bx - ax, by - ay)
        here = [o for s, o in moved if s == side]
        # As many as fit, side by side, SET_OUT_MM apart, centred on the side.
        fitting: list[OpeningDoc] = []
        for opening in here:
            total = sum(o.width_mm for o in [*fitting, opening])
            total += SET_OUT_MM * (len(fitting) + 2)
            if total <= length:
                fitting.append(opening)
            else:
                left_out += 1
        width_all = sum(o.width_mm for o in fitting) + SET_OUT_MM * (len(fitting) - 1)
        cursor = int((length - width_all) / 2)
        for opening in fitting:
            # Up to the fence's top at most: the opening is cut in the new fence.
            upper = min(opening.upper_edge_mm, height)
            doc = opening.model_copy(
                update={
                    "offset_mm": cursor,
                    "upper_edge_mm": upper,
                    "lower_edge_mm": min(opening.lower_edge_mm, upper - 1),
                }
            )
            cursor += opening.width_mm + SET_OUT_MM
            on_side[side].append(doc)
            placed.append((side, doc))
    if left_out:
        reasons.append(
            Line(
                text=gettext_noop(
                    "%(n)s of the cell's openings do not fit on the fence beside "
                    "the others and are not placed."
                ),
                values={"n": left_out},
            )
        )
    order = list(runs)
    segments = [
        _segment(f"F{i + 1}", *runs[side], height, on_side[side])
        for i, side in enumerate(order)
    ]
    for side, opening in placed:
        s_index = order.index(side)
        o_index = on_side[side].index(opening)
        ref = OpeningRef(segment=s_index, opening=o_index)
        (ax, ay), (bx, by) = runs[side]
        length = math.hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / length, (by - ay) / length
        p = (ax + ux * opening.offset_mm, ay + uy * opening.offset_mm)
        q = (
            ax + ux * (opening.offset_mm + opening.width_mm),
            ay + uy * (opening.offset_mm + opening.width_mm),
        )
        name = f"{segments[s_index].label} / {opening.label or f'O{o_index + 1}'}"
        if opening.purpose == "material_entry" or opening in curtained:
            like = _like(document, "light_curtain")
            devices.append(
                DeviceDoc(
                    label=f"LC{len(devices) + 1}",
                    kind="light_curtain",
                    opening=ref,
                    x1_mm=round(p[0]),
                    y1_mm=round(p[1]),
                    x2_mm=round(q[0]),
                    y2_mm=round(q[1]),
                    detection_lower_mm=opening.lower_edge_mm,
                    detection_upper_mm=opening.upper_edge_mm,
                    iec61496_type=like.iec61496_type if like else 4,
                    claimed_pl=like.claimed_pl if like else "",
                    response_time_ms=like.response_time_ms if like else None,
                    detection_capability_mm=(
                        like.detection_capability_mm if like else None
                    ),
                    kcs_certified=like.kcs_certified if like else None,
                )
            )
            reasons.append(
                Line(
                    text=CURTAIN_ACROSS,
                    values={"opening": name},
                )
            )
        else:
            devices.append(
                DeviceDoc(
                    label=f"D{len(devices) + 1}",
                    kind="interlocked_door",
                    opening=ref,
                    guard_locking=True,
                )
            )
            reasons.append(
                Line(
                    text=gettext_noop(
                        "%(opening)s: an interlocked door with guard locking (ISO "
                        "14119), so that it stays shut until the robot has stopped, "
                        "whatever its distance."
                    ),
                    values={"opening": name},
                )
            )
    if not placed:
        reasons.append(
            Line(
                text=gettext_noop(
                    "The cell as drawn has no opening, so none is placed: the "
                    "doors and infeeds the work needs are still to be drawn, each "
                    "with its guard."
                )
            )
        )
    robot = document.robot.model_copy(update={"collaborative_modes": []})
    return Design(
        kind="hybrid" if hybrid else "fenced",
        document=document.model_copy(
            update={
                "robot": robot,
                "guard_segments": segments,
                "devices": [*devices, *_kept_devices(document)],
            }
        ),
        reasons=tuple(reasons),
    )


def collaborative(document: CellDocument) -> Design:
    """Power and force limiting without a fence: offered only for a robot
    recorded as designed for collaborative operation."""
    robot = document.robot
    if robot.kind != "collaborative":
        return Design(
            kind="collaborative",
            document=None,
            reasons=(
                Line(
                    text=gettext_noop(
                        "The %(robot)s is not recorded as a robot "
                        "designed for collaborative operation (ISO 10218-1), so "
                        "power and force limiting cannot take the place of its "
                        "guarding (payload %(payload)s kg)."
                    ),
                    values={
                        "robot": f"{robot.manufacturer} {robot.model}",
                        "payload": f"{robot.payload_kg:,}",
                    },
                ),
            ),
        )
    reasons = [
        Line(
            text=gettext_noop(
                "No fence: the robot works beside people with power and force "
                "limiting (ISO/TS 15066). Its speed is checked against the "
                "lowest permissible speed of the body regions the risk "
                "assessment exposes; where a person can be clamped, force and "
                "pressure must be measured on the real cell."
            )
        )
    ]
    return Design(
        kind="collaborative",
        document=document.model_copy(
            update={
                "robot": robot.model_copy(update={"collaborative_modes": ["pfl"]}),
                "guard_segments": [],
                "devices": _kept_devices(document),
            }
        ),
        reasons=tuple(reasons),
    )


def _min_field_height(d_mm: float | None) -> int | None:
    """The lowest a horizontal field may lie for a detection capability
    ``d`` (ISO 13855:2010 6.3: H ≥ 15 × (d − 50), not below the floor)."""
    if d_mm is None:
        return None
    return math.ceil(max(0.0, 15 * (float(d_mm) - 50)))


def _controller_ms(document: CellDocument) -> float:
    return max(
        (
            float(d.response_time_ms)
            for d in document.devices
            if d.kind == "safety_controller" and d.response_time_ms is not None
        ),
        default=0.0,
    )


def _field_radius(
    document: CellDocument, segments, at, s_mm: float, open_key: str
) -> int:
    """The radius a field round ``at`` needs to cover, from ``s_mm`` out to
    the zone, every approach that passes no guard but the open side
    (``open_key``), rounded up to whole SET_OUT_MM."""
    zone_doc = document.hazard_zone
    zone = perimeter.hazard_zone(
        shape=zone_doc.shape,
        polygon_mm=zone_doc.polygon_mm,
        centre_mm=(float(document.robot_base.x_mm), float(document.robot_base.y_mm)),
        radius_mm=float(document.hazard_zone_radius_mm),
        lower_mm=zone_doc.lower_mm,
        upper_mm=zone_doc.height_mm,
    )
    barriers = [
        Barrier(
            start=(float(seg.start.x_mm), float(seg.start.y_mm)),
            end=(float(seg.end.x_mm), float(seg.end.y_mm)),
            passable=tuple(
                (float(o.offset_mm), float(o.offset_mm + o.width_mm), open_key)
                for o in seg.openings
                if o.label == open_key
            ),
        )
        for seg in segments
    ]
    far = 0.0
    for approach in approaches(zone, s_mm):
        if passes_through(approach, barriers)[0]:
            for point in (approach.zone_point, approach.outer):
                far = max(far, math.dist(at, point))
    return _round_up(max(far, 1))


def speed_separation(
    document: CellDocument,
    *,
    country: str,
    scanner: DeviceDoc | None,
    scanner_name: str = "",
    scanner_range_mm: int | None = None,
) -> Design:
    """Speed and separation monitoring: the sides without work fenced as the
    hybrid's, the side people work at open and watched by a safety laser
    scanner at its middle, whose protective field reaches the protective
    separation distance S_p (ISO/TS 15066 5.5.4, with K = 1,600 mm/s as in
    ISO 13855) out from the zone on every approach through the open side;
    the robot slows in a warning field beyond it. ``scanner``: the figures of
    the scanner to use (the cell's own, or one of the organisation's
    library: ``scanner_name``, its range ``scanner_range_mm``); none are
    made up."""
    hybrid = fenced(document, country=country, hybrid=True)
    assert hybrid.document is not None
    base = hybrid.document
    open_ref = next(
        (
            d.opening
            for d in base.devices
            if d.kind == "light_curtain"
            and d.opening is not None
            and base.guard_segments[d.opening.segment].openings[d.opening.opening].label
            == "OP"
        ),
        None,
    )
    assert open_ref is not None
    segment = base.guard_segments[open_ref.segment]
    (ax, ay), (bx, by) = (
        (segment.start.x_mm, segment.start.y_mm),
        (segment.end.x_mm, segment.end.y_mm),
    )
    at = ((ax + bx) / 2, (ay + by) / 2)
    reasons = [
        r for r in hybrid.reasons if "light curtain across its whole" not in r.text
    ]
    d_mm = scanner.detection_capability_mm if scanner else None
    height = (
        scanner.field_height_mm
        if scanner and scanner.field_height_mm is not None
        else _min_field_height(d_mm)
    )
    robot = document.robot
    radius = None
    # Sized with the field on the floor where its height is not known: the
    # largest intrusion distance C (1,200 mm), the cautious choice.
    sizing_height = height if height is not None else 0
    if (
        scanner is not None
        and scanner.response_time_ms is not None
        and (robot.stopping_time_ms is not None)
    ):
        result, s_mm, _error = separation_distance(
            ssm=True,
            response_ms=float(scanner.response_time_ms),
            controller_ms=_controller_ms(document),
            stopping_ms=float(robot.stopping_time_ms),
            speed_mm_s=float(robot.programmed_speed_mm_s or robot.max_tcp_speed_mm_s),
            stopping_distance_mm=robot.stopping_distance_mm,
            field_height_mm=sizing_height,
            detection_capability_mm=d_mm,
        )
        if s_mm is not None and result is not None:
            radius = _field_radius(document, base.guard_segments, at, s_mm, "OP")
            missing = ", ".join(getattr(result, "unverified_terms", ()))
            reasons.append(
                Line(
                    text=gettext_noop(
                        "The side people work at is open, watched by a safety laser "
                        "scanner at its middle (%(scanner)s, %(response)s ms). Its "
                        "protective field reaches %(radius)s mm round it, so that "
                        "every way in through the open side is inside it from the "
                        "protective separation distance S_p = %(s)s mm out (ISO/TS "
                        "15066 5.5.4, human speed 1,600 mm/s, the robot at "
                        "%(speed)s mm/s): the robot stops when a person enters it."
                    ),
                    values={
                        "scanner": scanner_name or scanner.label,
                        "response": f"{scanner.response_time_ms:,}",
                        "radius": f"{radius:,}",
                        "s": f"{int(s_mm):,}",
                        "speed": f"{int(robot.programmed_speed_mm_s or robot.max_tcp_speed_mm_s):,}",
                    },
                )
            )
            if height is None:
                reasons.append(
                    Line(
                        text=gettext_noop(
                            "The field's height is not known (the scanner's "
                            "detection capability is not recorded): S_p is sized "
                            "with the field on the floor, C = 1,200 mm, the largest."
                        )
                    )
                )
            if scanner_range_mm is not None and radius > scanner_range_mm:
                reasons.append(
                    Line(
                        text=gettext_noop(
                            "The field needs %(radius)s mm, beyond the %(range)s mm "
                            "range of %(scanner)s: a second scanner, or one nearer "
                            "the zone, is needed."
                        ),
                        values={
                            "radius": f"{radius:,}",
                            "range": f"{scanner_range_mm:,}",
                            "scanner": scanner_name or scanner.label,
                        },
                    )
                )
            if missing:
                reasons.append(
                    Line(
                        text=gettext_noop(
                            "S_p still leaves out %(terms)s (taken as 0 until "
                            "recorded): record them and the field is checked again."
                        ),
                        values={"terms": missing},
                    )
                )
            reasons.append(
                Line(
                    text=gettext_noop(
                        "A warning field beyond the protective field slows the robot "
                        "to a reduced speed before a person reaches the protective "
                        "field; at that speed S_p is smaller, and the protective "
                        "field may be set to it once the reduced speed is chosen and "
                        "monitored (safety-rated)."
                    )
                )
            )
    if radius is None:
        reasons.append(
            Line(
                text=gettext_noop(
                    "The side people work at is open, watched by a safety laser "
                    "scanner at its middle; its protective field is sized once the "
                    "scanner's response time and the robot's stopping time are "
                    "recorded (choose a scanner in the device library)."
                )
            )
        )
    placed = DeviceDoc(
        label=scanner.label if scanner else "LS1",
        kind="laser_scanner",
        opening=open_ref,
        x1_mm=round(at[0]),
        y1_mm=round(at[1]),
        iec61496_type=scanner.iec61496_type if scanner else 3,
        claimed_pl=scanner.claimed_pl if scanner else "",
        response_time_ms=scanner.response_time_ms if scanner else None,
        detection_capability_mm=d_mm,
        kcs_certified=scanner.kcs_certified if scanner else None,
        protective_field_mm=radius,
        field_height_mm=height,
    )
    devices = [
        placed if d.opening == open_ref and d.kind == "light_curtain" else d
        for d in base.devices
    ]
    return Design(
        kind="ssm",
        document=base.model_copy(
            update={
                "robot": base.robot.model_copy(update={"collaborative_modes": ["ssm"]}),
                "devices": devices,
            }
        ),
        reasons=tuple(reasons),
    )


def designs(
    document: CellDocument,
    *,
    country: str,
    scanner: DeviceDoc | None = None,
    scanner_name: str = "",
    scanner_range_mm: int | None = None,
) -> tuple[Design, ...]:
    """The concepts designed from the cell as drawn, in the order shown.
    ``scanner``: the safety laser scanner whose figures the speed and
    separation concept uses where the cell has none of its own (None: its
    field is left to be sized), named ``scanner_name``, its range
    ``scanner_range_mm``."""
    own = next((d for d in document.devices if d.kind == "laser_scanner"), None)
    return (
        fenced(document, country=country),
        collaborative(document),
        speed_separation(
            document,
            country=country,
            scanner=own or scanner,
            scanner_name="" if own else scanner_name,
            scanner_range_mm=None if own else scanner_range_mm,
        ),
        fenced(document, country=country, hybrid=True),
    )
