"""Writes of the DXF feature: a DXF drawing imported into a cell's layout.

``layout_dxf_plan`` reads the file and validates everything it would create,
writing nothing (the page previews it); ``layout_dxf_import`` does the same
and then writes it all in one transaction, or nothing. Guard segments are
checked as the forms and the API check them: each one's ``full_clean()``
(its bounds: 100 m; its height and gap), and the cell's cap of segments
(``cells.exchange.MAX_GUARD_SEGMENTS``), counted once under the lock on the
cell that ``cells.services`` takes for every cap.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cells.exchange import MAX_GUARD_SEGMENTS
from cells.layout_dxf import reading
from cells.layout_dxf.models import LayoutUnderlay
from cells.models import Cell, GuardSegment
from cells.models.layout import cell_full_message

# The lock every cap of a cell is counted under, taken in the same order.
from cells.services import lock_cell

# Why a file cannot be read, by ``reading.DxfError.code``, in the reader's words.
READ_ERRORS = {
    "empty": gettext_lazy("The file is empty."),
    "too_large": gettext_lazy(
        "The file is larger than %(limit_mb)s MB: send a drawing of the cell alone."
    ),
    "unreadable": gettext_lazy(
        "This is not a DXF drawing that can be read (%(detail)s). Save it from "
        "your CAD program as DXF (text or binary) and try again."
    ),
    "not_dxf": gettext_lazy(
        "This is not a DXF drawing that can be read: the file does not begin "
        "as a DXF file does. Save the drawing from your CAD program as DXF "
        "(text or binary) and try again."
    ),
    "dwg": gettext_lazy(
        "This is a DWG drawing, which cannot be read. Save it from your CAD "
        "program as DXF (text or binary) and try again."
    ),
    "too_many_entities": gettext_lazy(
        "The drawing has %(count)s entities in its model space; at most "
        "%(limit)s are read. Send a drawing of the cell alone."
    ),
    "too_many_pieces": gettext_lazy(
        "The drawing's lines and polylines make more than %(limit)s straight "
        "pieces. Send a drawing of the cell alone."
    ),
    "too_many_layers": gettext_lazy("The drawing has more than %(limit)s layers."),
    "not_a_number": gettext_lazy(
        "%(entity)s %(handle)s on layer %(layer)s has a coordinate that is not a "
        "number."
    ),
    "unknown_units": gettext_lazy(
        "The drawing's units ($INSUNITS = %(code)s) are not among those read "
        "(inch, foot, mm, cm, m): say which units it is drawn in."
    ),
}
# Which request field each error is about.
READ_ERROR_FIELDS = {"unknown_units": "units"}


@dataclass
class ImportPlan:
    """What an import would create: guard segments, checked and unsaved (no
    cell set yet), and the underlay, with the reading's account of it all."""

    dxf: reading.DxfPlan
    segments: list[GuardSegment]
    underlay: LayoutUnderlay | None  # None: the file has no underlay lines


def read_error(exc: reading.DxfError) -> ValidationError:
    """The reading's refusal as a ValidationError naming the request field."""
    params = dict(exc.params)
    if "limit" in params:
        params["limit_mb"] = params["limit"] // (1024 * 1024)
        params["limit"] = f"{params['limit']:,}"
    if "count" in params:
        params["count"] = f"{params['count']:,}"
    message = str(READ_ERRORS.get(exc.code, READ_ERRORS["unreadable"])) % {
        "detail": exc.code,
        **params,
    }
    return ValidationError({READ_ERROR_FIELDS.get(exc.code, "file"): [message]})


def layout_dxf_plan(
    *,
    cell: Cell,
    data: bytes,
    mapping: dict[str, str] | None = None,
    units: str | None = None,
    height_mm: int | None = None,
    source_name: str = "",
) -> ImportPlan:
    """Read ``data`` and check every guard segment it would add to ``cell``,
    writing nothing. ``height_mm``: the height of the guards whose line has
    no thickness in the file. Raises ValidationError keyed by request field
    (``file``, ``units``, ``height_mm``), every problem at once."""
    try:
        dxf = reading.interpret(reading.read_dxf(data), mapping=mapping, units=units)
    except reading.DxfError as exc:
        raise read_error(exc) from exc
    errors: dict[str, list[str]] = {}
    existing = GuardSegment.objects.filter(cell=cell).count()
    if existing + len(dxf.segments) > MAX_GUARD_SEGMENTS:
        errors["file"] = [_too_many(existing, len(dxf.segments))]
    missing_height = sum(1 for line in dxf.segments if line.height_mm is None)
    if missing_height and height_mm is None:
        errors["height_mm"] = [
            _(
                "%(count)s guard lines have no height in the file (no "
                "thickness): give the height of the guards."
            )
            % {"count": missing_height}
        ]
    segments: list[GuardSegment] = []
    if not errors:
        for line in dxf.segments:
            segment = _segment(line, height_mm)
            problems = _problems(segment)
            if problems:
                errors.setdefault("file", []).append(
                    _("%(entity)s %(handle)s on layer %(layer)s: %(problems)s")
                    % {
                        "entity": line.entity,
                        "handle": line.handle,
                        "layer": line.layer,
                        "problems": " ".join(problems),
                    }
                )
            segments.append(segment)
    underlay = None
    if dxf.underlay:
        underlay = LayoutUnderlay(lines=dxf.underlay, source_name=source_name[:255])
        try:
            underlay.full_clean(exclude=["cell"], validate_unique=False)
        except ValidationError as exc:
            errors.setdefault("file", []).extend(exc.messages)
    if errors:
        # A file of many bad lines: the first few say enough.
        raise ValidationError({k: v[:20] for k, v in errors.items()})
    return ImportPlan(dxf=dxf, segments=segments, underlay=underlay)


def layout_dxf_import(
    *,
    cell: Cell,
    data: bytes,
    source_name: str = "",
    mapping: dict[str, str] | None = None,
    units: str | None = None,
    height_mm: int | None = None,
) -> ImportPlan:
    """Import a DXF drawing into ``cell``: its guard lines become guard
    segments added to the layout, its other lines the cell's underlay (the
    previous one is replaced, or removed when the file has none). All or
    nothing: the whole file is checked first (``layout_dxf_plan``), then the
    cap of segments again under a lock on the cell, then it is written."""
    planned = layout_dxf_plan(
        cell=cell,
        data=data,
        mapping=mapping,
        units=units,
        height_mm=height_mm,
        source_name=source_name,
    )
    new = planned.segments
    with transaction.atomic():
        lock_cell(cell.pk)
        # Counted again: another request may have added segments meanwhile.
        existing = GuardSegment.objects.filter(cell_id=cell.pk).count()
        if existing + len(new) > MAX_GUARD_SEGMENTS:
            raise ValidationError({"file": [_too_many(existing, len(new))]})
        for segment in new:
            segment.cell = cell
        GuardSegment.objects.bulk_create(new)
        underlay = planned.underlay
        if underlay is not None:
            LayoutUnderlay.objects.update_or_create(
                cell=cell,
                defaults={"lines": underlay.lines, "source_name": underlay.source_name},
            )
        else:
            LayoutUnderlay.objects.filter(cell=cell).delete()
    return planned


def _segment(line: reading.SegmentLine, height_mm: int | None) -> GuardSegment:
    # The cell is set when written: validated without it, the cap is counted
    # once for the whole file rather than once per segment.
    return GuardSegment(
        label="",
        start_x_mm=line.start_x_mm,
        start_y_mm=line.start_y_mm,
        end_x_mm=line.end_x_mm,
        end_y_mm=line.end_y_mm,
        height_mm=line.height_mm if line.height_mm is not None else height_mm,
        bottom_gap_mm=line.bottom_gap_mm if line.height_mm is not None else 0,
        kind=line.kind,
    )


def _problems(segment: GuardSegment) -> list[str]:
    """The model's own messages for the segment, each with its field named."""
    try:
        segment.full_clean(
            exclude=["cell"], validate_unique=False, validate_constraints=False
        )
    except ValidationError as exc:
        return [
            f"{_field_name(field)}: {message}"
            for field, messages in exc.message_dict.items()
            for message in messages
        ]
    return []


def _field_name(field: str) -> str:
    try:
        return str(GuardSegment._meta.get_field(field).verbose_name)
    except FieldDoesNotExist:  # "__all__"
        return field


def _too_many(existing: int, adding: int) -> str:
    full = cell_full_message(_("guard segments"), MAX_GUARD_SEGMENTS)
    counts = _("It has %(existing)s; this drawing would add %(adding)s.") % {
        "existing": existing,
        "adding": adding,
    }
    return f"{full} {counts}"
