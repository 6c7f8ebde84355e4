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
 * - the header: score, clock, connection indicator, rejections.
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
    void: gettext("Void (undo)"),
  };
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
      default:
        return (EVENT_LABELS[e.type] || e.type) + (e.reason ? " — " + e.reason : "");
    }
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
    void: {steps: [S.input("reason", gettext("Why void it?"))]},
  };

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
    /* opts: {root (panel element), teams, field (FieldView), submit(event), onIdle(), big (touch)} */
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
      this.type = type;
      this.note = note || "";
      this.values = Object.assign({}, presets || {});
      this.preset = new Set(Object.keys(presets || {}));
      this.history = [];
      this.index = -1;
      this.advance();
    }

    cancel() {
      this.type = null;
      this.field.stopPick();
      this.render();
      if (this.opts.onIdle) this.opts.onIdle();
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
        this.type = null;
        this.render();
        this.opts.submit(event);
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
        if (v === undefined || v === null || step.kind === "flags" || step.field === this.step().field) continue;
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
                                 inputmode: step.parse === parseClock ? "numeric" : null});
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
        const value = step.parse ? step.parse(text) : text;
        if (value === undefined) { error.textContent = gettext("Not understood: check the format."); return; }
        this.answer(value);
      });
      input.addEventListener("keydown", (e) => {
        if (e.key === "Escape") { e.preventDefault(); this.cancel(); }
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

    newestFirst() { return this.entries.slice().reverse(); }

    /* What "void last" voids: the newest event that still counts (not a void, not voided). */
    lastVoidable() {
      for (let i = this.entries.length - 1; i >= 0; i--) {
        const e = this.entries[i];
        if (e.type !== "void" && !this.voids.has(e.id)) return e;
      }
      return null;
    }

    counting() { return this.entries.filter((e) => e.type !== "void" && !this.voids.has(e.id)); }
  }

  function renderLogEntry(teams, log, entry, onVoid) {
    const voided = log.voidOf(entry);
    const clock = entry.event.clock != null ? formatClock(entry.event.clock) : "";
    const li = el("li", {class: "log-entry" + (voided ? " voided" : "") + (entry.type === "void" ? " is-void" : ""),
                          "data-seq": entry.seq, "data-type": entry.type, "data-id": entry.id});
    li.append(el("span", {class: "log-seq", text: "#" + entry.seq}), el("span", {class: "log-clock", text: clock}),
              el("span", {class: "log-text", text: describeEvent(teams, entry)}));
    if (voided) li.append(el("span", {class: "log-voided", text: fmt(gettext("voided: %(reason)s"), {reason: voided.event.reason || ""})}));
    else if (entry.type !== "void" && onVoid) {
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
   *  - the umpire's 8-second count from the "Play" of a restart with count_seconds, then the 5 s
   *    to play the ball (hit_within_seconds) (Rules 22.f, 22.h);
   *  - back to the centre: 25 s from a goal (Rule 22.e(1)), until the throw-in.
   * The next event ends them (the restart was taken, or the whistle went). A timer that runs out
   * stays on screen, in red, until then or until dismissed. They are kept in localStorage with the
   * sequence number of the event that started them, so a reload (or a new tab after a crash) shows
   * them still running; the log, once loaded, says whether that event is still the last one. */
  class RestartTimers {
    constructor(storageKey) {
      this.key = storageKey;
      this.timers = [];
      this.seq = null;  // the event that started them
      try {
        const saved = JSON.parse(window.localStorage.getItem(this.key) || "null");
        if (saved && Array.isArray(saved.timers)) { this.timers = saved.timers; this.seq = saved.seq; }
      } catch (e) { /* storage unavailable or garbled: start without */ }
    }

    save() {
      try {
        if (this.timers.length) window.localStorage.setItem(this.key, JSON.stringify({seq: this.seq, timers: this.timers}));
        else window.localStorage.removeItem(this.key);
      } catch (e) { /* storage unavailable: the timers still run on this page */ }
    }

    /* After a reload: saved timers hold while their event is the log's newest (horns aside). */
    check(log) {
      if (this.seq == null) return;
      const newest = log.entries.filter((e) => e.type !== "horn").pop();
      if (newest && newest.seq > this.seq) { this.timers = []; this.seq = null; this.save(); }
    }

    observe(previous, state, events, fallbackNow) {
      for (const ev of events) {
        if (ev.type === "horn") continue;
        const at = toEpoch(ev.received_at) || fallbackNow;
        const restart = previous && previous.restart;
        this.timers = [];
        this.seq = ev.seq;
        if (ev.type === "play" && restart) {
          if (restart.kind === "knock_in") this.timers.push({kind: "knock_in", seconds: 10, started_at: at});
          else if (restart.kind === "penalty") this.timers.push({kind: "foul_shot", seconds: 20, started_at: at});
          if (restart.count_seconds) {
            this.timers.push({kind: "count", seconds: restart.count_seconds, started_at: at});
            if (restart.hit_within_seconds) this.timers.push({kind: "to_play", seconds: restart.hit_within_seconds, started_at: at + restart.count_seconds});
          }
        } else if (ev.type === "goal" && state.restart && state.restart.kind === "throw_in") {
          this.timers.push({kind: "goal_return", seconds: 25, started_at: at});
        }
        previous = null;  // several events at once: only the first knows the restart it took
      }
      this.save();
    }

    dismiss() { this.timers = []; this.save(); }
  }

  /* Every timer to show now: the state's (stoppages, interval) and the local restart ones. */
  function allTimers(state, restartTimers, now) {
    const list = [];
    for (const t of (state && state.timers) || []) list.push(Object.assign({source: "state"}, t));
    if (state && state.interval && state.interval.started_at != null) list.push(Object.assign({source: "state"}, state.interval));
    for (const t of restartTimers.timers) {
      if (t.started_at > now) {  // the 5 s waits for the count
        continue;
      }
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
    if (status && status.dataset.value !== state.status) {
      status.textContent = STATUS_LABELS[state.status] || state.status;
      status.dataset.value = state.status;
    }
    const clock = root.querySelector("[data-clock]");
    if (clock) {
      const e = clockElapsed(state, now);
      setText(clock, formatClock(e));
      const running = state.clock && state.clock.running ? "true" : "false";
      if (clock.dataset.running !== running) clock.dataset.running = running;
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
   * the event log, the offline queue with its conflict box, the board, the field's restart and
   * the timers. Elements by id: board, field, restart, timers, conn, conflict, rejection.
   * opts: {page, teams, field, onState(state), onLog(log), onQueue(queue, log)} */
  class Screen {
    constructor(opts) {
      const page = opts.page, matchId = page.match_id;
      this.opts = opts;
      this.teams = opts.teams;
      this.field = opts.field;
      this.state = null;
      this.lastSeq = 0;
      this.liveStatus = "connecting";
      this.log = new EventLog();
      this.restartTimers = new RestartTimers(`polo-timers:${matchId}`);
      this.$ = (id) => document.getElementById(id);
      this.queue = window.PoloOfflineQueue.create({
        key: `polo-queue:${matchId}:${page.user}:${page.screen}`,  // one queue per screen: two tabs of it share it
        send: (body) => window.PoloLive.api(`/api/matches/${matchId}/events`, {method: "POST", body}),
        lastSeq: () => this.lastSeq,
        onChange: (q) => this.renderQueue(q),
        onAccepted: (item, data) => { this.refuse(null); this.showState(data.state, data.last_seq); },
        onConflict: (item, data) => this.showState(data.state, data.last_seq),
        onRejected: (item, data, stopped) => {
          this.showState(data.state, data.last_seq);
          if (!stopped) this.refuse(errorOf(data), item.event);
        },
      });
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
        onEvents: (events) => {
          if (!this.log.add(events)) return;
          this.restartTimers.check(this.log);
          if (opts.onLog) opts.onLog(this.log);
        },
        onTick: (lv) => this.tick(lv),
      });
      setupTeams(document, this.teams);
      this.showState(page.state, page.last_seq);
      this.renderQueue();
      this.queue.flush();
    }

    now(lv) { return (lv || this.live).serverNow(); }

    logEvent(event) {
      this.refuse(null);
      this.queue.add(event);
    }

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
      this.field.setDefends(s.defends);
      this.field.setRestart(s.restart);
      this.renderRestart();
      if (this.opts.onState) this.opts.onState(s);
      if (this.live) this.tick();
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

    renderQueue(q) {
      q = q || this.queue;  // the queue reports once while it is being made
      renderConnection(this.$("conn"), this.liveStatus, q);
      if (this.opts.onQueue) this.opts.onQueue(q, this.log);
      const box = this.$("conflict");
      const blocked = q.blocked;
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
      const discard = el("button", {type: "button", class: "discard", "data-action": "discard"}, [el("kbd", {text: "D"}), gettext("Discard it")]);
      discard.addEventListener("click", () => q.discard());
      if (blocked.kind === "conflict") {
        const resend = el("button", {type: "button", class: "primary resend", "data-action": "resend"},
                          [el("kbd", {text: "R"}), gettext("Re-send it on the new state")]);
        resend.addEventListener("click", () => q.resend());
        box.append(
          el("strong", {text: gettext("Conflict: someone else logged events meanwhile.")}),
          el("p", {text: fmt(gettext("The log is now at #%(seq)s. Your event “%(what)s” was logged on an older state: check the screen, then re-send it or discard it."),
                             {seq: blocked.data.last_seq, what: what})}),
          el("div", {class: "actions"}, [resend, discard]));
      } else {
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

    tick(lv) {
      const now = this.now(lv);
      renderBoard(this.$("board"), this.teams, this.state, now);
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
    describeEvent, renderLogEntry,
  };
})();
