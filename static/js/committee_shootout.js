/* The shootout screen: the committee and the umpires follow each hit as it is recorded (the panel
 * is re-read from the server whenever the match's log moves on).
 *
 * A re-read replaces the panel's forms, so it waits while someone is using one: while a field has
 * the focus, or while a form holds something typed and not sent (the reason of a lot correction,
 * say). Nothing typed is lost; the panel catches up as soon as the form is left alone. */
import {connect} from "./live.js";

const root = document.getElementById("shootout");

function changed(el) {
  if (el.type === "hidden" || el.type === "submit" || el.type === "button") return false;
  if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
  if (el.tagName === "SELECT") {
    if (el.multiple) return Array.from(el.options).some((o) => o.selected !== o.defaultSelected);
    // A single select with no option marked selected shows its first one.
    const first = Array.from(el.options).reduce((found, o, i) => (o.defaultSelected ? i : found), -1);
    return el.selectedIndex !== Math.max(first, 0);
  }
  return el.value !== el.defaultValue;
}

if (root) {
  let shownSeq = parseInt(root.dataset.lastSeq || "0", 10);
  let wantedSeq = shownSeq;  // the newest log position announced; the panel shows shownSeq
  let busy = false;
  let leaving = false;  // a hit or a decision is being sent: the page is about to be replaced
  document.addEventListener("submit", () => { leaving = true; });

  const editing = () => {
    const el = document.activeElement;
    return el && root.contains(el) && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName);
  };
  const unsent = () => Array.from(root.querySelectorAll("input, select, textarea")).some(changed);

  const refresh = () => {
    if (busy || leaving || wantedSeq <= shownSeq || editing() || unsent()) return;
    busy = true;
    const seq = wantedSeq;
    fetch(root.dataset.fragment, {credentials: "same-origin", cache: "no-store"})
      .then((r) => (r.ok ? r.text() : null))
      .then((html) => {
        // Typed into meanwhile: keep it, and try again once the form is left alone.
        if (html !== null && !leaving && !editing() && !unsent()) {
          root.innerHTML = html;
          shownSeq = seq;
        }
      })
      .finally(() => {
        busy = false;
        // The log moved on again while this read was under way (a failed read waits for the next
        // update, as a retry in a loop would hammer a server in trouble).
        if (shownSeq === seq && wantedSeq > seq) refresh();
      });
  };

  // A form left alone (focus gone, a field put back, a form reset): catch up if the log moved on.
  for (const type of ["focusout", "change", "reset"]) root.addEventListener(type, () => setTimeout(refresh, 0));

  connect({
    matchId: parseInt(root.dataset.matchId, 10),
    onState: (state, info) => {
      if (info.lastSeq > wantedSeq) wantedSeq = info.lastSeq;
      refresh();
    },
  });
}
