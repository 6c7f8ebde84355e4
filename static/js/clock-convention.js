/* PoloClockConvention — one clock convention per screen, always labelled (issue 9, item 6).
 *
 * A chukker's clock can be read two ways: *time played* ("3:25", counting up from the throw-in,
 * on to "7:12" in the extra time) or *time left* ("3:35", counting down to 0:00 at the
 * seven-minute horn, then "+0:12" for the extra time played up to the double horn — what
 * ``PoloLive``'s ``clockText()`` shows). Each screen picks one, shows its name next to the clock,
 * and writes every time in its tables (goals, log) in that same convention.
 *
 * Loaded on every page by templates/base.html (and by the overlay, which has its own <html>); it
 * needs nothing else (PoloLive and the JS catalog are optional) and defines itself once.
 *
 * API (value = "left" | "played"; screen = a short name, see DEFAULTS):
 *
 *   PoloClockConvention.get(screen)            -> "left" | "played"
 *       ``?clock=left|played`` in the page's address wins, then the choice saved for this screen
 *       (localStorage "poloClock.<screen>"), then the screen's default:
 *       scoreboard, tv, overlay, tournament -> "left"; scorer, referee (tablet), committee -> "played".
 *   PoloClockConvention.set(screen, value)     saves the choice (and rewrites a ?clock= in the
 *       address, so a reload keeps it), then calls the screen's listeners.
 *   PoloClockConvention.toggle(screen)         -> the new value.
 *   PoloClockConvention.onChange(screen, fn)   fn(value) after each change (this tab, or another
 *       tab's saved choice when no ?clock= pins it); returns a function that removes fn.
 *   PoloClockConvention.format(elapsed, clockInfo, convention) -> "3:25" | "3:35" | "+0:12" | ""
 *       ``elapsed``: seconds played in the period (the live clock, or an event's ``clock``);
 *       ``clockInfo``: the regular length of a period — a number, a state's ``clock``
 *       ({regular_seconds}), a match's meta ({period_seconds}) or a PoloLive connection
 *       (its hornTimes().seven); 420 when none. "" when ``elapsed`` is not a number.
 *       format(live.clockElapsed(), live, "left") === live.clockText().
 *   PoloClockConvention.clockText(live, convention)  the live clock of a PoloLive connection.
 *   PoloClockConvention.label(convention)      "time left" | "time played" (translated)
 *   PoloClockConvention.heading(convention)    "Time left" | "Time played" (a table's column)
 *   PoloClockConvention.setLabels({left, played, heading_left, heading_played, show_left, show_played})
 *       words for a page without the JS catalog (the overlay gets them translated with the page).
 *   PoloClockConvention.bindToggle(button, screen, onChange) a button that switches the screen's
 *       convention; it reads "Show time played" / "Show time left" and carries data-clock=<value>.
 *       onChange(value) is called now and after each change. Returns {refresh}.
 *
 * For the officials' screens (officials-common.js): screen "scorer" or "referee", e.g.
 *   const conv = PoloClockConvention.get("scorer");
 *   setText(clock, PoloClockConvention.format(elapsed, state.clock, conv));
 *   setText(clockLabel, PoloClockConvention.label(conv));
 *   logTime = PoloClockConvention.format(entry.event.clock, state.clock, conv);
 */
(function () {
  "use strict";

  if (window.PoloClockConvention) return;

  var VALUES = ["left", "played"];
  var DEFAULTS = {
    scoreboard: "left", tv: "left", overlay: "left", tournament: "left",
    scorer: "played", referee: "played", tablet: "played", committee: "played",
  };
  var FALLBACK = "played";
  var REGULAR_SECONDS = 420;
  var KEY = "poloClock.";
  var overrides = {};
  var listeners = {};

  function gettext(s) { return window.gettext ? window.gettext(s) : s; }

  function valid(value) { return VALUES.indexOf(value) >= 0 ? value : null; }

  function fromUrl() {
    try { return valid(new URLSearchParams(window.location.search).get("clock")); } catch (e) { return null; }
  }

  function saved(screen) {
    try { return valid(window.localStorage.getItem(KEY + screen)); } catch (e) { return null; }  // private mode
  }

  function byDefault(screen) { return DEFAULTS[screen] || FALLBACK; }

  function get(screen) { return fromUrl() || saved(screen) || byDefault(screen); }

  function notify(screen, value) {
    (listeners[screen] || []).slice().forEach(function (fn) { fn(value); });
  }

  function set(screen, value) {
    value = valid(value);
    if (!value) throw new Error("PoloClockConvention: 'left' or 'played', not " + value);
    try { window.localStorage.setItem(KEY + screen, value); } catch (e) { /* private mode: this page only */ }
    if (fromUrl() && fromUrl() !== value) {
      try {
        var url = new URL(window.location.href);
        url.searchParams.set("clock", value);
        window.history.replaceState(window.history.state, "", url.toString());
      } catch (e) { /* an address we cannot rewrite: the choice holds until a reload */ }
    }
    notify(screen, value);
    return value;
  }

  function other(value) { return value === "left" ? "played" : "left"; }

  function toggle(screen) { return set(screen, other(get(screen))); }

  function onChange(screen, fn) {
    (listeners[screen] = listeners[screen] || []).push(fn);
    return function () {
      var list = listeners[screen] || [], i = list.indexOf(fn);
      if (i >= 0) list.splice(i, 1);
    };
  }

  // Another tab saved a choice for a screen: follow it, unless the address pins this one.
  window.addEventListener("storage", function (e) {
    if (!e.key || e.key.indexOf(KEY) !== 0 || fromUrl()) return;
    var screen = e.key.slice(KEY.length);
    if (listeners[screen]) notify(screen, get(screen));
  });

  // --- Formatting ------------------------------------------------------------------------------
  function num(v) { return typeof v === "number" && isFinite(v) ? v : null; }

  function regularSeconds(info) {
    if (num(info) != null) return info;
    if (info && typeof info.hornTimes === "function") return info.hornTimes().seven;
    if (info && num(info.regular_seconds) != null) return info.regular_seconds;
    if (info && num(info.period_seconds) != null) return info.period_seconds;
    return REGULAR_SECONDS;
  }

  function mss(seconds) {  // the same as PoloLive.formatClock
    seconds = Math.max(0, Math.floor(seconds + 1e-6));
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function format(elapsed, clockInfo, convention) {
    var e = num(elapsed);
    if (e == null) return "";
    if (convention !== "left") return mss(e);
    var P = regularSeconds(clockInfo);
    if (e > P) return "+" + mss(e - P);
    return mss(Math.ceil(P - e - 1e-6));
  }

  function clockText(live, convention) { return format(live.clockElapsed(), live, convention); }

  // --- Words -----------------------------------------------------------------------------------
  function label(convention) {
    if (convention === "left") return overrides.left || gettext("time left");
    return overrides.played || gettext("time played");
  }

  function heading(convention) {
    if (convention === "left") return overrides.heading_left || gettext("Time left");
    return overrides.heading_played || gettext("Time played");
  }

  function showLabel(convention) {  // what a toggle offers: the other convention
    if (convention === "left") return overrides.show_left || gettext("Show time left");
    return overrides.show_played || gettext("Show time played");
  }

  function setLabels(words) {
    Object.keys(words || {}).forEach(function (k) { if (words[k]) overrides[k] = words[k]; });
  }

  function bindToggle(button, screen, changed) {
    function show(value) {
      button.textContent = showLabel(other(value));
      button.setAttribute("data-clock", value);
      if (changed) changed(value);
    }
    button.addEventListener("click", function () { toggle(screen); });
    onChange(screen, show);
    show(get(screen));
    return {refresh: function () { show(get(screen)); }};
  }

  window.PoloClockConvention = {
    VALUES: VALUES.slice(),
    DEFAULTS: DEFAULTS,
    get: get,
    set: set,
    toggle: toggle,
    onChange: onChange,
    fromUrl: fromUrl,
    regularSeconds: regularSeconds,
    format: format,
    clockText: clockText,
    label: label,
    heading: heading,
    setLabels: setLabels,
    bindToggle: bindToggle,
  };
})();
