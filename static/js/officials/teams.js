/* The match as the officials' screens name it: its two teams (names, colours, rosters) and its
 * rule edition's numbers (``state.limits``), and one line of text for every event of the log. */
import {formatClock} from "../format.js";
import {gettext, interpolate, pgettext} from "../i18n.js";
import {DEFLECTIONS, EVENT_LABELS, HOLD_KINDS, PENALTY_NAMES, RESTART_KINDS, ROLE_LABELS, VIOLATIONS, WHISTLE_REASONS,
        labelOf} from "./words.js";

export const other = (team) => (team === "home" ? "away" : "home");

/* Black or white text on a team colour (WCAG relative luminance). */
function inkOn(hex) {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex || "");
  if (!m) return "#000";
  const n = parseInt(m[1], 16);
  const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  const l = 0.2126 * lin((n >> 16) & 255) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255);
  return l > 0.4 ? "#000" : "#fff";
}

/* A node in a team's colour (CSS variables: the CSP forbids inline style attributes). */
export function paintTeam(node, color) {
  node.style.setProperty("--team", color);
  node.style.setProperty("--team-ink", inkOn(color));
}

export class Teams {
  /* ``config``: the match's config (the page's); ``limits``: the state's rule-edition numbers. */
  constructor(config, limits) { this.config = config; this.limits = limits || {}; }
  name(team) { return (this.config[team] || {}).name || team; }
  color(team) { return (this.config[team] || {}).color || "#888"; }
  players(team) { return (this.config[team] || {}).players || []; }
  player(team, number) {
    const p = this.players(team).find((pl) => pl.number === number);
    return p ? p.name : "";
  }
  /* "#2 Poroto Ruiz", or "#2" when the roster has no name for that number. */
  numbered(team, number) {
    const name = this.player(team, number);
    return name ? interpolate(gettext("#%(number)s %(name)s"), {number, name}) : "#" + number;
  }
  /* "La Dolfina Blue #2 Poroto Ruiz": the team, the number and the player's name. */
  who(team, number) {
    if (!team) return "";
    if (number == null) return this.name(team);
    const name = this.player(team, number);
    return interpolate(gettext("%(team)s #%(number)s"), {team: this.name(team), number}) + (name ? " " + name : "");
  }
}

/* One line per event, for the log and the summaries. */
export function describeEvent(teams, ev) {
  const e = ev.event || ev;
  const who = (t, n) => teams.who(t, n);
  switch (e.type) {
    case "play": return pgettext("event", "Play");
    case "goal": {
      let text = interpolate(gettext("Goal — %(team)s"), {team: teams.name(e.team)});
      if (e.number != null) text += " · " + (e.own_goal ? who(other(e.team), e.number) : teams.numbered(e.team, e.number));
      if (e.own_goal) text += " · " + gettext("own goal");
      if (e.from_penalty) text += " · " + gettext("from a penalty");
      return text;
    }
    case "foul": {
      let text = interpolate(gettext("Foul by %(who)s — Penalty %(penalty)s"),
                             {who: who(e.against, e.number), penalty: PENALTY_NAMES[e.penalty] || e.penalty});
      if (e.card) text += " · " + (e.card === "red" ? gettext("red card") : gettext("yellow card"));
      if (e.advantage) text += " · " + gettext("advantage");
      if (e.goal_scored) text += " · " + gettext("goal at the whistle");
      return text;
    }
    case "ball_out":
      return interpolate(e.line === "end" ? gettext("Ball over the end line — last hit by %(team)s")
                                          : gettext("Ball over the side — last hit by %(team)s"), {team: teams.name(e.last_hit_by)}) +
        (e.deflected_off && e.deflected_off !== "none" ? " · " + labelOf(DEFLECTIONS, e.deflected_off) : "");
    case "whistle": {
      let text = interpolate(gettext("Whistle: %(reason)s"), {reason: labelOf(WHISTLE_REASONS, e.reason)});
      if (e.team) text += " — " + who(e.team, e.number);
      if (e.horse) text += " · " + e.horse;
      return text;
    }
    case "restart_violation":
      return interpolate(gettext("Restart violation by %(team)s: %(kind)s"),
                         {team: teams.name(e.team), kind: labelOf(VIOLATIONS, e.kind, teams.limits)});
    case "horn": return e.kind === "final" ? gettext("Horn: end of the chukker") : gettext("Horn: seven minutes");
    case "clock_set":
      return interpolate(gettext("Clock set to %(clock)s"), {clock: formatClock(e.clock || 0)}) + (e.reason ? " — " + e.reason : "");
    case "card":
      return interpolate(e.color === "red" ? gettext("Red card: %(who)s") : gettext("Yellow card: %(who)s"), {who: who(e.team, e.number)});
    case "mount": return interpolate(gettext("%(who)s mounts %(horse)s"), {who: who(e.team, e.number), horse: e.horse || "?"});
    case "substitution":
      return interpolate(gettext("Substitution: %(name)s for %(who)s"), {name: (e.player || {}).name || "?", who: who(e.team, e.out)});
    case "shootout_attempt":
      return interpolate(e.scored ? gettext("Shootout: %(who)s scores") : gettext("Shootout: %(who)s misses"), {who: who(e.team, e.number)});
    // The committee's decisions after a tie (Rule 14.c/d), as what was decided (their commands'
    // labels, "Start a shootout", are for the palette).
    case "overtime": return gettext("Committee: overtime");
    case "shootout_start":
      return gettext("Committee: shootout") + (e.first ? " · " + interpolate(gettext("%(team)s hit first"), {team: teams.name(e.first)}) : "");
    case "forfeit": return interpolate(gettext("Forfeit by %(team)s"), {team: teams.name(e.team)}) + (e.reason ? " — " + e.reason : "");
    case "void": return interpolate(gettext("Void: %(reason)s"), {reason: e.reason || ""});
    case "hold":
      return interpolate(gettext("Clock held at %(clock)s: %(what)s being logged"),
                         {clock: formatClock(e.clock || 0), what: HOLD_KINDS[e.kind] || e.kind || ""});
    case "release": return gettext("Entry abandoned: the clock runs on as if it had not stopped");
    default:
      return (EVENT_LABELS[e.type] || e.type) + (e.reason ? " — " + e.reason : "");
  }
}

/* "Ulises Umpire (umpire)": who logged an event (``event.by``, stored by the server). */
export function describeAuthor(by) {
  if (!by || !by.name) return "";
  const role = ROLE_LABELS[by.role];
  return role ? interpolate(gettext("%(name)s (%(role)s)"), {name: by.name, role}) : by.name;
}

/* "Penalty 2 — La Dolfina Blue": the pending restart in a few words. */
export function restartSummary(teams, restart) {
  if (!restart) return "";
  let text = RESTART_KINDS[restart.kind] || restart.kind;
  if (restart.kind === "penalty" && restart.penalty) {
    text = interpolate(gettext("Penalty %(penalty)s"), {penalty: PENALTY_NAMES[restart.penalty]});
  }
  if (restart.team) text += " — " + teams.name(restart.team);
  return text;
}
