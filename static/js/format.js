/* How every screen writes a time, a score and a length of time. */
import {gettext, interpolate} from "./i18n.js";

/* m:ss (seconds rounded down), the same on every screen. */
export function formatClock(seconds) {
  const whole = Math.max(0, Math.floor(seconds + 1e-6));
  const m = Math.floor(whole / 60), s = whole % 60;
  return m + ":" + (s < 10 ? "0" : "") + s;
}

/* A countdown: 10:00 … 0:01, then 0:00 (never negative). */
export function formatCountdown(seconds) {
  return formatClock(Math.max(0, Math.ceil(seconds - 1e-6)));
}

/* 3, or 2½ with a half-goal handicap. */
export function formatScore(n) {
  return n % 1 ? Math.floor(n) + "½" : String(n);
}

/* A rule's length of time as its label says it: "10 min", "25 s". */
export function formatDuration(seconds) {
  if (seconds >= 60 && seconds % 60 === 0) return interpolate(gettext("%(n)s min"), {n: seconds / 60});
  return interpolate(gettext("%(n)s s"), {n: seconds});
}
