"""Reads of the DXF feature: the underlay of a cell's plan."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist

from cells.models import Cell


def underlay_lines(cell: Cell) -> list[list[int]]:
    """The lines [x1, y1, x2, y2] (mm) drawn behind the cell's plan, none
    without an import. Free with ``cell_with_layout(..., with_underlay=True)``
    (the row comes with the cell); one query otherwise."""
    try:
        return list(cell.underlay.lines)
    except ObjectDoesNotExist:
        return []
