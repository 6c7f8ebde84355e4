/* The browser side of docs/LIVE-PROTOCOL.md, shared by every live page (an ES module).
 *
 *   const live = connect({matchId, onState, onStatus, onHorn, onEvents, onTick});  (also exported: intervalInfo)
 *   live.serverNow(); live.clockElapsed(); live.intervalRemaining(); live.state; live.lastSeq; live.close();
 *   api(path, {method, body})  -> Promise<{status, data}>  (status 0: network error)
 *
 * A *snapshot* is the whole state (on connect, on resync); an *update* the state after accepted
 * events (``seq``): one at or below ``lastSeq`` is a repeat, one past it a gap (resync). The clock
 * runs here from ``state.clock`` (elapsed at ``anchor``) on a server time synced NTP-style; the
 * horns (Rule 14.b) are derived from it and sounded by horns.js.
 *
 * Where websockets are blocked: Server-Sent Events, else the state polled with its ETag. While the
 * field's timekeeper is silent (issue 34: field-status.js) the clock is held where last heard. The
 * debug handle ``window.PoloLive.instances``: for tests and the browser benchmarks, no page script. */
import {heldAt, renderFieldBanner, silentFor} from "./field-status.js";
import {formatClock} from "./format.js";
import {showHornBanner, soundHorn} from "./horns.js";

const HEARTBEAT_TIMEOUT_MS = 35000;  // the server beats every 15 s unless an update came: < 30 s of silence
const RESYNC_CLOCK_MS = 30000;       // ping burst for the offset every 30 s
const OFFSET_SAMPLES = 8, POLL_MS = 3000, BACKOFF_MIN_MS = 500, BACKOFF_MAX_MS = 30000;  // POLL_MS: HTTP while the socket is down
const HORN_LATE_S = 3;               // a horn noticed later than this (a sleeping tab) stays silent
const WARNING_LEFT_S = 120;          // the warning horn: 2:00 left in the interval (the protocol's)
const WS_FAILURES_BEFORE_SSE = 2;    // sockets that failed without ever opening: websockets are blocked
const TICK_MAX_MS = 100;             // a screen's counters are redrawn at least this often (``pace``)
const TICK_LATE_MS = 2;              // a tick aimed at a whole second comes this late: just past it

const clientNow = () => Date.now() / 1000;
const num = (v, d) => (typeof v === "number" && isFinite(v) ? v : d);

// --- HTTP ----------------------------------------------------------------------------------------
export function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

/* fetch with the CSRF token and JSON; resolves {status, data}; never rejects (a network failure or
 * an answer cut off is status 0). */
export function api(path, opts = {}) {
  const method = (opts.method || (opts.body !== undefined ? "POST" : "GET")).toUpperCase();
  const headers = {"Accept": "application/json"};
  // "no-cache" (the polls): revalidated with the ETag kept; everything else is never kept.
  const init = {method, headers, credentials: "same-origin", cache: opts.cache || "no-store"};
  if (method !== "GET" && method !== "HEAD") headers["X-CSRFToken"] = csrfToken();
  if (opts.body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(opts.body);
  }
  const failed = (error) => ({status: 0, data: null, error});
  return fetch(path, init).then((r) => r.text().then((text) => {
    let data;
    try { data = text ? JSON.parse(text) : null; } catch { data = null; }
    return {status: r.status, data};
  }, failed), failed);
}

// --- Helpers on the state ------------------------------------------------------------------------
/* The interval (or half-time) countdown, {seconds, started_at}, from ``state.interval`` or a timer. */
export function intervalInfo(state) {
  if (!state || state.status !== "interval") return null;
  const iv = state.interval;
  if (iv && typeof iv === "object") {
    const secs = num(iv.seconds, num(iv.duration, null));
    if (iv.started_at != null && secs != null) return {seconds: secs, started_at: iv.started_at};
    if (iv.ends_at != null && secs != null) return {seconds: secs, started_at: iv.ends_at - secs};
  }
  for (const t of state.timers || []) {
    if ((t.kind === "interval" || t.kind === "halftime") && t.started_at != null) {
      return {seconds: t.seconds, started_at: t.started_at};
    }
  }
  return null;
}

function normaliseEvents(list) {
  if (!list || !list.length) return [];
  const out = list.map((ev) => {
    const payload = ev.event || ev.payload || ev;
    return {seq: ev.seq, id: ev.id || payload.id, type: ev.type || payload.type, event: payload,
            received_at: ev.received_at};
  });
  out.sort((a, b) => (a.seq || 0) - (b.seq || 0));
  return out;
}

// --- One live match ------------------------------------------------------------------------------
const instances = [];

class Live {
  constructor(opts) {
    this.opts = opts;
    this.matchId = opts.matchId;
    this.state = opts.state || null;
    this.lastSeq = opts.state ? num(opts.lastSeq, num(opts.state.last_seq, 0)) : null;
    this.eventsSeq = opts.eventsSince != null ? opts.eventsSince : this.lastSeq;
    this.status = null;
    this.closed = false;
    this.ws = null;
    this.es = null;            // the EventSource, once websockets are known to be blocked
    this.transport = "websocket";  // or "sse"
    this.wsFailures = 0;       // sockets in a row that failed before they opened
    this.wsOpened = false;     // a socket has opened on this page (then a failure is an outage)
    this.probing = false;      // asking /api/time whether HTTP gets through where sockets do not
    this.attempt = 0;
    this.everLive = false;
    this.offset = 0;
    this.samples = [];
    this.resyncing = false;
    this.fetchingEvents = false;
    this.fetchAgain = false;
    this.fired = {};
    this.prev = null;  // the clock as last seen by tick(), for horn crossings
    this.ticks = 0;    // how many times the screen has been redrawn (tests wait for the next ones)
    this.timers = {};
    this.field = opts.field || null;  // the server's word on the field's timekeeper (issue 34)
    if (opts.serverTime != null) this.offset = opts.serverTime - clientNow();
    this._onVisible = () => { if (!document.hidden) this.tick(); };
    document.addEventListener("visibilitychange", this._onVisible);
    // No network at all (navigator.onLine): offline at once, not after the heartbeat's silence; back: reconnect now.
    const reconnectNow = () => { if (!this.ws && !this.es) { this.cancel("reconnect"); this.attempt = 0; this.open(); } };
    this._network = {offline: () => this.dropSocket(), online: reconnectNow};
    for (const [name, fn] of Object.entries(this._network)) window.addEventListener(name, fn);
    this.setStatus("connecting");
    this.open();
    this.pace();
  }

  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    if (status === "live") this.stopPolling(); else this.startPolling();
    if (this.opts.onStatus) this.opts.onStatus(status);
  }

  later(name, ms, fn) {
    clearTimeout(this.timers[name]);
    this.timers[name] = setTimeout(() => { delete this.timers[name]; if (!this.closed) fn.call(this); }, ms);
  }

  cancel(name) { clearTimeout(this.timers[name]); delete this.timers[name]; }

  wsUrl() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    return this.opts.wsUrl || scheme + location.host + "/ws/matches/" + this.matchId + "/" + this.langQuery();
  }

  langQuery() { return this.opts.lang ? "?lang=" + encodeURIComponent(this.opts.lang) : ""; }

  open() {
    if (this.transport === "sse") { this.openStream(); return; }
    let ws;
    try { ws = new WebSocket(this.wsUrl()); } catch { this.wsFailed(); return; }
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      opened = true;
      this.wsOpened = true;
      this.wsFailures = 0;
      this.watchdog();
      this.pingBurst(4);
      if (this.opts.presenceMs) this.later("presence", this.opts.presenceMs, this.presenceLoop);
    };
    ws.onmessage = (e) => { if (this.ws === ws) this.frameIn(e.data); };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (!opened) { this.wsFailed(); return; }
      this.dropped();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  frameIn(text) {  // one frame of the socket or the stream
    this.watchdog();
    let msg;
    try { msg = JSON.parse(text); } catch { return; }
    this.receive(msg);
  }

  wsFailed() {
    // Twice a socket that never opened, on a page where none ever has, while GET /api/time answers:
    // websockets are blocked here, so Server-Sent Events from now on (else an outage: keep trying).
    this.wsFailures += 1;
    if (!this.wsOpened && !this.probing && this.wsFailures >= WS_FAILURES_BEFORE_SSE &&
        typeof window.EventSource === "function") {
      this.probing = true;
      api("/api/time").then((r) => {
        this.probing = false;
        if (r.status === 200 && !this.wsOpened && !this.closed) { this.transport = "sse"; this.attempt = 0; }
      });
    }
    this.dropped();
  }

  openStream() {
    let es;
    try {
      es = new window.EventSource("/api/matches/" + this.matchId + "/stream" + this.langQuery(), {withCredentials: true});
    } catch { this.scheduleReconnect(); return; }
    this.es = es;
    es.onopen = () => {
      if (this.es !== es) return;
      this.watchdog();
      this.syncOverHttp();
    };
    es.onmessage = (e) => { if (this.es === es) this.frameIn(e.data); };
    es.onerror = () => {
      // The browser reconnects by itself (its Last-Event-ID brings what was missed) unless the
      // stream could not be had at all (CLOSED): then poll, and try again with the backoff.
      if (this.es !== es) return;
      if (es.readyState === 2) { this.es = null; this.dropped(); } else if (this.status === "live") this.setStatus("offline");
    };
  }

  syncOverHttp() {
    // No pings over a stream: the clock offset from GET /api/time (NTP-style, as a pong), now and
    // every 30 s while the stream is the transport.
    const t0 = clientNow();
    api("/api/time").then((r) => {
      if (r.status === 200 && r.data) this.pong({client_time: t0, server_time: r.data.server_time});
    });
    this.later("ping", RESYNC_CLOCK_MS, this.syncOverHttp);
  }
  dropped() {
    this.closeLink();
    this.cancel("watchdog");
    this.cancel("ping");
    this.resyncing = false;
    if (this.closed) return;
    this.setStatus(this.everLive || this.attempt > 0 ? "offline" : "connecting");
    this.scheduleReconnect();
  }

  scheduleReconnect() {
    // Exponential backoff with full jitter, so that a thousand screens do not all come back at
    // the same instant after a restart.
    const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * Math.pow(2, this.attempt));
    const delay = BACKOFF_MIN_MS / 2 + Math.random() * cap;
    this.attempt += 1;
    this.later("reconnect", delay, this.open);
  }

  // Heard nothing for 35 s (a heartbeat or an update comes at least every 30): the socket is dead
  // even if the browser has not noticed.
  watchdog() { this.later("watchdog", HEARTBEAT_TIMEOUT_MS, this.dropSocket); }

  dropSocket() { if (this.closeLink()) this.dropped(); }  // (nothing more is sent into a dead link)

  closeLink() {  // whether there was a socket or a stream
    const ws = this.ws, es = this.es;
    this.ws = this.es = null;
    try { if (ws) ws.close(); if (es) es.close(); } catch { /* ignore */ }
    return !!(ws || es);
  }

  send(msg) {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(msg));
  }

  ping() {  // with the field's unsent entries (issue 34)
    this.send(Object.assign({type: "ping", client_time: clientNow()}, this.opts.pending ? {pending: this.opts.pending()} : {}));
  }

  // The timekeeper's word (issue 34): every ``presenceMs``, and at once with ``presence()``.
  presenceLoop() { this.ping(); this.later("presence", this.opts.presenceMs, this.presenceLoop); }

  presence() { if (this.ws) this.ping(); }

  pingBurst(n) {
    let i = 0;
    const one = () => {
      if (this.closed || !this.ws) return;
      this.ping();
      i += 1;
      if (i < n) this.later("ping", 200, one);
      else this.later("ping", RESYNC_CLOCK_MS, () => this.pingBurst(2));
    };
    one();
  }

  pong(msg) {
    const t1 = clientNow(), t0 = msg.client_time;
    if (typeof t0 !== "number" || typeof msg.server_time !== "number") return;
    const rtt = t1 - t0;
    if (rtt < 0) return;
    this.samples.push({rtt, offset: msg.server_time - (t0 + t1) / 2});
    if (this.samples.length > OFFSET_SAMPLES) this.samples.shift();
    let best = this.samples[0];
    for (const sample of this.samples) if (sample.rtt < best.rtt) best = sample;
    this.offset = best.offset;
    this.rtt = best.rtt;
    this.tick();
  }

  receive(msg) {
    switch (msg.type) {
      case "snapshot": return this.snapshot(msg);
      case "update": return this.update(msg);
      case "pong": return this.pong(msg);
      case "field": return this.fieldHeard(msg.field);
      case "heartbeat":
        if (typeof msg.last_seq === "number" && this.lastSeq != null && msg.last_seq > this.lastSeq) this.resync();
        return;
      case "error":
        console.warn("PoloLive:", msg.code, msg.message || "");
        return;
    }
  }

  fieldHeard(field) {  // what the server says of the field's timekeeper (issue 34)
    if (!field || typeof field !== "object") return;
    this.field = field;
    if (this.opts.onField) this.opts.onField(field);
    this.tick();
  }
  fieldSilentFor() { return silentFor(this.field, this.serverNow()); }

  roughOffset(serverTime) {
    // Until the first pong, a message's server_time is the best guess we have.
    if (!this.samples.length && typeof serverTime === "number") this.offset = serverTime - clientNow();
  }

  snapshot(msg) {
    this.resyncing = false;
    this.cancel("resync");
    this.attempt = 0;
    this.everLive = true;
    this.roughOffset(msg.server_time);
    if (msg.field) this.field = msg.field;
    const seq = num(msg.last_seq, num(msg.state && msg.state.last_seq, 0));
    const events = normaliseEvents(msg.events);  // a resync's snapshot carries the missed events
    if (this.lastSeq == null || seq >= this.lastSeq) this.apply(msg.state, seq, msg.server_time, "snapshot", events);
    this.setStatus("live");
    this.deliverEvents(events);
    this.catchUpEvents();
  }

  update(msg) {
    this.roughOffset(msg.server_time);
    const last = num(msg.last_seq, msg.seq);
    if (this.lastSeq != null && last <= this.lastSeq) return;  // a repeat: nothing doubled
    const events = normaliseEvents(msg.events);
    let first = msg.seq;
    if (events.length) first = events[0].seq != null ? events[0].seq : msg.seq - events.length + 1;
    if (this.lastSeq != null && first > this.lastSeq + 1) {  // a gap: something was missed
      this.resync();
      return;
    }
    // Only the field writes a match kept there (issue 35): an update is the field heard, not said again.
    if (this.field && this.field.kept_at === "field") this.fieldHeard({...this.field, heard_at: msg.server_time, silent: false});
    this.apply(msg.state, last, msg.server_time, "update", events, msg.goals);
    this.deliverEvents(events);
  }

  resync() {
    if (this.resyncing) return;
    if (!this.ws) {  // (a stream only reads: the state and the events over HTTP instead)
      this.poll();
      return;
    }
    this.resyncing = true;
    this.send({type: "resync", since: this.lastSeq || 0});
    // No snapshot in 5 s: read the state over HTTP instead.
    this.later("resync", 5000, () => { this.resyncing = false; this.poll(); });
  }

  apply(state, lastSeq, serverTime, source, events, goals) {
    if (!state) return;
    const previous = this.state;
    this.state = state;
    this.lastSeq = lastSeq;
    if (this.eventsSeq == null) this.eventsSeq = lastSeq;
    if (source === "update") this.confirmHorns(previous, state, events);
    if (this.opts.onState) this.opts.onState(state, {lastSeq, serverTime, source, events, goals, previous});
    this.tick();
  }

  deliverEvents(events) {
    if (!this.opts.onEvents || !events.length) return;
    const after = this.eventsSeq;
    const fresh = events.filter((ev) => ev.seq == null || after == null || ev.seq > after);
    if (!fresh.length) return;
    if (after != null && fresh[0].seq != null && fresh[0].seq > after + 1) { this.catchUpEvents(); return; }
    const last = fresh[fresh.length - 1].seq;
    if (last != null) this.eventsSeq = last;
    this.opts.onEvents(fresh);
  }

  catchUpEvents() {
    // Events the socket did not carry (a gap, a reconnect, the HTTP fallback): fetch them in order.
    if (!this.opts.onEvents || this.eventsSeq == null || this.lastSeq == null || this.lastSeq <= this.eventsSeq) return;
    if (this.fetchingEvents) { this.fetchAgain = true; return; }
    this.fetchingEvents = true;
    const from = this.eventsSeq;
    api("/api/matches/" + this.matchId + "/events?since=" + from).then((r) => {
      this.fetchingEvents = false;
      if (this.closed) return;
      if (r.status === 200 && r.data && r.data.events) this.deliverEvents(normaliseEvents(r.data.events));
      const again = this.fetchAgain;
      this.fetchAgain = false;
      // Page on while the answer moved us forward (a long gap comes in pages); never spin on a
      // failed or empty answer: the next update or snapshot tries again.
      if (r.status === 200 && this.eventsSeq > from && (again || this.lastSeq > this.eventsSeq)) this.catchUpEvents();
    });
  }

  // --- HTTP fallback -----------------------------------------------------------------------------
  startPolling() {
    if (this.closed || this.timers.poll) return;
    this.later("poll", POLL_MS * (0.5 + Math.random()), this.pollLoop);
    // A polled state may come from a cache (up to a few seconds old, its server_time with it):
    // the clock's offset comes from /api/time, never cached.
    if (!this.timers.ping) this.syncOverHttp();
  }

  stopPolling() { this.cancel("poll"); }

  pollLoop() {
    this.poll().then(() => {
      if (!this.closed && this.status !== "live") this.later("poll", POLL_MS * (0.75 + Math.random() / 2), this.pollLoop);
    });
  }

  poll() {
    const sent = clientNow();
    return api("/api/matches/" + this.matchId + "/state" + this.langQuery(), {cache: "no-cache"}).then((r) => {
      if (this.closed || r.status !== 200 || !r.data || !r.data.state) return;
      const t1 = clientNow();
      if (!this.samples.length && typeof r.data.server_time === "number") this.offset = r.data.server_time - (sent + t1) / 2;
      const seq = num(r.data.last_seq, num(r.data.state.last_seq, 0));
      if (r.data.field) this.fieldHeard(r.data.field);
      if (this.lastSeq == null || seq > this.lastSeq) {
        this.apply(r.data.state, seq, r.data.server_time, "http", []);
        this.catchUpEvents();
      }
    });
  }

  // --- Clock and horns ---------------------------------------------------------------------------
  serverNow() { return clientNow() + this.offset; }

  /* The single and the double horn in elapsed seconds (the state's clock, else the page's
   * ``periodSeconds``/``extraSeconds``); null for what neither says. */
  hornTimes() {
    const c = (this.state && this.state.clock) || {};
    const seven = num(c.regular_seconds, num(this.opts.periodSeconds, null));
    const extra = num(this.opts.extraSeconds, null);
    return {seven, final: num(c.end_seconds, seven != null && extra != null ? seven + extra : null)};
  }

  clockElapsed() {
    const c = this.state && this.state.clock;
    if (!c) return 0;
    let e = num(c.elapsed, 0);
    if (c.running && c.anchor != null) {
      // Never past the double horn (as the engine); held while the field is silent (issue 34).
      const cap = num(this.hornTimes().final, Infinity);
      const now = this.opts.fieldClock === false ? this.serverNow() : heldAt(this.field, this.serverNow(), c.anchor);
      e = Math.min(Math.max(e, e + (now - c.anchor)), Math.max(e, cap));
    }
    return e;
  }

  intervalRemaining() {
    const left = this.intervalLeft();
    return left == null ? null : Math.max(0, left);
  }

  intervalLeft() {  // negative once the countdown is over
    const iv = intervalInfo(this.state);
    return iv ? iv.seconds - (this.serverNow() - iv.started_at) : null;
  }

  periodNumber() {
    const p = this.state && this.state.period;
    return p ? p.number : 0;
  }

  horn(key, kind) {
    if (this.fired[key]) return;
    this.fired[key] = true;
    if (this.opts.banner !== false) showHornBanner(kind);
    if (this.opts.sound !== false) soundHorn(kind);
    if (this.opts.onHorn) this.opts.onHorn(kind);
  }

  tick() {
    if (this.closed || !this.state) return;
    this.ticks += 1;
    const {seven: P, final: F} = this.hornTimes();
    const c = this.state.clock || {};
    const period = this.periodNumber();
    const now = {period, running: !!c.running, elapsed: this.clockElapsed(), interval: this.intervalLeft()};
    const prev = this.prev;
    const crossed = (mark) => mark != null && now.running && prev.elapsed < mark && now.elapsed >= mark && now.elapsed - mark < HORN_LATE_S;
    if (prev && prev.period === period) {
      // Rule 14.b: one horn at the end of regular time, two at the end of the extra time — on
      // the crossing, unless noticed too late.
      if (crossed(P)) this.horn(period + ":seven", "seven");
      if (crossed(F)) this.horn(period + ":final", "final");
    }
    if (prev && prev.interval != null && now.interval != null) {
      const iv = this.state.interval;
      const next = iv && iv.next_period && iv.next_period.number ? iv.next_period.number : period + 1;
      if (prev.interval > WARNING_LEFT_S && now.interval <= WARNING_LEFT_S && WARNING_LEFT_S - now.interval < HORN_LATE_S) this.horn(next + ":warning", "warning");
      if (prev.interval > 0 && now.interval <= 0 && -now.interval < HORN_LATE_S) this.horn(next + ":start", "start");
    }
    this.prev = now;
    if (this.opts.fieldBanner !== false) renderFieldBanner(this);
    if (this.opts.onTick) this.opts.onTick(this);
    this.scheduleHornCheck(now);
  }

  scheduleHornCheck(now) {
    // rAF stops in hidden tabs; a timeout aimed at the next horn keeps them on time anyway.
    const {seven: P, final: F} = this.hornTimes();
    let wait = Infinity;
    if (now.running) {
      if (P != null && now.elapsed < P) wait = P - now.elapsed;
      else if (F != null && now.elapsed < F) wait = F - now.elapsed;
    }
    if (now.interval != null) {
      if (now.interval > WARNING_LEFT_S) wait = Math.min(wait, now.interval - WARNING_LEFT_S);
      else if (now.interval > 0) wait = Math.min(wait, now.interval);
    }
    if (wait === Infinity) { this.cancel("horn"); this.hornAt = null; return; }
    const at = Date.now() + Math.min(wait * 1000 + 20, 10000);
    if (this.timers.horn && this.hornAt != null && Math.abs(at - this.hornAt) < 50) return;  // already aimed
    this.hornAt = at;
    this.later("horn", at - Date.now(), this.tick);
  }

  /* A tick at each whole second of the clock or countdown, and at least every ``TICK_MAX_MS`` (an
   * official's timers); not an animation-frame loop (a tenth of a core per idle scoreboard). */
  pace() {
    if (this.closed) return;
    if (!document.hidden) this.tick();
    this.later("pace", this.nextTickMs(), this.pace);
  }

  nextTickMs() {
    let wait = TICK_MAX_MS;
    const toWhole = (seconds) => {  // ms until ``seconds`` (counting up or down) next crosses a whole second
      const ms = Math.ceil((1 - (((seconds % 1) + 1) % 1)) * 1000);
      if (ms > 0) wait = Math.min(wait, ms + TICK_LATE_MS);
    };
    const c = this.state && this.state.clock;
    if (c && c.running) toWhole(this.clockElapsed());
    const left = this.intervalLeft();
    if (left != null) toWhole(-left);
    return wait;
  }

  /* The server's own word for a horn (an update carrying a horn event, or the first play of a
   * chukker) sounds it if the local clock has not already. */
  confirmHorns(previous, state, events) {
    const period = state.period ? state.period.number : 0;
    let fresh = true;
    for (const ev of events) {
      const e = ev.event || {};
      if (ev.received_at) {
        const at = typeof ev.received_at === "number" ? ev.received_at : Date.parse(ev.received_at) / 1000;
        fresh = !isFinite(at) || this.serverNow() - at < HORN_LATE_S + 2;
      }
      if (!fresh) continue;
      if (ev.type === "horn" && (e.kind === "seven" || e.kind === "final")) this.horn(period + ":" + e.kind, e.kind);
    }
    const before = previous && previous.period ? previous.period.number : 0;
    if (fresh && state.clock && state.clock.running && period > before && previous) this.horn(period + ":start", "start");
  }

  /* Time left down to 0:00 at the single horn, then "+0:12" of extra time; played when no length. */
  clockText() {
    const e = this.clockElapsed(), P = this.hornTimes().seven;
    if (P == null) return formatClock(e);
    if (e > P) return "+" + formatClock(e - P);
    return formatClock(Math.ceil(P - e - 1e-6));
  }

  close() {
    this.closed = true;
    if (instances.includes(this)) instances.splice(instances.indexOf(this), 1);
    for (const timer of Object.values(this.timers)) clearTimeout(timer);
    this.timers = {};
    document.removeEventListener("visibilitychange", this._onVisible);
    for (const [name, fn] of Object.entries(this._network)) window.removeEventListener(name, fn);
    this.closeLink();
  }
}

/* Follow one match live (the options: docs/LIVE-PROTOCOL.md, "Browser client"). */
export function connect(opts) {
  const live = new Live(opts);
  instances.push(live);
  return live;
}

// The debug handle (see above): the page's connections, for tests and benchmarks only.
window.PoloLive = Object.freeze({instances});
