"""Rows stored before the bounds of cells.exchange are brought within them
(issue 13), so that 0013 can add the checks: on its own, in its own
transaction, before any ALTER TABLE."""

from django.db import migrations
from django.db.models import F

# The bounds as they were when this migration was written (cells.exchange).
LIMIT_MM = 100_000
TIME_LIMIT_MS = 60_000
SPEED_LIMIT_MM_S = 20_000
BEAM_COUNT_LIMIT = 1_000
POLYGON_MAX_CORNERS = 100


def _clamp(model, names, low, high):
    for name in names:
        model.objects.filter(**{f"{name}__gt": high}).update(**{name: high})
        model.objects.filter(**{f"{name}__lt": low}).update(**{name: low})


def _empty_outside(model, names, low, high):
    for name in names:
        model.objects.filter(**{f"{name}__gt": high}).update(**{name: None})
        model.objects.filter(**{f"{name}__lt": low}).update(**{name: None})


def outline_past_bounds(corners) -> bool:
    """Whether a stored hazard-zone outline breaks the bounds: not a list of
    [x, y] pairs of whole millimetres on the plan, or too many of them."""
    if not isinstance(corners, list) or len(corners) > POLYGON_MAX_CORNERS:
        return True
    return not all(
        isinstance(p, list)
        and len(p) == 2
        and all(isinstance(c, int) and abs(c) <= LIMIT_MM for c in p)
        for p in corners
    )


def bring_within_bounds(apps, schema_editor):
    """Rows stored before the bounds (a cell whose radius of 2e9 mm hung its
    page) are brought within them, so the checks below can be added: a figure
    that may be unknown becomes unknown, one that must be there is clamped to
    its bound, and an outline past the bounds is dropped (the zone is drawn as
    the robot's reach again)."""
    Cell = apps.get_model("cells", "Cell")
    GuardSegment = apps.get_model("cells", "GuardSegment")
    Opening = apps.get_model("cells", "Opening")
    OperatorStation = apps.get_model("cells", "OperatorStation")
    Device = apps.get_model("cells", "Device")

    _empty_outside(
        Cell,
        ["stopping_distance_mm", "hazard_zone_height_mm", "hazard_zone_radius_mm"],
        0,
        LIMIT_MM,
    )
    _empty_outside(Cell, ["stopping_time_ms"], 1, TIME_LIMIT_MS)
    _empty_outside(Cell, ["programmed_speed_mm_s"], 1, SPEED_LIMIT_MM_S)
    _clamp(
        Cell,
        ["reach_mm", "end_effector_mm", "workpiece_mm", "hazard_zone_lower_mm"],
        0,
        LIMIT_MM,
    )
    _clamp(Cell, ["max_tcp_speed_mm_s"], 0, SPEED_LIMIT_MM_S)
    _clamp(Cell, ["robot_base_x_mm", "robot_base_y_mm"], -LIMIT_MM, LIMIT_MM)
    Cell.objects.filter(
        hazard_zone_height_mm__isnull=False,
        hazard_zone_lower_mm__gte=F("hazard_zone_height_mm"),
    ).exclude(hazard_zone_lower_mm=0).update(hazard_zone_lower_mm=0)
    for cell in Cell.objects.exclude(hazard_zone_polygon_mm=[]).only(
        "pk", "hazard_zone_polygon_mm"
    ):
        if outline_past_bounds(cell.hazard_zone_polygon_mm):
            Cell.objects.filter(pk=cell.pk).update(
                hazard_zone_polygon_mm=[], hazard_zone_shape="circle"
            )

    coordinates = ["start_x_mm", "start_y_mm", "end_x_mm", "end_y_mm"]
    _clamp(GuardSegment, coordinates, -LIMIT_MM, LIMIT_MM)
    _clamp(GuardSegment, ["height_mm", "bottom_gap_mm"], 0, LIMIT_MM)
    _empty_outside(GuardSegment, ["mesh_opening_mm"], 1, LIMIT_MM)
    GuardSegment.objects.filter(bottom_gap_mm__gte=F("height_mm")).update(
        bottom_gap_mm=F("height_mm") - 1
    )
    _clamp(
        Opening,
        ["offset_mm", "width_mm", "lower_edge_mm", "upper_edge_mm"],
        0,
        LIMIT_MM,
    )
    Opening.objects.filter(lower_edge_mm__gte=F("upper_edge_mm")).update(
        lower_edge_mm=F("upper_edge_mm") - 1
    )
    _clamp(OperatorStation, ["x_mm", "y_mm"], -LIMIT_MM, LIMIT_MM)
    _empty_outside(Device, ["response_time_ms"], 0, TIME_LIMIT_MS)
    _empty_outside(
        Device,
        ["detection_capability_mm", "protective_field_mm", "detection_lower_mm"],
        0,
        LIMIT_MM,
    )
    _empty_outside(Device, ["beam_count"], 0, BEAM_COUNT_LIMIT)


class Migration(migrations.Migration):
    dependencies = [
        ("cells", "0011_device_library_device"),
    ]

    operations = [
        migrations.RunPython(bring_within_bounds, migrations.RunPython.noop),
    ]
