"""Reads for the public live pages (scoreboard, overlay, tournament day): no writes here.

Vocabulary: a match's *meta* is what does not change during play (teams, colours, field,
tournament); its *state* is the rules service's fold of the log (``services.match_state``); the
*last goals* list is derived from the log by folding it and noting every event after which a
team's score went up (a goal, or a Penalty 1 that awards one) — and dropping it again when a later
``void`` takes it away. The period of each goal comes from the fold, so no page has to know the
rules to say "chukker 3".
"""
from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from officiating.engine import MatchConfig, decide, new_game, to_state

from .models import Match, MatchEvent, Tournament
from .services import match_config, match_state

EXTRA_SECONDS = 30  # Rule 14.b: the double horn 30 s after the seven-minute horn
# Events after which a score can change: a goal, a foul (Penalty 1, goal at the whistle), a void.
SCORING_TYPES = frozenset({"goal", "foul", "void", "forfeit"})
LAST_GOALS = 8


def _matches() -> QuerySet[Match]:
    return Match.objects.select_related("tournament", "field", "home__team", "away__team")


def public_match_get(match_id: int) -> Match:
    return get_object_or_404(_matches(), pk=match_id)


def match_meta(match: Match) -> dict[str, Any]:
    """What a live page needs to know about a match besides its state."""
    return {
        "id": match.pk,
        "home": {"name": match.home.team.name, "color": match.home.team.color},
        "away": {"name": match.away.team.name, "color": match.away.team.color},
        "field": {"name": match.field.name, "length": match.field.length, "width": match.field.width,
                  "boarded": match.field.boarded},
        "tournament": {"id": match.tournament_id, "name": match.tournament.name},
        "starts_at": match.starts_at.isoformat(),
        "periods": match.periods,
        "period_seconds": match.period_seconds,
        "extra_seconds": EXTRA_SECONDS,
    }


def match_live_data(match: Match, *, lang: str) -> dict[str, Any]:
    """The initial data of a live page: meta, state now, and the sequence number it is at."""
    now = time.time()
    state = match_state(match, now=now, lang=lang)
    return {"match": match_meta(match), "state": state, "last_seq": state.get("last_seq") or match.last_seq,
            "server_time": now}


def match_players(match: Match) -> dict[str, dict[int, str]]:
    """Each team's players by number, for naming a goal's hitter."""
    config = match_config(match)
    return {team: {p["number"]: p["name"] for p in config[team]["players"]} for team in ("home", "away")}


def match_goals(match: Match, *, limit: int = LAST_GOALS) -> dict[str, Any]:
    """The last goals of a match, newest first: team, scorer, chukker and clock.

    Cached per (match, last_seq): the log only grows, so a new event means a new key.
    """
    key = f"public:goals:{match.pk}:{match.last_seq}"
    goals = cache.get(key)
    if goals is None:
        goals = _fold_goals(match)
        cache.set(key, goals, 3600)
    return {"goals": goals[-limit:][::-1], "last_seq": match.last_seq}


def _fold_goals(match: Match) -> list[dict[str, Any]]:
    config = match_config(match)
    names = {(team, p["number"]): p["name"] for team in ("home", "away") for p in config[team]["players"]}
    game = new_game(MatchConfig.from_dict(config))
    score = dict(to_state(game)["score"])
    goals: list[dict[str, Any]] = []
    rows = MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", "payload")
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


def tournament_day_matches(tournament: Tournament, day: dt.date, *, lang: str) -> list[dict[str, Any]]:
    """Every match of the tournament on ``day`` (local date), in order, each with its state now."""
    tz = timezone.get_current_timezone()
    start = timezone.make_aware(dt.datetime.combine(day, dt.time.min), tz)
    matches = _matches().filter(tournament=tournament, starts_at__gte=start,
                                starts_at__lt=start + dt.timedelta(days=1)).order_by("starts_at", "field__name")
    now = time.time()
    out = []
    for match in matches:
        state = match_state(match, now=now, lang=lang)
        out.append({**match_meta(match), "state": state, "last_seq": state.get("last_seq") or match.last_seq})
    return out
