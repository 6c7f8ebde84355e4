/* The umpires' and referee's tablet: touch first. Big buttons start a whistle, a foul or a card;
 * each question is answered by tapping (a team, a player, a penalty, the spot on the field). The
 * clock, score, restart, timers, cards, unavailable players and excused horses are always on
 * screen. At the end of each chukker the umpire confirms the score (recorded by the server beside
 * the log: matches/officials/models.py). The scorer may open it read-only.
 */
import {PAGE_CODES} from "./codes.js";
import {el} from "./dom.js";
import {formatScore} from "./format.js";
import {gettext, interpolate} from "./i18n.js";
import {api} from "./live.js";
import {Screen, Wizard, closedReason, paintTeam, renderLogEntry, screenParts} from "./officials-common.js";

const $ = (sel) => document.querySelector(sel);
const {page, teams, field} = screenParts();
let state = page.state;
let confirmations = page.confirmations || [];
let confirming = false;
const PERIOD_OVER = ["interval", "tied", "shootout", "final"];

const wizard = page.can_log
  ? new Wizard({root: $("#command"), teams, field, onIdle: showActions,
                // The first tap of a whistle or a foul stops the clock there and then (Screen.beginEntry).
                begin: (type) => screen.beginEntry(type),
                abandon: (entry) => screen.abandonEntry(entry),
                submit: (ev, entry) => screen.finishEntry(ev, entry)})
  : null;
const screen = new Screen({page, teams, field, onState: changed, onLog: renderRecent});

// --- High contrast (remembered on this tablet) ------------------------------------------------
const contrast = $("#contrast-toggle");
function setContrast(on) {
  document.body.classList.toggle("high-contrast", on);
  contrast.setAttribute("aria-pressed", on ? "true" : "false");
  try { window.localStorage.setItem("poloHighContrast", on ? "1" : "0"); } catch { /* private mode */ }
}
contrast.addEventListener("click", () => setContrast(!document.body.classList.contains("high-contrast")));
setContrast((() => { try { return window.localStorage.getItem("poloHighContrast") === "1"; } catch { return false; } })());

// --- Actions ------------------------------------------------------------------------------------
function showActions() {
  const actions = $("#actions");
  if (!actions) return;
  actions.hidden = !!(wizard && wizard.active);
  // A finished, abandoned or suspended match: no whistle, foul or card (the reason is shown
  // above, in #closed, and on each button).
  for (const b of actions.querySelectorAll("[data-command]")) {
    const closed = closedReason(state, b.dataset.command);
    b.disabled = !!closed;
    if (closed) b.title = closed; else b.removeAttribute("title");
  }
}

for (const b of document.querySelectorAll("[data-command]")) {
  b.addEventListener("click", () => {
    if (closedReason(state, b.dataset.command)) { showActions(); return; }
    wizard.start(b.dataset.command);
    showActions();
  });
}
document.addEventListener("keydown", (e) => {  // a tablet with a keyboard cover: the same keys work
  if (!wizard || !wizard.active || (e.target && e.target.tagName === "INPUT")) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (wizard.handleKey(e)) e.preventDefault();
});

// --- What the umpires keep an eye on ------------------------------------------------------------
function changed(s) {
  const before = state;
  state = s;
  renderFacts();
  showActions();
  if (before && before.status !== s.status && PERIOD_OVER.includes(s.status)) refreshConfirmations();
  renderConfirm();
}

function item(team, children) {
  const li = el("li", {"data-team": team}, children);
  paintTeam(li, teams.color(team));
  return li;
}

function fill(ul, items) {
  ul.replaceChildren(...(items.length ? items : [el("li", {class: "empty", text: gettext("None")})]));
}

function renderFacts() {
  const s = state || {};
  fill($("#cards"), (s.cards || []).map((c) => item(c.team, [
    el("span", {class: "card-chip " + c.color, "aria-label": c.color === "red" ? gettext("Red card") : gettext("Yellow card")}),
    teams.who(c.team, c.number)])));  // (who() names the player already)
  fill($("#unavailable"), (s.unavailable_players || []).map((u) => item(u.team, [
    teams.who(u.team, u.number) + " " + (u.name || teams.player(u.team, u.number)) + " — " + unavailableReason(u.reason)])));
  fill($("#excused"), (s.excused_horses || []).map((h) => item(h.team, [
    interpolate(gettext("%(horse)s (%(who)s)"), {horse: h.horse, who: teams.who(h.team, h.number)}) + (h.rule ? " · " + interpolate(gettext("Rule %(rule)s"), {rule: h.rule}) : "")])));
}

function unavailableReason(reason) {
  return {unconscious: gettext("unconscious: may not play again today"), substituted: gettext("substituted")}[reason] || reason;
}

function renderRecent(log) {
  $("#recent").replaceChildren(...log.newestFirst().slice(0, 8).map((entry) => renderLogEntry(teams, log, entry, null, null, page.role, state && state.clock)));
}

// --- Score confirmation at the end of each chukker ----------------------------------------------
function periodOver(s) {
  return !!s && (PERIOD_OVER.includes(s.status) || (s.clock && s.clock.phase === "over"));
}

/* The score at the end of the chukker: the state's, less the goal a shootout adds to its winner
 * (Rule 14.d), which no chukker scored (the server's period_score). */
function periodScore(s) {
  const score = Object.assign({}, s.score);
  if (s.result === "shootout" && s.winner in score) score[s.winner] -= 1;
  return score;
}

function renderConfirmations() {
  fill($("#confirmations"), confirmations.slice().reverse().map((c) => el("li", {"data-period": c.period}, [
    interpolate(gettext("Chukker %(n)s: %(home)s–%(away)s — %(who)s"),
        {n: c.period, home: formatScore(c.score.home), away: formatScore(c.score.away), who: c.umpire})])));
}

function renderConfirm() {
  const box = $("#confirm");
  if (!box) return;
  const s = state;
  if (!page.can_confirm || !periodOver(s) || !s.period) { box.hidden = true; return; }
  box.hidden = false;
  const period = s.period.number, score = periodScore(s);
  const mine = confirmations.find((c) => c.username === page.user && c.period === period &&
                                        c.score.home === score.home && c.score.away === score.away);
  const line = interpolate(gettext("End of chukker %(n)s: %(home_team)s %(home)s – %(away)s %(away_team)s"),
                   {n: period, home_team: teams.name("home"), home: formatScore(score.home),
                    away: formatScore(score.away), away_team: teams.name("away")});
  if (mine) {
    box.replaceChildren(el("p", {class: "confirmed", "data-period": period, text: line + " — " + gettext("confirmed by you ✓")}));
    return;
  }
  const button = el("button", {type: "button", id: "confirm-score", disabled: confirming, text: gettext("Confirm the score")});
  button.addEventListener("click", () => confirmScore(period, score));
  box.replaceChildren(el("p", {text: line}), button);
}

function refreshConfirmations() {
  api(page.confirmations_url).then((r) => {
    if (r.status === 200 && r.data) { confirmations = r.data.confirmations; renderConfirmations(); renderConfirm(); }
  });
}

function confirmScore(period, score) {
  confirming = true;
  renderConfirm();
  api(page.confirmations_url, {method: "POST", body: {period, score}}).then((r) => {
    confirming = false;
    if (r.status === 201) {
      confirmations = r.data.confirmations;
      screen.refuse(null);
    } else if (r.status === 0) {
      screen.refuse({code: PAGE_CODES.OFFLINE, message: gettext("No connection: confirm again when the tablet is back online.")});
    } else {
      if (r.data && r.data.state) screen.showState(r.data.state, r.data.state.last_seq);
      screen.refuse((r.data && r.data.error) || {code: PAGE_CODES.REFUSED, message: gettext("The confirmation was refused.")});
    }
    renderConfirmations();
    renderConfirm();
  });
}

renderFacts();
renderConfirmations();
renderConfirm();
showActions();
