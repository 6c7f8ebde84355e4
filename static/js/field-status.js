/* "Waiting for the field" (issue 34: the field is the truth).
 *
 * The scorer's laptop keeps the official time. When the server has not heard from it for a while
 * (a link at a polo ground drops for minutes), the server says so (live.js: ``live.field``) and a
 * screen must not run a clock the umpires may have stopped: live.js holds the clock where the
 * field was last heard, and this banner says what is going on and for how long, until the field's
 * record arrives and the screens catch up.
 *
 *   renderFieldBanner(live)   (live.js calls it on every tick, unless ``fieldBanner: false``)
 *
 * The words come from the JS catalog, or, on a page without it (the overlay), from the page:
 * ``connect({fieldWords: {waiting, note}})``, translated by the server. */
import {formatClock} from "./format.js";
import {gettext, interpolate} from "./i18n.js";

/* Seconds since the field's timekeeper was last heard, while it is silent; else null. */
export function silentFor(field, now) {
  if (!field || !field.silent || typeof field.heard_at !== "number") return null;
  return Math.max(0, now - field.heard_at);
}

/* Up to when a running clock (read at ``anchor``) runs on: now, or, while the field is silent, the
 * moment it was last heard — the umpires may have stopped it since. */
export function heldAt(field, now, anchor) {
  return silentFor(field, now) == null ? now : Math.min(now, Math.max(field.heard_at, anchor));
}

function banner(live) {
  let box = document.querySelector(`[data-field-banner="${live.matchId}"]`);
  if (!box) {
    box = document.createElement("div");
    box.className = "field-waiting";
    box.setAttribute("role", "status");
    box.setAttribute("data-field-banner", String(live.matchId));
    box.hidden = true;
    const what = document.createElement("strong");
    what.className = "field-waiting-what";
    const note = document.createElement("span");
    note.className = "field-waiting-note";
    box.append(what, note);
    document.body.append(box);
  }
  return box;
}

export function renderFieldBanner(live) {
  const silent = live.fieldSilentFor();
  const state = live.state || {};
  const showing = silent != null && !["scheduled", "final", "abandoned"].includes(state.status);
  let box = document.querySelector(`[data-field-banner="${live.matchId}"]`);
  if (!showing) {
    if (box) box.hidden = true;
    document.documentElement.removeAttribute("data-field-silent");
    return;
  }
  box = banner(live);
  const words = live.opts.fieldWords || {};
  const time = formatClock(Math.floor(silent));
  box.querySelector(".field-waiting-what").textContent =
    interpolate(words.waiting || gettext("Waiting for the field · %(time)s"), {time});
  box.querySelector(".field-waiting-note").textContent =
    words.note || gettext("The umpires' clock is kept at the field; the record follows when the link is back.");
  box.hidden = false;
  document.documentElement.setAttribute("data-field-silent", "true");
}

/* "Last heard from the field" (issue 35: a match kept at the field's own server). Read from the
 * server's field object (the snapshot's, a poll's, a ``field`` frame's: ``live.field``), never
 * worked out here: null when the match is not kept at the field, else the words to show and the
 * seconds since the field's server last reached this one (null: not heard yet). ``words``: the
 * page's (the overlay has no JS catalog), else the catalog's. */
export function keptNote(field, now, words = {}) {
  if (!field || field.kept_at !== "field") return null;
  if (typeof field.heard_at !== "number") {
    return {ago: null, text: words.unheard || gettext("Kept at the field: not heard from the field yet")};
  }
  const ago = Math.max(0, Math.floor(now - field.heard_at));
  const heard = words.heard || gettext("Kept at the field: last heard from the field %s ago");
  return {ago, text: interpolate(heard, [formatClock(ago)])};
}

/* Show ``keptNote`` in ``node`` (hidden when the match is not kept at the field). */
export function renderKept(node, field, now, words) {
  if (!node) return;
  const note = keptNote(field, now, words);
  node.hidden = !note;
  if (!note) return;
  node.setAttribute("data-heard-ago", note.ago == null ? "" : String(note.ago));
  if (node.textContent !== note.text) node.textContent = note.text;
}
