/* Cell Safety Planner: what the drawing tools draw over the plan
   (static/js/layout-editor.js): the shape being drawn or dragged, the snap
   mark, and the handles of what can be dragged. ``state`` is the editor's. */

import {
  dist,
  mmToUser,
  nearAny,
  nearestOnSegment,
  pt,
  rectangleCorners,
  shapeLines,
  shapePoints,
  unitsPerPx,
} from "./layout-editor-plan.js";

const SVG_NS = "http://www.w3.org/2000/svg";

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

export function clearOverlay() {
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

export function preview(ed, state, current) {
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

// Handles: a square on each corner of the selected element, and on every
// corner where guard segments meet (dragged, all their ends follow). Drawn
// under the overlay; they take no pointer events, the hit-testing is in mm.
export function handles(ed, state) {
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

export function itemFor(model, kind, id) {
  const list = { segment: model.segments, opening: model.openings, device: model.devices, station: model.stations }[kind];
  if (kind === "zone") {
    return model.zone;
  }
  return list ? list.find((x) => x.id === id) : null;
}
