"""Standings and the bracket of a tournament (read side).

Results come from each match's folded state (``Match.state_cache``: status, score, winner,
result), so a correction or a forfeit recorded in the log changes them everywhere at once. A
forfeit counts as a win for the other team and a loss for the team that forfeits (column
"forfeits"); an abandoned match counts for nobody. The *net* is goals for minus goals against.

The bracket has no structure of its own in the data: its rounds are the tournament's days, each
match a box with both teams, the score and the winner.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.utils import timezone

from .models import Entry, Match, Tournament

FINAL = "final"


@dataclass
class StandingRow:
    entry: Entry
    played: int = 0
    wins: int = 0
    losses: int = 0
    forfeits: int = 0  # matches this team lost by forfeit
    goals_for: float = 0
    goals_against: float = 0

    @property
    def net(self) -> float:
        return self.goals_for - self.goals_against


def _result(match: Match) -> dict[str, Any] | None:
    state = match.state_cache or {}
    if state.get("status") != FINAL or state.get("winner") not in ("home", "away"):
        return None
    return state


def tournament_matches(tournament: Tournament):
    return tournament.matches.select_related("home__team", "away__team", "field").order_by("starts_at", "field__name")


def tournament_standings(tournament: Tournament) -> list[StandingRow]:
    rows = {e.pk: StandingRow(e) for e in tournament.entries.select_related("team")}
    for match in tournament_matches(tournament):
        state = _result(match)
        if state is None:
            continue
        score = state.get("score") or {}
        for side, entry_id in (("home", match.home_id), ("away", match.away_id)):
            other = "away" if side == "home" else "home"
            row = rows[entry_id]
            row.played += 1
            row.goals_for += float(score.get(side) or 0)
            row.goals_against += float(score.get(other) or 0)
            if state["winner"] == side:
                row.wins += 1
            else:
                row.losses += 1
                if state.get("result") == "forfeit":
                    row.forfeits += 1
    return sorted(rows.values(), key=lambda r: (-r.wins, -r.net, -r.goals_for, r.entry.team.name))


@dataclass
class BracketRound:
    day: date
    matches: list[Match] = field(default_factory=list)


def tournament_bracket(tournament: Tournament) -> list[BracketRound]:
    rounds: dict[date, BracketRound] = {}
    for match in tournament_matches(tournament):
        day = timezone.localdate(match.starts_at)
        rounds.setdefault(day, BracketRound(day)).matches.append(match)
    return [rounds[d] for d in sorted(rounds)]
