"""Reads for the public live pages (scoreboard, overlay, tournament day) beyond those they share
with the API and the websockets (``live.snapshots``: meta, snapshot, the day's matches).

Vocabulary: the *last goals* list is derived from the log by folding it and noting every event after which a
team's score went up (a goal, or a Penalty 1 that awards one) — and dropping it again when a later
``void`` takes it away. The period of each goal comes from the fold, so no page has to know the
rules to say "chukker 3".
"""
from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from redis.exceptions import RedisError

from officiating.engine import MatchConfig, decide, new_game, to_state

from matches.games import match_config
from matches.models import Match, MatchEvent, Tournament

log = logging.getLogger(__name__)

# Events after which a score can change: a goal, a foul (Penalty 1, goal at the whistle), a void.
SCORING_TYPES = frozenset({"goal", "foul", "void", "forfeit"})
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
    last_id = (MatchEvent.objects.filter(match=match, seq=match.last_seq).values_list("client_id", flat=True)
               .first())
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
    game = new_game(MatchConfig.from_dict(config))
    score = dict(to_state(game)["score"])
    goals: list[dict[str, Any]] = []
    rows = (MatchEvent.objects.filter(match=match, seq__lte=match.last_seq).order_by("seq")
            .values_list("seq", "payload"))
    for seq, event in rows:
        decision = decide(game, event)
        if not decision.accepted:
            continue
        game = decision.game
        kind = event.get("type")
        if kind == "substitution" and isinstance(event.get("player"), dict):
            names[(event.get("team"), event.get("out"))] = event["player"].get("name", "")
        if kind not in SCORING_TYPES:
            continue
        state = to_state(game)
        new_score = state["score"]
        for team in ("home", "away"):
            gained = new_score[team] - score[team]
            if gained > 0:
                goals.append(_goal_entry(seq, event, team, gained, state, names))
        if kind == "void" and any(new_score[t] < score[t] for t in ("home", "away")):
            goals = [g for g in goals if g["id"] != event.get("target")]
        score = dict(new_score)
    return goals


def _goal_entry(seq: int, event: dict[str, Any], team: str, gained: float, state: dict[str, Any],
                names: dict[tuple[str, int], str]) -> dict[str, Any]:
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
