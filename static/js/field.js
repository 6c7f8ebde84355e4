/* PoloField — a small SVG diagram of the field (shared/spec/MATCH-LOG.md, "The field").
 *
 *   PoloField.render(svg, {length, width, defends, restart, colors, names});
 *
 * The frame is the contract's: x runs from the north end line (0) to the south end line (length),
 * y from the west side (0) to the east side (width). The diagram lays x left to right (north on
 * the left) and y top to bottom (west at the top). It draws the lines at 30, 40 and 60 yards from
 * each end and the centre line, the goal posts (8 yards apart, centred), an arrow per team in its
 * colour towards the goal it attacks (the end it does not defend), and the pending restart's spot.
 * Colours go in SVG attributes (the Content-Security-Policy forbids inline styles).
 */
(function () {
  "use strict";

  var NS = "http://www.w3.org/2000/svg";
  var gettext = window.gettext || function (s) { return s; };
  var LINES = [30, 40, 60];
  var MARGIN = 14;

  function el(parent, name, attrs, text) {
    var node = document.createElementNS(NS, name);
    for (var key in attrs) if (attrs[key] != null) node.setAttribute(key, String(attrs[key]));
    if (text != null) node.textContent = text;
    parent.appendChild(node);
    return node;
  }

  function arrow(parent, x1, x2, y, color, label) {
    // A flat arrow from x1 to x2 at height y, its head at x2.
    var dir = x2 > x1 ? 1 : -1, head = 12 * dir, h = 5, hh = 10;
    var d = ["M", x1, y - h, "L", x2 - head, y - h, "L", x2 - head, y - hh, "L", x2, y,
             "L", x2 - head, y + hh, "L", x2 - head, y + h, "L", x1, y + h, "Z"].join(" ");
    var g = el(parent, "g", {"class": "pf-arrow"});
    el(g, "path", {d: d, fill: color, stroke: "#fff", "stroke-width": 1.5});
    if (label) {
      el(g, "text", {x: (x1 + x2) / 2, y: y - hh - 3, "text-anchor": "middle", "font-size": 11,
                     fill: "#fff", "class": "pf-label"}, label);
    }
    return g;
  }

  function render(svg, opts) {
    opts = opts || {};
    var L = opts.length || 300, W = opts.width || 160;
    var defends = opts.defends || {home: "north", away: "south"};
    var colors = opts.colors || {home: "#1d4ed8", away: "#dc2626"};
    var names = opts.names || {};
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("viewBox", [-MARGIN, -MARGIN, L + 2 * MARGIN, W + 2 * MARGIN].join(" "));
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", gettext("Field diagram"));

    el(svg, "rect", {x: -MARGIN, y: -MARGIN, width: L + 2 * MARGIN, height: W + 2 * MARGIN, fill: "#166534", rx: 6});
    el(svg, "rect", {x: 0, y: 0, width: L, height: W, fill: "#15803d", stroke: "#fff", "stroke-width": 1.5});
    var lines = el(svg, "g", {stroke: "#fff", "stroke-width": 0.8, "stroke-dasharray": "4 3", "class": "pf-lines"});
    LINES.forEach(function (d) {
      [d, L - d].forEach(function (x) {
        el(lines, "line", {x1: x, y1: 0, x2: x, y2: W});
      });
    });
    el(svg, "line", {x1: L / 2, y1: 0, x2: L / 2, y2: W, stroke: "#fff", "stroke-width": 1.2, "class": "pf-centre"});
    var marks = el(svg, "g", {fill: "#fff", "font-size": 7, "text-anchor": "middle", "class": "pf-marks"});
    LINES.forEach(function (d) {
      el(marks, "text", {x: d, y: W + 9}, String(d));
      el(marks, "text", {x: L - d, y: W + 9}, String(d));
    });

    // Goal posts: 8 yards apart, centred on each end line.
    var goals = el(svg, "g", {fill: "#fff", "class": "pf-goals"});
    [0, L].forEach(function (x) {
      [W / 2 - 4, W / 2 + 4].forEach(function (y) { el(goals, "circle", {cx: x, cy: y, r: 2}); });
    });
    el(svg, "text", {x: -MARGIN / 2, y: W / 2, "text-anchor": "middle", "dominant-baseline": "middle",
                     "font-size": 9, fill: "#fff", transform: "rotate(-90 " + (-MARGIN / 2) + " " + W / 2 + ")"}, gettext("North"));
    el(svg, "text", {x: L + MARGIN / 2, y: W / 2, "text-anchor": "middle", "dominant-baseline": "middle",
                     "font-size": 9, fill: "#fff", transform: "rotate(90 " + (L + MARGIN / 2) + " " + W / 2 + ")"}, gettext("South"));

    // Direction of play: each team attacks the end it does not defend.
    ["home", "away"].forEach(function (team, i) {
      var y = W * (i === 0 ? 0.22 : 0.78);
      var attacksSouth = defends[team] === "north";
      var x1 = attacksSouth ? L * 0.32 : L * 0.68, x2 = attacksSouth ? L * 0.68 : L * 0.32;
      arrow(svg, x1, x2, y, colors[team] || "#fff", names[team] || null).setAttribute("data-team", team);
    });

    var r = opts.restart;
    if (r && r.spot && typeof r.spot.x === "number") {
      var g = el(svg, "g", {"class": "pf-restart"});
      var color = (r.team && colors[r.team]) || "#fff";
      var x = Math.max(0, Math.min(L, r.spot.x)), y = Math.max(0, Math.min(W, r.spot.y));
      el(g, "circle", {cx: x, cy: y, r: 9, fill: "none", stroke: "#fde047", "stroke-width": 2});
      el(g, "circle", {cx: x, cy: y, r: 4.5, fill: color, stroke: "#fff", "stroke-width": 1.5});
      if (r.toward === "west" || r.toward === "east") {
        var dy = r.toward === "west" ? -18 : 18;
        el(g, "line", {x1: x, y1: y + dy / 2, x2: x, y2: y + dy, stroke: "#fde047", "stroke-width": 2});
      }
    }
    return svg;
  }

  window.PoloField = {render: render};
})();
