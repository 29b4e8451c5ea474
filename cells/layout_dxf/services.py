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

from dataclasses import dataclass, field

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cells import naming
from cells.exchange import MAX_GUARD_SEGMENTS, MAX_OPENINGS
from cells.layout_dxf import doors, reading
from cells.layout_dxf.models import (
    MAX_REMEMBERED_LAYERS,
    DxfLayerMapping,
    LayoutUnderlay,
)
from cells.models import Cell, GuardSegment, Opening, OpeningPurpose
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
    "too_many_entities_in_blocks": gettext_lazy(
        "The drawing has more than %(limit)s entities, counting those inside "
        "its blocks at each place they are inserted. Send a drawing of the "
        "cell alone."
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
    "nothing_usable": gettext_lazy(
        "The drawing holds nothing that can be imported: no lines, polylines, "
        "arcs, circles, splines or blocks of them in its model space. It holds: "
        "%(kinds)s."
    ),
}
UNITS_MISSING = gettext_lazy(
    "The drawing does not say which units it is drawn in (its header has no "
    "$INSUNITS): choose them, or every length would be guessed."
)
# Which request field each error is about.
READ_ERROR_FIELDS = {"unknown_units": "units"}


@dataclass
class ImportPlan:
    """What an import would create: guard segments, checked and unsaved (no
    cell set yet), and the underlay, with the reading's account of it all."""

    dxf: reading.DxfPlan
    segments: list[GuardSegment]
    underlay: LayoutUnderlay | None  # None: the file has no underlay lines
    # The doors: openings in the cell's guards or in the new ones (their
    # ``segment`` set, unsaved when the segment is new).
    openings: list[Opening] = field(default_factory=list)
    doors_left_out: int = 0  # door lines on no guard and across no gap


def read_error(exc: reading.DxfError) -> ValidationError:
    """The reading's refusal as a ValidationError naming the request field."""
    params = dict(exc.params)
    if "limit" in params:
        params["limit_mb"] = params["limit"] // (1024 * 1024)
        params["limit"] = f"{params['limit']:,}"
    if "count" in params:
        params["count"] = f"{params['count']:,}"
    code = exc.code
    if code == "too_many_entities" and params.get("in_blocks"):
        code = "too_many_entities_in_blocks"
    message = str(READ_ERRORS.get(code, READ_ERRORS["unreadable"])) % {
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
    """Read ``data`` and check every guard segment and door opening it would
    add to ``cell``, writing nothing. ``height_mm``: the height of the guards
    whose line has no thickness in the file. ``units``: required when the
    file does not say its own. Raises ValidationError keyed by request field
    (``file``, ``units``, ``height_mm``), every problem at once."""
    try:
        dxf = reading.interpret(reading.read_dxf(data), mapping=mapping, units=units)
    except reading.DxfError as exc:
        raise read_error(exc) from exc
    errors: dict[str, list[str]] = {}
    if dxf.units_from == "assumed":
        errors["units"] = [str(UNITS_MISSING)]
    existing = list(GuardSegment.objects.filter(cell=cell).prefetch_related("openings"))
    if len(existing) + len(dxf.segments) > MAX_GUARD_SEGMENTS:
        errors["file"] = [_too_many(len(existing), len(dxf.segments))]
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
    openings: list[Opening] = []
    left_out = 0
    if not errors:
        for line in dxf.segments:
            segment = _segment(line, height_mm)
            _refused(errors, line, _problems(segment))
            segments.append(segment)
        bridging, openings, left_out = _doors(dxf, existing, segments, height_mm)
        for line, segment in bridging:
            _refused(errors, line, _problems(segment))
            segments.append(segment)
        if len(existing) + len(segments) > MAX_GUARD_SEGMENTS:
            errors["file"] = [_too_many(len(existing), len(segments))]
        _opening_problems(errors, dxf, existing, openings)
        _name(existing, segments, openings)
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
    return ImportPlan(
        dxf=dxf,
        segments=segments,
        underlay=underlay,
        openings=openings,
        doors_left_out=left_out,
    )


def _refused(
    errors: dict[str, list[str]], line: reading.SegmentLine, problems: list[str]
) -> None:
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


def _doors(
    dxf: reading.DxfPlan,
    existing: list[GuardSegment],
    new: list[GuardSegment],
    height_mm: int | None,
) -> tuple[list[tuple[reading.SegmentLine, GuardSegment]], list[Opening], int]:
    """The door lines placed (``doors``): (the new guards that bridge a gap
    with their door line, the openings, how many doors were left out)."""
    if not dxf.doors:
        return [], [], 0
    guards = [*existing, *new]
    places, left_out = doors.place_doors(
        [((d.start_x_mm, d.start_y_mm), (d.end_x_mm, d.end_y_mm)) for d in dxf.doors],
        [doors.Guard(g.start, g.end, g.height_mm, g.kind) for g in guards],
    )
    bridging: list[tuple[reading.SegmentLine, GuardSegment]] = []
    openings: list[Opening] = []
    for place in places:
        line = dxf.doors[place.door]
        if place.guard is None:
            segment = GuardSegment(
                label="",
                start_x_mm=line.start_x_mm,
                start_y_mm=line.start_y_mm,
                end_x_mm=line.end_x_mm,
                end_y_mm=line.end_y_mm,
                height_mm=place.height_mm or height_mm,
                bottom_gap_mm=0,
                kind=place.kind,
            )
            bridging.append((line, segment))
        else:
            segment = guards[place.guard]
        openings.append(
            Opening(
                segment=segment,
                label=line.name[: Opening._meta.get_field("label").max_length],
                offset_mm=place.offset_mm,
                width_mm=place.width_mm,
                lower_edge_mm=0,
                upper_edge_mm=segment.height_mm,
                purpose=OpeningPurpose.MAINTENANCE_DOOR,
            )
        )
    return bridging, openings, len(left_out)


def _opening_problems(
    errors: dict[str, list[str]],
    dxf: reading.DxfPlan,
    existing: list[GuardSegment],
    openings: list[Opening],
) -> None:
    """Each door's opening checked as the opening form checks one: its shape,
    that it fits its guard, and that it overlaps no opening there (the
    guard's own, or a door placed before it); and the cell's cap."""
    count = sum(len(segment.openings.all()) for segment in existing)
    if count + len(openings) > MAX_OPENINGS:
        errors.setdefault("file", []).append(
            cell_full_message(_("openings"), MAX_OPENINGS)
        )
        return
    placed: dict[int, list[Opening]] = {}
    for opening in openings:
        segment = opening.segment
        others = [
            *(segment.openings.all() if segment.pk else []),
            *placed.get(id(segment), []),
        ]
        problems = opening.shape_errors()
        if segment.height_mm and not problems:
            problems = opening.placement_errors(segment, others)
        if problems:
            errors.setdefault("file", []).append(
                _("Door %(name)s on guard %(segment)s: %(problems)s")
                % {
                    "name": opening.label or _("without a label"),
                    "segment": segment.label or _("from the drawing"),
                    "problems": " ".join(str(p) for p in problems.values()),
                }
            )
        placed.setdefault(id(segment), []).append(opening)


def _name(
    existing: list[GuardSegment], new: list[GuardSegment], openings: list[Opening]
) -> None:
    """The names the drawing gave (a text beside a guard, a block's name),
    made unique in the cell: no two elements share a name, and none takes
    the S2 or O3 an unlabelled one is shown as."""
    taken = {s.label for s in existing if s.label}
    taken |= {o.label for s in existing for o in s.openings.all() if o.label}
    # The names the unlabelled are shown as (S7, O3), by their place.
    for index, segment in enumerate([*existing, *new]):
        if not segment.label:
            taken.add(naming.segment_name("", index))
    existing_openings = [o for s in existing for o in s.openings.all()]
    for index, opening in enumerate([*existing_openings, *openings]):
        if not opening.label:
            taken.add(naming.opening_name("", index))
    limit = GuardSegment._meta.get_field("label").max_length
    for element in [*new, *openings]:
        if element.label:
            element.label = _unique(element.label, taken, limit)
            taken.add(element.label)


def _unique(label: str, taken: set[str], limit: int) -> str:
    if label not in taken:
        return label
    number = 2
    while True:
        suffix = f" ({number})"
        candidate = label[: limit - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
        number += 1


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
    segments added to the layout, its door lines openings in them, its other
    lines the cell's underlay (the previous one is replaced, or removed when
    the file has none). All or nothing: the whole file is checked first
    (``layout_dxf_plan``), then the caps again under a lock on the cell, then
    it is written. The layers ``mapping`` names are remembered for the
    organisation's next import."""
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
        openings = Opening.objects.filter(segment__cell_id=cell.pk).count()
        if openings + len(planned.openings) > MAX_OPENINGS:
            raise ValidationError(
                {"file": [cell_full_message(_("openings"), MAX_OPENINGS)]}
            )
        for segment in new:
            segment.cell = cell
        GuardSegment.objects.bulk_create(new)
        # A door in a new guard takes the guard's id, given by the insert.
        Opening.objects.bulk_create(planned.openings)
        underlay = planned.underlay
        if underlay is not None:
            LayoutUnderlay.objects.update_or_create(
                cell=cell,
                defaults={"lines": underlay.lines, "source_name": underlay.source_name},
            )
        else:
            LayoutUnderlay.objects.filter(cell=cell).delete()
        dxf_layers_remember(
            organisation_id=cell.project.organisation_id,
            mapping={
                layer.name: layer.target
                for layer in planned.dxf.layers
                if mapping and layer.name.casefold() in _keys(mapping)
            },
        )
    return planned


def _keys(mapping: dict[str, str]) -> set[str]:
    return {name.casefold() for name in mapping}


def dxf_layers_remember(*, organisation_id: int, mapping: dict[str, str]) -> None:
    """Keep what each layer became for the organisation's next import (the
    newest choice wins), at most ``MAX_REMEMBERED_LAYERS`` layer names: past
    it, the longest unused are forgotten."""
    if not mapping:
        return
    now = timezone.now()
    DxfLayerMapping.objects.bulk_create(
        [
            DxfLayerMapping(
                organisation_id=organisation_id,
                layer_name=name[:255],
                layer_key=name.casefold()[:255],
                target=target,
                updated_at=now,
            )
            for name, target in mapping.items()
        ],
        update_conflicts=True,
        unique_fields=["organisation", "layer_key"],
        update_fields=["layer_name", "target", "updated_at"],
    )
    stale = DxfLayerMapping.objects.filter(organisation_id=organisation_id).order_by(
        "-updated_at", "-pk"
    )[MAX_REMEMBERED_LAYERS:]
    DxfLayerMapping.objects.filter(
        pk__in=list(stale.values_list("pk", flat=True))
    ).delete()


def _segment(line: reading.SegmentLine, height_mm: int | None) -> GuardSegment:
    # The cell is set when written: validated without it, the cap is counted
    # once for the whole file rather than once per segment.
    return GuardSegment(
        label=line.name[: GuardSegment._meta.get_field("label").max_length],
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
