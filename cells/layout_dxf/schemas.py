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
    underlay_lines: int = Field(ge=0)


class DxfSkipped(_Shown):
    """Entities or pieces left out, for one reason and entity type:
    ``unsupported_entity`` (not a line: CIRCLE, ARC, TEXT, INSERT...),
    ``polyline_arc`` (an arc inside a polyline on a guard layer: a guard
    segment is straight), ``zero_length``, ``layer_ignored``,
    ``off_the_plan`` (an underlay line past 100 m), ``underlay_full``."""

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


def import_result(cell_id: int, plan: DxfPlan) -> DxfImportResult:
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
            underlay_lines=len(plan.underlay),
            **{kind: by_kind[kind] for kind in GUARD_KINDS},
        ),
        skipped=skipped,
        skipped_total=sum(s.count for s in skipped),
        layers=[
            DxfLayer(name=layer.name, entities=layer.entities, mapped_to=layer.target)
            for layer in plan.layers
        ],
    )
