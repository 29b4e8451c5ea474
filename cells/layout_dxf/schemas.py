"""The DXF import's answer, as typed models: what ``POST
/api/v1/cells/{id}/layout/dxf/`` answers, field by field, and its errors.
drf-spectacular reads these for the schema, and the view passes its data
through them, so the two cannot drift apart. Pure pydantic, no Django."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from cells.layout_dxf.reading import (
    GUARD_KINDS,
    DxfPlan,
    SkipReason,
    Target,
    UnitName,
    UnitsFrom,
)


class _Shown(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DxfCreated(_Shown):
    """What the import created: guard segments, in all and per kind, and the
    lines of the underlay now drawn behind the plan (it replaced the last)."""

    guard_segments: int = Field(ge=0)
    fence: int = Field(ge=0)
    wall: int = Field(ge=0)
    machine_body: int = Field(ge=0)
    # Doors: openings in the guards they lie on (a door across a gap in a
    # fence line is counted in guard_segments too, the guard it makes).
    openings: int = Field(ge=0, default=0)
    underlay_lines: int = Field(ge=0)


class DxfSkipped(_Shown):
    """Entities or pieces left out, for one reason and entity type:
    ``unsupported_entity`` (POINT, HATCH, DIMENSION, 3DSOLID...), ``text``
    (TEXT, MTEXT, ATTRIB: read only to name the guard beside them),
    ``zero_length``, ``layer_ignored``, ``off_the_plan`` (an underlay line
    past 100 m), ``underlay_full``, ``block_too_deep`` (nested past 8 levels,
    or inside itself), ``block_missing``, ``curve_too_complex``."""

    reason: SkipReason
    entity_type: str  # the DXF entity type: LINE, CIRCLE, LWPOLYLINE...
    count: int = Field(ge=1)


class DxfLayer(_Shown):
    """A layer of the drawing's model space: its entities counted by type,
    and what it was read as."""

    name: str
    entities: dict[str, int]
    mapped_to: Target


class DxfImportResult(_Shown):
    """The account of an import: the units read, what was created and what
    was skipped, and the layers found."""

    cell: int
    units: UnitName
    units_from: UnitsFrom  # request, the file's $INSUNITS, or assumed mm
    created: DxfCreated
    skipped: list[DxfSkipped]
    skipped_total: int = Field(ge=0)
    # Door lines on no guard and across no gap: left out.
    doors_left_out: int = Field(ge=0, default=0)
    # The guards' and doors' names read from the drawing, in file order.
    names: list[str] = []
    layers: list[DxfLayer]


class DxfImportErrors(BaseModel):
    """Why nothing was imported, by request field: ``file`` (unreadable,
    too large, too many entities, a line the layout refuses: past 100 m, too
    many segments...), ``units``, ``mapping``, ``height_mm``."""

    file: list[str] = []
    units: list[str] = []
    # A layer's wrong kind is named by its layer: {"FENCE": ["..."]}.
    mapping: list[str] | dict[str, list[str]] = []
    height_mm: list[str] = []


def import_result(
    cell_id: int,
    plan: DxfPlan,
    *,
    openings: int = 0,
    doors_left_out: int = 0,
    names: list[str] | None = None,
) -> DxfImportResult:
    by_kind = plan.segments_by_kind()
    skipped = [
        DxfSkipped(reason=reason, entity_type=entity, count=count)
        for (reason, entity), count in sorted(plan.skipped.items())
    ]
    return DxfImportResult(
        cell=cell_id,
        units=plan.units,
        units_from=plan.units_from,
        created=DxfCreated(
            guard_segments=len(plan.segments),
            openings=openings,
            underlay_lines=len(plan.underlay),
            **{kind: by_kind[kind] for kind in GUARD_KINDS},
        ),
        skipped=skipped,
        skipped_total=sum(s.count for s in skipped),
        doors_left_out=doors_left_out,
        names=names or [],
        layers=[
            DxfLayer(name=layer.name, entities=layer.entities, mapped_to=layer.target)
            for layer in plan.layers
        ],
    )
