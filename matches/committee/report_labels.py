"""The words of the official report: labels of its codes (how a goal was scored, a stoppage's reason,
a card, an event, a period, a committee decision), its times (m:ss of time played) and the result
in a sentence, in the active language. The report's pages and its PDF (``report_pdf``) both read
them; ``reports`` offers them with the data.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _, pgettext

from matches.models import Match

TEAMS = ("home", "away")


# A penalty's number as the rulebook writes it.
PENALTY_NAMES = {"1": "1", "2": "2", "3": "3", "4": "4", "5a": "5.a", "5b": "5.b", "6": "6"}


def how_label(how: str, penalty: str | None = None) -> str:
    """How a goal was scored (the engine's ``Scored.how``; a stored report may hold the older
    ``goal`` and ``at_whistle``), with the penalty it came from when known."""
    if how == "penalty" and penalty in PENALTY_NAMES:
        return _("penalty goal (Penalty %(penalty)s)") % {"penalty": PENALTY_NAMES[penalty]}
    return {
        "goal": _("goal"),
        "field": _("goal"),
        "unattributed": _("goal"),
        "own_goal": _("own goal"),
        "penalty": _("penalty goal"),
        "penalty_1": _("Penalty 1 (awarded)"),
        "at_whistle": _("goal at the whistle"),
        "shootout": _("shootout"),
    }.get(how, how)


def reason_label(reason: str | None) -> str:
    labels = {
        "injured_player": _("injured player"),
        "player_fall": _("player fall"),
        "injured_horse": _("injured horse"),
        "horse_fall": _("horse fall"),
        "horse_timeout": _("horse time-out"),
        "courtesy_change": _("courtesy change"),
        "broken_tack": _("broken tack"),
        "darkness": _("darkness"),
        "weather": _("inclement weather"),
        "excused_horse_returned": _("an excused horse returned to play (Rule 21.f(5))"),
        "other": _("other"),
    }
    return labels.get(reason or "", reason or "")


def card_label(color: str | None) -> str:
    return {"yellow": _("yellow card"), "red": _("red card")}.get(color or "", color or "")


def event_label(kind: str | None) -> str:
    """An event type of the match log, in words (for the corrections)."""
    return {
        "play": pgettext("event", "play"),  # the umpire's "Play": the officials' pages say "Juego"
        "goal": _("goal"),
        "foul": _("foul"),  # "foul" in the Spanish rulebook too
        "ball_out": _("ball out"),
        "whistle": _("whistle"),
        "restart_violation": _("restart violation"),
        "horn": _("horn"),
        "clock_set": _("clock correction"),
        "card": _("card"),
        "mount": _("change of horse"),
        "substitution": _("substitution"),
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


def converted_label(converted: bool | None) -> str:
    if converted is None:
        return _("not taken")
    return _("converted") if converted else _("missed")


def committee_label(kind: str) -> str:
    return {
        "suspend": _("suspended"),
        "resume": _("resumed"),
        "abandon": _("abandoned"),
        "overtime": _("overtime"),
        "shootout_start": _("shootout"),
        "forfeit": _("forfeit"),
    }.get(kind, kind)


def result_sentence(data: dict[str, Any]) -> str:
    res, m = data["result"], data["match"]
    status, winner = res.get("status"), res.get("winner")
    if status == "abandoned":
        return _("The match was abandoned.")
    if winner in TEAMS:
        how = {
            "regulation": _("in regulation time"),
            "overtime": _("in overtime"),
            "shootout": _("in a shootout"),
            "forfeit": _("by forfeit"),
        }.get(res.get("result") or "", "")
        return _("%(team)s won %(how)s.") % {"team": m[winner]["name"], "how": how}
    label = Match.Status(status).label if status in Match.Status.values else status
    return _("The match is not over (%(status)s).") % {"status": label}
