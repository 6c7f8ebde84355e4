/* The timers on the officials' screens: the state's (the stoppages of Rule 21, the interval)
 * and the restart timers the state does not carry, which the screens keep themselves. */
import {el, setText} from "../dom.js";
import {formatCountdown} from "../format.js";
import {toEpoch} from "./event-log.js";
import {paintTeam} from "./teams.js";
import {timerLabel} from "./words.js";

/* Restart timers the state does not carry, from local timestamps (server time):
 * (their lengths are the rule edition's, ``state.limits``; USPA 2026's in brackets)
 *  - knock-in: 10 s from the "Play" that takes a knock-in (Rule 22.a);
 *  - foul shot: 20 s from the "Play" that takes a penalty (Rule 22.b);
 *  - the umpire's 8-second count (a free hit or possession play dropped by the umpire,
 *    Rules 22.f, 22.h: "the Umpire shall count 8 seconds and drop a ball … and a member of the
 *    team awarded possession shall have 5 seconds to play the ball"): the count runs from the
 *    stoppage that awards it until the ball is dropped — "Play" ends it — and the 5 s to play
 *    the ball run from that "Play";
 *  - back to the centre: 25 s from a goal (Rule 22.e(1)), until the throw-in.
 * They end with the next event of the game (the restart was taken, the whistle went, a void —
 * of the event that started them or another), at the end of the period or the game (a horn, an
 * interval, final, suspended: the state says so), and never with a card, a horse change, a
 * clock set or an official's entry in progress (hold/release). A timer that runs out stays on
 * screen, in red, until then or until dismissed — except with the ball in play: the restart was
 * taken, so a timer of it that ran out shows red for ``EXPIRED_IN_PLAY_SECONDS`` and goes (a red
 * 0:00 through the whole run of play says nothing). They are kept in localStorage with the
 * sequence number of the event that started them, so a reload (or a new tab after a crash)
 * shows them still running; the log, once loaded, says whether that event is still the last. */
const TIMER_ENDING_EVENTS = ["play", "goal", "foul", "ball_out", "whistle", "restart_violation", "void"];
export const PLAYING = ["in_play", "stopped"];
export const EXPIRED_IN_PLAY_SECONDS = 5;

export class RestartTimers {
  constructor(storageKey) {
    this.key = storageKey;
    this.timers = [];
    this.seq = null;  // the event that started them
    this.id = null;
    try {
      const saved = JSON.parse(window.localStorage.getItem(this.key) || "null");
      if (saved && Array.isArray(saved.timers)) { this.timers = saved.timers; this.seq = saved.seq; this.id = saved.id || null; }
    } catch { /* storage unavailable or garbled: start without */ }
  }

  save() {
    try {
      if (this.timers.length) window.localStorage.setItem(this.key, JSON.stringify({seq: this.seq, id: this.id, timers: this.timers}));
      else window.localStorage.removeItem(this.key);
    } catch { /* storage unavailable: the timers still run on this page */ }
  }

  clear() {
    if (!this.timers.length && this.seq == null) return;
    this.timers = [];
    this.seq = null;
    this.id = null;
    this.save();
  }

  /* After a reload: saved timers hold while their event is the newest that ends timers, and
   * not voided; the period or the game over ends them. */
  check(log, state) {
    if (state && !PLAYING.includes(state.status)) { this.clear(); return; }
    if (this.seq == null) return;
    const newest = log.entries.filter((e) => TIMER_ENDING_EVENTS.includes(e.type)).pop();
    const started = this.id ? log.entries.find((e) => e.id === this.id) : null;
    if ((newest && newest.seq > this.seq) || (started && log.voidOf(started))) this.clear();
  }

  observe(previous, state, events, fallbackNow) {
    const ending = events.filter((ev) => TIMER_ENDING_EVENTS.includes(ev.type));
    const limits = (state && state.limits) || (previous && previous.limits) || {};
    ending.forEach((ev, i) => {
      // From the key at the field (the stored server_time: issue 34), not from when it reached the server.
      const stamped = ev.event && typeof ev.event.server_time === "number" ? ev.event.server_time : null;
      const at = stamped || toEpoch(ev.received_at) || fallbackNow;
      const start = (kind, seconds) => { if (typeof seconds === "number") this.timers.push({kind, seconds, started_at: at}); };
      // Several events at once: only the first knows the restart it took.
      const restart = i === 0 && previous ? previous.restart : null;
      this.timers = [];
      this.seq = ev.seq;
      this.id = ev.id;
      if (ev.type === "play" && restart) {
        if (restart.kind === "knock_in") start("knock_in", limits.knock_in_seconds);
        else if (restart.kind === "penalty") start("foul_shot", limits.foul_shot_seconds);
        if (restart.count_seconds && restart.hit_within_seconds) start("to_play", restart.hit_within_seconds);
      } else if (ev.type === "goal" && state && state.restart && state.restart.kind === "throw_in") {
        start("goal_return", limits.goal_return_seconds);
      } else if (ev.type !== "play" && i === ending.length - 1 && state && state.status === "stopped" &&
                 state.restart && state.restart.count_seconds) {
        start("count", state.restart.count_seconds);
      }
    });
    if (state && !PLAYING.includes(state.status)) { this.timers = []; this.seq = null; this.id = null; }
    this.save();
  }

  dismiss() { this.clear(); }
}

/* Every timer to show now: the state's (stoppages, interval) and the local restart ones (none
 * once the period or the game is over). */
export function allTimers(state, restartTimers, now) {
  const list = [];
  for (const t of (state && state.timers) || []) list.push(Object.assign({source: "state"}, t));
  if (state && state.interval && state.interval.started_at != null) list.push(Object.assign({source: "state"}, state.interval));
  const playing = !state || PLAYING.includes(state.status);
  const inPlay = !!state && state.status === "in_play";
  for (const t of playing ? restartTimers.timers : []) {
    if (t.started_at > now) continue;  // not yet begun
    if (inPlay && now - t.started_at > t.seconds + EXPIRED_IN_PLAY_SECONDS) continue;  // run out a while ago
    list.push(Object.assign({source: "local"}, t));
  }
  return list.map((t) => {
    const remaining = t.started_at != null ? t.seconds - (now - t.started_at) : t.seconds;
    return Object.assign(t, {remaining, expired: remaining <= 0});
  });
}

export function renderTimers(ul, teams, timers) {
  const key = (t) => [t.kind, t.team || "", t.number || "", t.started_at || ""].join(":");
  const existing = new Map(Array.from(ul.children).map((li) => [li.dataset.key, li]));
  const keep = new Set();
  for (const t of timers) {
    const k = key(t);
    keep.add(k);
    let li = existing.get(k);
    if (!li) {
      let label = timerLabel(t.kind, t.seconds);
      if (t.team) label += " — " + teams.who(t.team, t.number);
      li = el("li", {class: "timer", "data-key": k, "data-kind": t.kind},
              [el("span", {class: "timer-label", text: label}), el("output", {class: "timer-left"})]);
      if (t.team) paintTeam(li, teams.color(t.team));
      ul.append(li);
    }
    setText(li.querySelector(".timer-left"), formatCountdown(t.remaining));
    if (li.dataset.expired !== String(t.expired)) {
      li.classList.toggle("expired", t.expired);
      li.dataset.expired = String(t.expired);
    }
  }
  for (const [k, li] of existing) if (!keep.has(k)) li.remove();
}
