"""The statistics' part of the OpenAPI document (``matches.api.openapi`` merges ``paths()`` and
``schemas()`` into it): a match's box score and a tournament's statistics, JSON or CSV."""

from __future__ import annotations

from typing import Any

from matches.api.openapi_components import MATCH_ID, error_response, json_content, ref

TOURNAMENT_ID = {"name": "tournament_id", "in": "path", "required": True, "schema": {"type": "integer"}}
FORMAT = {
    "name": "format",
    "in": "query",
    "required": False,
    "schema": {"enum": ["json", "csv"]},
    "description": "csv: the same figures as CSV (as the path ending .csv gives them).",
}
COUNT = {"type": "integer", "minimum": 0}
BY_PENALTY = {
    "type": "object",
    "description": 'Counts by penalty number ("1", "2", "3", "4", "5a", "5b", "6"; "unknown" when the log '
    "does not say which penalty a goal came from).",
    "propertyNames": {"enum": ["1", "2", "3", "4", "5a", "5b", "6", "unknown"]},
    "additionalProperties": COUNT,
}
CARDS = {"type": "object", "required": ["yellow", "red"], "properties": {"yellow": COUNT, "red": COUNT}}
COLOR = {"enum": ["yellow", "red"]}
PERIOD_KIND = {"enum": ["regulation", "overtime", "shootout"]}
TEAM = {"enum": ["home", "away"]}
PENALTY = {"enum": ["1", "2", "3", "4", "5a", "5b", "6"]}
NUMBER = {"type": "number", "multipleOf": 0.5}
GOAL_KINDS = ("field", "penalty", "penalty_1", "own_goals_for", "unattributed", "shootout", "total")

BOX_PLAYER = {
    "type": "object",
    "required": ["team", "number", "name", "handicap", "goals", "penalty_goals", "own_goals", "total_goals"],
    "properties": {
        "team": TEAM,
        "number": {"type": "integer", "description": "The jersey number: the position (1-4)."},
        "name": {"type": ["string", "null"]},
        "handicap": {"type": ["number", "null"]},
        "goals": {**COUNT, "description": "Goals from play."},
        "penalty_goals": BY_PENALTY,
        "own_goals": {**COUNT, "description": "Own goals: counted for the other team."},
        "total_goals": {**COUNT, "description": "Goals from play plus goals from penalties."},
        "penalties_conceded": BY_PENALTY,
        "cards": CARDS,
        "injuries": {**COUNT, "description": "Officials and committee only."},
        "horse_timeouts": {**COUNT, "description": "Officials and committee only."},
    },
}
BOX_TEAM = {
    "type": "object",
    "required": ["name", "handicap_goals", "line", "goals", "penalties", "knock_ins", "shots_wide", "cards"],
    "properties": {
        "name": {"type": "string"},
        "handicap_goals": NUMBER,
        "line": {
            "type": "object",
            "description": "The line score: goals per regulation chukker, overtime and the shootout's deciding "
            "goal apart, the handicap goals, and the total (the score).",
            "required": ["chukkers", "overtime", "shootout", "handicap", "total"],
            "properties": {
                "chukkers": {"type": "array", "items": COUNT},
                "overtime": COUNT,
                "shootout": COUNT,
                "handicap": NUMBER,
                "total": NUMBER,
            },
        },
        "goals": {
            "type": "object",
            "required": ["field", "penalty", "penalty_1", "own_goals_for", "unattributed", "shootout", "total"],
            "properties": {
                k: COUNT
                for k in ("field", "penalty", "penalty_1", "own_goals_for", "unattributed", "shootout", "total")
            },
        },
        "penalties": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["penalty", "awarded", "converted"],
                "properties": {"penalty": PENALTY, "awarded": COUNT, "converted": COUNT},
            },
        },
        "penalties_awarded": COUNT,
        "penalties_converted": COUNT,
        "knock_ins": {**COUNT, "description": "Knock-ins the team took (22.a)."},
        "shots_wide": {**COUNT, "description": "The team's missed shots: knock-ins it gave the other team."},
        "knock_ins_by_chukker": {"type": "array", "items": COUNT, "description": "Regulation chukkers, then overtime."},
        "shots_wide_by_chukker": {"type": "array", "items": COUNT},
        "cards": CARDS,
    },
}
AT = {
    "seq": {"type": "integer"},
    "period": {"type": "integer"},
    "period_kind": PERIOD_KIND,
    "clock": {"type": ["number", "null"]},
}
BOX_SCORE = {
    "type": "object",
    "description": "docs/STATISTICS.md says how each figure is counted.",
    "required": ["match", "public", "periods", "overtime_played", "shootout_played", "teams", "players", "last_seq"],
    "properties": {
        "match": {"type": "integer"},
        "public": {"type": "boolean", "description": "true: the public figures (no injuries, no horse time-outs)."},
        "periods": {"type": "integer"},
        "overtime_played": {"type": "boolean"},
        "shootout_played": {"type": "boolean"},
        "teams": {
            "type": "object",
            "required": ["home", "away"],
            "properties": {"home": ref("BoxScoreTeam"), "away": ref("BoxScoreTeam")},
        },
        "players": {"type": "array", "items": ref("BoxScorePlayer")},
        "goals": {
            "type": "array",
            "description": "Every goal in order.",
            "items": {
                "type": "object",
                "required": ["seq", "team", "how"],
                "properties": {
                    **AT,
                    "team": TEAM,
                    "how": {"enum": ["field", "penalty", "own_goal", "penalty_1", "shootout", "unattributed"]},
                    "number": {"type": ["integer", "null"]},
                    "hitter_team": {"enum": ["home", "away", None]},
                    "name": {"type": ["string", "null"]},
                    "penalty": {"enum": ["1", "2", "3", "4", "5a", "5b", "6", "unknown", None]},
                },
            },
        },
        "penalties": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["seq", "team", "penalty", "cause", "converted"],
                "properties": {
                    **AT,
                    "team": TEAM,
                    "penalty": PENALTY,
                    "cause": {"enum": ["foul", "safety", "restart_violation", "after_penalty_1"]},
                    "against": TEAM,
                    "number": {"type": ["integer", "null"]},
                    "converted": {"type": ["boolean", "null"], "description": "null: not taken."},
                },
            },
        },
        "cards": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["seq", "team", "color"],
                "properties": {
                    **AT,
                    "team": TEAM,
                    "number": {"type": ["integer", "null"]},
                    "color": {"enum": ["yellow", "red"]},
                },
            },
        },
        "last_seq": {"type": "integer"},
    },
}
TOURNAMENT_STATS = {
    "type": "object",
    "required": ["tournament", "matches", "scorers", "teams", "cards"],
    "properties": {
        "tournament": {
            "type": "object",
            "required": ["id", "name"],
            "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
        },
        "matches": {"type": "array", "items": {"type": "integer"}, "description": "The matches counted (begun)."},
        "scorers": {
            "type": "array",
            "description": "Leading scorers first (total, then goals from play).",
            "items": {
                "type": "object",
                "required": ["team", "name", "goals", "penalty_goals", "total", "matches"],
                "properties": {
                    "team": {"type": "string"},
                    "name": {"type": "string"},
                    "goals": COUNT,
                    "penalty_goals": COUNT,
                    "total": COUNT,
                    "matches": COUNT,
                },
            },
        },
        "teams": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["team", "matches", "goals", "penalties", "penalties_awarded", "penalties_converted"],
                "properties": {
                    "team": {"type": "string"},
                    "matches": COUNT,
                    "goals": COUNT,
                    "penalties": BOX_TEAM["properties"]["penalties"],  # type: ignore[index]
                    "penalties_awarded": COUNT,
                    "penalties_converted": COUNT,
                    "cards": CARDS,
                },
            },
        },
        "cards": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["match", "team", "color"],
                "properties": {
                    "match": {"type": "integer"},
                    "team": {"type": "string"},
                    "number": {"type": ["integer", "null"]},
                    "name": {"type": ["string", "null"]},
                    "color": {"enum": ["yellow", "red"]},
                    "period": {"type": "integer"},
                    "period_kind": PERIOD_KIND,
                },
            },
        },
    },
}

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


def _or_csv(response: dict[str, Any]) -> dict[str, Any]:
    """A JSON answer that ``?format=csv`` gives as CSV."""
    return {**response, "content": {**response["content"], **CSV["content"]}}


def paths() -> dict[str, Any]:
    no_match = error_response("No such match.", "not_found", "No such match.")
    no_tournament = error_response("No such tournament.", "not_found", "No such tournament.")
    bad_format = error_response("format is neither json nor csv.", "invalid_format", "format must be json or csv.")
    match_box = {
        "200": _or_csv(
            json_content(
                ref("BoxScore"),
                EXAMPLE_BOX_SCORE,
                "The box score of the log as it stands (?format=csv: CSV). The public figures for everyone; "
                "the match's officials and its tournament's committee also get injuries and horse time-outs.",
            )
        ),
        "400": bad_format,
        "404": no_match,
    }
    tournament = {
        "200": _or_csv(
            json_content(
                ref("TournamentStats"),
                EXAMPLE_TOURNAMENT_STATS,
                "The leading scorers, penalty conversion by team and the cards (?format=csv: CSV).",
            )
        ),
        "400": bad_format,
        "404": no_tournament,
    }
    return {
        "/api/matches/{match_id}/stats": {
            "parameters": [MATCH_ID],
            "get": {
                "operationId": "getMatchStats",
                "summary": "A match's box score: per player and per team, from the log (docs/STATISTICS.md)",
                "parameters": [FORMAT],
                "responses": match_box,
            },
        },
        "/api/matches/{match_id}/stats.csv": {
            "parameters": [MATCH_ID],
            "get": {
                "operationId": "getMatchStatsCsv",
                "summary": "A match's box score as CSV: the line score, the teams, the players",
                "responses": {"200": CSV, "404": no_match},
            },
        },
        "/api/tournaments/{tournament_id}/stats": {
            "parameters": [TOURNAMENT_ID],
            "get": {
                "operationId": "getTournamentStats",
                "summary": "A tournament's statistics: leading scorers, penalty conversion by team, cards",
                "parameters": [FORMAT],
                "responses": tournament,
            },
        },
        "/api/tournaments/{tournament_id}/stats.csv": {
            "parameters": [TOURNAMENT_ID],
            "get": {
                "operationId": "getTournamentStatsCsv",
                "summary": "A tournament's statistics as CSV",
                "responses": {"200": CSV, "404": no_tournament},
            },
        },
    }


def schemas() -> dict[str, Any]:
    return {
        "BoxScore": BOX_SCORE,
        "BoxScoreTeam": BOX_TEAM,
        "BoxScorePlayer": BOX_PLAYER,
        "TournamentStats": TOURNAMENT_STATS,
    }
