/* Cell Safety Planner: drawing on the plan (issue 14).

   The plan stays drawn on the server; this module only turns pointer and key
   presses into one POST per edit (cells/layout_editor/views.py), and htmx
   swaps the workspace that comes back (the plan, the lists and the findings).
   A refused edit comes back as a 400 with its message, swapped into the plan's
   status area. The page's plan model (JSON in the data-plan-model attribute)
   gives every element's id and points in mm; SVG user units are mm with y
   flipped (data-mm-transform on the svg). No inline script or style: the CSP
   forbids both; positions are set through the CSSOM.

   The plan's geometry (snapping, hit-testing) is in layout-editor-plan.js,
   what is drawn over it (the shape being drawn, handles) in
   layout-editor-overlay.js, how it sits on the screen (its size, a new
   cell's first view, the labels' size) in layout-editor-view.js: modules
   this one imports, so the page loads this one alone. Every text the person
   reads comes from the toolbar's data-msg-* attributes, translated by the
   template. */

import {
  HIT_PX,
  along,
  cornerAt,
  dist,
  dragSnap,
  hitTest,
  nearestOnSegment,
  pair,
  pt,
  segmentNear,
  snap,
  toUser,
  unitsPerPx,
  userToMm,
} from "./layout-editor-plan.js";
import { clearOverlay, handles, itemFor, preview } from "./layout-editor-overlay.js";
import { fitBox, onPlan, openOnPlan, readableLabels, sizePlan } from "./layout-editor-view.js";

const CLICK_PX = 4; // a press that moves less than this is a click
const POLYLINE_TOOLS = new Set(["fence", "wall", "machine_body"]);
const TWO_POINT_TOOLS = new Set(["rectangle", "light_curtain", "safety_mat"]);
const ONE_POINT_TOOLS = new Set(["laser_scanner", "station"]);
const SNAP_STEPS = ["0", "10", "50", "100", "500"]; // the toolbar's grid, mm
const SNAP_KEY = "cell-safety-planner.plan-snap"; // the grid chosen, kept

function storedSnap() {
  try {
    const kept = window.localStorage.getItem(SNAP_KEY);
    return SNAP_STEPS.includes(kept) ? Number(kept) : 50;
  } catch {
    return 50; // storage refused (a private window): the default grid
  }
}

const state = {
  tool: "select",
  snap: storedSnap(),
  height: null, // the guard height typed, kept across swaps
  points: [], // corners clicked so far for the shape being drawn
  drag: null,
  selected: null, // {kind, id}
  view: null, // the zoomed viewBox [x, y, w, h], or null to fit
  pointers: new Map(), // for pinch
  pinch: null,
  lastClient: null,
  toolsOpen: false, // the phone's "Tools" disclosure
  notice: null, // what the last edit said, kept while its form opens
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
    step: state.snap,
  };
}

function message(name) {
  const root = document.querySelector("[data-plan-editor]");
  return (root && root.dataset[`msg${name[0].toUpperCase()}${name.slice(1)}`]) || "";
}

// The status line: what the tool needs next, what was done, what went wrong.
// ``lines``: [text, kind] pairs, kind "hint", "done", "warning" or "error".
function setStatus(text, refused = false) {
  showStatus([[text, refused ? "error" : "hint"]]);
}

function showStatus(lines) {
  const status = document.getElementById("plan-status");
  if (!status) {
    return;
  }
  status.classList.remove("floating");
  status.replaceChildren();
  for (const [text, kind] of lines) {
    if (text) {
      const p = document.createElement("p");
      p.className = `message ${kind}`;
      p.textContent = text;
      status.append(p);
    }
  }
}

// What the current tool asks for first.
function toolHint(tool) {
  if ((POLYLINE_TOOLS.has(tool) || tool === "rectangle") && !height()) {
    return message("height");
  }
  const hint = POLYLINE_TOOLS.has(tool)
    ? "polyline"
    : { select: "select", rectangle: "rectangle", opening: "opening", light_curtain: "line", safety_mat: "mat", laser_scanner: "point", station: "point", zone: "zone" }[tool];
  return message(hint);
}

// What it asks for once the first point is down.
function nextHint(tool) {
  const next = { rectangle: "rectangleNext", light_curtain: "lineNext", safety_mat: "matNext" }[tool];
  return next ? message(next) : toolHint(tool);
}

// A guard's tool with no height typed: say so (``refused``: a click came
// first), and open the field for it.
function wantsHeight(refused) {
  if (!(POLYLINE_TOOLS.has(state.tool) || state.tool === "rectangle") || height()) {
    return false;
  }
  setStatus(message("height"), refused);
  state.toolsOpen = true;
  foldTools();
  const field = document.querySelector('[name="plan-height"]');
  if (field) {
    field.focus({ preventScroll: true });
  }
  return true;
}

function readout(p, to = "") {
  const out = document.querySelector("[data-readout]");
  if (out && p) {
    const f = (v) => Math.round(v).toLocaleString("en").replace("-", "−");
    const onto = { end: message("snapEnd"), underlay: message("snapUnderlay"), segment: message("snapSegment") }[to];
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
  state.notice = null;
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
  handles(ed, state);
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

// What a press off the drawing is not: a control, the tools, the side panel.
const NOT_THE_PLAN = "a, button, input, select, textarea, label, summary, [contenteditable], .plan-editor, .side";

// A press beside the drawing while a drawing tool is on draws nothing there:
// the status line says so (a corner already clicked is kept).
function offPlan(ed, event) {
  const target = event.target;
  if (!ed.canEdit || state.tool === "select" || event.button > 0 || !target.closest) {
    return;
  }
  if (target.closest("#workspace") && !target.closest(NOT_THE_PLAN)) {
    setStatus(message("outside"), true);
  }
}

function onPointerDown(event) {
  const ed = editor();
  if (ed && !ed.svg.contains(event.target)) {
    offPlan(ed, event);
    return;
  }
  if (!ed || event.button > 0) {
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
  if (wantsHeight(true)) {
    return;
  }
  state.notice = null;
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
      setStatus(nextHint(tool));
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
      preview(ed, state, snapped);
    }
  }
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
    preview(ed, state, current);
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
    if (drag.moved && !onPlan(ed, event.clientX, event.clientY)) {
      setStatus(message("outside"), true); // the first corner stays
    } else if (drag.moved) {
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
  readableLabels(ed);
  handles(ed, state);
}

// The view that shows the whole plan (a new cell's: the frame round the
// robot), with the plan sized to the window.
function fit(ed) {
  sizePlan(ed);
  const box = fitBox(ed).join(" ");
  ed.svg.dataset.fitBox = box;
  if (!state.view) {
    ed.svg.setAttribute("viewBox", box);
  }
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
    handles(ed, state);
  }
  // On a phone the tools fold away again once one is chosen: the plan shows
  // (unless the guard height is still wanted: its field stays open).
  state.toolsOpen = false;
  state.notice = null;
  foldTools();
  if (!ed || !ed.canEdit || !wantsHeight(false)) {
    setStatus(toolHint(tool));
  }
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
      readableLabels(ed);
      handles(ed, state);
    } else {
      zoomAt(ed, zoom.dataset.zoom === "in" ? 1 / 1.4 : 1.4, null);
    }
  }
}

function onChange(event) {
  if (event.target.name === "plan-snap") {
    state.snap = Number(event.target.value);
    try {
      window.localStorage.setItem(SNAP_KEY, String(state.snap));
    } catch {
      // Not kept (storage refused): the grid holds for this page.
    }
  } else if (event.target.name === "plan-height") {
    state.height = event.target.value;
    // The height given: the tool says what it needs next.
    if (state.tool !== "select" && !state.points.length) {
      setStatus(toolHint(state.tool));
    }
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
  if (event.key === "Enter" && event.target.name === "plan-height" && state.toolsOpen) {
    event.preventDefault(); // the height given: on a phone, back to the plan
    state.toolsOpen = false;
    foldTools();
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
  const toolbar = ed.root.querySelector(".plan-toolbar");
  if (toolbar) {
    toolbar.hidden = false;
  }
  fit(ed);
  if (state.view) {
    setView(ed, state.view);
  }
  readableLabels(ed);
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
  openOnPlan(ed);
  // What the last edit said, again once the device's form has opened (the
  // swap emptied the status line).
  const status = document.getElementById("plan-status");
  if (state.notice && status && !status.childElementCount) {
    showStatus(state.notice);
    state.notice = null;
  }
}

function onResize() {
  const ed = editor();
  if (ed) {
    fit(ed);
    readableLabels(ed);
    handles(ed, state);
  }
}

function onEdited(event) {
  const ed = editor();
  const detail = event.detail || {};
  if (!ed) {
    return;
  }
  // The status line: what was done, what to know of it, what the tool wants
  // next (but a device's form opens: that comes next).
  const opensForm = detail.created && (detail.selected || "").startsWith("device:");
  const lines = [
    [detail.message, "done"],
    [detail.note, "warning"],
    [state.tool === "select" || opensForm ? "" : toolHint(state.tool), "hint"],
  ];
  showStatus(lines);
  state.notice = opensForm ? lines : null;
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
window.addEventListener("resize", onResize);
refresh();
