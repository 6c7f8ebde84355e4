"""A match's folded game: its config for the rules engine and the per-process cache of the fold.

Vocabulary: the *config* of a match is the match-log ``match`` object (contract) built from the
ORM rows — rules edition, periods, field, teams and rosters. Its *game* is the rules engine's
fold of the log (``officiating.engine.Game``). The log is the truth: the game is cached per
process, keyed by the match's ``last_seq`` and its config, and re-derived from the rows whenever
the key does not match. Both the write path (``services``) and the reads (``selectors``) fold
through here; nothing here writes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, prefetch_related_objects

from officiating.engine import Game, MatchConfig, decide, due_events, fold

from .models import Match, MatchEvent, RosterLine

log = logging.getLogger(__name__)


def team_side(entry, handicap_goals) -> dict[str, Any]:
    """One team of the match-log config: name, colour, handicap goals and the roster at entry."""
    return {
        "name": entry.team.name,
        "color": entry.team.color,
        "handicap_goals": float(handicap_goals),
        "players": [
            {"number": line.number, "name": line.player.name, "handicap": line.handicap} for line in entry.roster.all()
        ],
    }


def match_config(match: Match) -> dict[str, Any]:
    """The match-log "match" object (contract) built from the ORM rows. The times the rows do not
    set (the extra portion, the intervals, half-time) are left to the rule edition (``rules``)."""
    tournament = match.tournament

    return {
        "rules": tournament.rules_edition,
        "periods": match.periods,
        "period_seconds": match.period_seconds,
        "upper_handicap_limit": tournament.upper_handicap_limit,
        "courtesy_change": tournament.courtesy_change,
        "tack_allowance": tournament.tack_allowance,
        "field": {"length": match.field.length, "width": match.field.width, "boarded": match.field.boarded},
        "home_defends": match.home_defends,
        "home": team_side(match.home, match.home_handicap_goals),
        "away": team_side(match.away, match.away_handicap_goals),
    }


def with_rosters(matches: list[Match]) -> list[Match]:
    """Load both teams' rosters of every match (players included) in one query."""
    entries = [entry for match in matches for entry in (match.home, match.away)]
    rosters = RosterLine.objects.select_related("player").order_by("number")
    prefetch_related_objects(entries, Prefetch("roster", queryset=rosters))
    return matches


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
        folded, after = cached.game, cached.last_seq
    else:
        folded, after = None, 0
    rows = MatchEvent.objects.filter(match=match, seq__gt=after, seq__lte=match.last_seq).order_by("seq")
    # Every stored event was accepted when it arrived; if a rule change made one invalid, the fold
    # skips it (``Fold.refused``) rather than losing the rest of the log.
    engine_config = folded.config if folded is not None else MatchConfig.from_dict(config)
    folding = fold(engine_config, rows.values_list("payload", flat=True), game=folded)
    for refusal in folding.refused:
        log.warning(
            "match %s: stored event %r is refused by the rules now (%s); skipped",
            match.pk,
            refusal.id,
            refusal.error.code,
        )
    game = folding.game
    game_remember(match.pk, match.last_seq, config, game)
    return game


def game_remember(match_id: int, last_seq: int, config: dict[str, Any], game: Game) -> None:
    """Keep ``game`` as the fold of the match's log up to ``last_seq`` (the write path, after an append)."""
    key = _config_key(config)
    with _cache_lock:
        _cache[match_id] = _Cached(last_seq, key, game)


def forget_all_cached_games() -> None:
    """For tests: a rolled-back SQLite transaction hands the same match id to the next test."""
    with _cache_lock:
        _cache.clear()


def forget_cached_game(match_id: int) -> None:
    with _cache_lock:
        _cache.pop(match_id, None)


def horns_due(game: Game, now: float) -> list[dict[str, Any]]:
    """The horns the running clock has made due by ``now`` and the log does not hold yet.

    ``due_events`` goes on naming the 7-minute horn until the period ends (deciding it again is
    accepted and changes nothing: same id), so what is already logged is left out here."""
    return [e for e in due_events(game, now) if decide(game, e, now=now).game.last_seq > game.last_seq]
