/* A command being built step by step (officials/commands.js: team, player, choice, position,
 * text, flags), driven by keys (the scorer's laptop) or big buttons (the umpires' tablet), ending
 * in one match-log event. */
import {el} from "../dom.js";
import {gettext} from "../i18n.js";
import {COMMANDS, buildEvent, parseClock} from "./commands.js";
import {paintTeam} from "./teams.js";
import {EVENT_LABELS, choices} from "./words.js";

const val = (x, v) => (typeof x === "function" ? x(v) : x);

export class Wizard {
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

  /* A choice step's options, their labels written out for the match's rule edition. */
  options(step) { return choices(step.options, this.teams.limits); }

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
        const opt = this.options(step).find((o) => o[1] === key);
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
      else if (step.kind === "choice") out.push((this.options(step).find((o) => o[0] === v) || [0, 0, String(v)])[2]);
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
        for (const [value, key, label] of this.options(step)) {
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
