"""Writes go through here. The event path:

API view → ``match_event_log`` (lock the match row so two devices cannot race; fold the log with
the rules engine; append the event with the next sequence number; ``on_commit`` broadcast).

The log is the truth. The folded ``Game`` is cached per process, keyed by the match's
``last_seq`` and its config, and re-derived from the rows whenever the key does not match.
"""
from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone as dt_timezone
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from officiating.engine import Game, MatchConfig, Rejection, decide, due_events, new_game, to_state

from .availability import event_refusal
from .broadcast import broadcast_match_update
from .models import Match, MatchEvent, RosterLine
from .permissions import can_void, match_role
from .tasks import match_report_after_commit

# Keys the client sends for transport only; they are not part of the stored event.
TRANSPORT_KEYS = ("expected_seq",)


def team_side(entry, handicap_goals) -> dict[str, Any]:
    """One team of the match-log config: name, colour, handicap goals and the roster at entry."""
    return {
        "name": entry.team.name,
        "color": entry.team.color,
        "handicap_goals": float(handicap_goals),
        "players": [
            {"number": line.number, "name": line.player.name, "handicap": line.handicap}
            for line in entry.roster.all()
        ],
    }


def match_config(match: Match) -> dict[str, Any]:
    """The match-log "match" object (contract) built from the ORM rows."""
    tournament = match.tournament

    return {
        "rules": tournament.rules_edition,
        "periods": match.periods,
        "period_seconds": match.period_seconds,
        "extra_seconds": 30,
        "interval_seconds": 180,
        "halftime_seconds": 300,
        "upper_handicap_limit": tournament.upper_handicap_limit,
        "courtesy_change": tournament.courtesy_change,
        "tack_allowance": tournament.tack_allowance,
        "field": {"length": match.field.length, "width": match.field.width, "boarded": match.field.boarded},
        "home_defends": match.home_defends,
        "home": team_side(match.home, match.home_handicap_goals),
        "away": team_side(match.away, match.away_handicap_goals),
    }


def _config_key(config: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()


@dataclass
class _Cached:
    last_seq: int
    config_key: str
    game: Game


_cache: dict[int, _Cached] = {}
_cache_lock = threading.Lock()


def match_game(match: Match, config: dict[str, Any] | None = None) -> Game:
    """The folded game for the match's log, from the per-process cache when it is current.

    The engine stores each event's wall time in it (``server_time``), so a clock started by a
    ``play`` gets its anchor back from the log after a restart. When another process has appended
    events since this process last folded, only the new rows are read.
    """
    config = config if config is not None else match_config(match)
    key = _config_key(config)
    with _cache_lock:
        cached = _cache.get(match.pk)
    if cached and cached.config_key == key and cached.last_seq == match.last_seq:
        return cached.game
    if cached and cached.config_key == key and cached.last_seq < match.last_seq:
        game, after = cached.game, cached.last_seq
    else:
        game, after = new_game(MatchConfig.from_dict(config)), 0
    rows = MatchEvent.objects.filter(match=match, seq__gt=after, seq__lte=match.last_seq).order_by("seq")
    for payload in rows.values_list("payload", flat=True):
        decision = decide(game, payload)
        # Every stored event was accepted when it arrived; if a rule change made one invalid,
        # the fold skips it rather than losing the rest of the log.
        if decision.accepted:
            game = decision.game
    _remember(match.pk, match.last_seq, key, game)
    return game


def state_at(game: Game, now: float, lang: str = "en") -> dict[str, Any]:
    """``to_state(game, now=now, lang=lang)`` with the clock's ``anchor`` = ``now`` while it runs.

    docs/ENGINE-API.md: ``anchor`` is "the now at which elapsed was read", and screens run the
    clock as ``elapsed + (server_now - anchor)``. The engine projects ``elapsed`` to ``now`` but
    (today) leaves the anchor at the throw-in, which would count the time since twice. Harmless
    once the engine sets it itself."""
    state = to_state(game, now=now, lang=lang)
    clock = state.get("clock") or {}
    if clock.get("running") and clock.get("anchor") is not None:
        clock["anchor"] = now
    return state


def _remember(match_id: int, last_seq: int, key: str, game: Game) -> None:
    with _cache_lock:
        _cache[match_id] = _Cached(last_seq, key, game)


def forget_all_cached_games() -> None:
    """For tests: a rolled-back SQLite transaction hands the same match id to the next test."""
    with _cache_lock:
        _cache.clear()


def forget_cached_game(match_id: int) -> None:
    with _cache_lock:
        _cache.pop(match_id, None)


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


def _same_event(stored: dict[str, Any], posted: dict[str, Any]) -> bool:
    """A retry is the same event when every key the client sent is unchanged (the server may have
    filled in ``clock``)."""
    posted = {k: v for k, v in posted.items() if k not in TRANSPORT_KEYS}
    return all(stored.get(k) == v for k, v in posted.items())


def _append(match: Match, event: dict[str, Any], user, now: float) -> MatchEvent:
    match.last_seq += 1
    return MatchEvent.objects.create(
        match=match,
        seq=match.last_seq,
        client_id=str(event["id"]),
        type=str(event.get("type", "")),
        payload=event,
        sent_by=user if getattr(user, "is_authenticated", False) else None,
        received_at=datetime.fromtimestamp(now, tz=dt_timezone.utc),  # the engine's ``now`` for it
    )


def horns_due(game: Game, now: float) -> list[dict[str, Any]]:
    """The horns the running clock has made due by ``now`` and the log does not hold yet.

    ``due_events`` goes on naming the 7-minute horn until the period ends (deciding it again is
    accepted and changes nothing: same id), so what is already logged is left out here."""
    return [e for e in due_events(game, now) if decide(game, e, now=now).game.last_seq > game.last_seq]


def _append_due(match: Match, game: Game, now: float) -> tuple[Game, list[MatchEvent]]:
    """Append the horns the running clock has made due (deterministic ids: safe to do twice)."""
    appended = []
    for auto in horns_due(game, now):
        decision = decide(game, auto, now=now)
        if decision.accepted and decision.game.last_seq > game.last_seq:
            game = decision.game
            appended.append(_append(match, decision.event, None, now))
    return game, appended


def _save_cache(match: Match, game: Game, config: dict[str, Any], now: float) -> dict[str, Any]:
    state = state_at(game, now)
    match.state_cache = state
    match.status = state.get("status", match.status)
    match.save(update_fields=["state_cache", "last_seq", "status"])
    _remember(match.pk, match.last_seq, _config_key(config), game)
    match_report_after_commit(match.pk, state)  # a match that ended (or was corrected): its report
    return state


def _on_commit_broadcast(match_id: int, rows: list[MatchEvent], game: Game, state: dict[str, Any], now: float) -> None:
    """After the commit (never before: a viewer must not see an event that may roll back), tell
    the match's viewers; the send itself does not wait for the channel layer (broadcast.py).

    The message carries the new events and the state in each language, so that no process has
    to read them back (measured: a hub's read of one update costs some 300 times what carrying
    the state does). ``state`` is the English one, already made for the cache."""
    if not rows:
        return
    states = {code: state if code == "en" else state_at(game, now, code) for code, _name in settings.LANGUAGES}
    events = [{"seq": row.seq, "id": row.client_id, "type": row.type, "event": row.payload,
               "received_at": row.received_at.timestamp()} for row in rows]
    first, last = rows[0].seq, rows[-1].seq
    transaction.on_commit(
        lambda: broadcast_match_update(match_id, first, last, states=states, events=events, server_time=now))


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
VOID_NOT_PERMITTED = ServiceRejection(
    "void_not_permitted",
    _("You may not void this event: only the committee may undo its own decisions, and only those who may log an event may void it."))


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
    target = MatchEvent.objects.filter(match=match, client_id=str(event.get("target"))).select_related("sent_by").first()
    if target is None:
        return None  # the engine says there is no such event
    return None if can_void(author["role"], target.type, _author_role(match, target)) else VOID_NOT_PERMITTED


def _last_wall_time(game: Game) -> float | None:
    """The server time the newest event of the log was decided at."""
    if not game.log_len:
        return None
    t = game.log.entries[game.log_len - 1].event.get("server_time")
    return float(t) if isinstance(t, (int, float)) else None


def _now_after_lock(game: Game) -> float:
    """The time an event is decided at, read once the match is locked (an event that waited for
    the lock happened when it got it), and never before the newest event of the log: the log's
    server times do not go backwards even if the machine's clock steps back."""
    now = time.time()
    last = _last_wall_time(game)
    return now if last is None else max(now, last)


def _locked_match(match_id: int) -> Match:
    """The match row, locked until the end of the transaction (two devices cannot race), with
    everything ``match_config`` reads. ``of=("self",)``: lock the match, not the joined rows."""
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("tournament", "field", "home__team", "away__team")
        .get(pk=match_id)
    )
    with_rosters([match])
    return match


def with_rosters(matches: list[Match]) -> list[Match]:
    """Load both teams' rosters of every match (players included) in one query."""
    entries = [entry for match in matches for entry in (match.home, match.away)]
    rosters = RosterLine.objects.select_related("player").order_by("number")
    prefetch_related_objects(entries, Prefetch("roster", queryset=rosters))
    return matches


def _stale(game: Game, event: dict[str, Any], now: float) -> Rejection | ServiceRejection:
    """The engine's ``stale_sequence`` (its message catalogue), or ours if it does not say it."""
    decision = decide(game, event, now=now)
    if not decision.accepted and decision.error is not None and decision.error.code == "stale_sequence":
        return decision.error
    return STALE_SEQUENCE


def _stale_answer(match: Match, game: Game, event: dict[str, Any], expected: int, now: float,
                  lang: str, stamps: bool) -> LogResult:
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
    return LogResult(accepted=False, state=state_at(game, now, lang), last_seq=match.last_seq, error=error,
                     valid_now=would is None, would_be=would)


@transaction.atomic
def match_event_log(*, match_id: int, event: dict[str, Any], user=None, now: float | None = None,
                    lang: str = "en") -> LogResult:
    """Validate one event with the rules engine and append it to the match's log if accepted.
    ``lang``: the language of the state in the answer (the cached state is in English). ``now``:
    for tests and the demo; live, the time is read after the match is locked."""
    match = _locked_match(match_id)

    existing = MatchEvent.objects.filter(match=match, client_id=str(event.get("id"))).first()
    config = match_config(match)
    game = match_game(match, config)
    # A device's clock stamp is checked against the server's clock; a caller that passes its own
    # ``now`` (the demo, tests that simulate a match) is the authority on time and its clocks.
    stamps = now is None
    if now is None:
        now = _now_after_lock(game)
    if existing is not None:
        if not _same_event(existing.payload, event):
            return LogResult(accepted=False, state=state_at(game, now, lang), last_seq=match.last_seq,
                             error=DUPLICATE_ID)
        return LogResult(
            accepted=True, state=state_at(game, now, lang), last_seq=match.last_seq,
            seq=existing.seq, event=existing.payload, duplicate=True,
        )

    # The client's expected_seq is checked against the log as the client saw it, before any horn
    # the clock has made due is appended on its behalf.
    expected = event.get("expected_seq")
    stripped = {k: v for k, v in event.items() if k not in TRANSPORT_KEYS and k != "by"}
    author = event_author(match, user)
    if author is not None:
        stripped["by"] = author
    if isinstance(expected, int) and not isinstance(expected, bool) and expected < match.last_seq:
        return _stale_answer(match, game, stripped, expected, now, lang, stamps)

    # Rule 21.d across the day: the engine sees this match only (matches/availability.py).
    refusal = event_refusal(match=match, event=stripped, now=now) or _void_refusal(match, stripped, author)
    if refusal is not None:
        return LogResult(accepted=False, state=state_at(game, now, lang), last_seq=match.last_seq, error=refusal)

    game, appended = _append_due(match, game, now)
    decision = decide(game, stripped, now=now, stamps=stamps)
    if not decision.accepted:
        if appended:
            state = _save_cache(match, game, config, now)
            _on_commit_broadcast(match.pk, appended, game, state, now)
        return LogResult(accepted=False, state=state_at(game, now, lang), last_seq=match.last_seq,
                         error=decision.error, appended=[row.seq for row in appended])

    row = _append(match, decision.event, user, now)
    appended.append(row)
    state = _save_cache(match, decision.game, config, now)
    _on_commit_broadcast(match.pk, appended, decision.game, state, now)
    if lang != "en":
        state = state_at(decision.game, now, lang)
    return LogResult(accepted=True, state=state, last_seq=match.last_seq, seq=row.seq, event=decision.event,
                     appended=[row.seq for row in appended])


@transaction.atomic
def match_clock_catch_up(*, match_id: int, now: float | None = None) -> list[int]:
    """Append the horns that are due by ``now`` (a read at 7:31 must show the period over even with
    nobody connected). Returns the appended sequence numbers; appending twice is harmless (the
    engine's horn ids are deterministic and the match row is locked)."""
    match = _locked_match(match_id)
    config = match_config(match)
    game = match_game(match, config)
    now = _now_after_lock(game) if now is None else now
    if not horns_due(game, now):
        return []
    game, appended = _append_due(match, game, now)
    if appended:
        state = _save_cache(match, game, config, now)
        _on_commit_broadcast(match.pk, appended, game, state, now)
    return [row.seq for row in appended]


def match_state(match: Match, *, now: float | None = None, lang: str = "en") -> dict[str, Any]:
    """The state to show now (read path): the cached fold projected to ``now``."""
    now = time.time() if now is None else now
    return state_at(match_game(match), now, lang)
