/* The match log as the officials' screens list it: the events in order, each once, with the voids
 * applied (officials/screen.js feeds it from the live connection), and one line of the list. */
import {el} from "../dom.js";
import {formatClock} from "../format.js";
import {gettext, interpolate} from "../i18n.js";
import {isHoldEntry} from "./permissions.js";
import {STOPPAGES} from "./words.js";
import {describeAuthor, describeEvent} from "./teams.js";

/* An event's time as epoch seconds (the API's received_at is a number or an ISO string). */
export function toEpoch(value) {
  if (typeof value === "number") return value;
  if (typeof value === "string") { const t = Date.parse(value); return isNaN(t) ? null : t / 1000; }
  return null;
}

export class EventLog {
  constructor() { this.entries = []; this.bySeq = new Map(); this.voids = new Map(); }

  add(events) {
    let added = false;
    for (const ev of events) {
      if (ev.seq == null || this.bySeq.has(ev.seq)) continue;
      const entry = {seq: ev.seq, id: ev.id, type: ev.type, event: ev.event || {}, received_at: toEpoch(ev.received_at)};
      this.bySeq.set(ev.seq, entry);
      this.entries.push(entry);
      if (entry.type === "void" && entry.event.target) this.voids.set(entry.event.target, entry);
      added = true;
    }
    if (added) this.entries.sort((a, b) => a.seq - b.seq);
    return added;
  }

  voidOf(entry) { return this.voids.get(entry.id) || null; }

  /* The log as the officials list it, newest first: the clock holds of entries in progress
   * (hold/release) are the audit trail's, not the match's, and are left out. */
  newestFirst() { return this.entries.filter((e) => !isHoldEntry(e)).reverse(); }

  /* Every entry newest first, the clock holds too (the scorer's log: its numbers run on without
   * gaps; renderLogEntry draws a hold as a faint line). */
  allNewestFirst() { return this.entries.slice().reverse(); }

  /* What "void last" voids: the newest event that still counts (not a void, not voided, not a hold). */
  lastVoidable() {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (e.type !== "void" && !isHoldEntry(e) && !this.voids.has(e.id)) return e;
    }
    return null;
  }

  /* The clock of an entry: its own, or for one that carries none — a "Play" resumes the clock
   * where the stoppage left it (docs/MATCH-LOG.md), an official's horn is logged as it sounds —
   * worked out from the log before it: the last stoppage's clock (0:00 when it came after the
   * single horn, which ends the chukker, Rule 14.b, or after the double horn or an overtime), run
   * on from the "Play" that started it. ``clock``: the state's (regular_seconds, end_seconds). */
  clockOf(entry, clock) {
    const own = entry.event.clock;
    if (typeof own === "number") return own;
    if (entry.type !== "play" && entry.type !== "horn") return null;
    const regular = clock && typeof clock.regular_seconds === "number" ? clock.regular_seconds : null;
    const end = clock && typeof clock.end_seconds === "number" ? clock.end_seconds : Infinity;
    let resume = 0, started = null;  // started: the time the clock began to run from ``resume``
    for (const e of this.entries) {
      if (e.seq >= entry.seq) break;
      if (e.type === "void" || isHoldEntry(e) || this.voids.has(e.id)) continue;
      const c = e.event.clock;
      if (e.type === "play") { started = toEpoch(e.event.keyed_at) || e.received_at; continue; }
      if ((e.type === "horn" && e.event.kind === "final") || e.type === "overtime") { resume = 0; started = null; continue; }
      if (typeof c !== "number" || (e.type === "horn" && e.event.kind === "seven")) continue;
      const ended = STOPPAGES.includes(e.type) && regular != null && c >= regular;
      resume = ended ? 0 : c;
      started = e.type === "clock_set" ? started : null;
    }
    if (entry.type === "horn" && entry.event.kind === "seven" && regular != null) return regular;
    if (entry.type === "horn" && started != null && entry.received_at != null) {
      return Math.min(end, resume + Math.max(0, entry.received_at - started));
    }
    return resume;
  }

  counting() { return this.entries.filter((e) => e.type !== "void" && !isHoldEntry(e) && !this.voids.has(e.id)); }

  get lastSeq() { return this.entries.length ? this.entries[this.entries.length - 1].seq : 0; }
}

/* One line of the log. ``onVoid(entry)``: a Void button, when ``mayVoid(entry)`` (default: yes).
 * ``viewer``: the role of who looks, so that an event by another role says who logged it. */
export function renderLogEntry(teams, log, entry, onVoid, mayVoid, viewer, clockInfo) {
  if (isHoldEntry(entry)) {  // the clock's bookkeeping of an entry in progress: a faint line, no Void
    const at = entry.type === "hold" ? log.clockOf(entry, clockInfo) : null;
    return el("li", {class: "log-hold", "data-seq": entry.seq, "data-type": entry.type, "data-id": entry.id}, [
      el("span", {class: "log-seq", text: "#" + entry.seq}), el("span", {class: "log-clock", text: at != null ? formatClock(at) : ""}),
      el("span", {class: "log-text", text: describeEvent(teams, entry)})]);
  }
  const voided = log.voidOf(entry);
  const at = log.clockOf(entry, clockInfo);
  const clock = at != null ? formatClock(at) : "";
  const by = entry.event.by;
  const li = el("li", {class: "log-entry" + (voided ? " voided" : "") + (entry.type === "void" ? " is-void" : ""),
                        "data-seq": entry.seq, "data-type": entry.type, "data-id": entry.id,
                        "data-by": by && by.role ? by.role : null});
  const text = el("span", {class: "log-text", text: describeEvent(teams, entry)});
  if (by && by.name && (by.role !== viewer || by.role === "committee")) text.append(" ", el("small", {class: "log-by", text: describeAuthor(by)}));
  // The horns the server appends when the running clock reaches them (ids "auto:<period>:<kind>").
  else if (!by && String(entry.id || "").startsWith("auto:")) text.append(" ", el("small", {class: "log-by", text: gettext("(the clock)")}));
  li.append(el("span", {class: "log-seq", text: "#" + entry.seq}), el("span", {class: "log-clock", text: clock}), text);
  if (voided) li.append(el("span", {class: "log-voided", text: interpolate(gettext("voided: %(reason)s"), {reason: voided.event.reason || ""})}));
  else if (entry.type !== "void" && onVoid && (!mayVoid || mayVoid(entry))) {
    const b = el("button", {type: "button", class: "log-void", text: gettext("Void"), "aria-label": interpolate(gettext("Void event #%(seq)s"), {seq: entry.seq})});
    b.addEventListener("click", () => onVoid(entry));
    li.append(b);
  }
  return li;
}
