/* The public scoreboard (/matches/{id}/): follows one match live through live.js.
 *
 * The page arrives rendered with the state as it was; this script colours the teams, runs the
 * clock, redraws on every snapshot/update, keeps the last goals (from the updates' score changes,
 * refetched from /api/matches/{id}/goals after a gap) and offers sound, full screen and the TV layout.
 * What each phase shows (the shootout's rounds, the result and how it was won, the handicap goals
 * before the throw-in) is phase.js's, shared with the overlay and the tournament page.
 *
 * The TV layout (issue 12, item 4): ``?tv=1``, or any screen 1600 px wide or more unless ``?tv=0``;
 * no buttons, the clock and the state big and bright enough to read across a field.
 *
 * The clock shows time left by default (clock-convention.js, screen "scoreboard", or "tv" in the TV
 * layout): always labelled, switched by a button or ``?clock=played``, and the goals' times follow it.
 *
 * A match kept at the field (issue 35: the snapshot's ``field``): the state is the field server's as
 * last heard from it, and the page says how long ago that was (each update it sends is news of it).
 */
import * as convention from "./clock-convention.js";
import {jsonData, setHidden, setText} from "./dom.js";
import {fieldLines, render as renderField} from "./field.js";
import {renderKept} from "./field-status.js";
import {formatClock, formatScore} from "./format.js";
import {bindMuteButton} from "./horns.js";
import {gettext, interpolate} from "./i18n.js";
import {api, connect} from "./live.js";
import {describe, handicapText, loadWords, shootoutView} from "./phase.js";

const root = document.getElementById("scoreboard");
const data = jsonData("live-data");
const meta = data.match, labels = data.labels;
const TEAMS = ["home", "away"];
const GOALS_SHOWN = 8;
let goals = (data.goals || []).slice();  // newest first
let goalsSeq = data.goals_seq != null ? data.goals_seq : data.last_seq;
let fieldKey = null;
const words = loadWords();
const TV_QUERY = "(min-width: 1600px)";
const tvParam = new URLSearchParams(window.location.search).get("tv");
const wide = window.matchMedia ? window.matchMedia(TV_QUERY) : null;
function tvLayout() {
  const on = tvParam === "1" || (tvParam !== "0" && !!(wide && wide.matches));
  document.body.classList.toggle("tv", on);
  return on;
}
const SCREEN = tvLayout() ? "tv" : "scoreboard";
if (wide && tvParam == null) wide.addEventListener("change", tvLayout);
let shownAs = convention.get(SCREEN);
let live = null;

const part = (role) => root.querySelector(`[data-role="${role}"]`);
const teamBox = (team) => root.querySelector(`.sb-team[data-team="${team}"]`);

for (const team of TEAMS) {
  teamBox(team).style.setProperty("--team-color", meta[team].color);
  part("swatch-" + team).style.setProperty("background-color", meta[team].color);
}

function renderShootout(state) {
  const box = part("shootout"), so = shootoutView(state, meta, words);
  box.hidden = !so;
  if (!so) return;
  setText(part("so-round"), "· " + so.round);
  setText(part("so-line"), "· " + so.line);
  setText(part("so-next"), so.next);
  for (const team of TEAMS) {
    setText(part("so-points-" + team), String(so.points[team]));
    const hits = part("so-hits-" + team);
    const key = so.attempts[team].join();
    if (hits.getAttribute("data-key") === key) continue;
    hits.setAttribute("data-key", key);
    hits.replaceChildren(...so.attempts[team].map((scored) => {
      const mark = document.createElement("span");
      mark.className = scored ? "so-hit scored" : "so-hit missed";
      mark.textContent = scored ? "✓" : "✗";
      mark.setAttribute("role", "img");
      mark.setAttribute("aria-label", scored ? words.scored : words.missed);
      return mark;
    }));
  }
}

function render(state) {
  const view = describe(state, meta, labels, words);
  root.setAttribute("data-status", state.status);
  root.setAttribute("data-phase", view.phase);
  for (const team of TEAMS) {
    setText(part("score-" + team), formatScore(state.score[team]));
    setText(part("attacks-" + team), labels.attacks[state.defends[team] === "north" ? "south" : "north"]);
    part("attacks-" + team).hidden = !view.restart;  // ends mean nothing once play is over
    const handicap = part("handicap-" + team), h = handicapText(state, meta, team, words, formatScore);
    setText(handicap, h);
    handicap.hidden = !h;
    teamBox(team).classList.toggle("is-winner", state.winner === team);
  }
  part("period-line").hidden = !view.period;
  if (view.period) {
    setText(part("period-label"), view.period[0]);
    setText(part("period"), view.period[1]);
  }
  part("clock").hidden = part("clock-label").hidden = !view.clock;
  const status = part("status");
  setText(status, view.status);
  status.setAttribute("data-status", state.status);
  const result = part("result");
  setText(result, view.result);
  result.hidden = !view.result;
  renderShootout(state);
  const r = state.restart, restart = part("restart");
  restart.hidden = !view.restart;
  setText(restart, r ? (r.message || (r.rule ? interpolate(gettext("Rule %s"), [r.rule]) : "")) : view.held ? labels.held_restart : labels.no_restart);
  restart.toggleAttribute("data-held", view.held);
  const key = JSON.stringify([state.defends, r && r.spot, r && r.team, r && r.toward]);
  if (key !== fieldKey) {
    fieldKey = key;
    renderField(part("field"), {
      length: meta.field.length, width: meta.field.width, lines: fieldLines(state.limits), defends: state.defends, restart: r,
      colors: {home: meta.home.color, away: meta.away.color}, names: {home: meta.home.name, away: meta.away.name},
    });
  }
  part("field").toggleAttribute("hidden", !view.restart);  // (an SVG element has no .hidden)
  document.title = meta.home.name + " " + formatScore(state.score.home) + " – " + formatScore(state.score.away) + " " + meta.away.name;
}

// --- Last goals ------------------------------------------------------------------------------------
// A goal's time in the clock's convention (time left: the period's regular length less its clock).
const clockOf = (seconds) => convention.format(seconds, live || meta, shownAs);

function renderGoals() {
  const body = part("goals");
  body.replaceChildren();
  if (!goals.length) {
    body.appendChild(document.getElementById("no-goals").content.cloneNode(true));
    return;
  }
  for (const g of goals) {
    const tr = document.createElement("tr");
    let who = g.name || "";
    if (g.own_goal) who = labels.own_goal + (who ? " (" + who + ")" : "");
    else if (g.penalty && !who) who = labels.penalty_goal;
    [g.period != null ? String(g.period) : "", clockOf(g.clock), meta[g.team].name, who].forEach((text, i) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (i === 2) td.className = "team-" + g.team;
      tr.appendChild(td);
    });
    tr.setAttribute("data-goal-id", g.id || "");
    body.appendChild(tr);
  }
}

// The list is "in step" when it was made at the log position of the last state followed
// (seenSeq): only then can an update's events extend it. Otherwise it is read again from the
// server, and a read that comes back older than what the screen shows is not trusted.
let seenSeq = goalsSeq;
let refetching = false;
function refetchGoals() {
  if (refetching) return;
  refetching = true;
  api("/api/matches/" + meta.id + "/goals").then((r) => {
    refetching = false;
    if (r.status === 200 && r.data) {
      if (goalsSeq == null || r.data.last_seq >= goalsSeq) {
        goals = r.data.goals;
        goalsSeq = r.data.last_seq;
        renderGoals();
      }
      // The match moved on while we read (the read saw an older log): read again.
      if (goalsSeq !== seenSeq) setTimeout(refetchGoals, 250);
    } else {  // the server was away (restarting): try again while the list is behind the state
      setTimeout(() => { if (goalsSeq !== seenSeq) refetchGoals(); }, 3000);
    }
  });
}

function followGoals(state, info) {
  const prev = info.previous, inStep = goalsSeq != null && goalsSeq === seenSeq;
  seenSeq = info.lastSeq;
  if (info.source !== "update" || !prev || !inStep || !info.goals) {
    if (info.lastSeq !== goalsSeq) refetchGoals();
    return;
  }
  // The update carries the goals its events scored as the engine's fold records them (kind, hitter,
  // penalty, chukker): the rows of the server's list, nothing worked out here. A score that moved
  // otherwise (a void took a goal back; the shootout's deciding goal, Rule 14.d, is no row) is
  // the server's list to say.
  goalsSeq = info.lastSeq;
  const scored = {home: 0, away: 0};
  for (const goal of info.goals) scored[goal.team] += 1;
  if (TEAMS.some((team) => state.score[team] - prev.score[team] !== scored[team])) {
    refetchGoals();
    return;
  }
  if (info.goals.length) {
    goals = info.goals.slice().reverse().concat(goals).slice(0, GOALS_SHOWN);
    renderGoals();
  }
}

// --- Clock -----------------------------------------------------------------------------------------
function tick(lv) {
  const state = lv.state;
  if (!state) return;
  const clock = part("clock");
  setText(clock, state.status === "scheduled" ? "–:––" : convention.clockText(lv, shownAs));
  clock.classList.toggle("stopped", state.status === "stopped" || state.status === "suspended");
  clock.classList.toggle("running", !!(state.clock && state.clock.running));
  const regular = lv.hornTimes().seven;
  clock.classList.toggle("extra", regular != null && lv.clockElapsed() > regular);
  if (state.status !== "scheduled") setText(part("clock-label"), convention.liveLabel(lv, shownAs));
  const left = lv.intervalRemaining(), iv = part("interval");
  if (left == null) {
    setHidden(iv, true);
  } else {
    setHidden(iv, false);
    // Once the countdown is over the umpires throw in when ready: no "Next chukker in 0:00".
    setText(iv, left > 0 ? interpolate(gettext("Next chukker in %s"), [formatClock(Math.ceil(left))])
      : gettext("The next chukker starts at the throw-in"));
  }
}

// --- A match kept at the field: when it was last heard from (the server's field object) ---------
const CONN = {live: gettext("Live"), connecting: gettext("Connecting…"), offline: gettext("Offline — reconnecting…")};

live = connect({
  matchId: meta.id,
  lang: data.lang,  // the page's (?lang= too): its restart lines in the same language
  state: data.state,
  lastSeq: data.last_seq,
  serverTime: data.server_time,
  field: data.field,
  onState: (state, info) => {
    render(state);
    followGoals(state, info);
  },
  onStatus: (status) => {
    const conn = part("conn");
    conn.setAttribute("data-status", status);
    setText(conn, CONN[status] || status);
  },
  onTick: (lv) => {
    tick(lv);
    renderKept(part("kept-at-field"), lv.field, lv.serverNow());
  },
});

// --- Tools -----------------------------------------------------------------------------------------
convention.bindToggle(part("clock-toggle"), SCREEN, (value) => {
  const changed = value !== shownAs;
  shownAs = value;
  root.setAttribute("data-clock", value);
  setText(part("clock-label"), convention.label(value));
  setText(part("goals-clock-heading"), convention.heading(value));
  if (changed) {
    renderGoals();
    tick(live);
  }
});
bindMuteButton(part("mute"));
const fs = part("fullscreen");
if (!document.fullscreenEnabled) {
  fs.hidden = true;
} else {
  fs.addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => { /* refused: stay */ });
  });
  document.addEventListener("fullscreenchange", () => {
    const on = !!document.fullscreenElement;
    document.body.classList.toggle("fullscreen", on);
    setText(fs, on ? gettext("Leave full screen") : gettext("Full screen"));
  });
}

render(data.state);
renderGoals();
