/* The field on the officials' screens: the shared diagram (field.js: lines, posts, direction of
 * play, the restart's spot) drawn in a nested <svg>, with two layers of ours on top: the restart's
 * label and the cursor that gives a position (a click, or the arrow keys). Both use the contract's
 * frame in yards: svg x = field x (north end line on the left), svg y = field y (west side on top). */
import {MARGIN, fieldLines, render} from "../field.js";
import {restartSummary} from "./teams.js";

const SVG_NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  return node;
}

function box(node) {
  try {
    const b = node.getBBox();
    return {x: b.x, y: b.y, width: b.width, height: b.height};
  } catch {
    return null;  // (not rendered)
  }
}

function overlap(a, b) {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

export class FieldView {
  constructor(svgEl, teams, field, opts) {
    this.svg = svgEl;
    this.teams = teams;
    this.L = field.length || 300;
    this.W = field.width || 160;
    this.opts = opts || {};
    this.pick = null;  // {snap(pos) -> pos} while a position is being asked for
    this.defends = null;
    this.restart = null;
    const box = [-MARGIN, -MARGIN, this.L + 2 * MARGIN, this.W + 2 * MARGIN];
    svgEl.setAttribute("viewBox", box.join(" "));
    this.diagram = svg("svg", {x: box[0], y: box[1], width: box[2], height: box[3], class: "diagram"});
    this.restartLayer = svg("g", {class: "restart-layer"});
    this.cursorLayer = svg("g", {class: "cursor-layer"});
    svgEl.append(this.diagram, this.restartLayer, this.cursorLayer);
    svgEl.addEventListener("click", (e) => this.clicked(e));
    this.draw();
    // A field drawn while it was not laid out (a hidden panel, a page still loading) placed its
    // restart label blind, where it may cover a team's name: place it again once it has a size.
    if (window.ResizeObserver) {
      new ResizeObserver(() => {
        const label = this.restartLayer.querySelector(".restart-label");
        if (label && this.restart && this.restart.spot) this.placeLabel(label, this.restart.spot.y);
      }).observe(svgEl);
    }
  }

  draw() {
    const t = this.teams;
    render(this.diagram, {
      length: this.L, width: this.W, lines: fieldLines(t.limits), defends: this.defends || undefined, restart: this.restart,
      colors: {home: t.color("home"), away: t.color("away")}, names: {home: t.name("home"), away: t.name("away")},
    });
  }

  setDefends(defends) {
    if (JSON.stringify(defends) === JSON.stringify(this.defends)) return;
    this.defends = defends;
    this.draw();
  }

  setRestart(restart) {
    this.restart = restart || null;
    this.draw();
    this.restartLayer.replaceChildren();
    if (!restart || !restart.spot) return;
    const {x, y} = restart.spot;
    const g = svg("g", {class: "restart-marker", "data-x": x, "data-y": y, "data-kind": restart.kind, "data-team": restart.team || ""});
    const t = svg("text", {x: Math.min(Math.max(x, 45), this.L - 45), y: y > this.W / 2 ? y - 13 : y + 19, class: "restart-label"});
    t.textContent = restartSummary(this.teams, restart);
    g.append(t);
    this.restartLayer.append(g);
    this.placeLabel(t, y);
  }

  /* The label goes below the spot in the field's upper half and above it in the lower half,
   * unless it would run into a text or an arrow of the diagram there (a team's name over its
   * arrow, a line's distance): then on the other side, or a line further (up to five: a long
   * "Free hit — <team>" at the side line clears the team's arrow), where it covers the least. */
  placeLabel(label, y) {
    const own = box(label);
    if (!own || !own.width) return;  // not laid out (a hidden screen): the first choice stays
    const texts = [...this.diagram.querySelectorAll("text, .pf-arrow")].map(box).filter((b) => b && b.width);
    const below = [19, 29, 39, 49, 59].map((d) => y + d), above = [13, 23, 33, 43, 53].map((d) => y - d);
    const order = y > this.W / 2 ? [...above, ...below] : [...below, ...above];
    const top = -MARGIN + own.height, bottom = this.W + MARGIN;
    let best = null;
    for (const baseline of order.filter((b) => b >= top && b <= bottom)) {
      const shifted = {...own, y: own.y + baseline - Number(label.getAttribute("y"))};
      const covered = texts.reduce((sum, b) => sum + overlap(shifted, b), 0);
      if (best === null || covered < best.covered) best = {baseline, covered};
      if (covered === 0) break;
    }
    if (best) label.setAttribute("y", String(best.baseline));
  }

  startPick(snap, start) {
    this.pick = {snap: snap || ((p) => p)};
    this.svg.classList.add("picking");
    this.setCursor(this.pick.snap(start || {x: this.L / 2, y: this.W / 2}));
  }

  stopPick() {
    this.pick = null;
    this.svg.classList.remove("picking");
    this.cursor = null;
    this.cursorLayer.replaceChildren();
  }

  setCursor(pos) {
    if (!this.pick) return;
    const snapped = this.pick.snap(this.clamp(pos));
    this.cursor = {x: Math.round(snapped.x * 10) / 10, y: Math.round(snapped.y * 10) / 10};
    const {x, y} = this.cursor;
    this.cursorLayer.replaceChildren(
      svg("line", {x1: x - 8, y1: y, x2: x + 8, y2: y, class: "cursor-line"}),
      svg("line", {x1: x, y1: y - 8, x2: x, y2: y + 8, class: "cursor-line"}),
      svg("circle", {cx: x, cy: y, r: 3, class: "cursor-dot", "data-x": x, "data-y": y}),
    );
  }

  moveCursor(dx, dy) {
    if (this.cursor) this.setCursor({x: this.cursor.x + dx, y: this.cursor.y + dy});
  }

  clamp(p) {
    return {x: Math.min(this.L, Math.max(0, p.x)), y: Math.min(this.W, Math.max(0, p.y))};
  }

  toYards(evt) {
    const pt = this.svg.createSVGPoint();
    pt.x = evt.clientX;
    pt.y = evt.clientY;
    const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    return {x: p.x, y: p.y};
  }

  clicked(evt) {
    if (!this.pick) return;
    this.setCursor(this.toYards(evt));
    if (this.opts.onPick) this.opts.onPick(this.cursor);
  }

  /* Snapping: a ball out crosses a line; every other position is on the field. */
  snapTo(line) {
    const {L, W} = this;
    if (line === "end") return (p) => ({x: p.x < L / 2 ? 0 : L, y: p.y});
    if (line === "side") return (p) => ({x: p.x, y: p.y < W / 2 ? 0 : W});
    return (p) => p;
  }
}
