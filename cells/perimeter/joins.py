"""Joining segment ends into loops and chains, and pairing the free ends of
open chains into unguarded gaps. Pure Python, no Django."""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence

from cells import geometry
from cells.perimeter.inputs import (
    JOIN_TOLERANCE_MM,
    Opening,
    Point,
    Segment,
    gettext_noop,
)

# --- The working -------------------------------------------------------------

NOTE_JUNCTION = gettext_noop(
    "%(count)s segment ends meet within %(tolerance)s mm of one another near "
    "(%(x)s, %(y)s), segments %(segments)s: the nearest ends were joined, any "
    "end left over counts as free."
)
NOTE_AMBIGUOUS_GAP = gettext_noop(
    "Gap %(gap)s: another free end is about as near, so which ends face each "
    "other is uncertain; its width is not a measurement."
)
NOTE_STRAIGHT_GAP = gettext_noop(
    "Gap %(gap)s joins the two ends of a straight run of guard: nothing else "
    "is there to close it."
)
NOTE_APART = gettext_noop(
    "%(segments)s stand apart from the loop round the hazard zone: they neither "
    "close it nor open a gap in it."
)
NOTE_NOT_SIMPLE = gettext_noop(
    "Loop %(loop)s crosses or touches itself: only what it winds round counts "
    "as inside it."
)
NOTE_BOUND = gettext_noop(
    "Loop %(loop)s is not convex: the reach past it is an upper bound, at most "
    "%(uncertainty)s mm above the true figure."
)


def _unique_keys(base_keys: list[str]) -> list[str]:
    """The keys, with "#2", "#3"... added to the second and later of a kind."""
    seen: dict[str, int] = {}
    keys = []
    for key in base_keys:
        seen[key] = seen.get(key, 0) + 1
        keys.append(key if seen[key] == 1 else f"{key}#{seen[key]}")
    return keys


def _pair_key(prefix: str, a: str, b: str) -> str:
    """The key of an item between two segments, the same either way round."""
    first, second = sorted((a, b))
    return f"{prefix}:{first}-{second}"


Steps = list[tuple[int, bool]]  # a run of segments: (index, run end to start)


def _join_ends(
    segments: Sequence[Segment],
) -> tuple[list[int], list[list[int]]]:
    """Which segment end is joined to which: end ``2i`` is segment i's start,
    ``2i + 1`` its end; -1 where free. Also the groups of three or more ends
    within the tolerance of one another."""
    ends = [p for s in segments for p in (s.start, s.end)]
    candidates = sorted(
        (geometry.squared_distance_mm2(ends[i], ends[j]), i, j)
        for i, j in geometry.close_pairs(ends, JOIN_TOLERANCE_MM)
        if i // 2 != j // 2
    )
    partner = [-1] * len(ends)
    parent = list(range(len(ends)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for _, i, j in candidates:
        parent[root(i)] = root(j)
        if partner[i] < 0 and partner[j] < 0:
            partner[i], partner[j] = j, i
    groups: dict[int, list[int]] = {}
    for _, i, j in candidates:
        for e in (i, j):
            groups.setdefault(root(e), [])
            if e not in groups[root(e)]:
                groups[root(e)].append(e)
    junctions = [sorted(g) for g in groups.values() if len(g) >= 3]
    return partner, sorted(junctions)


def _runs(count: int, partner: Sequence[int]) -> list[tuple[Steps, bool]]:
    """Follow the joins from segment to segment: open chains first (from a free
    end), then what is left, which can only be closed loops."""
    visited = [False] * count
    runs = []

    def follow(i: int, entry: int) -> tuple[Steps, bool]:
        steps: Steps = []
        while True:
            visited[i] = True
            steps.append((i, entry == 1))
            nxt = partner[2 * i + 1 - entry]
            if nxt < 0:
                return steps, False
            i, entry = divmod(nxt, 2)
            if visited[i]:
                return steps, True

    for i in range(count):
        if not visited[i] and partner[2 * i] < 0:
            runs.append(follow(i, 0))
        elif not visited[i] and partner[2 * i + 1] < 0:
            runs.append(follow(i, 1))
    for i in range(count):
        if not visited[i]:
            runs.append(follow(i, 0))
    return runs


def _oriented(segment: Segment, reverse: bool) -> tuple[Point, Point]:
    """The segment's two ends in the order a run passes them."""
    return (segment.end, segment.start) if reverse else (segment.start, segment.end)


def _outline(segments: Sequence[Segment], steps: Steps) -> list[Point]:
    """The corners a run passes: each segment's ends, a shared end once."""
    points: list[Point] = []
    for i, reverse in steps:
        for p in _oriented(segments[i], reverse):
            if not points or points[-1] != p:
                points.append(p)
    return points


def _reversed_steps(steps: Steps) -> Steps:
    """The same run walked the other way."""
    return [(i, not reverse) for i, reverse in reversed(steps)]


def _canonical_loop(segments: Sequence[Segment], steps: Steps) -> Steps:
    """The loop run anticlockwise from its smallest segment key, so the same
    loop comes out the same however its segments were entered."""

    def from_smallest(s: Steps) -> Steps:
        k = min(range(len(s)), key=lambda n: s[n][0])
        return s[k:] + s[:k]

    steps = from_smallest(steps)
    points = _outline(segments, steps)
    if points[0] == points[-1]:
        points.pop()
    area = geometry.signed_area_mm2(points)
    if area < 0 or (area == 0 and len(steps) > 1 and steps[-1][0] < steps[1][0]):
        steps = from_smallest(_reversed_steps(steps))
    return steps


def _opening_keys(
    steps: Steps,
    segments: Sequence[Segment],
    by_segment: dict[str, list[Opening]],
) -> tuple[str, ...]:
    """The openings of a run in the order it passes them."""
    keys = []
    for i, reverse in steps:
        along = sorted(by_segment.get(segments[i].key, []), key=lambda o: o.offset_mm)
        keys.extend(o.key for o in (reversed(along) if reverse else along))
    return tuple(keys)


def _is_straight(points: Sequence[Point]) -> bool:
    """Whether a run's corners all lie on one line (a single panel, say)."""
    a = points[0]
    b = next((p for p in points if p != a), a)
    return all(
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) == 0
        for p in points
    )


def _pair_free_ends(
    ends: Sequence[Point], chain_of: Sequence[int], straight: Sequence[bool]
) -> list[tuple[int, int]]:
    """Pair the free ends, nearest pair first over the whole plan.

    Exactly the greedy pairing over every pair, but found in rounds of
    doubling radius so that only near pairs are ever compared: a round
    settles every pair closer than its radius, in order of distance.
    """

    def allowed(i: int, j: int) -> bool:
        return chain_of[i] != chain_of[j] or not straight[chain_of[i]]

    remaining = list(range(len(ends)))
    pairs = []
    radius = JOIN_TOLERANCE_MM
    while len(remaining) >= 2:
        if len(remaining) == 2 and not allowed(*remaining):
            pairs.append((remaining[0], remaining[1]))  # nothing else left
            break
        subset = [ends[k] for k in remaining]
        candidates = sorted(
            (
                geometry.squared_distance_mm2(subset[a], subset[b]),
                remaining[a],
                remaining[b],
            )
            for a, b in geometry.close_pairs(subset, radius)
            if allowed(remaining[a], remaining[b])
        )
        taken: set[int] = set()
        for _, i, j in candidates:
            if i not in taken and j not in taken:
                taken.update((i, j))
                pairs.append((i, j))
        remaining = [k for k in remaining if k not in taken]
        radius *= 2
    return pairs


def _contested(
    pairs: Sequence[tuple[int, int]],
    ends: Sequence[Point],
    chain_of: Sequence[int],
    straight: Sequence[bool],
) -> set[tuple[int, int]]:
    """The pairs for which some other free end is within the gap's width (plus
    the tolerance) of one of its ends: the pairing could have gone otherwise."""
    order = sorted(range(len(ends)), key=lambda k: ends[k][0])
    xs = [ends[k][0] for k in order]
    contested = set()
    for i, j in pairs:
        reach = (
            math.sqrt(geometry.squared_distance_mm2(ends[i], ends[j]))
            + JOIN_TOLERANCE_MM
        )
        for here in (i, j):
            lo = bisect.bisect_left(xs, ends[here][0] - reach)
            for k in order[lo:]:
                if ends[k][0] > ends[here][0] + reach:
                    break
                if k in (i, j):
                    continue
                if chain_of[k] == chain_of[here] and straight[chain_of[k]]:
                    continue
                if geometry.squared_distance_mm2(ends[here], ends[k]) < reach * reach:
                    contested.add((i, j))
    return contested
