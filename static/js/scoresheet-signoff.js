/* The official scoresheet on the umpires' tablet (docs/SCORESHEET.md): at the final result each
 * umpire and the referee signs from their own login. The signature binds the log by its hash; a
 * later correction (any accepted event) breaks it, and this box says so and asks for a new one.
 *
 * It follows the tablet's state (the "polo:state" event of officials/screen.js): when the match is
 * over, or the log moves on, it reads the scoresheet again from the API. Signing posts the hash
 * the box shows, so a signature never binds a log its signer did not see.
 */
import {el, jsonData} from "./dom.js";
import {gettext, interpolate} from "./i18n.js";
import {api} from "./live.js";

const OVER = ["final", "abandoned"];
const box = document.getElementById("signoff");
const config = jsonData("scoresheet-signoff-data");
const $ = (role) => box.querySelector(`[data-role="${role}"]`);
let sheet = config.sheet;
let status = sheet.status;
let seq = sheet.last_seq;
let message = "";
let busy = false;

function mine() {
  return sheet.signatures.find((s) => s.username === config.user) || null;
}

function render() {
  const show = OVER.includes(status) || sheet.signatures.length > 0;
  box.hidden = !show;
  if (!show) return;
  const own = mine();
  box.dataset.broken = sheet.broken ? "1" : "0";
  box.dataset.complete = sheet.complete ? "1" : "0";
  box.dataset.signed = own && own.valid ? "1" : "0";
  let note;
  if (message) note = message;
  else if (sheet.altered) note = gettext("A signature's record was altered outside the app (its seal does not match): it counts for nothing. Tell the committee, and sign again.");
  else if (sheet.broken) note = gettext("The log has changed since the scoresheet was signed (a correction): the signatures no longer match the result. Sign again.");
  else if (sheet.complete) note = gettext("The scoresheet is signed by every umpire and the referee.");
  else if (own && own.valid) note = gettext("You have signed the final result. Waiting for the other officials.");
  else note = gettext("The match is over: check the result and sign the scoresheet.");
  $("signoff-note").textContent = note;
  $("signoff-note").className = sheet.broken || message ? "note warning" : "note";
  const list = $("signoff-list");
  list.replaceChildren(...sheet.signatures.map((s) => el("li", {"data-official": s.username, "data-valid": s.valid ? "1" : "0"}, [
    interpolate(gettext("%(role)s %(name)s signed at %(time)s"), {
      role: s.role_label, name: s.name, time: new Date(s.signed_at * 1000).toLocaleTimeString(),
    }),
    " — ",
    el("strong", {text: s.valid ? gettext("valid")
      : s.sealed === false ? gettext("altered: its seal does not match") : gettext("broken: the log changed after it")}),
  ])), ...(sheet.officials || []).filter((o) => !sheet.signatures.some((s) => s.username === o.username)).map((o) => el("li", {
    "data-official": o.username, "data-valid": "missing",
    text: interpolate(gettext("%(role)s %(name)s: to sign"), {role: o.role_label, name: o.name}),
  })));
  $("signoff-hash").textContent = sheet.log_hash;
  const sign = $("signoff-sign");
  sign.hidden = !(config.can_sign && sheet.signable && !(own && own.valid));
  sign.disabled = busy;
  sign.textContent = own && !own.valid ? gettext("Sign again") : gettext("Sign the final result");
}

async function refresh() {
  const r = await api(config.url);
  if (r.status === 200 && r.data) { sheet = r.data; status = sheet.status; }
  render();
}

$("signoff-sign").addEventListener("click", async () => {
  if (busy) return;
  busy = true;
  message = "";
  render();
  const r = await api(config.sign_url, {method: "POST", body: {log_hash: sheet.log_hash}});
  busy = false;
  if (r.status === 201 && r.data) sheet = r.data;
  else if (r.data && r.data.scoresheet) { sheet = r.data.scoresheet; message = r.data.error.message; }
  else message = (r.data && r.data.error && r.data.error.message) || gettext("Not signed: the server did not answer. Try again.");
  status = sheet.status;
  render();
});

document.addEventListener("polo:state", (e) => {
  const s = e.detail.state || {};
  const at = e.detail.lastSeq;
  if (s.status === status && at === seq) return;
  const over = OVER.includes(s.status) || OVER.includes(status);
  status = s.status;
  seq = at;
  message = "";
  if (over) refresh(); else render();
});

render();
