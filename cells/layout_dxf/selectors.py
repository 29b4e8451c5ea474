"""Reads of the DXF feature: the underlay of a cell's plan."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist

from cells.models import Cell, DxfLayerMapping


def underlay_lines(cell: Cell) -> list[list[int]]:
    """The lines [x1, y1, x2, y2] (mm) drawn behind the cell's plan, none
    without an import. Free with ``cell_with_layout(..., with_underlay=True)``
    (the row comes with the cell); one query otherwise."""
    try:
        return list(cell.underlay.lines)
    except ObjectDoesNotExist:
        return []


def remembered_targets(organisation_id: int, layer_names: list[str]) -> dict[str, str]:
    """What the organisation's layers of these names became at its last
    import, by the name casefolded: one query."""
    keys = {name.casefold()[:255] for name in layer_names}
    if not keys:
        return {}
    return dict(
        DxfLayerMapping.objects.filter(
            organisation_id=organisation_id, layer_key__in=keys
        ).values_list("layer_key", "target")
    )
