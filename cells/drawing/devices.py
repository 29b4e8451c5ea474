"""The placed devices on the plan: a light curtain or grid as its detection
line, a safety mat as its rectangle, a laser scanner as a marked point."""

from __future__ import annotations

from cells import geometry
from cells.drawing.labels import _caption_point, _mm, _readable_angle
from cells.drawing.primitives import CurtainShape, Label, Line, MatShape, ScannerShape
from cells.exchange import CellDocument, DeviceDoc

LINE_KINDS = frozenset({"light_curtain", "multibeam"})


def _placed_points(device: DeviceDoc) -> list[geometry.Point]:
    """The device's points on the plan, as far as its kind uses them and they
    are complete; none for a device that is not drawn."""
    first = (device.x1_mm, device.y1_mm)
    second = (device.x2_mm, device.y2_mm)
    if device.kind == "laser_scanner" and None not in first:
        return [(float(first[0]), float(first[1]))]
    if device.kind in LINE_KINDS | {"safety_mat"} and None not in (*first, *second):
        a = (float(first[0]), float(first[1]))
        b = (float(second[0]), float(second[1]))
        if device.kind in LINE_KINDS and a != b:
            return [a, b]
        if device.kind == "safety_mat" and a[0] != b[0] and a[1] != b[1]:
            return [a, b]
    return []


def _device_shapes(
    document: CellDocument, centre: geometry.Point, font: float
) -> tuple[list[CurtainShape], list[MatShape], list[ScannerShape]]:
    curtains: list[CurtainShape] = []
    mats: list[MatShape] = []
    scanners: list[ScannerShape] = []
    for index, device in enumerate(document.devices):
        points = _placed_points(device)
        common = {"index": index, "label": device.label, "kind": device.kind}
        if device.kind in LINE_KINDS and points:
            a, b = points
            lower, upper = device.detection_lower_mm, device.detection_upper_mm
            heights = f"{lower:,}–{upper:,} mm" if None not in (lower, upper) else ""
            # Inside the guard, beyond the caption of the opening it may stand in.
            cx, cy = _caption_point(a, b, centre, -font * 4.6)
            curtains.append(
                CurtainShape(
                    **common,
                    line=Line(x1=a[0], y1=-a[1], x2=b[0], y2=-b[1]),
                    caption=Label(
                        x=cx,
                        y=-cy,
                        text=device.label,
                        sub=heights,
                        rotate_deg=_readable_angle(a, b),
                    ),
                )
            )
        elif device.kind == "safety_mat" and points:
            (x1, y1), (x2, y2) = points
            width, depth = abs(x2 - x1), abs(y2 - y1)
            mid = ((x1 + x2) / 2, (y1 + y2) / 2)
            mats.append(
                MatShape(
                    **common,
                    x=min(x1, x2),
                    y=-max(y1, y2),
                    width=width,
                    height=depth,
                    caption=Label(
                        x=mid[0],
                        y=-mid[1],
                        text=device.label,
                        sub=f"{round(width):,} × {round(depth):,} mm",
                    ),
                )
            )
        elif device.kind == "laser_scanner" and points:
            ((x, y),) = points
            height = device.field_height_mm
            r = font * 0.9
            scanners.append(
                ScannerShape(
                    **common,
                    x=x,
                    y=-y,
                    radius=r,
                    field_radius=device.protective_field_mm,
                    marker=[
                        Line(x1=x - r, y1=-y, x2=x + r, y2=-y),
                        Line(x1=x, y1=-y - r, x2=x, y2=-y + r),
                    ],
                    caption=Label(
                        x=x,
                        y=-y + font * 2.2,
                        text=device.label,
                        sub=f"h {_mm(height)}" if height is not None else "",
                    ),
                )
            )
    return curtains, mats, scanners
