/* The scorer's and the umpires' commands: every event type of the contract as a sequence of
 * steps (a team, a player, a choice, a position, a text, flags), each naming the event field it
 * fills; the wizard (officials/wizard.js) asks them one by one and ``buildEvent`` makes the event. */
import {gettext} from "../i18n.js";
import {other} from "./teams.js";
import {CARDS, DEFLECTIONS, PENALTIES, VIOLATIONS, WHISTLE_REASONS} from "./words.js";

/* Step builders. A choice's options are rows of [value, key, label] (words.js: a label may be a
 * function of the rule edition's numbers). */
const S = {
  team: (field, prompt, extra) => Object.assign({kind: "team", field, prompt}, extra),
  player: (field, team, prompt, extra) => Object.assign({kind: "player", field, team, prompt}, extra),
  choice: (field, prompt, options, extra) => Object.assign({kind: "choice", field, prompt, options}, extra),
  position: (field, prompt, extra) => Object.assign({kind: "position", field, prompt}, extra),
  input: (field, prompt, extra) => Object.assign({kind: "input", field, prompt}, extra),
  flags: (flags, extra) => Object.assign({kind: "flags", field: "_flags", prompt: gettext("Anything else? (Enter: log it)"), flags}, extra),
};
const YES_NO = [[true, "Y", gettext("Yes")], [false, "N", gettext("No")]];
const PLAYER_REASONS = ["injured_player", "player_fall", "injured_horse", "horse_fall", "horse_timeout",
                        "courtesy_change", "broken_tack", "lost_helmet"];
const HORSE_REASONS = ["injured_horse", "horse_fall", "horse_timeout", "courtesy_change", "broken_tack"];

export function parseClock(text) {
  const m = /^\s*(\d+)(?::(\d{1,2}(?:\.\d+)?))?\s*$/.exec(text);
  if (!m) return undefined;
  return m[2] !== undefined ? Number(m[1]) * 60 + Number(m[2]) : Number(m[1]);
}

function parseNumbers(text) {
  const list = String(text).split(/[\s,]+/).filter(Boolean).map(Number);
  return list.length && list.every((n) => Number.isInteger(n) && n >= 1 && n <= 4) ? list : undefined;
}

/* Every event type of the contract, as a sequence of steps. */
export const COMMANDS = {
  play: {steps: []},
  goal: {steps: [
    S.team("team", gettext("Which team scored?")),
    // The flags first (own goal: the hitter is listed from the other team), then the hitter logs it.
    S.player("number", (v) => (v.own_goal ? other(v.team) : v.team), gettext("Who hit it? (Enter: not known)"), {
      optional: true,
      flags: [{field: "from_penalty", key: "P", label: gettext("From a penalty")},
              {field: "own_goal", key: "O", label: gettext("Own goal (an opponent hit it)")}],
    }),
  ]},
  foul: {steps: [
    S.team("against", gettext("Which team fouled?")),
    S.player("number", (v) => v.against, gettext("Which player fouled?")),
    S.choice("penalty", gettext("Which penalty?"), PENALTIES),
    S.choice("from_spot", gettext("From the spot of the foul? (the fouled team's choice)"), YES_NO,
             {when: (v) => v.penalty === "2", default: false}),
    S.position("spot", gettext("Where was the foul? Click the field, or move with the arrows and press Enter."),
               {optional: (v) => !(v.penalty === "5a" || v.from_spot)}),
    S.flags([{field: "card", key: "C", label: gettext("Card"), values: ["yellow", "red"], labels: [gettext("yellow"), gettext("red")]},
             {field: "advantage", key: "V", label: gettext("Advantage (play goes on)")},
             {field: "goal_scored", key: "G", label: gettext("A goal went in at the whistle")}]),
  ]},
  ball_out: {steps: [
    S.choice("line", gettext("Over which line?"), [["side", "S", gettext("Side line")], ["end", "E", gettext("End line")]]),
    S.position("at", gettext("Where did it cross? Click the field, or use the arrows (N/S/W/E: the line) and Enter."),
               {snap: (v) => v.line}),
    S.team("last_hit_by", gettext("Who hit it last?")),
    S.choice("deflected_off", gettext("Deflected off? (Enter: nothing)"), DEFLECTIONS, {default: "none"}),
  ]},
  whistle: {steps: [
    S.choice("reason", gettext("Why did play stop?"), WHISTLE_REASONS),
    S.position("ball", gettext("Where was the ball? Click the field, or use the arrows and Enter.")),
    S.team("team", gettext("Which team's player or horse? (Enter: none)"), {optional: true, when: (v) => PLAYER_REASONS.includes(v.reason)}),
    S.player("number", (v) => v.team, gettext("Which player?"), {when: (v) => !!v.team}),
    S.input("horse", gettext("Which horse? (Enter: not named)"), {optional: true, when: (v) => !!v.team && HORSE_REASONS.includes(v.reason)}),
    S.flags([{field: "possession", key: "P", label: gettext("Possession"), values: ["home", "away"], team: true},
             {field: "fair_play", key: "F", label: gettext("Fair play (Rule 22.h)")},
             {field: "unconscious", key: "U", label: gettext("Unconscious"), when: (v) => ["injured_player", "player_fall"].includes(v.reason)},
             {field: "visibly_injured", key: "I", label: gettext("Visibly injured"), when: (v) => ["injured_player", "player_fall"].includes(v.reason)},
             {field: "same_injury", key: "S", label: gettext("Same injury again"), when: (v) => v.reason === "injured_player"},
             {field: "contact", key: "C", label: gettext("Broken by contact with another horse"), when: (v) => v.reason === "broken_tack"},
             {field: "first_hit", key: "H", label: gettext("Broke on the first hit"), when: (v) => v.reason === "damaged_ball"}]),
  ]},
  restart_violation: {steps: [
    S.choice("kind", gettext("Which violation?"), VIOLATIONS),
    S.team("team", gettext("Which team committed it?")),
  ]},
  horn: {steps: [
    S.choice("kind", gettext("Which horn?"), [["seven", "S", gettext("Seven minutes")], ["final", "F", gettext("End of the chukker")]]),
    S.position("ball", gettext("Where was the ball? (Enter: skip)"), {optional: true}),
  ]},
  clock_set: {steps: [
    S.input("clock", gettext("Official time (m:ss or seconds)"), {parse: parseClock}),
    S.input("reason", gettext("Why?")),
  ]},
  card: {steps: [
    S.team("team", gettext("Which team?")),
    S.player("number", (v) => v.team, gettext("Which player?")),
    S.choice("color", gettext("Which card?"), CARDS),
  ]},
  mount: {steps: [
    S.team("team", gettext("Which team?")),
    S.player("number", (v) => v.team, gettext("Which player?")),
    S.input("horse", gettext("Which horse?")),
  ]},
  substitution: {steps: [
    S.team("team", gettext("Which team?")),
    S.player("out", (v) => v.team, gettext("Which player goes out?")),
    S.input("player_name", gettext("The new player's name")),
    S.input("player_handicap", gettext("The new player's handicap"), {parse: (t) => (/^-?\d+$/.test(t.trim()) ? Number(t) : undefined)}),
  ]},
  suspend: {steps: [S.input("reason", gettext("Why?"))]},
  resume: {steps: [S.input("reason", gettext("Why?"), {optional: true})]},
  abandon: {steps: [S.input("reason", gettext("Why?"))]},
  overtime: {steps: []},
  shootout_start: {steps: [
    S.choice("format", gettext("Which shootout?"), [["team", "T", gettext("Team")], ["single", "S", gettext("Single player")]]),
    S.team("first", gettext("Which team won the lot (hits first)?")),
    S.input("order_home", gettext("Home hitters, in order (e.g. 1 2 3 4)"), {parse: parseNumbers}),
    S.input("order_away", gettext("Away hitters, in order (e.g. 1 2 3 4)"), {parse: parseNumbers}),
  ]},
  shootout_attempt: {steps: [
    S.team("team", gettext("Which team?")),
    S.player("number", (v) => v.team, gettext("Which player?")),
    S.choice("scored", gettext("Did it score?"), YES_NO),
  ]},
  forfeit: {steps: [
    S.team("team", gettext("Which team forfeits?")),
    S.input("reason", gettext("Why?")),
  ]},
  void: {steps: [
    // Z presets the last event; "#" asks for its number (the "#n" of the log).
    S.input("target", gettext("Void which event? Its number in the log (e.g. 12)"),
            {parse: parseSeq, resolve: "void_target", inputmode: "numeric"}),
    S.input("reason", gettext("Why void it? (# first: another event, by its number)"), {hashTo: "target"}),
  ]},
};

function parseSeq(text) {
  const m = /^\s*#?\s*(\d+)\s*$/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/* The event the answers make: transport-only answers folded into the contract's shape. */
export function buildEvent(type, v) {
  const ev = {type};
  for (const [k, val] of Object.entries(v)) {
    if (val === undefined || val === null || val === false || k.startsWith("_")) continue;
    ev[k] = val;
  }
  if (type === "substitution") {
    ev.player = {name: ev.player_name, handicap: ev.player_handicap};
    delete ev.player_name; delete ev.player_handicap;
  }
  if (type === "shootout_start") {
    ev.order = {home: ev.order_home, away: ev.order_away};
    delete ev.order_home; delete ev.order_away;
  }
  if (type === "shootout_attempt") ev.scored = v.scored === true;
  return ev;
}
