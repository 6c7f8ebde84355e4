/* A tournament's day, live (/tournaments/{id}/live/).
 *
 * Two channels, each where it pays: the day's list is polled every 15 s (one small request for
 * every match: a match starting or ending shows up without holding a socket per idle match), and
 * each match that is in progress *and on screen* gets its own live.js socket for sub-second
 * updates and a running clock. A day has a handful of matches and only one or two run at once, so
 * the page holds at most a few sockets; the others close when they scroll away or finish.
 *
 * Clocks show time left by default, labelled (clock-convention.js, screen "tournament": a button,
 * or ``?clock=played``). What each phase says (the result and how it was won, the shootout's
 * tally, hits, round, line and next hitter, a stopped match's restart and its rule) is phase.js's,
 * as on the scoreboard; the day's list summarises each state with what that needs (status, score,
 * period, clock, restart, shootout, winner, result), so no match is read twice.
 */
import * as convention from "./clock-convention.js";
import {jsonData, setHidden, setText} from "./dom.js";
import {renderKept} from "./field-status.js";
import {formatClock, formatScore} from "./format.js";
import {flash} from "./horns.js";
import {gettext, interpolate} from "./i18n.js";
import {api, connect} from "./live.js";
import {describe, handicapText, loadWords, restartText, shootoutView} from "./phase.js";

const root = document.getElementById("tournament-live");
const data = jsonData("live-data");
const labels = data.labels;
const words = loadWords();
const IN_PROGRESS = new Set(["in_play", "stopped", "interval", "tied", "shootout", "suspended"]);
const POLL_MS = 15000;
const cards = new Map();  // match id -> {el, meta, state, lastSeq, visible, live}
let shownAs = convention.get("tournament");

const part = (card, role) => card.el.querySelector(`[data-role="${role}"]`);

function render(card) {
  const s = card.state || {};
  card.el.setAttribute("data-status", s.status || "");
  if (s.score) {
    setText(part(card, "score-home"), formatScore(s.score.home));
    setText(part(card, "score-away"), formatScore(s.score.away));
  }
  const view = describe(s, card.meta, labels, words);
  let status = view.status;
  const so = shootoutView(s, card.meta, words);
  if (so && s.status === "shootout") {
    // The tally, each team's hits in order (✓ scored, ✗ missed), the round, its line and the next hitter.
    const hits = (team) => so.attempts[team].map((scored) => (scored ? "✓" : "✗")).join("");
    status += " " + so.points.home + "–" + so.points.away;
    if (so.attempts.home.length || so.attempts.away.length) status += " (" + hits("home") + " – " + hits("away") + ")";
    status += " · " + so.round + " · " + so.line + (so.next ? " · " + so.next : "");
  }
  if (view.result) status += " · " + view.result;
  const restart = restartText(s, card.meta, words);  // "Stopped · Free hit to … · Rule 22.f"
  if (restart) status += " · " + restart;
  if (s.status === "scheduled") {
    for (const team of ["home", "away"]) {
      const h = handicapText(s, card.meta, team, words, formatScore);
      if (h) status += " · " + card.meta[team].name + ": " + h;
    }
  }
  setText(part(card, "status"), status);
  // No "Chukker 1" before the start or after the end.
  setText(part(card, "period"), view.period && IN_PROGRESS.has(s.status) ? view.period.join(" ") : "");
  if (!card.live) {
    renderKept(part(card, "kept-at-field"), card.field, Date.now() / 1000);
    const c = s.clock;
    showClock(card, c && view.clock && IN_PROGRESS.has(s.status) ? convention.format(c.elapsed, c, shownAs) : "", true);
  }
}

/* The clock and, when it is one, its convention ("time left"); an interval's countdown says what it counts. */
function showClock(card, text, isClock, live) {
  setText(part(card, "clock"), text);
  const label = part(card, "clock-label");
  setText(label, live ? convention.liveLabel(live, shownAs) : convention.label(shownAs));
  setHidden(label, !text || !isClock);
}

function tick(card, live) {
  renderKept(part(card, "kept-at-field"), live.field, live.serverNow());
  const left = live.intervalRemaining();
  if (left != null) {
    showClock(card, left > 0 ? interpolate(gettext("Next chukker in %s"), [formatClock(Math.ceil(left))])
      : gettext("The next chukker starts at the throw-in"), false);
  } else if (!describe(live.state || {}, card.meta, labels, words).clock) showClock(card, "", false);
  else showClock(card, convention.clockText(live, shownAs), true, live);
}

function reconcile(card) {
  const want = card.visible && IN_PROGRESS.has((card.state || {}).status);
  if (want && !card.live) {
    card.live = connect({
      matchId: card.meta.id,
      state: card.state,
      lastSeq: card.lastSeq,
      field: card.field,
      banner: false,  // several matches on one page: the card flashes instead
      onState: (state, info) => {
        card.state = state;
        card.lastSeq = info.lastSeq;
        render(card);
        if (!IN_PROGRESS.has(state.status)) setTimeout(() => reconcile(card), 0);
      },
      onStatus: (status) => card.el.setAttribute("data-conn", status),
      onHorn: (kind) => {
        flash(card.el, "horn");
        card.el.setAttribute("data-horn", kind);
      },
      onTick: (live) => tick(card, live),
    });
  } else if (!want && card.live) {
    card.live.close();
    card.live = null;
    render(card);
  }
}

for (const m of data.matches) {
  const el = root.querySelector(`.tl-match[data-match-id="${m.id}"]`);
  if (!el) continue;
  const card = {el, meta: m, state: m.state, lastSeq: m.last_seq, field: m.field_state, visible: false, live: null};
  cards.set(String(m.id), card);
  for (const team of ["home", "away"]) part(card, "swatch-" + team).style.setProperty("background-color", m[team].color);
  render(card);
}

function observe() {
  if (!("IntersectionObserver" in window)) {
    for (const card of cards.values()) { card.visible = true; reconcile(card); }
    return;
  }
  const io = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const card = cards.get(entry.target.getAttribute("data-match-id"));
      if (!card) continue;
      card.visible = entry.isIntersecting;
      reconcile(card);
    }
  }, {rootMargin: "100px"});
  for (const card of cards.values()) io.observe(card.el);
}

function poll() {
  if (document.hidden) return Promise.resolve();
  const url = "/api/tournaments/" + data.tournament.id + "/matches?date=" + encodeURIComponent(data.date);
  return api(url).then((r) => {
    if (r.status !== 200 || !r.data || !r.data.matches) return;
    for (const m of r.data.matches) {
      const card = cards.get(String(m.id));
      if (!card || card.live) continue;  // a card with a socket is already up to date
      card.field = m.field_state;  // (heard from the field again, with nothing new logged)
      renderKept(part(card, "kept-at-field"), card.field, Date.now() / 1000);
      const seq = typeof m.last_seq === "number" ? m.last_seq : (m.state && m.state.last_seq);
      if (seq == null || card.lastSeq == null || seq > card.lastSeq) {
        card.state = Object.assign({}, card.state, m.state);
        card.lastSeq = seq;
        render(card);
        reconcile(card);
      }
    }
  });
}

function pollLoop() {
  poll().then(() => setTimeout(pollLoop, POLL_MS * (0.8 + 0.4 * Math.random())));
}

const toggle = root.querySelector('[data-role="clock-toggle"]');
if (toggle) {
  convention.bindToggle(toggle, "tournament", (value) => {
    if (value === shownAs) return;
    shownAs = value;
    for (const card of cards.values()) {
      if (card.live) tick(card, card.live); else render(card);
    }
  });
}

// A match kept at the field that no socket follows: its "last heard from the field" counts on.
setInterval(() => {
  for (const card of cards.values()) {
    if (!card.live && card.field) renderKept(part(card, "kept-at-field"), card.field, Date.now() / 1000);
  }
}, 1000);

document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
observe();
setTimeout(pollLoop, POLL_MS);
