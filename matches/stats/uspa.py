"""The USPA score sheet, filled in from the log: the paper form scorekeepers know, so that an
official can hold it beside a paper one and check it line by line.

The form: the event, the host club, the date; each team with its jersey colour, each player's name,
handicap and position (the number on the jersey: 1, 2, 3, 4 — the back), the team handicap and the
goals awarded by handicap; the umpires and the referee. Then, per team, a grid of chukkers by
players: each goal is written where it was scored as a letter giving its order in the match (A the
first goal of either team, B the second…), circled when it came from a penalty. Goals that are no
player's (a Penalty 1, an own goal, a goal with no hitter recorded) go on the team's own line, the
shootout's deciding goal in a column of its own. Per team and chukker: the knock-ins (the team's
missed shots over the back line: 22.a) and the penalty hits it was awarded, by number, circled
when converted. Everything comes from the match's box score (``officiating.engine.boxscore``).
"""

from __future__ import annotations

from typing import Any

from matches.models import Match
from officiating.engine.boxscore_json import box_score_dict

from .labels import TEAMS, number, overtime_short, penalty_short, shootout_short
from .selectors import match_box_config


def goal_letter(index: int) -> str:
    """0 → A, 25 → Z, 26 → AA: the order of a goal in the match, as the form writes it."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _person(user) -> str | None:
    return (user.get_full_name() or user.username) if user else None


def uspa_sheet_data(match: Match) -> dict[str, Any]:
    """The filled-in form as JSON-ready data (the page and the PDF read it)."""
    box_obj, config = match_box_config(match)
    box = box_score_dict(box_obj)
    periods = box["periods"]
    columns = [{"key": str(n), "label": str(n)} for n in range(1, periods + 1)]
    if box["overtime_played"]:
        columns.append({"key": "ot", "label": overtime_short()})
    if box["shootout_played"]:
        columns.append({"key": "so", "label": shootout_short()})
    keys = [c["key"] for c in columns]

    def column(period: int, kind: str) -> str:
        if kind == "shootout":
            return "so"
        if kind == "overtime" or period > periods:
            return "ot"
        return str(max(1, period))

    def empty() -> dict[str, list[Any]]:
        return {k: [] for k in keys}

    entries = {"home": match.home, "away": match.away}
    teams: dict[str, dict[str, Any]] = {}
    for team in TEAMS:
        side = config[team]
        rows: dict[tuple[int, str | None], dict[str, Any]] = {}
        for p in side["players"]:
            rows[(p["number"], p["name"])] = {
                "number": p["number"],
                "name": p["name"],
                "handicap": p["handicap"],
                "cells": empty(),
                "substitute": False,
            }
        for p in box["players"]:
            if p["team"] == team and (p["number"], p["name"]) not in rows:
                rows[(p["number"], p["name"])] = {
                    "number": p["number"],
                    "name": p["name"],
                    "handicap": p["handicap"],
                    "cells": empty(),
                    "substitute": True,
                }
        teams[team] = {
            "name": side["name"],
            "color": side.get("color"),
            "handicap": entries[team].team_handicap,
            "handicap_goals": number(side["handicap_goals"]),
            "players": rows,
            "team_cells": empty(),  # goals that are no player's
            "goals_by_column": dict.fromkeys(keys, 0),
            "knock_ins": dict.fromkeys(keys, 0),
            "penalties": empty(),
            "total": number(box["teams"][team]["line"]["total"]),
        }

    for index, g in enumerate(box["goals"]):
        col = column(g["period"], g["period_kind"])
        mark = {
            "letter": goal_letter(index),
            "circled": g["penalty"] is not None,
            "how": g["how"],
            "penalty": g["penalty"],
        }
        team = teams[g["team"]]
        team["goals_by_column"][col] += 1
        row = team["players"].get((g["number"], g["name"])) if g["how"] in ("field", "penalty") else None
        (row["cells"] if row is not None else team["team_cells"])[col].append(mark)
    for team in TEAMS:
        wide = box["teams"][team]["shots_wide_by_chukker"]
        for i, n in enumerate(wide):
            key = str(i + 1) if i < periods else "ot"
            if key in teams[team]["knock_ins"]:
                teams[team]["knock_ins"][key] += n
    for p in box["penalties"]:
        col = column(p["period"], p["period_kind"])
        teams[p["team"]]["penalties"][col].append(
            {"label": penalty_short(p["penalty"]), "penalty": p["penalty"], "circled": bool(p["converted"])}
        )

    officials = {
        "umpires": [_person(u) for u in match.umpires.order_by("last_name", "username")],
        "referee": _person(match.referee),
        "scorer": _person(match.scorer),
    }
    tournament = match.tournament
    return {
        "match": match.pk,
        "event": tournament.name,
        "host_club": tournament.club or match.field.club,
        "field": match.field.name,
        "date": match.starts_at.isoformat(),
        "stage": match.stage,
        "columns": columns,
        "teams": {team: _aligned(t, keys) for team, t in teams.items()},
        "officials": officials,
        "last_seq": box["last_seq"],
    }


def _aligned(team: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    """The team's cells as lists in the order of the columns (what the page and the PDF draw)."""

    def row(cells: dict[str, Any]) -> list[Any]:
        return [cells[k] for k in keys]

    return {
        **team,
        "players": [{**p, "cells": row(p["cells"])} for p in team["players"].values()],
        "team_cells": row(team["team_cells"]),
        "goals_by_column": row(team["goals_by_column"]),
        "knock_ins": row(team["knock_ins"]),
        "penalties": row(team["penalties"]),
    }
