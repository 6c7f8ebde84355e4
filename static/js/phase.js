/* What the public screens (scoreboard, TV, overlay, tournament day) say of a match in each phase
 * (issue 12, item 1), so that the three say the same and none shows a state the match is not in.
 *
 * A *phase* is the state's ``status`` made finer: ``halftime`` (an interval of kind halftime) and
 * ``overtime`` (in play or stopped in an overtime period) are phases of their own. The words come
 * translated with the page (templates/public/_phase_words.html, ``<template id="phase-words">``),
 * so the overlay, which has no JavaScript catalog, says them in its ``?lang=`` too.
 *
 *   const words = loadWords();
 *   const view = describe(state, meta, labels, words);
 *     view.phase    "scheduled" | "in_play" | "stopped" | "interval" | "halftime" | "suspended" |
 *                   "tied" | "overtime" | "shootout" | "final" | "abandoned"
 *     view.status   the headline ("Shootout", "Final", "Tied — waiting for the committee"…;
 *                   "In play — clock held" while an official types a stoppage, or after a voided
 *                   goal, as the officials' boards say: the ball is not simply in play)
 *     view.held     whether the clock is held so (the restart line says so too)
 *     view.result   "Winner: Ellerstina · in the shootout" on a final, else ""
 *     view.clock    whether the chukker's clock means anything now (not after the game, not in a
 *                   shootout or a tie: a stopped "+0:30" there is a state the match is not in)
 *                   (an interval shows its countdown instead)
 *     view.restart  whether the restart line and the ends mean anything now (not once play is over)
 *     view.period   ["Chukker", "3"] | ["Overtime", "1"] | null (none before the throw-in or after
 *                   the game)
 *   shootoutView(state, meta, words) -> null | {round, line, next, points, attempts: {home, away}}
 *   restartText(state, meta, words) -> "Free hit to La Dolfina · Rule 22.f" while the match is
 *                 stopped, else "" (from the restart's kind, team, penalty and rule: a summary of the
 *                 state, as the tournament's day lists it, carries no message in the page's language)
 */

const ENDED = new Set(["final", "abandoned"]);
const NO_CLOCK = new Set(["scheduled", "interval", "tied", "shootout", "final", "abandoned"]);
const OVER = new Set(["tied", "shootout", "final", "abandoned"]);  // play over: no restart, no ends

export function loadWords(id = "phase-words") {
  const words = {};
  const tpl = document.getElementById(id);
  if (!tpl) return words;
  for (const node of tpl.content.querySelectorAll("[data-word]")) words[node.getAttribute("data-word")] = node.textContent;
  return words;
}

/* "%(name)s" from an object (the catalog's python-format). */
export function fill(text, values) {
  return String(text || "").replace(/%\((\w+)\)s/g, (_, name) => String(values[name] != null ? values[name] : ""));
}

export function phaseOf(state) {
  const s = (state && state.status) || "scheduled";
  const kind = state && state.period && state.period.kind;
  if (s === "interval" && state.interval && state.interval.kind === "halftime") return "halftime";
  if ((s === "in_play" || s === "stopped") && kind === "overtime") return "overtime";
  return s;
}

/* The period's name and number, ["Chukker", "3"] or ["Overtime", "1"]: overtime periods are
 * counted from one (the state numbers them on from the regulation chukkers); null without one. */
export function periodParts(state, meta, labels, words) {
  const p = state && state.period;
  if (!p || !p.number) return null;
  if (p.kind === "overtime") {
    const n = meta && meta.periods ? p.number - meta.periods : p.number;
    return [words.overtime || labels.period.overtime, String(Math.max(1, n))];
  }
  return [labels.period.regulation, String(p.number)];
}

function resultText(state, meta, labels, words) {
  if (state.status !== "final" || !state.winner) return "";
  const how = {regulation: words.won_regulation, overtime: words.won_overtime, shootout: words.won_shootout,
               forfeit: words.won_forfeit}[state.result] || "";
  const who = fill(words.winner, {team: meta[state.winner].name});
  return how ? who + " · " + how : who;
}

/* An entry in progress holds the clock (docs/MATCH-LOG.md "Holds"): the ball is in play, the clock
 * is not running. */
export function clockHeld(state) {
  return !!(state && state.status === "in_play" && state.clock && state.clock.held);
}

export function describe(state, meta, labels, words) {
  const phase = phaseOf(state);
  const held = clockHeld(state);
  let status = labels.status[state.status] || state.status || "";
  if (held && labels.held) status = labels.held;
  if (phase === "halftime") status = labels.halftime;
  if (phase === "overtime") status = (words.overtime || labels.period.overtime) + " · " + status;
  if (phase === "shootout") status = words.shootout || status;
  return {
    phase,
    status,
    held,
    result: resultText(state, meta, labels, words),
    clock: !NO_CLOCK.has(state.status),
    restart: !OVER.has(state.status),
    period: ENDED.has(state.status) || state.status === "scheduled" || state.status === "shootout" ? null : periodParts(state, meta, labels, words),
  };
}

function playerName(meta, team, number) {
  const p = ((meta[team] && meta[team].players) || []).find((x) => x.number === number);
  return (p && p.name) || "#" + number;
}

/* The shootout as a screen draws it (Rule 14.d): the round and its line, the next hitter, the
 * points and each team's hits in order (true: scored). */
export function shootoutView(state, meta, words) {
  const so = state && state.shootout;
  if (!so || (state.status !== "shootout" && state.result !== "shootout")) return null;
  const attempts = {home: [], away: []};
  for (const a of so.attempts || []) if (attempts[a.team]) attempts[a.team].push(!!a.scored);
  const next = so.next ? fill(words.next, {player: playerName(meta, so.next.team, so.next.number) + " (" + meta[so.next.team].name + ")"}) : "";
  return {
    round: fill(words.round, {round: so.round}),
    line: fill(words.line, {yards: so.line}),
    next,
    points: so.points || {home: 0, away: 0},
    attempts,
  };
}

/* The handicap goals a team starts with ("1 on handicap"), "" for none: the state's, or the
 * match's (a summary of the state, as the tournament's day lists it, has none). */
export function handicapText(state, meta, team, words, formatScore) {
  const h = state && state.handicap_goals ? state.handicap_goals[team] : meta[team] && meta[team].handicap_goals;
  return h ? fill(words.handicap, {goals: formatScore(h)}) : "";
}

/* A stopped match's restart and its rule (Rule 22), "Throw-in · Rule 22.e(1)", "Free hit to
 * La Dolfina · Rule 22.f", "Penalty 2 to Ellerstina · Rule 36": the contract's restart (kind, team,
 * penalty, rule and the finer clause), worded in the page's language; "" when the match is not
 * stopped (a restart pending in an interval or a suspension is the period's, not the stoppage's). */
export function restartText(state, meta, words) {
  const r = state && state.restart;
  if (!r || state.status !== "stopped") return "";
  let what = r.kind === "penalty" ? fill(words.restart_penalty, {penalty: r.penalty || ""}) : words["restart_" + r.kind] || "";
  if (what && r.team && meta[r.team]) what = fill(words.restart_to, {restart: what, team: meta[r.team].name});
  const rule = r.clause || r.rule;
  return [what, rule ? fill(words.rule, {rule}) : ""].filter(Boolean).join(" · ");
}
