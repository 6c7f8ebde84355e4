/* PoloOfficials — what the scorer's laptop and the umpires' tablet share.
 *
 * - the words: event types, whistle reasons, penalties, timers, in the user's language (/jsi18n/);
 * - FieldView: the SVG field diagram in yards (x along the field from the north end line, y across
 *   from the west side — MATCH-LOG.md "The field"), the pending restart drawn on it, and a click or
 *   a keyboard cursor that gives a position;
 * - Wizard: a command being built step by step (team, player, choice, position, text, flags),
 *   driven by keys (scorer) or big buttons (tablet), ending in one match-log event;
 * - EventLog: the match log as the screens list it, with voids applied;
 * - RestartTimers: the restart timers the state does not carry, from local timestamps;
 * - the header: score, clock, connection indicator, rejections;
 * - Screen: one official's screen — the state, the log, the offline queue, the clock held from
 *   the first key of a stoppage (a "hold", released if the entry is abandoned), the other
 *   officials' entries in progress, the conflict box, who may void what.
 */
(function () {
  "use strict";

  // The catalog of /jsi18n/; the calls are spelled gettext()/ngettext() so makemessages finds them.
  const gettext = window.gettext || ((s) => s);
  const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
  const fmt = (s, obj) => (window.interpolate ? window.interpolate(s, obj, true) : s);
  const SVG_NS = "http://www.w3.org/2000/svg";

  // --- The words ------------------------------------------------------------------------------
  const EVENT_LABELS = {
    play: gettext("Play"), goal: gettext("Goal"), foul: gettext("Foul"), ball_out: gettext("Ball out"), whistle: gettext("Whistle"),
    restart_violation: gettext("Restart violation"), horn: gettext("Horn"), clock_set: gettext("Set the clock"), card: gettext("Card"),
    mount: gettext("Mount (horse change)"), substitution: gettext("Substitution"), suspend: gettext("Suspend the game"),
    resume: gettext("Resume the game"), abandon: gettext("Abandon the game"), overtime: gettext("Overtime"),
    shootout_start: gettext("Start a shootout"), shootout_attempt: gettext("Shootout hit"), forfeit: gettext("Forfeit"),
    void: gettext("Void (undo)"), hold: gettext("Clock held"), release: gettext("Clock released"),
  };
  // The events that stop play and the clock: their first key holds the clock (issue 9).
  const STOPPAGES = ["goal", "foul", "ball_out", "whistle", "restart_violation"];
  // The kinds of a hold, as the other officials' screens name an entry in progress ("foul…").
  const HOLD_KINDS = {
    goal: gettext("goal"), foul: gettext("foul"), ball_out: gettext("ball out"), whistle: gettext("whistle"),
    restart_violation: gettext("restart violation"),
  };
  const ROLE_LABELS = {scorer: gettext("scorer"), umpire: gettext("umpire"), committee: gettext("committee")};
  // Who may void what (matches/permissions.py, can_void): the committee's own decisions are its own.
  const COMMITTEE_ONLY_EVENTS = ["overtime", "shootout_start", "forfeit"];
  const COMMITTEE_OR_UMPIRE_EVENTS = ["suspend", "resume", "abandon"];
  // Events of the game itself: none once the match is over, and none but a horse change or a
  // substitution while it is suspended.
  const GAME_EVENTS = ["play", "goal", "foul", "ball_out", "whistle", "restart_violation", "horn", "card", "clock_set",
                       "mount", "substitution"];
  const WHISTLE_REASONS = [
    ["injured_player", "1", gettext("Injured player")], ["player_fall", "2", gettext("Player fall")],
    ["injured_horse", "3", gettext("Injured horse")], ["horse_fall", "4", gettext("Horse fall")],
    ["horse_timeout", "5", gettext("Horse time-out")], ["courtesy_change", "6", gettext("Courtesy change")],
    ["broken_tack", "7", gettext("Broken tack")], ["lost_helmet", "8", gettext("Lost helmet")],
    ["lodged_ball", "9", gettext("Lodged ball")], ["damaged_ball", "0", gettext("Damaged ball")],
    ["inadvertent", "I", gettext("Inadvertent whistle")], ["rule_check", "R", gettext("Rule check (no foul)")],
    ["umpire_down", "U", gettext("Umpire down")], ["other", "X", gettext("Other")],
  ];
  const PENALTIES = [
    ["1", "1", gettext("Penalty 1 (goal awarded)")], ["2", "2", gettext("Penalty 2 (30 yards)")],
    ["3", "3", gettext("Penalty 3 (40 yards)")], ["4", "4", gettext("Penalty 4 (60 yards)")],
    ["5a", "5", gettext("Penalty 5.a (from the spot)")], ["5b", "B", gettext("Penalty 5.b (from the centre)")],
    ["6", "6", gettext("Penalty 6 (safety)")],
  ];
  const PENALTY_NAMES = {"1": "1", "2": "2", "3": "3", "4": "4", "5a": "5.a", "5b": "5.b", "6": "6"};
  const DEFLECTIONS = [
    ["none", "N", gettext("Nothing")], ["own_mount", "M", gettext("The hitter's own horse")], ["teammate", "T", gettext("A teammate")],
    ["goal_post", "P", gettext("A goal post")], ["boards", "B", gettext("The boards")], ["opponent", "O", gettext("An opponent")],
    ["opponent_mallet", "L", gettext("An opponent's mallet")], ["umpire", "U", gettext("An umpire")], ["unknown", "K", gettext("Not known")],
  ];
  const VIOLATIONS = [
    ["late", "L", gettext("Late (not hit in time)")], ["early", "E", gettext("Early (hit before “Play”)")],
    ["passed_ball", "P", gettext("Passed the ball")], ["encroachment", "N", gettext("Defenders within 30 yards")],
    ["delay", "D", gettext("Delay of game")],
  ];
  const TIMER_LABELS = {
    injured_player: gettext("Injured player (10 min)"), horse_timeout: gettext("Horse time-out (5 min)"),
    courtesy_change: gettext("Courtesy change (1 min)"), broken_tack: gettext("Broken tack (5 min)"),
    interval: gettext("Interval"), halftime: gettext("Half-time"),
    goal_return: gettext("Back to the centre after the goal (25 s)"), knock_in: gettext("Knock-in: hit within 10 s of “Play”"),
    foul_shot: gettext("Foul shot: hit within 20 s of “Play”"), count: gettext("Umpire's count (8 s)"),
    to_play: gettext("To play the ball (5 s)"),
  };
  const STATUS_LABELS = {
    scheduled: gettext("Not started"), in_play: gettext("In play"), stopped: gettext("Stopped"), interval: gettext("Interval"),
    tied: gettext("Tied: waiting for the committee"), shootout: gettext("Shootout"), suspended: gettext("Suspended"),
    final: gettext("Final"), abandoned: gettext("Abandoned"),
  };
  const RESTART_KINDS = {
    throw_in: gettext("Throw-in"), knock_in: gettext("Knock-in"), penalty: gettext("Penalty"), free_hit: gettext("Free hit"),
    possession_play: gettext("Possession play"),
  };
  const labelOf = (list, value) => (list.find((row) => row[0] === value) || [value, "", value])[2];

  // --- Small helpers --------------------------------------------------------------------------
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") node.textContent = v;
      else if (k === "class") node.className = v;
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of [].concat(children || [])) if (child) node.append(child);
    return node;
  }

  /* Write only a change: the board and the timers are redrawn on every animation frame. */
  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
    return node;
  }

  function pageData() {
    return JSON.parse(document.getElementById("officials-page").textContent);
  }
  /* What every officials' screen starts from: the page's data, its two teams, its field diagram. */
  function screenParts() {
    const page = pageData();
    const teams = new Teams(page.config);
    return {page, teams, field: new FieldView(document.getElementById("field"), teams, page.config.field)};
  }


  const other = (team) => (team === "home" ? "away" : "home");

  /* Black or white text on a team colour (WCAG relative luminance). */
  function inkOn(hex) {
    const m = /^#?([0-9a-f]{6})$/i.exec(hex || "");
    if (!m) return "#000";
    const n = parseInt(m[1], 16);
    const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
    const l = 0.2126 * lin((n >> 16) & 255) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255);
    return l > 0.4 ? "#000" : "#fff";
  }

  function paintTeam(node, color) {
    node.style.setProperty("--team", color);
    node.style.setProperty("--team-ink", inkOn(color));
  }

  const formatClock = window.PoloLive.formatClock;  // m:ss, the same on every screen

  function formatCountdown(seconds) {  // 10:00 … 0:01, then 0:00 (never negative)
    return formatClock(Math.max(0, Math.ceil(seconds - 1e-6)));
  }

  function formatScore(n) {
    return Number.isInteger(n) ? String(n) : String(n).replace(".5", "½");
  }

  function toEpoch(value) {
    if (typeof value === "number") return value;
    if (typeof value === "string") { const t = Date.parse(value); return isNaN(t) ? null : t / 1000; }
    return null;
  }

  class Teams {
    constructor(config) { this.config = config; }
    name(team) { return (this.config[team] || {}).name || team; }
    color(team) { return (this.config[team] || {}).color || "#888"; }
    players(team) { return (this.config[team] || {}).players || []; }
    player(team, number) {
      const p = this.players(team).find((pl) => pl.number === number);
      return p ? p.name : "";
    }
    /* "#2 Poroto Ruiz", or "#2" when the roster has no name for that number. */
    numbered(team, number) {
      const name = this.player(team, number);
      return name ? fmt(gettext("#%(number)s %(name)s"), {number: number, name: name}) : "#" + number;
    }
    /* "La Dolfina Blue #2 Poroto Ruiz": the team, the number and the player's name. */
    who(team, number) {
      if (!team) return "";
      if (number == null) return this.name(team);
      const name = this.player(team, number);
      return fmt(gettext("%(team)s #%(number)s"), {team: this.name(team), number: number}) + (name ? " " + name : "");
    }
  }

  /* One line per event, for the log and the summaries. */
  function describeEvent(teams, ev) {
    const e = ev.event || ev;
    const who = (t, n) => teams.who(t, n);
    switch (e.type) {
      case "play": return gettext("Play");
      case "goal": {
        let text = fmt(gettext("Goal — %(team)s"), {team: teams.name(e.team)});
        if (e.number != null) text += " · " + (e.own_goal ? who(other(e.team), e.number) : teams.numbered(e.team, e.number));
        if (e.own_goal) text += " · " + gettext("own goal");
        if (e.from_penalty) text += " · " + gettext("from a penalty");
        return text;
      }
      case "foul": {
        let text = fmt(gettext("Foul by %(who)s — Penalty %(penalty)s"), {who: who(e.against, e.number), penalty: PENALTY_NAMES[e.penalty] || e.penalty});
        if (e.card) text += " · " + (e.card === "red" ? gettext("red card") : gettext("yellow card"));
        if (e.advantage) text += " · " + gettext("advantage");
        if (e.goal_scored) text += " · " + gettext("goal at the whistle");
        return text;
      }
      case "ball_out":
        return fmt(e.line === "end" ? gettext("Ball over the end line — last hit by %(team)s") : gettext("Ball over the side — last hit by %(team)s"),
                   {team: teams.name(e.last_hit_by)}) + (e.deflected_off && e.deflected_off !== "none" ? " · " + labelOf(DEFLECTIONS, e.deflected_off) : "");
      case "whistle": {
        let text = fmt(gettext("Whistle: %(reason)s"), {reason: labelOf(WHISTLE_REASONS, e.reason)});
        if (e.team) text += " — " + who(e.team, e.number);
        if (e.horse) text += " · " + e.horse;
        return text;
      }
      case "restart_violation":
        return fmt(gettext("Restart violation by %(team)s: %(kind)s"), {team: teams.name(e.team), kind: labelOf(VIOLATIONS, e.kind)});
      case "horn": return e.kind === "final" ? gettext("Horn: end of the chukker") : gettext("Horn: seven minutes");
      case "clock_set": return fmt(gettext("Clock set to %(clock)s"), {clock: formatClock(e.clock || 0)}) + (e.reason ? " — " + e.reason : "");
      case "card": return fmt(e.color === "red" ? gettext("Red card: %(who)s") : gettext("Yellow card: %(who)s"), {who: who(e.team, e.number)});
      case "mount": return fmt(gettext("%(who)s mounts %(horse)s"), {who: who(e.team, e.number), horse: e.horse || "?"});
      case "substitution":
        return fmt(gettext("Substitution: %(name)s for %(who)s"), {name: (e.player || {}).name || "?", who: who(e.team, e.out)});
      case "shootout_attempt":
        return fmt(e.scored ? gettext("Shootout: %(who)s scores") : gettext("Shootout: %(who)s misses"), {who: who(e.team, e.number)});
      case "forfeit": return fmt(gettext("Forfeit by %(team)s"), {team: teams.name(e.team)}) + (e.reason ? " — " + e.reason : "");
      case "void": return fmt(gettext("Void: %(reason)s"), {reason: e.reason || ""});
      case "hold":
        return fmt(gettext("Clock held at %(clock)s: %(what)s being logged"),
                   {clock: formatClock(e.clock || 0), what: HOLD_KINDS[e.kind] || e.kind || ""});
      case "release": return gettext("Entry abandoned: the clock runs on as if it had not stopped");
      default:
        return (EVENT_LABELS[e.type] || e.type) + (e.reason ? " — " + e.reason : "");
    }
  }

  /* "Ulises Umpire (umpire)": who logged an event (``event.by``, stored by the server). */
  function describeAuthor(by) {
    if (!by || !by.name) return "";
    const role = ROLE_LABELS[by.role];
    return role ? fmt(gettext("%(name)s (%(role)s)"), {name: by.name, role: role}) : by.name;
  }

  const isHoldEntry = (entry) => entry.type === "hold" || entry.type === "release";

  /* May someone of ``role`` ("scorer", "umpire", "committee") void this log entry? The server's
   * rule (matches/permissions.py can_void), so that no Void is offered that would be refused. */
  function canVoid(role, entry) {
    if (!role || !entry || entry.type === "void" || isHoldEntry(entry)) return false;
    if (role === "committee") return true;
    const by = (entry.event || {}).by;
    if ((by && by.role === "committee") || COMMITTEE_ONLY_EVENTS.includes(entry.type)) return false;
    if (COMMITTEE_OR_UMPIRE_EVENTS.includes(entry.type)) return role === "umpire";
    return true;
  }

  /* Why no game event of this type may be logged now (a finished, abandoned or suspended match),
   * or null. ``type`` null: why the game's events are closed at all. */
  function closedReason(state, type) {
    const status = state && state.status;
    if (!["final", "abandoned", "suspended"].includes(status)) return null;
    if (type && !GAME_EVENTS.includes(type)) return null;
    if (status === "suspended") {
      if (type === "mount" || type === "substitution") return null;
      return gettext("The game is suspended: no whistle, foul or card until it is resumed.");
    }
    return status === "final" ? gettext("The match is over: no whistle, foul or card.")
                              : gettext("The match was abandoned: no whistle, foul or card.");
  }

  function restartSummary(teams, restart) {
    if (!restart) return "";
    let text = RESTART_KINDS[restart.kind] || restart.kind;
    if (restart.kind === "penalty" && restart.penalty) text = fmt(gettext("Penalty %(penalty)s"), {penalty: PENALTY_NAMES[restart.penalty]});
    if (restart.team) text += " — " + teams.name(restart.team);
    return text;
  }

  // --- The field diagram ----------------------------------------------------------------------
  /* The shared diagram (field.js, PoloField: lines, posts, direction of play, the restart's spot)
   * drawn in a nested <svg>, with two layers of ours on top: the restart's label and the cursor
   * that gives a position. Both use the contract's frame in yards: svg x = field x (north end line
   * on the left), svg y = field y (west side on top). */
  const MARGIN = 14;  // field.js's margin round the field

  class FieldView {
    constructor(svgEl, teams, field, opts) {
      this.svg = svgEl;
      this.teams = teams;
      this.L = field.length || 300;
      this.W = field.width || 160;
      this.opts = opts || {};
      this.pick = null;  // {snap(pos) -> pos} while a position is being asked for
      this.defends = null;
      this.restart = null;
      const box = [-MARGIN, -MARGIN, this.L + 2 * MARGIN, this.W + 2 * MARGIN];
      svgEl.setAttribute("viewBox", box.join(" "));
      this.diagram = svg("svg", {x: box[0], y: box[1], width: box[2], height: box[3], class: "diagram"});
      this.restartLayer = svg("g", {class: "restart-layer"});
      this.cursorLayer = svg("g", {class: "cursor-layer"});
      svgEl.append(this.diagram, this.restartLayer, this.cursorLayer);
      svgEl.addEventListener("click", (e) => this.clicked(e));
      this.draw();
    }

    draw() {
      const t = this.teams;
      window.PoloField.render(this.diagram, {
        length: this.L, width: this.W, defends: this.defends || undefined, restart: this.restart,
        colors: {home: t.color("home"), away: t.color("away")}, names: {home: t.name("home"), away: t.name("away")},
      });
    }

    setDefends(defends) {
      if (JSON.stringify(defends) === JSON.stringify(this.defends)) return;
      this.defends = defends;
      this.draw();
    }

    setRestart(restart) {
      this.restart = restart || null;
      this.draw();
      this.restartLayer.replaceChildren();
      if (!restart || !restart.spot) return;
      const {x, y} = restart.spot;
      const g = svg("g", {class: "restart-marker", "data-x": x, "data-y": y, "data-kind": restart.kind, "data-team": restart.team || ""});
      const t = svg("text", {x: Math.min(Math.max(x, 45), this.L - 45), y: y > this.W / 2 ? y - 13 : y + 19, class: "restart-label"});
      t.textContent = restartSummary(this.teams, restart);
      g.append(t);
      this.restartLayer.append(g);
    }

    startPick(snap, start) {
      this.pick = {snap: snap || ((p) => p)};
      this.svg.classList.add("picking");
      this.setCursor(this.pick.snap(start || {x: this.L / 2, y: this.W / 2}));
    }

    stopPick() {
      this.pick = null;
      this.svg.classList.remove("picking");
      this.cursor = null;
      this.cursorLayer.replaceChildren();
    }

    setCursor(pos) {
      if (!this.pick) return;
      pos = this.pick.snap(this.clamp(pos));
      this.cursor = {x: Math.round(pos.x * 10) / 10, y: Math.round(pos.y * 10) / 10};
      const {x, y} = this.cursor;
      this.cursorLayer.replaceChildren(
        svg("line", {x1: x - 8, y1: y, x2: x + 8, y2: y, class: "cursor-line"}),
        svg("line", {x1: x, y1: y - 8, x2: x, y2: y + 8, class: "cursor-line"}),
        svg("circle", {cx: x, cy: y, r: 3, class: "cursor-dot", "data-x": x, "data-y": y}),
      );
    }

    moveCursor(dx, dy) {
      if (this.cursor) this.setCursor({x: this.cursor.x + dx, y: this.cursor.y + dy});
    }

    clamp(p) {
      return {x: Math.min(this.L, Math.max(0, p.x)), y: Math.min(this.W, Math.max(0, p.y))};
    }

    toYards(evt) {
      const pt = this.svg.createSVGPoint();
      pt.x = evt.clientX;
      pt.y = evt.clientY;
      const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
      return {x: p.x, y: p.y};
    }

    clicked(evt) {
      if (!this.pick) return;
      this.setCursor(this.toYards(evt));
      if (this.opts.onPick) this.opts.onPick(this.cursor);
    }

    /* Snapping: a ball out crosses a line; every other position is on the field. */
    snapTo(line) {
      const {L, W} = this;
      if (line === "end") return (p) => ({x: p.x < L / 2 ? 0 : L, y: p.y});
      if (line === "side") return (p) => ({x: p.x, y: p.y < W / 2 ? 0 : W});
      return (p) => p;
    }
  }

  // --- The command wizard ---------------------------------------------------------------------
  /* Step builders. Every step names the event field it fills. */
  const S = {
    team: (field, prompt, extra) => Object.assign({kind: "team", field, prompt}, extra),
    player: (field, team, prompt, extra) => Object.assign({kind: "player", field, team, prompt}, extra),
    choice: (field, prompt, options, extra) => Object.assign({kind: "choice", field, prompt, options}, extra),
    position: (field, prompt, extra) => Object.assign({kind: "position", field, prompt}, extra),
    input: (field, prompt, extra) => Object.assign({kind: "input", field, prompt}, extra),
    flags: (flags, extra) => Object.assign({kind: "flags", field: "_flags", prompt: gettext("Anything else? (Enter: log it)"), flags}, extra),
  };
  const YES_NO = [[true, "Y", gettext("Yes")], [false, "N", gettext("No")]];
  const PLAYER_REASONS = ["injured_player", "player_fall", "injured_horse", "horse_fall", "horse_timeout",
                          "courtesy_change", "broken_tack", "lost_helmet"];
  const HORSE_REASONS = ["injured_horse", "horse_fall", "horse_timeout", "courtesy_change", "broken_tack"];

  function parseClock(text) {
    const m = /^\s*(\d+)(?::(\d{1,2}(?:\.\d+)?))?\s*$/.exec(text);
    if (!m) return undefined;
    return m[2] !== undefined ? Number(m[1]) * 60 + Number(m[2]) : Number(m[1]);
  }

  function parseNumbers(text) {
    const list = String(text).split(/[\s,]+/).filter(Boolean).map(Number);
    return list.length && list.every((n) => Number.isInteger(n) && n >= 1 && n <= 4) ? list : undefined;
  }

  /* Every event type of the contract, as a sequence of steps. */
  const COMMANDS = {
    play: {steps: []},
    goal: {steps: [
      S.team("team", gettext("Which team scored?")),
      // The flags first (own goal: the hitter is listed from the other team), then the hitter logs it.
      S.player("number", (v) => (v.own_goal ? other(v.team) : v.team), gettext("Who hit it? (Enter: not known)"), {
        optional: true,
        flags: [{field: "from_penalty", key: "P", label: gettext("From a penalty")},
                {field: "own_goal", key: "O", label: gettext("Own goal (an opponent hit it)")}],
      }),
    ]},
    foul: {steps: [
      S.team("against", gettext("Which team fouled?")),
      S.player("number", (v) => v.against, gettext("Which player fouled?")),
      S.choice("penalty", gettext("Which penalty?"), PENALTIES),
      S.choice("from_spot", gettext("From the spot of the foul? (the fouled team's choice)"), YES_NO,
               {when: (v) => v.penalty === "2", default: false}),
      S.position("spot", gettext("Where was the foul? Click the field, or move with the arrows and press Enter."),
                 {optional: (v) => !(v.penalty === "5a" || v.from_spot)}),
      S.flags([{field: "card", key: "C", label: gettext("Card"), values: ["yellow", "red"], labels: [gettext("yellow"), gettext("red")]},
               {field: "advantage", key: "V", label: gettext("Advantage (play goes on)")},
               {field: "goal_scored", key: "G", label: gettext("A goal went in at the whistle")}]),
    ]},
    ball_out: {steps: [
      S.choice("line", gettext("Over which line?"), [["side", "S", gettext("Side line")], ["end", "E", gettext("End line")]]),
      S.position("at", gettext("Where did it cross? Click the field, or use the arrows (N/S/W/E: the line) and Enter."),
                 {snap: (v) => v.line}),
      S.team("last_hit_by", gettext("Who hit it last?")),
      S.choice("deflected_off", gettext("Deflected off? (Enter: nothing)"), DEFLECTIONS, {default: "none"}),
    ]},
    whistle: {steps: [
      S.choice("reason", gettext("Why did play stop?"), WHISTLE_REASONS),
      S.position("ball", gettext("Where was the ball? Click the field, or use the arrows and Enter.")),
      S.team("team", gettext("Which team's player or horse? (Enter: none)"), {optional: true, when: (v) => PLAYER_REASONS.includes(v.reason)}),
      S.player("number", (v) => v.team, gettext("Which player?"), {when: (v) => !!v.team}),
      S.input("horse", gettext("Which horse? (Enter: not named)"), {optional: true, when: (v) => !!v.team && HORSE_REASONS.includes(v.reason)}),
      S.flags([{field: "possession", key: "P", label: gettext("Possession"), values: ["home", "away"], team: true},
               {field: "fair_play", key: "F", label: gettext("Fair play (Rule 22.h)")},
               {field: "unconscious", key: "U", label: gettext("Unconscious"), when: (v) => ["injured_player", "player_fall"].includes(v.reason)},
               {field: "visibly_injured", key: "I", label: gettext("Visibly injured"), when: (v) => ["injured_player", "player_fall"].includes(v.reason)},
               {field: "same_injury", key: "S", label: gettext("Same injury again"), when: (v) => v.reason === "injured_player"},
               {field: "contact", key: "C", label: gettext("Broken by contact with another horse"), when: (v) => v.reason === "broken_tack"},
               {field: "first_hit", key: "H", label: gettext("Broke on the first hit"), when: (v) => v.reason === "damaged_ball"}]),
    ]},
    restart_violation: {steps: [
      S.choice("kind", gettext("Which violation?"), VIOLATIONS),
      S.team("team", gettext("Which team committed it?")),
    ]},
    horn: {steps: [
      S.choice("kind", gettext("Which horn?"), [["seven", "S", gettext("Seven minutes")], ["final", "F", gettext("End of the chukker")]]),
      S.position("ball", gettext("Where was the ball? (Enter: skip)"), {optional: true}),
    ]},
    clock_set: {steps: [
      S.input("clock", gettext("Official time (m:ss or seconds)"), {parse: parseClock}),
      S.input("reason", gettext("Why?")),
    ]},
    card: {steps: [
      S.team("team", gettext("Which team?")),
      S.player("number", (v) => v.team, gettext("Which player?")),
      S.choice("color", gettext("Which card?"), [["yellow", "Y", gettext("Yellow")], ["red", "R", gettext("Red")]]),
    ]},
    mount: {steps: [
      S.team("team", gettext("Which team?")),
      S.player("number", (v) => v.team, gettext("Which player?")),
      S.input("horse", gettext("Which horse?")),
    ]},
    substitution: {steps: [
      S.team("team", gettext("Which team?")),
      S.player("out", (v) => v.team, gettext("Which player goes out?")),
      S.input("player_name", gettext("The new player's name")),
      S.input("player_handicap", gettext("The new player's handicap"), {parse: (t) => (/^-?\d+$/.test(t.trim()) ? Number(t) : undefined)}),
    ]},
    suspend: {steps: [S.input("reason", gettext("Why?"))]},
    resume: {steps: [S.input("reason", gettext("Why?"), {optional: true})]},
    abandon: {steps: [S.input("reason", gettext("Why?"))]},
    overtime: {steps: []},
    shootout_start: {steps: [
      S.choice("format", gettext("Which shootout?"), [["team", "T", gettext("Team")], ["single", "S", gettext("Single player")]]),
      S.team("first", gettext("Which team won the lot (hits first)?")),
      S.input("order_home", gettext("Home hitters, in order (e.g. 1 2 3 4)"), {parse: parseNumbers}),
      S.input("order_away", gettext("Away hitters, in order (e.g. 1 2 3 4)"), {parse: parseNumbers}),
    ]},
    shootout_attempt: {steps: [
      S.team("team", gettext("Which team?")),
      S.player("number", (v) => v.team, gettext("Which player?")),
      S.choice("scored", gettext("Did it score?"), YES_NO),
    ]},
    forfeit: {steps: [
      S.team("team", gettext("Which team forfeits?")),
      S.input("reason", gettext("Why?")),
    ]},
    void: {steps: [
      // Z presets the last event; "#" asks for its number (the "#n" of the log).
      S.input("target", gettext("Void which event? Its number in the log (e.g. 12)"),
              {parse: parseSeq, resolve: "void_target", inputmode: "numeric"}),
      S.input("reason", gettext("Why void it? (# first: another event, by its number)"), {hashTo: "target"}),
    ]},
  };

  function parseSeq(text) {
    const m = /^\s*#?\s*(\d+)\s*$/.exec(text);
    return m ? Number(m[1]) : undefined;
  }

  /* The event the answers make: transport-only answers folded into the contract's shape. */
  function buildEvent(type, v) {
    const ev = {type: type};
    for (const [k, val] of Object.entries(v)) {
      if (val === undefined || val === null || val === false || k.startsWith("_")) continue;
      ev[k] = val;
    }
    if (type === "substitution") {
      ev.player = {name: ev.player_name, handicap: ev.player_handicap};
      delete ev.player_name; delete ev.player_handicap;
    }
    if (type === "shootout_start") {
      ev.order = {home: ev.order_home, away: ev.order_away};
      delete ev.order_home; delete ev.order_away;
    }
    if (type === "shootout_attempt") ev.scored = v.scored === true;
    return ev;
  }

  const val = (x, v) => (typeof x === "function" ? x(v) : x);

  class Wizard {
    /* opts: {root (panel element), teams, field (FieldView), submit(event, entry), onIdle(), big (touch),
     *        begin(type) -> entry, abandon(entry): the entry's first key and its abandonment
     *        (Screen.beginEntry/abandonEntry: the clock held from the first key of a stoppage),
     *        resolve(name, value, values) -> {value, note} | {error}: an answer checked by the page} */
    constructor(opts) {
      this.opts = opts;
      this.teams = opts.teams;
      this.field = opts.field;
      this.type = null;
      this.field.opts.onPick = (pos) => this.answer(pos);
      this.render();
    }

    get active() { return this.type !== null; }

    /* Begin a command; ``presets`` answer steps in advance, ``note`` says what it is about. */
    start(type, presets, note) {
      if (!COMMANDS[type]) return;
      if (this.active) this.cancel();
      this.entry = this.opts.begin ? this.opts.begin(type) : null;  // first, at the key: the clock's time now
      this.type = type;
      this.note = note || "";
      this.values = Object.assign({}, presets || {});
      this.preset = new Set(Object.keys(presets || {}));
      this.history = [];
      this.index = -1;
      this.advance();
    }

    cancel() {
      const entry = this.entry;
      this.entry = null;
      this.type = null;
      this.field.stopPick();
      this.render();
      if (entry && this.opts.abandon) this.opts.abandon(entry);
      if (this.opts.onIdle) this.opts.onIdle();
    }

    /* "#" typed first in the reason of a void: name another event instead of the preset one. */
    retarget(field) {
      const i = this.steps().findIndex((st) => st.field === field);
      if (i < 0) return;
      this.preset.delete(field);
      delete this.values[field];
      this.note = "";
      this.history = [];
      this.index = i - 1;
      this.advance();
    }

    steps() { return COMMANDS[this.type].steps; }

    step() { return this.steps()[this.index]; }

    /* Move to the next step that applies (and is not preset); at the end, log the event. */
    advance() {
      const steps = this.steps();
      let i = this.index + 1;
      while (i < steps.length && (this.preset.has(steps[i].field) || (steps[i].when && !steps[i].when(this.values)))) i++;
      this.field.stopPick();
      if (i >= steps.length) {
        const event = buildEvent(this.type, this.values);
        const entry = this.entry;
        this.entry = null;
        this.type = null;
        this.render();
        this.opts.submit(event, entry);
        if (this.opts.onIdle) this.opts.onIdle();
        return;
      }
      this.index = i;
      const step = steps[i];
      for (const f of step.flags || []) if (this.values[f.field] === undefined) this.values[f.field] = false;
      if (step.kind === "position") {
        const line = step.snap ? step.snap(this.values) : null;
        const start = this.values[step.field] || this.defaultPosition(line);
        this.field.startPick(this.field.snapTo(line), start);
        this.touched = false;
      }
      this.render();
    }

    defaultPosition(line) {
      const {L, W} = this.field;
      if (line === "end") return {x: 0, y: W / 2 + 20};
      if (line === "side") return {x: L / 2, y: 0};
      return {x: L / 2, y: W / 2};
    }

    answer(value) {
      const step = this.step();
      if (!step) return;
      this.history.push(this.index);
      this.values[step.field] = value;
      this.advance();
    }

    back() {
      if (!this.history.length) { this.cancel(); return; }
      const current = this.step();
      if (current.kind !== "flags") delete this.values[current.field];
      const previous = this.history.pop();
      delete this.values[this.steps()[previous].field];
      this.index = previous - 1;
      this.advance();
    }

    optional(step) { return !!val(step.optional, this.values); }

    skip() {
      const step = this.step();
      if (step && this.optional(step)) this.answer(undefined);
    }

    /* Keys: returns true when the key was used. */
    handleKey(e) {
      if (!this.active) return false;
      const step = this.step();
      const key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
      if (key === "Escape") { this.cancel(); return true; }
      if (step.kind === "input") return false;  // the text box has the keys (see renderInput)
      if (key === "Backspace") { this.back(); return true; }
      switch (step.kind) {
        case "team":
          if (key === "H") { this.answer("home"); return true; }
          if (key === "A") { this.answer("away"); return true; }
          if (key === "Enter" || key === "0") { this.skip(); return true; }
          return false;
        case "player": {
          const flag = this.flagsFor(step).find((f) => f.key === key);
          if (flag) { this.toggle(flag); return true; }
          const team = step.team(this.values);
          if (/^[1-4]$/.test(key) && this.teams.players(team).some((p) => p.number === Number(key))) { this.answer(Number(key)); return true; }
          if (key === "Enter" || key === "0") { this.skip(); return true; }
          return false;
        }
        case "choice": {
          const opt = step.options.find((o) => o[1] === key);
          if (opt) { this.answer(opt[0]); return true; }
          if (key === "Enter") {
            if (step.default !== undefined) this.answer(step.default); else this.skip();
            return true;
          }
          return false;
        }
        case "position": {
          const big = e.shiftKey ? 25 : 5;
          const moves = {ArrowLeft: [-big, 0], ArrowRight: [big, 0], ArrowUp: [0, -big], ArrowDown: [0, big]};
          if (moves[key]) { this.field.moveCursor(...moves[key]); this.touched = true; return true; }
          const {L, W} = this.field, c = this.field.cursor;
          const jumps = {N: {x: 0, y: c.y}, S: {x: L, y: c.y}, W: {x: c.x, y: 0}, E: {x: c.x, y: W}};
          if (jumps[key]) { this.field.setCursor(jumps[key]); this.touched = true; return true; }
          if (key === "Enter") {
            if (this.optional(step) && !this.touched) this.skip(); else this.answer(this.field.cursor);
            return true;
          }
          if (key === "0" && this.optional(step)) { this.skip(); return true; }
          return false;
        }
        case "flags": {
          const flag = this.flagsFor(step).find((f) => f.key === key);
          if (flag) { this.toggle(flag); return true; }
          if (key === "Enter") { this.answer(true); return true; }
          return false;
        }
      }
      return false;
    }

    flagsFor(step) { return (step.flags || []).filter((f) => !f.when || f.when(this.values)); }

    toggle(flag) {
      const cur = this.values[flag.field];
      if (flag.values) {  // cycle: off → values[0] → values[1] → … → off
        const i = flag.values.indexOf(cur);
        this.values[flag.field] = i + 1 < flag.values.length ? flag.values[i + 1] : false;
      } else {
        this.values[flag.field] = !cur;
      }
      this.render();
    }

    // --- Rendering (buttons for every answer: mouse and touch work as well as keys) ---------------
    crumbs() {
      const out = [EVENT_LABELS[this.type]];
      for (const step of this.steps()) {
        const v = this.values[step.field];
        if (v === undefined || v === null || step.kind === "flags" || step.resolve || step.field === this.step().field) continue;
        if (step.kind === "team") out.push(this.teams.name(v));
        else if (step.kind === "player") out.push("#" + v);
        else if (step.kind === "choice") out.push((step.options.find((o) => o[0] === v) || [0, 0, String(v)])[2]);
        else if (step.kind === "position") out.push(`(${Math.round(v.x)}, ${Math.round(v.y)})`);
        else out.push(String(v));
      }
      return out;
    }

    button(key, label, onClick, extra) {
      const b = el("button", Object.assign({type: "button", class: "opt"}, extra || {}),
                   [key ? el("kbd", {text: key}) : null, el("span", {text: label})]);
      b.addEventListener("click", onClick);
      return b;
    }

    render() {
      const root = this.opts.root;
      root.replaceChildren();
      root.dataset.active = this.active ? "true" : "false";
      if (!this.active) return;
      const step = this.step();
      root.dataset.type = this.type;
      root.dataset.step = step.field;
      root.append(el("div", {class: "cmd-crumbs"}, this.crumbs().map((c) => el("span", {text: c}))));
      if (this.note) root.append(el("div", {class: "cmd-note", text: this.note}));
      root.append(el("div", {class: "cmd-prompt", id: "cmd-prompt", text: step.prompt}));
      const opts = el("div", {class: "cmd-options", role: "group", "aria-labelledby": "cmd-prompt"});
      root.append(opts);
      const hints = [];
      switch (step.kind) {
        case "team":
          for (const [team, key] of [["home", "H"], ["away", "A"]]) {
            const b = this.button(key, this.teams.name(team), () => this.answer(team), {"data-team": team, class: "opt team-opt"});
            paintTeam(b, this.teams.color(team));
            opts.append(b);
          }
          break;
        case "player": {
          const team = step.team(this.values);
          for (const p of this.teams.players(team)) {
            const b = this.button(String(p.number), p.name, () => this.answer(p.number), {"data-team": team, "data-number": p.number, class: "opt team-opt"});
            paintTeam(b, this.teams.color(team));
            opts.append(b);
          }
          break;
        }
        case "choice":
          for (const [value, key, label] of step.options) {
            opts.append(this.button(key, label, () => this.answer(value), {"data-value": String(value), class: "opt" + (value === step.default ? " default" : "")}));
          }
          if (step.default !== undefined) hints.push(gettext("Enter: the default"));
          break;
        case "position":
          opts.append(this.button("↵", gettext("Use the marked spot"), () => this.answer(this.field.cursor), {"data-value": "cursor"}));
          hints.push(gettext("Arrows: move (Shift: faster)"));
          break;
        case "input":
          opts.append(this.renderInput(step));
          break;
        case "flags":
          opts.append(this.button("↵", gettext("Log it"), () => this.answer(true), {class: "opt primary", "data-value": "submit"}));
          break;
      }
      for (const f of this.flagsFor(step)) {  // a flags step's toggles, or a step's own (a goal's)
        const v = this.values[f.field];
        let text = f.label;
        if (f.values && v) text += ": " + (f.team ? this.teams.name(v) : f.labels[f.values.indexOf(v)]);
        opts.append(this.button(f.key, text, () => this.toggle(f), {"aria-pressed": v ? "true" : "false", "data-flag": f.field, class: "opt flag"}));
      }
      if (this.optional(step) && step.kind !== "input" && step.kind !== "flags") {
        opts.append(this.button(step.kind === "position" ? "0" : "↵", gettext("Skip"), () => this.skip(), {"data-value": "skip", class: "opt skip"}));
      }
      const actions = el("div", {class: "cmd-actions"});
      actions.append(this.button("⌫", gettext("Back"), () => this.back(), {class: "opt back"}));
      actions.append(this.button("Esc", gettext("Cancel"), () => this.cancel(), {class: "opt cancel"}));
      root.append(actions);
      if (hints.length) root.append(el("div", {class: "cmd-hint", text: hints.join(" · ")}));
      const input = root.querySelector(".cmd-input input");
      if (input) input.focus();  // now, so that the next key typed lands in it
    }

    renderInput(step) {
      const form = el("form", {class: "cmd-input"});
      const input = el("input", {type: "text", name: step.field, autocomplete: "off", "aria-label": step.prompt,
                                 inputmode: step.parse === parseClock ? "numeric" : step.inputmode || null});
      const error = el("span", {class: "cmd-error", role: "alert"});
      form.append(input, el("button", {type: "submit", class: "opt primary", text: gettext("OK")}), error);
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text) {
          if (this.optional(step)) this.answer(undefined);
          else error.textContent = gettext("Required.");
          return;
        }
        let value = step.parse ? step.parse(text) : text;
        if (value === undefined) { error.textContent = gettext("Not understood: check the format."); return; }
        if (step.resolve && this.opts.resolve) {
          const found = this.opts.resolve(step.resolve, value, this.values);
          if (found && found.error) { error.textContent = found.error; return; }
          if (found) { value = found.value; if (found.note) this.note = found.note; }
        }
        this.answer(value);
      });
      input.addEventListener("keydown", (e) => {
        if (e.key === "Escape") { e.preventDefault(); this.cancel(); }
        else if (e.key === "#" && step.hashTo && !input.value) { e.preventDefault(); e.stopPropagation(); this.retarget(step.hashTo); return; }
        else if (e.key === "Backspace" && !input.value && this.history.length) { e.preventDefault(); this.back(); }
        e.stopPropagation();
      });
      return form;
    }
  }

  // --- The log ----------------------------------------------------------------------------------
  class EventLog {
    constructor() { this.entries = []; this.bySeq = new Map(); this.voids = new Map(); }

    add(events) {
      let added = false;
      for (const ev of events) {
        if (ev.seq == null || this.bySeq.has(ev.seq)) continue;
        const entry = {seq: ev.seq, id: ev.id, type: ev.type, event: ev.event || {}, received_at: toEpoch(ev.received_at)};
        this.bySeq.set(ev.seq, entry);
        this.entries.push(entry);
        if (entry.type === "void" && entry.event.target) this.voids.set(entry.event.target, entry);
        added = true;
      }
      if (added) this.entries.sort((a, b) => a.seq - b.seq);
      return added;
    }

    voidOf(entry) { return this.voids.get(entry.id) || null; }

    /* The log as the officials list it, newest first: the clock holds of entries in progress
     * (hold/release) are the audit trail's, not the match's, and are left out. */
    newestFirst() { return this.entries.filter((e) => !isHoldEntry(e)).reverse(); }

    /* What "void last" voids: the newest event that still counts (not a void, not voided, not a hold). */
    lastVoidable() {
      for (let i = this.entries.length - 1; i >= 0; i--) {
        const e = this.entries[i];
        if (e.type !== "void" && !isHoldEntry(e) && !this.voids.has(e.id)) return e;
      }
      return null;
    }

    counting() { return this.entries.filter((e) => e.type !== "void" && !isHoldEntry(e) && !this.voids.has(e.id)); }

    get lastSeq() { return this.entries.length ? this.entries[this.entries.length - 1].seq : 0; }
  }

  /* One line of the log. ``onVoid(entry)``: a Void button, when ``mayVoid(entry)`` (default: yes).
   * ``viewer``: the role of who looks, so that an event by another role says who logged it. */
  function renderLogEntry(teams, log, entry, onVoid, mayVoid, viewer) {
    const voided = log.voidOf(entry);
    const clock = entry.event.clock != null ? formatClock(entry.event.clock) : "";
    const by = entry.event.by;
    const li = el("li", {class: "log-entry" + (voided ? " voided" : "") + (entry.type === "void" ? " is-void" : ""),
                          "data-seq": entry.seq, "data-type": entry.type, "data-id": entry.id,
                          "data-by": by && by.role ? by.role : null});
    const text = el("span", {class: "log-text", text: describeEvent(teams, entry)});
    if (by && by.name && (by.role !== viewer || by.role === "committee")) text.append(" ", el("small", {class: "log-by", text: describeAuthor(by)}));
    li.append(el("span", {class: "log-seq", text: "#" + entry.seq}), el("span", {class: "log-clock", text: clock}), text);
    if (voided) li.append(el("span", {class: "log-voided", text: fmt(gettext("voided: %(reason)s"), {reason: voided.event.reason || ""})}));
    else if (entry.type !== "void" && onVoid && (!mayVoid || mayVoid(entry))) {
      const b = el("button", {type: "button", class: "log-void", text: gettext("Void"), "aria-label": fmt(gettext("Void event #%(seq)s"), {seq: entry.seq})});
      b.addEventListener("click", () => onVoid(entry));
      li.append(b);
    }
    return li;
  }

  // --- Timers -----------------------------------------------------------------------------------
  /* Restart timers the state does not carry, from local timestamps (server time):
   *  - knock-in: 10 s from the "Play" that takes a knock-in (Rule 22.a);
   *  - foul shot: 20 s from the "Play" that takes a penalty (Rule 22.b);
   *  - the umpire's 8-second count (a free hit or possession play dropped by the umpire,
   *    Rules 22.f, 22.h: "the Umpire shall count 8 seconds and drop a ball … and a member of the
   *    team awarded possession shall have 5 seconds to play the ball"): the count runs from the
   *    stoppage that awards it until the ball is dropped — "Play" ends it — and the 5 s to play
   *    the ball run from that "Play";
   *  - back to the centre: 25 s from a goal (Rule 22.e(1)), until the throw-in.
   * They end with the next event of the game (the restart was taken, the whistle went, a void —
   * of the event that started them or another), at the end of the period or the game (a horn, an
   * interval, final, suspended: the state says so), and never with a card, a horse change, a
   * clock set or an official's entry in progress (hold/release). A timer that runs out stays on
   * screen, in red, until then or until dismissed. They are kept in localStorage with the
   * sequence number of the event that started them, so a reload (or a new tab after a crash)
   * shows them still running; the log, once loaded, says whether that event is still the last. */
  const TIMER_ENDING_EVENTS = ["play", "goal", "foul", "ball_out", "whistle", "restart_violation", "void"];
  const PLAYING = ["in_play", "stopped"];

  class RestartTimers {
    constructor(storageKey) {
      this.key = storageKey;
      this.timers = [];
      this.seq = null;  // the event that started them
      this.id = null;
      try {
        const saved = JSON.parse(window.localStorage.getItem(this.key) || "null");
        if (saved && Array.isArray(saved.timers)) { this.timers = saved.timers; this.seq = saved.seq; this.id = saved.id || null; }
      } catch (e) { /* storage unavailable or garbled: start without */ }
    }

    save() {
      try {
        if (this.timers.length) window.localStorage.setItem(this.key, JSON.stringify({seq: this.seq, id: this.id, timers: this.timers}));
        else window.localStorage.removeItem(this.key);
      } catch (e) { /* storage unavailable: the timers still run on this page */ }
    }

    clear() {
      if (!this.timers.length && this.seq == null) return;
      this.timers = [];
      this.seq = null;
      this.id = null;
      this.save();
    }

    /* After a reload: saved timers hold while their event is the newest that ends timers, and
     * not voided; the period or the game over ends them. */
    check(log, state) {
      if (state && !PLAYING.includes(state.status)) { this.clear(); return; }
      if (this.seq == null) return;
      const newest = log.entries.filter((e) => TIMER_ENDING_EVENTS.includes(e.type)).pop();
      const started = this.id ? log.entries.find((e) => e.id === this.id) : null;
      if ((newest && newest.seq > this.seq) || (started && log.voidOf(started))) this.clear();
    }

    observe(previous, state, events, fallbackNow) {
      const ending = events.filter((ev) => TIMER_ENDING_EVENTS.includes(ev.type));
      ending.forEach((ev, i) => {
        const at = toEpoch(ev.received_at) || fallbackNow;
        // Several events at once: only the first knows the restart it took.
        const restart = i === 0 && previous ? previous.restart : null;
        this.timers = [];
        this.seq = ev.seq;
        this.id = ev.id;
        if (ev.type === "play" && restart) {
          if (restart.kind === "knock_in") this.timers.push({kind: "knock_in", seconds: 10, started_at: at});
          else if (restart.kind === "penalty") this.timers.push({kind: "foul_shot", seconds: 20, started_at: at});
          if (restart.count_seconds && restart.hit_within_seconds) {
            this.timers.push({kind: "to_play", seconds: restart.hit_within_seconds, started_at: at});
          }
        } else if (ev.type === "goal" && state && state.restart && state.restart.kind === "throw_in") {
          this.timers.push({kind: "goal_return", seconds: 25, started_at: at});
        } else if (ev.type !== "play" && i === ending.length - 1 && state && state.status === "stopped" &&
                   state.restart && state.restart.count_seconds) {
          this.timers.push({kind: "count", seconds: state.restart.count_seconds, started_at: at});
        }
      });
      if (state && !PLAYING.includes(state.status)) { this.timers = []; this.seq = null; this.id = null; }
      this.save();
    }

    dismiss() { this.clear(); }
  }

  /* Every timer to show now: the state's (stoppages, interval) and the local restart ones (none
   * once the period or the game is over). */
  function allTimers(state, restartTimers, now) {
    const list = [];
    for (const t of (state && state.timers) || []) list.push(Object.assign({source: "state"}, t));
    if (state && state.interval && state.interval.started_at != null) list.push(Object.assign({source: "state"}, state.interval));
    const playing = !state || PLAYING.includes(state.status);
    for (const t of playing ? restartTimers.timers : []) {
      if (t.started_at > now) continue;  // not yet begun
      list.push(Object.assign({source: "local"}, t));
    }
    return list.map((t) => {
      const remaining = t.started_at != null ? t.seconds - (now - t.started_at) : t.seconds;
      return Object.assign(t, {remaining: remaining, expired: remaining <= 0});
    });
  }

  function renderTimers(ul, teams, timers) {
    const key = (t) => [t.kind, t.team || "", t.number || "", t.started_at || ""].join(":");
    const existing = new Map(Array.from(ul.children).map((li) => [li.dataset.key, li]));
    const keep = new Set();
    for (const t of timers) {
      const k = key(t);
      keep.add(k);
      let li = existing.get(k);
      if (!li) {
        let label = TIMER_LABELS[t.kind] || t.kind;
        if (t.team) label += " — " + teams.who(t.team, t.number);
        li = el("li", {class: "timer", "data-key": k, "data-kind": t.kind},
                [el("span", {class: "timer-label", text: label}), el("output", {class: "timer-left"})]);
        if (t.team) paintTeam(li, teams.color(t.team));
        ul.append(li);
      }
      setText(li.querySelector(".timer-left"), formatCountdown(t.remaining));
      if (li.dataset.expired !== String(t.expired)) {
        li.classList.toggle("expired", t.expired);
        li.dataset.expired = String(t.expired);
      }
    }
    for (const [k, li] of existing) if (!keep.has(k)) li.remove();
  }

  // --- Header: score, clock, connection ---------------------------------------------------------
  /* The official clock now: elapsed at the anchor plus the time since, never past the double horn. */
  function clockElapsed(state, now) {
    const c = (state && state.clock) || {};
    let e = c.elapsed || 0;
    if (c.running && c.anchor != null) e = Math.min(e + Math.max(0, now - c.anchor), Math.max(e, c.end_seconds || 450));
    return e;
  }

  function renderBoard(root, teams, state, now) {
    if (!state) return;
    for (const team of ["home", "away"]) {
      const out = root.querySelector(`[data-score="${team}"]`);
      if (out) setText(out, formatScore((state.score || {})[team] || 0));
    }
    const period = root.querySelector("[data-period]");
    if (period && state.period) {
      setText(period, state.period.kind === "overtime"
        ? fmt(gettext("Overtime %(n)s"), {n: state.period.number}) : fmt(gettext("Chukker %(n)s"), {n: state.period.number}));
    }
    const status = root.querySelector("[data-status-text]");
    const held = state.status === "in_play" && state.clock && state.clock.held;
    if (status && (status.dataset.value !== state.status || status.dataset.held !== String(!!held))) {
      status.textContent = held ? gettext("In play — clock held") : STATUS_LABELS[state.status] || state.status;
      status.dataset.value = state.status;
      status.dataset.held = String(!!held);
    }
    const clock = root.querySelector("[data-clock]");
    if (clock) {
      const e = clockElapsed(state, now);
      setText(clock, formatClock(e));
      const running = state.clock && state.clock.running ? "true" : "false";
      if (clock.dataset.running !== running) clock.dataset.running = running;
      const held = state.clock && state.clock.held ? "true" : "false";  // an entry in progress holds it
      if (clock.dataset.held !== held) clock.dataset.held = held;
      const extra = e >= ((state.clock || {}).regular_seconds || 420);
      if (clock.classList.contains("extra") !== extra) clock.classList.toggle("extra", extra);
    }
  }

  function renderConnection(node, status, queue) {
    const n = queue ? queue.length : 0;
    const offline = status !== "live" || (queue && queue.offline);
    const label = offline ? (status === "connecting" ? gettext("Connecting…") : gettext("Offline")) : gettext("Live");
    node.dataset.status = offline ? (status === "connecting" ? "connecting" : "offline") : "live";
    node.dataset.queued = String(n);
    node.textContent = n ? label + " · " + fmt(gettext("%(n)s queued"), {n: n}) : label;
  }

  function renderRejection(node, error) {
    node.replaceChildren();
    if (!error) { node.hidden = true; return; }
    node.hidden = false;
    node.dataset.code = error.code || "";
    if (error.rule) node.append(el("strong", {class: "rule", text: fmt(gettext("Rule %(rule)s"), {rule: error.rule})}), " ");
    node.append(el("span", {class: "message", text: error.message || error.code || gettext("The event was refused.")}));
  }

  function setupTeams(root, teams) {
    for (const team of ["home", "away"]) {
      for (const node of root.querySelectorAll(`[data-team-color="${team}"]`)) paintTeam(node, teams.color(team));
    }
  }


  // --- One officials' screen: state, live connection, offline queue ------------------------------
  /* The parts both screens share: the newest state (from the page, the socket or our own answers),
   * the event log, the offline queue with its conflict box, the board, the field's restart, the
   * timers, and the entries in progress. Elements by id: board, field, restart, timers, conn,
   * conflict, rejection, presence, closed.
   * opts: {page, teams, field, onState(state), onLog(log), onQueue(queue, log)}
   *
   * Entries and the clock (issue 9). The first key of a stoppage (goal, foul, ball out, whistle,
   * restart violation) is the moment play stopped: ``beginEntry`` reads the clock then, stops it on
   * this screen at once and, while the ball is in play, queues a "hold" (no expected_seq, refusals
   * quiet) so that every screen stops it too. The finished entry (``finishEntry``) carries that
   * time (``clock``), the hold it completes (``hold``) and, as ``expected_seq``, the log position
   * when it was begun — the hold's own when the server took it — so an entry overtaken by another
   * official's event is never refused silently: the conflict box shows what arrived and offers to
   * keep the entry on the new state (when the server says it is valid there) or to drop it. An
   * entry abandoned (``abandonEntry``: Esc, Cancel) releases its hold: the clock runs on as if it
   * had never stopped. The holds this screen made are remembered (localStorage) so that they are
   * not shown as someone else's, and so that one whose entry was refused, or whose stoppage was
   * voided (the hold is back, the clock held again), can be completed by the next entry or
   * released. */
  const HARMLESS_MEANWHILE = (e) => isHoldEntry(e) || (e.type === "horn" && (e.event || {}).kind === "seven");

  class Screen {
    constructor(opts) {
      const page = opts.page, matchId = page.match_id;
      this.opts = opts;
      this.page = page;
      this.matchId = matchId;
      this.role = page.role;
      this.teams = opts.teams;
      this.field = opts.field;
      this.state = null;
      this.lastSeq = 0;
      this.liveStatus = "connecting";
      this.log = new EventLog();
      this.restartTimers = new RestartTimers(`polo-timers:${matchId}`);
      this.$ = (id) => document.getElementById(id);
      this.holdsKey = `polo-holds:${matchId}:${page.user}:${page.screen}`;
      // hold id -> {id, kind, stamp, stamp_at, phase, first, seq}; phase: "sent" (on its way), "held"
      // (the server has it; the entry is being typed or sent), "refused" (the server did not take it),
      // "orphan" (its entry was refused or lost), "released" (abandoned), "done" (completed).
      this.own = this.loadOwn();
      this.queue = window.PoloOfflineQueue.create({
        key: `polo-queue:${matchId}:${page.user}:${page.screen}`,  // one queue per screen: two tabs of it share it
        send: (body) => window.PoloLive.api(`/api/matches/${matchId}/events`, {method: "POST", body}),
        lastSeq: () => this.lastSeq,
        onChange: (q) => this.renderQueue(q),
        onAccepted: (item, data) => {
          if (!item.quiet) this.refuse(null);
          this.accepted(item, data);
          this.showState(data.state, data.last_seq);
        },
        onQuiet: (item, data) => { this.quietlyRefused(item); this.showState(data && data.state, data && data.last_seq); },
        onConflict: (item, data) => { this.showState(data.state, data.last_seq); this.settleConflict(item, data); },
        onRejected: (item, data, stopped) => {
          this.showState(data.state, data.last_seq);
          if (!stopped) { this.entryRefused(item); this.refuse(errorOf(data), item.event); }
        },
        onDiscard: (item) => this.discarded(item),
      });
      this.adoptOwn();
      this.live = window.PoloLive.connect({
        matchId,
        state: page.state, lastSeq: page.last_seq, serverTime: page.server_time,
        eventsSince: 0,  // the whole log, for the list
        periodSeconds: page.config.period_seconds,
        extraSeconds: page.config.extra_seconds,
        onState: (s, info) => {
          if (info.source === "update") this.restartTimers.observe(info.previous, s, info.events || [], this.now(this.live));
          this.showState(s, info.lastSeq);
        },
        onStatus: (status) => {
          this.liveStatus = status;
          this.renderQueue();
          if (status === "live") this.queue.flush();
        },
        onEvents: (events) => this.addEvents(events),
        onTick: (lv) => this.tick(lv),
      });
      setupTeams(document, this.teams);
      this.showState(page.state, page.last_seq);
      this.renderQueue();
      this.queue.flush();
    }

    now(lv) { return (lv || this.live).serverNow(); }

    addEvents(events) {
      if (!this.log.add(events)) return;
      this.restartTimers.check(this.log, this.state);
      if (this.opts.onLog) this.opts.onLog(this.log);
      if (this.queue && this.queue.blocked && this.queue.blocked.kind === "conflict") this.renderQueue();
    }

    logEvent(event) {
      this.refuse(null);
      // "Play" runs the clock from the key, not from when the request arrives (issue 9).
      if (event.type === "play" && event.keyed_at == null) event = Object.assign({keyed_at: this.now()}, event);
      this.queue.add(event);
    }

    // --- Entries in progress: the clock held from the first key ------------------------------------
    loadOwn() {
      try {
        const saved = JSON.parse(window.localStorage.getItem(this.holdsKey) || "{}");
        return new Map(Object.entries(saved && typeof saved === "object" ? saved : {}));
      } catch (e) { return new Map(); }
    }

    saveOwn() {
      try {
        if (this.own.size) window.localStorage.setItem(this.holdsKey, JSON.stringify(Object.fromEntries(this.own), (k, v) => (k === "entry" ? undefined : v)));
        else window.localStorage.removeItem(this.holdsKey);
      } catch (e) { /* no storage: remembered on this page only */ }
    }

    /* After a reload: a remembered hold is still on its way (queued), completed by a queued
     * entry, or left over from an entry that the reload lost (to be completed or released). */
    adoptOwn() {
      for (const own of this.own.values()) {
        if (this.queue.items.some((it) => it.event.id === own.id)) own.phase = "sent";
        else if (this.queue.items.some((it) => it.event.hold === own.id)) own.phase = "held";
        else if (this.queue.items.some((it) => it.event.type === "release" && it.event.target === own.id)) own.phase = "released";
        else if (own.phase !== "done") own.phase = "orphan";
        own.entry = null;
      }
    }

    /* The state as this screen shows it: the server's, with this screen's own holds applied at
     * once — the clock stopped from the first key until the server has the hold, and running on
     * as if never stopped once the entry holding it alone is abandoned. */
    view() {
      const s = this.state;
      if (!s || !s.clock || s.status !== "in_play") return s;
      const mine = Array.from(this.own.values());
      const sent = mine.filter((h) => h.phase === "sent");
      if (s.clock.running && sent.length) {
        const stamp = Math.min(...sent.map((h) => h.stamp));
        return Object.assign({}, s, {clock: Object.assign({}, s.clock, {running: false, held: true, elapsed: stamp, anchor: null})});
      }
      const holds = s.holds || [];
      if (!s.clock.running && s.clock.held && holds.length && holds.every((h) => this.own.has(h.id) && this.own.get(h.id).phase === "released")) {
        const first = holds.map((h) => this.own.get(h.id)).find((h) => h.first && Math.abs(h.stamp - s.clock.elapsed) < 0.05);
        if (first) return Object.assign({}, s, {clock: Object.assign({}, s.clock, {running: true, held: false, elapsed: first.stamp, anchor: first.stamp_at})});
      }
      return s;
    }

    /* The official clock as this screen shows it now. */
    clockNow() { return clockElapsed(this.view(), this.now()); }

    /* A hold of ours the server has with no entry of ours on its way: its entry was refused or
     * lost, or the stoppage that completed it was voided. The next stoppage entry completes it
     * (the clock stays stopped at the whistle meanwhile), or it is released. */
    orphanHold() {
      const holds = (this.state && this.state.holds) || [];
      for (const h of holds) {
        const own = this.own.get(h.id);
        if (own && (own.phase === "orphan" || own.phase === "done")) return own;
      }
      return null;
    }

    /* The first key of an entry: what it will be logged on. */
    beginEntry(type) {
      // Events of ours still on their way come before it: the entry is logged on top of them.
      const entry = {type: type, expectedSeq: this.lastSeq, hold: null, clock: null,
                     before: new Set(this.queue.items.map((it) => it.event.id))};
      this.activeEntry = entry;
      const s = this.view();
      // Only an official who logs the game holds its clock (not the committee, nor a scorer watching the tablet).
      if (!STOPPAGES.includes(type) || !s || s.status !== "in_play" || this.queue.passive || !this.page.can_log) return entry;
      const now = this.now();
      entry.clock = Math.round(clockElapsed(s, now) * 1000) / 1000;
      const orphan = this.orphanHold();
      if (orphan) {  // the entry that was refused: this one completes its hold, at its time
        const held = ((this.state && this.state.holds) || []).find((h) => h.id === orphan.id);
        entry.reused = orphan.phase;
        orphan.phase = "held";
        orphan.entry = entry;
        entry.hold = orphan.id;
        entry.clock = held && typeof held.clock === "number" ? held.clock : orphan.stamp;
        this.saveOwn();
        this.renderPresence();
        return entry;
      }
      const id = window.PoloOfflineQueue.newId();
      const own = {id: id, kind: type, stamp: entry.clock, stamp_at: now, phase: "sent", first: !!s.clock.running, seq: null};
      this.own.set(id, own);
      own.entry = entry;
      entry.hold = id;
      this.saveOwn();
      this.queue.add({id: id, type: "hold", kind: type, clock: entry.clock}, {quiet: true, noExpected: true});
      this.tick();
      return entry;
    }

    /* The entry is complete: log it at the time of its first key, on the log as it was then. */
    finishEntry(event, entry) {
      if (this.activeEntry === entry) this.activeEntry = null;
      if (!entry) { this.logEvent(event); return; }
      const own = entry.hold ? this.own.get(entry.hold) : null;
      if (entry.clock != null) event.clock = entry.clock;
      if (own) {
        own.entry = null;
        if (own.phase !== "refused") event.hold = own.id;
        if (own.phase === "refused") this.own.delete(own.id);
        this.saveOwn();
      }
      this.refuse(null);
      this.queue.add(event, {expectedSeq: entry.expectedSeq});
    }

    /* The entry was abandoned: its hold goes, and the clock runs on as if it had never stopped. */
    abandonEntry(entry) {
      if (this.activeEntry === entry) this.activeEntry = null;
      const own = entry && entry.hold ? this.own.get(entry.hold) : null;
      if (!own) return;
      own.entry = null;
      if (entry.reused) { own.phase = entry.reused; this.saveOwn(); this.renderPresence(); return; }
      this.releaseHold(own);
    }

    releaseHold(own) {
      if (own.phase === "refused" || this.queue.remove(own.id)) {  // never recorded: nothing to undo
        this.own.delete(own.id);
      } else {
        own.phase = "released";
        this.queue.add({type: "release", target: own.id}, {quiet: true, noExpected: true});
      }
      this.saveOwn();
      this.renderPresence();
      this.tick();
    }

    accepted(item, data) {
      const ev = item.event;
      const entry = this.activeEntry;
      if (entry && entry.before.has(ev.id) && typeof data.last_seq === "number") entry.expectedSeq = Math.max(entry.expectedSeq, data.last_seq);
      if (ev.type === "hold" && this.own.has(ev.id)) {
        const own = this.own.get(ev.id);
        own.seq = typeof data.seq === "number" ? data.seq : data.last_seq;
        if (own.phase === "sent") own.phase = "held";
        // The entry is logged on the log as it stood with its hold in it.
        if (own.entry && typeof own.seq === "number") own.entry.expectedSeq = own.seq;
      } else if (ev.type === "release" && this.own.has(ev.target)) {
        this.own.get(ev.target).phase = "done";
      } else if (ev.hold && this.own.has(ev.hold)) {
        this.own.get(ev.hold).phase = "done";  // the entry completed its hold (a void of it brings it back)
      } else {
        return;
      }
      this.saveOwn();
    }

    quietlyRefused(item) {
      const ev = item.event;
      if (ev.type === "hold" && this.own.has(ev.id)) {
        const own = this.own.get(ev.id);
        if (own.entry) own.phase = "refused";  // the entry goes on, without a hold (e.g. play stopped meanwhile)
        else this.own.delete(ev.id);
      } else if (ev.type === "release" && this.own.has(ev.target)) {
        this.own.get(ev.target).phase = "done";  // gone already
      }
      this.saveOwn();
      this.tick();
    }

    /* An entry refused straight away: its hold (if the server has it) waits for the next entry. */
    entryRefused(item) {
      const own = item.event.hold ? this.own.get(item.event.hold) : null;
      if (!own) return;
      own.phase = "orphan";
      this.saveOwn();
      this.renderPresence();
    }

    /* The official dropped an entry (conflict or refusal): its hold goes too. */
    discarded(item) {
      const ev = item.event;
      if (ev.type === "hold" && this.own.has(ev.id)) { this.own.delete(ev.id); this.saveOwn(); return; }
      const own = ev.hold ? this.own.get(ev.hold) : null;
      if (own) this.releaseHold(own);
    }

    /* Who may void this entry (the server's rule, matches/permissions.py). */
    mayVoid(entry) { return canVoid(this.role, entry); }

    /* Why this event type may not be logged now (the match over or suspended), or null. */
    closedReason(type) { return closedReason(this.state, type); }

    /* Show a refusal (or clear it with null). ``event``: the refused event, for what can follow. */
    refuse(error, event) {
      const box = this.$("rejection");
      renderRejection(box, error);
      if (error && error.code === "void_would_invalidate" && event && event.type === "void") this.offerVoidChain(box, event);
    }

    /* A void refused because later events rest on its target (a goal that was really a ball wide,
     * noticed after the throw-in): offer to void those first, newest first — the contract's "void
     * those first" — then the target, all with the same reason. The official sees which. */
    offerVoidChain(box, event) {
      const target = this.log.entries.find((e) => e.id === event.target);
      const later = target ? this.log.counting().filter((e) => e.seq > target.seq).reverse() : [];
      if (!later.length) return;
      const blocked = later.filter((e) => !this.mayVoid(e));
      if (blocked.length) {
        box.append(el("p", {class: "void-chain-blocked", text: fmt(gettext("#%(seq)s “%(what)s” rests on it, and only the committee may void that."),
                                                                    {seq: blocked[0].seq, what: describeEvent(this.teams, blocked[0])})}));
        return;
      }
      const go = el("button", {type: "button", class: "primary", "data-action": "void-chain"}, [
        fmt(ngettext("Void this later event too, then #%(seq)s", "Void these %(n)s later events too, newest first, then #%(seq)s",
                     later.length), {n: later.length, seq: target.seq})]);
      go.addEventListener("click", () => {
        for (const e of later) this.queue.add({type: "void", target: e.id, reason: event.reason});
        this.queue.add({type: "void", target: event.target, reason: event.reason});
        this.refuse(null);
      });
      box.append(el("ol", {class: "void-chain"}, later.map((e) => el("li", {text: `#${e.seq} ${describeEvent(this.teams, e)}`}))), go);
    }

    showState(s, seq) {
      if (!s) return;
      seq = typeof seq === "number" ? seq : s.last_seq || 0;
      if (this.state && seq < this.lastSeq) return;
      this.state = s;
      this.lastSeq = seq;
      this.forgetGoneHolds();
      if (!PLAYING.includes(s.status)) this.restartTimers.clear();
      this.field.setDefends(s.defends);
      this.field.setRestart(s.restart);
      this.renderRestart();
      this.renderPresence();
      this.renderClosed();
      if (this.opts.onState) this.opts.onState(s);
      if (this.live) this.tick();
    }

    /* Holds of ours the server no longer has (the stoppage came, the next "Play" cleared them):
     * done — remembered still, as ours, in case a void brings one back. */
    forgetGoneHolds() {
      const held = new Set(((this.state && this.state.holds) || []).map((h) => h.id));
      let changed = false;
      for (const own of Array.from(this.own.values())) {
        if (held.has(own.id) || !["held", "orphan", "released"].includes(own.phase)) continue;
        const known = typeof own.seq === "number";
        if (known && this.lastSeq >= own.seq) { own.phase = "done"; changed = true; }
        else if (!known && own.phase === "orphan") { this.own.delete(own.id); changed = true; }  // never recorded
      }
      const done = Array.from(this.own.values()).filter((h) => h.phase === "done");
      for (const own of done.slice(0, Math.max(0, done.length - 100))) { this.own.delete(own.id); changed = true; }
      if (changed) this.saveOwn();
    }

    /* The other officials' entries in progress ("Ulises Umpire (umpire): foul…"), and a hold of
     * ours whose entry was refused (complete it, or let the clock run on). */
    renderPresence() {
      const box = this.$("presence");
      if (!box) return;
      const holds = (this.state && this.state.holds) || [];
      const items = [];
      for (const h of holds) {
        const own = this.own.get(h.id);
        const stray = own && (own.phase === "orphan" || own.phase === "done");
        if (own && !stray) continue;
        if (own) {
          const release = el("button", {type: "button", class: "release-hold", "data-action": "release-hold"}, [gettext("Let the clock run on")]);
          release.addEventListener("click", () => this.releaseHold(own));
          const why = own.phase === "done"
            ? gettext("The stoppage you logged was voided: the clock is held at %(clock)s again. Log the stoppage that happened (its first key keeps this time), or:")
            : gettext("Your entry was not logged: the clock is held at %(clock)s. Log the stoppage again (its first key keeps this time), or:");
          items.push(el("li", {class: "presence-own", "data-hold": h.id, "data-kind": h.kind}, [
            el("span", {text: fmt(why, {clock: formatClock(h.clock || 0)})}), " ", release]));
          continue;
        }
        const by = h.by || {};
        const who = by.name ? describeAuthor(by) : (ROLE_LABELS[by.role] || gettext("Another official"));
        items.push(el("li", {class: "presence-other", "data-hold": h.id, "data-kind": h.kind, "data-role": by.role || ""},
                      [fmt(gettext("%(who)s: %(what)s…"), {who: who, what: HOLD_KINDS[h.kind] || h.kind})]));
      }
      const key = JSON.stringify(items.map((li) => [li.dataset.hold, li.className, li.textContent]));
      if (box.dataset.key === key) return;
      box.dataset.key = key;
      box.replaceChildren(...items);
      box.hidden = !items.length;
    }

    renderClosed() {
      const note = this.$("closed");
      if (!note) return;
      const reason = this.closedReason(null);
      note.hidden = !reason;
      note.textContent = reason || "";
      note.dataset.status = reason ? this.state.status : "";
    }

    renderRestart() {
      const box = this.$("restart"), s = this.state;
      const r = s && s.restart;
      box.dataset.kind = r ? r.kind : "";
      box.dataset.team = r && r.team ? r.team : "";
      if (!r) {
        box.replaceChildren(s && s.status === "in_play" ? gettext("Ball in play") : (STATUS_LABELS[s && s.status] || ""));
        return;
      }
      const lines = [el("strong", {class: "restart-what", text: restartSummary(this.teams, r)})];
      if (r.message) lines.push(el("span", {class: "restart-rule", text: r.message}));
      else if (r.rule) lines.push(el("span", {class: "restart-rule", text: fmt(gettext("Rule %(rule)s"), {rule: r.rule})}));
      if (r.next_period) lines.push(el("span", {class: "restart-note", text: gettext("Opens the next chukker")}));
      box.replaceChildren(...lines);
    }

    // --- Conflicts: an entry overtaken by someone else's event ----------------------------------------
    /* The events after the entry's position, as far as the log has them. */
    arrivedSince(item, data) {
      const from = item.expected_seq, to = typeof data.last_seq === "number" ? data.last_seq : Infinity;
      return this.log.entries.filter((e) => e.seq > from && e.seq <= to);
    }

    /* A 409: find out what arrived (read the log if the socket has not brought it yet). Only
     * holds, releases and the seven-minute horn arrived, and the entry is still valid: send it
     * again on the new state without asking (nothing the official needs to judge). Otherwise ask. */
    settleConflict(item, data) {
      const from = item.expected_seq, to = data.last_seq;
      const decide = () => {
        const blocked = this.queue.blocked;
        if (!blocked || blocked.item !== item) return;
        const arrived = this.arrivedSince(item, data);
        if (typeof from === "number" && typeof to === "number" && data.valid_now !== false &&
            arrived.length === to - from && arrived.every(HARMLESS_MEANWHILE)) {
          this.queue.resend();
          return;
        }
        blocked.checked = true;
        this.renderQueue();
      };
      const missing = typeof from === "number" && typeof to === "number" && this.arrivedSince(item, data).length < to - from;
      if (!missing) { decide(); return; }
      window.PoloLive.api(`/api/matches/${this.matchId}/events?since=${from}`).then((r) => {
        if (r.status === 200 && r.data && Array.isArray(r.data.events)) this.addEvents(r.data.events);
        decide();
      });
    }

    /* Keep the overtaken entry: send it again on the log as it is now (when the server says it
     * is still valid there). */
    keep() {
      const blocked = this.queue.blocked;
      if (!blocked || blocked.kind === "rejected") return;
      if (blocked.kind === "conflict" && blocked.data && blocked.data.valid_now === false) return;
      this.queue.resend();
    }

    drop() { this.queue.discard(); }

    renderQueue(q) {
      q = q || this.queue;  // the queue reports once while it is being made
      if (!q) return;
      renderConnection(this.$("conn"), this.liveStatus, q);
      if (this.opts.onQueue) this.opts.onQueue(q, this.log);
      const box = this.$("conflict");
      const blocked = q.blocked && (q.blocked.kind !== "conflict" || q.blocked.checked) ? q.blocked : null;
      box.hidden = !blocked && !q.passive;
      box.replaceChildren();
      if (q.passive) {
        box.dataset.kind = "elsewhere";
        const use = el("button", {type: "button", class: "primary take-over", "data-action": "take-over"},
                       [gettext("Use this screen")]);
        use.addEventListener("click", () => q.takeOver());
        box.append(
          el("strong", {text: gettext("This screen is open in another tab or window.")}),
          el("p", {text: gettext("Events are logged there, so that no two screens send the same queue. Use this one instead: what the other has queued comes with it.")}),
          el("div", {class: "actions"}, [use]));
        return;
      }
      if (!blocked) return;
      box.dataset.kind = blocked.kind;
      const what = describeEvent(this.teams, blocked.item.event);
      if (blocked.kind === "conflict") {
        this.renderConflict(box, blocked, what);
      } else {
        const discard = el("button", {type: "button", class: "discard", "data-action": "discard"}, [el("kbd", {text: "D"}), gettext("Discard it")]);
        discard.addEventListener("click", () => this.drop());
        const why = el("p", {class: "rejection"});
        renderRejection(why, errorOf(blocked.data));
        const actions = [discard];
        if (blocked.kind === "refused") {  // not the rules: e.g. logged out — log in again, then retry
          const retry = el("button", {type: "button", class: "primary resend", "data-action": "resend"}, [el("kbd", {text: "R"}), gettext("Try again")]);
          retry.addEventListener("click", () => q.resend());
          actions.unshift(retry);
        }
        box.append(
          el("strong", {text: fmt(gettext("Refused while sending the queued events: “%(what)s”. The queue has stopped."), {what: what})}),
          why, el("div", {class: "actions"}, actions));
      }
      const behind = q.length - 1;
      if (behind > 0) box.append(el("p", {class: "muted", text: fmt(ngettext("%(n)s more event waits behind it.", "%(n)s more events wait behind it.", behind), {n: behind})}));
    }

    /* What arrived meanwhile, who logged it, and the choice: keep the entry on the new state
     * (only when the server says it is valid there) or drop it. */
    renderConflict(box, blocked, what) {
      const data = blocked.data || {}, item = blocked.item;
      const valid = data.valid_now !== false;
      const arrived = this.arrivedSince(item, data).filter((e) => !isHoldEntry(e));
      const keep = el("button", {type: "button", class: "primary resend", "data-action": "resend", disabled: !valid},
                      [el("kbd", {text: "R"}), gettext("Keep my entry on the new state")]);
      keep.addEventListener("click", () => this.keep());
      const drop = el("button", {type: "button", class: "discard", "data-action": "discard"}, [el("kbd", {text: "D"}), gettext("Drop it")]);
      drop.addEventListener("click", () => this.drop());
      box.append(
        el("strong", {text: gettext("Conflict: someone else logged events meanwhile.")}),
        el("p", {class: "conflict-mine", text: fmt(gettext("You began “%(what)s” before this arrived:"), {what: what})}));
      const list = el("ol", {class: "arrived"}, arrived.map((e) => {
        const by = (e.event || {}).by;
        const li = el("li", {"data-seq": e.seq, "data-type": e.type, "data-by": by && by.role ? by.role : null},
                      [el("span", {class: "log-seq", text: "#" + e.seq}), " ", describeEvent(this.teams, e)]);
        if (by && by.name) li.append(" — ", el("span", {class: "arrived-by", text: fmt(gettext("logged by %(who)s"), {who: describeAuthor(by)})}));
        return li;
      }));
      if (!arrived.length) list.append(el("li", {class: "muted", text: gettext("(reading the log…)")}));
      box.append(list);
      if (!valid) {
        const would = data.would_be || {};
        const why = el("p", {class: "would-be", "data-code": would.code || ""});
        why.append(el("strong", {text: gettext("It cannot be kept on the new state:")}), " ");
        if (would.rule) why.append(el("span", {class: "rule", text: fmt(gettext("Rule %(rule)s"), {rule: would.rule})}), " ");
        why.append(el("span", {class: "message", text: would.message || would.code || gettext("The event was refused.")}));
        box.append(why);
      } else {
        box.append(el("p", {class: "muted", text: gettext("It is still valid on the new state: keep it, or drop it if what arrived already says it.")}));
      }
      box.append(el("div", {class: "actions"}, [keep, drop]));
    }

    tick(lv) {
      const now = this.now(lv);
      const view = this.view();
      renderBoard(this.$("board"), this.teams, view, now);
      renderTimers(this.$("timers"), this.teams, allTimers(this.state, this.restartTimers, now));
    }
  }

  function errorOf(data) {
    const error = (data && data.error) || {};
    return error.code || error.message ? error : {code: "refused", message: gettext("The event was refused.")};
  }

  // What the page scripts use (scorer.js, referee.js).
  window.PoloOfficials = {
    gettext, fmt, el, pageData, screenParts, paintTeam, formatScore, Teams, FieldView, Wizard, Screen, COMMANDS, EVENT_LABELS,
    STOPPAGES, describeEvent, describeAuthor, renderLogEntry, canVoid, closedReason, formatClock,
  };
})();
