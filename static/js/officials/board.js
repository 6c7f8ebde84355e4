/* The header of the officials' screens: score, period, status, the official clock, the
 * connection indicator; and the box that shows a refusal. */
import {el, setText} from "../dom.js";
import {formatClock, formatScore} from "../format.js";
import {gettext, interpolate} from "../i18n.js";
import {paintTeam} from "./teams.js";
import {HELD_LABEL, clockHeld, statusLabel} from "./words.js";

/* The official clock now: elapsed at the anchor plus the time since, never past the double horn
 * (``state.clock.end_seconds``). */
export function clockElapsed(state, now) {
  const c = (state && state.clock) || {};
  let e = c.elapsed || 0;
  const end = typeof c.end_seconds === "number" ? c.end_seconds : Infinity;
  if (c.running && c.anchor != null) e = Math.min(e + Math.max(0, now - c.anchor), Math.max(e, end));
  return e;
}

export function renderBoard(root, teams, state, now) {
  if (!state) return;
  for (const team of ["home", "away"]) {
    const out = root.querySelector(`[data-score="${team}"]`);
    if (out) setText(out, formatScore((state.score || {})[team] || 0));
  }
  const period = root.querySelector("[data-period]");
  if (period && state.period) {
    setText(period, state.period.kind === "overtime"
      ? interpolate(gettext("Overtime %(n)s"), {n: state.period.number}) : interpolate(gettext("Chukker %(n)s"), {n: state.period.number}));
  }
  const status = root.querySelector("[data-status-text]");
  const held = clockHeld(state);
  const word = held ? HELD_LABEL : statusLabel(state);
  if (status && status.textContent !== word) {
    status.textContent = word;
    status.dataset.value = state.status;
    status.dataset.held = String(!!held);
  }
  const clock = root.querySelector("[data-clock]");
  if (clock) {
    const e = clockElapsed(state, now);
    setText(clock, formatClock(e));
    const running = state.clock && state.clock.running ? "true" : "false";
    if (clock.dataset.running !== running) clock.dataset.running = running;
    const held = state.clock && state.clock.held ? "true" : "false";  // an entry in progress holds it
    if (clock.dataset.held !== held) clock.dataset.held = held;
    const regular = (state.clock || {}).regular_seconds;
    const extra = typeof regular === "number" && e >= regular;  // past the single horn
    if (clock.classList.contains("extra") !== extra) clock.classList.toggle("extra", extra);
  }
}

export function renderConnection(node, status, queue) {
  const n = queue ? queue.length : 0;
  const offline = status !== "live" || (queue && queue.offline);
  const label = offline ? (status === "connecting" ? gettext("Connecting…") : gettext("Offline")) : gettext("Live");
  node.dataset.status = offline ? (status === "connecting" ? "connecting" : "offline") : "live";
  node.dataset.queued = String(n);
  node.textContent = n ? label + " · " + interpolate(gettext("%(n)s queued"), {n}) : label;
}

export function renderRejection(node, error) {
  node.replaceChildren();
  if (!error) { node.hidden = true; return; }
  node.hidden = false;
  node.dataset.code = error.code || "";
  if (error.rule) node.append(el("strong", {class: "rule", text: interpolate(gettext("Rule %(rule)s"), {rule: error.rule})}), " ");
  node.append(el("span", {class: "message", text: error.message || error.code || gettext("The event was refused.")}));
}

export function setupTeams(root, teams) {
  for (const team of ["home", "away"]) {
    for (const node of root.querySelectorAll(`[data-team-color="${team}"]`)) paintTeam(node, teams.color(team));
  }
}
