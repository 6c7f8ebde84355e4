"""The log: ``decide(game, event)`` accepts or refuses one event and returns the next Game.

``decide`` does what is about the log rather than the rules: the event's shape, its id (a repeat
of an accepted id is the same event, ``same_event``), the live server's part (``expected_seq``,
the wall time, a clock filled in or checked against the running clock), then it reads the event
once (``events.parse``) and hands it to the rules: ``apply`` judges its clock (14.b(1)) and calls
the handler of its type (``play.py``, ``periods.py``, ``players.py``, ``committee.py``).
Corrections (``void``) re-fold the log from the nearest snapshot without their target.
``due_events`` names the horns a running clock has made due.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import committee, events as E, messages as m, periods, play as P, players, records, restarts as R, strict
from .config import MatchConfig
from .events import parse
from .messages import Rejection
from .refusals import Refused, refuse
from .state import Entry, Game, Log, evolve, new_game as _new_game_state

# Each handler: (game, the event's record, its clock, the wall time) -> the next Game.
Handler = Callable[[Game, Any, float | None, float | None], Game]
HANDLERS: dict[str, Handler] = {
    "play": P.play,
    "goal": P.goal,
    "foul": P.foul,
    "ball_out": P.ball_out,
    "whistle": P.whistle,
    "restart_violation": P.restart_violation,
    "horn": periods.horn,
    "clock_set": periods.clock_set,
    "card": players.card,
    "mount": players.mount,
    "substitution": players.substitution,
    "suspend": committee.suspend,
    "resume": committee.resume,
    "abandon": committee.abandon,
    "overtime": committee.overtime,
    "shootout_start": committee.shootout_start,
    "shootout_attempt": committee.shootout_attempt,
    "forfeit": committee.forfeit,
    "hold": periods.hold,
    "release": periods.release,
}
EVENT_TYPES = E.EVENT_TYPES  # the handlers' and "void"
EPSILON = P.EPSILON
# CHOICE: an event timed after 7:30 finds the period already over (14.b(1): it "ends at 7 minutes
# and 30 seconds expired on the official clock" whether or not the horn is heard). The umpire's
# whistle that stops the game "at the end of each period" (21.i) and a ball going out after time
# are then accepted and change nothing more.
_AFTER_TIME_NOOPS = ("whistle", "ball_out")
SNAPSHOT_EVERY = 16  # a void re-folds from the nearest snapshot before its target
# ``server_time``: the wall time (epoch s) a live server decided the event at, stored with it so a
# re-fold gets the clock's anchor back. (Not ``at``: that is where a ball went out.)
WALL_TIME = "server_time"
# Keys of a stored event that are not its content: the client's ``expected_seq`` (transport),
# and what the server sets: ``server_time`` and ``by`` (who logged it).
NOT_CONTENT = ("expected_seq", WALL_TIME, "by")


class Decision:
    """What ``decide`` returns: ``accepted``; ``game`` (the new Game, or the same one when
    refused); ``error`` (a Rejection, or None); ``event`` (the event as stored: ``clock`` filled
    in from the running clock, ``server_time`` the ``now`` it was decided at, ``expected_seq``
    dropped). A plain record: the server may wrap or adjust it."""

    __slots__ = ("accepted", "error", "event", "game")

    def __init__(self, accepted: bool, game: Game, error: Rejection | None, event: dict[str, Any] | None) -> None:
        self.accepted = accepted
        self.game = game
        self.error = error
        self.event = event

    def __repr__(self) -> str:
        return f"Decision(accepted={self.accepted}, error={self.error!r}, event={self.event!r})"


def new_game(config: MatchConfig) -> Game:
    """The game of ``config`` before its first event."""
    return _new_game_state(config, R.opening(config))


# -- the rules for one event ------------------------------------------------------------------------


def apply(game: Game, ev: E.Event, now: float | None) -> Game:
    """The rules for one parsed event (not a void); raises ``Refused``."""
    clock = ev.clock
    etype = ev.type
    if game.running and clock is not None:
        if clock < game.elapsed - EPSILON and etype != "clock_set":
            refuse("clock_before_previous_event", "14.b(1)", m.CLOCK_BACKWARDS, clock=clock, elapsed=game.elapsed)
        if clock > game.config.period_end + EPSILON and etype not in ("horn", "clock_set", "goal"):
            # 14.b(1): the period ended at 7:30 on the official clock, whether or not the horn
            # was heard; then this event is judged.
            game = periods.end_by_horn(game, None, now)
            if etype in _AFTER_TIME_NOOPS:
                return game
    body = ev.body
    if type(body) is Rejection:  # a bad field: judged after the clock, as it always was
        raise Refused(body)
    g = HANDLERS[etype](game, body, clock, now)
    # Each goal and knock-out recorded once, by the fold that makes it (``records``). A handler
    # that changes neither keeps the very same tuples: two identity checks per event.
    if g.goals is not game.goals or g.unavailable is not game.unavailable:
        g = records.recorded(game, g, ev)
    if g.holds or g.held_from is not None:
        g = periods.settle_holds(g, ev)
    tick = g.running and clock is not None and g.elapsed < clock and (g.anchor is None or now is None)
    stale_horn = g.fresh_horn and etype not in ("horn", "whistle", "card")
    if tick or stale_horn:
        # An event that does not stop play still tells the official time (a replay has no wall
        # clock to run it); the foul "at the horn" of Rule 21 must follow the horn at once.
        changes: dict[str, Any] = {"elapsed": float(clock)} if tick and clock is not None else {}
        if stale_horn:
            changes["fresh_horn"] = False
        if g is game:
            return evolve(g, **changes)
        g.__dict__.update(changes)  # ``g`` is new, made by the handler for this event alone
    return g


def _stamp_refusal(game: Game, ev: dict[str, Any], now: float) -> tuple[dict[str, Any], Rejection | None]:
    """A clock stamped by the official's device (the entry's first key), checked against the
    running official clock: a skewed device cannot rewrite history (14.b(1)).

    CHOICE: ahead of the official clock by up to ``clock_ahead_tolerance`` (1 s) is clock-sync
    error and is taken as the official time; further ahead, or further back than
    ``clock_stamp_window`` (60 s), is a device that cannot be trusted to rewrite the record (the
    umpires correct the official time with a clock set)."""
    clock = ev.get("clock")
    if (
        clock is None
        or not game.running
        or game.anchor is None
        or ev["type"] in ("clock_set", "horn")
        or not E.is_num(clock)
    ):
        return ev, None
    ed = game.config.edition
    official = min(game.elapsed + max(0.0, now - game.anchor), game.config.period_end)
    params = {"clock": round(float(clock), 1), "official": round(official, 1), "window": int(ed.clock_stamp_window)}
    if clock > official + ed.clock_ahead_tolerance:
        return ev, Rejection("clock_ahead", "14.b(1)", m.CLOCK_AHEAD, params)
    if clock < official - ed.clock_stamp_window:
        return ev, Rejection("clock_too_old", "14.b(1)", m.CLOCK_TOO_OLD, params)
    if clock > official:
        return {**ev, "clock": round(official, 3)}, None
    return ev, None


def _keyed_time(game: Game, keyed: Any, now: float) -> tuple[float, Rejection | None]:
    """The time an entry was keyed at the field (``keyed_at``: the server time as the official's
    synced device read it at the entry's first key): the event is decided then, not when the
    request arrived — "Play" runs the clock from the key, a stoppage stops it there, and an entry
    kept on the device through an outage lands where the field kept it (issue 34: the field is the
    truth). CHOICE: within ``clock_ahead_tolerance`` ahead it is sync error (taken as now); it
    never precedes the newest event of the log (the log's times do not go backwards); further ahead
    than the tolerance, or older than ``field_window`` (the longest outage whose record is taken as
    the field kept it), is refused (14.b(1): the umpires correct the official time with a clock
    set)."""
    if not E.is_num(keyed):
        return now, Rejection("invalid_event", None, m.BAD_FIELD, {"field": "keyed_at"})
    ed = game.config.edition
    if keyed > now + ed.clock_ahead_tolerance:
        return now, Rejection("clock_ahead", "14.b(1)", m.KEY_AHEAD, {"seconds": round(float(keyed) - now, 1)})
    if keyed < now - ed.field_window:
        minutes = {"minutes": int((now - float(keyed)) // 60), "window": int(ed.field_window // 60)}
        return now, Rejection("clock_too_old", "14.b(1)", m.KEY_TOO_OLD, minutes)
    return entry_time(game, keyed, now), None


def entry_time(game: Game, keyed: Any, now: float) -> float:
    """When an entry happened at the field: its key (``keyed_at``), never after ``now`` nor before
    the newest event of the log (the log's times do not go backwards); ``now`` when it has no key.
    The one reading of a key's time: the rules' check above, the horns due before an entry
    (``matches.services``) and the field's own fold (``field.py``)."""
    if not E.is_num(keyed):
        return now
    previous = wall_time(game.log.entries[game.log_len - 1].event) if game.log_len else None
    return max(min(float(keyed), now), previous if previous is not None else float("-inf"))


# -- the log: ids, sequence numbers, corrections ----------------------------------------------------


def same_event(new: dict[str, Any], stored: dict[str, Any]) -> bool:
    """Whether ``new``, posted under the id of the accepted event ``stored``, is that event again
    (a retry: the first answer is given again) rather than other content under a used id
    (``duplicate_id``).

    The same event has the same keys with the same values, except what is not content: the
    client's ``expected_seq``, and what the server set when it stored the event — ``server_time``,
    ``by`` (who logged it), and ``clock`` when the repeat leaves it out (the server filled it in
    from the running clock the first time). A ``clock`` the repeat does give is content."""
    a = {k: v for k, v in new.items() if k not in NOT_CONTENT}
    b = {k: v for k, v in stored.items() if k not in NOT_CONTENT}
    if a.get("clock") is None:
        a.pop("clock", None)
        b.pop("clock", None)
    return a == b


_EMPTY_LOG = Log()
_entry = tuple.__new__


def _refold(game: Game, entries: list[Entry]) -> Game:
    g = game
    for e in entries:
        try:
            g = apply(g, parse(e.event, g.config), wall_time(e.event))
        except Refused as r:
            refuse("void_would_invalidate", None, m.VOID_INVALIDATES, id=e.id, reason=r.rejection.code)
    return g


def _void(game: Game, ev: E.Event) -> Game:
    """A correction: the target no longer counts. The log keeps both; the state is the fold of
    the log without the target (and without earlier voided events)."""
    body = ev.body
    if isinstance(body, Rejection):
        raise Refused(body)
    assert isinstance(body, E.Void)
    target = body.target
    entry = game.log.find(target, game.log_len)
    if entry is None:
        refuse("void_unknown_target", None, m.VOID_UNKNOWN, target=target)
    if entry.event["type"] == "void":
        refuse("invalid_event", None, m.VOID_OF_VOID)
    if target in game.voided:
        refuse("void_unknown_target", None, m.VOID_ALREADY, target=target)
    voided = game.voided | {target}
    entries = game.log.entries
    start, base = 0, new_game(game.config)
    # The nearest snapshot at or before the target that no later void has outdated (a void
    # appended after the snapshot, of an event before it, changed what precedes the snapshot).
    index = game.log.index
    voids = [(e.seq - 1, index[e.event["target"]]) for e in entries[: game.log_len] if e.event["type"] == "void"]
    for i in range(entry.seq - 1, -1, -1):
        snap = entries[i].before
        if snap is not None and not any(tp < i <= p for p, tp in voids):
            start, base = i, snap
            break
    kept = [e for e in entries[start : game.log_len] if e.event["type"] != "void" and e.id not in voided]
    return evolve(_refold(base, kept), voided=voided)


def decide(
    game: Game, event: Any, *, now: float | None = None, stamps: bool = True, strict_keys: bool = True
) -> Decision:
    """Accept or refuse ``event`` and return the Decision (the new Game when accepted, the same
    Game with a Rejection when not). ``now`` (epoch seconds) fills a missing ``clock`` from the
    running clock; replays pass none. ``stamps``: with ``now``, check a ``clock`` the event
    brings against the running clock (an official's device); False where the caller's ``now``
    is itself simulated (a demo, an import) and its clocks are the record. ``strict_keys``:
    refuse a key the event's type does not take and a ball out off its line (``strict``); False
    only for a stored log, whose events were judged when they arrived (``fold``)."""
    # The common path is straight-line: the server re-derives a match from its log on every event.
    if (
        type(event) is not dict
        or type(event.get("id")) is not str
        or type(event.get("type")) is not str
        or not event["id"]
        or event["type"] not in EVENT_TYPES
    ):
        return _bad_shape(game, event)
    eid = event["id"]
    log_len = game.log_len
    i = game.log.index.get(eid)
    if i is not None and i < log_len:
        return _repeated(game, event, game.log.entries[i])
    ev: dict[str, Any] = event
    if strict_keys:
        refused = strict.refusal(ev, game.config)
        if refused is not None:
            return Decision(False, game, refused, ev)
    if "expected_seq" in ev or WALL_TIME in ev or now is not None:
        ev, now, refused = _admit(game, ev, now, stamps)
        if refused is not None:
            return Decision(False, game, refused, ev)
    if game.held_from is not None:
        ev = periods.held_clock(game, ev)
    try:
        parsed = parse(ev, game.config)
        g = _void(game, parsed) if parsed.type == "void" else apply(game, parsed, now)
    except Refused as refusal:
        return Decision(False, game, refusal.rejection, ev)
    seq = log_len + 1
    # (``tuple.__new__``: the NamedTuple's own ``__new__`` costs twice as much, once per event.)
    log = game.log.appended(
        log_len, _entry(Entry, (seq, eid, ev, _rules_only(game) if seq % SNAPSHOT_EVERY == 1 else None))
    )
    if g is game:
        return Decision(True, evolve(g, log=log, log_len=seq), None, ev)
    # ``g`` was made by this call and nobody else holds it yet: finishing it in place saves a copy
    # per event on the server's hot path. (``logged`` below, for folds, does the same.)
    g.__dict__.update(log=log, log_len=seq)
    return Decision(True, g, None, ev)


def logged(game: Game, g: Game, ev: dict[str, Any]) -> Game:
    """``g`` (what the rules made of ``game`` and the event) with the event appended to the log."""
    seq = game.log_len + 1
    entry = Entry(seq, ev["id"], ev, _rules_only(game) if seq % SNAPSHOT_EVERY == 1 else None)
    log = game.log.appended(game.log_len, entry)
    if g is game:
        return evolve(g, log=log, log_len=seq)
    # ``g`` was made by this event's rules and nobody else holds it yet: finishing it in place
    # saves a copy per event on the server's hot path.
    g.__dict__.update(log=log, log_len=seq)
    return g


def _bad_shape(game: Game, event: Any) -> Decision:
    if type(event) is dict and type(event.get("id")) is str and event["id"] and type(event.get("type")) is str:
        return Decision(False, game, Rejection("invalid_event", None, m.BAD_TYPE, {"value": event["type"]}), event)
    return Decision(False, game, Rejection("invalid_event", None, m.BAD_SHAPE), event if type(event) is dict else None)


def _repeated(game: Game, event: dict[str, Any], entry: Entry) -> Decision:
    """Posting the same id twice records it once; different content under a used id is refused.
    CHOICE: only an accepted event takes its id; a refused one may be sent again, and is judged
    afresh. What "the same" means: ``same_event``."""
    if same_event(event, entry.event):
        return Decision(True, game, None, entry.event)
    return Decision(False, game, Rejection("duplicate_id", None, m.DUPLICATE_ID), event)


def _admit(
    game: Game, ev: dict[str, Any], now: float | None, stamps: bool = True
) -> tuple[dict[str, Any], float | None, Rejection | None]:
    """The live server's part: ``expected_seq`` checked and dropped, ``now`` recorded as
    ``server_time`` (or read back from it), a missing ``clock`` filled in from the running clock."""
    if "expected_seq" in ev:
        exp = ev["expected_seq"]
        if type(exp) is not int or exp < 0:
            return ev, now, Rejection("invalid_event", None, m.BAD_FIELD, {"field": "expected_seq"})
        if exp < game.log_len:
            return ev, now, Rejection("stale_sequence", None, m.STALE_SEQUENCE, {"last": game.log_len, "expected": exp})
        if exp > game.log_len:  # CHOICE: a client ahead of the log has not seen the log either: stale
            return ev, now, Rejection("stale_sequence", None, m.SEQ_AHEAD, {"last": game.log_len, "expected": exp})
        ev = {k: v for k, v in ev.items() if k != "expected_seq"}
    if now is None or WALL_TIME in ev:  # a stored event, or a horn the clock made due at its mark
        now = wall_time(ev) if WALL_TIME in ev else now
    else:
        if stamps and ev.get("keyed_at") is not None:
            now, refused = _keyed_time(game, ev["keyed_at"], now)
            if refused is not None:
                return ev, now, refused
        ev = {**ev, WALL_TIME: now}
        if stamps:
            ev, refused = _stamp_refusal(game, ev, now)
            if refused is not None:
                return ev, now, refused
    if (
        ev.get("clock") is None
        and game.running
        and game.anchor is not None
        and now is not None
        and ev["type"] not in strict.NO_CLOCK
    ):
        ev = {**ev, "clock": round(game.elapsed + max(0.0, now - game.anchor), 3)}
    return ev, now, None


def wall_time(ev: dict[str, Any]) -> float | None:
    """The wall time a stored event was decided at (``server_time``), if it has one."""
    t = ev.get(WALL_TIME)
    if t is not None and E.is_num(t):
        number: float = t
        return number
    return None


def _rules_only(game: Game) -> Game:
    """A snapshot for re-folding: the rules state, without the log."""
    return evolve(game, log=_EMPTY_LOG, log_len=0, voided=frozenset())


def due_events(game: Game, now: float) -> list[dict[str, Any]]:
    """The horns the running clock has made due by ``now`` (14.b(1)), with deterministic ids so
    that appending one twice records it once."""
    if not game.running or game.anchor is None:
        return []
    cfg = game.config
    projected = game.elapsed + (now - game.anchor)
    due = []
    if game.elapsed < cfg.period_seconds <= projected:
        due.append(_horn(game, "seven", cfg.period_seconds))
    if projected >= cfg.period_end:
        due.append(_horn(game, "final", cfg.period_end))
    return due


def _horn(game: Game, kind: str, mark: float) -> dict[str, Any]:
    """A horn of the running clock, stamped with the wall time of its mark (issue 34): whoever
    appends it — the server's watcher at the mark, or the next entry of the field's record after an
    outage — stores the same event, and the log is the same whether the link held or not. (Never
    before the newest event of the log: the log's times do not go backwards.)"""
    assert game.anchor is not None
    at = game.anchor + (float(mark) - game.elapsed)
    previous = wall_time(game.log.entries[game.log_len - 1].event) if game.log_len else None
    if previous is not None:
        at = max(at, previous)
    return {"type": "horn", "kind": kind, "clock": float(mark), "id": f"auto:{game.period}:{kind}", WALL_TIME: at}
