"""The name of each element of a cell's layout: the one the plan shows, and
the one the lists, the findings, the cost lines, the hazard form's places,
the safety functions and the PDF repeat. An element's label when it has
one; else a letter and its number: guard segments S1, S2... in the order
they were drawn, openings O1, O2... through the whole cell (segment by
segment, along each), so that no two elements share a name. An opening
named beside its segment ("S2 / O3") is its place. Pure, no Django."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def segment_name(label: str, index: int) -> str:
    """A guard segment's name: its label, else S and its place in the cell."""
    return label or f"S{index + 1}"


def opening_name(label: str, index: int) -> str:
    """An opening's name: its label, else O and its place in the cell."""
    return label or f"O{index + 1}"


def opening_place(segment: str, opening: str) -> str:
    """An opening named with its segment's name: "S2 / O3", "F1 / Infeed"."""
    return f"{segment} / {opening}"


def layout_names(
    segments: Iterable[tuple[str, Sequence[str]]],
) -> list[tuple[str, list[str]]]:
    """The names of a cell's segments and their openings, from each segment's
    label and its openings' labels, segments in the order they were drawn and
    openings along each."""
    names: list[tuple[str, list[str]]] = []
    count = 0
    for index, (label, openings) in enumerate(segments):
        opening_names = [opening_name(o, count + i) for i, o in enumerate(openings)]
        count += len(opening_names)
        names.append((segment_name(label, index), opening_names))
    return names
