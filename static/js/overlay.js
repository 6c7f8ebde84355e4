/* The stream overlay (/matches/{id}/overlay/): a compact bar for an OBS browser source — teams,
 * score, chukker, clock; a status word only when the ball is not simply in play; the shootout, the
 * result, the handicap goals before the throw-in. Its words come translated with the page
 * (``?lang=`` or the visitor's language), so it needs no JavaScript catalog. The clock shows time
 * left, labelled; ``?clock=played`` shows time played (clock-convention.js, screen "overlay").
 * Its options (position, theme, scale, which parts) are in its address: overlay-options.js.
 */
import * as convention from "./clock-convention.js";
import {jsonData, setHidden, setText} from "./dom.js";
import {renderKept} from "./field-status.js";
import {formatClock, formatScore} from "./format.js";
import {interpolate} from "./i18n.js";
import {connect} from "./live.js";
import {parse} from "./overlay-options.js";
import {describe, fill, handicapText, loadWords, shootoutView} from "./phase.js";

const LOWER_THIRD_MS = 8000;  // how long a goal's scorer stays on screen

const stage = document.getElementById("overlay-stage");
const root = document.getElementById("overlay");
const data = jsonData("live-data");
const meta = data.match, labels = data.labels;
const words = loadWords();
convention.setLabels(labels.clock);
const shownAs = convention.get("overlay");
root.setAttribute("data-clock", shownAs);

const part = (role) => stage.querySelector(`[data-role="${role}"]`);

// --- Options ---------------------------------------------------------------------------------------
const opts = parse(window.location.search);
opts.show = new Set(opts.show);
stage.setAttribute("data-pos", opts.pos);
stage.setAttribute("data-theme", opts.theme);
for (const node of stage.querySelectorAll("[data-part]")) {
  if (!opts.show.has(node.getAttribute("data-part"))) node.setAttribute("data-off", "");
}

// The chosen scale, made smaller when the stage would be wider than the viewport (a narrow browser
// source, a phone): the whole bar shows, 8 px in from each side. The stage's own width does not
// change with its transform, so setting the scale does not call the observer again.
const MARGIN = 8;
function fitScale() {
  const room = document.documentElement.clientWidth - 2 * MARGIN;
  const wide = Math.max(stage.offsetWidth, stage.scrollWidth);
  const fits = wide > 0 && room > 0 ? Math.floor((room / wide) * 1000) / 1000 : opts.scale;
  stage.style.setProperty("--ov-scale", String(Math.min(opts.scale, fits)));
  stage.toggleAttribute("data-overflows", wide > room);  // overlay.css: where a centred stage shrinks to
}
fitScale();
new ResizeObserver(fitScale).observe(stage);
window.addEventListener("resize", fitScale);

for (const team of ["home", "away"]) {
  part("swatch-" + team).style.setProperty("background-color", meta[team].color);
  part("so-swatch-" + team).style.setProperty("background-color", meta[team].color);
}

// --- The bar and its strips ------------------------------------------------------------------------
let view = describe(data.state, meta, labels, words);

function renderShootout(state) {
  const so = shootoutView(state, meta, words), box = part("shootout");
  box.hidden = !so;
  if (!so) return;
  setText(part("so-title"), words.shootout + " · " + so.round + " · " + so.line);
  for (const team of ["home", "away"]) {
    setText(part("so-hits-" + team), so.attempts[team].map((s) => (s ? "✓" : "✗")).join(" "));
    setText(part("so-points-" + team), String(so.points[team]));
  }
  setText(part("so-next"), so.next);
}

function render(state) {
  view = describe(state, meta, labels, words);
  stage.setAttribute("data-phase", view.phase);
  setText(part("score-home"), formatScore(state.score.home));
  setText(part("score-away"), formatScore(state.score.away));
  part("period-line").hidden = !view.period;
  if (view.period) {
    setText(part("period-label"), view.period[0]);
    setText(part("period"), view.period[1]);
  }
  part("clock-box").hidden = !view.clock;
  const status = part("status");
  status.setAttribute("data-status", state.status);
  const quiet = (state.status === "in_play" && !view.held) || state.status === "stopped";
  status.hidden = quiet;
  if (!quiet) setText(status, view.status);
  // Before the throw-in, the handicap goals in the score say what they are; after the game, how it was won.
  const handicaps = ["home", "away"].map((t) => {
    const h = handicapText(state, meta, t, words, formatScore);
    return h ? meta[t].name + ": " + h : "";
  }).filter(Boolean).join(" · ");
  const info = view.result || (state.status === "scheduled" ? handicaps : "");
  setText(part("info"), info);
  part("info").hidden = !info;
  renderShootout(state);
  const r = state.restart, restart = part("restart");
  const restartText = state.status === "stopped" && r ? r.message || r.rule || "" : "";
  setText(restart, restartText);
  restart.hidden = !restartText;
  const summary = part("summary");
  const iv = state.status === "interval" && state.period;
  summary.hidden = !iv;
  if (iv) {
    const end = view.phase === "halftime" ? labels.halftime : fill(words.end_of, {number: state.period.number});
    setText(summary, end + " · " + meta.home.name + " " + formatScore(state.score.home) + " – " +
      formatScore(state.score.away) + " " + meta.away.name);
  }
}

// --- The lower third: a goal's scorer, for a few seconds -------------------------------------------
let lowerTimer = null;

function showGoal(goals) {
  // The update's goals as the engine's fold records them: the hitter's name (an own goal's is the
  // other team's player), none for a Penalty 1's awarded goal.
  for (const goal of goals || []) {
    const name = goal.name || (goal.number ? "#" + goal.number : "");
    const lower = part("lower-third");
    setText(lower, [words.goal, name, meta[goal.team].name].filter(Boolean).join(" · "));
    lower.hidden = false;
    clearTimeout(lowerTimer);
    lowerTimer = setTimeout(() => { lower.hidden = true; }, LOWER_THIRD_MS);
  }
}

const keptWords = {heard: labels.kept_heard, unheard: labels.kept_unheard};

function tick(live) {
  renderKept(part("kept-at-field"), live.field, live.serverNow(), keptWords);
  const state = live.state;
  if (!state) return;
  // An interval counts down to the next chukker where the clock was, as the TV and the scoreboard
  // do (the same state: its interval); once it has run out the umpires throw in when ready, and
  // the bar says no "0:00".
  const left = live.intervalRemaining();
  const counting = left != null && left > 0;
  const box = part("clock-box");
  setHidden(box, !view.clock && !counting);
  if (box.hidden) return;
  const text = counting ? interpolate(labels.next_in, [formatClock(Math.ceil(left))])
    : state.status === "scheduled" ? "–:––" : convention.clockText(live, shownAs);
  setText(part("clock"), text);
  const label = part("clock-label");
  setText(label, convention.liveLabel(live, shownAs));
  setHidden(label, counting);  // "Next chukker in 2:00" says what it counts
}

// A horn flashes a ring around the bar; the class goes when the flash ends, so nothing of it stays.
root.addEventListener("animationend", () => root.classList.remove("horn"));

let live = null;
live = connect({
  matchId: meta.id,
  lang: data.lang,
  state: data.state,
  lastSeq: data.last_seq,
  serverTime: data.server_time,
  field: data.field,
  fieldWords: {waiting: data.labels.field_waiting, note: data.labels.field_waiting_note},
  banner: false,  // the bar itself flashes instead of a banner over the video
  onState: (state, info) => {
    render(state);
    if (live) tick(live);  // (the clock's box at once: an interval's countdown, not the chukker's clock)
    if (info.source === "update") showGoal(info.goals);
  },
  onStatus: (status) => root.setAttribute("data-conn", status),
  onHorn: (kind) => {
    root.classList.remove("horn");
    void root.offsetWidth;  // restart the animation
    root.classList.add("horn");
    root.setAttribute("data-horn", kind);
  },
  onTick: tick,
});
render(data.state);
tick(live);
