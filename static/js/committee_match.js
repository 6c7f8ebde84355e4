/* The committee's match page: the running clock, a reload when the game changes, and a question
 * before abandoning. The page is rendered by the server; live.js tells it when the log moved on.
 * The clock shows time played by default, labelled; a button switches it to time left
 * (clock-convention.js, screen "committee"). */
import * as convention from "./clock-convention.js";
import {gettext} from "./i18n.js";
import {connect} from "./live.js";

const CLOCK_REDRAW_MS = 250;
const board = document.getElementById("board");

if (board) {
  const clockEl = board.querySelector("[data-role=clock]");
  let shownSeq = parseInt(board.dataset.lastSeq || "0", 10);
  let shownAs = convention.get("committee");
  let live = null;

  /* The clock in the chosen convention: the live one once the socket has spoken, else as rendered. */
  const showClock = () => {
    const text = live && live.state && live.state.clock
      ? convention.clockText(live, shownAs)
      : convention.format(parseFloat(board.dataset.clockElapsed || "0"), parseFloat(board.dataset.regularSeconds), shownAs);
    if (clockEl.textContent !== text) clockEl.textContent = text;
  };

  const toggle = board.querySelector("[data-role=clock-toggle]");
  if (toggle) {
    convention.bindToggle(toggle, "committee", (value) => {
      shownAs = value;
      board.setAttribute("data-clock", value);
      board.querySelector("[data-role=clock-label]").textContent = convention.label(value);
      if (board.dataset.status !== "scheduled") showClock();
    });
  }

  // A decision being sent (the page is about to be replaced): never reload over it.
  let leaving = false;
  document.addEventListener("submit", (e) => { if (!e.defaultPrevented) leaving = true; });
  window.addEventListener("beforeunload", () => { leaving = true; });

  const editing = () => {
    const el = document.activeElement;
    return el && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && el.type !== "submit";
  };

  for (const form of document.querySelectorAll("form[data-confirm=abandon]")) {
    form.addEventListener("submit", (e) => {
      if (!window.confirm(gettext("Abandon this game? It cannot be resumed."))) e.preventDefault();
    });
  }

  live = connect({
    matchId: parseInt(board.dataset.matchId, 10),
    onState: (state, info) => {
      if (info.lastSeq > shownSeq && !editing() && !leaving) {
        shownSeq = info.lastSeq;
        board.querySelector("[data-role=live]").hidden = false;
        window.location.reload();
      }
    },
  });
  window.setInterval(() => {
    if (live.state && live.state.clock && live.state.clock.running) showClock();
  }, CLOCK_REDRAW_MS);
}
