/* The public scoreboard (/matches/{id}/): follows one match live through PoloLive.
 *
 * The page arrives rendered with the state as it was; this script colours the teams, runs the
 * clock, redraws on every snapshot/update, keeps the last goals (from the updates' score changes,
 * refetched from /api/matches/{id}/goals after a gap) and offers sound, full screen and the TV layout.
 *
 * The clock shows time left by default (PoloClockConvention, screen "scoreboard", or "tv" in the TV
 * layout): always labelled, switched by a button or ``?clock=played``, and the goals' times follow it.
 */
(function () {
  "use strict";

  var gettext = window.gettext || function (s) { return s; };
  var fmt = window.interpolate || function (s, a) { return s.replace("%s", a[0]); };
  var root = document.getElementById("scoreboard");
  var data = JSON.parse(document.getElementById("live-data").textContent);
  var meta = data.match, labels = data.labels;
  var TEAMS = ["home", "away"];
  var goals = (data.goals || []).slice();  // newest first
  var goalsSeq = data.goals_seq != null ? data.goals_seq : data.last_seq;
  var fieldKey = null;
  var CC = window.PoloClockConvention;
  var SCREEN = document.body.classList.contains("tv") ? "tv" : "scoreboard";
  var convention = CC.get(SCREEN);
  var live = null;

  function part(role) { return root.querySelector('[data-role="' + role + '"]'); }
  function setText(node, text) { if (node && node.textContent !== text) node.textContent = text; }
  function other(team) { return team === "home" ? "away" : "home"; }
  function score(n) { return n % 1 ? Math.floor(n) + "½" : String(n); }

  TEAMS.forEach(function (team) {
    root.querySelector('.sb-team[data-team="' + team + '"]').style.setProperty("--team-color", meta[team].color);
    part("swatch-" + team).style.setProperty("background-color", meta[team].color);
  });

  function statusText(state) {
    var text = labels.status[state.status] || state.status;
    if (state.status === "interval" && state.interval && state.interval.kind === "halftime") text = labels.halftime;
    if (state.status === "final" && state.winner) text += " · " + labels.winner + ": " + meta[state.winner].name;
    return text;
  }

  function render(state) {
    TEAMS.forEach(function (team) {
      setText(part("score-" + team), score(state.score[team]));
      setText(part("attacks-" + team), labels.attacks[state.defends[team] === "north" ? "south" : "north"]);
      root.querySelector('.sb-team[data-team="' + team + '"]').classList.toggle("is-winner", state.winner === team);
    });
    var period = state.period || {};
    setText(part("period-label"), labels.period[period.kind] || labels.period.regulation);
    setText(part("period"), period.number ? String(period.number) : "–");
    var status = part("status");
    setText(status, statusText(state));
    status.setAttribute("data-status", state.status);
    var r = state.restart;
    setText(part("restart"), r ? (r.message || (r.rule ? fmt(gettext("Rule %s"), [r.rule]) : "")) : labels.no_restart);
    var key = JSON.stringify([state.defends, r && r.spot, r && r.team, r && r.toward]);
    if (key !== fieldKey && window.PoloField) {
      fieldKey = key;
      PoloField.render(part("field"), {
        length: meta.field.length, width: meta.field.width, defends: state.defends, restart: r,
        colors: {home: meta.home.color, away: meta.away.color}, names: {home: meta.home.name, away: meta.away.name},
      });
    }
    document.title = meta.home.name + " " + score(state.score.home) + " – " + score(state.score.away) + " " + meta.away.name;
  }

  // --- Last goals --------------------------------------------------------------------------------
  // A goal's time in the clock's convention (time left: the period's regular length less its clock).
  function clockOf(seconds) { return CC.format(seconds, live || meta, convention); }

  function renderGoals() {
    var body = part("goals");
    while (body.firstChild) body.removeChild(body.firstChild);
    if (!goals.length) {
      body.appendChild(document.getElementById("no-goals").content.cloneNode(true));
      return;
    }
    goals.forEach(function (g) {
      var tr = document.createElement("tr");
      var who = g.name || "";
      if (g.own_goal) who = labels.own_goal + (who ? " (" + who + ")" : "");
      else if (g.penalty && !who) who = labels.penalty_goal;
      [g.period != null ? String(g.period) : "", clockOf(g.clock), meta[g.team].name, who].forEach(function (text, i) {
        var td = document.createElement("td");
        td.textContent = text;
        if (i === 2) td.className = "team-" + g.team;
        tr.appendChild(td);
      });
      tr.setAttribute("data-goal-id", g.id || "");
      body.appendChild(tr);
    });
  }

  var players = {home: {}, away: {}};  // team -> number -> name (substitutions update it)
  TEAMS.forEach(function (team) {
    (meta[team].players || []).forEach(function (p) { players[team][p.number] = p.name; });
  });

  function goalFrom(events, team, state) {
    // The event that gave ``team`` a goal: a goal credited to it, or a Penalty 1 against the other.
    for (var i = events.length - 1; i >= 0; i--) {
      var ev = events[i], e = ev.event || {};
      if (ev.type === "goal" && e.team === team) {
        var hitter = e.own_goal ? other(team) : team;
        return {id: e.id, seq: ev.seq, team: team, number: e.number || null, own_goal: !!e.own_goal,
                penalty: !!e.from_penalty, name: e.number ? (players[hitter] || {})[e.number] || "" : "",
                period: state.period && state.period.number, clock: e.clock};
      }
      if (ev.type === "foul" && e.against === other(team)) {
        return {id: e.id, seq: ev.seq, team: team, penalty: true, name: "", own_goal: false,
                period: state.period && state.period.number, clock: e.clock};
      }
    }
    return {id: null, team: team, name: "", period: state.period && state.period.number, clock: null};
  }

  // The list is "in step" when it was made at the log position of the last state followed
  // (seenSeq): only then can an update's events extend it. Otherwise it is read again from the
  // server, and a read that comes back older than what the screen shows is not trusted.
  var seenSeq = goalsSeq;
  var refetching = false;
  function refetchGoals() {
    if (refetching) return;
    refetching = true;
    PoloLive.api("/api/matches/" + meta.id + "/goals").then(function (r) {
      refetching = false;
      if (r.status === 200 && r.data) {
        if (goalsSeq == null || r.data.last_seq >= goalsSeq) {
          goals = r.data.goals;
          goalsSeq = r.data.last_seq;
          renderGoals();
        }
        // The match moved on while we read (the read saw an older log): read again.
        if (goalsSeq !== seenSeq) setTimeout(refetchGoals, 250);
      } else {  // the server was away (restarting): try again while the list is behind the state
        setTimeout(function () { if (goalsSeq !== seenSeq) refetchGoals(); }, 3000);
      }
    });
  }

  function followGoals(state, info) {
    var prev = info.previous, inStep = goalsSeq != null && goalsSeq === seenSeq;
    seenSeq = info.lastSeq;
    if (info.source !== "update" || !prev || !inStep) {
      if (info.lastSeq !== goalsSeq) refetchGoals();
      return;
    }
    var changed = false, lost = false;
    (info.events || []).forEach(function (ev) {
      var e = ev.event || {};
      if (ev.type === "substitution" && e.player && players[e.team]) players[e.team][e.out] = e.player.name;
    });
    TEAMS.forEach(function (team) {
      var gained = state.score[team] - prev.score[team];
      if (gained > 0) { goals.unshift(goalFrom(info.events || [], team, state)); changed = true; }
      if (gained < 0) lost = true;
    });
    goalsSeq = info.lastSeq;
    if (lost) {  // a void took a goal away: the server knows which
      refetchGoals();
      return;
    }
    if (changed) {
      goals = goals.slice(0, 8);
      renderGoals();
    }
  }

  // --- Clock ---------------------------------------------------------------------------------
  function tick(live) {
    var state = live.state;
    if (!state) return;
    var clock = part("clock");
    setText(clock, state.status === "scheduled" ? "–:––" : CC.clockText(live, convention));
    clock.classList.toggle("running", !!(state.clock && state.clock.running));
    clock.classList.toggle("extra", live.clockElapsed() > live.hornTimes().seven);
    var left = live.intervalRemaining(), iv = part("interval");
    if (left == null) {
      iv.hidden = true;
    } else {
      iv.hidden = false;
      setText(iv, fmt(gettext("Next chukker in %s"), [PoloLive.formatClock(Math.ceil(left))]));
    }
  }

  var CONN = {live: gettext("Live"), connecting: gettext("Connecting…"), offline: gettext("Offline — reconnecting…")};

  live = PoloLive.connect({
    matchId: meta.id,
    state: data.state,
    lastSeq: data.last_seq,
    serverTime: data.server_time,
    periodSeconds: meta.period_seconds,
    extraSeconds: meta.extra_seconds,
    onState: function (state, info) {
      render(state);
      followGoals(state, info);
    },
    onStatus: function (status) {
      var conn = part("conn");
      conn.setAttribute("data-status", status);
      setText(conn, CONN[status] || status);
    },
    onTick: tick,
  });
  window.scoreboardLive = live;

  // --- Tools -----------------------------------------------------------------------------------
  CC.bindToggle(part("clock-toggle"), SCREEN, function (value) {
    var changed = value !== convention;
    convention = value;
    root.setAttribute("data-clock", value);
    setText(part("clock-label"), CC.label(value));
    setText(part("goals-clock-heading"), CC.heading(value));
    if (changed) {
      renderGoals();
      tick(live);
    }
  });
  PoloLive.bindMuteButton(part("mute"));
  var fs = part("fullscreen");
  if (!document.fullscreenEnabled) {
    fs.hidden = true;
  } else {
    fs.addEventListener("click", function () {
      if (document.fullscreenElement) document.exitFullscreen();
      else document.documentElement.requestFullscreen().catch(function () { /* refused: stay */ });
    });
    document.addEventListener("fullscreenchange", function () {
      var on = !!document.fullscreenElement;
      document.body.classList.toggle("fullscreen", on);
      setText(fs, on ? gettext("Leave full screen") : gettext("Full screen"));
    });
  }

  render(data.state);
  renderGoals();
})();
