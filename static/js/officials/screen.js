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
import {FieldView} from "./field-view.js";
import {EntryHolds} from "./holds.js";
import {canVoid, closedReason} from "./permissions.js";
import {QueueBox, errorOf, isVoidChain} from "./queue-box.js";
import {Teams, restartSummary} from "./teams.js";
import {PLAYING, RestartTimers, allTimers, renderTimers} from "./timers.js";
import {statusLabel} from "./words.js";

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
    this.log = new EventLog();
    this.restartTimers = new RestartTimers(`polo-timers:${matchId}`);
    this.holds = new EntryHolds(this, `polo-holds:${matchId}:${page.user}:${page.screen}`);
    this.box = new QueueBox(this);
    this.queue = new OfflineQueue({
      key: `polo-queue:${matchId}:${page.user}:${page.screen}`,  // one queue per screen: two tabs of it share it
      send: (body) => api(`/api/matches/${matchId}/events`, {method: "POST", body}),
      lastSeq: () => this.lastSeq,
      onChange: (q) => this.renderQueue(q),
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
        this.renderQueue();
        if (status === "live") this.queue.flush();
      },
      onEvents: (events) => this.addEvents(events),
      onTick: (lv) => this.tick(lv),
    });
    setupTeams(document, this.teams);
    this.showState(page.state, page.last_seq);
    this.renderQueue();
    this.queue.flush();
  }

  now(lv) { return (lv || this.live).serverNow(); }

  addEvents(events) {
    if (!this.log.add(events)) return;
    this.restartTimers.check(this.log, this.state);
    if (this.opts.onLog) this.opts.onLog(this.log);
    if (this.queue && this.queue.blocked && this.queue.blocked.kind === "conflict") this.renderQueue();
  }

  logEvent(event) {
    this.refuse(null);
    // "Play" runs the clock from the key, not from when the request arrives (issue 9).
    const keyed = event.type === "play" && event.keyed_at == null ? Object.assign({keyed_at: this.now()}, event) : event;
    this.queue.add(keyed);
  }

  // --- Entries in progress (officials/holds.js): the wizard's first key, its end, its abandonment --
  beginEntry(type) { return this.holds.begin(type); }

  finishEntry(event, entry) { this.holds.finish(event, entry); }

  abandonEntry(entry) { this.holds.abandon(entry); }

  /* The state as this screen shows it: the server's with this screen's own holds applied. */
  view() { return this.holds.view(this.state); }

  /* Who may void this entry (the server's rule, matches/permissions.py). */
  mayVoid(entry) { return canVoid(this.role, entry); }

  /* Why this event type may not be logged now (the match over or suspended), or null. */
  closedReason(type) { return closedReason(this.state, type); }

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
    if (!PLAYING.includes(s.status)) this.restartTimers.clear();
    this.field.setDefends(s.defends);
    this.field.setRestart(s.restart);
    this.renderRestart();
    this.holds.renderPresence();
    this.renderClosed();
    if (this.opts.onState) this.opts.onState(s);
    // For the page's other modules (the scoresheet's sign-off): the state and its log position.
    document.dispatchEvent(new CustomEvent("polo:state", {detail: {state: s, lastSeq: at}}));
    if (this.live) this.tick();
  }

  renderClosed() {
    const note = document.getElementById("closed");
    if (!note) return;
    const reason = this.closedReason(null);
    note.hidden = !reason;
    note.textContent = reason || "";
    note.dataset.status = reason ? this.state.status : "";
  }

  renderRestart() {
    const box = document.getElementById("restart"), s = this.state;
    const r = s && s.restart;
    box.dataset.kind = r ? r.kind : "";
    box.dataset.team = r && r.team ? r.team : "";
    if (s && s.shootout && (s.status === "shootout" || s.result === "shootout")) {
      box.replaceChildren(...this.shootoutLines(s));
      return;
    }
    if (!r) {
      box.replaceChildren(s && s.status === "in_play" ? gettext("Ball in play") : statusLabel(s));
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
      el("strong", {class: "restart-what", text: interpolate(gettext("Shootout · round %(round)s · %(yards)s-yard line"),
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
    renderBoard(document.getElementById("board"), this.teams, this.view(), now);
    renderTimers(document.getElementById("timers"), this.teams, allTimers(this.state, this.restartTimers, now));
  }
}
