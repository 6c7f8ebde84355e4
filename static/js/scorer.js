/* The scorer's laptop: keyboard first. Keys (the help overlay, "?", lists them):
 *   Space play · G goal · F foul · O ball out · W whistle · H horn · C card · M mount
 *   V restart violation · T set the clock · Z void the last event · # void event number n
 *   Ctrl+K or / every event type
 * A command asks its questions one by one (team: H/A, player: 1–4, choices by their key, a spot by
 * clicking the field or the arrows + Enter); Backspace goes back, Esc cancels.
 * The first key of a stoppage (G, F, O, W, V) stops the clock there and then, on every screen;
 * Esc lets it run on as if it had never stopped (officials/holds.js).
 * Events go through the offline queue to the event API; the state comes back over the websocket
 * (officials/screen.js).
 */
import {CODES, PAGE_CODES} from "./codes.js";
import {el} from "./dom.js";
import {formatClock} from "./format.js";
import {gettext, interpolate} from "./i18n.js";
import {COMMANDS, EVENT_LABELS, Screen, Wizard, canLog, canVoid, describeEvent, isHoldEntry, paintTeam, renderLogEntry,
        screenParts} from "./officials-common.js";

const $ = (sel) => document.querySelector(sel);
const {page, teams, field} = screenParts();
let state = page.state;
const wizard = new Wizard({
  root: $("#command"), teams, field, onIdle: renderPlayers,
  begin: (type) => screen.beginEntry(type),
  abandon: (entry) => screen.abandonEntry(entry),
  submit: (ev, entry) => screen.finishEntry(ev, entry),
  resolve: (name, value) => (name === "void_target" ? voidTarget(value) : {value}),
});
const mayVoid = (entry) => canVoid(page.role, entry);
let waiting = [];  // the offline queue's events, shown on top of the log until they are recorded
const screen = new Screen({
  page, teams, field,
  onState: (s) => { state = s; renderPlayers(); },
  onLog: renderLog,
  onQueue: (queue, log) => { waiting = queue.items.slice(); renderLog(log); },
});

/* Why this entry may not be voided by this user, or null. */
function voidProblem(entry) {
  if (isHoldEntry(entry)) {
    return interpolate(gettext("#%(seq)s is a clock hold of an entry in progress, not an event to void."), {seq: entry.seq});
  }
  if (entry.type === "void") return interpolate(gettext("#%(seq)s is itself a void: it cannot be voided."), {seq: entry.seq});
  if (screen.log.voidOf(entry)) return interpolate(gettext("#%(seq)s is voided already."), {seq: entry.seq});
  if (!mayVoid(entry)) {
    const by = entry.event.by;
    return by && by.role === "committee"
      ? interpolate(gettext("#%(seq)s “%(what)s” is the committee's decision: only the committee may void it."), {seq: entry.seq, what: describeEvent(teams, entry)})
      : interpolate(gettext("#%(seq)s “%(what)s”: only the umpires or the committee may void it."), {seq: entry.seq, what: describeEvent(teams, entry)});
  }
  return null;
}

const voidNote = (entry) => interpolate(gettext("Void #%(seq)s: %(what)s"), {seq: entry.seq, what: describeEvent(teams, entry)});

/* "#n" typed for a void: the event of that number, if this user may void it. */
function voidTarget(seq) {
  const entry = screen.log.bySeq.get(seq);
  if (!entry) return {error: interpolate(gettext("There is no event #%(seq)s in the log."), {seq: seq})};
  const problem = voidProblem(entry);
  return problem ? {error: problem} : {value: entry.id, note: voidNote(entry)};
}

function voidEntry(entry) {
  if (!entry) { screen.refuse({code: PAGE_CODES.NOTHING_TO_VOID, message: gettext("There is nothing to void.")}); return; }
  const problem = voidProblem(entry);
  if (problem) { screen.refuse({code: CODES.VOID_NOT_PERMITTED, message: problem}); return; }
  wizard.start("void", {target: entry.id}, voidNote(entry));
}

function start(type, byNumber) {
  const closed = screen.closedReason(type);
  if (closed) { screen.refuse({code: PAGE_CODES.MATCH_CLOSED, message: closed}); return; }
  screen.refuse(null);
  if (type === "void" && byNumber) wizard.start("void");
  else if (type === "void") voidEntry(screen.log.lastVoidable());
  else wizard.start(type);
  renderPlayers();
}

function play() {
  const closed = screen.closedReason("play");
  if (closed) { screen.refuse({code: PAGE_CODES.MATCH_CLOSED, message: closed}); return; }
  // A throw-in before the interval is over (Rule 14.a) is the umpires' call, but one press of
  // Space must not start the next chukker minutes early: ask, saying how long is left.
  const left = state && state.status === "interval" ? screen.live.intervalRemaining() : null;
  if (left != null && left >= 1) { askEarlyStart(left); return; }
  screen.logEvent({type: "play"});
}

const early = $("#early-start");
function askEarlyStart(left) {
  const halftime = state.interval && state.interval.kind === "halftime";
  early.querySelector('[data-role="early-start-text"]').textContent = interpolate(
    halftime ? gettext("Half-time is not over: %(left)s left. Start the next chukker now?")
      : gettext("The interval is not over: %(left)s left. Start the next chukker now?"),
    {left: formatClock(Math.ceil(left))});
  early.returnValue = "";
  early.showModal();
}
early.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !(e.target && e.target.tagName === "BUTTON")) { e.preventDefault(); early.close("wait"); }
});
early.addEventListener("close", () => {
  if (early.returnValue === "start") screen.logEvent({type: "play"});
});

// --- Players: buttons in team colours, live while a team or player is asked for ------------------
function renderPlayers() {
  const step = wizard.active ? wizard.step() : null;
  const unavailable = (state && state.unavailable_players) || [];
  const excused = (state && state.excused_horses) || [];
  for (const team of ["home", "away"]) {
    const row = $(`#players-${team}`);
    const pickTeam = step && step.kind === "team";
    const pickPlayer = step && step.kind === "player" && step.team(wizard.values) === team;
    row.replaceChildren(...teams.players(team).map((p) => {
      const out = unavailable.find((u) => u.team === team && u.number === p.number);
      const horses = excused.filter((h) => h.team === team && h.number === p.number).map((h) => h.horse);
      const b = el("button", {type: "button", class: "player" + (out ? " unavailable" : ""), "data-team": team,
                              "data-number": p.number, disabled: !(pickTeam || pickPlayer),
                              title: out ? gettext("Unavailable") + ": " + out.reason : null},
                   [el("kbd", {text: String(p.number)}), el("span", {class: "player-name", text: p.name}),
                    horses.length ? el("small", {text: interpolate(gettext("excused: %(horses)s"), {horses: horses.join(", ")})}) : null]);
      paintTeam(b, teams.color(team));
      b.addEventListener("click", () => {
        if (wizard.active && wizard.step().kind === "team") wizard.answer(team);
        const next = wizard.active ? wizard.step() : null;
        if (next && next.kind === "player" && next.team(wizard.values) === team) wizard.answer(p.number);
        renderPlayers();
      });
      return b;
    }));
  }
}

function renderLog(log) {
  const shown = waiting.filter((item) => !isHoldEntry(item.event));
  const pending = shown.slice().reverse().map((item) => el("li", {class: "log-pending", "data-type": item.event.type, "data-id": item.event.id}, [
    el("span", {class: "log-seq", text: "…"}), el("span", {class: "log-clock"}),
    el("span", {class: "log-text", text: describeEvent(teams, item.event)}),
    el("span", {class: "log-waiting", text: gettext("waiting to be sent")})]));
  // Every entry, the clock holds of entries in progress as faint lines: the numbers run on without gaps.
  const clock = state && state.clock;
  $("#log").replaceChildren(...pending, ...log.allNewestFirst().map((entry) => renderLogEntry(teams, log, entry, voidEntry, mayVoid, page.role, clock)));
}

// --- The command palette: every event type of the contract, searchable ------------------------
const SHORTCUTS = {play: "Space", goal: "G", foul: "F", ball_out: "O", whistle: "W", horn: "H", card: "C", mount: "M",
                   restart_violation: "V", clock_set: "T", void: "Z"};
const palette = $("#palette"), paletteInput = $("#palette-input"), paletteList = $("#palette-list");
let paletteIndex = 0;

/* The event types that match what is typed: first those this official may log now, then the
 * others (another role's decisions, a closed match's), each group in the usual order — typing
 * "shootout" offers the scorer's "Shootout hit" before the committee's "Start a shootout". */
function paletteItems() {
  const q = paletteInput.value.trim().toLowerCase();
  const found = Object.keys(COMMANDS).filter((type) => !q || EVENT_LABELS[type].toLowerCase().includes(q) || type.includes(q));
  const mine = (type) => canLog(page.role, type) && !screen.closedReason(type);
  return [...found.filter(mine), ...found.filter((type) => !mine(type))];
}

function renderPalette() {
  const items = paletteItems();
  paletteIndex = Math.min(paletteIndex, Math.max(0, items.length - 1));
  paletteList.replaceChildren(...items.map((type, i) => {
    const closed = screen.closedReason(type);
    const others = !canLog(page.role, type);
    const li = el("li", {role: "option", "data-type": type, "aria-selected": i === paletteIndex ? "true" : "false",
                         "aria-disabled": closed ? "true" : null, title: closed,
                         class: others ? "palette-others" : null},
                  [el("span", {text: EVENT_LABELS[type]}), SHORTCUTS[type] ? el("kbd", {text: SHORTCUTS[type]}) : null]);
    li.addEventListener("click", () => choosePalette(type));
    return li;
  }));
}

function openPalette() {
  if (wizard.active) wizard.cancel();
  paletteInput.value = "";
  paletteIndex = 0;
  renderPalette();
  palette.showModal();
  paletteInput.focus();
}

function choosePalette(type) {
  palette.close();
  if (type === "play") play(); else start(type);
}

paletteInput.addEventListener("input", () => { paletteIndex = 0; renderPalette(); });
paletteInput.addEventListener("keydown", (e) => {
  const items = paletteItems();
  if (e.key === "ArrowDown") { paletteIndex = Math.min(items.length - 1, paletteIndex + 1); renderPalette(); e.preventDefault(); }
  else if (e.key === "ArrowUp") { paletteIndex = Math.max(0, paletteIndex - 1); renderPalette(); e.preventDefault(); }
  else if (e.key === "Enter") { e.preventDefault(); if (items[paletteIndex]) choosePalette(items[paletteIndex]); }
});

// --- Keys -------------------------------------------------------------------------------------
const KEYS = {g: "goal", f: "foul", o: "ball_out", w: "whistle", h: "horn", c: "card", m: "mount",
              v: "restart_violation", t: "clock_set", z: "void"};
const help = $("#help");

document.addEventListener("keydown", (e) => {
  if (palette.open || help.open || early.open) return;  // the dialogs have the keys (Esc closes them)
  const target = e.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
  if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") { e.preventDefault(); openPalette(); return; }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (wizard.active) {
    if (wizard.handleKey(e)) { e.preventDefault(); renderPlayers(); }
    return;
  }
  const key = e.key.toLowerCase(), queue = screen.queue;
  if (queue.blocked) {
    if (key === "r" && queue.blocked.kind !== "rejected") { e.preventDefault(); screen.keep(); return; }
    if (key === "d") { e.preventDefault(); screen.drop(); return; }
    if (key === "n" && queue.blocked.kind === "rejected") { e.preventDefault(); queue.recordNow(); return; }
    // Enter takes the conflict box's default, the safe one: drop (queue-box.js); on a button, that button.
    if (e.key === "Enter" && !(target && target.tagName === "BUTTON") && queue.blocked.kind === "conflict" && queue.blocked.checked) { e.preventDefault(); screen.drop(); return; }
  }
  if (e.key === " ") { e.preventDefault(); play(); return; }
  if (e.key === "#") { e.preventDefault(); start("void", true); return; }
  if (e.key === "?") { e.preventDefault(); help.showModal(); return; }
  if (e.key === "/") { e.preventDefault(); openPalette(); return; }
  if (e.key === "Escape") { screen.refuse(null); screen.restartTimers.dismiss(); screen.tick(); return; }
  if (KEYS[key]) { e.preventDefault(); start(KEYS[key]); }
});

$("#help-open").addEventListener("click", () => help.showModal());
$("#palette-open").addEventListener("click", openPalette);
renderPlayers();
