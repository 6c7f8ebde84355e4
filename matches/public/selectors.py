"""Reads for the public live pages (scoreboard, overlay, tournament day) beyond those they share
with the API and the websockets (``live.snapshots``: meta, snapshot, the day's matches).

Vocabulary: the *last goals* list is the engine's own record of the goals (``Game.scored``, kept
with the match's folded game by ``matches.games``): every goal that stands, with its kind, hitter,
penalty and period exactly as the box score and the official report give it; a goal a ``void``
took back is not there. No page has to know the rules to say "chukker 3" or "penalty goal".
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from redis.exceptions import RedisError

from matches.games import match_game
from matches.models import Match, MatchEvent, Tournament
from officiating.engine.boxscore_json import goal_rows

log = logging.getLogger(__name__)

LAST_GOALS = 8


def _matches() -> QuerySet[Match]:
    return Match.objects.select_related("tournament", "field", "home__team", "away__team")


def public_match_get(match_id: int) -> Match:
    return get_object_or_404(_matches(), pk=match_id)


def match_goals(match: Match, *, limit: int = LAST_GOALS) -> dict[str, Any]:
    """The last goals of a match, newest first: team, scorer, chukker and clock.

    Cached per (match, last_seq, id of the last event): the log only grows, so a new event means
    a new key (the id keeps a rebuilt database from meeting an old entry).
    """
    last_id = MatchEvent.objects.filter(match=match, seq=match.last_seq).values_list("client_id", flat=True).first()
    key = f"public:goals:v2:{match.pk}:{match.last_seq}:{last_id}"
    try:
        goals = cache.get(key)
        if goals is None:
            goals = _goals(match)
            cache.set(key, goals, 3600)
    except RedisError as exc:  # the cache only saves work: with Redis away, read the game
        log.warning("goals cache unavailable: %r", exc)
        goals = _goals(match)
    return {"goals": goals[-limit:][::-1], "last_seq": match.last_seq}


def _goals(match: Match) -> list[dict[str, Any]]:
    return goal_rows(match_game(match))


def tournament_get(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)
