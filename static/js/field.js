/* A small SVG diagram of the field (docs/MATCH-LOG.md, "The field").
 *
 *   (exports render, fieldLines, MARGIN)
 *   render(svg, {length, width, lines, defends, restart, colors, names});
 *
 * The frame is the contract's: x runs from the north end line (0) to the south end line (length),
 * y from the west side (0) to the east side (width). The diagram lays x left to right (north on
 * the left) and y top to bottom (west at the top). It draws the lines at ``lines`` yards from
 * each end (the penalty lines of the rule edition, ``fieldLines(state.limits)``: 30, 40 and 60)
 * and the centre line, the goal posts (8 yards apart, centred), an arrow per team in its colour
 * towards the goal it attacks (the end it does not defend), and the pending restart's spot.
 * Colours go in SVG attributes (the Content-Security-Policy forbids inline styles).
 */
import {gettext} from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
export const MARGIN = 14;  // yards of ground drawn round the field
const LABEL_GAP = 14;  // yards between two line labels on one row (a label is about 8 yards wide)

/* The distances from each end line the field is marked at: the penalty lines of the state's rule
 * edition (``state.limits``), each once, nearest first. */
export function fieldLines(limits) {
  const yards = ["penalty_2_yards", "penalty_3_yards", "penalty_4_yards", "penalty_6_yards"]
    .map((key) => (limits || {})[key]).filter((d) => typeof d === "number" && d > 0);
  return Array.from(new Set(yards)).sort((a, b) => a - b);
}

function el(parent, name, attrs, text) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) if (value != null) node.setAttribute(key, String(value));
  if (text != null) node.textContent = text;
  parent.appendChild(node);
  return node;
}

function arrow(parent, x1, x2, y, color, label) {
  // A flat arrow from x1 to x2 at height y, its head at x2.
  const dir = x2 > x1 ? 1 : -1, head = 12 * dir, h = 5, hh = 10;
  const d = ["M", x1, y - h, "L", x2 - head, y - h, "L", x2 - head, y - hh, "L", x2, y,
             "L", x2 - head, y + hh, "L", x2 - head, y + h, "L", x1, y + h, "Z"].join(" ");
  const g = el(parent, "g", {"class": "pf-arrow"});
  // A dark rim under a white one: a team in green (or any colour near the grass's) still shows.
  el(g, "path", {d, fill: "none", stroke: "#0a0a0a", "stroke-width": 5, "stroke-linejoin": "round", "class": "pf-arrow-rim"});
  el(g, "path", {d, fill: color, stroke: "#fff", "stroke-width": 2, "stroke-linejoin": "round"});
  if (label) {
    el(g, "text", {x: (x1 + x2) / 2, y: y - hh - 3, "text-anchor": "middle", "font-size": 11,
                   fill: "#fff", "class": "pf-label"}, label);
  }
  return g;
}

export function render(svg, opts = {}) {
  const L = opts.length || 300, W = opts.width || 160;
  const defends = opts.defends || {home: "north", away: "south"};
  const colors = opts.colors || {home: "#1d4ed8", away: "#dc2626"};
  const names = opts.names || {};
  const distances = opts.lines || [];
  svg.replaceChildren();
  svg.setAttribute("viewBox", [-MARGIN, -MARGIN, L + 2 * MARGIN, W + 2 * MARGIN].join(" "));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", gettext("Field diagram"));

  el(svg, "rect", {x: -MARGIN, y: -MARGIN, width: L + 2 * MARGIN, height: W + 2 * MARGIN, fill: "#166534", rx: 6});
  el(svg, "rect", {x: 0, y: 0, width: L, height: W, fill: "#15803d", stroke: "#fff", "stroke-width": 1.5});
  const lines = el(svg, "g", {stroke: "#fff", "stroke-width": 0.8, "stroke-dasharray": "4 3", "class": "pf-lines"});
  for (const d of distances) {
    for (const x of [d, L - d]) el(lines, "line", {x1: x, y1: 0, x2: x, y2: W});
  }
  el(svg, "line", {x1: L / 2, y1: 0, x2: L / 2, y2: W, stroke: "#fff", "stroke-width": 1.2, "class": "pf-centre"});
  // Each line's distance, below the field; a line too close to the last one labelled below (30
  // and 40 yards) has its label above the field, so that the two never run together ("3040").
  const marks = el(svg, "g", {fill: "#fff", "font-size": 7, "text-anchor": "middle", "class": "pf-marks"});
  let lastBelow = -Infinity;
  for (const d of distances) {
    const below = d - lastBelow >= LABEL_GAP;
    if (below) lastBelow = d;
    const y = below ? W + 9 : -4;
    el(marks, "text", {x: d, y}, String(d));
    el(marks, "text", {x: L - d, y}, String(d));
  }

  // Goal posts: 8 yards apart, centred on each end line.
  const goals = el(svg, "g", {fill: "#fff", "class": "pf-goals"});
  for (const x of [0, L]) {
    for (const y of [W / 2 - 4, W / 2 + 4]) el(goals, "circle", {cx: x, cy: y, r: 2});
  }
  el(svg, "text", {x: -MARGIN / 2, y: W / 2, "text-anchor": "middle", "dominant-baseline": "middle",
                   "font-size": 9, fill: "#fff", transform: "rotate(-90 " + (-MARGIN / 2) + " " + W / 2 + ")"}, gettext("North"));
  el(svg, "text", {x: L + MARGIN / 2, y: W / 2, "text-anchor": "middle", "dominant-baseline": "middle",
                   "font-size": 9, fill: "#fff", transform: "rotate(90 " + (L + MARGIN / 2) + " " + W / 2 + ")"}, gettext("South"));

  // Direction of play: each team attacks the end it does not defend.
  ["home", "away"].forEach((team, i) => {
    const y = W * (i === 0 ? 0.22 : 0.78);
    const attacksSouth = defends[team] === "north";
    const x1 = attacksSouth ? L * 0.32 : L * 0.68, x2 = attacksSouth ? L * 0.68 : L * 0.32;
    arrow(svg, x1, x2, y, colors[team] || "#fff", names[team] || null).setAttribute("data-team", team);
  });

  const r = opts.restart;
  if (r && r.spot && typeof r.spot.x === "number") {
    const g = el(svg, "g", {"class": "pf-restart"});
    const color = (r.team && colors[r.team]) || "#fff";
    const x = Math.max(0, Math.min(L, r.spot.x)), y = Math.max(0, Math.min(W, r.spot.y));
    el(g, "circle", {cx: x, cy: y, r: 9, fill: "none", stroke: "#fde047", "stroke-width": 2});
    el(g, "circle", {cx: x, cy: y, r: 4.5, fill: color, stroke: "#fff", "stroke-width": 1.5});
    if (r.toward === "west" || r.toward === "east") {
      const dy = r.toward === "west" ? -18 : 18;
      el(g, "line", {x1: x, y1: y + dy / 2, x2: x, y2: y + dy, stroke: "#fde047", "stroke-width": 2});
    }
  }
  return svg;
}
