/* One official's screen (the scorer's laptop, the umpires' tablet): what both share.
 *
 * The newest state (from the page, the socket or our own answers), the event log, the offline
 * queue with its conflict box (officials/queue-box.js), the board, the field's restart, the
 * timers, and the entries in progress with the clock they hold (officials/holds.js). Elements by
 * id: board, field, restart, timers, conn, conflict, rejection, presence, closed.
 *
 *   const {page, teams, field} = screenParts();
 *   const screen = new Screen({page, teams, field, onState(state), onLog(log), onQueue(queue, log)});
 *   screen.beginEntry(type) / finishEntry(event, entry) / abandonEntry(entry)  (the wizard's)
 *   screen.logEvent(event); screen.refuse(error, event); screen.keep(); screen.drop();
 */
import {jsonData, el} from "../dom.js";
import {gettext, interpolate} from "../i18n.js";
import {api, connect} from "../live.js";
import {OfflineQueue} from "../offline-queue.js";
import {renderBoard, renderRejection, setupTeams} from "./board.js";
import {EventLog} from "./event-log.js";
import {FieldEngine, keepOnDevice} from "./field-engine.js";
import {FieldView} from "./field-view.js";
import {EntryHolds} from "./holds.js";
import {canVoid, closedReason} from "./permissions.js";
import {QueueBox, errorOf, isVoidChain} from "./queue-box.js";
import {Teams, restartSummary} from "./teams.js";
import {PLAYING, RestartTimers, allTimers, renderTimers} from "./timers.js";
import {HELD_LABEL, clockHeld, statusLabel} from "./words.js";

const PRESENCE_MS = 3000;  // the timekeeper's word to the server (FIELD_SILENT_SECONDS is 10)
const LOCAL_FOLD_MS = 1000;  // while the field keeps the match, the engine folds again this often (horns)
const LOG_KEPT = 5000;  // the most events of the log this screen keeps on the device

/* What every officials' screen starts from: the page's data, the match (its teams and its rule
 * edition's numbers), its field diagram. */
export function screenParts() {
  const page = jsonData("officials-page");
  const teams = new Teams(page.config, page.state && page.state.limits);
  return {page, teams, field: new FieldView(document.getElementById("field"), teams, page.config.field)};
}

/* The restart of a chukker that the double horn ended with the ball in play, nobody having said
 * where the ball was (the horn the server appends from the clock): a throw-in at the centre, which
 * the scorer's horn with the ball moves to where it was (22.g). */
function atTheHornUnplaced(r) {
  return r.next_period && r.kind === "throw_in" && r.rule === "22.g" && !r.toward;
}

export class Screen {
  constructor(opts) {
    const page = opts.page, matchId = page.match_id;
    this.opts = opts;
    this.page = page;
    this.matchId = matchId;
    this.role = page.role;
    this.teams = opts.teams;
    this.field = opts.field;
    this.state = null;
    this.lastSeq = 0;
    this.liveStatus = "connecting";
    this.timekeeper = page.screen === "scorer" && page.role === "scorer";
    this.queued = 0;
    this.log = new EventLog();
    // Issue 34: the field is the truth. The log as this screen last had it is kept on the device
    // (a reload without a link still knows it), and while the link is down the engine runs here
    // (officials/field-engine.js) on that log and the entries kept in the queue.
    this.logKey = `polo-log:${matchId}:${page.user}`;
    this.restoreLog();
    this.engine = new FieldEngine(page.field_engine);
    this.localState = null;     // the engine's state of the log and the kept entries, while kept here
    this.localRefused = [];
    this.folding = false;
    this.foldAgain = false;
    this.foldedAt = 0;
    this.observedLocally = new Set();
    this.restartTimers = new RestartTimers(`polo-timers:${matchId}`);
    this.holds = new EntryHolds(this, `polo-holds:${matchId}:${page.user}:${page.screen}`);
    this.box = new QueueBox(this);
    this.queue = new OfflineQueue({
      key: `polo-queue:${matchId}:${page.user}:${page.screen}`,  // one queue per screen: two tabs of it share it
      send: (body) => api(`/api/matches/${matchId}/events`, {method: "POST", body}),
      lastSeq: () => this.lastSeq,
      now: () => this.now(),  // every entry is stamped with its key (issue 34: keyed_at)
      onChange: (q) => { this.renderQueue(q); this.queueChanged(q); this.refreshLocal(); },
      onAccepted: (item, data) => {
        if (!item.quiet) this.refuse(null);
        this.holds.accepted(item, data);
        this.showState(data.state, data.last_seq);
      },
      onQuiet: (item, data) => { this.holds.quietlyRefused(item); this.showState(data && data.state, data && data.last_seq); },
      onConflict: (item, data) => { this.showState(data.state, data.last_seq); this.box.settle(item, data); },
      onRejected: (item, data, stopped) => {
        this.showState(data.state, data.last_seq);
        if (!stopped) { this.holds.entryRefused(item); this.refuse(errorOf(data), item.event); }
      },
      onDiscard: (item) => this.holds.discarded(item),
    });
    this.holds.adopt(this.queue);
    this.live = connect({
      matchId,
      state: page.state, lastSeq: page.last_seq, serverTime: page.server_time,
      eventsSince: 0,  // the whole log, for the list
      onState: (s, info) => {
        if (info.source === "update") this.restartTimers.observe(info.previous, s, info.events || [], this.now(this.live));
        this.showState(s, info.lastSeq);
      },
      onStatus: (status) => {
        this.liveStatus = status;
        // The link is down: have the engine ready for what the officials keep meanwhile (Pyodide
        // takes seconds to load; the screen's own holds stop the clock in the meantime).
        if (status === "offline" && page.can_log && this.engine.available) this.engine.start().catch(() => {});
        this.renderQueue();
        this.refreshLocal();
        if (status === "live") this.queue.flush();
      },
      onEvents: (events) => this.addEvents(events),
      onTick: (lv) => this.tick(lv),
      // The field keeps the time (issue 34): the scorer's screen is its timekeeper and tells the
      // server every few seconds whether it has sent everything it kept. An official's screen is
      // the field: it never waits for itself.
      pending: () => (this.queue ? this.queue.items.length : 0),
      presenceMs: this.timekeeper ? PRESENCE_MS : null,
      fieldBanner: false,
      fieldClock: false,
    });
    if (page.can_log) keepOnDevice(page.field_engine);
    setupTeams(document, this.teams);
    this.showState(page.state, page.last_seq);
    this.renderQueue();
    this.queue.flush();
    this.refreshLocal();
  }

  now(lv) { return (lv || this.live).serverNow(); }

  /* The queue emptied: the timekeeper tells the server at once that it has sent everything. */
  queueChanged(q) {
    const n = q.items.length;
    if (n === 0 && this.queued > 0 && this.live) this.live.presence();
    this.queued = n;
  }

  addEvents(events) {
    if (!this.log.add(events)) return;
    this.saveLog();
    this.restartTimers.check(this.log, this.state);
    if (this.opts.onLog) this.opts.onLog(this.log);
    if (this.queue && this.queue.blocked && this.queue.blocked.kind === "conflict") this.renderQueue();
  }

  logEvent(event) {
    this.refuse(null);
    // Every entry runs from its key, not from when the request arrives (issues 9 and 34): the
    // queue stamps it (keyed_at).
    this.queue.add(event);
  }

  // --- Entries in progress (officials/holds.js): the wizard's first key, its end, its abandonment --
  beginEntry(type) { return this.holds.begin(type); }

  finishEntry(event, entry) { this.holds.finish(event, entry); }

  abandonEntry(entry) { this.holds.abandon(entry); }

  /* The state as this screen shows it: the server's — or, while the field keeps the match, the
   * engine's fold here (``shown``) — with this screen's own holds applied. */
  view() {
    // (The engine's fold has this screen's holds in it already: they are among the kept entries.)
    return this.localState && this.keptLocally() ? this.localState : this.holds.view(this.state);
  }

  // --- The field keeps the match (issue 34) -------------------------------------------------------
  restoreLog() {
    try {
      const kept = JSON.parse(window.localStorage.getItem(this.logKey) || "[]");
      if (Array.isArray(kept)) this.log.add(kept);
    } catch { /* nothing kept, or storage unavailable */ }
  }

  saveLog() {
    try {
      const entries = this.log.entries.slice(-LOG_KEPT).map((e) => ({seq: e.seq, id: e.id, type: e.type, event: e.event, received_at: e.received_at}));
      window.localStorage.setItem(this.logKey, JSON.stringify(entries));
    } catch { /* storage full or unavailable: the log is fetched again when the link is back */ }
  }

  /* Whether the field keeps the match on this screen now: entries are waiting and the server
   * cannot be reached. */
  keptLocally() {
    const q = this.queue;
    return !!q && q.items.length > 0 && (q.offline || this.liveStatus !== "live");
  }

  /* The state to show: the engine's fold here while the field keeps the match, else the server's. */
  shown() { return this.localState && this.keptLocally() ? this.localState : this.state; }

  /* Fold the log and the kept entries with the engine (async; at most one fold at a time). */
  refreshLocal() {
    if (!this.live) return;  // (the queue reports while the screen is being made: the constructor folds after)
    if (!this.engine || !this.engine.available || !this.keptLocally()) {
      if (this.localState) { this.localState = null; this.localRefused = []; this.render(); }
      document.documentElement.removeAttribute("data-field-local");
      document.documentElement.removeAttribute("data-field-status");
      return;
    }
    if (this.folding) { this.foldAgain = true; return; }
    this.folding = true;
    this.foldedAt = Date.now();
    const kept = this.queue.items.map((item) => item.event);
    const payload = {
      config: this.page.config, stored: this.log.entries.map((e) => e.event), kept,
      now: this.now(), lang: this.page.lang || "en", author: this.page.author || null,
    };
    this.engine.fold(payload).then((out) => {
      if (!this.keptLocally()) return;
      const before = this.shown();
      this.localState = out.state;
      this.localRefused = out.refused || [];
      this.observeLocally(before, kept);
      document.documentElement.setAttribute("data-field-local", String(out.last_seq));
      document.documentElement.setAttribute("data-field-status", out.state.status);
    }, () => { /* not loaded (yet): the server's state and this screen's holds meanwhile */ }).finally(() => {
      this.folding = false;
      if (this.foldAgain) { this.foldAgain = false; this.refreshLocal(); } else this.render();
    });
  }

  /* Kept entries new to this fold start their restart timers here, at their keys. */
  observeLocally(before, kept) {
    const fresh = kept.filter((ev) => !this.observedLocally.has(ev.id));
    if (!fresh.length) return;
    for (const ev of fresh) this.observedLocally.add(ev.id);
    const events = fresh.map((ev) => ({seq: null, id: ev.id, type: ev.type, event: ev, received_at: ev.keyed_at}));
    this.restartTimers.observe(before, this.localState, events, this.now());
  }

  /* Who may void this entry (the server's rule, matches/permissions.py). */
  mayVoid(entry) { return canVoid(this.role, entry); }

  /* Why this event type may not be logged now (the match over or suspended), or null. */
  closedReason(type) { return closedReason(this.shown(), type); }

  /* Show a refusal (or clear it with null). ``event``: the refused event, for what can follow. */
  refuse(error, event) {
    const box = document.getElementById("rejection");
    renderRejection(box, error);
    if (isVoidChain(error, event)) this.box.offerVoidChain(box, event);
  }

  showState(s, seq) {
    if (!s) return;
    const at = typeof seq === "number" ? seq : s.last_seq || 0;
    if (this.state && at < this.lastSeq) return;
    this.state = s;
    this.lastSeq = at;
    this.holds.forgetGone();
    this.render();
  }

  /* Draw the state shown (``shown``: the server's, or the field's own fold while it keeps the match). */
  render() {
    const s = this.shown();
    if (!s) return;
    if (!PLAYING.includes(s.status)) this.restartTimers.clear();
    this.field.setDefends(s.defends);
    this.field.setRestart(s.restart);
    this.renderRestart();
    this.holds.renderPresence();
    this.renderClosed();
    if (this.opts.onState) this.opts.onState(s);
    // For the page's other modules (the scoresheet's sign-off): the server's state and its log position.
    document.dispatchEvent(new CustomEvent("polo:state", {detail: {state: this.state, lastSeq: this.lastSeq}}));
    if (this.live) this.tick();
  }

  renderClosed() {
    const note = document.getElementById("closed");
    if (!note) return;
    const reason = this.closedReason(null);
    note.hidden = !reason;
    note.textContent = reason || "";
    note.dataset.status = reason ? this.shown().status : "";
  }

  renderRestart() {
    const box = document.getElementById("restart"), s = this.shown();
    const r = s && s.restart;
    box.dataset.kind = r ? r.kind : "";
    box.dataset.team = r && r.team ? r.team : "";
    if (s && s.shootout && (s.status === "shootout" || s.result === "shootout")) {
      box.replaceChildren(...this.shootoutLines(s));
      return;
    }
    // (this screen's own entry in progress holds the clock at once, before the server has its hold)
    this.restartHeld = clockHeld(this.view());
    if (!r) {
      box.replaceChildren(s && s.status === "in_play" ? (this.restartHeld ? HELD_LABEL : gettext("Ball in play")) : statusLabel(s));
      return;
    }
    const lines = [el("strong", {class: "restart-what", text: restartSummary(this.teams, r)})];
    if (r.message) lines.push(el("span", {class: "restart-rule", text: r.message}));
    else if (r.rule) lines.push(el("span", {class: "restart-rule", text: interpolate(gettext("Rule %(rule)s"), {rule: r.rule})}));
    // (not after a tie: the committee decides between overtime and a shootout, Rule 14.c/d)
    if (r.next_period && !["tied", "shootout", "final", "abandoned"].includes(s.status)) {
      lines.push(el("span", {class: "restart-note", text: gettext("Opens the next chukker")}));
    }
    if (this.page.screen === "scorer" && atTheHornUnplaced(r)) {
      lines.push(el("span", {class: "restart-note", "data-hint": "horn-ball",
                             text: gettext("Where was the ball at the horn? Log the horn with it (H, F): the chukker opens there.")}));
    }
    box.replaceChildren(...lines);
  }

  /* The shootout as the scorer logs it (Rule 14.d): the round and its line, the points and each
   * team's hits in order (✓ scored, ✗ missed), and who hits next. */
  shootoutLines(s) {
    const so = s.shootout, t = this.teams;
    const hits = (team) => (so.attempts || []).filter((a) => a.team === team).map((a) => (a.scored ? "✓" : "✗")).join("");
    const points = so.points || {home: 0, away: 0};
    const tally = el("span", {class: "shootout-tally", "data-role": "shootout-tally"}, [
      `${t.name("home")} ${points.home} ${hits("home")}`.trim(), " – ", `${hits("away")} ${points.away} ${t.name("away")}`.trim()]);
    const lines = [
      el("strong", {class: "restart-what", text: interpolate(gettext("Shootout · Round %(round)s · %(yards)s-yard line"),
                                                             {round: so.round, yards: so.line})}),
      tally,
    ];
    if (so.next && s.status === "shootout") {
      lines.push(el("span", {class: "restart-note shootout-next", "data-role": "shootout-next", "data-team": so.next.team,
                             text: interpolate(gettext("Next to hit: %(who)s"), {who: t.who(so.next.team, so.next.number)})}));
    }
    return lines;
  }

  // --- The queue and its conflict box (officials/queue-box.js) ------------------------------------
  renderQueue(q) { if (this.box) this.box.render(q); }

  keep() { this.box.keep(); }

  drop() { this.box.drop(); }

  tick(lv) {
    const now = this.now(lv);
    const view = this.view();
    renderBoard(document.getElementById("board"), this.teams, view, now);
    if (clockHeld(view) !== this.restartHeld) this.renderRestart();
    renderTimers(document.getElementById("timers"), this.teams, allTimers(this.shown(), this.restartTimers, now));
    if (this.keptLocally() && !this.folding && Date.now() - this.foldedAt >= LOCAL_FOLD_MS) this.refreshLocal();
  }
}
