/* A tournament's day, live (/tournaments/{id}/live/).
 *
 * Two channels, each where it pays: the day's list is polled every 15 s (one small request for
 * every match: a match starting or ending shows up without holding a socket per idle match), and
 * each match that is in progress *and on screen* gets its own PoloLive socket for sub-second
 * updates and a running clock. A day has a handful of matches and only one or two run at once, so
 * the page holds at most a few sockets; the others close when they scroll away or finish.
 *
 * Clocks show time left by default, labelled (PoloClockConvention, screen "tournament": a button,
 * or ``?clock=played``).
 */
(function () {
  "use strict";

  var gettext = window.gettext || function (s) { return s; };
  var fmt = window.interpolate || function (s, a) { return s.replace("%s", a[0]); };
  var root = document.getElementById("tournament-live");
  var data = JSON.parse(document.getElementById("live-data").textContent);
  var labels = data.labels;
  var IN_PROGRESS = {in_play: 1, stopped: 1, interval: 1, tied: 1, shootout: 1, suspended: 1};
  var POLL_MS = 15000;
  var cards = {};
  var CC = window.PoloClockConvention;
  var convention = CC.get("tournament");

  function setText(node, text) { if (node && node.textContent !== text) node.textContent = text; }
  function score(n) { return n % 1 ? Math.floor(n) + "½" : String(n); }
  function part(card, role) { return card.el.querySelector('[data-role="' + role + '"]'); }

  function render(card) {
    var s = card.state || {};
    card.el.setAttribute("data-status", s.status || "");
    if (s.score) {
      setText(part(card, "score-home"), score(s.score.home));
      setText(part(card, "score-away"), score(s.score.away));
    }
    var status = s.status === "interval" && s.interval && s.interval.kind === "halftime" ? labels.halftime
      : labels.status[s.status] || s.status || "";
    if (s.status === "final" && s.winner) status += " · " + labels.winner + ": " + card.meta[s.winner].name;
    setText(part(card, "status"), status);
    var p = s.period;
    var playing = p && p.number && IN_PROGRESS[s.status];  // no "Chukker 1" before the start or after the end
    setText(part(card, "period"), playing ? (labels.period[p.kind] || labels.period.regulation) + " " + p.number : "");
    if (!card.live) {
      var c = s.clock;
      showClock(card, c && IN_PROGRESS[s.status] ? CC.format(c.elapsed, c.regular_seconds ? c : card.meta, convention) : "", true);
    }
  }

  /* The clock and, when it is one, its convention ("time left"); an interval's countdown says what it counts. */
  function showClock(card, text, isClock) {
    setText(part(card, "clock"), text);
    var label = part(card, "clock-label");
    setText(label, CC.label(convention));
    label.hidden = !text || !isClock;
  }

  function tick(card, live) {
    var left = live.intervalRemaining();
    if (left != null) showClock(card, fmt(gettext("Next chukker in %s"), [PoloLive.formatClock(Math.ceil(left))]), false);
    else showClock(card, CC.clockText(live, convention), true);
  }

  function reconcile(card) {
    var want = card.visible && !!IN_PROGRESS[(card.state || {}).status];
    if (want && !card.live) {
      card.live = PoloLive.connect({
        matchId: card.meta.id,
        state: card.state,
        lastSeq: card.lastSeq,
        periodSeconds: card.meta.period_seconds,
        extraSeconds: card.meta.extra_seconds,
        banner: false,  // several matches on one page: the card flashes instead
        onState: function (state, info) {
          card.state = state;
          card.lastSeq = info.lastSeq;
          render(card);
          if (!IN_PROGRESS[state.status]) setTimeout(function () { reconcile(card); }, 0);
        },
        onStatus: function (status) { card.el.setAttribute("data-conn", status); },
        onHorn: function (kind) {
          card.el.classList.remove("horn");
          void card.el.offsetWidth;
          card.el.classList.add("horn");
          card.el.setAttribute("data-horn", kind);
        },
        onTick: function (live) { tick(card, live); },
      });
    } else if (!want && card.live) {
      card.live.close();
      card.live = null;
      render(card);
    }
  }

  data.matches.forEach(function (m) {
    var el = root.querySelector('.tl-match[data-match-id="' + m.id + '"]');
    if (!el) return;
    var card = cards[m.id] = {el: el, meta: m, state: m.state, lastSeq: m.last_seq, visible: false, live: null};
    ["home", "away"].forEach(function (team) {
      part(card, "swatch-" + team).style.setProperty("background-color", m[team].color);
    });
    render(card);
  });

  function observe() {
    if (!("IntersectionObserver" in window)) {
      Object.keys(cards).forEach(function (id) { cards[id].visible = true; reconcile(cards[id]); });
      return;
    }
    var io = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        var card = cards[entry.target.getAttribute("data-match-id")];
        if (!card) return;
        card.visible = entry.isIntersecting;
        reconcile(card);
      });
    }, {rootMargin: "100px"});
    Object.keys(cards).forEach(function (id) { io.observe(cards[id].el); });
  }

  function poll() {
    if (document.hidden) return Promise.resolve();
    var url = "/api/tournaments/" + data.tournament.id + "/matches?date=" + encodeURIComponent(data.date);
    return PoloLive.api(url).then(function (r) {
      if (r.status !== 200 || !r.data || !r.data.matches) return;
      r.data.matches.forEach(function (m) {
        var card = cards[m.id];
        if (!card || card.live) return;  // a card with a socket is already up to date
        var seq = typeof m.last_seq === "number" ? m.last_seq : (m.state && m.state.last_seq);
        if (seq == null || card.lastSeq == null || seq > card.lastSeq) {
          card.state = Object.assign({}, card.state, m.state);
          card.lastSeq = seq;
          render(card);
          reconcile(card);
        }
      });
    });
  }

  function pollLoop() {
    poll().then(function () { setTimeout(pollLoop, POLL_MS * (0.8 + 0.4 * Math.random())); });
  }

  var toggle = root.querySelector('[data-role="clock-toggle"]');
  if (toggle) {
    CC.bindToggle(toggle, "tournament", function (value) {
      if (value === convention) return;
      convention = value;
      Object.keys(cards).forEach(function (id) {
        var card = cards[id];
        if (card.live) tick(card, card.live); else render(card);
      });
    });
  }

  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
  observe();
  setTimeout(pollLoop, POLL_MS);
  window.tournamentLive = {cards: cards, poll: poll};
})();
