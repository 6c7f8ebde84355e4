"""The statistics' part of the OpenAPI document: the response types and examples of a match's box
score and a tournament's statistics, JSON or CSV, which the views declare (``matches.stats.api``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from matches.api.openapi_components import error_response
from matches.api.responses import ResponseType

Count = Annotated[int, Field(ge=0)]
Goals = Annotated[float, Field(multiple_of=0.5)]  # a handicap's half goals
Team = Literal["home", "away"]
Penalty = Literal["1", "2", "3", "4", "5a", "5b", "6"]
PeriodKind = Literal["regulation", "overtime", "shootout"]
Color = Literal["yellow", "red"]
ByPenalty = Annotated[
    dict[Literal["1", "2", "3", "4", "5a", "5b", "6", "unknown"], Count],
    Field(
        description='Counts by penalty number ("1", "2", "3", "4", "5a", "5b", "6"; "unknown" when the log does '
        "not say which penalty a goal came from)."
    ),
]


class Cards(ResponseType):
    yellow: Count
    red: Count


class BoxScorePlayer(ResponseType):
    team: Team
    number: int = Field(description="The jersey number: the position (1-4).")
    name: str | None
    handicap: float | None
    goals: Count = Field(description="Goals from play.")
    penalty_goals: ByPenalty
    own_goals: Count = Field(description="Own goals: counted for the other team.")
    total_goals: Count = Field(description="Goals from play plus goals from penalties.")
    penalties_conceded: ByPenalty | None = None
    cards: Cards | None = None
    injuries: Count | None = Field(default=None, description="Officials and committee only.")
    horse_timeouts: Count | None = Field(default=None, description="Officials and committee only.")


class LineScore(ResponseType):
    """The line score: goals per regulation chukker, overtime and the shootout's deciding goal apart,
    the handicap goals, and the total (the score)."""

    chukkers: list[Count]
    overtime: Count
    shootout: Count
    handicap: Goals
    total: Goals


class GoalKinds(ResponseType):
    field: Count
    penalty: Count
    penalty_1: Count
    own_goals_for: Count
    unattributed: Count
    shootout: Count
    total: Count


class PenaltyConversion(ResponseType):
    penalty: Penalty
    awarded: Count
    converted: Count


class BoxScoreTeam(ResponseType):
    name: str
    handicap_goals: Goals
    line: LineScore
    goals: GoalKinds
    penalties: list[PenaltyConversion]
    penalties_awarded: Count | None = None
    penalties_converted: Count | None = None
    knock_ins: Count = Field(description="Knock-ins the team took (22.a).")
    shots_wide: Count = Field(description="The team's missed shots: knock-ins it gave the other team.")
    knock_ins_by_chukker: list[Count] | None = Field(default=None, description="Regulation chukkers, then overtime.")
    shots_wide_by_chukker: list[Count] | None = None
    cards: Cards


class At(ResponseType):
    """When in the match (the log's position, the period, the chukker's clock)."""

    seq: int
    period: int | None = None
    period_kind: PeriodKind | None = None
    clock: float | None = None


class BoxScoreGoal(At):
    team: Team
    how: Literal["field", "penalty", "own_goal", "penalty_1", "shootout", "unattributed"]
    number: int | None = None
    hitter_team: Team | None = None
    name: str | None = None
    penalty: Literal["1", "2", "3", "4", "5a", "5b", "6", "unknown"] | None = None


class BoxScorePenalty(At):
    team: Team
    penalty: Penalty
    cause: Literal["foul", "safety", "restart_violation", "after_penalty_1"]
    against: Team | None = None
    number: int | None = None
    converted: bool | None = Field(description="null: not taken.")


class BoxScoreCard(At):
    team: Team
    number: int | None = None
    color: Color


class BoxScoreTeams(ResponseType):
    home: BoxScoreTeam
    away: BoxScoreTeam


class BoxScore(ResponseType):
    """docs/STATISTICS.md says how each figure is counted."""

    match: int
    public: bool = Field(description="true: the public figures (no injuries, no horse time-outs).")
    periods: int
    overtime_played: bool
    shootout_played: bool
    teams: BoxScoreTeams
    players: list[BoxScorePlayer]
    goals: list[BoxScoreGoal] | None = Field(default=None, description="Every goal in order.")
    penalties: list[BoxScorePenalty] | None = None
    cards: list[BoxScoreCard] | None = None
    last_seq: int


class TournamentName(ResponseType):
    id: int
    name: str


class Scorer(ResponseType):
    team: str
    name: str
    goals: Count
    penalty_goals: Count
    total: Count
    matches: Count


class TeamStats(ResponseType):
    team: str
    matches: Count
    goals: Count
    penalties: list[PenaltyConversion]
    penalties_awarded: Count
    penalties_converted: Count
    cards: Cards | None = None


class TournamentCard(ResponseType):
    match: int
    team: str
    number: int | None = None
    name: str | None = None
    color: Color
    period: int | None = None
    period_kind: PeriodKind | None = None


class TournamentStats(ResponseType):
    tournament: TournamentName
    matches: list[int] = Field(description="The matches counted (begun).")
    scorers: list[Scorer] = Field(description="Leading scorers first (total, then goals from play).")
    teams: list[TeamStats]
    cards: list[TournamentCard]


_PLAYER = {
    "team": "home",
    "number": 3,
    "name": "Blue 3",
    "handicap": 3,
    "goals": 1,
    "penalty_goals": {"2": 1},
    "own_goals": 0,
    "total_goals": 2,
    "penalties_conceded": {},
    "cards": {"yellow": 0, "red": 0},
}


def _team(name: str, chukkers: list[int], handicap: float, penalties: list[dict[str, Any]]) -> dict[str, Any]:
    goals = sum(chukkers)
    return {
        "name": name,
        "handicap_goals": handicap,
        "line": {"chukkers": chukkers, "overtime": 0, "shootout": 0, "handicap": handicap, "total": goals + handicap},
        "goals": {
            "field": goals - 1,
            "penalty": 1,
            "penalty_1": 0,
            "own_goals_for": 0,
            "unattributed": 0,
            "shootout": 0,
            "total": goals,
        },
        "penalties": penalties,
        "penalties_awarded": sum(p["awarded"] for p in penalties),
        "penalties_converted": sum(p["converted"] for p in penalties),
        "knock_ins": 2,
        "shots_wide": 1,
        "knock_ins_by_chukker": [1, 1, 0, 0, 0],
        "shots_wide_by_chukker": [0, 1, 0, 0, 0],
        "cards": {"yellow": 0, "red": 0},
    }


EXAMPLE_BOX_SCORE = {
    "match": 12,
    "public": True,
    "periods": 4,
    "overtime_played": False,
    "shootout_played": False,
    "teams": {
        "home": _team("Blue", [1, 1, 0, 1], 0, [{"penalty": "2", "awarded": 2, "converted": 1}]),
        "away": _team("Red", [0, 1, 1, 0], 1, [{"penalty": "4", "awarded": 1, "converted": 1}]),
    },
    "players": [_PLAYER],
    "goals": [
        {
            "seq": 4,
            "period": 1,
            "period_kind": "regulation",
            "clock": 65.0,
            "team": "home",
            "how": "penalty",
            "number": 3,
            "hitter_team": "home",
            "name": "Blue 3",
            "penalty": "2",
        }
    ],
    "penalties": [
        {
            "seq": 3,
            "period": 1,
            "period_kind": "regulation",
            "clock": 60.0,
            "team": "home",
            "penalty": "2",
            "cause": "foul",
            "against": "away",
            "number": 2,
            "converted": True,
        }
    ],
    "cards": [],
    "last_seq": 88,
}
EXAMPLE_TOURNAMENT_STATS = {
    "tournament": {"id": 3, "name": "Test Cup"},
    "matches": [12, 13],
    "scorers": [{"team": "Blue", "name": "Blue 3", "goals": 3, "penalty_goals": 2, "total": 5, "matches": 2}],
    "teams": [
        {
            "team": "Blue",
            "matches": 2,
            "goals": 9,
            "penalties": [{"penalty": "2", "awarded": 3, "converted": 2}],
            "penalties_awarded": 3,
            "penalties_converted": 2,
            "cards": {"yellow": 1, "red": 0},
        }
    ],
    "cards": [
        {
            "match": 12,
            "team": "Blue",
            "number": 4,
            "name": "Blue 4",
            "color": "yellow",
            "period": 2,
            "period_kind": "regulation",
        }
    ],
}
CSV = {"description": "The same figures as CSV.", "content": {"text/csv": {"schema": {"type": "string"}}}}


def or_csv(response: dict[str, Any]) -> dict[str, Any]:
    """A JSON answer that ``?format=csv`` gives as CSV."""
    return {**response, "content": {**response["content"], **CSV["content"]}}


BAD_FORMAT = error_response("format is neither json nor csv.", "invalid_format", "format must be json or csv.")
