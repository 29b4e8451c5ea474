/* Cell Safety Planner: drawing on the plan (issue 14).

   The plan stays drawn on the server; this module only turns pointer and key
   presses into one POST per edit (cells/layout_editor/views.py), and htmx
   swaps the workspace that comes back (the plan, the lists and the findings).
   A refused edit comes back as a 400 with its message, swapped into the plan's
   status area. The page's plan model (JSON in the data-plan-model attribute)
   gives every element's id and points in mm; SVG user units are mm with y
   flipped (data-mm-transform on the svg). No inline script or style: the CSP
   forbids both; positions are set through the CSSOM. */

const SVG_NS = "http://www.w3.org/2000/svg";
const HIT_PX = 12; // how near (screen pixels) a pointer must be to grab a thing
const CLICK_PX = 4; // a press that moves less than this is a click
const POLYLINE_TOOLS = new Set(["fence", "wall", "machine_body"]);
const TWO_POINT_TOOLS = new Set(["rectangle", "light_curtain", "safety_mat"]);
const ONE_POINT_TOOLS = new Set(["laser_scanner", "station"]);

const state = {
  tool: "select",
  snap: 50,
  height: null, // the guard height typed, kept across swaps
  points: [], // corners clicked so far for the shape being drawn
  drag: null,
  selected: null, // {kind, id}
  view: null, // the zoomed viewBox [x, y, w, h], or null to fit
  pointers: new Map(), // for pinch
  pinch: null,
  lastClient: null,
  toolsOpen: false, // the phone's "Tools" disclosure
};

// The page ---------------------------------------------------------------------

function editor() {
  const root = document.querySelector("[data-plan-editor]");
  const svg = document.querySelector("#workspace svg.layout-svg");
  if (!root || !svg) {
    return null;
  }
  // Viewers get no model (nothing to edit): they zoom and pan only.
  const model = root.dataset.planModel
    ? JSON.parse(root.dataset.planModel)
    : { segments: [], openings: [], devices: [], stations: [], zone: { polygon: [] } };
  return {
    root,
    svg,
    model,
    canEdit: root.dataset.canEdit === "true",
  };
}

function message(name) {
  const root = document.querySelector("[data-plan-editor]");
  return (root && root.dataset[`msg${name[0].toUpperCase()}${name.slice(1)}`]) || "";
}

function setStatus(text, refused = false) {
  const status = document.getElementById("plan-status");
  if (!status) {
    return;
  }
  status.classList.remove("floating");
  status.replaceChildren();
  if (text) {
    const p = document.createElement("p");
    p.className = `message ${refused ? "error" : "hint"}`;
    p.textContent = text;
    status.append(p);
  }
}

// Coordinates ------------------------------------------------------------------

function toUser(svg, clientX, clientY) {
  const point = svg.createSVGPoint();
  point.x = clientX;
  point.y = clientY;
  const p = point.matrixTransform(svg.getScreenCTM().inverse());
  return { x: p.x, y: p.y };
}

const userToMm = (u) => ({ x: u.x, y: -u.y });
const mmToUser = (p) => ({ x: p.x, y: -p.y });
const unitsPerPx = (svg) => 1 / svg.getScreenCTM().a;
const pt = (pair) => ({ x: pair[0], y: pair[1] });
const pair = (p) => [Math.round(p.x), Math.round(p.y)];
const dist = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);

function nearestOnSegment(p, a, b) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length2 = dx * dx + dy * dy || 1;
  const t = Math.min(1, Math.max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2));
  return { point: { x: a.x + dx * t, y: a.y + dy * t }, t };
}

function along(a, b, mm) {
  const length = dist(a, b) || 1;
  return { x: a.x + ((b.x - a.x) * mm) / length, y: a.y + ((b.y - a.y) * mm) / length };
}

// Snapping: to an end point, else onto a segment, else to the grid. ``skip``
// lists the points being dragged: they, and the segments ending at one of
// them (which stretch with the drag), are no target.
const nearAny = (p, points) => points.some((q) => dist(p, q) <= 1);

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

// The nearest other element's end point, else the nearest point on a
// segment, within reach of ``raw``; or null.
function snapToObjects(ed, raw, skip = []) {
  const tol = HIT_PX * unitsPerPx(ed.svg);
  let best = null;
  for (const e of endpoints(ed.model, skip)) {
    const d = dist(e, raw);
    if (d <= tol && (!best || d < best.d)) {
      best = { d, point: e, to: "end" };
    }
  }
  if (best) {
    return best;
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

function snap(ed, raw, { skip = [], free = false } = {}) {
  const found = free ? null : snapToObjects(ed, raw, skip);
  if (found) {
    return found;
  }
  const step = state.snap || 1;
  return {
    point: { x: Math.round(raw.x / step) * step, y: Math.round(raw.y / step) * step },
    to: "grid",
  };
}

function snapDelta(d) {
  const step = state.snap || 1;
  return { x: Math.round(d.x / step) * step, y: Math.round(d.y / step) * step };
}

// Where a dragged element goes: the move that puts one of its corners on
// another element's end point or segment, when one comes within reach;
// else the move rounded to the grid. ``point`` is the point snapped (the
// corner, or where the grabbed point lands), for the mark and the read-out.
function dragSnap(ed, drag, raw) {
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
  const delta = snapDelta(d);
  return { delta, point: { x: drag.start.x + delta.x, y: drag.start.y + delta.y }, to: "grid" };
}

// Hit-testing against the plan model, nearest kind of thing first.
function hitTest(ed, p, target) {
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

function cornerAt(ed, p) {
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

// The overlay: what is being drawn or dragged, drawn by this script ----------------

function overlay(ed) {
  let g = ed.svg.querySelector("g.editor-overlay");
  if (!g) {
    g = document.createElementNS(SVG_NS, "g");
    g.setAttribute("class", "editor-overlay");
    ed.svg.append(g);
  }
  return g;
}

function clearOverlay() {
  for (const g of document.querySelectorAll("g.editor-overlay")) {
    g.replaceChildren();
  }
}

function drawLine(g, a, b, cls = "") {
  const line = document.createElementNS(SVG_NS, "line");
  const ua = mmToUser(a);
  const ub = mmToUser(b);
  line.setAttribute("x1", ua.x);
  line.setAttribute("y1", ua.y);
  line.setAttribute("x2", ub.x);
  line.setAttribute("y2", ub.y);
  line.setAttribute("class", cls);
  g.append(line);
}

function drawMark(ed, g, p, cls = "snap-mark") {
  const circle = document.createElementNS(SVG_NS, "circle");
  const u = mmToUser(p);
  circle.setAttribute("cx", u.x);
  circle.setAttribute("cy", u.y);
  circle.setAttribute("r", 5 * unitsPerPx(ed.svg));
  circle.setAttribute("class", cls);
  g.append(circle);
}

function rectangleCorners(a, b) {
  return [a, { x: b.x, y: a.y }, b, { x: a.x, y: b.y }, a];
}

function preview(ed, current) {
  const g = overlay(ed);
  g.replaceChildren();
  if (current) {
    drawMark(ed, g, current.point, `snap-mark to-${current.to}`);
  }
  const here = current && current.point;
  const points = state.points;
  if (points.length && here) {
    if (state.tool === "rectangle" || state.tool === "safety_mat") {
      const c = rectangleCorners(points[0], here);
      for (let i = 0; i < 4; i += 1) {
        drawLine(g, c[i], c[i + 1], "draft");
      }
    } else {
      const chain = [...points, here];
      for (let i = 0; i + 1 < chain.length; i += 1) {
        drawLine(g, chain[i], chain[i + 1], "draft");
      }
      if (state.tool === "zone" && points.length >= 2) {
        drawLine(g, here, points[0], "draft faint");
      }
    }
  }
  const drag = state.drag;
  if (drag && drag.moved && here) {
    if (drag.type === "corner") {
      for (const s of ed.model.segments) {
        for (const [end, other] of [["a", "b"], ["b", "a"]]) {
          if (dist(pt(s[end]), drag.from) <= 1) {
            drawLine(g, here, pt(s[other]), "draft");
          }
        }
      }
    } else if (drag.type === "opening-new") {
      const s = drag.segment;
      const b = nearestOnSegment(here, pt(s.a), pt(s.b)).point;
      drawLine(g, drag.a, b, "draft opening");
    } else if (drag.type === "element" || drag.type === "opening") {
      const d = drag.snapped ? drag.snapped.delta : { x: 0, y: 0 };
      for (const [a, b] of shapeLines(ed, drag.hit)) {
        drawLine(g, { x: a.x + d.x, y: a.y + d.y }, { x: b.x + d.x, y: b.y + d.y }, "draft");
      }
    }
  }
}

function shapeLines(ed, hit) {
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

// The pointer's point in mm, as snapped, and what it snapped to.
// The corners of an element, in mm: what its handles mark and what snaps
// when it is dragged.
function shapePoints(ed, hit) {
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

// Handles: a square on each corner of the selected element, and on every
// corner where guard segments meet (dragged, all their ends follow). Drawn
// under the overlay; they take no pointer events, the hit-testing is in mm.
function handles(ed) {
  let g = ed.svg.querySelector("g.editor-handles");
  if (!g) {
    g = document.createElementNS(SVG_NS, "g");
    g.setAttribute("class", "editor-handles");
    ed.svg.insertBefore(g, ed.svg.querySelector("g.editor-overlay"));
  }
  g.replaceChildren();
  if (!ed.canEdit || state.tool !== "select") {
    return;
  }
  const corners = [];
  for (const s of ed.model.segments) {
    for (const e of [pt(s.a), pt(s.b)]) {
      const known = corners.find((c) => dist(c.point, e) <= 1);
      if (known) {
        known.count += 1;
      } else {
        corners.push({ point: e, count: 1 });
      }
    }
  }
  const item = state.selected && itemFor(ed.model, state.selected.kind, state.selected.id);
  const chosen = item ? shapePoints(ed, { kind: state.selected.kind, item }) : [];
  const size = 9 * unitsPerPx(ed.svg);
  const square = (p, cls) => {
    const rect = document.createElementNS(SVG_NS, "rect");
    const u = mmToUser(p);
    rect.setAttribute("x", u.x - size / 2);
    rect.setAttribute("y", u.y - size / 2);
    rect.setAttribute("width", size);
    rect.setAttribute("height", size);
    rect.setAttribute("class", cls);
    g.append(rect);
  };
  for (const c of corners) {
    if (c.count > 1 && !nearAny(c.point, chosen)) {
      square(c.point, "handle shared");
    }
  }
  for (const p of chosen) {
    const shared = corners.some((c) => c.count > 1 && dist(c.point, p) <= 1);
    square(p, shared ? "handle selected shared" : "handle selected");
  }
}

function readout(p, to = "") {
  const out = document.querySelector("[data-readout]");
  if (out && p) {
    const f = (v) => Math.round(v).toLocaleString("en").replace("-", "−");
    const onto = { end: message("snapEnd"), segment: message("snapSegment") }[to];
    out.value = `x ${f(p.x)}, y ${f(p.y)} mm${onto ? ` · ${onto}` : ""}`;
    out.textContent = out.value;
    out.dataset.snapped = to;
  }
}

// Talking to the server -----------------------------------------------------------

function send(ed, operation, values) {
  const body = {};
  for (const [name, value] of Object.entries(values || {})) {
    body[name] = typeof value === "object" && value !== null ? JSON.stringify(value) : value;
  }
  setStatus(message("busy"));
  return window.htmx.ajax("POST", ed.model.ops.replace("/OP/", `/${operation}/`), {
    target: "#workspace",
    swap: "outerHTML",
    values: body,
  });
}

function openForm(url) {
  window.htmx.ajax("GET", url, { target: "#workspace", swap: "outerHTML" });
}

function itemFor(model, kind, id) {
  const list = { segment: model.segments, opening: model.openings, device: model.devices, station: model.stations }[kind];
  if (kind === "zone") {
    return model.zone;
  }
  return list ? list.find((x) => x.id === id) : null;
}

function select(ed, hit, { open = true } = {}) {
  state.selected = hit ? { kind: hit.kind, id: hit.item.id } : null;
  highlight(ed);
  if (hit && open) {
    openForm(hit.item.edit);
  }
}

function highlight(ed) {
  for (const g of ed.svg.querySelectorAll(".editor-selected")) {
    g.classList.remove("editor-selected");
  }
  const item = state.selected && itemFor(ed.model, state.selected.kind, state.selected.id);
  if (!item) {
    state.selected = null;
  } else {
    const g = ed.svg.querySelector(`[data-key="${item.key}"]`);
    if (g) {
      g.classList.add("editor-selected");
    }
  }
  handles(ed);
}

// Finishing shapes ------------------------------------------------------------------

function height() {
  const field = document.querySelector('[name="plan-height"]');
  return field && field.value ? field.value : "";
}

function finishShape(ed, { closed = false } = {}) {
  const points = state.points.map(pair);
  const tool = state.tool;
  state.points = [];
  clearOverlay();
  if (POLYLINE_TOOLS.has(tool) && points.length >= 2) {
    send(ed, "segments", { points, closed: closed ? "true" : "false", kind: tool, height_mm: height() });
  } else if (tool === "zone" && points.length >= 3) {
    send(ed, "zone", { points });
  }
}

function twoPoints(ed, a, b) {
  state.points = [];
  clearOverlay();
  if (dist(a, b) < 1) {
    return;
  }
  if (state.tool === "rectangle") {
    send(ed, "rectangle", { a: pair(a), b: pair(b), kind: "fence", height_mm: height() });
  } else {
    send(ed, "device", { kind: state.tool, points: [pair(a), pair(b)] });
  }
}

// Pointer events ---------------------------------------------------------------------

function onPointerDown(event) {
  const ed = editor();
  if (!ed || !ed.svg.contains(event.target) || event.button > 0) {
    return;
  }
  event.preventDefault();
  ed.svg.setPointerCapture(event.pointerId);
  state.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  state.lastClient = { x: event.clientX, y: event.clientY };
  if (state.pointers.size === 2) {
    const [a, b] = [...state.pointers.values()];
    state.pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
    state.drag = null;
    clearOverlay();
    return;
  }
  const raw = userToMm(toUser(ed.svg, event.clientX, event.clientY));
  const base = { client: { x: event.clientX, y: event.clientY }, start: raw, moved: false };
  const tool = ed.canEdit ? state.tool : "select";
  if (tool === "select") {
    const corner = ed.canEdit && cornerAt(ed, raw);
    const hit = hitTest(ed, raw, event.target);
    if (corner && (!hit || hit.kind === "segment")) {
      state.drag = { ...base, type: "corner", from: corner, hit };
    } else if (hit) {
      state.drag = { ...base, type: hit.kind === "opening" ? "opening" : "element", hit };
    } else {
      state.drag = { ...base, type: "pan", view: currentView(ed) };
    }
    return;
  }
  const snapped = snap(ed, raw);
  if (tool === "opening") {
    const s = snapped.segment || segmentNear(ed, snapped.point);
    if (s) {
      const a = nearestOnSegment(snapped.point, pt(s.a), pt(s.b)).point;
      state.drag = { ...base, type: "opening-new", segment: s, a };
    } else {
      setStatus(message("opening"));
    }
  } else if (ONE_POINT_TOOLS.has(tool)) {
    if (tool === "station") {
      send(ed, "station", { at: pair(snapped.point) });
    } else {
      send(ed, "device", { kind: tool, points: [pair(snapped.point)] });
    }
  } else if (TWO_POINT_TOOLS.has(tool)) {
    if (state.points.length === 0) {
      state.points = [snapped.point];
      state.drag = { ...base, type: "two-point" };
    } else {
      twoPoints(ed, state.points[0], snapped.point);
    }
  } else if (POLYLINE_TOOLS.has(tool) || tool === "zone") {
    const first = state.points[0];
    const enough = tool === "zone" ? 3 : 2;
    if (first && state.points.length >= enough && dist(first, snapped.point) <= HIT_PX * unitsPerPx(ed.svg)) {
      finishShape(ed, { closed: true });
    } else {
      state.points.push(snapped.point);
      preview(ed, snapped);
    }
  }
}

function segmentNear(ed, p) {
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

function onPointerMove(event) {
  const ed = editor();
  if (!ed || !(ed.svg.contains(event.target) || state.pointers.has(event.pointerId))) {
    return;
  }
  if (state.pointers.has(event.pointerId)) {
    state.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  }
  if (state.pinch && state.pointers.size === 2) {
    const [a, b] = [...state.pointers.values()];
    const d = Math.hypot(a.x - b.x, a.y - b.y);
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    pan(ed, state.pinch.mid, mid);
    zoomAt(ed, state.pinch.d / (d || 1), mid);
    state.pinch = { d, mid };
    return;
  }
  state.lastClient = { x: event.clientX, y: event.clientY };
  const raw = userToMm(toUser(ed.svg, event.clientX, event.clientY));
  const drag = state.drag;
  if (drag && !drag.moved) {
    drag.moved = Math.hypot(event.clientX - drag.client.x, event.clientY - drag.client.y) >= CLICK_PX;
  }
  if (drag && drag.type === "pan") {
    if (drag.moved) {
      const upp = unitsPerPx(ed.svg);
      const [x, y, w, h] = drag.view;
      setView(ed, [x - (event.clientX - drag.client.x) * upp, y - (event.clientY - drag.client.y) * upp, w, h]);
      drag.view = currentView(ed);
      drag.client = { x: event.clientX, y: event.clientY };
    }
    readout(raw);
    return;
  }
  let current;
  if (drag && (drag.type === "element" || drag.type === "opening")) {
    drag.snapped = dragSnap(ed, drag, raw);
    current = { point: drag.snapped.point, to: drag.snapped.to };
  } else {
    current = snap(ed, raw, { skip: drag && drag.type === "corner" ? [drag.from] : [] });
  }
  readout(current.point, current.to);
  if (ed.canEdit && (state.tool !== "select" || drag)) {
    preview(ed, current);
  }
}

function onPointerUp(event) {
  const ed = editor();
  const wasPointer = state.pointers.delete(event.pointerId);
  if (state.pinch) {
    if (state.pointers.size < 2) {
      state.pinch = null;
    }
    return;
  }
  const drag = state.drag;
  state.drag = null;
  if (!ed || !drag || !wasPointer) {
    return;
  }
  const raw = userToMm(toUser(ed.svg, event.clientX, event.clientY));
  if (drag.type === "pan") {
    if (!drag.moved) {
      select(ed, null, { open: false });
    }
    return;
  }
  if (drag.type === "two-point") {
    if (drag.moved) {
      twoPoints(ed, state.points[0], snap(ed, raw).point);
    }
    return;
  }
  if (drag.type === "opening-new") {
    const s = drag.segment;
    const b = nearestOnSegment(snap(ed, raw).point, pt(s.a), pt(s.b)).point;
    clearOverlay();
    send(ed, "opening", { segment: s.id, a: pair(drag.a), b: pair(b) });
    return;
  }
  if (!drag.moved) {
    // A click: select the element and open its form beside the plan.
    clearOverlay();
    select(ed, drag.hit || null);
    return;
  }
  clearOverlay();
  if (drag.type === "corner") {
    const to = snap(ed, raw, { skip: [drag.from] }).point;
    if (dist(to, drag.from) >= 1) {
      send(ed, "corner", { from: pair(drag.from), to: pair(to) });
    }
    return;
  }
  const d = dragSnap(ed, drag, raw).delta;
  if (!d.x && !d.y) {
    return;
  }
  state.selected = { kind: drag.hit.kind, id: drag.hit.item.id };
  if (drag.type === "opening") {
    const o = drag.hit.item;
    const s = ed.model.segments.find((x) => x.id === o.segment);
    const middle = along(pt(s.a), pt(s.b), o.offset_mm + o.width_mm / 2);
    send(ed, "opening", { id: o.id, at: pair({ x: middle.x + d.x, y: middle.y + d.y }) });
  } else {
    send(ed, "move", { kind: drag.hit.kind, id: drag.hit.item.id, dx: d.x, dy: d.y });
  }
}

// Zoom and pan ---------------------------------------------------------------------

function currentView(ed) {
  return ed.svg.getAttribute("viewBox").split(/[ ,]+/).map(Number);
}

function setView(ed, box) {
  state.view = box;
  ed.svg.setAttribute("viewBox", box.map((v) => Math.round(v * 10) / 10).join(" "));
  handles(ed);
}

function zoomAt(ed, factor, client) {
  const [x, y, w, h] = currentView(ed);
  const u = client ? toUser(ed.svg, client.x, client.y) : { x: x + w / 2, y: y + h / 2 };
  const fit = ed.svg.dataset.fitBox.split(" ").map(Number);
  const nw = Math.min(Math.max(w * factor, fit[2] / 50), fit[2] * 4);
  const f = nw / w;
  setView(ed, [u.x - (u.x - x) * f, u.y - (u.y - y) * f, w * f, h * f]);
}

function pan(ed, fromClient, toClient) {
  const upp = unitsPerPx(ed.svg);
  const [x, y, w, h] = currentView(ed);
  setView(ed, [x - (toClient.x - fromClient.x) * upp, y - (toClient.y - fromClient.y) * upp, w, h]);
}

function onWheel(event) {
  const ed = editor();
  if (!ed || !ed.svg.contains(event.target)) {
    return;
  }
  event.preventDefault();
  zoomAt(ed, event.deltaY > 0 ? 1.15 : 1 / 1.15, { x: event.clientX, y: event.clientY });
}

// Buttons and keys ------------------------------------------------------------------

function setTool(tool) {
  state.tool = tool;
  state.points = [];
  state.drag = null;
  clearOverlay();
  for (const button of document.querySelectorAll("[data-tool]")) {
    button.setAttribute("aria-pressed", String(button.dataset.tool === tool));
  }
  const ed = editor();
  if (ed) {
    ed.svg.classList.toggle("drawing", tool !== "select");
    handles(ed);
  }
  // On a phone the tools fold away again once one is chosen: the plan shows.
  state.toolsOpen = false;
  foldTools();
  const hint = POLYLINE_TOOLS.has(tool)
    ? "polyline"
    : { select: "select", rectangle: "rectangle", opening: "opening", light_curtain: "line", safety_mat: "mat", laser_scanner: "point", station: "point", zone: "zone" }[tool];
  setStatus(message(hint));
}

// The "Tools" disclosure, shown on narrow screens only (layout-editor.css).
function foldTools() {
  const toggle = document.querySelector("[data-tools-toggle]");
  const root = document.querySelector("[data-plan-editor]");
  if (!toggle || !root) {
    return;
  }
  toggle.setAttribute("aria-expanded", String(state.toolsOpen));
  root.classList.toggle("tools-open", state.toolsOpen);
  const current = toggle.querySelector("[data-current-tool]");
  const pressed = document.querySelector(`[data-tool="${state.tool}"]`);
  if (current && pressed) {
    current.textContent = pressed.textContent;
  }
}

function onClick(event) {
  if (event.target.closest("[data-tools-toggle]")) {
    state.toolsOpen = !state.toolsOpen;
    foldTools();
    return;
  }
  const toolButton = event.target.closest("[data-tool]");
  if (toolButton) {
    setTool(toolButton.dataset.tool);
    return;
  }
  const zoom = event.target.closest("[data-zoom]");
  const ed = editor();
  if (zoom && ed) {
    if (zoom.dataset.zoom === "fit") {
      state.view = null;
      ed.svg.setAttribute("viewBox", ed.svg.dataset.fitBox);
      handles(ed);
    } else {
      zoomAt(ed, zoom.dataset.zoom === "in" ? 1 / 1.4 : 1.4, null);
    }
  }
}

function onChange(event) {
  if (event.target.name === "plan-snap") {
    state.snap = Number(event.target.value);
  } else if (event.target.name === "plan-height") {
    state.height = event.target.value;
  }
}

function typing(target) {
  return target.closest && target.closest("input, textarea, select, [contenteditable]");
}

function onKeyDown(event) {
  const ed = editor();
  if (!ed || !ed.canEdit) {
    return;
  }
  if (event.key === "Escape") {
    if (state.points.length || state.drag) {
      state.points = [];
      state.drag = null;
      clearOverlay();
    } else {
      select(ed, null, { open: false });
      setTool("select");
    }
    return;
  }
  if (typing(event.target)) {
    return;
  }
  const ctrl = event.ctrlKey || event.metaKey;
  if (ctrl && (event.key === "z" || event.key === "Z")) {
    event.preventDefault();
    send(ed, event.shiftKey ? "redo" : "undo", {});
  } else if (ctrl && (event.key === "y" || event.key === "Y")) {
    event.preventDefault();
    send(ed, "redo", {});
  } else if (event.key === "Enter" && state.points.length) {
    event.preventDefault();
    finishShape(ed);
  } else if ((event.key === "Delete" || event.key === "Backspace") && state.selected) {
    // The hazard zone is not removed: it goes back to the robot's reach.
    event.preventDefault();
    send(ed, "delete", { kind: state.selected.kind, id: state.selected.id });
    state.selected = null;
  } else if (event.key.startsWith("Arrow") && state.selected) {
    event.preventDefault();
    const step = (state.snap || 10) * (event.shiftKey ? 10 : 1);
    const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[event.key];
    send(ed, "move", { kind: state.selected.kind, id: state.selected.id, dx: d[0], dy: d[1] });
  }
}

// After every swap: the new plan keeps the view, the tool and the selection.
function refresh() {
  const ed = editor();
  if (!ed) {
    return;
  }
  ed.svg.dataset.fitBox = ed.svg.getAttribute("viewBox");
  if (state.view) {
    setView(ed, state.view);
  }
  const toolbar = ed.root.querySelector(".plan-toolbar");
  if (toolbar) {
    toolbar.hidden = false;
  }
  const snapField = document.querySelector('[name="plan-snap"]');
  if (snapField) {
    snapField.value = String(state.snap);
  }
  const heightField = document.querySelector('[name="plan-height"]');
  if (heightField && state.height !== null) {
    heightField.value = state.height;
  }
  for (const button of document.querySelectorAll("[data-tool]")) {
    button.setAttribute("aria-pressed", String(button.dataset.tool === state.tool));
  }
  ed.svg.classList.toggle("drawing", state.tool !== "select");
  ed.svg.classList.add("editable");
  foldTools();
  highlight(ed);
}

function onEdited(event) {
  const ed = editor();
  const detail = event.detail || {};
  if (!ed) {
    return;
  }
  if (detail.selected) {
    const [kind, id] = detail.selected.split(":");
    state.selected = { kind, id: Number(id) };
    highlight(ed);
    const item = itemFor(ed.model, kind, Number(id));
    // A device placed needs its safety data: its form opens beside the plan.
    if (detail.created && kind === "device" && item) {
      openForm(item.edit);
    }
  }
}

function onAfterSwap(event) {
  const target = event.detail && event.detail.target;
  if (target && target.id === "plan-status" && state.lastClient) {
    // A refused edit: its message shown where the pointer was.
    clearOverlay();
    const card = target.closest(".card") || target.parentElement;
    const box = card.getBoundingClientRect();
    target.classList.add("floating");
    target.style.left = `${Math.max(0, Math.min(state.lastClient.x - box.left + 12, box.width - 260))}px`;
    target.style.top = `${Math.max(0, state.lastClient.y - box.top + 12)}px`;
  }
}

document.addEventListener("pointerdown", onPointerDown);
document.addEventListener("pointermove", onPointerMove);
document.addEventListener("pointerup", onPointerUp);
document.addEventListener("pointercancel", onPointerUp);
document.addEventListener("wheel", onWheel, { passive: false });
document.addEventListener("click", onClick);
document.addEventListener("change", onChange);
document.addEventListener("input", onChange);
document.addEventListener("keydown", onKeyDown);
document.addEventListener("plan-edited", onEdited);
document.addEventListener("htmx:afterSwap", onAfterSwap);
document.addEventListener("htmx:afterSettle", refresh);
document.addEventListener("htmx:responseError", clearOverlay);
refresh();
