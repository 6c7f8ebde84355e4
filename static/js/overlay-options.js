/* The stream overlay's options in its address (issue 12, item 2), read by the overlay
 * (overlay.js) and written by its builder (overlay-builder.js), so the two agree:
 *
 *   pos     tl | tc | tr | bl | bc | br   where the bar sits (default tl, top left)
 *   theme   dark | light | transparent     (default dark)
 *   scale   0.5 … 3                         (default 1)
 *   show    the parts, comma-separated: score, clock, chukker, restart (the restart line while
 *           play is stopped), scorer (a lower third naming a goal's scorer for a few seconds),
 *           summary (the chukker-end summary through the interval). Default: score,clock,chukker.
 *   lang    en | es (the page's), clock  left | played (clock-convention.js): passed through.
 */
export const POSITIONS = ["tl", "tc", "tr", "bl", "bc", "br"];
export const THEMES = ["dark", "light", "transparent"];
export const PARTS = ["score", "clock", "chukker", "restart", "scorer", "summary"];
export const DEFAULT_PARTS = ["score", "clock", "chukker"];
export const DEFAULTS = Object.freeze({pos: "tl", theme: "dark", scale: 1, show: DEFAULT_PARTS});

export function parse(search) {
  const q = new URLSearchParams(search);
  const pick = (value, list, fallback) => (list.includes(value) ? value : fallback);
  const scale = parseFloat(q.get("scale"));
  return {
    pos: pick(q.get("pos"), POSITIONS, DEFAULTS.pos),
    theme: pick(q.get("theme"), THEMES, DEFAULTS.theme),
    scale: isFinite(scale) ? Math.min(3, Math.max(0.5, scale)) : DEFAULTS.scale,
    show: q.has("show") ? q.get("show").split(",").filter((p) => PARTS.includes(p)) : DEFAULT_PARTS.slice(),
  };
}

/* The query string of ``opts`` (with ``extra``: lang, clock), leaving out what is the default. */
export function query(opts, extra = {}) {
  const q = new URLSearchParams();
  if (opts.pos !== DEFAULTS.pos) q.set("pos", opts.pos);
  if (opts.theme !== DEFAULTS.theme) q.set("theme", opts.theme);
  if (Number(opts.scale) !== DEFAULTS.scale) q.set("scale", String(opts.scale));
  const show = PARTS.filter((p) => opts.show.includes(p));
  if (show.join() !== DEFAULT_PARTS.join()) q.set("show", show.join(","));
  for (const [k, v] of Object.entries(extra)) if (v) q.set(k, v);
  const text = q.toString().replace(/%2C/g, ",");
  return text ? "?" + text : "";
}
