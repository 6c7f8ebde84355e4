"""Reads for the public live pages (scoreboard, overlay, tournament day) beyond those they share
with the API and the websockets (``live.snapshots``: meta, snapshot, the day's matches).

Vocabulary: the *last goals* list is derived from the log by the engine's fold: every event that
counts after which a team's score went up (a goal, or a Penalty 1 that awards one); an event a
``void`` took back does not count. The period of each goal comes from the fold, so no page has to
know the rules to say "chukker 3".
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from redis.exceptions import RedisError

from matches.games import match_config
from matches.models import Match, MatchEvent, Tournament
from officiating.engine import MatchConfig, fold

log = logging.getLogger(__name__)

# The events whose goals the list shows: a goal, a foul (Penalty 1, goal at the whistle), a forfeit
# (not the shootout's deciding goal).
SCORING_TYPES = frozenset({"goal", "foul", "forfeit"})
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
    key = f"public:goals:{match.pk}:{match.last_seq}:{last_id}"
    try:
        goals = cache.get(key)
        if goals is None:
            goals = _fold_goals(match)
            cache.set(key, goals, 3600)
    except RedisError as exc:  # the cache only saves work: with Redis away, fold the log
        log.warning("goals cache unavailable: %r", exc)
        goals = _fold_goals(match)
    return {"goals": goals[-limit:][::-1], "last_seq": match.last_seq}


def _fold_goals(match: Match) -> list[dict[str, Any]]:
    config = match_config(match)
    names = {(team, p["number"]): p["name"] for team in ("home", "away") for p in config[team]["players"]}
    rows = (
        MatchEvent.objects.filter(match=match, seq__lte=match.last_seq)
        .order_by("seq")
        .values_list("payload", flat=True)
    )
    goals: list[dict[str, Any]] = []
    # The events that count (the engine sets voided events and their voids aside), each with the
    # states before and after it.
    for step in fold(MatchConfig.from_dict(config), rows, lang="en").steps:
        event, before, after = step.event, step.before, step.after
        assert before is not None and after is not None  # (folded with a language)
        kind = event.get("type")
        if kind == "substitution" and isinstance(event.get("player"), dict):
            names[(event.get("team"), event.get("out"))] = event["player"].get("name", "")
        if kind not in SCORING_TYPES:
            continue
        for team in ("home", "away"):
            gained = after["score"][team] - before["score"][team]
            if gained > 0:
                goals.append(_goal_entry(step.seq, event, team, gained, after, names))
    return goals


def _goal_entry(
    seq: int, event: dict[str, Any], team: str, gained: float, state: dict[str, Any], names: dict[tuple[str, int], str]
) -> dict[str, Any]:
    other = "away" if team == "home" else "home"
    number = event.get("number") if event.get("type") == "goal" else None
    own_goal = bool(event.get("own_goal"))
    hitter_team = other if own_goal else team
    period = state.get("period") or {}
    return {
        "id": event.get("id"),
        "seq": seq,
        "team": team,
        "goals": gained,
        "number": number,
        "name": names.get((hitter_team, number), "") if number else "",
        "own_goal": own_goal,
        "penalty": event.get("type") == "foul" or bool(event.get("from_penalty")),
        "period": period.get("number"),
        "period_kind": period.get("kind", "regulation"),
        "clock": event.get("clock"),
    }


def tournament_get(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)
