/* The committee's match page: the running clock, a reload when the game changes, and a question
 * before abandoning. The page is rendered by the server; live.js tells it when the log moved on.
 * The clock shows time played by default, labelled; a button switches it to time left
 * (PoloClockConvention, screen "committee"). */
(function () {
  "use strict";
  var gettext = window.gettext || function (s) { return s; };
  var board = document.getElementById("board");
  if (!board) return;
  var shownSeq = parseInt(board.dataset.lastSeq || "0", 10);
  var clockEl = board.querySelector("[data-role=clock]");
  var CC = window.PoloClockConvention;
  var convention = CC.get("committee");
  var live = null;

  /* The clock in the chosen convention: the live one once the socket has spoken, else as rendered. */
  function showClock() {
    var text;
    if (live && live.state && live.state.clock) text = CC.clockText(live, convention);
    else text = CC.format(parseFloat(board.dataset.clockElapsed || "0"), parseFloat(board.dataset.regularSeconds || "420"), convention);
    if (clockEl.textContent !== text) clockEl.textContent = text;
  }

  var toggle = board.querySelector("[data-role=clock-toggle]");
  if (toggle) {
    CC.bindToggle(toggle, "committee", function (value) {
      convention = value;
      board.setAttribute("data-clock", value);
      board.querySelector("[data-role=clock-label]").textContent = CC.label(value);
      if (board.dataset.status !== "scheduled") showClock();
    });
  }

  // A decision being sent (the page is about to be replaced): never reload over it.
  var leaving = false;
  document.addEventListener("submit", function (e) { if (!e.defaultPrevented) leaving = true; });
  window.addEventListener("beforeunload", function () { leaving = true; });

  function editing() {
    var el = document.activeElement;
    return el && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && el.type !== "submit";
  }

  document.querySelectorAll("form[data-confirm=abandon]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      if (!window.confirm(gettext("Abandon this game? It cannot be resumed."))) e.preventDefault();
    });
  });

  if (!window.PoloLive) return;
  live = window.PoloLive.connect({
    matchId: parseInt(board.dataset.matchId, 10),
    onState: function (state, info) {
      if (info.lastSeq > shownSeq && !editing() && !leaving) {
        shownSeq = info.lastSeq;
        board.querySelector("[data-role=live]").hidden = false;
        window.location.reload();
      }
    },
  });
  window.setInterval(function () {
    if (live.state && live.state.clock && live.state.clock.running) showClock();
  }, 250);
})();
