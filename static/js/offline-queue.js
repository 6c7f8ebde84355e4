/* The officials' events on their way to the server, kept through bad wifi.
 *
 *   (exports OfflineQueue and newId)
 *   const queue = new OfflineQueue({
 *     key,                 // localStorage key (one queue per match, official and screen)
 *     send(body),          // -> Promise<{status, data}>; status 0 when the network failed (live.js api)
 *     lastSeq(),           // the log position the screen shows now (the event's expected_seq)
 *     onChange(queue),     // the queue changed: queue.items, queue.blocked, queue.offline
 *     onAccepted(item, data), onConflict(item, data), onRejected(item, data, stopped),
 *     onQuiet(item, data),   // a ``quiet`` event refused (dropped, nothing shown)
 *     onDiscard(item),       // the official dropped the blocked event
 *     now(),                 // optional: the synced server time; every event is stamped with it
 *                            // when added (``keyed_at``, the moment of its key: issue 34)
 *   });
 *   queue.add(event, options); queue.resend(); queue.discard(); queue.flush(); queue.takeOver();
 *   queue.recordNow();   // a blocked entry too old to be taken as kept: send it stamped now
 *   queue.remove(id);    // take an event out before it is sent (false once it is on its way)
 *
 * ``options`` (all optional): ``quiet`` — a refusal (any 4xx) drops the event without stopping
 * the queue or showing it (``onQuiet(item, data)`` is told); ``noExpected`` — send it without
 * ``expected_seq`` (a "hold" or "release": the clock held while an entry is typed, which no
 * other official's event makes stale); ``expectedSeq`` — the log position the official saw when
 * beginning the entry, when that is not the position now (an entry typed over several seconds).
 *
 * Every event goes through the queue, online or not, so there is one path. An event is stored
 * (localStorage: it survives a reload) before it is sent, and sent in order, one at a time, with
 * its client-made ``id`` — the API records an id once, so a retry after a lost answer is harmless —
 * and ``expected_seq``, the log position the official saw when logging it. Events logged behind
 * another queued event are *chained*: their expected_seq is the position the server gives the one
 * before them once it is accepted.
 *
 * Answers: 201/200 (a repeat) — accepted, next. 409 ``stale_sequence`` — someone else logged
 * meanwhile: the queue stops and shows a *conflict*; the official re-sends the event on the new
 * state or discards it (never dropped silently). 422 — refused by the rules: an event sent straight
 * away is dropped and the refusal shown; one replayed after being offline stops the queue until
 * the official discards it (what follows it may depend on it). 403/400/404 — stops the queue
 * (e.g. the session ended: log in again, then retry or discard). Network failure or 5xx — kept,
 * retried with a backoff and whenever the browser says it is online again.
 *
 * One tab at a time: the queue of a match, official and screen lives in one localStorage key, and two
 * tabs writing it would overwrite each other's events. The page opened last owns the queue; any
 * other tab of the same queue turns *passive* (``queue.passive``: it neither logs, sends nor
 * saves) until the official takes it back with ``queue.takeOver()``, which picks up whatever the
 * other tab left queued.
 */
import {CODES} from "./codes.js";

const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 10000;

export function newId() {
  if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
  // crypto.randomUUID needs a secure context; an http:// field laptop by IP is not one.
  const b = window.crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
}

export class OfflineQueue {
  constructor(opts) {
    this.opts = opts;
    this.items = this.load();
    this.blocked = null;      // {kind: "conflict" | "rejected", item, data}
    this.offline = false;     // the last send failed on the network
    this.inFlight = false;
    this.retryMs = RETRY_MIN_MS;
    this.retryTimer = null;
    this.passive = false;     // another tab owns this queue
    this.page = newId();
    this.ownerKey = opts.key + ":owner";
    window.addEventListener("online", () => this.flush());
    window.addEventListener("storage", (e) => this.storageChanged(e));
    this.claim();
    this.changed();
  }

  claim() {
    try { window.localStorage.setItem(this.ownerKey, this.page); } catch { /* no storage: one tab is all we know */ }
  }

  /* Another tab wrote the queue's owner (it opened, or took the queue over): step back. */
  storageChanged(e) {
    if (e.key === this.ownerKey && e.newValue && e.newValue !== this.page && !this.passive) {
      this.passive = true;
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
      this.blocked = null;
      if (this.opts.onChange) this.opts.onChange(this);
    } else if (e.key === this.opts.key && this.passive) {
      this.items = this.load();  // show what the owner has queued
      if (this.opts.onChange) this.opts.onChange(this);
    }
  }

  /* Use this tab again: its queue is whatever the other tab left in storage. */
  takeOver() {
    if (!this.passive) return;
    this.passive = false;
    this.items = this.load();
    this.blocked = null;
    this.offline = false;
    this.retryMs = RETRY_MIN_MS;
    this.claim();
    this.changed();
    this.flush();
  }

  load() {
    try {
      const items = JSON.parse(window.localStorage.getItem(this.opts.key) || "[]");
      // Whatever survived a reload was not sent straight away: a refusal must stop the queue.
      return Array.isArray(items) ? items.map((item) => Object.assign(item, {deferred: true})) : [];
    } catch {
      return [];
    }
  }

  save() {
    if (this.passive) return;  // the owner's queue, not ours to write
    try {
      if (this.items.length) window.localStorage.setItem(this.opts.key, JSON.stringify(this.items));
      else window.localStorage.removeItem(this.opts.key);
    } catch { /* storage full or private mode: the queue still works in memory */ }
  }

  changed() {
    this.save();
    if (this.opts.onChange) this.opts.onChange(this);
  }

  get length() { return this.items.length; }

  add(event, options) {
    if (this.passive) return null;
    options = options || {};
    // The moment of the key (issue 34): the server decides the entry then, however late it arrives.
    const stamp = this.opts.now && event.keyed_at == null ? {keyed_at: this.opts.now()} : {};
    const item = {
      event: Object.assign({id: newId()}, stamp, event),
      chained: this.items.length > 0,
      expected_seq: null,
      deferred: this.offline || this.blocked !== null,
      queued_at: Date.now() / 1000,
    };
    if (options.quiet) item.quiet = true;
    if (options.noExpected) item.noExpected = true;
    if (!item.chained) item.expected_seq = typeof options.expectedSeq === "number" ? options.expectedSeq : this.opts.lastSeq();
    this.items.push(item);
    this.changed();
    this.flush();
    return item;
  }

  /* The head left the queue without being recorded: the next event, if it was chained to it,
   * is now logged on top of whatever the head was logged on top of. */
  dropHead() {
    return this.dropAt(0);
  }

  dropAt(i) {
    const [gone] = this.items.splice(i, 1);
    const next = this.items[i];
    if (next && next.chained) {
      next.chained = gone.chained;
      next.expected_seq = gone.expected_seq;
    }
    return gone;
  }

  /* Take an event out of the queue before it is sent (an entry abandoned while its "hold" was
   * still waiting for the network: neither needs to go). False when it is on its way already,
   * or not in the queue. */
  remove(id) {
    const i = this.items.findIndex((it) => it.event.id === id);
    if (i < 0 || (i === 0 && this.inFlight) || this.passive) return false;
    if (this.blocked && this.blocked.item === this.items[i]) this.blocked = null;
    this.dropAt(i);
    this.changed();
    this.flush();
    return true;
  }

  flush() {
    if (this.passive || this.inFlight || this.blocked || !this.items.length) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const item = this.items[0];
    if (item.chained) {  // its predecessor is gone but its answer was lost (a reload): log on what the screen shows
      item.chained = false;
      item.expected_seq = this.opts.lastSeq();
    }
    this.inFlight = true;
    const body = item.noExpected ? Object.assign({}, item.event) : Object.assign({}, item.event, {expected_seq: item.expected_seq});
    Promise.resolve(this.opts.send(body)).then(
      (answer) => this.answered(item, answer || {status: 0}),
      () => this.answered(item, {status: 0}),
    );
  }

  answered(item, answer) {
    this.inFlight = false;
    // Another tab took the queue meanwhile: it sends this event again (the same id: recorded once).
    if (this.passive) return;
    if (this.items[0] !== item) { this.flush(); return; }  // discarded meanwhile
    const status = answer.status, data = answer.data || {};
    if (status === 0 || status >= 500) {
      this.items.forEach((it) => { it.deferred = true; });
      this.offline = true;
      this.changed();
      this.retryTimer = setTimeout(() => this.flush(), this.retryMs);
      this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
      return;
    }
    this.offline = false;
    this.retryMs = RETRY_MIN_MS;
    if (status === 200 || status === 201) {
      this.items.shift();
      const next = this.items[0];
      if (next && next.chained) {
        next.chained = false;
        next.expected_seq = typeof data.last_seq === "number" ? data.last_seq : this.opts.lastSeq();
      }
      this.changed();
      if (this.opts.onAccepted) this.opts.onAccepted(item, data);
      this.flush();
      return;
    }
    if (item.quiet) {  // a hold or release the server has no use for now: harmless, dropped
      this.dropHead();
      this.changed();
      if (this.opts.onQuiet) this.opts.onQuiet(item, data);
      this.flush();
      return;
    }
    const code = data.error && data.error.code;
    if (status === 409 && code === CODES.STALE_SEQUENCE) {
      this.blocked = {kind: "conflict", item: item, data: data};
      this.changed();
      if (this.opts.onConflict) this.opts.onConflict(item, data);
      return;
    }
    // Refused by the rules (422): an event sent straight away is dropped and the refusal shown;
    // one replayed from the queue stops it. Not allowed or not understood (403: logged out,
    // 400, 404): stop, so that the official can log in again and retry, or discard.
    if (status === 422 && !item.deferred) {
      this.dropHead();
      this.changed();
      if (this.opts.onRejected) this.opts.onRejected(item, data, false);
      this.flush();
      return;
    }
    this.blocked = {kind: status === 422 ? "rejected" : "refused", item: item, data: data, status: status};
    this.changed();
    if (this.opts.onRejected) this.opts.onRejected(item, data, true);
  }

  /* Send the blocked event again: after a conflict, on the log as the server has it now;
   * after a refusal that was not the rules' (logged out…), as it was. */
  resend() {
    if (!this.blocked) return;
    const head = this.items[0];
    if (head === this.blocked.item && this.blocked.kind === "conflict") {
      head.chained = false;
      head.expected_seq = typeof this.blocked.data.last_seq === "number" ? this.blocked.data.last_seq : this.opts.lastSeq();
    }
    this.blocked = null;
    this.changed();
    this.flush();
  }

  /* An entry kept at the field longer than the server takes as kept (``clock_too_old``): record
   * it now instead, at the official clock as it runs now (the umpires confirm the time, and correct
   * it with a clock set if need be) — never a queue that can only be thrown away (issue 34). */
  recordNow() {
    const blocked = this.blocked, error = blocked && blocked.data && blocked.data.error;
    if (!blocked || blocked.kind !== "rejected" || !error || error.code !== CODES.CLOCK_TOO_OLD) return;
    const head = this.items[0];
    if (head !== this.blocked.item) return;
    const event = Object.assign({}, head.event);
    delete event.clock;
    event.keyed_at = this.opts.now ? this.opts.now() : undefined;
    if (event.keyed_at === undefined) delete event.keyed_at;
    head.event = event;
    head.chained = false;
    head.expected_seq = this.opts.lastSeq();
    this.blocked = null;
    this.changed();
    this.flush();
  }

  /* Conflict or refusal: drop the blocked event (the official decided) and go on. */
  discard() {
    if (!this.blocked) return;
    const item = this.blocked.item;
    if (this.items[0] === item) this.dropHead();
    this.blocked = null;
    this.changed();
    if (this.opts.onDiscard) this.opts.onDiscard(item);
    this.flush();
  }
}
