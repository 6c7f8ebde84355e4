/* The scorer's laptop: keyboard first. Keys (the help overlay, "?", lists them):
 *   Space play · G goal · F foul · O ball out · W whistle · H horn · C card · M mount
 *   V restart violation · T set the clock · Z void the last event · Ctrl+K or / every event type
 * A command asks its questions one by one (team: H/A, player: 1–4, choices by their key, a spot by
 * clicking the field or the arrows + Enter); Backspace goes back, Esc cancels.
 * Events go through the offline queue to the event API; the state comes back over the websocket
 * (officials-common.js: Screen).
 */
(function () {
  "use strict";

  const P = window.PoloOfficials, gettext = P.gettext, fmt = P.fmt, el = P.el;
  const $ = (sel) => document.querySelector(sel);
  const {page, teams, field} = P.screenParts();
  let state = page.state;
  const wizard = new P.Wizard({root: $("#command"), teams, field, submit: (ev) => screen.logEvent(ev), onIdle: renderPlayers});
  let waiting = [];  // the offline queue's events, shown on top of the log until they are recorded
  const screen = new P.Screen({
    page, teams, field,
    onState: (s) => { state = s; renderPlayers(); },
    onLog: renderLog,
    onQueue: (queue, log) => { waiting = queue.items.slice(); renderLog(log); },
  });

  function voidEntry(entry) {
    if (!entry) { screen.refuse({code: "nothing_to_void", message: gettext("There is nothing to void.")}); return; }
    wizard.start("void", {target: entry.id}, fmt(gettext("Void #%(seq)s: %(what)s"), {seq: entry.seq, what: P.describeEvent(teams, entry)}));
  }

  function start(type) {
    if (type === "void") voidEntry(screen.log.lastVoidable());
    else wizard.start(type);
    renderPlayers();
  }

  // --- Players: buttons in team colours, live while a team or player is asked for ------------------
  function renderPlayers() {
    const step = wizard.active ? wizard.step() : null;
    const unavailable = (state && state.unavailable_players) || [];
    const excused = (state && state.excused_horses) || [];
    for (const team of ["home", "away"]) {
      const row = $(`#players-${team}`);
      const pickTeam = step && step.kind === "team";
      const pickPlayer = step && step.kind === "player" && step.team(wizard.values) === team;
      row.replaceChildren(...teams.players(team).map((p) => {
        const out = unavailable.find((u) => u.team === team && u.number === p.number);
        const horses = excused.filter((h) => h.team === team && h.number === p.number).map((h) => h.horse);
        const b = el("button", {type: "button", class: "player" + (out ? " unavailable" : ""), "data-team": team,
                                "data-number": p.number, disabled: !(pickTeam || pickPlayer),
                                title: out ? gettext("Unavailable") + ": " + out.reason : null},
                     [el("kbd", {text: String(p.number)}), el("span", {class: "player-name", text: p.name}),
                      horses.length ? el("small", {text: fmt(gettext("excused: %(horses)s"), {horses: horses.join(", ")})}) : null]);
        P.paintTeam(b, teams.color(team));
        b.addEventListener("click", () => {
          if (wizard.active && wizard.step().kind === "team") wizard.answer(team);
          const next = wizard.active ? wizard.step() : null;
          if (next && next.kind === "player" && next.team(wizard.values) === team) wizard.answer(p.number);
          renderPlayers();
        });
        return b;
      }));
    }
  }

  function renderLog(log) {
    const pending = waiting.slice().reverse().map((item) => el("li", {class: "log-pending", "data-type": item.event.type, "data-id": item.event.id}, [
      el("span", {class: "log-seq", text: "…"}), el("span", {class: "log-clock"}),
      el("span", {class: "log-text", text: P.describeEvent(teams, item.event)}),
      el("span", {class: "log-waiting", text: gettext("waiting to be sent")})]));
    $("#log").replaceChildren(...pending, ...log.newestFirst().map((entry) => P.renderLogEntry(teams, log, entry, voidEntry)));
  }

  // --- The command palette: every event type of the contract, searchable ------------------------
  const SHORTCUTS = {play: "Space", goal: "G", foul: "F", ball_out: "O", whistle: "W", horn: "H", card: "C", mount: "M",
                     restart_violation: "V", clock_set: "T", void: "Z"};
  const palette = $("#palette"), paletteInput = $("#palette-input"), paletteList = $("#palette-list");
  let paletteIndex = 0;

  function paletteItems() {
    const q = paletteInput.value.trim().toLowerCase();
    return Object.keys(P.COMMANDS).filter((type) => !q || P.EVENT_LABELS[type].toLowerCase().includes(q) || type.includes(q));
  }

  function renderPalette() {
    const items = paletteItems();
    paletteIndex = Math.min(paletteIndex, Math.max(0, items.length - 1));
    paletteList.replaceChildren(...items.map((type, i) => {
      const li = el("li", {role: "option", "data-type": type, "aria-selected": i === paletteIndex ? "true" : "false"},
                    [el("span", {text: P.EVENT_LABELS[type]}), SHORTCUTS[type] ? el("kbd", {text: SHORTCUTS[type]}) : null]);
      li.addEventListener("click", () => choosePalette(type));
      return li;
    }));
  }

  function openPalette() {
    if (wizard.active) wizard.cancel();
    paletteInput.value = "";
    paletteIndex = 0;
    renderPalette();
    palette.showModal();
    paletteInput.focus();
  }

  function choosePalette(type) {
    palette.close();
    if (type === "play") screen.logEvent({type: "play"}); else start(type);
  }

  paletteInput.addEventListener("input", () => { paletteIndex = 0; renderPalette(); });
  paletteInput.addEventListener("keydown", (e) => {
    const items = paletteItems();
    if (e.key === "ArrowDown") { paletteIndex = Math.min(items.length - 1, paletteIndex + 1); renderPalette(); e.preventDefault(); }
    else if (e.key === "ArrowUp") { paletteIndex = Math.max(0, paletteIndex - 1); renderPalette(); e.preventDefault(); }
    else if (e.key === "Enter") { e.preventDefault(); if (items[paletteIndex]) choosePalette(items[paletteIndex]); }
  });

  // --- Keys -------------------------------------------------------------------------------------
  const KEYS = {g: "goal", f: "foul", o: "ball_out", w: "whistle", h: "horn", c: "card", m: "mount",
                v: "restart_violation", t: "clock_set", z: "void"};
  const help = $("#help");

  document.addEventListener("keydown", (e) => {
    if (palette.open || help.open) return;  // the dialogs have the keys (Esc closes them)
    const target = e.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") { e.preventDefault(); openPalette(); return; }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (wizard.active) {
      if (wizard.handleKey(e)) { e.preventDefault(); renderPlayers(); }
      return;
    }
    const key = e.key.toLowerCase(), queue = screen.queue;
    if (queue.blocked) {
      if (key === "r" && queue.blocked.kind !== "rejected") { e.preventDefault(); queue.resend(); return; }
      if (key === "d") { e.preventDefault(); queue.discard(); return; }
    }
    if (e.key === " ") { e.preventDefault(); screen.logEvent({type: "play"}); return; }
    if (e.key === "?") { e.preventDefault(); help.showModal(); return; }
    if (e.key === "/") { e.preventDefault(); openPalette(); return; }
    if (e.key === "Escape") { screen.refuse(null); screen.restartTimers.dismiss(); screen.tick(); return; }
    if (KEYS[key]) { e.preventDefault(); start(KEYS[key]); }
  });

  $("#help-open").addEventListener("click", () => help.showModal());
  $("#palette-open").addEventListener("click", openPalette);
  renderPlayers();
})();
