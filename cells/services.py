"""Writes that touch several models."""

from __future__ import annotations

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from cells.exchange import CellDocument
from cells.models import Cell, Device, GuardSegment, Opening, OperatorStation, Project

# Model fields under the names the exchange document gives them.
DOCUMENT_PATHS = {
    "robot_manufacturer": "robot.manufacturer",
    "robot_model": "robot.model",
    "robot_kind": "robot.kind",
    "payload_kg": "robot.payload_kg",
    "reach_mm": "robot.reach_mm",
    "max_tcp_speed_mm_s": "robot.max_tcp_speed_mm_s",
    "moving_mass_kg": "robot.moving_mass_kg",
    "end_effector_mm": "robot.end_effector_mm",
    "workpiece_mm": "robot.workpiece_mm",
    "stopping_time_ms": "robot.stopping_time_ms",
    "stopping_distance_mm": "robot.stopping_distance_mm",
    "programmed_speed_mm_s": "robot.programmed_speed_mm_s",
    "collaborative_modes": "robot.collaborative_modes",
    "robot_base_x_mm": "robot_base.x_mm",
    "robot_base_y_mm": "robot_base.y_mm",
    "hazard_zone_shape": "hazard_zone.shape",
    "hazard_zone_radius_mm": "hazard_zone.radius_mm",
    "hazard_zone_polygon_mm": "hazard_zone.polygon_mm",
    "hazard_zone_height_mm": "hazard_zone.height_mm",
    "hazard_zone_lower_mm": "hazard_zone.lower_mm",
    "start_x_mm": "start.x_mm",
    "start_y_mm": "start.y_mm",
    "end_x_mm": "end.x_mm",
    "end_y_mm": "end.y_mm",
}


def _validated(instance, path: str, errors: dict[str, list[str]]) -> bool:
    """Run model validation, recording messages under their document paths."""
    try:
        instance.full_clean(validate_unique=False)
    except ValidationError as exc:
        for field, messages in exc.message_dict.items():
            name = "" if field == "__all__" else DOCUMENT_PATHS.get(field, field)
            key = ".".join(part for part in (path, name) if part) or NON_FIELD_ERRORS
            errors.setdefault(key, []).extend(messages)
        return False
    return True


@transaction.atomic
def cell_import(*, project: Project, document: CellDocument) -> Cell:
    """Create a new cell in ``project`` from an exchange document.

    Every element is validated as if entered by hand; on any error nothing is
    saved and a ValidationError maps document paths (``guard_segments.0.height_mm``,
    as pydantic names them) to messages.
    """
    errors: dict[str, list[str]] = {}
    robot = document.robot
    cell = Cell(
        project=project,
        name=document.name,
        task_description=document.task_description,
        task_type=document.task_type,
        robot_manufacturer=robot.manufacturer,
        robot_model=robot.model,
        robot_kind=robot.kind,
        payload_kg=robot.payload_kg,
        reach_mm=robot.reach_mm,
        max_tcp_speed_mm_s=robot.max_tcp_speed_mm_s,
        moving_mass_kg=robot.moving_mass_kg,
        end_effector_mm=robot.end_effector_mm,
        workpiece_mm=robot.workpiece_mm,
        stopping_time_ms=robot.stopping_time_ms,
        stopping_distance_mm=robot.stopping_distance_mm,
        programmed_speed_mm_s=robot.programmed_speed_mm_s,
        collaborative_modes=list(robot.collaborative_modes),
        hazard_zone_height_mm=document.hazard_zone.height_mm,
        hazard_zone_lower_mm=document.hazard_zone.lower_mm,
        robot_base_x_mm=document.robot_base.x_mm,
        robot_base_y_mm=document.robot_base.y_mm,
        hazard_zone_shape=document.hazard_zone.shape,
        hazard_zone_radius_mm=document.hazard_zone.radius_mm,
        hazard_zone_polygon_mm=[list(p) for p in document.hazard_zone.polygon_mm],
    )
    if not _validated(cell, "", errors):
        raise ValidationError(errors)
    cell.save()

    places: dict[tuple[int, int], Opening] = {}
    for s_index, seg_doc in enumerate(document.guard_segments):
        path = f"guard_segments.{s_index}"
        segment = GuardSegment(
            cell=cell,
            label=seg_doc.label,
            start_x_mm=seg_doc.start.x_mm,
            start_y_mm=seg_doc.start.y_mm,
            end_x_mm=seg_doc.end.x_mm,
            end_y_mm=seg_doc.end.y_mm,
            height_mm=seg_doc.height_mm,
            bottom_gap_mm=seg_doc.bottom_gap_mm,
            kind=seg_doc.kind,
            mesh_opening_mm=seg_doc.mesh_opening_mm,
        )
        if not _validated(segment, path, errors):
            continue
        segment.save()
        for o_index, op_doc in enumerate(seg_doc.openings):
            opening = Opening(segment=segment, **op_doc.model_dump())
            # Saved one by one so that each is checked against those before it.
            if _validated(opening, f"{path}.openings.{o_index}", errors):
                opening.save()
                places[(s_index, o_index)] = opening

    for index, st_doc in enumerate(document.operator_stations):
        station = OperatorStation(cell=cell, **st_doc.model_dump())
        if _validated(station, f"operator_stations.{index}", errors):
            station.save()

    for index, dev_doc in enumerate(document.devices):
        values = dev_doc.model_dump(exclude={"opening"})
        opening = None
        if dev_doc.opening is not None:
            opening = places.get((dev_doc.opening.segment, dev_doc.opening.opening))
            if opening is None:
                errors.setdefault(f"devices.{index}.opening", []).append(
                    str(_("No such opening in this document."))
                )
                continue
        device = Device(cell=cell, opening=opening, **values)
        if _validated(device, f"devices.{index}", errors):
            device.save()

    if errors:
        # Roll back everything this import wrote.
        raise ValidationError(errors)
    return cell
