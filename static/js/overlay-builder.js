/* The stream overlay's builder (/matches/{id}/overlay/builder/): the form writes the overlay's
 * options into its address (overlay-options.js), the preview frame shows the overlay with them,
 * and the address is there to copy into OBS. The builder's own address keeps the choice
 * (``?pos=br&theme=light``…), so a reload or a shared link opens with it. */
import {parse, query} from "./overlay-options.js";

const root = document.getElementById("overlay-builder");
const form = root.querySelector('[data-role="form"]');
const part = (role) => root.querySelector(`[data-role="${role}"]`);
const overlayUrl = root.getAttribute("data-overlay-url");
const previewUrl = root.getAttribute("data-preview-url");
const frame = part("preview");

function read() {
  return {
    pos: form.elements.pos.value,
    theme: form.elements.theme.value,
    scale: parseFloat(form.elements.scale.value) || 1,
    show: Array.from(form.querySelectorAll('input[name="show"]:checked'), (box) => box.value),
  };
}

function extra() {
  return {lang: form.elements.lang.value, clock: form.elements.clock.value === "played" ? "played" : ""};
}

function write(opts, search) {
  const q = new URLSearchParams(search);
  form.elements.pos.value = opts.pos;
  form.elements.theme.value = opts.theme;
  form.elements.scale.value = String(opts.scale);
  for (const box of form.querySelectorAll('input[name="show"]')) box.checked = opts.show.includes(box.value);
  const lang = q.get("lang") || document.documentElement.lang;
  if (Array.from(form.elements.lang.options, (o) => o.value).includes(lang)) form.elements.lang.value = lang;
  form.elements.clock.value = q.get("clock") === "played" ? "played" : "left";
}

function update() {
  const qs = query(read(), extra());
  const url = overlayUrl + qs;
  part("url").value = url;
  part("open").href = url;
  const preview = previewUrl + (qs ? qs + "&" : "?") + "preview=1";
  if (frame.getAttribute("src") !== preview) frame.setAttribute("src", preview);
  window.history.replaceState(window.history.state, "", window.location.pathname + qs);
  part("copied").hidden = true;
}

function fit() {
  const box = frame.parentElement.getBoundingClientRect();
  frame.parentElement.style.setProperty("--obld-zoom", String(box.width / 1920));
}

write(parse(window.location.search), window.location.search);
form.addEventListener("input", update);
form.addEventListener("change", update);
form.addEventListener("submit", (e) => e.preventDefault());
part("copy").addEventListener("click", () => {
  const input = part("url");
  const done = () => { part("copied").hidden = false; };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(input.value).then(done, () => { input.select(); });
  } else {  // plain http (a laptop at the field): the older way
    input.select();
    if (document.execCommand("copy")) done();
  }
});
window.addEventListener("resize", fit);
fit();
update();
