/* The stream overlay (/matches/{id}/overlay/): a compact, transparent bar for an OBS browser
 * source — teams, score, chukker, clock; a status word only when the ball is not simply in play.
 * Its words come translated with the page (``?lang=`` or the visitor's language), so it needs no
 * JavaScript catalog. The clock shows time left, labelled; ``?clock=played`` shows time played
 * (clock-convention.js, screen "overlay": no button on a video). */
import * as convention from "./clock-convention.js";
import {jsonData, setText} from "./dom.js";
import {formatClock, formatScore} from "./format.js";
import {flash} from "./horns.js";
import {interpolate} from "./i18n.js";
import {connect} from "./live.js";

const root = document.getElementById("overlay");
const data = jsonData("live-data");
const meta = data.match, labels = data.labels;
convention.setLabels(labels.clock);
const shownAs = convention.get("overlay");
root.setAttribute("data-clock", shownAs);

const part = (role) => root.querySelector(`[data-role="${role}"]`);

for (const team of ["home", "away"]) part("swatch-" + team).style.setProperty("background-color", meta[team].color);

function render(state) {
  setText(part("score-home"), formatScore(state.score.home));
  setText(part("score-away"), formatScore(state.score.away));
  const period = state.period || {};
  setText(part("period-label"), labels.period[period.kind] || labels.period.regulation);
  setText(part("period"), period.number ? String(period.number) : "–");
  const status = part("status");
  status.setAttribute("data-status", state.status);
  const quiet = state.status === "in_play" || state.status === "stopped";
  status.hidden = quiet;
  if (!quiet) {
    const halftime = state.status === "interval" && state.interval && state.interval.kind === "halftime";
    setText(status, halftime ? labels.halftime : labels.status[state.status] || state.status);
  }
}

function tick(live) {
  const state = live.state;
  if (!state) return;
  const left = live.intervalRemaining();
  let text = state.status === "scheduled" ? "–:––" : convention.clockText(live, shownAs);
  if (left != null) text = interpolate(labels.next_in, [formatClock(Math.ceil(left))]);
  setText(part("clock"), text);
  const label = part("clock-label");
  setText(label, convention.label(shownAs));
  label.hidden = left != null;  // "Next chukker in 2:00" says what it counts
}

connect({
  matchId: meta.id,
  lang: data.lang,
  state: data.state,
  lastSeq: data.last_seq,
  serverTime: data.server_time,
  banner: false,  // the bar itself flashes instead of a banner over the video
  onState: render,
  onStatus: (status) => root.setAttribute("data-conn", status),
  onHorn: (kind) => {
    flash(root, "horn");
    root.setAttribute("data-horn", kind);
  },
  onTick: tick,
});
render(data.state);
