/* Who may do what on the officials' screens, as the server decides it (matches/permissions.py),
 * so that no button is offered that the server would refuse. */
import {jsonData} from "../dom.js";
import {gettext} from "../i18n.js";

// Which roles log and void which events: the server's own lists (event_permissions), from the page.
let lists = null;
const events = (name) => (lists || (lists = jsonData("officials-page").event_permissions))[name];
const committeeOnly = (type) => events("committee_only").includes(type);
const committeeOrUmpire = (type) => events("committee_or_umpire").includes(type);
// Events of the game itself: none once the match is over, and none but a horse change or a
// substitution while it is suspended.
const GAME_EVENTS = ["play", "goal", "foul", "ball_out", "whistle", "restart_violation", "horn", "card", "clock_set",
                     "mount", "substitution"];

/* The clock holds of entries in progress (hold/release): the audit trail's, not the match's. */
export const isHoldEntry = (entry) => entry.type === "hold" || entry.type === "release";

/* May someone of ``role`` log an event of this type (the server's can_log_event)? */
export function canLog(role, type) {
  if (role === "committee") return committeeOnly(type) || committeeOrUmpire(type) ||
    events("committee_may_also").includes(type);
  if (committeeOnly(type)) return false;
  if (committeeOrUmpire(type)) return role === "umpire";
  return true;
}

/* May someone of ``role`` ("scorer", "umpire", "committee") void this log entry? */
export function canVoid(role, entry) {
  if (!role || !entry || entry.type === "void" || isHoldEntry(entry)) return false;
  if (role === "committee") return true;
  const by = (entry.event || {}).by;
  if ((by && by.role === "committee") || committeeOnly(entry.type)) return false;
  if (committeeOrUmpire(entry.type)) return role === "umpire";
  return true;
}

/* Why no game event of this type may be logged now (a finished, abandoned or suspended match),
 * or null. ``type`` null: why the game's events are closed at all. */
export function closedReason(state, type) {
  const status = state && state.status;
  if (!["final", "abandoned", "suspended"].includes(status)) return null;
  if (type && !GAME_EVENTS.includes(type)) return null;
  if (status === "suspended") {
    if (type === "mount" || type === "substitution") return null;
    return gettext("The game is suspended: no whistle, foul or card until it is resumed.");
  }
  return status === "final" ? gettext("The match is over: no whistle, foul or card.")
                            : gettext("The match was abandoned: no whistle, foul or card.");
}
