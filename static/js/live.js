/* PoloLive — the browser side of docs/LIVE-PROTOCOL.md, shared by every live page.
 *
 *   const live = PoloLive.connect({matchId, onState, onStatus, onHorn, onEvents, onTick});
 *   live.serverNow(); live.clockElapsed(); live.intervalRemaining(); live.state; live.lastSeq; live.close();
 *   PoloLive.api(path, {method, body})  -> Promise<{status, data}>  (status 0: network error)
 *
 * Vocabulary: a *snapshot* is the whole state sent on connect or on a resync request; an *update*
 * is the state after one accepted event (with its sequence number ``seq``). The client keeps
 * ``lastSeq``: an update at or below it is a repeat (ignored), one that skips past it means
 * something was missed (the client asks for a resync). The official clock is never ticked by the
 * server: the client runs it from ``state.clock`` (elapsed at ``anchor``) and a server time
 * synced NTP-style over the socket. Horns are derived locally from that clock (Rule 14.b: one at
 * 7:00, two at 7:30; a warning 2 minutes before a chukker and two at its start).
 */
(function () {
  "use strict";

  var gettext = window.gettext || function (s) { return s; };
  var HEARTBEAT_TIMEOUT_MS = 35000;  // the server beats every 15 s
  var RESYNC_CLOCK_MS = 30000;       // ping burst for the offset every 30 s
  var OFFSET_SAMPLES = 8;
  var POLL_MS = 3000;                // HTTP fallback while the socket is down
  var BACKOFF_MIN_MS = 500, BACKOFF_MAX_MS = 30000;
  var HORN_LATE_S = 3;               // a horn noticed later than this (a sleeping tab) stays silent
  var WARNING_LEFT_S = 120;          // the warning horn: 2:00 left in the interval

  function clientNow() { return Date.now() / 1000; }

  // --- HTTP ------------------------------------------------------------------------------------
  function csrfToken() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  function api(path, opts) {
    opts = opts || {};
    var method = (opts.method || (opts.body !== undefined ? "POST" : "GET")).toUpperCase();
    var headers = {"Accept": "application/json"};
    var init = {method: method, headers: headers, credentials: "same-origin", cache: "no-store"};
    if (method !== "GET" && method !== "HEAD") headers["X-CSRFToken"] = csrfToken();
    if (opts.body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(opts.body);
    }
    function failed(err) { return {status: 0, data: null, error: err}; }
    // Never rejects: a network failure, or a server that dies halfway through its answer, is
    // status 0 (callers keep flags such as "a fetch is in flight" that a rejection would leave set).
    return fetch(path, init).then(function (r) {
      return r.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        return {status: r.status, data: data};
      }, failed);
    }, failed);
  }

  // --- Horns: a banner and Web Audio -----------------------------------------------------------
  var audio = {ctx: null, muted: false};
  try { audio.muted = window.localStorage.getItem("poloMuted") === "1"; } catch (e) { /* private mode */ }
  var muteListeners = [];

  function audioContext() {
    if (!audio.ctx) {
      var AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return null;
      audio.ctx = new AC();
    }
    return audio.ctx;
  }

  function unlockAudio() {
    // Browsers start an AudioContext suspended until a user gesture: resume on the first one.
    var ctx = audioContext();
    if (ctx && ctx.state === "suspended") ctx.resume();
  }
  ["pointerdown", "keydown", "touchend"].forEach(function (type) {
    document.addEventListener(type, unlockAudio, {capture: true, passive: true});
  });

  var HORN_BLASTS = {seven: 1, final: 2, warning: 1, start: 2};

  function soundHorn(kind) {
    if (audio.muted) return;
    var ctx = audioContext();
    if (!ctx) return;
    if (ctx.state === "suspended") ctx.resume();
    var blasts = HORN_BLASTS[kind] || 1;
    var length = kind === "warning" ? 0.4 : 0.7;
    var t = ctx.currentTime + 0.02;
    for (var i = 0; i < blasts; i++) {
      var osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.type = "sawtooth";
      osc.frequency.setValueAtTime(233, t);  // a low, reedy air-horn tone
      gain.gain.setValueAtTime(0, t);
      gain.gain.linearRampToValueAtTime(0.25, t + 0.03);
      gain.gain.setValueAtTime(0.25, t + length - 0.05);
      gain.gain.linearRampToValueAtTime(0, t + length);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start(t);
      osc.stop(t + length + 0.02);
      t += length + 0.25;
    }
  }

  function hornLabel(kind) {
    switch (kind) {
      case "seven": return gettext("Seven minutes");
      case "final": return gettext("End of the chukker");
      case "warning": return gettext("Two minutes to the next chukker");
      case "start": return gettext("The chukker starts");
    }
    return gettext("Horn");
  }

  var banner = null, bannerTimer = null;
  function showHornBanner(kind) {
    if (!banner) {
      banner = document.createElement("div");
      banner.className = "polo-horn";
      banner.setAttribute("role", "status");
      banner.setAttribute("aria-live", "assertive");
      // Minimal styling from JS (CSP: no inline style attributes); pages refine it in CSS.
      banner.style.setProperty("position", "fixed");
      banner.style.setProperty("left", "0");
      banner.style.setProperty("right", "0");
      banner.style.setProperty("top", "0");
      banner.style.setProperty("z-index", "1000");
      banner.style.setProperty("text-align", "center");
      document.body.appendChild(banner);
    }
    banner.textContent = hornLabel(kind);
    banner.setAttribute("data-kind", kind);
    banner.hidden = false;
    banner.classList.remove("polo-horn--on");
    void banner.offsetWidth;  // restart the CSS flash animation
    banner.classList.add("polo-horn--on");
    clearTimeout(bannerTimer);
    bannerTimer = setTimeout(function () { banner.hidden = true; banner.classList.remove("polo-horn--on"); }, 4000);
  }

  function setMuted(muted) {
    audio.muted = !!muted;
    try { window.localStorage.setItem("poloMuted", audio.muted ? "1" : "0"); } catch (e) { /* ignore */ }
    if (!audio.muted) unlockAudio();
    muteListeners.forEach(function (fn) { fn(audio.muted); });
  }

  function bindMuteButton(button) {
    function show(muted) {
      button.setAttribute("aria-pressed", muted ? "true" : "false");
      button.textContent = muted ? gettext("Sound off") : gettext("Sound on");
    }
    show(audio.muted);
    muteListeners.push(show);
    button.addEventListener("click", function () { setMuted(!audio.muted); });
  }

  // --- Helpers on the state --------------------------------------------------------------------
  function num(v, d) { return typeof v === "number" && isFinite(v) ? v : d; }

  /* The interval (or half-time) countdown: {seconds, started_at} or null. The engine reports it
   * as ``state.interval`` or as a timer of kind interval/halftime; both carry started_at. */
  function intervalInfo(state) {
    if (!state || state.status !== "interval") return null;
    var iv = state.interval;
    if (iv && typeof iv === "object") {
      var secs = num(iv.seconds, num(iv.duration, null));
      if (iv.started_at != null && secs != null) return {seconds: secs, started_at: iv.started_at};
      if (iv.ends_at != null && secs != null) return {seconds: secs, started_at: iv.ends_at - secs};
    }
    var timers = state.timers || [];
    for (var i = 0; i < timers.length; i++) {
      var t = timers[i];
      if ((t.kind === "interval" || t.kind === "halftime") && t.started_at != null) {
        return {seconds: t.seconds, started_at: t.started_at};
      }
    }
    return null;
  }

  function formatClock(seconds) {
    seconds = Math.max(0, Math.floor(seconds + 1e-6));
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  // --- One live match --------------------------------------------------------------------------
  function Live(opts) {
    this.opts = opts;
    this.matchId = opts.matchId;
    this.state = opts.state || null;
    this.lastSeq = opts.state ? num(opts.lastSeq, num(opts.state.last_seq, 0)) : null;
    this.eventsSeq = opts.eventsSince != null ? opts.eventsSince : this.lastSeq;
    this.periodSeconds = num(opts.periodSeconds, 420);
    this.extraSeconds = num(opts.extraSeconds, 30);
    this.status = null;
    this.closed = false;
    this.ws = null;
    this.attempt = 0;
    this.everLive = false;
    this.offset = 0;
    this.samples = [];
    this.resyncing = false;
    this.fetchingEvents = false;
    this.fetchAgain = false;
    this.fired = {};
    this.prev = null;  // the clock as last seen by tick(), for horn crossings
    this.timers = {};
    if (opts.serverTime != null) this.offset = opts.serverTime - clientNow();
    var self = this;
    this._onVisible = function () { if (!document.hidden) self.tick(); };
    document.addEventListener("visibilitychange", this._onVisible);
    this.setStatus("connecting");
    this.open();
    this.frame();
  }

  Live.prototype.setStatus = function (status) {
    if (status === this.status) return;
    this.status = status;
    if (status === "live") this.stopPolling(); else this.startPolling();
    if (this.opts.onStatus) this.opts.onStatus(status);
  };

  Live.prototype.later = function (name, ms, fn) {
    clearTimeout(this.timers[name]);
    var self = this;
    this.timers[name] = setTimeout(function () { delete self.timers[name]; if (!self.closed) fn.call(self); }, ms);
  };

  Live.prototype.cancel = function (name) { clearTimeout(this.timers[name]); delete this.timers[name]; };

  Live.prototype.wsUrl = function () {
    if (this.opts.wsUrl) return this.opts.wsUrl;
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/matches/" + this.matchId + "/" +
      (this.opts.lang ? "?lang=" + encodeURIComponent(this.opts.lang) : "");
  };

  Live.prototype.open = function () {
    var self = this, ws;
    try { ws = new WebSocket(this.wsUrl()); } catch (e) { this.scheduleReconnect(); return; }
    this.ws = ws;
    ws.onopen = function () {
      if (self.ws !== ws) return;
      self.watchdog();
      self.pingBurst(4);
    };
    ws.onmessage = function (e) {
      if (self.ws !== ws) return;
      self.watchdog();
      var msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      self.receive(msg);
    };
    ws.onclose = function () {
      if (self.ws !== ws) return;
      self.ws = null;
      self.dropped();
    };
    ws.onerror = function () { /* onclose follows */ };
  };

  Live.prototype.dropped = function () {
    this.cancel("watchdog");
    this.cancel("ping");
    this.resyncing = false;
    if (this.closed) return;
    this.setStatus(this.everLive || this.attempt > 0 ? "offline" : "connecting");
    this.scheduleReconnect();
  };

  Live.prototype.scheduleReconnect = function () {
    // Exponential backoff with full jitter, so that a thousand screens do not all come back at
    // the same instant after a restart.
    var cap = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * Math.pow(2, this.attempt));
    var delay = BACKOFF_MIN_MS / 2 + Math.random() * cap;
    this.attempt += 1;
    this.later("reconnect", delay, this.open);
  };

  Live.prototype.watchdog = function () {
    // Heard nothing for 35 s (the server beats every 15): the socket is dead even if the browser
    // has not noticed; close it and reconnect.
    this.later("watchdog", HEARTBEAT_TIMEOUT_MS, function () {
      var ws = this.ws;
      if (ws) { this.ws = null; try { ws.close(); } catch (e) { /* ignore */ } this.dropped(); }
    });
  };

  Live.prototype.send = function (msg) {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(msg));
  };

  Live.prototype.pingBurst = function (n) {
    var self = this, i = 0;
    (function one() {
      if (self.closed || !self.ws) return;
      self.send({type: "ping", client_time: clientNow()});
      i += 1;
      if (i < n) self.later("ping", 200, one);
      else self.later("ping", RESYNC_CLOCK_MS, function () { self.pingBurst(2); });
    })();
  };

  Live.prototype.pong = function (msg) {
    var t1 = clientNow(), t0 = msg.client_time;
    if (typeof t0 !== "number" || typeof msg.server_time !== "number") return;
    var rtt = t1 - t0;
    if (rtt < 0) return;
    this.samples.push({rtt: rtt, offset: msg.server_time - (t0 + t1) / 2});
    if (this.samples.length > OFFSET_SAMPLES) this.samples.shift();
    var best = this.samples[0];
    for (var i = 1; i < this.samples.length; i++) if (this.samples[i].rtt < best.rtt) best = this.samples[i];
    this.offset = best.offset;
    this.rtt = best.rtt;
    this.tick();
  };

  Live.prototype.receive = function (msg) {
    switch (msg.type) {
      case "snapshot": return this.snapshot(msg);
      case "update": return this.update(msg);
      case "pong": return this.pong(msg);
      case "heartbeat":
        if (typeof msg.last_seq === "number" && this.lastSeq != null && msg.last_seq > this.lastSeq) this.resync();
        return;
      case "error":
        if (window.console) console.warn("PoloLive:", msg.code, msg.message || "");
        return;
    }
  };

  Live.prototype.roughOffset = function (serverTime) {
    // Until the first pong, a message's server_time is the best guess we have.
    if (!this.samples.length && typeof serverTime === "number") this.offset = serverTime - clientNow();
  };

  Live.prototype.snapshot = function (msg) {
    this.resyncing = false;
    this.cancel("resync");
    this.attempt = 0;
    this.everLive = true;
    this.roughOffset(msg.server_time);
    var seq = num(msg.last_seq, num(msg.state && msg.state.last_seq, 0));
    var events = normaliseEvents(msg.events);  // a resync's snapshot carries the missed events
    if (this.lastSeq == null || seq >= this.lastSeq) this.apply(msg.state, seq, msg.server_time, "snapshot", events);
    this.setStatus("live");
    this.deliverEvents(events);
    this.catchUpEvents();
  };

  Live.prototype.update = function (msg) {
    this.roughOffset(msg.server_time);
    var last = num(msg.last_seq, msg.seq);
    if (this.lastSeq != null && last <= this.lastSeq) return;  // a repeat: nothing doubled
    var events = normaliseEvents(msg.events);
    var first = msg.seq;
    if (events.length) {
      first = events[0].seq != null ? events[0].seq : msg.seq - events.length + 1;
    }
    if (this.lastSeq != null && first > this.lastSeq + 1) {  // a gap: something was missed
      this.resync();
      return;
    }
    this.apply(msg.state, last, msg.server_time, "update", events);
    this.deliverEvents(events);
  };

  Live.prototype.resync = function () {
    if (this.resyncing) return;
    this.resyncing = true;
    this.send({type: "resync", since: this.lastSeq || 0});
    // No snapshot in 5 s: read the state over HTTP instead.
    this.later("resync", 5000, function () { this.resyncing = false; this.poll(); });
  };

  Live.prototype.apply = function (state, lastSeq, serverTime, source, events) {
    if (!state) return;
    var previous = this.state;
    this.state = state;
    this.lastSeq = lastSeq;
    if (this.eventsSeq == null) this.eventsSeq = lastSeq;
    if (source === "update") this.confirmHorns(previous, state, events);
    if (this.opts.onState) {
      this.opts.onState(state, {lastSeq: lastSeq, serverTime: serverTime, source: source,
                                 events: events, previous: previous});
    }
    this.tick();
  };

  function normaliseEvents(list) {
    if (!list || !list.length) return [];
    var out = list.map(function (ev) {
      var payload = ev.event || ev.payload || ev;
      return {seq: ev.seq, id: ev.id || payload.id, type: ev.type || payload.type, event: payload,
              received_at: ev.received_at};
    });
    out.sort(function (a, b) { return (a.seq || 0) - (b.seq || 0); });
    return out;
  }

  Live.prototype.deliverEvents = function (events) {
    if (!this.opts.onEvents || !events.length) return;
    var after = this.eventsSeq;
    var fresh = events.filter(function (ev) { return ev.seq == null || after == null || ev.seq > after; });
    if (!fresh.length) return;
    if (after != null && fresh[0].seq != null && fresh[0].seq > after + 1) { this.catchUpEvents(); return; }
    var last = fresh[fresh.length - 1].seq;
    if (last != null) this.eventsSeq = last;
    this.opts.onEvents(fresh);
  };

  Live.prototype.catchUpEvents = function () {
    // Events the socket did not carry (a gap, a reconnect, the HTTP fallback): fetch them in order.
    if (!this.opts.onEvents || this.eventsSeq == null || this.lastSeq == null || this.lastSeq <= this.eventsSeq) return;
    if (this.fetchingEvents) { this.fetchAgain = true; return; }
    this.fetchingEvents = true;
    var self = this, from = this.eventsSeq;
    api("/api/matches/" + this.matchId + "/events?since=" + from).then(function (r) {
      self.fetchingEvents = false;
      if (self.closed) return;
      if (r.status === 200 && r.data && r.data.events) self.deliverEvents(normaliseEvents(r.data.events));
      var again = self.fetchAgain;
      self.fetchAgain = false;
      // Page on while the answer moved us forward (a long gap comes in pages); never spin on a
      // failed or empty answer: the next update or snapshot tries again.
      if (r.status === 200 && self.eventsSeq > from && (again || self.lastSeq > self.eventsSeq)) self.catchUpEvents();
    });
  };

  // --- HTTP fallback ---------------------------------------------------------------------------
  Live.prototype.startPolling = function () {
    if (this.closed || this.timers.poll) return;
    this.later("poll", POLL_MS * (0.5 + Math.random()), this.pollLoop);
  };

  Live.prototype.stopPolling = function () { this.cancel("poll"); };

  Live.prototype.pollLoop = function () {
    var self = this;
    this.poll().then(function () {
      if (!self.closed && self.status !== "live") self.later("poll", POLL_MS * (0.75 + Math.random() / 2), self.pollLoop);
    });
  };

  Live.prototype.poll = function () {
    var self = this, sent = clientNow();
    return api("/api/matches/" + this.matchId + "/state").then(function (r) {
      if (self.closed || r.status !== 200 || !r.data || !r.data.state) return;
      var t1 = clientNow();
      if (!self.samples.length && typeof r.data.server_time === "number") {
        self.offset = r.data.server_time - (sent + t1) / 2;
      }
      var seq = num(r.data.last_seq, num(r.data.state.last_seq, 0));
      if (self.lastSeq == null || seq > self.lastSeq) {
        self.apply(r.data.state, seq, r.data.server_time, "http", []);
        self.catchUpEvents();
      }
    });
  };

  // --- Clock and horns -------------------------------------------------------------------------
  Live.prototype.serverNow = function () { return clientNow() + this.offset; };

  /* The seven-minute horn and the double horn, in elapsed seconds: from the state's clock when it
   * says (``regular_seconds``/``end_seconds``), else from the match's config. */
  Live.prototype.hornTimes = function () {
    var c = (this.state && this.state.clock) || {};
    var regular = num(c.regular_seconds, this.periodSeconds);
    return {seven: regular, final: num(c.end_seconds, regular + this.extraSeconds)};
  };

  Live.prototype.clockCap = function () { return this.hornTimes().final; };

  Live.prototype.clockElapsed = function () {
    var c = this.state && this.state.clock;
    if (!c) return 0;
    var e = num(c.elapsed, 0);
    if (c.running && c.anchor != null) {
      // The engine never projects past the double horn; neither do we.
      e = Math.min(Math.max(e, e + (this.serverNow() - c.anchor)), Math.max(e, this.clockCap()));
    }
    return e;
  };

  Live.prototype.intervalRemaining = function () {
    var left = this.intervalLeft();
    return left == null ? null : Math.max(0, left);
  };

  Live.prototype.intervalLeft = function () {  // negative once the countdown is over
    var iv = intervalInfo(this.state);
    return iv ? iv.seconds - (this.serverNow() - iv.started_at) : null;
  };

  Live.prototype.periodNumber = function () {
    var p = this.state && this.state.period;
    return p ? p.number : 0;
  };

  Live.prototype.horn = function (key, kind) {
    if (this.fired[key]) return;
    this.fired[key] = true;
    if (this.opts.banner !== false) showHornBanner(kind);
    if (this.opts.sound !== false) soundHorn(kind);
    if (this.opts.onHorn) this.opts.onHorn(kind);
  };

  Live.prototype.tick = function () {
    if (this.closed || !this.state) return;
    var horns = this.hornTimes(), P = horns.seven, F = horns.final;
    var c = this.state.clock || {};
    var period = this.periodNumber();
    var now = {period: period, running: !!c.running, elapsed: this.clockElapsed(), interval: this.intervalLeft()};
    var prev = this.prev;
    if (prev && prev.period === period) {
      // Rule 14.b: one horn at 7:00, two at 7:30 — on the crossing, unless noticed too late.
      if (now.running && prev.elapsed < P && now.elapsed >= P && now.elapsed - P < HORN_LATE_S) this.horn(period + ":seven", "seven");
      if (now.running && prev.elapsed < F && now.elapsed >= F && now.elapsed - F < HORN_LATE_S) this.horn(period + ":final", "final");
    }
    if (prev && prev.interval != null && now.interval != null) {
      var iv = this.state.interval, next = iv && iv.next_period && iv.next_period.number ? iv.next_period.number : period + 1;
      if (prev.interval > WARNING_LEFT_S && now.interval <= WARNING_LEFT_S && WARNING_LEFT_S - now.interval < HORN_LATE_S) this.horn(next + ":warning", "warning");
      if (prev.interval > 0 && now.interval <= 0 && -now.interval < HORN_LATE_S) this.horn(next + ":start", "start");
    }
    this.prev = now;
    if (this.opts.onTick) this.opts.onTick(this);
    this.scheduleHornCheck(now);
  };

  Live.prototype.scheduleHornCheck = function (now) {
    // rAF stops in hidden tabs; a timeout aimed at the next horn keeps them on time anyway.
    var horns = this.hornTimes(), wait = Infinity, P = horns.seven, F = horns.final;
    if (now.running) {
      if (now.elapsed < P) wait = P - now.elapsed;
      else if (now.elapsed < F) wait = F - now.elapsed;
    }
    if (now.interval != null) {
      if (now.interval > WARNING_LEFT_S) wait = Math.min(wait, now.interval - WARNING_LEFT_S);
      else if (now.interval > 0) wait = Math.min(wait, now.interval);
    }
    if (wait === Infinity) { this.cancel("horn"); this.hornAt = null; return; }
    var at = Date.now() + Math.min(wait * 1000 + 20, 10000);
    if (this.timers.horn && this.hornAt != null && Math.abs(at - this.hornAt) < 50) return;  // already aimed
    this.hornAt = at;
    this.later("horn", at - Date.now(), this.tick);
  };

  Live.prototype.frame = function () {
    var self = this;
    if (this.closed) return;
    if (!document.hidden) this.tick();
    window.requestAnimationFrame(function () { self.frame(); });
  };

  /* The server's own word for a horn (an update carrying a horn event, or the first play of a
   * chukker) sounds it if the local clock has not already. */
  Live.prototype.confirmHorns = function (previous, state, events) {
    var period = state.period ? state.period.number : 0;
    var fresh = true;
    for (var i = 0; i < events.length; i++) {
      var ev = events[i], e = ev.event || {};
      if (ev.received_at) {
        var at = typeof ev.received_at === "number" ? ev.received_at : Date.parse(ev.received_at) / 1000;
        fresh = !isFinite(at) || this.serverNow() - at < HORN_LATE_S + 2;
      }
      if (!fresh) continue;
      if (ev.type === "horn" && (e.kind === "seven" || e.kind === "final")) this.horn(period + ":" + e.kind, e.kind);
    }
    var before = previous && previous.period ? previous.period.number : 0;
    if (fresh && state.clock && state.clock.running && period > before && previous) this.horn(period + ":start", "start");
  };

  /* The clock as a scoreboard shows it: the time left in the chukker counting down to 0:00 at
   * the seven-minute horn, then the extra time counting up ("+0:12") to the double horn. */
  Live.prototype.clockText = function () {
    var e = this.clockElapsed(), P = this.hornTimes().seven;
    if (e > P) return "+" + formatClock(e - P);
    return formatClock(Math.ceil(P - e - 1e-6));
  };

  Live.prototype.close = function () {
    this.closed = true;
    var i = instances.indexOf(this);
    if (i >= 0) instances.splice(i, 1);
    for (var name in this.timers) clearTimeout(this.timers[name]);
    this.timers = {};
    document.removeEventListener("visibilitychange", this._onVisible);
    if (this.ws) { var ws = this.ws; this.ws = null; try { ws.close(); } catch (e) { /* ignore */ } }
  };

  var instances = [];

  window.PoloLive = {
    connect: function (opts) { var live = new Live(opts); instances.push(live); return live; },
    instances: instances,
    api: api,
    csrfToken: csrfToken,
    formatClock: formatClock,
    intervalInfo: intervalInfo,
    hornLabel: hornLabel,
    setMuted: setMuted,
    isMuted: function () { return audio.muted; },
    bindMuteButton: bindMuteButton,
    soundHorn: soundHorn,
  };
})();
