"""The plan: ``layout_drawing`` turns a cell's exchange document into the
``Drawing``, the shapes the layout becomes (guards with their openings cut out,
stations, devices, the hazard zone, the safety engineer's marks), the view
that holds them, its grid and its scale bar."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from cells import drawing_perimeter, geometry, perimeter
from cells.drawing.checks import (
    _clearance_shapes,
    _gap_shapes,
    _reach_shape,
    _usable,
)
from cells.drawing.devices import _device_shapes, _placed_points
from cells.drawing.labels import (
    _caption_point,
    _Grid,
    _mm,
    _overlaps,
    _readable_angle,
    _text_box,
)
from cells.drawing.primitives import (
    ApproachShape,
    ClearanceShape,
    Drawing,
    DrawingLabels,
    GapShape,
    Label,
    Line,
    OpeningShape,
    Requirement,
    Ring,
    SegmentShape,
    StationShape,
)
from cells.exchange import CellDocument
from cells.naming import layout_names

NICE_STEPS_MM = (100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000)
MAX_GRID_LINES = 14


def _nice_step(span_mm: float, target_count: int) -> int:
    """The smallest round step that divides ``span_mm`` into at most
    ``target_count`` parts. Past the table it grows tenfold, so a grid never
    has more than ``target_count`` + 1 lines a side, however wide the plan
    (a document keeps within 100 m; the drawing does not rely on it)."""
    for step in NICE_STEPS_MM:
        if span_mm / step <= target_count:
            return step
    step = NICE_STEPS_MM[-1]
    while span_mm / step > target_count:
        step *= 10
    return step


def _hazard_circle_parts(
    document: CellDocument,
    base: geometry.Point,
    radius: float,
    labels: DrawingLabels,
    font: float,
    use_polygon: bool,
) -> tuple[Label | None, list[Ring]]:
    """The hazard circle's caption (its radius, and what it is made of where it
    is the robot's maximum space) and the rings inside it."""
    if use_polygon:
        return None, []
    label = Label(
        x=base[0], y=-(base[1] + radius) + font * 1.6, text=f"r {_mm(radius)}"
    )
    robot = document.robot
    if document.hazard_zone.radius_mm or not (
        robot.end_effector_mm or robot.workpiece_mm
    ):
        return label, []
    # Under the robot's base, where the circle is free of the guards' captions.
    label = label.model_copy(
        update={
            "y": -base[1] + font * 3,
            "sub": labels.zone_sum
            % {
                "reach": f"{robot.reach_mm:,}",
                "tool": f"{robot.end_effector_mm:,}",
                "workpiece": f"{robot.workpiece_mm:,}",
            },
        }
    )
    rings = [Ring(radius=float(robot.reach_mm), title=labels.ring_reach)]
    if robot.end_effector_mm and robot.workpiece_mm:
        rings.append(
            Ring(
                radius=float(robot.reach_mm + robot.end_effector_mm),
                title=labels.ring_tool,
            )
        )
    return label, rings


def layout_drawing(
    document: CellDocument,
    *,
    labels: DrawingLabels | None = None,
    required: Sequence[Requirement] = (),
    underlay: Sequence[Sequence[float]] = (),
    plan: perimeter.Layout | None = None,
    opening_status: Mapping[tuple[int, int], str] | None = None,
    uncovered: Sequence[tuple[Sequence[geometry.Point], int]] = (),
) -> Drawing:
    """The plan of ``document``. ``labels``: the words drawn, translated;
    ``required``: the devices' required minimum distances, drawn round the
    hazard zone; ``underlay``: lines [x1, y1, x2, y2] of an imported drawing,
    drawn behind the plan (the view holds them too); ``plan``: the saved
    cell's plan as the rules read it (``cells.selectors.plan_of``), so the
    drawing shows their very analysis; None: the document's own;
    ``opening_status``: the verdict of each opening (segment index, opening
    index) that is not guarded, to draw it so; ``uncovered``: the approaches
    no protective field covers, each as the points S out from the zone along
    them and that S (``compliance.rules.plan_marks``)."""
    labels = labels or DrawingLabels()
    result = (
        perimeter.analysed(plan)
        if plan is not None
        else drawing_perimeter.analyse(document)
    )
    # Without an analysable zone (a polygon that crosses itself) there is no
    # distance to draw round it.
    wanted = _usable(document, required) if result is not None else []
    base = (float(document.robot_base.x_mm), float(document.robot_base.y_mm))
    zone = document.hazard_zone
    # The radius given, else the robot's maximum space (reach, tool, workpiece).
    radius = float(document.hazard_zone_radius_mm)
    polygon = [(float(x), float(y)) for x, y in zone.polygon_mm]
    use_polygon = zone.shape == "polygon" and len(polygon) >= 3

    extent_points: list[geometry.Point] = [base]
    if use_polygon:
        extent_points += polygon
    else:
        extent_points += [(base[0] - radius, base[1] - radius)]
        extent_points += [(base[0] + radius, base[1] + radius)]
    for seg in document.guard_segments:
        extent_points += [
            (seg.start.x_mm, seg.start.y_mm),
            (seg.end.x_mm, seg.end.y_mm),
        ]
    extent_points += [(s.x_mm, s.y_mm) for s in document.operator_stations]
    for device in document.devices:
        placed = _placed_points(device)
        extent_points += placed
        if device.kind == "laser_scanner" and placed and device.protective_field_mm:
            (x, y), r = placed[0], float(device.protective_field_mm)
            extent_points += [(x - r, y - r), (x + r, y + r)]
    for x1, y1, x2, y2 in underlay:
        extent_points += [(x1, y1), (x2, y2)]
    for outline, _s in uncovered:
        extent_points += [(float(x), float(y)) for x, y in outline]
    if result is not None:
        for req in wanted:
            circle, outline = drawing_perimeter.clearance_outline(
                result.zone, req.required_mm
            )
            if circle is not None:
                cx, cy, r = circle
                extent_points += [(cx - r, cy - r), (cx + r, cy + r)]
            extent_points += outline
    min_x, min_y, max_x, max_y = geometry.bounding_box(extent_points)
    span = max(max_x - min_x, max_y - min_y, 1000.0)
    font = span / 45
    margin = span * 0.12 + font * 3
    centre = ((min_x + max_x) / 2, (min_y + max_y) / 2)

    view_min_x, view_max_x = min_x - margin, max_x + margin
    view_min_y, view_max_y = -(max_y + margin), -(min_y - margin) + font * 3

    segments: list[SegmentShape] = []
    openings: list[OpeningShape] = []
    names = layout_names(
        (seg.label, [op.label for op in seg.openings])
        for seg in document.guard_segments
    )
    for s_index, seg in enumerate(document.guard_segments):
        label, opening_names = names[s_index]
        start = (float(seg.start.x_mm), float(seg.start.y_mm))
        end = (float(seg.end.x_mm), float(seg.end.y_mm))
        length = geometry.distance_mm(start, end)
        cuts = sorted((o.offset_mm, o.offset_mm + o.width_mm) for o in seg.openings)
        pieces, cursor = [], 0.0
        for cut_start, cut_end in [*cuts, (length, length)]:
            if cut_start > cursor:
                a = geometry.point_along(start, end, cursor)
                b = geometry.point_along(start, end, min(cut_start, length))
                pieces.append(Line(x1=a[0], y1=-a[1], x2=b[0], y2=-b[1]))
            cursor = max(cursor, cut_end)
        cx, cy = _caption_point(start, end, centre, font * 1.9)
        segments.append(
            SegmentShape(
                index=s_index,
                label=label,
                kind=seg.kind,
                pieces=pieces,
                caption=Label(
                    x=cx,
                    y=-cy,
                    text=f"{label} · {_mm(length)}",
                    sub=f"h {_mm(seg.height_mm)}",
                    rotate_deg=_readable_angle(start, end),
                ),
            )
        )
        for o_index, op in enumerate(seg.openings):
            a = geometry.point_along(start, end, op.offset_mm)
            b = geometry.point_along(start, end, op.offset_mm + op.width_mm)
            ix, iy = _caption_point(a, b, centre, -font * 2.1)
            openings.append(
                OpeningShape(
                    segment_index=s_index,
                    index=o_index,
                    label=opening_names[o_index],
                    purpose=op.purpose,
                    gap=Line(x1=a[0], y1=-a[1], x2=b[0], y2=-b[1]),
                    status=(opening_status or {}).get((s_index, o_index), ""),
                    caption=Label(
                        x=ix,
                        y=-iy,
                        text=f"{opening_names[o_index]} · {_mm(op.width_mm)}",
                        sub=f"{op.lower_edge_mm:,}–{op.upper_edge_mm:,} mm",
                        rotate_deg=_readable_angle(start, end),
                    ),
                )
            )

    guard_boxes = [_text_box(shape.caption, font) for shape in (*segments, *openings)]
    stations = []
    for i, st in enumerate(document.operator_stations):
        # Under the station, or over it where a guard's caption is under it.
        # (The text stands on its baseline: its middle is 0.35 em higher.)
        caption = Label(x=st.x_mm, y=-st.y_mm + font * 2.2, text=st.label)
        middle = caption.model_copy(update={"y": caption.y - font * 0.35})
        if _overlaps(_text_box(middle, font), guard_boxes):
            caption = caption.model_copy(update={"y": -st.y_mm - font * 1.5})
        stations.append(
            StationShape(
                index=i, label=st.label, x=st.x_mm, y=-st.y_mm, caption=caption
            )
        )
    curtains, mats, scanners = _device_shapes(document, centre, font)
    approaches = [
        ApproachShape(
            outline=[(round(x, 1), round(-y, 1)) for x, y in outline],
            caption=Label(
                x=outline[len(outline) // 2][0],
                y=-outline[len(outline) // 2][1],
                text=labels.uncovered % {"distance": f"{round(s_mm):,}"},
            ),
        )
        for outline, s_mm in uncovered
        if outline
    ]
    hazard_label, rings = _hazard_circle_parts(
        document, base, radius, labels, font, use_polygon
    )
    gaps: list[GapShape] = []
    reach = None
    clearances: list[ClearanceShape] = []
    if result is not None:
        gaps = _gap_shapes(result, labels, centre, font)
        captions = [
            *(s.caption for s in segments),
            *(o.caption for o in openings),
            *(d.caption for d in (*curtains, *mats, *scanners)),
            *(t.caption for t in stations),
            *(g.caption for g in gaps),
            *([hazard_label] if hazard_label else []),
        ]
        # Filed by where they are: cells of about a caption's height.
        taken = _Grid(font * 2, boxes=(_text_box(c, font) for c in captions))
        guards = _Grid(
            font * 2, lines=(piece for seg in segments for piece in seg.pieces)
        )
        reach = _reach_shape(result, labels, font, taken, guards)
        if reach is not None:
            taken.add_box(_text_box(reach.caption, font))
        clearances = _clearance_shapes(
            document, result.zone, wanted, labels, font, taken, guards
        )
        # The view grows to hold these labels whole.
        for caption in [
            *(g.caption for g in gaps),
            *([reach.caption] if reach else []),
            *(c.caption for c in clearances),
        ]:
            x1, y1, x2, y2 = _text_box(caption, font)
            pad = font * 0.5
            view_min_x, view_max_x = (
                min(view_min_x, x1 - pad),
                max(view_max_x, x2 + pad),
            )
            view_min_y = min(view_min_y, y1 - pad)
            view_max_y = max(view_max_y, y2 + font * 3)  # the scale bar below

    view_span = max(view_max_x - view_min_x, view_max_y - view_min_y - font * 3)
    step = _nice_step(view_span, MAX_GRID_LINES)
    grid = [
        Line(x1=x, y1=view_min_y, x2=x, y2=view_max_y)
        for x in range(
            math.ceil(view_min_x / step) * step, math.floor(view_max_x) + 1, step
        )
    ] + [
        Line(x1=view_min_x, y1=y, x2=view_max_x, y2=y)
        for y in range(
            math.ceil(view_min_y / step) * step, math.floor(view_max_y) + 1, step
        )
    ]

    bar_mm = _nice_step(span, 4)
    bar_y = view_max_y - font * 1.5
    bar_x = view_min_x + font * 2
    scale_bar = Line(x1=bar_x, y1=bar_y, x2=bar_x + bar_mm, y2=bar_y)
    scale_label = Label(x=bar_x + bar_mm / 2, y=bar_y - font * 0.6, text=_mm(bar_mm))

    return Drawing(
        view_min_x=round(view_min_x, 1),
        view_min_y=round(view_min_y, 1),
        view_width=round(view_max_x - view_min_x, 1),
        view_height=round(view_max_y - view_min_y, 1),
        font_mm=round(font, 1),
        grid_step_mm=step,
        grid=grid,
        scale_bar=scale_bar,
        scale_bar_label=scale_label,
        hazard_circle=None if use_polygon else (base[0], -base[1], radius),
        hazard_polygon=" ".join(f"{x:g},{-y:g}" for x, y in polygon)
        if use_polygon
        else "",
        hazard_label=hazard_label,
        hazard_rings=rings,
        robot_base=(base[0], -base[1]),
        segments=segments,
        openings=openings,
        stations=stations,
        curtains=curtains,
        mats=mats,
        scanners=scanners,
        gaps=gaps,
        reach=reach,
        clearances=clearances,
        approaches=approaches,
        underlay=[Line(x1=x1, y1=-y1, x2=x2, y2=-y2) for x1, y1, x2, y2 in underlay],
    )
