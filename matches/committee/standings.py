"""Standings and the bracket of a tournament (read side).

Results come from each match's folded state (``Match.state_cache``: status, score, winner,
result), so a correction or a forfeit recorded in the log changes them everywhere at once. A
forfeit counts as a win for the other team and a loss for the team that forfeits (column
"forfeits"); an abandoned match counts for nobody. The *net* is goals for minus goals against.

The standings count every match but those of a knockout stage (``Match.stage``: round of 16 to
the final), which decide the bracket instead.

The bracket's rounds are the knockout stages in order, each match a box with both teams, the score
and the winner; the other matches (zone play, subsidiary, or no stage given) come first, a round
per day.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.utils import timezone

from matches.models import Entry, Match, Tournament

FINAL = "final"
# The knockout stages, in the order the bracket shows them.
KNOCKOUT = (
    Match.Stage.ROUND_OF_16,
    Match.Stage.QUARTERFINAL,
    Match.Stage.SEMIFINAL,
    Match.Stage.THIRD_PLACE,
    Match.Stage.FINAL,
)


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
        if state is None or match.stage in KNOCKOUT:
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
    day: date | None  # a round of the other matches: their day
    stage: str = ""  # a knockout round: its stage
    matches: list[Match] = field(default_factory=list)

    @property
    def title(self) -> str:
        return str(Match.Stage(self.stage).label) if self.stage else ""


def tournament_bracket(tournament: Tournament) -> list[BracketRound]:
    days: dict[date, BracketRound] = {}
    stages: dict[str, BracketRound] = {}
    for match in tournament_matches(tournament):
        if match.stage in KNOCKOUT:
            stages.setdefault(match.stage, BracketRound(None, match.stage)).matches.append(match)
        else:
            day = timezone.localdate(match.starts_at)
            days.setdefault(day, BracketRound(day)).matches.append(match)
    return [days[d] for d in sorted(days)] + [stages[s] for s in KNOCKOUT if s in stages]
