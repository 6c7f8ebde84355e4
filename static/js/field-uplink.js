/* On a field server (./dev field, a match kept at the field): how the upload of this match's log to
 * the tournament's server stands, from the state's ``field.uplink`` read every 5 s (an ETag makes
 * an unchanged answer a 304): every event sent, sending, or what is wrong. The field keeps its log
 * whatever the answer: this only says so. */
import {setHidden, setText} from "./dom.js";
import {gettext, interpolate} from "./i18n.js";
import {api} from "./live.js";

const POLL_MS = 5000;
const node = document.getElementById("field-uplink");

function show(uplink, lastSeq) {
  const error = uplink.error;
  const sent = uplink.remote_last_seq >= lastSeq;
  node.setAttribute("data-state", error ? "error" : sent ? "sent" : "sending");
  if (error && error.code === "unreachable") {
    setText(node, gettext("No link to the tournament's server: the log is kept here and sent when the link returns."));
  } else if (error) {
    setText(node, interpolate(gettext("The tournament's server refuses this field's log: %s"), [error.message]));
  } else if (sent) {
    setText(node, gettext("Every event is on the tournament's server."));
  } else {
    setText(node, interpolate(gettext("%(sent)s of %(all)s events on the tournament's server: sending…"),
      {sent: uplink.remote_last_seq, all: lastSeq}));
  }
  setHidden(node, false);
}

function poll() {
  api(`/api/matches/${node.dataset.matchId}/state`, {cache: "no-cache"}).then((r) => {
    const field = r.status === 200 && r.data ? r.data.field : null;
    if (field && field.uplink) show(field.uplink, r.data.last_seq);
  }).finally(() => setTimeout(poll, POLL_MS));
}

if (node) poll();
