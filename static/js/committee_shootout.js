/* The shootout screen: the committee and the umpires follow each hit as it is recorded (the panel
 * is re-read from the server whenever the match's log moves on). */
(function () {
  "use strict";
  var root = document.getElementById("shootout");
  if (!root || !window.PoloLive) return;
  var shownSeq = parseInt(root.dataset.lastSeq || "0", 10);
  var busy = false;
  var leaving = false;  // a hit or a decision is being sent: the page is about to be replaced
  document.addEventListener("submit", function () { leaving = true; });

  function editing() {
    var el = document.activeElement;
    return el && root.contains(el) && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName);
  }

  function refresh(seq) {
    if (busy || leaving || editing()) return;
    busy = true;
    fetch(root.dataset.fragment, {credentials: "same-origin", cache: "no-store"})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html !== null) {
          root.innerHTML = html;
          shownSeq = seq;
        }
      })
      .finally(function () { busy = false; });
  }

  window.PoloLive.connect({
    matchId: parseInt(root.dataset.matchId, 10),
    onState: function (state, info) {
      if (info.lastSeq > shownSeq) refresh(info.lastSeq);
    },
  });
})();
