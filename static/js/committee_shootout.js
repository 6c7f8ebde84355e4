/* The shootout screen: the committee and the umpires follow each hit as it is recorded (the panel
 * is re-read from the server whenever the match's log moves on).
 *
 * A re-read replaces the panel's forms, so it waits while someone is using one: while a field has
 * the focus, or while a form holds something typed and not sent (the reason of a lot correction,
 * say). Nothing typed is lost; the panel catches up as soon as the form is left alone. */
(function () {
  "use strict";
  var root = document.getElementById("shootout");
  if (!root || !window.PoloLive) return;
  var shownSeq = parseInt(root.dataset.lastSeq || "0", 10);
  var wantedSeq = shownSeq;  // the newest log position announced; the panel shows shownSeq
  var busy = false;
  var leaving = false;  // a hit or a decision is being sent: the page is about to be replaced
  document.addEventListener("submit", function () { leaving = true; });

  function editing() {
    var el = document.activeElement;
    return el && root.contains(el) && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName);
  }

  function changed(el) {
    if (el.type === "hidden" || el.type === "submit" || el.type === "button") return false;
    if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
    if (el.tagName === "SELECT") {
      if (el.multiple) {
        return Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
      }
      // A single select with no option marked selected shows its first one.
      var first = -1;
      Array.prototype.forEach.call(el.options, function (o, i) { if (o.defaultSelected) first = i; });
      return el.selectedIndex !== Math.max(first, 0);
    }
    return el.value !== el.defaultValue;
  }

  function unsent() {
    return Array.prototype.some.call(root.querySelectorAll("input, select, textarea"), changed);
  }

  function refresh() {
    if (busy || leaving || wantedSeq <= shownSeq || editing() || unsent()) return;
    busy = true;
    var seq = wantedSeq;
    fetch(root.dataset.fragment, {credentials: "same-origin", cache: "no-store"})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        // Typed into meanwhile: keep it, and try again once the form is left alone.
        if (html !== null && !leaving && !editing() && !unsent()) {
          root.innerHTML = html;
          shownSeq = seq;
        }
      })
      .finally(function () {
        busy = false;
        // The log moved on again while this read was under way (a failed read waits for the next
        // update, as a retry in a loop would hammer a server in trouble).
        if (shownSeq === seq && wantedSeq > seq) refresh();
      });
  }

  // A form left alone (focus gone, a field put back, a form reset): catch up if the log moved on.
  root.addEventListener("focusout", function () { setTimeout(refresh, 0); });
  root.addEventListener("change", function () { setTimeout(refresh, 0); });
  root.addEventListener("reset", function () { setTimeout(refresh, 0); });

  window.PoloLive.connect({
    matchId: parseInt(root.dataset.matchId, 10),
    onState: function (state, info) {
      if (info.lastSeq > wantedSeq) wantedSeq = info.lastSeq;
      refresh();
    },
  });
})();
