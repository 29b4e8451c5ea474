"""The names the drawing gives its guard segments and doors: a text beside
the line, else the block it was drawn in. Pure (numpy, which ezdxf brings),
no Django."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

Ends = tuple[float, float, float, float]
# Text against line distances worked out at once, at most this many.
_CHUNK = 500_000


def text_names(
    lines: Sequence[Ends], texts: Sequence[tuple[float, float, str]], reach: float
) -> list[str]:
    """For each line (x1, y1, x2, y2), the text (x, y, words) nearest to it
    among those within ``reach`` of it and nearer to it than to any other
    line (on a tie, the line first in ``lines``); "" for none. All in the
    same units."""
    names = [""] * len(lines)
    if not lines or not texts:
        return names
    ends = np.asarray(lines, dtype=float)
    ax, ay = ends[:, 0], ends[:, 1]
    dx, dy = ends[:, 2] - ax, ends[:, 3] - ay
    squared = dx * dx + dy * dy
    squared[squared == 0] = 1.0  # a point: t = 0 below, its distance to it
    points = np.asarray([(x, y) for x, y, _words in texts], dtype=float)
    nearest = np.empty(len(texts), dtype=int)
    distance = np.empty(len(texts), dtype=float)
    step = max(1, _CHUNK // len(lines))
    with np.errstate(all="ignore"):
        for first in range(0, len(texts), step):
            px = points[first : first + step, 0:1] - ax
            py = points[first : first + step, 1:2] - ay
            t = np.clip((px * dx + py * dy) / squared, 0.0, 1.0)
            gap = np.hypot(px - t * dx, py - t * dy)
            gap[np.isnan(gap)] = np.inf
            index = gap.argmin(axis=1)  # the first of equals: file order
            nearest[first : first + step] = index
            distance[first : first + step] = gap[np.arange(len(index)), index]
    best: dict[int, tuple[float, int]] = {}
    for i, (line, gap) in enumerate(
        zip(nearest.tolist(), distance.tolist(), strict=True)
    ):
        if gap <= reach and (line not in best or gap < best[line][0]):
            best[line] = (gap, i)
    for line, (_gap, i) in best.items():
        names[line] = texts[i][2]
    return names


def block_names(
    names: Sequence[str], blocks: Sequence[str], max_chars: int
) -> list[str]:
    """``names``, each "" taking the name of the block its line was drawn in
    (``blocks``, "" for none): "FENCE_PANEL", or when several lines take one
    block's name, "FENCE_PANEL 1", "FENCE_PANEL 2"... in their order."""
    taking = Counter(
        block for name, block in zip(names, blocks, strict=True) if not name and block
    )
    numbered: Counter[str] = Counter()
    result = []
    for name, block in zip(names, blocks, strict=True):
        if name or not block:
            result.append(name)
            continue
        suffix = ""
        if taking[block] > 1:
            numbered[block] += 1
            suffix = f" {numbered[block]}"
        result.append(block[: max_chars - len(suffix)].rstrip() + suffix)
    return result
