/* The words of the officials' screens: the match log's codes and their labels in the user's
 * language.
 *
 * The codes are the engine's (officiating/engine and the JSON Schemas of officiating/schemas):
 * event types, whistle reasons, penalties, deflections, restart violations, restart kinds, match
 * statuses, timer kinds, cards. tests/browser/test_js_vocabulary.py fails when this module and the
 * engine disagree (one side has a code the other lacks).
 *
 * A choice list is rows of [code, key, label]: the key answers the wizard's question on the
 * scorer's keyboard. A label that says a rule's number (a penalty's distance, a timer's length)
 * is a function of the rule edition's numbers, ``state.limits``: ``choices(rows, limits)`` and
 * ``labelOf(rows, code, limits)`` give the text.
 */
import {formatDuration} from "../format.js";
import {gettext, interpolate, pgettext} from "../i18n.js";

export const EVENT_LABELS = Object.freeze({
  play: pgettext("event", "Play"), goal: gettext("Goal"), foul: gettext("Foul"), ball_out: gettext("Ball out"), whistle: gettext("Whistle"),
  restart_violation: gettext("Restart violation"), horn: gettext("Horn"), clock_set: gettext("Set the clock"), card: gettext("Card"),
  mount: gettext("Mount (horse change)"), substitution: gettext("Substitution"), suspend: gettext("Suspend the game"),
  resume: gettext("Resume the game"), abandon: gettext("Abandon the game"), overtime: gettext("Overtime"),
  shootout_start: gettext("Start a shootout"), shootout_attempt: gettext("Shootout hit"), forfeit: gettext("Forfeit"),
  void: gettext("Void (undo)"), hold: gettext("Clock held"), release: gettext("Clock released"),
});
// The events that stop play and the clock: their first key holds the clock (issue 9).
export const STOPPAGES = Object.freeze(["goal", "foul", "ball_out", "whistle", "restart_violation"]);
// The kinds of a hold, as the other officials' screens name an entry in progress ("foul…").
export const HOLD_KINDS = Object.freeze({
  goal: gettext("goal"), foul: pgettext("event", "foul"), ball_out: gettext("ball out"), whistle: gettext("whistle"),
  restart_violation: gettext("restart violation"),
});
export const ROLE_LABELS = Object.freeze({scorer: gettext("scorer"), umpire: gettext("umpire"), committee: gettext("committee")});

export const WHISTLE_REASONS = Object.freeze([
  ["injured_player", "1", gettext("Injured player")], ["player_fall", "2", gettext("Player fall")],
  ["injured_horse", "3", gettext("Injured horse")], ["horse_fall", "4", gettext("Horse fall")],
  ["horse_timeout", "5", gettext("Horse time-out")], ["courtesy_change", "6", gettext("Courtesy change")],
  ["broken_tack", "7", gettext("Broken tack")], ["lost_helmet", "8", gettext("Lost helmet")],
  ["lodged_ball", "9", gettext("Lodged ball")], ["damaged_ball", "0", gettext("Damaged ball")],
  ["inadvertent", "I", gettext("Inadvertent whistle")], ["rule_check", "R", gettext("Rule check (no foul)")],
  ["umpire_down", "U", gettext("Umpire down")], ["other", "X", gettext("Other")],
]);
export const PENALTIES = Object.freeze([
  ["1", "1", () => gettext("Penalty 1 (goal awarded)")],
  ["2", "2", (limits) => interpolate(gettext("Penalty 2 (%(yards)s yards)"), {yards: limits.penalty_2_yards})],
  ["3", "3", (limits) => interpolate(gettext("Penalty 3 (%(yards)s yards)"), {yards: limits.penalty_3_yards})],
  ["4", "4", (limits) => interpolate(gettext("Penalty 4 (%(yards)s yards)"), {yards: limits.penalty_4_yards})],
  ["5a", "5", () => gettext("Penalty 5.a (from the spot)")], ["5b", "B", () => gettext("Penalty 5.b (from the centre)")],
  ["6", "6", () => gettext("Penalty 6 (safety)")],
]);
export const PENALTY_NAMES = Object.freeze({"1": "1", "2": "2", "3": "3", "4": "4", "5a": "5.a", "5b": "5.b", "6": "6"});
export const DEFLECTIONS = Object.freeze([
  ["none", "N", gettext("Nothing")], ["own_mount", "M", gettext("The hitter's own horse")], ["teammate", "T", gettext("A teammate")],
  ["goal_post", "P", gettext("A goal post")], ["boards", "B", gettext("The boards")], ["opponent", "O", gettext("An opponent")],
  ["opponent_mallet", "L", gettext("An opponent's mallet")], ["umpire", "U", gettext("An umpire")], ["unknown", "K", gettext("Not known")],
]);
export const VIOLATIONS = Object.freeze([
  ["late", "L", gettext("Late (not hit in time)")], ["early", "E", gettext("Early (hit before “Play”)")],
  ["passed_ball", "P", gettext("Passed the ball")],
  ["encroachment", "N", (limits) => interpolate(gettext("Defenders within %(yards)s yards"), {yards: limits.encroachment_yards})],
  ["delay", "D", gettext("Delay of game")],
]);
export const CARDS = Object.freeze([["yellow", "Y", gettext("Yellow")], ["red", "R", gettext("Red")]]);

/* The timers on screen: the state's (the stoppages of Rule 21, the interval) and the restart
 * timers the screens keep themselves (officials/timers.js). ``seconds``: the timer's length. */
const TIMER_LABELS = Object.freeze({
  injured_player: (time) => interpolate(gettext("Injured player (%(time)s)"), {time}),
  horse_timeout: (time) => interpolate(gettext("Horse time-out (%(time)s)"), {time}),
  courtesy_change: (time) => interpolate(gettext("Courtesy change (%(time)s)"), {time}),
  broken_tack: (time) => interpolate(gettext("Broken tack (%(time)s)"), {time}),
  interval: () => gettext("Interval"),
  halftime: () => gettext("Half-time"),
  goal_return: (time) => interpolate(gettext("Back to the centre after the goal (%(time)s)"), {time}),
  knock_in: (time) => interpolate(gettext("Knock-in: hit within %(time)s of “Play”"), {time}),
  foul_shot: (time) => interpolate(gettext("Foul shot: hit within %(time)s of “Play”"), {time}),
  count: (time) => interpolate(gettext("Umpire's count (%(time)s)"), {time}),
  to_play: (time) => interpolate(gettext("To play the ball (%(time)s)"), {time}),
});
export const TIMER_KINDS = Object.freeze(Object.keys(TIMER_LABELS));

export function timerLabel(kind, seconds) {
  const label = TIMER_LABELS[kind];
  return label ? label(formatDuration(seconds)) : kind;
}

export const STATUS_LABELS = Object.freeze({
  scheduled: gettext("Not started"), in_play: gettext("In play"), stopped: gettext("Stopped"), interval: gettext("Interval"),
  tied: gettext("Tied: waiting for the committee"), shootout: gettext("Shootout"), suspended: gettext("Suspended"),
  final: gettext("Final"), abandoned: gettext("Abandoned"),
});
/* A state's status in words: half-time is the interval of Rule 14.a's longer kind, and is called
 * so on every screen (the timer, the public boards). */
export function statusLabel(state) {
  const s = state && state.status;
  if (s === "interval" && state.interval && state.interval.kind === "halftime") return TIMER_LABELS.halftime();
  return STATUS_LABELS[s] || s || "";
}

/* An entry in progress holds the clock (docs/MATCH-LOG.md "Holds"): the ball is in play, the clock
 * is not running. Every officials' screen says so in these words (the board, the line under the field). */
export const clockHeld = (state) => !!(state && state.status === "in_play" && state.clock && state.clock.held);
export const HELD_LABEL = gettext("In play — clock held");

export const RESTART_KINDS = Object.freeze({
  throw_in: gettext("Throw-in"), knock_in: gettext("Knock-in"), penalty: gettext("Penalty"), free_hit: gettext("Free hit"),
  possession_play: gettext("Possession play"),
});

const text = (label, limits) => (typeof label === "function" ? label(limits || {}) : label);

/* A choice list with its labels written out for the state's rule edition. */
export const choices = (rows, limits) => rows.map(([code, key, label]) => [code, key, text(label, limits)]);

/* The label of one code of a choice list (the code itself when the list does not have it). */
export function labelOf(rows, code, limits) {
  const row = rows.find((r) => r[0] === code);
  return row ? text(row[2], limits) : code;
}
