/* Cell Safety Planner: the plan's geometry for the drawing tools
   (static/js/layout-editor.js): coordinates, snapping, hit-testing and the
   shapes of the plan's elements, all in mm with y up. SVG user units are mm
   with y flipped (data-mm-transform on the svg). */

export const HIT_PX = 12; // how near (screen pixels) a pointer must be to grab a thing

// Coordinates ------------------------------------------------------------------

export function toUser(svg, clientX, clientY) {
  const point = svg.createSVGPoint();
  point.x = clientX;
  point.y = clientY;
  const p = point.matrixTransform(svg.getScreenCTM().inverse());
  return { x: p.x, y: p.y };
}

export const userToMm = (u) => ({ x: u.x, y: -u.y });
export const mmToUser = (p) => ({ x: p.x, y: -p.y });
export const unitsPerPx = (svg) => 1 / svg.getScreenCTM().a;
export const pt = (pair) => ({ x: pair[0], y: pair[1] });
export const pair = (p) => [Math.round(p.x), Math.round(p.y)];
export const dist = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);

export function nearestOnSegment(p, a, b) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length2 = dx * dx + dy * dy || 1;
  const t = Math.min(1, Math.max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2));
  return { point: { x: a.x + dx * t, y: a.y + dy * t }, t };
}

export function along(a, b, mm) {
  const length = dist(a, b) || 1;
  return { x: a.x + ((b.x - a.x) * mm) / length, y: a.y + ((b.y - a.y) * mm) / length };
}

// Snapping: to an end point, else onto a segment, else to the grid. ``skip``
// lists the points being dragged: they, and the segments ending at one of
// them (which stretch with the drag), are no target.
export const nearAny = (p, points) => points.some((q) => dist(p, q) <= 1);

function endpoints(model, skip) {
  const ends = [];
  for (const s of model.segments) {
    ends.push(pt(s.a), pt(s.b));
  }
  for (const d of model.devices) {
    ends.push(...d.points.map(pt));
  }
  for (const t of model.stations) {
    ends.push(pt(t.at));
  }
  ends.push(...model.zone.polygon.map(pt));
  return ends.filter((e) => !nearAny(e, skip));
}

// The end points of the imported drawing's lines (the DXF underlay, drawn in
// the svg's g.underlay), read once per drawing: the svg is new after a swap.
const underlays = new WeakMap();

function underlayEnds(svg) {
  if (!underlays.has(svg)) {
    const ends = [];
    const seen = new Set();
    for (const line of svg.querySelectorAll("g.underlay line")) {
      for (const [x, y] of [["x1", "y1"], ["x2", "y2"]]) {
        const p = userToMm({ x: Number(line.getAttribute(x)), y: Number(line.getAttribute(y)) });
        const key = `${Math.round(p.x)} ${Math.round(p.y)}`;
        if (!seen.has(key)) {
          seen.add(key);
          ends.push(p);
        }
      }
    }
    underlays.set(svg, ends);
  }
  return underlays.get(svg);
}

function nearestOf(points, raw, tol, to) {
  let best = null;
  for (const e of points) {
    const d = dist(e, raw);
    if (d <= tol && (!best || d < best.d)) {
      best = { d, point: e, to };
    }
  }
  return best;
}

// The nearest other element's end point, else the nearest end of a line of
// the imported drawing, else the nearest point on a segment, within reach of
// ``raw``; or null.
function snapToObjects(ed, raw, skip = []) {
  const tol = HIT_PX * unitsPerPx(ed.svg);
  let best = nearestOf(endpoints(ed.model, skip), raw, tol, "end");
  if (best) {
    return best;
  }
  best = nearestOf(underlayEnds(ed.svg), raw, tol, "underlay");
  if (best) {
    return { ...best, point: { x: Math.round(best.point.x), y: Math.round(best.point.y) } };
  }
  for (const s of ed.model.segments) {
    if (nearAny(pt(s.a), skip) || nearAny(pt(s.b), skip)) {
      continue;
    }
    const near = nearestOnSegment(raw, pt(s.a), pt(s.b));
    const d = dist(near.point, raw);
    if (d <= tol && (!best || d < best.d)) {
      best = { d, point: near.point, to: "segment", segment: s };
    }
  }
  if (best) {
    return { ...best, point: { x: Math.round(best.point.x), y: Math.round(best.point.y) } };
  }
  return null;
}

// ``ed.step``: the grid the person chose in the toolbar, in mm (0: off, to
// the millimetre).
export function snap(ed, raw, { skip = [], free = false } = {}) {
  const found = free ? null : snapToObjects(ed, raw, skip);
  if (found) {
    return found;
  }
  const step = ed.step || 1;
  return {
    point: { x: Math.round(raw.x / step) * step, y: Math.round(raw.y / step) * step },
    to: "grid",
  };
}

function snapDelta(ed, d) {
  const step = ed.step || 1;
  return { x: Math.round(d.x / step) * step, y: Math.round(d.y / step) * step };
}

// Where a dragged element goes: the move that puts one of its corners on
// another element's end point or segment, when one comes within reach;
// else the move rounded to the grid. ``point`` is the point snapped (the
// corner, or where the grabbed point lands), for the mark and the read-out.
export function dragSnap(ed, drag, raw) {
  const d = { x: raw.x - drag.start.x, y: raw.y - drag.start.y };
  if (drag.type === "element") {
    const corners = shapePoints(ed, drag.hit);
    let best = null;
    for (const c of corners) {
      const found = snapToObjects(ed, { x: c.x + d.x, y: c.y + d.y }, corners);
      if (found && (!best || found.d < best.found.d)) {
        best = { found, corner: c };
      }
    }
    if (best) {
      const p = best.found.point;
      return {
        delta: { x: Math.round(p.x - best.corner.x), y: Math.round(p.y - best.corner.y) },
        point: p,
        to: best.found.to,
      };
    }
  }
  const delta = snapDelta(ed, d);
  return { delta, point: { x: drag.start.x + delta.x, y: drag.start.y + delta.y }, to: "grid" };
}

// Hit-testing against the plan model, nearest kind of thing first.
export function hitTest(ed, p, target) {
  const tol = HIT_PX * unitsPerPx(ed.svg);
  const model = ed.model;
  const segments = new Map(model.segments.map((s) => [s.id, s]));
  for (const o of model.openings) {
    const s = segments.get(o.segment);
    const a = along(pt(s.a), pt(s.b), o.offset_mm);
    const b = along(pt(s.a), pt(s.b), o.offset_mm + o.width_mm);
    if (dist(nearestOnSegment(p, a, b).point, p) <= tol) {
      return { kind: "opening", item: o };
    }
  }
  for (const t of model.stations) {
    if (dist(pt(t.at), p) <= tol * 1.5) {
      return { kind: "station", item: t };
    }
  }
  for (const d of model.devices) {
    if (d.points.length === 1 && dist(pt(d.points[0]), p) <= tol * 1.5) {
      return { kind: "device", item: d };
    }
    if (d.points.length === 2 && d.kind !== "safety_mat") {
      const [a, b] = d.points.map(pt);
      if (dist(nearestOnSegment(p, a, b).point, p) <= tol) {
        return { kind: "device", item: d };
      }
    }
  }
  let best = null;
  for (const s of model.segments) {
    const d = dist(nearestOnSegment(p, pt(s.a), pt(s.b)).point, p);
    if (d <= tol && (!best || d < best.d)) {
      best = { d, kind: "segment", item: s };
    }
  }
  if (best) {
    return best;
  }
  for (const d of model.devices) {
    if (d.kind === "safety_mat" && d.points.length === 2) {
      const [a, b] = d.points.map(pt);
      const inside =
        p.x >= Math.min(a.x, b.x) && p.x <= Math.max(a.x, b.x) &&
        p.y >= Math.min(a.y, b.y) && p.y <= Math.max(a.y, b.y);
      if (inside) {
        return { kind: "device", item: d };
      }
    }
  }
  if (target && target.closest('[data-key="zone"]')) {
    return { kind: "zone", item: model.zone };
  }
  return null;
}

export function cornerAt(ed, p) {
  const tol = HIT_PX * unitsPerPx(ed.svg);
  let best = null;
  for (const s of ed.model.segments) {
    for (const e of [pt(s.a), pt(s.b)]) {
      const d = dist(e, p);
      if (d <= tol && (!best || d < best.d)) {
        best = { d, point: e };
      }
    }
  }
  return best && best.point;
}

export function rectangleCorners(a, b) {
  return [a, { x: b.x, y: a.y }, b, { x: a.x, y: b.y }, a];
}

export function shapeLines(ed, hit) {
  const item = hit.item;
  if (hit.kind === "segment") {
    return [[pt(item.a), pt(item.b)]];
  }
  if (hit.kind === "opening") {
    const s = ed.model.segments.find((x) => x.id === item.segment);
    return [[along(pt(s.a), pt(s.b), item.offset_mm), along(pt(s.a), pt(s.b), item.offset_mm + item.width_mm)]];
  }
  if (hit.kind === "device" && item.points.length === 2) {
    const [a, b] = item.points.map(pt);
    if (item.kind === "safety_mat") {
      const c = rectangleCorners(a, b);
      return [0, 1, 2, 3].map((i) => [c[i], c[i + 1]]);
    }
    return [[a, b]];
  }
  if (hit.kind === "zone" && item.polygon.length) {
    const c = item.polygon.map(pt);
    return c.map((p, i) => [p, c[(i + 1) % c.length]]);
  }
  const at = hit.kind === "station" ? pt(item.at) : hit.kind === "zone" ? pt(item.base) : pt(item.points[0]);
  const r = 8 * unitsPerPx(ed.svg);
  return [
    [{ x: at.x - r, y: at.y }, { x: at.x + r, y: at.y }],
    [{ x: at.x, y: at.y - r }, { x: at.x, y: at.y + r }],
  ];
}

// The corners of an element, in mm: what its handles mark and what snaps
// when it is dragged.
export function shapePoints(ed, hit) {
  const item = hit.item;
  if (hit.kind === "segment") {
    return [pt(item.a), pt(item.b)];
  }
  if (hit.kind === "opening") {
    return shapeLines(ed, hit)[0];
  }
  if (hit.kind === "device") {
    const points = item.points.map(pt);
    return item.kind === "safety_mat" && points.length === 2
      ? rectangleCorners(points[0], points[1]).slice(0, 4)
      : points;
  }
  if (hit.kind === "station") {
    return [pt(item.at)];
  }
  return [pt(item.base), ...item.polygon.map(pt)];
}

export function segmentNear(ed, p) {
  const tol = HIT_PX * unitsPerPx(ed.svg);
  let best = null;
  for (const s of ed.model.segments) {
    const d = dist(nearestOnSegment(p, pt(s.a), pt(s.b)).point, p);
    if (d <= tol && (!best || d < best.d)) {
      best = { d, s };
    }
  }
  return best && best.s;
}
