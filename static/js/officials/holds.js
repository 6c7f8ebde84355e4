/* Entries in progress and the clock they hold (issue 9).
 *
 * The first key of a stoppage (goal, foul, ball out, whistle, restart violation) is the moment
 * play stopped: ``begin`` reads the clock then, stops it on this screen at once and, while the
 * ball is in play, queues a "hold" (no expected_seq, refusals quiet) so that every screen stops it
 * too. The finished entry (``finish``) carries that time (``clock``), the hold it completes
 * (``hold``) and, as ``expected_seq``, the log position when it was begun — the hold's own when
 * the server took it — so an entry overtaken by another official's event is never refused
 * silently (officials/queue-box.js shows what arrived). An entry abandoned (``abandon``: Esc,
 * Cancel) releases its hold: the clock runs on as if it had never stopped. The holds this screen
 * made are remembered (localStorage) so that they are not shown as someone else's, and so that
 * one whose entry was refused, or whose stoppage was voided (the hold is back, the clock held
 * again), can be completed by the next entry or released.
 *
 * One EntryHolds belongs to one Screen (officials/screen.js): it reads the screen's state, log
 * position, queue and clock, and asks it to redraw. */
import {el} from "../dom.js";
import {formatClock} from "../format.js";
import {gettext, interpolate} from "../i18n.js";
import {newId} from "../offline-queue.js";
import {clockElapsed} from "./board.js";
import {describeAuthor} from "./teams.js";
import {HOLD_KINDS, ROLE_LABELS, STOPPAGES} from "./words.js";

const stateHolds = (state) => (state && state.holds) || [];

export class EntryHolds {
  constructor(screen, key) {
    this.screen = screen;
    this.key = key;
    this.active = null;  // the entry being typed
    // hold id -> {id, kind, stamp, stamp_at, phase, first, seq}; phase: "sent" (on its way), "held"
    // (the server has it; the entry is being typed or sent), "refused" (the server did not take it),
    // "orphan" (its entry was refused or lost), "released" (abandoned), "done" (completed).
    this.own = this.load();
  }

  load() {
    try {
      const saved = JSON.parse(window.localStorage.getItem(this.key) || "{}");
      return new Map(Object.entries(saved && typeof saved === "object" ? saved : {}));
    } catch { return new Map(); }
  }

  save() {
    try {
      if (this.own.size) window.localStorage.setItem(this.key, JSON.stringify(Object.fromEntries(this.own), (k, v) => (k === "entry" ? undefined : v)));
      else window.localStorage.removeItem(this.key);
    } catch { /* no storage: remembered on this page only */ }
  }

  /* After a reload: a remembered hold is still on its way (queued), completed by a queued
   * entry, or left over from an entry that the reload lost (to be completed or released). */
  adopt(queue) {
    for (const own of this.own.values()) {
      if (queue.items.some((it) => it.event.id === own.id)) own.phase = "sent";
      else if (queue.items.some((it) => it.event.hold === own.id)) own.phase = "held";
      else if (queue.items.some((it) => it.event.type === "release" && it.event.target === own.id)) own.phase = "released";
      else if (own.phase !== "done") own.phase = "orphan";
      own.entry = null;
    }
  }

  /* The state as this screen shows it: the server's, with this screen's own holds applied at
   * once — the clock stopped from the first key until the server has the hold, and running on
   * as if never stopped once the entry holding it alone is abandoned. */
  view(s) {
    if (!s || !s.clock || s.status !== "in_play") return s;
    const sent = Array.from(this.own.values()).filter((h) => h.phase === "sent");
    if (s.clock.running && sent.length) {
      const stamp = Math.min(...sent.map((h) => h.stamp));
      return Object.assign({}, s, {clock: Object.assign({}, s.clock, {running: false, held: true, elapsed: stamp, anchor: null})});
    }
    const holds = stateHolds(s);
    if (!s.clock.running && s.clock.held && holds.length && holds.every((h) => this.own.has(h.id) && this.own.get(h.id).phase === "released")) {
      const first = holds.map((h) => this.own.get(h.id)).find((h) => h.first && Math.abs(h.stamp - s.clock.elapsed) < 0.05);
      if (first) return Object.assign({}, s, {clock: Object.assign({}, s.clock, {running: true, held: false, elapsed: first.stamp, anchor: first.stamp_at})});
    }
    return s;
  }

  /* A hold of ours the server has with no entry of ours on its way: its entry was refused or
   * lost, or the stoppage that completed it was voided. The next stoppage entry completes it
   * (the clock stays stopped at the whistle meanwhile), or it is released. */
  orphan() {
    for (const h of stateHolds(this.screen.state)) {
      const own = this.own.get(h.id);
      if (own && (own.phase === "orphan" || own.phase === "done")) return own;
    }
    return null;
  }

  /* The first key of an entry: what it will be logged on. */
  begin(type) {
    const screen = this.screen, queue = screen.queue;
    // Events of ours still on their way come before it: the entry is logged on top of them.
    const entry = {type, expectedSeq: screen.lastSeq, hold: null, clock: null, at: screen.now(),
                   before: new Set(queue.items.map((it) => it.event.id))};
    this.active = entry;
    const s = this.view(screen.shown());
    // Only an official who logs the game holds its clock (not the committee, nor a scorer watching the tablet).
    if (!STOPPAGES.includes(type) || !s || s.status !== "in_play" || queue.passive || !screen.page.can_log) return entry;
    const now = screen.now();
    entry.clock = Math.round(clockElapsed(s, now) * 1000) / 1000;
    const orphan = this.orphan();
    if (orphan) {  // the entry that was refused: this one completes its hold, at its time
      const held = stateHolds(screen.state).find((h) => h.id === orphan.id);
      entry.reused = orphan.phase;
      orphan.phase = "held";
      orphan.entry = entry;
      entry.hold = orphan.id;
      entry.clock = held && typeof held.clock === "number" ? held.clock : orphan.stamp;
      this.save();
      this.renderPresence();
      return entry;
    }
    const id = newId();
    const own = {id, kind: type, stamp: entry.clock, stamp_at: now, phase: "sent", first: !!s.clock.running, seq: null};
    this.own.set(id, own);
    own.entry = entry;
    entry.hold = id;
    this.save();
    queue.add({id, type: "hold", kind: type, clock: entry.clock, keyed_at: now}, {quiet: true, noExpected: true});
    screen.tick();
    return entry;
  }

  /* The entry is complete: log it at the time of its first key, on the log as it was then. */
  finish(event, entry) {
    if (this.active === entry) this.active = null;
    const screen = this.screen;
    if (!entry) { screen.logEvent(event); return; }
    const own = entry.hold ? this.own.get(entry.hold) : null;
    if (entry.clock != null) event.clock = entry.clock;
    // Decided at its first key (issue 34), the hold's when it completes one.
    if (event.keyed_at == null) event.keyed_at = own && typeof own.stamp_at === "number" ? own.stamp_at : entry.at;
    if (own) {
      own.entry = null;
      if (own.phase !== "refused") event.hold = own.id;
      if (own.phase === "refused") this.own.delete(own.id);
      this.save();
    }
    screen.refuse(null);
    screen.queue.add(event, {expectedSeq: entry.expectedSeq});
  }

  /* The entry was abandoned: its hold goes, and the clock runs on as if it had never stopped. */
  abandon(entry) {
    if (this.active === entry) this.active = null;
    const own = entry && entry.hold ? this.own.get(entry.hold) : null;
    if (!own) return;
    own.entry = null;
    if (entry.reused) { own.phase = entry.reused; this.save(); this.renderPresence(); return; }
    this.release(own);
  }

  release(own) {
    const queue = this.screen.queue;
    if (own.phase === "refused" || queue.remove(own.id)) {  // never recorded: nothing to undo
      this.own.delete(own.id);
    } else {
      own.phase = "released";
      queue.add({type: "release", target: own.id}, {quiet: true, noExpected: true});
    }
    this.save();
    this.renderPresence();
    this.screen.tick();
  }

  /* The server took one of our events. */
  accepted(item, data) {
    const ev = item.event;
    const entry = this.active;
    if (entry && entry.before.has(ev.id) && typeof data.last_seq === "number") entry.expectedSeq = Math.max(entry.expectedSeq, data.last_seq);
    if (ev.type === "hold" && this.own.has(ev.id)) {
      const own = this.own.get(ev.id);
      own.seq = typeof data.seq === "number" ? data.seq : data.last_seq;
      if (own.phase === "sent") own.phase = "held";
      // The entry is logged on the log as it stood with its hold in it.
      if (own.entry && typeof own.seq === "number") own.entry.expectedSeq = own.seq;
    } else if (ev.type === "release" && this.own.has(ev.target)) {
      this.own.get(ev.target).phase = "done";
    } else if (ev.hold && this.own.has(ev.hold)) {
      this.own.get(ev.hold).phase = "done";  // the entry completed its hold (a void of it brings it back)
    } else {
      return;
    }
    this.save();
  }

  /* A hold or a release the server had no use for. */
  quietlyRefused(item) {
    const ev = item.event;
    if (ev.type === "hold" && this.own.has(ev.id)) {
      const own = this.own.get(ev.id);
      if (own.entry) own.phase = "refused";  // the entry goes on, without a hold (e.g. play stopped meanwhile)
      else this.own.delete(ev.id);
    } else if (ev.type === "release" && this.own.has(ev.target)) {
      this.own.get(ev.target).phase = "done";  // gone already
    }
    this.save();
    this.screen.tick();
  }

  /* An entry refused straight away: its hold (if the server has it) waits for the next entry. */
  entryRefused(item) {
    const own = item.event.hold ? this.own.get(item.event.hold) : null;
    if (!own) return;
    own.phase = "orphan";
    this.save();
    this.renderPresence();
  }

  /* The official dropped an entry (conflict or refusal): its hold goes too. */
  discarded(item) {
    const ev = item.event;
    if (ev.type === "hold" && this.own.has(ev.id)) { this.own.delete(ev.id); this.save(); return; }
    const own = ev.hold ? this.own.get(ev.hold) : null;
    if (own) this.release(own);
  }

  /* Holds of ours the server no longer has (the stoppage came, the next "Play" cleared them):
   * done — remembered still, as ours, in case a void brings one back. */
  forgetGone() {
    const held = new Set(stateHolds(this.screen.state).map((h) => h.id));
    const lastSeq = this.screen.lastSeq;
    let changed = false;
    for (const own of Array.from(this.own.values())) {
      if (held.has(own.id) || !["held", "orphan", "released"].includes(own.phase)) continue;
      const known = typeof own.seq === "number";
      if (known && lastSeq >= own.seq) { own.phase = "done"; changed = true; }
      else if (!known && own.phase === "orphan") { this.own.delete(own.id); changed = true; }  // never recorded
    }
    const done = Array.from(this.own.values()).filter((h) => h.phase === "done");
    for (const own of done.slice(0, Math.max(0, done.length - 100))) { this.own.delete(own.id); changed = true; }
    if (changed) this.save();
  }

  /* The other officials' entries in progress ("Ulises Umpire (umpire): foul…"), and a hold of
   * ours whose entry was refused (complete it, or let the clock run on). */
  renderPresence() {
    const box = document.getElementById("presence");
    if (!box) return;
    const items = [];
    for (const h of stateHolds(this.screen.state)) {
      const own = this.own.get(h.id);
      const stray = own && (own.phase === "orphan" || own.phase === "done");
      if (own && !stray) continue;
      if (own) {
        const release = el("button", {type: "button", class: "release-hold", "data-action": "release-hold"}, [gettext("Let the clock run on")]);
        release.addEventListener("click", () => this.release(own));
        const why = own.phase === "done"
          ? gettext("The stoppage you logged was voided: the clock is held at %(clock)s again. Log the stoppage that happened (its first key keeps this time), or:")
          : gettext("Your entry was not logged: the clock is held at %(clock)s. Log the stoppage again (its first key keeps this time), or:");
        items.push(el("li", {class: "presence-own", "data-hold": h.id, "data-kind": h.kind}, [
          el("span", {text: interpolate(why, {clock: formatClock(h.clock || 0)})}), " ", release]));
        continue;
      }
      const by = h.by || {};
      const who = by.name ? describeAuthor(by) : (ROLE_LABELS[by.role] || gettext("Another official"));
      items.push(el("li", {class: "presence-other", "data-hold": h.id, "data-kind": h.kind, "data-role": by.role || ""},
                    [interpolate(gettext("%(who)s: %(what)s…"), {who, what: HOLD_KINDS[h.kind] || h.kind})]));
    }
    const key = JSON.stringify(items.map((li) => [li.dataset.hold, li.className, li.textContent]));
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.replaceChildren(...items);
    box.hidden = !items.length;
  }
}
