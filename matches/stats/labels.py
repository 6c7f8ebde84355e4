"""The words and the tables of the statistics: the box score's line score and player table as
rows of labelled cells, in the active language. The pages, the CSV, the report's page and PDF and
the score sheet all read them, so a figure has one heading wherever it is shown.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _, pgettext

TEAMS = ("home", "away")


def penalty_short(penalty: str) -> str:
    """A penalty's number as a score sheet writes it: P2, P5a…"""
    if penalty == "unknown":
        return pgettext("penalty number not recorded", "P?")
    return pgettext("penalty number", "P%(penalty)s") % {"penalty": penalty}


def by_penalty(counts: dict[str, int]) -> str:
    """``{"2": 1, "5b": 2}`` as "P2 ×1, P5b ×2"."""
    return ", ".join(f"{penalty_short(p)} ×{n}" for p, n in counts.items() if n)


def number(value: Any) -> Any:
    """A goal count as people write it: 1 not 1.0, ½ as .5."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def overtime_short() -> str:
    return pgettext("overtime, a column of the line score", "OT")


def shootout_short() -> str:
    return pgettext("shootout, a column of the line score", "SO")


def line_score_header(box: dict[str, Any]) -> list[str]:
    header = [_("Team")] + [str(n) for n in range(1, box["periods"] + 1)]
    if box["overtime_played"]:
        header.append(overtime_short())
    if box["shootout_played"]:
        header.append(shootout_short())
    return [*header, pgettext("handicap goals, a column of the line score", "Hcp"), _("Total")]


def line_score_rows(box: dict[str, Any]) -> list[list[Any]]:
    rows = []
    for team in TEAMS:
        t = box["teams"][team]
        line = t["line"]
        row: list[Any] = [t["name"], *line["chukkers"]]
        if box["overtime_played"]:
            row.append(line["overtime"])
        if box["shootout_played"]:
            row.append(line["shootout"])
        rows.append([*row, number(line["handicap"]), number(line["total"])])
    return rows


def player_header(*, public: bool) -> list[str]:
    header = [
        _("Team"),
        _("No."),
        _("Player"),
        _("Handicap"),
        _("Goals from play"),
        _("Penalty goals"),
        _("Own goals"),
        _("Total goals"),
        _("Penalties conceded"),
        _("Cards"),
    ]
    if not public:
        header += [_("Injuries"), _("Horse time-outs")]
    return header


def cards_text(cards: dict[str, int]) -> str:
    parts = []
    if cards.get("yellow"):
        parts.append(_("yellow ×%(n)s") % {"n": cards["yellow"]})
    if cards.get("red"):
        parts.append(_("red ×%(n)s") % {"n": cards["red"]})
    return ", ".join(parts)


def card_label(color: str) -> str:
    return {"yellow": _("yellow card"), "red": _("red card")}.get(color, color)


def player_rows(box: dict[str, Any], *, public: bool) -> list[list[Any]]:
    rows = []
    for p in box["players"]:
        pen = p["penalty_goals"]
        row: list[Any] = [
            box["teams"][p["team"]]["name"],
            p["number"],
            p["name"] or "",
            number(p["handicap"]) if p["handicap"] is not None else "",
            p["goals"],
            f"{sum(pen.values())} ({by_penalty(pen)})" if pen else 0,
            p["own_goals"],
            p["total_goals"],
            by_penalty(p["penalties_conceded"]),
            cards_text(p["cards"]),
        ]
        if not public:
            row += [p.get("injuries", 0), p.get("horse_timeouts", 0)]
        rows.append(row)
    return rows


def team_summary_header() -> list[str]:
    return [
        _("Team"),
        _("Goals from play"),
        _("Penalty goals"),
        _("Penalty 1 (awarded)"),
        _("Own goals for"),
        _("Goals with no hitter recorded"),
        _("Penalties converted / awarded"),
        _("Knock-ins taken"),
        _("Shots wide"),
        _("Cards"),
    ]


def team_summary_rows(box: dict[str, Any]) -> list[list[Any]]:
    rows = []
    for team in TEAMS:
        t = box["teams"][team]
        g = t["goals"]
        by_number = ", ".join(f"{penalty_short(x['penalty'])} {x['converted']}/{x['awarded']}" for x in t["penalties"])
        conversion = f"{t['penalties_converted']}/{t['penalties_awarded']}" + (f" ({by_number})" if by_number else "")
        rows.append(
            [
                t["name"],
                g["field"],
                g["penalty"],
                g["penalty_1"],
                g["own_goals_for"],
                g["unattributed"],
                conversion,
                t["knock_ins"],
                t["shots_wide"],
                cards_text(t["cards"]),
            ]
        )
    return rows


def box_tables(box: dict[str, Any], *, public: bool) -> dict[str, Any]:
    """The three tables of a box score, ready for a template: headers and rows."""
    return {
        "line_header": line_score_header(box),
        "line_rows": line_score_rows(box),
        "team_header": team_summary_header(),
        "team_rows": team_summary_rows(box),
        "player_header": player_header(public=public),
        "player_rows": player_rows(box, public=public),
    }
