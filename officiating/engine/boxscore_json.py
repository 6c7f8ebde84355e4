"""The box score (``boxscore.BoxScore``) as JSON-ready data: what the stats API, its CSV, the pages
and the report serve. Pure Python, like the rest of the engine."""

from __future__ import annotations

from typing import Any

from .boxscore import BoxScore, GoalRecord, PlayerLine, TeamLine, goal_record
from .state import Game


def box_score_dict(box: BoxScore, *, public: bool = False) -> dict[str, Any]:
    """The box score as JSON-ready data. ``public``: the figures a spectator may see (goals, the
    line score, penalties, cards); injuries and horse time-outs are the officials' and committee's."""

    def player_dict(p: PlayerLine) -> dict[str, Any]:
        d: dict[str, Any] = {
            "team": p.team,
            "number": p.number,
            "name": p.name,
            "handicap": _plain(p.handicap),
            "goals": p.goals,
            "penalty_goals": dict(p.penalty_goals),
            "own_goals": p.own_goals,
            "total_goals": p.total_goals,
            "penalties_conceded": dict(p.penalties_conceded),
            "cards": {"yellow": p.yellow_cards, "red": p.red_cards},
        }
        if not public:
            d.update(injuries=p.injuries, horse_timeouts=p.horse_timeouts)
        return d

    def team_dict(t: TeamLine) -> dict[str, Any]:
        return {
            "name": t.name,
            "handicap_goals": _plain(t.handicap_goals),
            "line": {
                "chukkers": list(t.by_period),
                "overtime": t.overtime,
                "shootout": t.shootout,
                "handicap": _plain(t.handicap_goals),
                "total": _plain(t.score),
            },
            "goals": {
                "field": t.field_goals,
                "penalty": t.penalty_goals,
                "penalty_1": t.penalty_1_goals,
                "own_goals_for": t.own_goals_for,
                "unattributed": t.unattributed,
                "shootout": t.shootout,
                "total": t.goals,
            },
            "penalties": [{"penalty": x.penalty, "awarded": x.awarded, "converted": x.converted} for x in t.penalties],
            "penalties_awarded": t.penalties_awarded,
            "penalties_converted": t.penalties_converted,
            "knock_ins": t.knock_ins,
            "shots_wide": t.shots_wide,
            "knock_ins_by_chukker": list(t.knock_ins_by_period),
            "shots_wide_by_chukker": list(t.shots_wide_by_period),
            "cards": {"yellow": t.yellow_cards, "red": t.red_cards},
        }

    return {
        "periods": box.periods,
        "overtime_played": box.overtime_played,
        "shootout_played": box.shootout_played,
        "teams": {t.team: team_dict(t) for t in box.teams},
        "players": [player_dict(p) for p in box.players],
        "goals": [
            {
                "seq": g.seq,
                "period": g.period,
                "period_kind": g.period_kind,
                "clock": g.clock,
                "team": g.team,
                "how": g.how,
                "number": g.number,
                "hitter_team": g.hitter_team,
                "name": g.name,
                "penalty": g.penalty,
            }
            for g in box.goals
        ],
        "penalties": [
            {
                "seq": p.seq,
                "period": p.period,
                "period_kind": p.period_kind,
                "clock": p.clock,
                "team": p.team,
                "penalty": p.penalty,
                "cause": p.cause,
                "against": p.against,
                "number": p.number,
                "converted": p.converted,
            }
            for p in box.penalties
        ],
        "cards": [
            {
                "seq": c.seq,
                "period": c.period,
                "period_kind": c.period_kind,
                "clock": c.clock,
                "team": c.team,
                "number": c.number,
                "color": c.color,
            }
            for c in box.cards
        ],
        "last_seq": box.last_seq,
    }


def _plain(v: float | None) -> int | float | None:
    if v is None:
        return None
    return int(v) if float(v).is_integer() else v


def goal_row(goal: GoalRecord) -> dict[str, Any]:
    """A goal as the scoreboard's list, ``GET /api/matches/{id}/goals`` and a live update's
    ``goals`` give it: the fold's record, nothing worked out again."""
    return {
        "id": goal.id,
        "seq": goal.seq,
        "team": goal.team,
        "goals": 1,
        "number": goal.number,
        "name": goal.name or "",
        "own_goal": goal.own_goal,
        "penalty": goal.penalty is not None,
        "how": goal.how,
        "penalty_number": goal.penalty,
        "period": goal.period,
        "period_kind": goal.period_kind,
        "clock": goal.clock,
    }


def goal_rows(game: Game, *, since: int = 0) -> list[dict[str, Any]]:
    """The goals that stand in ``game`` logged after ``since``, in the order of the match. The
    shootout's deciding goal (Rule 14.d) is no row: the screens show the shootout apart. Read from
    the newest goal back (the fold keeps them in the order of the log): a live update, which asks
    for the goals of its own events, reads those only."""
    rows = []
    for scored in reversed(game.scored):
        goal = goal_record(game.seq_of(scored.id) or 0, scored)
        if goal.seq <= since:
            break
        if goal.how != "shootout":
            rows.append(goal_row(goal))
    return rows[::-1]
