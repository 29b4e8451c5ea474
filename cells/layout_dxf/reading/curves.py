"""Curves seen from above, and the straight chords that stand for them. Pure
(ezdxf's construction tools), no Django.

A curve is kept as its geometry in the drawing's units and world x, y (the
plan: z dropped), and cut into chords only when the units are known
(``interpret``), so that the tolerance is one in millimetres whatever the
drawing's units. Every chord lies within ``tolerance`` of the curve it stands
for, and the curve within ``tolerance`` of its chords, up to ``cap`` chords a
curve (past it the chords are spread as evenly as the cap allows):

- an arc of a circle or an ellipse, uniformly in its parameter: an arc of
  the unit circle over an angle a lies within 1 - cos a/2 of its chord, and
  the ellipse seen from above (a tilted circle too) is the unit circle under
  a linear map, which stretches that gap by its largest radius at most;
- a spline (B-spline, rational or not), uniformly within each knot span:
  a curve C lies within h² max|C''| / 8 of its chord over a parameter step
  h, and max|C''| over a span is bounded from the control points of the
  derivatives there (a spline lies in the hull of its control points; so do
  its derivatives). The bound is loose for a rational spline of very
  uneven weights, which meets the cap sooner.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from ezdxf.math import BSpline, ConstructionEllipse

Point = tuple[float, float]

# A chord spans at most a quarter of an arc, whatever the tolerance: a tiny
# circle is still a closed square rather than one zero-length piece.
_QUARTER = math.pi / 2


@dataclass(frozen=True, slots=True)
class Arc:
    """An arc of an ellipse seen from above: (cx, cy) + a cos t + b sin t for
    t from ``start`` over ``span`` radians (negative: clockwise). A circle's
    a and b are perpendicular radii; a tilted one's are shortened."""

    cx: float
    cy: float
    ax: float
    ay: float
    bx: float
    by: float
    start: float
    span: float

    @classmethod
    def of(cls, ellipse: ConstructionEllipse) -> Arc:
        """From ezdxf's ellipse (ARC, CIRCLE and ELLIPSE in world coordinates),
        which runs counter-clockwise round its extrusion from start to end."""
        c, a, b = ellipse.center, ellipse.major_axis, ellipse.minor_axis
        return cls(
            c.x, c.y, a.x, a.y, b.x, b.y, ellipse.start_param, ellipse.param_span
        )

    @property
    def least_chords(self) -> int:
        return 1

    def radius(self) -> float:
        """The largest distance from the centre of the ellipse seen from above
        (the larger singular value of the map from the unit circle)."""
        total = self.ax**2 + self.ay**2 + self.bx**2 + self.by**2
        det = self.ax * self.by - self.ay * self.bx
        return math.sqrt((total + math.sqrt(max(total**2 - 4 * det**2, 0.0))) / 2)

    def chord_count(self, tolerance: float, cap: int) -> int:
        radius = self.radius()
        step = _QUARTER
        if radius > tolerance:
            step = min(2 * math.acos(1 - tolerance / radius), _QUARTER)
        needed = abs(self.span) / step if step > 0 else math.inf
        if not math.isfinite(needed):  # a radius past any float's precision
            return cap
        return max(1, min(math.ceil(needed - 1e-9), cap))

    def points(self, tolerance: float, cap: int) -> list[Point]:
        count = self.chord_count(tolerance, cap)
        return [self._at(self.start + self.span * i / count) for i in range(count + 1)]

    def _at(self, t: float) -> Point:
        cos, sin = math.cos(t), math.sin(t)
        return (
            self.cx + self.ax * cos + self.bx * sin,
            self.cy + self.ay * cos + self.by * sin,
        )


@dataclass(frozen=True, slots=True, eq=False)
class Spline:
    """A B-spline (ezdxf's, in world coordinates), the distinct knots of its
    domain, and for each span between them a bound on its second derivative
    in x, y (inf when there is none)."""

    curve: BSpline
    knots: tuple[float, ...]
    bends: tuple[float, ...]

    @classmethod
    def of(cls, curve: BSpline) -> Spline:
        degree, count = curve.degree, curve.count
        knots = [float(k) for k in curve.knots()]
        points = [(v.x, v.y) for v in curve.control_points]
        weights = [float(w) for w in curve.weights()] or [1.0] * count
        # The curve is drawn over [u_p, u_n+1] (a clamped spline's whole
        # knot vector; an open one's less its ends); on the span from u_j to
        # u_j+1 it depends on the control points j - p to j alone.
        spans = [j for j in range(degree, count) if knots[j] < knots[j + 1]]
        domain = [knots[j] for j in spans] + [knots[spans[-1] + 1]] if spans else []
        bends = [_bend(points, weights, knots, degree, j - degree) for j in spans]
        return cls(curve, tuple(domain), tuple(bends))

    @property
    def least_chords(self) -> int:
        return max(len(self.knots) - 1, 1)

    def _counts(self, tolerance: float, cap: int) -> list[int]:
        spans = [b - a for a, b in itertools.pairwise(self.knots)]
        needed = [
            span * math.sqrt(bend / (8 * tolerance)) if bend > 0 else 0.0
            for span, bend in zip(spans, self.bends, strict=True)
        ]
        total = sum(needed)
        if not math.isfinite(total):  # evenly over the domain, up to the cap
            whole = sum(spans) or 1.0
            return [max(1, math.floor(cap * span / whole)) for span in spans]
        if total > cap:
            return [max(1, math.floor(n * cap / total)) for n in needed]
        return [max(1, math.ceil(n - 1e-9)) for n in needed]

    def chord_count(self, tolerance: float, cap: int) -> int:
        return sum(self._counts(tolerance, cap))

    def points(self, tolerance: float, cap: int) -> list[Point]:
        if len(self.knots) < 2:
            return []
        params: list[float] = []
        counts = self._counts(tolerance, cap)
        for (a, b), n in zip(itertools.pairwise(self.knots), counts, strict=True):
            params.extend(a + (b - a) * i / n for i in range(n))
        params.append(self.knots[-1])
        return [(p.x, p.y) for p in self.curve.points(params)]


def _bend(
    points: list[Point], weights: list[float], knots: list[float], p: int, first: int
) -> float:
    """A bound on |C''| in x, y over the span whose control points are the
    p + 1 from ``first`` ("The NURBS Book" 3.3 and 4.3). In homogeneous form
    C = A / w, with A and w splines of control points w_i P_i and w_i: C' =
    (A' - C w') / w and C'' = (A'' - 2 C' w' - C w'') / w; each of A', A'',
    w', w'' is bounded by its own control points over the span, |C| by the
    largest |P_i| (taken from the middle of their box), w by the smallest
    weight."""
    window = range(first, first + p + 1)
    xs, ys = [points[i][0] for i in window], [points[i][1] for i in window]
    low = min(weights[i] for i in window)
    if low <= 0:
        return math.inf  # not a NURBS a CAD program writes: no bound
    mid_x, mid_y = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    reach = max(math.hypot(x - mid_x, y - mid_y) for x, y in zip(xs, ys, strict=True))
    homogeneous = [
        (
            weights[i] * (points[i][0] - mid_x),
            weights[i] * (points[i][1] - mid_y),
            weights[i],
        )
        for i in window
    ]
    one = _derivative(homogeneous, knots, p, first, 1)
    two = _derivative(one, knots, p - 1, first, 2)
    a1, w1 = _largest(one)
    a2, w2 = _largest(two)
    speed = (a1 + reach * w1) / low  # floats overflow to inf (or nan), unraised
    bend = (a2 + 2 * speed * w1 + reach * w2) / low
    return bend if math.isfinite(bend) else math.inf


def _derivative(
    points: list[tuple[float, float, float]],
    knots: list[float],
    degree: int,
    first: int,
    shift: int,
) -> list[tuple[float, float, float]]:
    """The control points of the derivative of a spline of ``degree`` whose
    control points are ``points`` (from index ``first``) and knots
    ``knots[shift - 1:]``: degree (P_i+1 - P_i) / (u_i+p+s - u_i+s)."""
    if degree <= 0:
        return [(0.0, 0.0, 0.0)]
    result = []
    for k in range(len(points) - 1):
        i = first + k
        gap = knots[i + degree + shift] - knots[i + shift]
        if gap <= 0:  # a repeated knot: that basis function is nowhere
            result.append((0.0, 0.0, 0.0))
            continue
        (x0, y0, w0), (x1, y1, w1) = points[k], points[k + 1]
        scale = degree / gap
        result.append(((x1 - x0) * scale, (y1 - y0) * scale, (w1 - w0) * scale))
    return result or [(0.0, 0.0, 0.0)]


def _largest(points: list[tuple[float, float, float]]) -> tuple[float, float]:
    """(largest |x, y|, largest |w|) of ``points``."""
    return (
        max(math.hypot(x, y) for x, y, _ in points),
        max(abs(w) for _, _, w in points),
    )
