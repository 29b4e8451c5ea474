"""``analyse_perimeter``: the loops, chains, gaps and enclosure of one plan,
put together. Pure Python with pydantic, no Django."""

from __future__ import annotations

from collections.abc import Sequence

from cells import geometry
from cells.perimeter.enclosure import _enclosure
from cells.perimeter.inputs import (
    JOIN_TOLERANCE_MM,
    Layout,
    Opening,
    Point,
    Segment,
    _Zone,
)
from cells.perimeter.joins import (
    NOTE_AMBIGUOUS_GAP,
    NOTE_APART,
    NOTE_JUNCTION,
    NOTE_NOT_SIMPLE,
    NOTE_STRAIGHT_GAP,
    Steps,
    _canonical_loop,
    _contested,
    _is_straight,
    _join_ends,
    _opening_keys,
    _outline,
    _pair_free_ends,
    _pair_key,
    _reversed_steps,
    _runs,
    _unique_keys,
)
from cells.perimeter.results import (
    Chain,
    FreeEnd,
    Gap,
    Join,
    Junction,
    Loop,
    Note,
    OpeningReport,
    PerimeterResult,
    SegmentReport,
)


def _end_point(segments: Sequence[Segment], end: int) -> Point:
    """Where segment end ``end`` (``2i`` start, ``2i + 1`` end) lies."""
    segment = segments[end // 2]
    return segment.end if end % 2 else segment.start


def _junctions(
    segments: Sequence[Segment], groups: Sequence[Sequence[int]]
) -> tuple[list[Junction], list[Note]]:
    """The places where three or more ends met, each with its note."""
    junctions, notes = [], []
    for group in groups:
        points = [_end_point(segments, e) for e in group]
        middle = (
            sum(p[0] for p in points) / len(points),
            sum(p[1] for p in points) / len(points),
        )
        keys = tuple(sorted({segments[e // 2].key for e in group}))
        junctions.append(
            Junction(key="junction:" + "-".join(keys), point=middle, segment_keys=keys)
        )
        values = {
            "count": len(group),
            "tolerance": JOIN_TOLERANCE_MM,
            "x": round(middle[0], 1),
            "y": round(middle[1], 1),
            "segments": ", ".join(keys),
        }
        notes.append(Note(text=NOTE_JUNCTION, values=values))
    unique = _unique_keys([j.key for j in junctions])
    return [
        j.model_copy(update={"key": k}) for j, k in zip(junctions, unique, strict=True)
    ], notes


def _joins(
    segments: Sequence[Segment], partner: Sequence[int], zone: _Zone
) -> list[Join]:
    """Every join, with the width left between its two ends."""
    pairs = sorted({(min(e, p), max(e, p)) for e, p in enumerate(partner) if p >= 0})
    keys = _unique_keys(
        [
            _pair_key("join", segments[a // 2].key, segments[b // 2].key)
            for a, b in pairs
        ]
    )
    joins = []
    for key, (a, b) in zip(keys, pairs, strict=True):
        pa, pb = _end_point(segments, a), _end_point(segments, b)
        joins.append(
            Join(
                key=key,
                segment_keys=(segments[a // 2].key, segments[b // 2].key),
                points=(pa, pb),
                width_mm=geometry.distance_mm(pa, pb),
                distance=zone.distance_to_segment(pa, pb),
            )
        )
    return joins


def _loop(
    segments: Sequence[Segment], run: Steps, by_segment: dict[str, list[Opening]]
) -> Loop:
    """A closed run as a ``Loop``: anticlockwise from its smallest key."""
    steps = _canonical_loop(segments, run)
    points = _outline(segments, steps)
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()
    return Loop(
        key=f"loop:{segments[steps[0][0]].key}",
        segment_keys=tuple(segments[i].key for i, _ in steps),
        points=tuple(points),
        area_mm2=abs(geometry.signed_area_mm2(points)),
        convex=geometry.polygon_is_convex(points),
        simple=geometry.polygon_is_simple(points),
        opening_keys=_opening_keys(steps, segments, by_segment),
    )


def _chain(
    segments: Sequence[Segment],
    run: Steps,
    by_segment: dict[str, list[Opening]],
    junction_ends: set[int],
) -> Chain:
    """An open run as a ``Chain`` with its two free ends."""
    flipped = _reversed_steps(run)
    # From the end with the smaller key; a single segment runs its own way.
    steps = (
        flipped if (flipped[0][0], flipped[-1][0]) < (run[0][0], run[-1][0]) else run
    )
    points = _outline(segments, steps)
    (first, first_reversed), (last, last_reversed) = steps[0], steps[-1]
    first_end = 2 * first + (1 if first_reversed else 0)
    last_end = 2 * last + (0 if last_reversed else 1)
    return Chain(
        key=f"chain:{min(segments[i].key for i, _ in steps)}",
        segment_keys=tuple(segments[i].key for i, _ in steps),
        points=tuple(points),
        ends=(
            FreeEnd(
                segment_key=segments[first].key,
                point=points[0],
                at_junction=first_end in junction_ends,
            ),
            FreeEnd(
                segment_key=segments[last].key,
                point=points[-1],
                at_junction=last_end in junction_ends,
            ),
        ),
        opening_keys=_opening_keys(steps, segments, by_segment),
    )


def _gaps(chains: Sequence[Chain], zone: _Zone) -> tuple[list[Gap], list[Note]]:
    """The unguarded gaps between the free ends of the open chains."""
    free_ends = [end for chain in chains for end in chain.ends]
    chain_of = [k // 2 for k in range(len(free_ends))]
    straight = [_is_straight(chain.points) for chain in chains]
    points = [end.point for end in free_ends]
    pairs = _pair_free_ends(points, chain_of, straight)
    contested = _contested(pairs, points, chain_of, straight)

    def names(pair: tuple[int, int]) -> list[str]:
        return sorted(free_ends[k].segment_key for k in pair)

    pairs.sort(key=lambda pair: (names(pair), pair))
    keys = _unique_keys([_pair_key("gap", *names(pair)) for pair in pairs])
    gaps, notes = [], []
    for key, (i, j) in zip(keys, pairs, strict=True):
        a, b = free_ends[i], free_ends[j]
        ambiguous = (i, j) in contested or a.at_junction or b.at_junction
        gaps.append(
            Gap(
                key=key,
                ends=(a, b),
                width_mm=geometry.distance_mm(a.point, b.point),
                distance=zone.distance_to_segment(a.point, b.point),
                ambiguous=ambiguous,
            )
        )
        if ambiguous:
            notes.append(Note(text=NOTE_AMBIGUOUS_GAP, values={"gap": key}))
        elif chain_of[i] == chain_of[j] and straight[chain_of[i]]:
            notes.append(Note(text=NOTE_STRAIGHT_GAP, values={"gap": key}))
    return gaps, notes


def _opening_report(
    opening: Opening, segment: Segment, part_of: str, zone: _Zone
) -> OpeningReport:
    """An opening placed on the plan and measured from the zone."""
    a = geometry.point_along(segment.start, segment.end, opening.offset_mm)
    b = geometry.point_along(
        segment.start, segment.end, opening.offset_mm + opening.width_mm
    )
    return OpeningReport(
        key=opening.key,
        segment_key=opening.segment_key,
        start=a,
        end=b,
        width_mm=opening.width_mm,
        lower_edge_mm=opening.lower_edge_mm,
        upper_edge_mm=opening.upper_edge_mm,
        part_of=part_of,
        distance=zone.distance_to_segment(a, b),
    )


def analyse_perimeter(layout: Layout) -> PerimeterResult:
    """Work out the perimeter of one plan: the loops and open chains its guard
    segments form, the unguarded gaps, whether a loop encloses the hazard zone
    (the safeguarded space), and the distance from the zone to every segment,
    opening, join and gap. The choices made are in the module docstring."""
    zone = layout.zone
    # Sorted by key, so the input order cannot matter and ties go by key.
    segments = sorted(layout.segments, key=lambda s: s.key)
    by_segment: dict[str, list[Opening]] = {}
    for opening in layout.openings:
        by_segment.setdefault(opening.segment_key, []).append(opening)
    partner, junction_groups = _join_ends(segments)
    junctions, notes = _junctions(segments, junction_groups)
    junction_ends = {e for group in junction_groups for e in group}

    loops: list[Loop] = []
    chains: list[Chain] = []
    for run, closed in _runs(len(segments), partner):
        if closed:
            loops.append(_loop(segments, run, by_segment))
        else:
            chains.append(_chain(segments, run, by_segment, junction_ends))
    loops.sort(key=lambda loop: loop.key)
    chains.sort(key=lambda chain: chain.key)
    notes += [
        Note(text=NOTE_NOT_SIMPLE, values={"loop": loop.key})
        for loop in loops
        if not loop.simple and len(loop.points) >= 3
    ]
    enclosure, space, enclosure_notes = _enclosure(zone, loops)
    if enclosure.enclosed:
        # A loop keeps every person out of the hazard zone: the free ends of
        # guards apart from it (a building wall beyond the fence, a screen
        # inside it) open no gap in it (issue 31). They stay on the plan.
        gaps, gap_notes = [], []
        if chains:
            apart = ", ".join(key for chain in chains for key in chain.segment_keys)
            gap_notes.append(Note(text=NOTE_APART, values={"segments": apart}))
    else:
        gaps, gap_notes = _gaps(chains, zone)
    notes += gap_notes + enclosure_notes

    part_of = {key: run.key for run in (*loops, *chains) for key in run.segment_keys}
    by_key = {s.key: s for s in segments}
    return PerimeterResult(
        join_tolerance_mm=JOIN_TOLERANCE_MM,
        zone=zone,
        segments=tuple(
            SegmentReport(
                key=s.key,
                kind=s.kind,
                start=s.start,
                end=s.end,
                length_mm=s.length_mm,
                height_mm=s.height_mm,
                lower_edge_mm=s.lower_edge_mm,
                part_of=part_of[s.key],
                distance=zone.distance_to_segment(s.start, s.end),
            )
            for s in segments
        ),
        openings=tuple(
            _opening_report(o, by_key[o.segment_key], part_of[o.segment_key], zone)
            for o in sorted(layout.openings, key=lambda o: o.key)
        ),
        loops=tuple(loops),
        chains=tuple(chains),
        joins=tuple(_joins(segments, partner, zone)),
        junctions=tuple(junctions),
        gaps=tuple(gaps),
        enclosure=enclosure,
        safeguarded_space=space,
        notes=tuple(notes),
    )
