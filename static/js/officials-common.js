/* What the scorer's laptop (scorer.js) and the umpires' tablet (referee.js) share: the parts of
 * officials/, in one list.
 *
 * - officials/words.js: the match log's codes and their labels (event types, whistle reasons,
 *   penalties, timers…), checked against the engine's by tests/browser/test_js_vocabulary.py;
 * - officials/teams.js: the match's teams and rule-edition numbers, one line per event;
 * - officials/permissions.js: who may void what, when the game's events are closed;
 * - officials/field-view.js: the field diagram with the restart and a cursor for positions;
 * - officials/commands.js, officials/wizard.js: every event type as steps, asked by keys or buttons;
 * - officials/event-log.js: the log as the screens list it; officials/timers.js: the timers;
 * - officials/board.js: score, clock, connection, refusals;
 * - officials/screen.js: one official's screen — the state, the log, the offline queue, the
 *   entries in progress (officials/holds.js) and the conflict box (officials/queue-box.js).
 *
 * The page scripts take the rest from the shared modules (i18n.js, dom.js, format.js, live.js).
 */
export {COMMANDS} from "./officials/commands.js";
export {renderLogEntry} from "./officials/event-log.js";
export {canLog, canVoid, closedReason, isHoldEntry} from "./officials/permissions.js";
export {Screen, screenParts} from "./officials/screen.js";
export {describeEvent, paintTeam} from "./officials/teams.js";
export {Wizard} from "./officials/wizard.js";
export {EVENT_LABELS} from "./officials/words.js";
