"""Official match reports and the exports of the log.

- ``match_log_export``: the log in the match-log format (``polo-match-log/1``), so that
  ``manage.py replay`` gives the same state as the app;
- ``match_log_csv``: one row per stored event;
- ``match_report_data``: the report as JSON-ready data — teams and handicaps, goals by chukker with
  scorers, penalties and whether they were converted, knock-ins per chukker, cards, injuries and
  horse changes, clock corrections, voided events with their reasons, the committee's decisions,
  the shootout, the officials and the box score (``officiating.engine.boxscore``, of the same fold).
  The penalties are the box score's (``box_score["penalties"]``: every penalty awarded, the 5.b
  that follows a Penalty 1 included, converted as the box score counts it) with the fouling
  player's name, and beside them the fouls played on (``advantage``), which award none;
- ``match_report_pdf``: the same report as a PDF (reportlab; ``report_pdf``), in the words of
  ``report_labels`` (the labels of its codes and times, which the report's pages read too: this
  module offers them with the data);
- ``match_report_build``: the service the Celery task calls: stores the report of the log at its
  current position (``last_seq``); building it twice for the same position changes nothing.

How the report reads the log: through the engine's ``fold``. The events a ``void`` took back (and
the voids) are set aside and listed as corrections; every event that counts is seen with the
state before and after it (the period it fell in, the score it changed, the restart it gave). That
fold is exactly the match's: voiding an event leaves the state the log without it gives.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from matches.games import match_config, match_game
from matches.models import Match, MatchEvent
from officiating.engine import fold, to_state
from officiating.engine.boxscore import box_score
from officiating.engine.boxscore_json import box_score_dict

from .models import MatchReport
from .report_labels import (
    TEAMS,
    card_label,
    clock_label,
    clock_note,
    committee_label,
    converted_label,
    event_label,
    how_label,
    period_label,
    reason_label,
    result_sentence,
)
from .report_pdf import match_report_pdf

# The report: its data, its exports, its stored copies, and its words and PDF from the modules beside.
__all__ = [
    "card_label",
    "clock_label",
    "clock_note",
    "committee_label",
    "converted_label",
    "event_label",
    "how_label",
    "latest_report",
    "match_log_csv",
    "match_log_export",
    "match_report_build",
    "match_report_data",
    "match_report_pdf",
    "period_label",
    "reason_label",
    "result_sentence",
]

LOG_FORMAT = "polo-match-log/1"
PERIOD_ORDER = ("regulation", "overtime", "shootout")
INJURY_AND_HORSE_REASONS = frozenset(
    {"injured_player", "player_fall", "injured_horse", "horse_fall", "horse_timeout", "courtesy_change", "broken_tack"}
)
COMMITTEE_EVENTS = frozenset({"suspend", "resume", "abandon", "overtime", "shootout_start", "forfeit"})


def _other(team: str) -> str:
    return "away" if team == "home" else "home"


def _events(match: Match) -> list[MatchEvent]:
    """The stored events up to the position the match row was read at."""
    rows = MatchEvent.objects.filter(match=match, seq__lte=match.last_seq)
    return list(rows.select_related("sent_by").order_by("seq"))


def match_log_export(match: Match) -> dict[str, Any]:
    """The log as a match-log file: ``python manage.py replay`` folds it to the app's state."""
    return {"format": LOG_FORMAT, "match": match_config(match), "events": [row.payload for row in _events(match)]}


def match_log_csv(match: Match) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["seq", "id", "type", "clock", "team", "number", "received_at", "sent_by", "event"])
    for row in _events(match):
        p = row.payload
        writer.writerow(
            [
                row.seq,
                row.client_id,
                row.type,
                p.get("clock", ""),
                p.get("team", p.get("against", "")),
                p.get("number", ""),
                row.received_at.isoformat(),
                row.sent_by.username if row.sent_by else "",
                json.dumps(p, sort_keys=True, ensure_ascii=False),
            ]
        )
    return out.getvalue()


def _person(user) -> str | None:
    return (user.get_full_name() or user.username) if user else None


def _period_key(state: dict[str, Any]) -> tuple[int, str]:
    period = state.get("period") or {}
    return int(period.get("number") or 0), period.get("kind") or "regulation"


def match_report_data(match: Match) -> dict[str, Any]:
    """The official report as JSON-ready data (codes, numbers and names; labels are translated
    where it is shown)."""
    config = match_config(match)
    rows = _events(match)
    by_id = {r.client_id: r for r in rows}
    # The match's own fold (kept by ``matches.games``), seen event by event.
    game = match_game(match, config)
    folded = fold(game.config, [], game=game, lang="en")
    names = {(team, p["number"]): p["name"] for team in TEAMS for p in config[team]["players"]}

    def player(team: str | None, number: Any) -> str | None:
        return names.get((team, number)) if team in TEAMS and isinstance(number, int) else None

    periods: dict[tuple[int, str], dict[str, Any]] = {}

    def period_row(key: tuple[int, str]) -> dict[str, Any]:
        if key not in periods:
            periods[key] = {
                "number": key[0],
                "kind": key[1],
                "goals": [],
                "knock_ins": {"home": 0, "away": 0},
                "score_after": None,
            }
        return periods[key]

    played_on: list[dict[str, Any]] = []  # fouls with ``advantage``: noted, no penalty awarded
    foulers: dict[int, str | None] = {}  # seq of a foul -> the fouling player's name at the time
    cards, stoppages, horses, substitutions, clock_corrections, committee, shootout_hits = [], [], [], [], [], [], []

    for step in folded.steps:
        row, event, before, after = by_id[step.id], step.event, step.before, step.after
        assert before is not None and after is not None  # (folded with a language)
        kind, clock = event.get("type"), event.get("clock")
        # The shootout's deciding goal (Rule 14.d: "winner ... by one goal") gets a row of its own.
        key = (0, "shootout") if kind == "shootout_attempt" else _period_key(before)
        where = {"seq": row.seq, "period": key[0], "period_kind": key[1], "clock": clock}
        if key[0] or key[1] == "shootout":
            period_row(key)

        if key in periods:
            period_row(key)["score_after"] = after["score"]

        # Penalties: the box score counts them (below, from this same fold); the report adds the
        # fouling player's name as it was at the foul (a substitute wears the number later) and the
        # fouls played on, which the box score leaves out because they award no penalty.
        restart = after.get("restart") or {}
        if kind == "foul":
            foulers[row.seq] = player(event.get("against"), event.get("number"))
            if event.get("advantage"):
                played_on.append(
                    {
                        **where,
                        "team": _other(event.get("against")),
                        "against": event.get("against"),
                        "number": event.get("number"),
                        "player": foulers[row.seq],
                        "penalty": event.get("penalty"),
                        "advantage": True,
                        "cause": "foul",
                        "converted": None,
                    }
                )
            if event.get("card"):
                cards.append(
                    {
                        **where,
                        "team": event.get("against"),
                        "number": event.get("number"),
                        "player": player(event.get("against"), event.get("number")),
                        "color": event.get("card"),
                    }
                )

        if kind == "ball_out" and restart.get("kind") == "knock_in" and restart.get("team") in TEAMS:
            period_row(key)["knock_ins"][restart["team"]] += 1
        elif kind == "card":
            cards.append(
                {
                    **where,
                    "team": event.get("team"),
                    "number": event.get("number"),
                    "player": player(event.get("team"), event.get("number")),
                    "color": event.get("color"),
                }
            )
        elif kind == "whistle" and (event.get("reason") in INJURY_AND_HORSE_REASONS or event.get("unconscious")):
            stoppages.append(
                {
                    **where,
                    "reason": event.get("reason"),
                    "team": event.get("team"),
                    "number": event.get("number"),
                    "player": player(event.get("team"), event.get("number")),
                    "horse": event.get("horse"),
                    "unconscious": bool(event.get("unconscious")),
                    "visibly_injured": bool(event.get("visibly_injured")),
                }
            )
        elif kind == "mount":
            horses.append(
                {
                    **where,
                    "team": event.get("team"),
                    "number": event.get("number"),
                    "player": player(event.get("team"), event.get("number")),
                    "horse": event.get("horse"),
                }
            )
        elif kind == "substitution":
            incoming = (event.get("player") or {}).get("name")
            substitutions.append(
                {
                    **where,
                    "team": event.get("team"),
                    "out": event.get("out"),
                    "player_out": player(event.get("team"), event.get("out")),
                    "player_in": incoming,
                }
            )
            if event.get("team") in TEAMS and incoming:
                names[(event["team"], event.get("out"))] = incoming
        elif kind == "clock_set":
            clock_corrections.append(
                {
                    **where,
                    "from": (before.get("clock") or {}).get("elapsed"),
                    "to": event.get("clock"),
                    "reason": event.get("reason"),
                }
            )
        elif kind == "shootout_attempt":
            shot = before.get("shootout") or {}
            shootout_hits.append(
                {
                    "seq": row.seq,
                    "round": shot.get("round"),
                    "line": shot.get("line"),
                    "team": event.get("team"),
                    "number": event.get("number"),
                    "player": player(event.get("team"), event.get("number")),
                    "scored": bool(event.get("scored")),
                }
            )
        if kind in COMMITTEE_EVENTS:
            committee.append(
                {
                    **where,
                    "type": kind,
                    "reason": event.get("reason"),
                    "team": event.get("team"),
                    "format": event.get("format"),
                    "first": event.get("first"),
                    "by": _person(row.sent_by),
                    "at": row.received_at.isoformat(),
                }
            )

    voided = []
    for v in folded.voids:
        void_row, target = by_id[v.id], by_id.get(str(v.event.get("target")))
        voided.append(
            {
                "seq": void_row.seq,
                "reason": v.event.get("reason"),
                "by": _person(void_row.sent_by),
                "at": void_row.received_at.isoformat(),
                "target_seq": target.seq if target else None,
                "target_type": target.type if target else None,
                "target": target.payload if target else None,
            }
        )

    # The box score of the same fold (docs/STATISTICS.md): no second fold of the log, and no second
    # count of the goals or the penalties. Its goals are the fold's own records (``Game.scored``),
    # each under the period it went in; each of its penalties is a row of the report's table (a
    # Penalty 1 and the 5.b after it are two), so the table and the box score's "awarded /
    # converted" agree.
    box = box_score_dict(box_score(folded))
    for goal in box["goals"]:
        period_row((goal["period"], goal["period_kind"]))["goals"].append(
            {
                "seq": goal["seq"],
                "period": goal["period"],
                "period_kind": goal["period_kind"],
                "clock": goal["clock"],
                "team": goal["team"],
                "goals": 1,
                "how": goal["how"],
                "penalty": goal["penalty"],
                "number": goal["number"],
                "player": goal["name"],
            }
        )
    penalties = [
        {**p, "player": foulers.get(p["seq"]) if p["cause"] == "foul" else None, "advantage": False}
        for p in box["penalties"]
    ]
    penalties = sorted(penalties + played_on, key=lambda p: p["seq"])  # (stable: a Penalty 1 before its 5.b)

    steps = folded.steps
    final = steps[-1].after if steps else to_state(folded.game)
    assert final is not None
    return {
        "match": {
            "id": match.pk,
            "tournament": match.tournament.name,
            "field": match.field.name,
            "starts_at": match.starts_at.isoformat(),
            "periods": match.periods,
            "home": {**_team_summary(config["home"]), "entry_handicap": match.home.team_handicap},
            "away": {**_team_summary(config["away"]), "entry_handicap": match.away.team_handicap},
        },
        "officials": {
            "umpires": [_person(u) for u in match.umpires.order_by("last_name", "username")],
            "referee": _person(match.referee),
            "scorer": _person(match.scorer),
        },
        "result": {
            "status": final.get("status"),
            "score": final.get("score"),
            "winner": final.get("winner"),
            "result": final.get("result"),
            "periods_played": _period_key(final)[0],
        },
        "periods": [periods[k] for k in sorted(periods, key=lambda k: (PERIOD_ORDER.index(k[1]), k[0]))],
        "penalties": penalties,
        "cards": cards,
        "stoppages": stoppages,
        "horses": horses,
        "excused_horses": final.get("excused_horses") or [],
        "unavailable_players": final.get("unavailable_players") or [],
        "substitutions": substitutions,
        "clock_corrections": clock_corrections,
        "voided": voided,
        "committee": committee,
        "shootout": {"hits": shootout_hits, "points": (final.get("shootout") or {}).get("points")}
        if shootout_hits
        else None,
        "box_score": box,
        "last_seq": match.last_seq,
        "voided_ids": sorted(folded.voided),
    }


def _team_summary(side: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": side["name"],
        "color": side.get("color"),
        "handicap_goals": side["handicap_goals"],
        "players": side["players"],
        "handicap": sum(p.get("handicap") or 0 for p in side["players"]),
    }


# -- the stored report ----------------------------------------------------------------------------


def match_report_build(*, match_id: int, force: bool = False) -> MatchReport | None:
    """Store the report of the match's log at its current position. Idempotent: the report of a
    position is built once (``force`` rebuilds it, e.g. after a roster name was corrected). None
    when the match no longer exists."""
    match = (
        Match.objects.select_related("tournament", "field", "home__team", "away__team", "referee", "scorer")
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        return None
    existing = MatchReport.objects.filter(match=match, last_seq=match.last_seq).first()
    if existing is not None and not force:
        return existing
    data = match_report_data(match)
    pdf = match_report_pdf(data)
    if existing is not None:
        existing.data, existing.pdf, existing.built_at = data, pdf, timezone.now()
        existing.save(update_fields=["data", "pdf", "built_at"])
        return existing
    try:
        with transaction.atomic():
            return MatchReport.objects.create(match=match, last_seq=data["last_seq"], data=data, pdf=pdf)
    except IntegrityError:  # another worker built the same position meanwhile
        return MatchReport.objects.get(match=match, last_seq=data["last_seq"])


def latest_report(match: Match) -> MatchReport | None:
    return match.reports.order_by("-last_seq").first()
