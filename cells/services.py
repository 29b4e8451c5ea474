"""Writes that touch several models."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models import Model
from django.utils.translation import gettext as _

from cells.exchange import CellDocument
from cells.models import (
    Cell,
    CellCertificate,
    Device,
    GuardSegment,
    Opening,
    OperatorStation,
    Project,
)

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
    "robot_base_rotation_deg": "robot_base_rotation_deg",
    "hazard_zone_shape": "hazard_zone.shape",
    "hazard_zone_radius_mm": "hazard_zone.radius_mm",
    "hazard_zone_polygon_mm": "hazard_zone.polygon_mm",
    "hazard_zone_height_mm": "hazard_zone.height_mm",
    "hazard_zone_lower_mm": "hazard_zone.lower_mm",
    "hazard_zone_reduction_reason": "hazard_zone.reduction_reason",
    "safety_rated_limits": "robot.safety_rated_limits",
    "start_x_mm": "start.x_mm",
    "start_y_mm": "start.y_mm",
    "end_x_mm": "end.x_mm",
    "end_y_mm": "end.y_mm",
}


def _validated(
    instance, path: str, errors: dict[str, list[str]], *, exclude: tuple = ()
) -> bool:
    """Run model validation, recording messages under their document paths.

    Checked in memory: the database's own checks repeat rules that ``clean()``
    already makes (each would be a query), and the relations in ``exclude``
    point at objects not saved yet."""
    try:
        instance.full_clean(
            exclude=list(exclude), validate_unique=False, validate_constraints=False
        )
    except ValidationError as exc:
        _record(exc.message_dict, path, errors)
        return False
    return True


def _record(
    messages_by_field: dict[str, list[str]], path: str, errors: dict[str, list[str]]
) -> None:
    for field, messages in messages_by_field.items():
        name = "" if field == "__all__" else DOCUMENT_PATHS.get(field, field)
        key = ".".join(part for part in (path, name) if part) or NON_FIELD_ERRORS
        errors.setdefault(key, []).extend(str(m) for m in messages)


def cell_import(*, project: Project, document: CellDocument) -> Cell:
    """Create a new cell in ``project`` from an exchange document.

    Every element is validated as if entered by hand, the whole document
    before anything is written; on any error nothing is saved and a
    ValidationError maps document paths (``guard_segments.0.height_mm``, as
    pydantic names them) to messages. The document's own caps (``cells.exchange``)
    bound the work; the writes are one INSERT per kind of element.
    """
    errors: dict[str, list[str]] = {}
    robot = document.robot
    cell = Cell(
        project=project,
        name=document.name,
        task_description=document.task_description,
        application=document.application,
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
        safety_rated_limits=robot.safety_rated_limits,
        hazard_zone_height_mm=document.hazard_zone.height_mm,
        hazard_zone_lower_mm=document.hazard_zone.lower_mm,
        robot_base_x_mm=document.robot_base.x_mm,
        robot_base_y_mm=document.robot_base.y_mm,
        robot_base_rotation_deg=document.robot_base_rotation_deg,
        hazard_zone_shape=document.hazard_zone.shape,
        hazard_zone_radius_mm=document.hazard_zone.radius_mm,
        hazard_zone_polygon_mm=[list(p) for p in document.hazard_zone.polygon_mm],
        hazard_zone_reduction_reason=document.hazard_zone.reduction_reason,
    )
    _validated(cell, "", errors)

    segments: list[GuardSegment] = []
    openings: list[Opening] = []
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
        segment_valid = _validated(segment, path, errors, exclude=("cell",))
        segments.append(segment)
        on_segment: list[tuple[int, Opening]] = []
        for o_index, op_doc in enumerate(seg_doc.openings):
            opening = Opening(segment=segment, **op_doc.model_dump())
            places[(s_index, o_index)] = opening
            openings.append(opening)
            if _validated(
                opening, f"{path}.openings.{o_index}", errors, exclude=("segment",)
            ):
                on_segment.append((o_index, opening))
        if segment_valid:
            _check_placements(segment, on_segment, f"{path}.openings", errors)

    stations = [
        OperatorStation(cell=cell, **st.model_dump())
        for st in document.operator_stations
    ]
    for index, station in enumerate(stations):
        _validated(station, f"operator_stations.{index}", errors, exclude=("cell",))

    devices: list[Device] = []
    for index, dev_doc in enumerate(document.devices):
        opening = None
        if dev_doc.opening is not None:
            opening = places.get((dev_doc.opening.segment, dev_doc.opening.opening))
            if opening is None:
                errors.setdefault(f"devices.{index}.opening", []).append(
                    str(_("No such opening in this document."))
                )
                continue
        device = Device(
            cell=cell, opening=opening, **dev_doc.model_dump(exclude={"opening"})
        )
        _validated(device, f"devices.{index}", errors, exclude=("cell", "opening"))
        devices.append(device)

    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        cell.save()
        # Each object's foreign key is taken from the parent saved before it.
        GuardSegment.objects.bulk_create(segments)
        Opening.objects.bulk_create(openings)
        OperatorStation.objects.bulk_create(stations)
        Device.objects.bulk_create(devices)
    return cell


def _check_placements(
    segment: GuardSegment,
    openings: list[tuple[int, Opening]],
    path: str,
    errors: dict[str, list[str]],
) -> None:
    """Each opening along ``segment`` fits and overlaps none before it: taken
    in order along the segment, an opening overlaps an earlier one exactly
    when it starts before the furthest end so far (n log n, not n²)."""
    furthest: Opening | None = None
    for o_index, opening in sorted(openings, key=lambda item: item[1].offset_mm):
        before = [furthest] if furthest is not None else []
        problems = opening.placement_errors(segment, before)
        if problems:
            _record({k: [v] for k, v in problems.items()}, f"{path}.{o_index}", errors)
            continue
        end = opening.offset_mm + opening.width_mm
        if furthest is None or end > furthest.offset_mm + furthest.width_mm:
            furthest = opening


def lock_cell(cell_id: int | None) -> None:
    """Lock the cell's row until the transaction ends, so that elements counted
    against its caps (``cells.exchange.MAX_*``) are counted and inserted by one
    request at a time: two adding the last device at once cannot both see a
    free slot. FOR NO KEY UPDATE: it excludes the others taking this lock, but
    not the inserts elsewhere whose foreign key merely points at the cell.

    Locks are taken segment first, then cell, in every service, so that two
    of them never wait on each other. SQLite ignores the clause: it takes one
    write transaction at a time anyway (``transaction_mode`` IMMEDIATE)."""
    if cell_id is not None:
        list(Cell.objects.select_for_update(no_key=True).filter(pk=cell_id))


class Conflict(Exception):
    """Another save of the row came between the caller's read and this save:
    ``current`` is the row as stored now, ``differs`` the fields the caller
    sent whose stored value is now another."""

    def __init__(self, current: Model, differs: list[str]):
        super().__init__(f"{type(current).__name__} {current.pk} changed since read")
        self.current = current
        self.differs = differs


# Never written from what a caller sends.
UNSENT = frozenset({"id", "version", "created_at", "updated_at", "created_by_id"})


def editable_names(instance: Model) -> list[str]:
    """Every field of the row a save may write (by attribute name)."""
    return [
        f.attname
        for f in instance._meta.concrete_fields
        if f.attname not in UNSENT and not f.primary_key
    ]


def _saved_changes(
    instance: Model,
    fields: Iterable[str] | None,
    version: int | None,
    lock_parents: Callable[[Model], None],
) -> Model:
    """Save ``instance`` (a new row, or the caller's copy of an existing one)
    inside the caller's transaction: a new row is inserted after
    ``lock_parents``; an existing one is locked and read again *before* it is
    changed, then only ``fields`` (attribute names; None: every editable one)
    are copied onto it from the caller's copy, checked and written
    (``update_fields``), and its version raised. With ``version`` (the one
    the caller read), a row saved by someone else since is refused with
    ``Conflict``: no saved change is silently undone."""
    model = type(instance)
    if instance._state.adding:  # new (or made again by an undo, same id)
        lock_parents(instance)
        instance.clean()
        instance.save()
        return instance
    names = fields if fields is not None else editable_names(instance)
    names = [n for n in dict.fromkeys(names) if n not in UNSENT]
    # Deleted by someone else since it was read: DoesNotExist, never made
    # again by a change.
    current = model.objects.select_for_update().get(pk=instance.pk)
    versioned = hasattr(current, "version")
    if version is not None and versioned and current.version != version:
        raise Conflict(
            current,
            [n for n in names if getattr(current, n) != getattr(instance, n)],
        )
    for name in names:
        setattr(current, name, getattr(instance, name))
    lock_parents(current)
    current.clean()
    stamped = [
        f.attname for f in model._meta.concrete_fields if f.attname == "updated_at"
    ]
    if versioned:
        current.version += 1
        stamped.append("version")
    current.save(update_fields=[*names, *stamped])
    # The caller's copy is the row as stored now.
    for f in model._meta.concrete_fields:
        setattr(instance, f.attname, getattr(current, f.attname))
    return current


def opening_save(
    *,
    opening: Opening,
    fields: Iterable[str] | None = None,
    version: int | None = None,
) -> Opening:
    """Save a new, changed or moved opening (``_saved_changes``: only
    ``fields``, refused on a stale ``version``).

    The segment it goes on is locked and the opening checked again against
    that segment's others, inside one transaction: two requests placing
    overlapping openings at once are taken one after the other, and the
    second is refused by name (``offset_mm``). On PostgreSQL the lock is
    ``SELECT ... FOR UPDATE``; SQLite takes one write transaction at a time
    (``transaction_mode`` IMMEDIATE). An exclusion constraint (migration 0014)
    holds on PostgreSQL even for writes that bypass this service. The
    segment's cell is locked too: its cap of openings counts over all its
    segments. Locks: segment, opening, cell.
    """
    with transaction.atomic():
        segment = GuardSegment.objects.select_for_update().get(pk=opening.segment_id)

        def lock(row: Model) -> None:
            row.segment = segment
            lock_cell(segment.cell_id)

        return _saved_changes(opening, fields, version, lock)


def guard_segment_save(
    *,
    segment: GuardSegment,
    fields: Iterable[str] | None = None,
    version: int | None = None,
) -> GuardSegment:
    """Save a new or changed guard segment (``_saved_changes``); a changed one
    is locked first and checked again, so that it cannot be shortened or
    lowered past an opening placed on it at the same moment (``opening_save``
    takes the same lock). The cell it goes in is locked as well, for its cap
    of segments."""
    with transaction.atomic():
        return _saved_changes(
            segment, fields, version, lambda row: lock_cell(row.cell_id)
        )


def device_save(
    *,
    device: Device,
    fields: Iterable[str] | None = None,
    version: int | None = None,
) -> Device:
    """Save a new, changed or moved safety device (``_saved_changes``),
    checked again under a lock on the cell it goes in: two devices added at
    once to a cell with one slot left store one, and the other is refused by
    name (``cell``)."""
    with transaction.atomic():
        return _saved_changes(
            device, fields, version, lambda row: lock_cell(row.cell_id)
        )


def operator_station_save(
    *,
    station: OperatorStation,
    fields: Iterable[str] | None = None,
    version: int | None = None,
) -> OperatorStation:
    """Save a new, changed or moved operator station (``_saved_changes``),
    checked again under a lock on its cell (its cap of stations), as
    ``device_save`` does."""
    with transaction.atomic():
        return _saved_changes(
            station, fields, version, lambda row: lock_cell(row.cell_id)
        )


def cell_save(
    *, cell: Cell, fields: Iterable[str] | None = None, version: int | None = None
) -> Cell:
    """Save a new or changed cell (``_saved_changes``): only ``fields``,
    under a lock on its row, refused on a stale ``version``."""
    with transaction.atomic():
        return _saved_changes(cell, fields, version, lambda row: None)


def project_save(*, project: Project, fields: Iterable[str] | None = None) -> Project:
    """Save a new or changed project (``_saved_changes``): of a change, only
    ``fields``, under a lock on its row."""
    with transaction.atomic():
        return _saved_changes(project, fields, None, lambda row: None)


def certificate_save(
    *,
    certificate: CellCertificate,
    fields: Iterable[str] | None = None,
    version: int | None = None,
) -> CellCertificate:
    """Save a new or changed certificate of a cell (``_saved_changes``)."""
    with transaction.atomic():
        return _saved_changes(certificate, fields, version, lambda row: None)
