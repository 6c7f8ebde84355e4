"""Official match reports and the exports of the log.

- ``match_log_export``: the log in the match-log format (``polo-match-log/1``), so that
  ``manage.py replay`` gives the same state as the app;
- ``match_log_csv``: one row per stored event;
- ``match_report_data``: the report as JSON-ready data — teams and handicaps, goals by chukker with
  scorers, penalties and whether they were converted, knock-ins per chukker, cards, injuries and
  horse changes, clock corrections, voided events with their reasons, the committee's decisions,
  the shootout and the officials;
- ``match_report_pdf``: the same report as a PDF (reportlab);
- ``match_report_build``: the service the Celery task calls: stores the report of the log at its
  current position (``last_seq``); building it twice for the same position changes nothing.

How the report reads the log: the events a ``void`` took back (and the voids) are set aside and
listed as corrections; the rest are folded with the rules engine one by one, so that every event
is seen with the state before and after it (the period it fell in, the score it changed, the
restart it gave). That fold is exactly the match's: voiding an event leaves the state the log
without it gives.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _, pgettext

from officiating.engine import MatchConfig, decide, new_game, to_state

from matches.games import match_config
from matches.models import Match, MatchEvent

from .models import MatchReport

LOG_FORMAT = "polo-match-log/1"
TEAMS = ("home", "away")
PERIOD_ORDER = ("regulation", "overtime", "shootout")
INJURY_AND_HORSE_REASONS = frozenset({
    "injured_player", "player_fall", "injured_horse", "horse_fall", "horse_timeout", "courtesy_change", "broken_tack",
})
COMMITTEE_EVENTS = frozenset({"suspend", "resume", "abandon", "overtime", "shootout_start", "forfeit"})
# What ends the taking of a penalty: the next of these after the ``play`` that took it.
STOPPAGES = frozenset({"goal", "ball_out", "foul", "whistle", "horn", "restart_violation"})


def _other(team: str) -> str:
    return "away" if team == "home" else "home"


def _events(match: Match) -> list[MatchEvent]:
    """The stored events up to the position the match row was read at."""
    rows = MatchEvent.objects.filter(match=match, seq__lte=match.last_seq)
    return list(rows.select_related("sent_by").order_by("seq"))


def match_log_export(match: Match) -> dict[str, Any]:
    """The log as a match-log file: ``python manage.py replay`` folds it to the app's state."""
    return {
        "format": LOG_FORMAT,
        "match": match_config(match),
        "events": [row.payload for row in _events(match)],
    }


def match_log_csv(match: Match) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["seq", "id", "type", "clock", "team", "number", "received_at", "sent_by", "event"])
    for row in _events(match):
        p = row.payload
        writer.writerow([
            row.seq, row.client_id, row.type, p.get("clock", ""), p.get("team", p.get("against", "")),
            p.get("number", ""), row.received_at.isoformat(), row.sent_by.username if row.sent_by else "",
            json.dumps(p, sort_keys=True, ensure_ascii=False),
        ])
    return out.getvalue()


def _person(user) -> str | None:
    return (user.get_full_name() or user.username) if user else None


def _effective(rows: list[MatchEvent]) -> tuple[list[MatchEvent], list[MatchEvent], set[str]]:
    """(events that count, void events, ids voided). The engine refuses a void of a void."""
    voids = [r for r in rows if r.type == "void"]
    voided = {str(r.payload.get("target")) for r in voids}
    return [r for r in rows if r.type != "void" and r.client_id not in voided], voids, voided


def _period_key(state: dict[str, Any]) -> tuple[int, str]:
    period = state.get("period") or {}
    return int(period.get("number") or 0), period.get("kind") or "regulation"


def match_report_data(match: Match) -> dict[str, Any]:
    """The official report as JSON-ready data (codes, numbers and names; labels are translated
    where it is shown)."""
    config = match_config(match)
    rows = _events(match)
    counted, voids, voided_ids = _effective(rows)
    names = {(team, p["number"]): p["name"] for team in TEAMS for p in config[team]["players"]}

    def player(team: str | None, number: Any) -> str | None:
        return names.get((team, number)) if team in TEAMS and isinstance(number, int) else None

    periods: dict[tuple[int, str], dict[str, Any]] = {}

    def period_row(key: tuple[int, str]) -> dict[str, Any]:
        if key not in periods:
            periods[key] = {"number": key[0], "kind": key[1], "goals": [], "knock_ins": {"home": 0, "away": 0},
                            "score_after": None}
        return periods[key]

    penalties: list[dict[str, Any]] = []
    cards, stoppages, horses, substitutions, clock_corrections, committee, shootout_hits = [], [], [], [], [], [], []
    pending: dict[str, Any] | None = None  # the penalty awarded and not yet resolved
    taking = False  # the ``play`` that takes the pending penalty has happened

    game = new_game(MatchConfig.from_dict(config))
    before = to_state(game)
    for row in counted:
        event = row.payload
        decision = decide(game, event, now=row.received_at.timestamp())
        if not decision.accepted:
            # Stored events were all accepted when they arrived; a later rule change may refuse one.
            continue
        game = decision.game
        after = to_state(game)
        kind, clock = event.get("type"), event.get("clock")
        # The shootout's deciding goal (Rule 14.d: "winner ... by one goal") gets a row of its own.
        key = (0, "shootout") if kind == "shootout_attempt" else _period_key(before)
        where = {"seq": row.seq, "period": key[0], "period_kind": key[1], "clock": clock}
        if key[0] or key[1] == "shootout":
            period_row(key)

        # Goals: whatever raised a team's score (a goal, a Penalty 1, a goal at the whistle, the
        # shootout's deciding goal), credited to the period it was scored in.
        for team in TEAMS:
            delta = float(after["score"][team]) - float(before["score"][team])
            if delta <= 0:
                continue
            goal = {**where, "team": team, "goals": delta, "how": "goal", "number": None, "player": None}
            if kind == "goal":
                scorer_team = _other(team) if event.get("own_goal") else team
                goal.update(number=event.get("number"), player=player(scorer_team, event.get("number")),
                            how="own_goal" if event.get("own_goal") else ("penalty" if event.get("from_penalty") else "goal"))
            elif kind == "foul":
                goal["how"] = "penalty_1" if event.get("penalty") == "1" else "at_whistle"
            elif kind == "shootout_attempt":
                goal["how"] = "shootout"
            else:
                goal["how"] = kind
            period_row(key)["goals"].append(goal)
        if key in periods:
            period_row(key)["score_after"] = after["score"]

        # Penalties and whether they were converted: a penalty is converted when the first stoppage
        # after the hit that takes it is a goal for the team it was awarded to.
        if pending is not None:
            if kind == "play":
                taking = True
            elif kind == "whistle" and event.get("first_hit"):
                taking = False  # 22.d: the ball broke on the first hit; the penalty is taken again
            elif taking and kind in STOPPAGES:
                pending["converted"] = kind == "goal" and float(after["score"][pending["team"]]) > float(before["score"][pending["team"]])
                pending, taking = None, False
            elif kind == "restart_violation":
                pending["converted"] = False
                pending, taking = None, False
        restart = after.get("restart") or {}
        if kind == "foul":
            fouled = _other(event.get("against"))
            entry = {**where, "team": fouled, "against": event.get("against"), "number": event.get("number"),
                     "player": player(event.get("against"), event.get("number")), "penalty": event.get("penalty"),
                     "advantage": bool(event.get("advantage")), "cause": "foul", "converted": None}
            if event.get("penalty") == "1":
                entry["converted"] = True  # a Penalty 1 is a goal awarded
            elif not event.get("advantage"):
                pending, taking = entry, False
            penalties.append(entry)
            if event.get("card"):
                cards.append({**where, "team": event.get("against"), "number": event.get("number"),
                              "player": player(event.get("against"), event.get("number")), "color": event.get("card")})
        elif restart.get("kind") == "penalty" and kind in ("ball_out", "restart_violation"):
            entry = {**where, "team": restart.get("team"), "against": _other(restart.get("team") or "home"),
                     "number": None, "player": None, "penalty": restart.get("penalty"), "advantage": False,
                     "cause": "safety" if kind == "ball_out" else "restart_violation", "converted": None}
            pending, taking = entry, False
            penalties.append(entry)

        if kind == "ball_out" and restart.get("kind") == "knock_in" and restart.get("team") in TEAMS:
            period_row(key)["knock_ins"][restart["team"]] += 1
        elif kind == "card":
            cards.append({**where, "team": event.get("team"), "number": event.get("number"),
                          "player": player(event.get("team"), event.get("number")), "color": event.get("color")})
        elif kind == "whistle" and (event.get("reason") in INJURY_AND_HORSE_REASONS or event.get("unconscious")):
            stoppages.append({**where, "reason": event.get("reason"), "team": event.get("team"),
                              "number": event.get("number"), "player": player(event.get("team"), event.get("number")),
                              "horse": event.get("horse"), "unconscious": bool(event.get("unconscious")),
                              "visibly_injured": bool(event.get("visibly_injured"))})
        elif kind == "mount":
            horses.append({**where, "team": event.get("team"), "number": event.get("number"),
                           "player": player(event.get("team"), event.get("number")), "horse": event.get("horse")})
        elif kind == "substitution":
            incoming = (event.get("player") or {}).get("name")
            substitutions.append({**where, "team": event.get("team"), "out": event.get("out"),
                                  "player_out": player(event.get("team"), event.get("out")), "player_in": incoming})
            if event.get("team") in TEAMS and incoming:
                names[(event["team"], event.get("out"))] = incoming
        elif kind == "clock_set":
            clock_corrections.append({**where, "from": (before.get("clock") or {}).get("elapsed"),
                                      "to": event.get("clock"), "reason": event.get("reason")})
        elif kind == "shootout_attempt":
            shot = before.get("shootout") or {}
            shootout_hits.append({"seq": row.seq, "round": shot.get("round"), "line": shot.get("line"),
                                  "team": event.get("team"), "number": event.get("number"),
                                  "player": player(event.get("team"), event.get("number")), "scored": bool(event.get("scored"))})
        if kind in COMMITTEE_EVENTS:
            committee.append({**where, "type": kind, "reason": event.get("reason"), "team": event.get("team"),
                              "format": event.get("format"), "first": event.get("first"),
                              "by": _person(row.sent_by), "at": row.received_at.isoformat()})
        before = after

    by_id = {r.client_id: r for r in rows}
    voided = []
    for v in voids:
        target = by_id.get(str(v.payload.get("target")))
        voided.append({
            "seq": v.seq, "reason": v.payload.get("reason"), "by": _person(v.sent_by), "at": v.received_at.isoformat(),
            "target_seq": target.seq if target else None, "target_type": target.type if target else None,
            "target": target.payload if target else None,
        })

    final = before
    return {
        "match": {
            "id": match.pk, "tournament": match.tournament.name, "field": match.field.name,
            "starts_at": match.starts_at.isoformat(), "periods": match.periods,
            "home": {**_team_summary(config["home"]), "entry_handicap": match.home.team_handicap},
            "away": {**_team_summary(config["away"]), "entry_handicap": match.away.team_handicap},
        },
        "officials": {
            "umpires": [_person(u) for u in match.umpires.order_by("last_name", "username")],
            "referee": _person(match.referee), "scorer": _person(match.scorer),
        },
        "result": {"status": final.get("status"), "score": final.get("score"), "winner": final.get("winner"),
                   "result": final.get("result"), "periods_played": _period_key(final)[0]},
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
        "shootout": {"hits": shootout_hits, "points": (final.get("shootout") or {}).get("points")} if shootout_hits else None,
        "last_seq": match.last_seq,
        "voided_ids": sorted(voided_ids),
    }


def _team_summary(side: dict[str, Any]) -> dict[str, Any]:
    return {"name": side["name"], "color": side.get("color"), "handicap_goals": side["handicap_goals"],
            "players": side["players"], "handicap": sum(p.get("handicap") or 0 for p in side["players"])}


# -- labels ---------------------------------------------------------------------------------------

def how_label(how: str) -> str:
    return {
        "goal": _("goal"), "own_goal": _("own goal"), "penalty": _("penalty goal"), "penalty_1": _("Penalty 1 (awarded)"),
        "at_whistle": _("goal at the whistle"), "shootout": _("shootout"),
    }.get(how, how)


def reason_label(reason: str | None) -> str:
    labels = {
        "injured_player": _("injured player"), "player_fall": _("player fall"), "injured_horse": _("injured horse"),
        "horse_fall": _("horse fall"), "horse_timeout": _("horse time-out"), "courtesy_change": _("courtesy change"),
        "broken_tack": _("broken tack"), "darkness": _("darkness"), "weather": _("inclement weather"),
        "excused_horse_returned": _("an excused horse returned to play (Rule 21.f(5))"), "other": _("other"),
    }
    return labels.get(reason or "", reason or "")


def card_label(color: str | None) -> str:
    return {"yellow": _("yellow card"), "red": _("red card")}.get(color or "", color or "")


def event_label(kind: str | None) -> str:
    """An event type of the match log, in words (for the corrections)."""
    return {
        "play": _("play"), "goal": _("goal"), "foul": _("foul"), "ball_out": _("ball out"), "whistle": _("whistle"),
        "restart_violation": _("restart violation"), "horn": _("horn"), "clock_set": _("clock correction"),
        "card": _("card"), "mount": _("change of horse"), "substitution": _("substitution"),
        "shootout_attempt": _("shootout hit"),
    }.get(kind or "", kind or "")


def period_label(number: int, kind: str) -> str:
    if kind == "overtime":
        return _("Overtime %(number)s") % {"number": number}
    if kind == "shootout":
        return _("Shootout")
    return pgettext("period", "Chukker %(number)s") % {"number": number}


def clock_note() -> str:
    return _("Times are time played in the chukker, counted from its start (m:ss).")


def clock_label(seconds: Any) -> str:
    """A time of the log as the report gives it: *time played* in the period, m:ss (a report is a
    document with no clock beside it, so it keeps the log's own convention and says so)."""
    if not isinstance(seconds, (int, float)):
        return ""
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


# -- PDF ------------------------------------------------------------------------------------------

def match_report_pdf(data: dict[str, Any], lang: str | None = None) -> bytes:
    """The report as a PDF (A4, reportlab's built-in fonts)."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
    from xml.sax.saxutils import escape

    lang = lang or settings.LANGUAGE_CODE
    with translation.override(lang):
        styles = getSampleStyleSheet()
        story: list[Any] = []
        m, res = data["match"], data["result"]
        team = {t: m[t]["name"] for t in TEAMS}

        def para(text: str, style: str = "BodyText") -> Paragraph:
            return Paragraph(escape(str(text)), styles[style])

        def table(header: list[str], rows: list[list[Any]]) -> None:
            if not rows:
                story.append(para(_("None."), "Italic"))
                return
            t = Table([header] + [[("" if c is None else str(c)) for c in r] for r in rows], repeatRows=1, hAlign="LEFT")
            t.setStyle(TableStyle([
                ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8), ("FONT", (0, 1), (-1, -1), "Helvetica", 8),
                ("GRID", (0, 0), (-1, -1), 0.25, colors.grey), ("BACKGROUND", (0, 0), (-1, 0), colors.whitesmoke),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]))
            story.append(t)

        story.append(para(_("Official match report"), "Title"))
        story.append(para(f"{m['tournament']} — {m['field']} — {m['starts_at'][:16].replace('T', ' ')}"))
        score = res.get("score") or {}
        story.append(para(f"{team['home']} {score.get('home', '')} – {score.get('away', '')} {team['away']}", "Heading2"))
        story.append(para(result_sentence(data)))
        story.append(para(clock_note(), "Italic"))
        story.append(Spacer(1, 4 * mm))

        story.append(para(_("Teams and handicaps"), "Heading3"))
        rows = []
        for t in TEAMS:
            for p in m[t]["players"]:
                rows.append([team[t], p["number"], p.get("name") or "", p.get("handicap")])
            rows.append([team[t], "", _("Team handicap / handicap goals"), f"{m[t]['handicap']} / {m[t]['handicap_goals']}"])
        table([_("Team"), _("No."), _("Player"), _("Handicap")], rows)

        story.append(para(_("Goals by chukker"), "Heading3"))
        rows = []
        for p in data["periods"]:
            for g in p["goals"]:
                rows.append([period_label(p["number"], p["kind"]), clock_label(g["clock"]), team[g["team"]],
                             g.get("player") or (f"#{g['number']}" if g.get("number") else ""), how_label(g["how"])])
        table([_("Chukker"), _("Time played"), _("Team"), pgettext("who scored a goal", "Scorer"), _("How")], rows)

        story.append(para(_("Knock-ins per chukker"), "Heading3"))
        table([_("Chukker"), team["home"], team["away"]],
              [[period_label(p["number"], p["kind"]), p["knock_ins"]["home"], p["knock_ins"]["away"]] for p in data["periods"]])

        story.append(para(_("Penalties"), "Heading3"))
        table([_("Chukker"), _("Time played"), _("Penalty"), _("To"), _("Against"), _("Converted")],
              [[period_label(p["period"], p["period_kind"]), clock_label(p["clock"]), p["penalty"], team.get(p["team"], ""),
                (p.get("player") or (f"#{p['number']}" if p.get("number") else "")),
                _("advantage") if p["advantage"] else converted_label(p["converted"])] for p in data["penalties"]])

        story.append(para(_("Cards"), "Heading3"))
        table([_("Chukker"), _("Time played"), _("Team"), _("Player"), _("Card")],
              [[period_label(c["period"], c["period_kind"]), clock_label(c["clock"]), team.get(c["team"], ""),
                c.get("player") or f"#{c['number']}", card_label(c["color"])] for c in data["cards"]])

        story.append(para(_("Injuries and horse changes"), "Heading3"))
        rows = [[period_label(s["period"], s["period_kind"]), clock_label(s["clock"]), reason_label(s["reason"]),
                 team.get(s["team"], ""), s.get("player") or "", s.get("horse") or "",
                 _("unconscious") if s["unconscious"] else ""] for s in data["stoppages"]]
        rows += [[period_label(h["period"], h["period_kind"]), clock_label(h["clock"]), _("change of horse"),
                  team.get(h["team"], ""), h.get("player") or "", h.get("horse") or "", ""] for h in data["horses"]]
        rows += [[period_label(s["period"], s["period_kind"]), clock_label(s["clock"]), _("substitution"),
                  team.get(s["team"], ""), f"{s.get('player_out') or ''} → {s.get('player_in') or ''}", "", ""]
                 for s in data["substitutions"]]
        table([_("Chukker"), _("Time played"), _("What"), _("Team"), _("Player"), _("Horse"), ""], rows)

        story.append(para(_("Clock corrections"), "Heading3"))
        table([_("Chukker"), _("From"), _("To"), _("Reason")],
              [[period_label(c["period"], c["period_kind"]), clock_label(c["from"]), clock_label(c["to"]), c.get("reason") or ""]
               for c in data["clock_corrections"]])

        story.append(para(_("Voided events"), "Heading3"))
        table([_("Event"), _("Voided by"), _("Reason")],
              [[f"#{v['target_seq']} {event_label(v['target_type'])}", v.get("by") or "", v.get("reason") or ""]
               for v in data["voided"]])

        story.append(para(_("Committee decisions"), "Heading3"))
        table([_("Decision"), _("Reason"), _("By")],
              [[committee_label(c["type"]), reason_label(c.get("reason")), c.get("by") or ""] for c in data["committee"]])

        if data.get("shootout"):
            story.append(para(_("Shootout"), "Heading3"))
            table([_("Round"), _("Line"), _("Team"), _("Player"), _("Scored")],
                  [[h["round"], h["line"], team.get(h["team"], ""), h.get("player") or f"#{h['number']}",
                    _("yes") if h["scored"] else _("no")] for h in data["shootout"]["hits"]])

        o = data["officials"]
        story.append(para(_("Officials"), "Heading3"))
        story.append(para(_("Umpires: %(names)s") % {"names": ", ".join(o["umpires"]) or "—"}))
        story.append(para(_("Referee: %(name)s") % {"name": o["referee"] or "—"}))
        story.append(para(_("Scorer: %(name)s") % {"name": o["scorer"] or "—"}))
        story.append(Spacer(1, 4 * mm))
        story.append(para(_("Built from the match log at position %(seq)s.") % {"seq": data["last_seq"]}, "Italic"))

        buffer = io.BytesIO()
        doc = SimpleDocTemplate(buffer, pagesize=A4, title=_("Official match report"),
                                leftMargin=15 * mm, rightMargin=15 * mm, topMargin=15 * mm, bottomMargin=15 * mm)
        doc.build(story)
        return buffer.getvalue()


def converted_label(converted: bool | None) -> str:
    if converted is None:
        return _("not taken")
    return _("converted") if converted else _("missed")


def committee_label(kind: str) -> str:
    return {
        "suspend": _("suspended"), "resume": _("resumed"), "abandon": _("abandoned"), "overtime": _("overtime"),
        "shootout_start": _("shootout"), "forfeit": _("forfeit"),
    }.get(kind, kind)


def result_sentence(data: dict[str, Any]) -> str:
    res, m = data["result"], data["match"]
    status, winner = res.get("status"), res.get("winner")
    if status == "abandoned":
        return _("The match was abandoned.")
    if winner in TEAMS:
        how = {"regulation": _("in regulation time"), "overtime": _("in overtime"), "shootout": _("in a shootout"),
               "forfeit": _("by forfeit")}.get(res.get("result") or "", "")
        return _("%(team)s won %(how)s.") % {"team": m[winner]["name"], "how": how}
    label = Match.Status(status).label if status in Match.Status.values else status
    return _("The match is not over (%(status)s).") % {"status": label}


# -- the stored report ----------------------------------------------------------------------------

def match_report_build(*, match_id: int, force: bool = False) -> MatchReport | None:
    """Store the report of the match's log at its current position. Idempotent: the report of a
    position is built once (``force`` rebuilds it, e.g. after a roster name was corrected). None
    when the match no longer exists."""
    match = Match.objects.select_related("tournament", "field", "home__team", "away__team", "referee", "scorer").filter(pk=match_id).first()
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
