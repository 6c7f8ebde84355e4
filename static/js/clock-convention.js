/* One clock convention per screen, always labelled (issue 9, item 6).
 *
 * A chukker's clock can be read two ways: *time played* ("3:25", counting up from the throw-in,
 * on to "7:12" in the extra time) or *time left* ("3:35", counting down to 0:00 at the
 * single horn, then "+0:12" for the extra time played up to the double horn — what live.js's
 * ``clockText()`` shows). Each screen picks one, shows its name next to the clock, and writes
 * every time in its tables (goals, log) in that same convention.
 *
 * Exports (value = "left" | "played"; screen = a short name, see DEFAULTS):
 *
 *   get(screen)            -> "left" | "played"
 *       ``?clock=left|played`` in the page's address wins, then the choice saved for this screen
 *       (localStorage "poloClock.<screen>"), then the screen's default:
 *       scoreboard, tv, overlay, tournament -> "left"; scorer, referee (tablet), committee -> "played".
 *   set(screen, value)     saves the choice (and rewrites a ?clock= in the address, so a reload
 *       keeps it), then calls the screen's listeners.
 *   toggle(screen)         -> the new value.
 *   onChange(screen, fn)   fn(value) after each change (this tab, or another tab's saved choice
 *       when no ?clock= pins it); returns a function that removes fn.
 *   format(elapsed, clockInfo, convention) -> "3:25" | "3:35" | "+0:12" | ""
 *       ``elapsed``: seconds played in the period (the live clock, or an event's ``clock``);
 *       ``clockInfo``: the regular length of a period — a number, a state's ``clock``
 *       ({regular_seconds}), a match's meta ({period_seconds}) or a live.js connection (its
 *       hornTimes().seven). "" when ``elapsed`` is not a number; time played when the length is
 *       not known. format(live.clockElapsed(), live, "left") === live.clockText().
 *   clockText(live, convention)  the live clock of a live.js connection.
 *   label(convention)      "time left" | "time played" (translated)
 *   liveLabel(live, convention) the label under a live clock: "extra time" once time left has
 *       counted past the single horn ("+0:05" is extra time played, not time left), else label().
 *   heading(convention)    "Time left" | "Time played" (a table's column)
 *   setLabels({left, played, heading_left, heading_played, show_left, show_played, extra})
 *       words for a page without the JS catalog (the overlay gets them translated with the page).
 *   bindToggle(button, screen, onChange) a button that switches the screen's convention; it reads
 *       "Show time played" / "Show time left" and carries data-clock=<value>. onChange(value) is
 *       called now and after each change. Returns {refresh}.
 */
import {formatClock} from "./format.js";
import {gettext} from "./i18n.js";

export const VALUES = Object.freeze(["left", "played"]);
export const DEFAULTS = Object.freeze({
  scoreboard: "left", tv: "left", overlay: "left", tournament: "left",
  scorer: "played", referee: "played", tablet: "played", committee: "played",
});
const FALLBACK = "played";
const KEY = "poloClock.";
const overrides = {};
const listeners = {};

const valid = (value) => (VALUES.includes(value) ? value : null);
const other = (value) => (value === "left" ? "played" : "left");

export function fromUrl() {
  try { return valid(new URLSearchParams(window.location.search).get("clock")); } catch { return null; }
}

function saved(screen) {
  try { return valid(window.localStorage.getItem(KEY + screen)); } catch { return null; }  // private mode
}

export function get(screen) { return fromUrl() || saved(screen) || DEFAULTS[screen] || FALLBACK; }

function notify(screen, value) {
  for (const fn of (listeners[screen] || []).slice()) fn(value);
}

export function set(screen, value) {
  const checked = valid(value);
  if (!checked) throw new Error("clock convention: 'left' or 'played', not " + value);
  try { window.localStorage.setItem(KEY + screen, checked); } catch { /* private mode: this page only */ }
  if (fromUrl() && fromUrl() !== checked) {
    try {
      const url = new URL(window.location.href);
      url.searchParams.set("clock", checked);
      window.history.replaceState(window.history.state, "", url.toString());
    } catch { /* an address we cannot rewrite: the choice holds until a reload */ }
  }
  notify(screen, checked);
  return checked;
}

export function toggle(screen) { return set(screen, other(get(screen))); }

export function onChange(screen, fn) {
  (listeners[screen] = listeners[screen] || []).push(fn);
  return () => {
    const list = listeners[screen] || [], i = list.indexOf(fn);
    if (i >= 0) list.splice(i, 1);
  };
}

// Another tab saved a choice for a screen: follow it, unless the address pins this one.
window.addEventListener("storage", (e) => {
  if (!e.key || !e.key.startsWith(KEY) || fromUrl()) return;
  const screen = e.key.slice(KEY.length);
  if (listeners[screen]) notify(screen, get(screen));
});

// --- Formatting ------------------------------------------------------------------------------------
const num = (v) => (typeof v === "number" && isFinite(v) ? v : null);

export function regularSeconds(info) {
  if (num(info) != null) return info;
  if (info && typeof info.hornTimes === "function") return info.hornTimes().seven;
  if (info && num(info.regular_seconds) != null) return info.regular_seconds;
  if (info && num(info.period_seconds) != null) return info.period_seconds;
  return null;
}

export function format(elapsed, clockInfo, convention) {
  const e = num(elapsed);
  if (e == null) return "";
  const P = convention === "left" ? regularSeconds(clockInfo) : null;
  if (P == null) return formatClock(e);
  if (e > P) return "+" + formatClock(e - P);
  return formatClock(Math.ceil(P - e - 1e-6));
}

export function clockText(live, convention) { return format(live.clockElapsed(), live, convention); }

// --- Words -----------------------------------------------------------------------------------------
export function label(convention) {
  if (convention === "left") return overrides.left || gettext("time left");
  return overrides.played || gettext("time played");
}

export function liveLabel(live, convention) {
  const P = convention === "left" ? regularSeconds(live) : null;
  if (P != null && live.clockElapsed() > P) return overrides.extra || gettext("extra time");
  return label(convention);
}

export function heading(convention) {
  if (convention === "left") return overrides.heading_left || gettext("Time left");
  return overrides.heading_played || gettext("Time played");
}

function showLabel(convention) {  // what a toggle offers: the other convention
  if (convention === "left") return overrides.show_left || gettext("Show time left");
  return overrides.show_played || gettext("Show time played");
}

export function setLabels(words) {
  for (const [k, v] of Object.entries(words || {})) if (v) overrides[k] = v;
}

export function bindToggle(button, screen, changed) {
  const show = (value) => {
    button.textContent = showLabel(other(value));
    button.setAttribute("data-clock", value);
    if (changed) changed(value);
  };
  button.addEventListener("click", () => toggle(screen));
  onChange(screen, show);
  show(get(screen));
  return {refresh: () => show(get(screen))};
}
