"""Edits drawn on the plan, and the undo stack that takes them back.

Every edit saves through the layout's own services (``cells.services``), after
the same field validation a form runs (``clean_fields``: the bounds of
``cells.models.bounds``), so a drawn element is refused exactly as a typed
one, with the same message. An edit is one transaction: a rectangle whose
fourth side is refused saves no side at all.

Each edit returns a ``Step``: what to apply to do it again (redo) and to take
it back (undo), as plain JSON-able actions, kept per user and cell in the
session (``UndoStack``). An action either *puts* field values on a row (the
row is created again, with its old id, when it was deleted) or *deletes* a
row; a put carries only the fields the edit changed, so undoing a move keeps
what was typed in the form since.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Model, ProtectedError, QuerySet, RestrictedError
from django.utils.translation import gettext as _

from cells import services
from cells.layout_editor.guarding import LINKED_BY_PLACE, guarded_opening
from cells.models import Cell, Device, GuardSegment, Opening, OperatorStation
from cells.models.cell import HazardZoneShape
from cells.models.devices import DeviceKind

# Segment ends closer than this are one corner: dragged together.
JOIN_TOLERANCE_MM = 1.0
UNDO_LIMIT = 100

Point = tuple[int, int]
Action = dict[str, Any]

# The foreign keys an edit sets itself, from the cell it was asked in: left out
# of field validation, which would look each one up (a query apiece).
RELATIONS = ["cell", "segment", "opening", "library_device"]
ZONE_FIELDS = (
    "robot_base_x_mm",
    "robot_base_y_mm",
    "hazard_zone_shape",
    "hazard_zone_radius_mm",
    "hazard_zone_polygon_mm",
    # With the zone: undoing a smaller zone takes its reason back too.
    "hazard_zone_reduction_reason",
)
SEGMENT_PREFIX = {"fence": "F", "wall": "W", "machine_body": "M"}


@dataclass
class Step:
    """One edit as the undo stack keeps it."""

    label: str
    redo: list[Action]
    undo: list[Action]
    # The element to select after the edit, "kind:id" (or "").
    selected: str = ""
    # Whether the element is new: its form opens beside the plan.
    created: bool = False
    # What the person should know besides (shown in the plan's status line).
    note: str = ""

    def as_dict(self) -> dict:
        return {"label": self.label, "redo": self.redo, "undo": self.undo}


@dataclass
class UndoStack:
    """The session's undo and redo steps of one cell, newest last, at most
    ``UNDO_LIMIT`` of each. The session belongs to one user, so the stack is
    per user and cell."""

    session: Any
    cell_pk: int
    undo: list[dict] = field(default_factory=list)
    redo: list[dict] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"layout_editor.{self.cell_pk}"

    @classmethod
    def of(cls, session, cell_pk: int) -> UndoStack:
        stored = session.get(f"layout_editor.{cell_pk}") or {}
        return cls(
            session, cell_pk, list(stored.get("undo", [])), list(stored.get("redo", []))
        )

    def save(self) -> None:
        self.session[self.key] = {
            "undo": self.undo[-UNDO_LIMIT:],
            "redo": self.redo[-UNDO_LIMIT:],
        }

    def push(self, step: Step) -> None:
        """A new edit: it can be undone, and nothing undone before can be redone."""
        self.undo.append(step.as_dict())
        del self.undo[:-UNDO_LIMIT]
        self.redo.clear()
        self.save()


# Reading and writing rows -------------------------------------------------------


def snapshot(instance: Model, names: tuple[str, ...] | None = None) -> dict:
    """The row's stored values (by attribute name: ``cell_id``), as JSON."""
    data: dict[str, Any] = {}
    for f in instance._meta.concrete_fields:
        if f.attname == "version":  # the row's, raised by each save
            continue
        if names is not None and f.attname not in names and f.attname != "id":
            continue
        value = f.value_from_object(instance)
        if isinstance(value, Decimal):
            value = str(value)
        elif isinstance(value, (date, datetime)):
            value = value.isoformat()
        data[f.attname] = value
    return data


def _changed(before: dict, after: dict) -> tuple[dict, dict]:
    """The fields that differ, each side with the row's id."""
    names = [k for k in after if before.get(k) != after[k]]
    keep = {"id": after["id"]} if "id" in after else {}
    return (
        {**keep, **{k: before.get(k) for k in names}},
        {**keep, **{k: after[k] for k in names}},
    )


def _rows(cell: Cell, kind: str) -> QuerySet:
    """The cell's rows of one kind of element: nothing of another cell."""
    if kind == "segment":
        return GuardSegment.objects.filter(cell=cell)
    if kind == "opening":
        return Opening.objects.filter(segment__cell=cell).select_related("segment")
    if kind == "device":
        return Device.objects.filter(cell=cell)
    if kind == "station":
        return OperatorStation.objects.filter(cell=cell)
    raise ValidationError(_("No such layout element."))


def element(cell: Cell, kind: str, pk: int) -> Model:
    found = _rows(cell, kind).filter(pk=pk).first()
    if found is None:
        raise ValidationError(
            _("That element is no longer on the plan: someone removed it.")
        )
    return found


def _save(kind: str, instance: Model, fields: Iterable[str] | None = None) -> None:
    """Validate as the form does, then save through the layout's service:
    of a row already there, only ``fields`` (what this edit changes), so that
    an edit of another field saved meanwhile stays (issue 28)."""
    instance.clean_fields(exclude=RELATIONS)
    names = None if fields is None else [n for n in fields if n != "id"]
    if kind == "segment":
        services.guard_segment_save(segment=instance, fields=names)
    elif kind == "opening":
        services.opening_save(opening=instance, fields=names)
    elif kind == "device":
        services.device_save(device=instance, fields=names)
    elif kind == "station":
        services.operator_station_save(station=instance, fields=names)


def hazard_zone_save(*, cell: Cell) -> Cell:
    """Save a moved robot base or a redrawn hazard zone, checked as the hazard
    zone form checks it, under a lock on the cell."""
    cell.clean_fields(
        exclude=[f.name for f in Cell._meta.fields if f.attname not in ZONE_FIELDS]
    )
    # Under a lock on the cell, its other fields as stored (issue 28).
    return services.cell_save(cell=cell, fields=ZONE_FIELDS)


def _put(cell: Cell, kind: str, fields: dict) -> None:
    if kind == "zone":
        for name in ZONE_FIELDS:
            if name in fields:
                setattr(cell, name, fields[name])
        hazard_zone_save(cell=cell)
        return
    model = _rows(cell, kind).model
    instance = _rows(cell, kind).filter(pk=fields["id"]).first()
    if instance is None:
        if model.objects.filter(pk=fields["id"]).exists():
            raise ValidationError(_("No such layout element."))
        instance = model()  # deleted by the edit undone: made again, same id
    for f in model._meta.concrete_fields:
        if f.attname in fields:
            setattr(instance, f.attname, f.to_python(fields[f.attname]))
    if kind in ("segment", "device", "station"):
        instance.cell_id = cell.pk
    elif not _rows(cell, "segment").filter(pk=instance.segment_id).exists():
        raise ValidationError(_("That element is no longer on the plan."))
    _save(kind, instance, fields)


def _delete(cell: Cell, kind: str, pk: int) -> None:
    instance = element(cell, kind, pk)
    try:
        with transaction.atomic():
            instance.delete()
    except (IntegrityError, RestrictedError, ProtectedError) as exc:
        raise ValidationError(
            _(
                "“%(name)s” is named by a risk-reduction measure of the risk "
                "assessment: unlink it there first."
            )
            % {"name": instance}
        ) from exc


def _inverse_of_put(cell: Cell, kind: str, fields: dict) -> Action:
    """What takes a put back, read from the rows as they are now."""
    if kind == "zone":
        values = snapshot(cell, tuple(fields))
        values.pop("id", None)
        return {"put": "zone", "fields": values}
    row = _rows(cell, kind).filter(pk=fields["id"]).first()
    if row is None:
        return {"delete": kind, "pk": fields["id"]}
    return {"put": kind, "fields": snapshot(row, tuple(fields))}


def _inverse_of_delete(cell: Cell, kind: str, pk: int) -> list[Action]:
    """What puts a deleted element back as it is now, with what goes with it:
    a segment's openings, and the link of each device that guards one."""
    instance = element(cell, kind, pk)
    restore = [{"put": kind, "fields": snapshot(instance)}]
    if kind == "segment":
        openings = list(instance.openings.all())
        restore += [{"put": "opening", "fields": snapshot(o)} for o in openings]
        guarded = Device.objects.filter(opening__in=openings)
    elif kind == "opening":
        guarded = Device.objects.filter(opening=instance)
    else:
        guarded = Device.objects.none()
    # Only the link: the rest of the device stays as it is.
    restore += [
        {"put": "device", "fields": {"id": d.pk, "opening_id": d.opening_id}}
        for d in guarded
    ]
    return restore


def apply(cell: Cell, actions: list[Action]) -> list[Action]:
    """Apply a step's actions in order, all or none, and answer the actions
    that take them back, read from the rows just before each is applied: an
    undo restores the plan as it was, form edits made since included."""
    inverse: list[Action] = []
    with transaction.atomic():
        for action in actions:
            if "delete" in action:
                inverse = (
                    _inverse_of_delete(cell, action["delete"], action["pk"]) + inverse
                )
                _delete(cell, action["delete"], action["pk"])
            else:
                inverse.insert(
                    0, _inverse_of_put(cell, action["put"], action["fields"])
                )
                _put(cell, action["put"], action["fields"])
    return inverse


def _created(kind: str, instance: Model, label: str) -> Step:
    return Step(
        label=label,
        redo=[{"put": kind, "fields": snapshot(instance)}],
        undo=[{"delete": kind, "pk": instance.pk}],
        selected=f"{kind}:{instance.pk}",
        created=True,
    )


# Default labels ----------------------------------------------------------------


def next_number(labels: Iterable[str], label_of: Callable[[Any], str]) -> int:
    """The number for a new element's default label: one past the highest
    already in use by labels of the same pattern (``label_of`` makes a label
    from a number), so a label freed by a delete is not given out again while
    a higher one stands (F1, F3 → F4, not a second F3)."""
    head, _mark, tail = label_of("\x00").partition("\x00")
    pattern = re.compile(re.escape(head) + r"(\d+)" + re.escape(tail))
    numbers = [int(m[1]) for label in labels if (m := pattern.fullmatch(label))]
    return max(numbers, default=0) + 1


# Geometry --------------------------------------------------------------------


def _near(p: tuple[float, float], q: tuple[float, float]) -> bool:
    return math.dist(p, q) <= JOIN_TOLERANCE_MM


def _along(segment: GuardSegment, point: tuple[float, float]) -> float:
    """How far along ``segment`` the point nearest ``point`` lies, in mm."""
    (ax, ay), (bx, by) = segment.start, segment.end
    length = segment.length_mm
    t = ((point[0] - ax) * (bx - ax) + (point[1] - ay) * (by - ay)) / length
    return min(max(t, 0.0), length)


# The edits -------------------------------------------------------------------


def segments_draw(
    *,
    cell: Cell,
    points: list[Point],
    closed: bool,
    kind: str,
    height_mm: int | None,
) -> Step:
    """A polyline of guard segments, corner to corner; ``closed`` joins the last
    corner to the first."""
    if height_mm is None:
        raise ValidationError(
            {"height_mm": _("Give the guard's height (mm) above the plan first.")}
        )
    ends = [*points[1:], points[0]] if closed else points[1:]
    prefix = SEGMENT_PREFIX.get(kind, "F")
    number = (
        next_number(
            GuardSegment.objects.filter(cell=cell).values_list("label", flat=True),
            lambda n: f"{prefix}{n}",
        )
        - 1
    )
    created = []
    with transaction.atomic():
        for start, end in zip(points, ends, strict=False):
            number += 1
            segment = GuardSegment(
                cell=cell,
                label=f"{prefix}{number}",
                kind=kind,
                start_x_mm=start[0],
                start_y_mm=start[1],
                end_x_mm=end[0],
                end_y_mm=end[1],
                height_mm=height_mm,
            )
            _save("segment", segment)
            created.append(segment)
    return Step(
        label=_("Drew %(count)s guard segments.") % {"count": len(created)}
        if len(created) != 1
        else _("Drew guard segment %(name)s.") % {"name": created[0]},
        redo=[{"put": "segment", "fields": snapshot(s)} for s in created],
        undo=[{"delete": "segment", "pk": s.pk} for s in reversed(created)],
        selected=f"segment:{created[0].pk}" if len(created) == 1 else "",
    )


def rectangle_draw(
    *, cell: Cell, a: Point, b: Point, kind: str, height_mm: int | None
) -> Step:
    """A closed fence of four segments from two opposite corners."""
    if a[0] == b[0] or a[1] == b[1]:
        raise ValidationError(
            _("A rectangle needs two opposite corners, apart in x and in y.")
        )
    corners = [a, (b[0], a[1]), b, (a[0], b[1])]
    return segments_draw(
        cell=cell, points=corners, closed=True, kind=kind, height_mm=height_mm
    )


def corners_move(
    *, cell: Cell, moves: list[tuple[Point, Point]], label: str = ""
) -> Step:
    """Move corners: every segment end within ``JOIN_TOLERANCE_MM`` of a
    ``from`` point goes to its ``to`` point, so joined segments follow."""
    changes = []
    for segment in GuardSegment.objects.filter(cell=cell):
        before = snapshot(segment)
        for end in ("start", "end"):
            here = (getattr(segment, f"{end}_x_mm"), getattr(segment, f"{end}_y_mm"))
            for source, target in moves:
                if _near(here, source):
                    setattr(segment, f"{end}_x_mm", target[0])
                    setattr(segment, f"{end}_y_mm", target[1])
                    break
        after = snapshot(segment)
        if after != before:
            changes.append((segment, *_changed(before, after)))
    if not changes:
        raise ValidationError(_("There is no corner there to move."))
    with transaction.atomic():
        for segment, _before, after in changes:
            _save("segment", segment, after)
    return Step(
        label=label
        or _("Moved the corner of %(names)s.")
        % {"names": ", ".join(str(s) for s, *_rest in changes)},
        redo=[{"put": "segment", "fields": after} for _s, _b, after in changes],
        undo=[{"put": "segment", "fields": before} for _s, before, _a in changes],
    )


def _updated(kind: str, instance: Model, before: dict, label: str) -> Step:
    _unused, changing = _changed(before, snapshot(instance))
    _save(kind, instance, changing)
    undo, redo = _changed(before, snapshot(instance))
    return Step(
        label=label,
        redo=[{"put": kind, "fields": redo}],
        undo=[{"put": kind, "fields": undo}],
        selected=f"{kind}:{instance.pk}",
    )


def element_move(*, cell: Cell, kind: str, pk: int, dx: int, dy: int) -> Step:
    """Move an element by (dx, dy) mm: a segment with the corners joined to
    it, an opening along its segment, a device or a station, or the hazard
    zone with the robot base."""
    if kind == "zone":
        before = snapshot(cell, ZONE_FIELDS)
        cell.robot_base_x_mm += dx
        cell.robot_base_y_mm += dy
        cell.hazard_zone_polygon_mm = [
            [x + dx, y + dy] for x, y in cell.hazard_zone_polygon_mm or []
        ]
        hazard_zone_save(cell=cell)
        undo, redo = _changed(before, snapshot(cell, ZONE_FIELDS))
        return Step(
            label=_("Moved the hazard zone."),
            redo=[{"put": "zone", "fields": redo}],
            undo=[{"put": "zone", "fields": undo}],
            selected="zone:0",
        )
    instance = element(cell, kind, pk)
    if kind == "segment":
        ends = (instance.start, instance.end)
        step = corners_move(
            cell=cell,
            moves=[(p, (p[0] + dx, p[1] + dy)) for p in ends],
            label=_("Moved %(name)s.") % {"name": instance},
        )
        step.selected = f"segment:{pk}"
        return step
    if kind == "opening":
        segment = instance.segment
        middle = geometry_point_along(
            segment, instance.offset_mm + instance.width_mm / 2
        )
        return opening_move(
            cell=cell, pk=pk, at=(middle[0] + dx, middle[1] + dy), opening=instance
        )
    before = snapshot(instance)
    if kind == "station":
        instance.x_mm += dx
        instance.y_mm += dy
    else:
        if instance.x1_mm is None or instance.y1_mm is None:
            raise ValidationError(_("This device is not placed on the plan."))
        instance.x1_mm += dx
        instance.y1_mm += dy
        if instance.x2_mm is not None and instance.y2_mm is not None:
            instance.x2_mm += dx
            instance.y2_mm += dy
    return _updated(kind, instance, before, _("Moved %(name)s.") % {"name": instance})


def geometry_point_along(segment: GuardSegment, distance: float) -> tuple[float, float]:
    (ax, ay), (bx, by) = segment.start, segment.end
    t = distance / segment.length_mm
    return (ax + (bx - ax) * t, ay + (by - ay) * t)


def opening_draw(*, cell: Cell, segment_pk: int, a: Point, b: Point) -> Step:
    """An opening dragged along a segment from ``a`` to ``b`` (each taken to
    the nearest point of the segment), through the guard's whole height."""
    segment = element(cell, "segment", segment_pk)
    ends = sorted((_along(segment, a), _along(segment, b)))
    offset, width = round(ends[0]), round(ends[1]) - round(ends[0])
    if width < 1:
        raise ValidationError(
            {"width_mm": _("Drag along the segment to give the opening its width.")}
        )
    number = next_number(
        Opening.objects.filter(segment__cell=cell).values_list("label", flat=True),
        lambda n: f"O{n}",
    )
    opening = Opening(
        segment=segment,
        label=f"O{number}",
        offset_mm=offset,
        width_mm=width,
        lower_edge_mm=0,
        upper_edge_mm=segment.height_mm,
    )
    _save("opening", opening)
    return _created(
        "opening", opening, _("Added opening %(name)s.") % {"name": opening}
    )


def opening_move(
    *,
    cell: Cell,
    pk: int,
    at: tuple[float, float],
    opening: Opening | None = None,
) -> Step:
    """Slide an opening along its segment so that its middle is as near
    ``at`` as the segment allows: it stays on the segment, and is refused
    where it would overlap another (the form's message)."""
    opening = opening or element(cell, "opening", pk)
    segment = opening.segment
    before = snapshot(opening)
    free = max(segment.length_mm - opening.width_mm, 0.0)
    opening.offset_mm = round(
        min(max(_along(segment, at) - opening.width_mm / 2, 0), free)
    )
    return _updated(
        "opening", opening, before, _("Moved opening %(name)s.") % {"name": opening}
    )


PLACED_DEVICES = {
    DeviceKind.LIGHT_CURTAIN: 2,
    DeviceKind.MULTIBEAM: 2,
    DeviceKind.SAFETY_MAT: 2,
    DeviceKind.LASER_SCANNER: 1,
}


def device_place(*, cell: Cell, kind: str, points: list[Point]) -> Step:
    """A light curtain or grid (its detection line), a safety mat (two
    opposite corners) or a laser scanner (its position). One placed across an
    opening is linked to it (``guarded_opening``). Its safety data is left to
    the device's form, which opens beside the plan."""
    if PLACED_DEVICES.get(kind) != len(points):
        raise ValidationError(_("Place the device with its points on the plan."))

    def label_of(number: str | int) -> str:
        return _("%(kind)s %(number)s") % {
            "kind": DeviceKind(kind).label,
            "number": number,
        }

    number = next_number(
        Device.objects.filter(cell=cell).values_list("label", flat=True), label_of
    )
    device = Device(cell=cell, kind=kind, label=label_of(number))
    device.x1_mm, device.y1_mm = points[0]
    if len(points) == 2:
        device.x2_mm, device.y2_mm = points[1]
    opening = guarded_opening(cell=cell, kind=kind, points=points)
    device.opening = opening
    _save("device", device)
    step = _created("device", device, _("Placed %(name)s.") % {"name": device})
    if opening is not None:
        across = _("Placed %(name)s across opening %(opening)s of %(segment)s.")
        step.label = across % {
            "name": device,
            "opening": opening,
            "segment": opening.segment,
        }
    elif kind in LINKED_BY_PLACE:
        step.note = _(
            "%(name)s crosses no opening: choose what it guards in its form."
        ) % {"name": device}
    return step


def station_place(*, cell: Cell, at: Point) -> Step:
    def label_of(number: str | int) -> str:
        return _("Station %(number)s") % {"number": number}

    number = next_number(
        OperatorStation.objects.filter(cell=cell).values_list("label", flat=True),
        label_of,
    )
    station = OperatorStation(
        cell=cell,
        label=label_of(number),
        x_mm=at[0],
        y_mm=at[1],
    )
    _save("station", station)
    return _created("station", station, _("Placed %(name)s.") % {"name": station})


def hazard_zone_draw(*, cell: Cell, points: list[Point]) -> Step:
    """The hazard zone as the polygon drawn, corner by corner."""
    before = snapshot(cell, ZONE_FIELDS)
    cell.hazard_zone_shape = HazardZoneShape.POLYGON
    cell.hazard_zone_polygon_mm = [list(p) for p in points]
    hazard_zone_save(cell=cell)
    undo, redo = _changed(before, snapshot(cell, ZONE_FIELDS))
    return Step(
        label=_("Drew the hazard zone."),
        redo=[{"put": "zone", "fields": redo}],
        undo=[{"put": "zone", "fields": undo}],
    )


def hazard_zone_reset(*, cell: Cell) -> Step:
    """The hazard zone deleted: back to the circle of the robot's reach about
    its base (a cell always has a zone); the corners drawn come back on undo."""
    before = snapshot(cell, ZONE_FIELDS)
    cell.hazard_zone_shape = HazardZoneShape.CIRCLE
    cell.hazard_zone_polygon_mm = []
    hazard_zone_save(cell=cell)
    undo, redo = _changed(before, snapshot(cell, ZONE_FIELDS))
    if set(redo) <= {"id"}:
        raise ValidationError(_("The hazard zone is already the robot's reach."))
    return Step(
        label=_("Reset the hazard zone to the robot's reach."),
        redo=[{"put": "zone", "fields": redo}],
        undo=[{"put": "zone", "fields": undo}],
    )


def element_delete(*, cell: Cell, kind: str, pk: int) -> Step:
    """Delete an element; its undo puts it back with what went with it: a
    segment's openings, and the devices that guarded them."""
    instance = element(cell, kind, pk)
    redo = [{"delete": kind, "pk": pk}]
    undo = apply(cell, redo)
    return Step(label=_("Deleted %(name)s.") % {"name": instance}, redo=redo, undo=undo)


def _unchanged_since(cell: Cell, left: list[Action]) -> None:
    """Refuse to undo or redo a step whose elements someone has changed
    since: ``left`` is how the step left them (its other side), and a row
    that no longer holds those values was changed by another person's save,
    which an undo would silently take back (issue 28). The person's own
    later edits are undone first, from the top of their stack."""
    for action in left:
        if "put" not in action:
            continue
        kind, fields = action["put"], action["fields"]
        names = tuple(n for n in fields if n != "id")
        if kind == "zone":
            row = Cell.objects.filter(pk=cell.pk).first()
        else:
            row = _rows(cell, kind).filter(pk=fields.get("id")).first()
        if row is None:
            raise ValidationError(
                _("That element is no longer on the plan: someone removed it.")
            )
        now = snapshot(row, names)
        changed = [n for n in names if now.get(n) != fields[n]]
        by_attname = {f.attname: f for f in type(row)._meta.concrete_fields}
        if changed:
            raise ValidationError(
                _(
                    "%(name)s was changed by someone else since (%(fields)s): "
                    "taking this back would undo their change."
                )
                % {
                    "name": row,
                    "fields": ", ".join(
                        str(by_attname[n].verbose_name) for n in changed
                    ),
                }
            )


def step_undo(*, cell: Cell, stack: UndoStack) -> str:
    """Take back the newest edit; it can be redone."""
    return _replay(cell, stack, stack.undo, stack.redo, "undo")


def step_redo(*, cell: Cell, stack: UndoStack) -> str:
    return _replay(cell, stack, stack.redo, stack.undo, "redo")


def _replay(cell: Cell, stack: UndoStack, source: list, target: list, side: str) -> str:
    if not source:
        raise ValidationError(
            _("Nothing to undo.") if side == "undo" else _("Nothing to redo.")
        )
    step = source.pop()
    other = "redo" if side == "undo" else "undo"
    try:
        _unchanged_since(cell, step[other])
        step[other] = apply(cell, step[side])
    except ValidationError as exc:
        # The plan has changed under it (in the forms, or by a colleague):
        # this step can never apply again, so it is dropped.
        stack.save()
        messages = "; ".join(exc.messages)
        raise ValidationError(
            _("Could not %(action)s “%(label)s”: %(reason)s")
            % {
                "action": _("undo") if side == "undo" else _("redo"),
                "label": step["label"],
                "reason": messages,
            }
        ) from exc
    target.append(step)
    stack.save()
    if side == "undo":
        return _("Undid: %(label)s") % {"label": step["label"]}
    return _("Redid: %(label)s") % {"label": step["label"]}


# Saves made in the forms beside the plan ----------------------------------------

FORM_KINDS = ("segment", "opening", "device", "station", "zone")


def form_before(kind: str, instance: Model) -> dict | None:
    """The stored values an element's form may change, read before the form
    binds (validating it writes the typed values onto the instance); None for
    a new element, or for a form that is not the plan's."""
    if kind == "zone":
        return snapshot(instance, ZONE_FIELDS)
    if kind in FORM_KINDS and instance.pk is not None:
        return snapshot(instance)
    return None


def form_saved(
    *,
    session,
    cell_pk: int,
    kind: str,
    before: dict | None,
    instance: Model,
    label: str,
) -> None:
    """Put a save made in an element's form on the plan's undo stack, so that
    Ctrl+Z takes it back as it takes back an edit drawn on the plan. A save
    that changed nothing is no step."""
    if kind not in FORM_KINDS:
        return
    if before is None:
        step = _created(kind, instance, label)
    else:
        after = snapshot(instance, ZONE_FIELDS if kind == "zone" else None)
        undo, redo = _changed(before, after)
        if set(redo) <= {"id"}:
            return
        step = Step(
            label=label,
            redo=[{"put": kind, "fields": redo}],
            undo=[{"put": kind, "fields": undo}],
        )
    UndoStack.of(session, cell_pk).push(step)


def form_delete(*, session, cell: Cell, kind: str, pk: int) -> str:
    """Delete an element from its form, as ``element_delete`` does, and put the
    step on the plan's undo stack: Ctrl+Z puts it back."""
    step = element_delete(cell=cell, kind=kind, pk=pk)
    UndoStack.of(session, cell.pk).push(step)
    return step.label
