/* The committee's match page: the running clock, a reload when the game changes, and a question
 * before abandoning. The page is rendered by the server; live.js tells it when the log moved on. */
(function () {
  "use strict";
  var gettext = window.gettext || function (s) { return s; };
  var board = document.getElementById("board");
  if (!board) return;
  var shownSeq = parseInt(board.dataset.lastSeq || "0", 10);
  var clockEl = board.querySelector("[data-role=clock]");

  function clockText(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var s = seconds % 60;
    return Math.floor(seconds / 60) + ":" + (s < 10 ? "0" : "") + s;
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
  var live = window.PoloLive.connect({
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
    if (live.state && live.state.clock && live.state.clock.running) clockEl.textContent = clockText(live.clockElapsed());
  }, 250);
})();
