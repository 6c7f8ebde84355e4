"""The match log's write path. Writes go through here:

API view → ``match_event_log`` (lock the match row so two devices cannot race; fold the log with
the rules engine; append the event with the next sequence number; save the state cache) →
``log_events.publish``: once the transaction commits, the rooms that subscribed hear of it (the
live room broadcasts to the sockets, the committee room builds the report of a finished match).
This module imports no room: that seam is its only way out.

``match_clock_catch_up`` appends the horns a running clock has made due (the clock watcher and
the reads call it). The folded game and its cache are in ``games``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from officiating.engine import Game, Rejection, decide, same_event, to_state
from officiating.engine.log import entry_time

from .availability import event_refusal
from .compiled import append_and_save, locked_match_with_config
from .games import game_remember, horns_due, match_config, match_game
from .log_events import LoggedEvents, publish
from .models import Match, MatchEvent
from .permissions import can_void, match_role

# Keys the client sends for transport only; they are not part of the stored event.
TRANSPORT_KEYS = ("expected_seq",)
# Keys only the server sets: who logged the event, and the time it was decided at (a client's
# ``server_time`` would skip the clock-stamp checks and move the clock's anchor).
SERVER_KEYS = ("by", "server_time")


@dataclass
class LogResult:
    """The answer to one posted event."""

    accepted: bool
    state: dict[str, Any]
    last_seq: int
    seq: int | None = None
    event: dict[str, Any] | None = None
    error: Rejection | None = None
    duplicate: bool = False  # a retry of an event already recorded: the first answer again
    appended: list[int] = field(default_factory=list)  # every seq this call appended (horns too)
    # A stale event (the log moved on since the official began it): would it be accepted on the
    # log as it is now, and if not, why (issue 9: the screen offers to keep it or drop it).
    valid_now: bool | None = None
    would_be: Rejection | ServiceRejection | None = None


def _append(match: Match, event: dict[str, Any], user, now: float) -> MatchEvent:
    """The next row of the log, saved with the match's state by ``_save_and_publish``."""
    match.last_seq += 1
    return MatchEvent(
        match=match,
        seq=match.last_seq,
        client_id=str(event["id"]),
        type=str(event.get("type", "")),
        payload=event,
        sent_by=user if getattr(user, "is_authenticated", False) else None,
        received_at=datetime.fromtimestamp(now, tz=UTC),  # the engine's ``now`` for it
    )


def _append_due(match: Match, game: Game, now: float) -> tuple[Game, list[MatchEvent]]:
    """Append the horns the running clock has made due (deterministic ids: safe to do twice)."""
    appended = []
    for auto in horns_due(game, now):
        decision = decide(game, auto, now=now)
        if decision.accepted and decision.game.last_seq > game.last_seq:
            game = decision.game
            appended.append(_append(match, decision.event, None, now))
    return game, appended


def _save_and_publish(
    match: Match, game: Game, config: dict[str, Any], now: float, rows: list[MatchEvent]
) -> dict[str, Any]:
    """After appending ``rows``: store them with the state cache, remember the fold, and hand the
    rows and the state after them to the seam (``log_events``), which passes them on once the
    transaction commits. Returns the state (English, projected to ``now``)."""
    state = to_state(game, now=now)
    match.state_cache = state
    match.status = state.get("status", match.status)
    append_and_save(match, rows, ("state_cache", "last_seq", "status"))
    game_remember(match.pk, match.last_seq, config, game)
    events = tuple(
        {
            "seq": row.seq,
            "id": row.client_id,
            "type": row.type,
            "event": row.payload,
            "received_at": row.received_at.timestamp(),
        }
        for row in rows
    )
    publish(LoggedEvents(match_id=match.pk, events=events, state=state, game=game, now=now))
    return state


@dataclass(frozen=True)
class ServiceRejection:
    """A refusal the service decides itself (transport, not rules); quacks like ``Rejection``."""

    code: str
    text: Any  # a lazy translation
    rule: str | None = None

    def message(self, lang: str = "en") -> str:
        with translation.override(lang):
            return str(self.text)


STALE_SEQUENCE = ServiceRejection(
    "stale_sequence", _("The match has moved on since your last update: check the new state and send again.")
)
DUPLICATE_ID = ServiceRejection("duplicate_id", _("Another event with this id was recorded with different content."))
# One writer per match (matches/field/): while the field's own server keeps the match, this one
# holds a replica of its log and takes no event for it; the decision is made at the field.
KEPT_AT_FIELD = ServiceRejection(
    "kept_at_field",
    _(
        "This match is kept at the field: its log is written on the field's own server. Log this event there "
        "(the scorer's laptop at the field), or ask the committee to take the match back first."
    ),
)
VOID_NOT_PERMITTED = ServiceRejection(
    "void_not_permitted",
    _(
        "You may not void this event: only the committee may undo its own decisions, and only those who may log an "
        "event may void it."
    ),
)


def event_author(match: Match, user) -> dict[str, str] | None:
    """Who logged an event, as stored with it (``by``): the role on this match and a name the
    other officials know (issue 9: "Umpire 1: foul…"). None for the clock's own horns."""
    if not getattr(user, "is_authenticated", False):
        return None
    name = user.get_full_name() or user.get_username()
    return {"role": match_role(user, match) or "other", "name": name}


def _author_role(match: Match, row: MatchEvent) -> str | None:
    """The role of whoever logged a stored event: from its ``by``, or (events logged before
    ``by`` was stored) from its sender's role now."""
    by = row.payload.get("by") if isinstance(row.payload, dict) else None
    if isinstance(by, dict) and isinstance(by.get("role"), str):
        return by["role"]
    return match_role(row.sent_by, match) if row.sent_by_id else None


def _void_refusal(match: Match, event: dict[str, Any], author: dict[str, str] | None) -> ServiceRejection | None:
    """Who may undo what: refuse a void of an event the voider may not log, or of the committee's."""
    if event.get("type") != "void" or author is None:
        return None
    target = (
        MatchEvent.objects.filter(match=match, client_id=str(event.get("target"))).select_related("sent_by").first()
    )
    if target is None:
        return None  # the engine says there is no such event
    return None if can_void(author["role"], target.type, _author_role(match, target)) else VOID_NOT_PERMITTED


def _last_wall_time(game: Game) -> float | None:
    """The server time the newest event of the log was decided at."""
    if not game.log_len:
        return None
    t = game.log.entries[game.log_len - 1].event.get("server_time")
    return float(t) if isinstance(t, (int, float)) else None


def horns_due_by(match: Match, now: float) -> float:
    """Up to when the server may append the horns of the match's running clock: ``now``, or, when
    the field keeps the time, the last moment its timekeeper had everything sent (issue 34:
    ``live/field.py``)."""
    heard = match.field_heard_at
    return now if heard is None else min(now, heard)


def _now_after_lock(game: Game) -> float:
    """The time an event is decided at, read once the match is locked (an event that waited for
    the lock happened when it got it), and never before the newest event of the log: the log's
    server times do not go backwards even if the machine's clock steps back."""
    now = time.time()
    last = _last_wall_time(game)
    return now if last is None else max(now, last)


def locked_match(match_id: int) -> Match | None:
    """The match row, locked until the end of the caller's transaction (two devices cannot race),
    with every row ``match_config`` reads (tournament, field, entries, teams, both rosters with
    their players); None if there is no such match. Only the match is locked, not the joined rows
    (a roster changed a moment before the lock or a moment after is the same race). The event's
    POST takes this as its only read of the match: the checks of who may post what read it under
    the lock, and ``match_event_log(locked=...)`` goes on with it. Two statements built once per
    process (``compiled``: the ORM's compiler cost more than the database on every POST)."""
    return locked_match_with_config(match_id)


def _locked_match(match_id: int) -> Match:
    match = locked_match(match_id)
    if match is None:
        raise Match.DoesNotExist(f"no match {match_id}")
    return match


def _stored(match: Match, game: Game, event_id: str) -> tuple[int, dict[str, Any]] | None:
    """The accepted event stored under ``event_id`` (its seq and the event as stored), or None.
    From the fold when it holds every stored row (one entry per row: the same seqs), as it does
    unless a rule change made a stored event invalid (``games.match_game`` skips it); from the rows
    otherwise. A retry is then answered without a read, and the engine itself judges a used id by
    the same entry (``decide``)."""
    if game.last_seq == match.last_seq:
        entry = game.log.find(event_id, game.log_len)
        return None if entry is None else (entry.seq, entry.event)
    row = MatchEvent.objects.filter(match=match, client_id=event_id).first()
    return None if row is None else (row.seq, row.payload)


def _stale(game: Game, event: dict[str, Any], now: float) -> Rejection | ServiceRejection:
    """The engine's ``stale_sequence`` (its message catalogue), or ours if it does not say it."""
    decision = decide(game, event, now=now)
    if not decision.accepted and decision.error is not None and decision.error.code == "stale_sequence":
        return decision.error
    return STALE_SEQUENCE


def _stale_answer(
    match: Match, game: Game, event: dict[str, Any], expected: int, now: float, lang: str, stamps: bool
) -> LogResult:
    """``stale_sequence``, with whether the event would be accepted on the log as it is now (the
    horns the clock has made due included) and, if not, the refusal it would get."""
    error = _stale(game, {**event, "expected_seq": expected}, now)
    current = game
    for auto in horns_due(game, now):
        current = decide(current, auto, now=now).game
    would = event_refusal(match=match, event=event, now=now) or _void_refusal(match, event, event.get("by"))
    if would is None:
        decision = decide(current, event, now=now, stamps=stamps)
        would = None if decision.accepted else decision.error
    return LogResult(
        accepted=False,
        state=to_state(game, now=now, lang=lang),
        last_seq=match.last_seq,
        error=error,
        valid_now=would is None,
        would_be=would,
    )


@transaction.atomic(savepoint=False)  # no savepoint inside the POST's transaction: it rolls back whole
def match_event_log(
    *,
    match_id: int,
    event: dict[str, Any],
    user=None,
    now: float | None = None,
    lang: str = "en",
    locked: Match | None = None,
) -> LogResult:
    """Validate one event with the rules engine and append it to the match's log if accepted.
    ``lang``: the language of the state in the answer (the cached state is in English). ``now``:
    for tests and the demo; live, the time is read after the match is locked. ``locked``: the
    match as the caller's transaction has locked it (``locked_match``)."""
    if locked is not None:
        if not transaction.get_connection().in_atomic_block:
            raise transaction.TransactionManagementError("locked= needs the transaction that locked the match")
        match = locked
    else:
        match = _locked_match(match_id)

    config = match_config(match)
    game = match_game(match, config)
    existing = _stored(match, game, str(event.get("id")))
    # A device's clock stamp is checked against the server's clock; a caller that passes its own
    # ``now`` (the demo, tests that simulate a match) is the authority on time and its clocks.
    stamps = now is None
    if now is None:
        now = _now_after_lock(game)
    if existing is not None:
        # A retry (the first answer again) or other content under a used id: the engine's one
        # definition of the same event, the posted one against the stored one.
        stored_seq, stored_event = existing
        if not same_event(event, stored_event):
            return LogResult(
                accepted=False, state=to_state(game, now=now, lang=lang), last_seq=match.last_seq, error=DUPLICATE_ID
            )
        return LogResult(
            accepted=True,
            state=to_state(game, now=now, lang=lang),
            last_seq=match.last_seq,
            seq=stored_seq,
            event=stored_event,
            duplicate=True,
        )
    if match.kept_at == Match.KeptAt.FIELD:
        return LogResult(
            accepted=False, state=to_state(game, now=now, lang=lang), last_seq=match.last_seq, error=KEPT_AT_FIELD
        )

    # The client's expected_seq is checked against the log as the client saw it, before any horn
    # the clock has made due is appended on its behalf.
    expected = event.get("expected_seq")
    stripped = {k: v for k, v in event.items() if k not in TRANSPORT_KEYS and k not in SERVER_KEYS}
    author = event_author(match, user)
    if author is not None:
        stripped["by"] = author
    # Behind the log or ahead of it (a client that has not seen the log either): stale (issue 11).
    if isinstance(expected, int) and not isinstance(expected, bool) and expected != match.last_seq:
        return _stale_answer(match, game, stripped, expected, now, lang, stamps)

    # Rule 21.d across the day: the engine sees this match only (matches/availability.py).
    refusal = event_refusal(match=match, event=stripped, now=now, game=game) or _void_refusal(match, stripped, author)
    if refusal is not None:
        return LogResult(
            accepted=False, state=to_state(game, now=now, lang=lang), last_seq=match.last_seq, error=refusal
        )

    # The horns the clock made due before the event: by the time it was keyed at the field, not
    # when it arrived (an entry kept through an outage follows the horns the field heard, and
    # precedes those it did not: issue 34).
    due_by = (
        entry_time(game, stripped["keyed_at"], now) if stamps and "keyed_at" in stripped else horns_due_by(match, now)
    )
    game, appended = _append_due(match, game, due_by)
    decision = decide(game, stripped, now=now, stamps=stamps)
    if not decision.accepted:
        if appended:
            _save_and_publish(match, game, config, now, appended)
        return LogResult(
            accepted=False,
            state=to_state(game, now=now, lang=lang),
            last_seq=match.last_seq,
            error=decision.error,
            appended=[row.seq for row in appended],
        )

    row = _append(match, decision.event, user, now)
    appended.append(row)
    state = _save_and_publish(match, decision.game, config, now, appended)
    if lang != "en":
        state = to_state(decision.game, now=now, lang=lang)
    return LogResult(
        accepted=True,
        state=state,
        last_seq=match.last_seq,
        seq=row.seq,
        event=decision.event,
        appended=[row.seq for row in appended],
    )


@transaction.atomic
def match_clock_catch_up(*, match_id: int, now: float | None = None) -> list[int]:
    """Append the horns that are due by ``now`` (a read at 7:31 must show the period over even with
    nobody connected). Returns the appended sequence numbers; appending twice is harmless (the
    engine's horn ids are deterministic and the match row is locked)."""
    match = _locked_match(match_id)
    if match.kept_at == Match.KeptAt.FIELD:
        return []  # the field's server keeps this match's clock and appends its horns
    config = match_config(match)
    game = match_game(match, config)
    now = _now_after_lock(game) if now is None else now
    due_by = horns_due_by(match, now)
    if not horns_due(game, due_by):
        return []
    game, appended = _append_due(match, game, due_by)
    if appended:
        _save_and_publish(match, game, config, now, appended)
    return [row.seq for row in appended]
