"""Reads of the statistics room: a match's box score and a tournament's statistics.

A match's box score comes from the game ``matches.games.match_game`` keeps folded (the per-process
cache the live path keeps current): its log gives the fold's steps (``fold(config, [], game=...)``
continues that game with no new events), so no page folds the rows again. The box score of a game
is kept beside it while that game is the match's (a game is immutable: the same object, the same
box score).

A tournament's statistics add up the box scores of its matches that have begun: the leading
scorers (goals from play and from penalties; an own goal is not the hitter's goal), the penalties
each team was awarded and converted, and the cards.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from django.shortcuts import get_object_or_404

from matches.games import match_config, match_game
from matches.models import Match, Tournament
from officiating.engine import Game, fold
from officiating.engine.boxscore import PENALTIES, BoxScore, box_score

_boxes: dict[int, tuple[Game, BoxScore]] = {}
_lock = threading.Lock()


def _matches():
    return Match.objects.select_related("tournament", "field", "home__team", "away__team", "referee", "scorer")


def stats_match_get(match_id: int) -> Match:
    return get_object_or_404(_matches(), pk=match_id)


def match_box_score(match: Match, config: dict[str, Any] | None = None) -> BoxScore:
    """The box score of the match's log as it stands (``match.last_seq``)."""
    game = match_game(match, config)
    with _lock:
        kept = _boxes.get(match.pk)
    if kept is not None and kept[0] is game:
        return kept[1]
    box = box_score(fold(game.config, [], game=game))
    with _lock:
        _boxes[match.pk] = (game, box)
    return box


def match_box_config(match: Match) -> tuple[BoxScore, dict[str, Any]]:
    """The box score with the match-log config it was counted from (names, colours, handicaps)."""
    config = match_config(match)
    return match_box_score(match, config), config


# -- a tournament ---------------------------------------------------------------------------------


@dataclass
class ScorerRow:
    team: str
    name: str
    goals: int = 0  # from play
    penalty_goals: int = 0
    matches: set[int] = field(default_factory=set)

    @property
    def total(self) -> int:
        return self.goals + self.penalty_goals


@dataclass
class TeamRow:
    team: str
    matches: int = 0
    goals: int = 0
    awarded: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PENALTIES, 0))
    converted: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PENALTIES, 0))
    yellow_cards: int = 0
    red_cards: int = 0

    @property
    def penalties_awarded(self) -> int:
        return sum(self.awarded.values())

    @property
    def penalties_converted(self) -> int:
        return sum(self.converted.values())

    @property
    def conversion(self) -> float | None:
        """Converted over awarded (Penalty 1 included: a goal awarded), or None with none awarded."""
        return self.penalties_converted / self.penalties_awarded if self.penalties_awarded else None


@dataclass
class CardRow:
    match_id: int
    team: str
    number: int | None
    name: str | None
    color: str
    period: int
    period_kind: str


@dataclass
class TournamentStats:
    tournament: Tournament
    matches: list[Match]
    scorers: list[ScorerRow]
    teams: list[TeamRow]
    cards: list[CardRow]


def tournament_stats(tournament: Tournament) -> TournamentStats:
    matches = list(_matches().filter(tournament=tournament, last_seq__gt=0).order_by("starts_at", "pk"))
    scorers: dict[tuple[str, str], ScorerRow] = {}
    teams: dict[str, TeamRow] = {}
    cards: list[CardRow] = []
    for match in matches:
        box = match_box_score(match)
        for line in box.teams:
            row = teams.setdefault(line.name, TeamRow(line.name))
            row.matches += 1
            row.goals += line.goals
            for tally in line.penalties:
                row.awarded[tally.penalty] += tally.awarded
                row.converted[tally.penalty] += tally.converted
            row.yellow_cards += line.yellow_cards
            row.red_cards += line.red_cards
        names = {t.team: t.name for t in box.teams}
        for p in box.players:
            if not p.total_goals or not p.name:
                continue
            scorer = scorers.setdefault((names[p.team], p.name), ScorerRow(names[p.team], p.name))
            scorer.goals += p.goals
            scorer.penalty_goals += p.penalty_goal_total
            scorer.matches.add(match.pk)
        player_names = {(p.team, p.number): p.name for p in box.players}
        for c in box.cards:
            cards.append(
                CardRow(
                    match.pk,
                    names[c.team],
                    c.number,
                    player_names.get((c.team, c.number)),
                    c.color,
                    c.period,
                    c.period_kind,
                )
            )
    return TournamentStats(
        tournament=tournament,
        matches=matches,
        scorers=sorted(scorers.values(), key=lambda s: (-s.total, -s.goals, s.name)),
        teams=sorted(teams.values(), key=lambda t: t.team),
        cards=cards,
    )


def tournament_stats_dict(stats: TournamentStats) -> dict[str, Any]:
    return {
        "tournament": {"id": stats.tournament.pk, "name": stats.tournament.name},
        "matches": [m.pk for m in stats.matches],
        "scorers": [
            {
                "team": s.team,
                "name": s.name,
                "goals": s.goals,
                "penalty_goals": s.penalty_goals,
                "total": s.total,
                "matches": len(s.matches),
            }
            for s in stats.scorers
        ],
        "teams": [
            {
                "team": t.team,
                "matches": t.matches,
                "goals": t.goals,
                "penalties": [
                    {"penalty": p, "awarded": t.awarded[p], "converted": t.converted[p]}
                    for p in PENALTIES
                    if t.awarded[p]
                ],
                "penalties_awarded": t.penalties_awarded,
                "penalties_converted": t.penalties_converted,
                "cards": {"yellow": t.yellow_cards, "red": t.red_cards},
            }
            for t in stats.teams
        ],
        "cards": [
            {
                "match": c.match_id,
                "team": c.team,
                "number": c.number,
                "name": c.name,
                "color": c.color,
                "period": c.period,
                "period_kind": c.period_kind,
            }
            for c in stats.cards
        ],
    }
