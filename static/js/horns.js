/* The horns on screen and in the speaker: a banner over the page and an air-horn tone played with
 * Web Audio (no sound file), muted at the user's wish (remembered in localStorage "poloMuted").
 * live.js decides when a horn is due; this module only shows and sounds it. */
import {gettext} from "./i18n.js";

const HORN_BLASTS = {seven: 1, final: 2, warning: 1, start: 2};
const BANNER_MS = 4000;

const audio = {ctx: null, muted: false};
try { audio.muted = window.localStorage.getItem("poloMuted") === "1"; } catch { /* private mode */ }
const muteListeners = [];

function audioContext() {
  if (!audio.ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    audio.ctx = new AC();
  }
  return audio.ctx;
}

function unlockAudio() {
  // Browsers start an AudioContext suspended until a user gesture: resume on the first one.
  const ctx = audioContext();
  if (ctx && ctx.state === "suspended") ctx.resume();
}
for (const type of ["pointerdown", "keydown", "touchend"]) {
  document.addEventListener(type, unlockAudio, {capture: true, passive: true});
}

export function soundHorn(kind) {
  if (audio.muted) return;
  const ctx = audioContext();
  if (!ctx) return;
  if (ctx.state === "suspended") ctx.resume();
  const blasts = HORN_BLASTS[kind] || 1;
  const length = kind === "warning" ? 0.4 : 0.7;
  let t = ctx.currentTime + 0.02;
  for (let i = 0; i < blasts; i++) {
    const osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.type = "sawtooth";
    osc.frequency.setValueAtTime(233, t);  // a low, reedy air-horn tone
    gain.gain.setValueAtTime(0, t);
    gain.gain.linearRampToValueAtTime(0.25, t + 0.03);
    gain.gain.setValueAtTime(0.25, t + length - 0.05);
    gain.gain.linearRampToValueAtTime(0, t + length);
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.start(t);
    osc.stop(t + length + 0.02);
    t += length + 0.25;
  }
}

export function hornLabel(kind) {
  switch (kind) {
    case "seven": return gettext("Seven minutes");
    case "final": return gettext("End of the chukker");
    case "warning": return gettext("Two minutes to the next chukker");
    case "start": return gettext("The chukker starts");
  }
  return gettext("Horn");
}

let banner = null, bannerTimer = null;

export function showHornBanner(kind) {
  if (!banner) {
    banner = document.createElement("div");
    banner.className = "polo-horn";
    banner.setAttribute("role", "status");
    banner.setAttribute("aria-live", "assertive");
    // Minimal styling from JS (CSP: no inline style attributes); pages refine it in CSS.
    for (const [name, value] of [["position", "fixed"], ["left", "0"], ["right", "0"], ["top", "0"],
                                 ["z-index", "1000"], ["text-align", "center"]]) {
      banner.style.setProperty(name, value);
    }
    document.body.appendChild(banner);
  }
  banner.textContent = hornLabel(kind);
  banner.setAttribute("data-kind", kind);
  banner.hidden = false;
  flash(banner, "polo-horn--on");
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => { banner.hidden = true; banner.classList.remove("polo-horn--on"); }, BANNER_MS);
}

/* Restart a CSS flash animation: take the class off, let the browser see it gone, put it back. */
export function flash(node, className) {
  node.classList.remove(className);
  void node.offsetWidth;
  node.classList.add(className);
}

export function isMuted() { return audio.muted; }

export function setMuted(muted) {
  audio.muted = !!muted;
  try { window.localStorage.setItem("poloMuted", audio.muted ? "1" : "0"); } catch { /* ignore */ }
  if (!audio.muted) unlockAudio();
  for (const fn of muteListeners) fn(audio.muted);
}

export function bindMuteButton(button) {
  const show = (muted) => {
    button.setAttribute("aria-pressed", muted ? "true" : "false");
    button.textContent = muted ? gettext("Sound off") : gettext("Sound on");
  };
  show(audio.muted);
  muteListeners.push(show);
  button.addEventListener("click", () => setMuted(!audio.muted));
}
