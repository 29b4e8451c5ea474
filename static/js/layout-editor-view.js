/* Cell Safety Planner: how the plan sits on the screen for the drawing tools
   (static/js/layout-editor.js), issue 31.

   - The plan is as tall as the window leaves under the tools, so the tools
     and the whole drawing are in view together.
   - A new cell's plan (no guard drawn yet) opens on the frame the server
     gives in the plan model (cells/layout_editor/selectors.py: the robot's
     reach and room round it for a perimeter), widened to the drawing's
     shape so that every point of it is drawing; the page opens scrolled to
     it once.
   - Its labels are never drawn smaller than MIN_LABEL_PX on the screen: on
     a phone, or zoomed out, they grow in mm; zoomed in, they grow with the
     plan as drawn.

   Sizes are set through the CSSOM and attributes: the CSP forbids inline
   styles. */

import { unitsPerPx } from "./layout-editor-plan.js";

// Issue 31: on a phone the plan's labels came out at about 5 px; 11 CSS px
// is the floor it asks for, and it holds at every width.
export const MIN_LABEL_PX = 11;
const MARGIN_PX = 8; // between the plan and the window's edges
const MIN_PLAN_PX = 240; // a plan never shorter than this, on a short window
const STATUS_PX = 52; // the status line's two lines

const parseBox = (text) => text.split(/[ ,]+/).map(Number);

// The plan's height: what the window leaves under the tools above it, the
// status line given room for two lines (what an edit did, what next).
export function sizePlan(ed) {
  const status = ed.root.querySelector(".plan-status");
  const said = status ? status.getBoundingClientRect().height : 0;
  const tools = ed.root.getBoundingClientRect().height - said + Math.max(said, STATUS_PX);
  const room = window.innerHeight - tools - 3 * MARGIN_PX;
  ed.svg.style.maxHeight = `${Math.floor(Math.max(MIN_PLAN_PX, room))}px`;
}

// The view "Fit" shows: the plan as the server drew it, and for a new cell
// the frame round the robot too, widened to the drawing's shape.
export function fitBox(ed) {
  if (!ed.svg.dataset.planBox) {
    ed.svg.dataset.planBox = ed.svg.getAttribute("viewBox");
  }
  const plan = parseBox(ed.svg.dataset.planBox);
  const frame = ed.model.frame || [];
  if (frame.length !== 4) {
    return plan;
  }
  const x = Math.min(plan[0], frame[0]);
  const y = Math.min(plan[1], frame[1]);
  let w = Math.max(plan[0] + plan[2], frame[0] + frame[2]) - x;
  const h = Math.max(plan[1] + plan[3], frame[1] + frame[3]) - y;
  // The drawing is as wide as its card and at most as tall as sizePlan lets
  // it: where that cuts its height, the view widens so no side is left empty.
  const width = ed.svg.getBoundingClientRect().width;
  const tallest = parseFloat(ed.svg.style.maxHeight) || Infinity;
  const height = Math.min((width * h) / w, tallest);
  let left = x;
  if (width > 0 && height > 0 && width / height > w / h) {
    const wider = (h * width) / height;
    left -= (wider - w) / 2;
    w = wider;
  }
  return [left, y, w, h].map((v) => Math.round(v * 10) / 10);
}

// Every text of the plan at least MIN_LABEL_PX on the screen: each element
// that sets a font size keeps the size the server gave it (data-font) and
// is drawn at that or at MIN_LABEL_PX, whichever is larger.
export function readableLabels(ed) {
  const least = MIN_LABEL_PX * unitsPerPx(ed.svg);
  // Panning keeps the scale: nothing to redo (it runs on every move).
  if (!Number.isFinite(least) || ed.svg.dataset.least === String(least)) {
    return;
  }
  ed.svg.dataset.least = String(least);
  for (const el of [ed.svg, ...ed.svg.querySelectorAll("[font-size]")]) {
    if (!el.dataset.font) {
      el.dataset.font = el.getAttribute("font-size");
    }
    const drawn = Number(el.dataset.font);
    el.setAttribute("font-size", String(Math.ceil(Math.max(drawn, least) * 10) / 10));
  }
  const root = ed.svg;
  placeCaptions(root, Number(root.getAttribute("font-size")) / Number(root.dataset.font));
  thinGridLabels(root);
}

// A caption stands off its guard, opening or light curtain by so many times
// the font size (cells/drawing): grown k times, it stands k times as far off
// it, square to it, so it does not run over it.
function placeCaptions(svg, k) {
  for (const text of svg.querySelectorAll("g.segment > text, g.opening > text, g.curtain > text")) {
    if (!text.dataset.x) {
      text.dataset.x = text.getAttribute("x");
      text.dataset.y = text.getAttribute("y");
    }
    const p = { x: Number(text.dataset.x), y: Number(text.dataset.y) };
    // The foot of the perpendicular from the caption to the line drawn (a
    // guard's pieces all lie on one line).
    const line = text.parentElement.querySelector(":scope > line");
    let owner = null;
    if (line) {
      const [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map((n) => Number(line.getAttribute(n)));
      const dx = x2 - x1;
      const dy = y2 - y1;
      const t = ((p.x - x1) * dx + (p.y - y1) * dy) / (dx * dx + dy * dy || 1);
      owner = { x: x1 + dx * t, y: y1 + dy * t };
    }
    const own = Number(text.getAttribute("font-size") || 0) / Number(text.dataset.font || 1);
    const grow = text.hasAttribute("font-size") ? own : k;
    const at = owner ? { x: owner.x + (p.x - owner.x) * grow, y: owner.y + (p.y - owner.y) * grow } : p;
    const x = String(Math.round(at.x * 10) / 10);
    const y = String(Math.round(at.y * 10) / 10);
    text.setAttribute("x", x);
    text.setAttribute("y", y);
    for (const span of text.querySelectorAll("tspan[x]")) {
      span.setAttribute("x", x);
    }
    const turn = /rotate\(\s*([-\d.e]+)/.exec(text.getAttribute("transform") || "");
    if (turn) {
      text.setAttribute("transform", `rotate(${turn[1]} ${x} ${y})`);
    }
  }
}

// Grid figures grown past their spacing would run into each other and into
// the captions: those that would touch a caption, or a figure kept before
// them, are hidden (every other one, say). Compared as drawn on the screen.
function thinGridLabels(svg) {
  const labels = [...svg.querySelectorAll("g.grid-labels text")];
  const boxOf = (el, pad) => {
    const b = el.getBoundingClientRect();
    return { left: b.left - pad, right: b.right + pad, top: b.top, bottom: b.bottom };
  };
  const others = "text.caption, text.hazard-label, g.scale text, g.station text";
  const kept = [...svg.querySelectorAll(others)].map((el) => boxOf(el, 0));
  for (const label of labels) {
    label.removeAttribute("visibility");
    const box = boxOf(label, label.getBoundingClientRect().height / 4);
    const touches = kept.some(
      (k) => box.left < k.right && k.left < box.right && box.top < k.bottom && k.top < box.bottom,
    );
    if (touches) {
      label.setAttribute("visibility", "hidden");
    } else {
      kept.push(box);
    }
  }
}

// Once per page: a new cell's page scrolls as far as it takes to show its
// plan whole, the tools above it, so the first clicks land on the drawing.
export function openOnPlan(ed) {
  const page = document.getElementById("content") || document.body;
  if (page.dataset.planOpened) {
    return;
  }
  page.dataset.planOpened = "true";
  if (!ed.canEdit || !(ed.model.frame || []).length || window.location.hash) {
    return;
  }
  const plan = ed.svg.getBoundingClientRect();
  const need = plan.bottom + MARGIN_PX - window.innerHeight;
  const most = ed.root.getBoundingClientRect().top - MARGIN_PX;
  if (need > 0 && most > 0) {
    window.scrollBy(0, Math.min(need, most));
  }
}

// Whether a point on the screen is on the drawing.
export function onPlan(ed, clientX, clientY) {
  const box = ed.svg.getBoundingClientRect();
  return clientX >= box.left && clientX <= box.right && clientY >= box.top && clientY <= box.bottom;
}
