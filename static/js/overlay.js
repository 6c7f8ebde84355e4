/* The stream overlay (/matches/{id}/overlay/): a compact, transparent bar for an OBS browser
 * source — teams, score, chukker, clock; a status word only when the ball is not simply in play.
 * Its words come translated with the page (``?lang=`` or the visitor's language), so it needs no
 * JavaScript catalog. The clock shows time left, labelled; ``?clock=played`` shows time played
 * (PoloClockConvention, screen "overlay": no button on a video). */
(function () {
  "use strict";

  var root = document.getElementById("overlay");
  var data = JSON.parse(document.getElementById("live-data").textContent);
  var meta = data.match, labels = data.labels;
  var CC = window.PoloClockConvention;
  CC.setLabels(labels.clock);
  var convention = CC.get("overlay");
  root.setAttribute("data-clock", convention);

  function part(role) { return root.querySelector('[data-role="' + role + '"]'); }
  function setText(node, text) { if (node && node.textContent !== text) node.textContent = text; }
  function score(n) { return n % 1 ? Math.floor(n) + "½" : String(n); }

  ["home", "away"].forEach(function (team) {
    part("swatch-" + team).style.setProperty("background-color", meta[team].color);
  });

  function render(state) {
    setText(part("score-home"), score(state.score.home));
    setText(part("score-away"), score(state.score.away));
    var period = state.period || {};
    setText(part("period-label"), labels.period[period.kind] || labels.period.regulation);
    setText(part("period"), period.number ? String(period.number) : "–");
    var status = part("status");
    status.setAttribute("data-status", state.status);
    var quiet = state.status === "in_play" || state.status === "stopped";
    status.hidden = quiet;
    if (!quiet) setText(status, (state.status === "interval" && state.interval && state.interval.kind === "halftime" ? labels.halftime : labels.status[state.status] || state.status));
  }

  function tick(live) {
    var state = live.state;
    if (!state) return;
    var left = live.intervalRemaining();
    var text = state.status === "scheduled" ? "–:––" : CC.clockText(live, convention);
    if (left != null) text = labels.next_in.replace("%s", PoloLive.formatClock(Math.ceil(left)));
    setText(part("clock"), text);
    var label = part("clock-label");
    setText(label, CC.label(convention));
    label.hidden = left != null;  // "Next chukker in 2:00" says what it counts
  }

  window.overlayLive = PoloLive.connect({
    matchId: meta.id,
    lang: data.lang,
    state: data.state,
    lastSeq: data.last_seq,
    serverTime: data.server_time,
    periodSeconds: meta.period_seconds,
    extraSeconds: meta.extra_seconds,
    banner: false,  // the bar itself flashes instead of a banner over the video
    onState: render,
    onStatus: function (status) { root.setAttribute("data-conn", status); },
    onHorn: function (kind) {
      root.classList.remove("horn");
      void root.offsetWidth;
      root.classList.add("horn");
      root.setAttribute("data-horn", kind);
    },
    onTick: tick,
  });
  render(data.state);
})();
