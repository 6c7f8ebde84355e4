/* The conflict box of the officials' screens: what the offline queue cannot send on its own.
 *
 * - an entry overtaken by another official's event (409 stale_sequence): what arrived meanwhile,
 *   who logged it, and the choice — drop it (the default: what arrived may well be the same
 *   foul logged by the other official, and a reflex Enter must not log it twice) or keep the
 *   entry on the new state (only when the server says it is still valid there); an overtaking by
 *   holds, releases and the seven-minute horn alone is settled without asking;
 * - an event refused while replaying the queue (it stops the queue): discard it, or try again
 *   when the refusal was not the rules' (logged out…);
 * - the screen open in another tab (the queue is passive there): use this one instead;
 * - a void refused because later events rest on its target: offer to void those first.
 *
 * One QueueBox belongs to one Screen (officials/screen.js). */
import {CODES, PAGE_CODES} from "../codes.js";
import {el} from "../dom.js";
import {gettext, interpolate, ngettext} from "../i18n.js";
import {api} from "../live.js";
import {renderConnection, renderRejection} from "./board.js";
import {isHoldEntry} from "./permissions.js";
import {describeAuthor, describeEvent} from "./teams.js";

const HARMLESS_MEANWHILE = (e) => isHoldEntry(e) || (e.type === "horn" && (e.event || {}).kind === "seven");

/* The refusal in an answer, or a plain "refused". */
export function errorOf(data) {
  const error = (data && data.error) || {};
  return error.code || error.message ? error : {code: PAGE_CODES.REFUSED, message: gettext("The event was refused.")};
}

export class QueueBox {
  constructor(screen) { this.screen = screen; }

  /* The events after the entry's position, as far as the log has them. */
  arrivedSince(item, data) {
    const from = item.expected_seq, to = typeof data.last_seq === "number" ? data.last_seq : Infinity;
    return this.screen.log.entries.filter((e) => e.seq > from && e.seq <= to);
  }

  /* A 409: find out what arrived (read the log if the socket has not brought it yet). Only
   * holds, releases and the seven-minute horn arrived, and the entry is still valid: send it
   * again on the new state without asking (nothing the official needs to judge). Otherwise ask. */
  settle(item, data) {
    const screen = this.screen, from = item.expected_seq, to = data.last_seq;
    const decide = () => {
      const blocked = screen.queue.blocked;
      if (!blocked || blocked.item !== item) return;
      const arrived = this.arrivedSince(item, data);
      if (typeof from === "number" && typeof to === "number" && data.valid_now !== false &&
          arrived.length === to - from && arrived.every(HARMLESS_MEANWHILE)) {
        screen.queue.resend();
        return;
      }
      blocked.checked = true;
      this.render();
    };
    const missing = typeof from === "number" && typeof to === "number" && this.arrivedSince(item, data).length < to - from;
    if (!missing) { decide(); return; }
    api(`/api/matches/${screen.matchId}/events?since=${from}`).then((r) => {
      if (r.status === 200 && r.data && Array.isArray(r.data.events)) screen.addEvents(r.data.events);
      decide();
    });
  }

  /* Keep the overtaken entry: send it again on the log as it is now (when the server says it
   * is still valid there). */
  keep() {
    const queue = this.screen.queue, blocked = queue.blocked;
    if (!blocked || blocked.kind === "rejected") return;
    if (blocked.kind === "conflict" && blocked.data && blocked.data.valid_now === false) return;
    queue.resend();
  }

  drop() { this.screen.queue.discard(); }

  render(q) {
    const screen = this.screen;
    q = q || screen.queue;  // the queue reports once while it is being made
    if (!q) return;
    renderConnection(document.getElementById("conn"), screen.liveStatus, q);
    if (screen.opts.onQueue) screen.opts.onQueue(q, screen.log);
    const box = document.getElementById("conflict");
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
    const what = describeEvent(screen.teams, blocked.item.event);
    if (blocked.kind === "conflict") {
      this.renderConflict(box, blocked, what);
    } else {
      const discard = el("button", {type: "button", class: "discard", "data-action": "discard"}, [el("kbd", {text: "D"}), gettext("Discard it")]);
      discard.addEventListener("click", () => this.drop());
      const why = el("p", {class: "rejection"});
      renderRejection(why, errorOf(blocked.data));
      const actions = [discard];
      if (errorOf(blocked.data).code === CODES.CLOCK_TOO_OLD) {  // kept too long at the field (issue 34)
        const now = el("button", {type: "button", class: "primary record-now", "data-action": "record-now"},
                       [el("kbd", {text: "N"}), gettext("Record it now, at the official clock")]);
        now.addEventListener("click", () => q.recordNow());
        actions.unshift(now);
      }
      if (blocked.kind === "refused") {  // not the rules: e.g. logged out — log in again, then retry
        const retry = el("button", {type: "button", class: "primary resend", "data-action": "resend"}, [el("kbd", {text: "R"}), gettext("Try again")]);
        retry.addEventListener("click", () => q.resend());
        actions.unshift(retry);
      }
      box.append(
        el("strong", {text: interpolate(gettext("Refused while sending the queued events: “%(what)s”. The queue has stopped."), {what})}),
        why, el("div", {class: "actions"}, actions));
    }
    const behind = q.length - 1;
    if (behind > 0) {
      box.append(el("p", {class: "muted", text: interpolate(ngettext("%(n)s more event waits behind it.", "%(n)s more events wait behind it.", behind), {n: behind})}));
    }
  }

  /* What arrived meanwhile, who logged it, and the choice: keep the entry on the new state
   * (only when the server says it is valid there) or drop it. */
  renderConflict(box, blocked, what) {
    const data = blocked.data || {}, item = blocked.item, teams = this.screen.teams;
    const valid = data.valid_now !== false;
    const arrived = this.arrivedSince(item, data).filter((e) => !isHoldEntry(e));
    const keep = el("button", {type: "button", class: "resend", "data-action": "resend", disabled: !valid},
                    [el("kbd", {text: "R"}), gettext("Keep my entry on the new state")]);
    keep.addEventListener("click", () => this.keep());
    const drop = el("button", {type: "button", class: "primary discard", "data-action": "discard", "data-default": "true"},
                    [el("kbd", {text: "D"}), gettext("Drop it"), " ", el("kbd", {text: "Enter"})]);
    drop.addEventListener("click", () => this.drop());
    box.append(
      el("strong", {text: gettext("Conflict: someone else logged events meanwhile.")}),
      el("p", {class: "conflict-mine", text: interpolate(gettext("You began “%(what)s” before this arrived:"), {what})}));
    const list = el("ol", {class: "arrived"}, arrived.map((e) => {
      const by = (e.event || {}).by;
      const li = el("li", {"data-seq": e.seq, "data-type": e.type, "data-by": by && by.role ? by.role : null},
                    [el("span", {class: "log-seq", text: "#" + e.seq}), " ", describeEvent(teams, e)]);
      if (by && by.name) li.append(" — ", el("span", {class: "arrived-by", text: interpolate(gettext("logged by %(who)s"), {who: describeAuthor(by)})}));
      return li;
    }));
    if (!arrived.length) list.append(el("li", {class: "muted", text: gettext("(reading the log…)")}));
    box.append(list);
    if (!valid) {
      const would = data.would_be || {};
      const why = el("p", {class: "would-be", "data-code": would.code || ""});
      why.append(el("strong", {text: gettext("It cannot be kept on the new state:")}), " ");
      if (would.rule) why.append(el("span", {class: "rule", text: interpolate(gettext("Rule %(rule)s"), {rule: would.rule})}), " ");
      why.append(el("span", {class: "message", text: would.message || would.code || gettext("The event was refused.")}));
      box.append(why);
    } else {
      box.append(el("p", {class: "muted", text: gettext("It is still valid on the new state: keep it, or drop it if what arrived already says it.")}));
    }
    box.append(el("div", {class: "actions"}, [drop, keep]));
    // The safe choice has the focus (unless the official is typing somewhere): Enter drops.
    const active = document.activeElement;
    if (!active || active === document.body || box.contains(active) || active.tagName === "BUTTON") drop.focus();
  }

  /* A void refused because later events rest on its target (a goal that was really a ball wide,
   * noticed after the throw-in): offer to void those first, newest first — the contract's "void
   * those first" — then the target, all with the same reason. The official sees which. */
  offerVoidChain(box, event) {
    const screen = this.screen, log = screen.log;
    const target = log.entries.find((e) => e.id === event.target);
    const later = target ? log.counting().filter((e) => e.seq > target.seq).reverse() : [];
    if (!later.length) return;
    const blocked = later.filter((e) => !screen.mayVoid(e));
    if (blocked.length) {
      box.append(el("p", {class: "void-chain-blocked", text: interpolate(gettext("#%(seq)s “%(what)s” rests on it, and only the committee may void that."),
                                                                         {seq: blocked[0].seq, what: describeEvent(screen.teams, blocked[0])})}));
      return;
    }
    const go = el("button", {type: "button", class: "primary", "data-action": "void-chain"}, [
      interpolate(ngettext("Void this later event too, then #%(seq)s", "Void these %(n)s later events too, newest first, then #%(seq)s",
                           later.length), {n: later.length, seq: target.seq})]);
    go.addEventListener("click", () => {
      for (const e of later) screen.queue.add({type: "void", target: e.id, reason: event.reason});
      screen.queue.add({type: "void", target: event.target, reason: event.reason});
      screen.refuse(null);
    });
    box.append(el("ol", {class: "void-chain"}, later.map((e) => el("li", {text: `#${e.seq} ${describeEvent(screen.teams, e)}`}))), go);
  }
}

/* Is this refusal a void that later events rest on (queue-box offers the chain)? */
export const isVoidChain = (error, event) => !!error && error.code === CODES.VOID_WOULD_INVALIDATE && !!event && event.type === "void";
