/* The public play-by-play (/matches/{id}/play-by-play/): follows the match through live.js.
 *
 * The entries are written by the server (matches/public/play_by_play.py: the engine's fold, its
 * rules, the words in the reader's language), so this script never describes an event itself: on
 * each state it is given past the log position the entries show, it reads the list again from
 * ``entries_url`` (an HTML fragment whose ``data-seq`` says the position it shows) and swaps it
 * in. The score and status above the list follow every state at once. A reader scrolled to the
 * end stays at the end as entries arrive.
 */
import {jsonData, setText} from "./dom.js";
import {formatScore} from "./format.js";
import {gettext} from "./i18n.js";
import {connect} from "./live.js";

const RETRY_MS = 2000;  // the list came back older than the state (a read racing the update): again

const root = document.getElementById("play-by-play");
const data = jsonData("live-data");
const meta = data.match, labels = data.labels;
let shownSeq = data.entries_seq;  // the log position the list shows
let wantedSeq = shownSeq;         // the newest log position a state has announced
let reading = false;

const part = (role) => root.querySelector(`[data-role="${role}"]`);

for (const team of ["home", "away"]) root.style.setProperty(`--${team}-color`, meta[team].color);

function atEnd() {
  return window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 80;
}

function readEntries() {
  if (reading || wantedSeq <= shownSeq) return;
  reading = true;
  fetch(data.entries_url, {credentials: "same-origin", cache: "no-store", headers: {"Accept": "text/html"}})
    .then((r) => (r.ok ? r.text() : null))
    .then((html) => {
      if (html == null) return;
      const list = new DOMParser().parseFromString(html, "text/html").querySelector('[data-role="log"]');
      const seq = list ? Number(list.getAttribute("data-seq")) : NaN;
      if (!(seq > shownSeq)) return;
      const follow = atEnd();
      part("log").replaceWith(document.adoptNode(list));
      shownSeq = seq;
      root.setAttribute("data-seq", String(seq));
      if (follow) document.getElementById("latest").scrollIntoView({block: "end"});
    })
    .catch(() => { /* offline: the next state asks again */ })
    .finally(() => {
      reading = false;
      if (wantedSeq > shownSeq) setTimeout(readEntries, RETRY_MS);
    });
}

function render(state) {
  for (const team of ["home", "away"]) setText(part("score-" + team), formatScore(state.score[team]));
  setText(part("status"), labels.status[state.status] || state.status);
}

const CONN = {live: gettext("Live"), connecting: gettext("Connecting…"), offline: gettext("Offline — reconnecting…")};

connect({
  matchId: meta.id,
  state: data.state,
  lastSeq: data.last_seq,
  serverTime: data.server_time,
  banner: false,
  sound: false,
  onState: (state, info) => {
    render(state);
    if (info.lastSeq > wantedSeq) wantedSeq = info.lastSeq;
    readEntries();
  },
  onStatus: (status) => {
    const conn = part("conn");
    conn.setAttribute("data-status", status);
    setText(conn, CONN[status] || status);
  },
});
root.setAttribute("data-seq", String(shownSeq));
