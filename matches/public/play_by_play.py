"""The public play-by-play of a match: every event that counts, in order, in plain words, with the
rule the engine applied.

Vocabulary: an *entry* is one line of the play-by-play (one event of the log that counts); the
entries are grouped by *period* (a chukker, an overtime period, the shootout; "before the
throw-in" for what was logged before the first one). The log is read through the engine's
``fold`` as the official report reads it (``committee.reports``): an event a ``void`` took back,
and the void, are not there — the public reads the match as corrected. A ``play`` is an entry
where it opens a period; elsewhere it only takes the restart the entry before it gave. Each
entry's rule is the engine's: the restart it gave after the event (``state.restart.message``,
"Rule 22.a: knock-in by …", in the reader's language), the time a stoppage allows (Rule 21.d),
or the rule the event itself rests on (a horn, a suspension, a shootout hit).

What the public never reads here: the officials' notes (``note``, ``private_note``: see
docs/MATCH-LOG.md), who logged an event (``by``), a free-text reason (only the reasons the app
knows, translated), and the entries in progress (``hold``/``release``: the clock's bookkeeping).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext as _, pgettext
from redis.exceptions import RedisError

from matches.committee.report_labels import (
    PENALTY_NAMES,
    TEAMS,
    card_label,
    clock_label,
    clock_note,
    period_label,
    reason_label,
    result_sentence,
)
from matches.games import match_config, match_game
from matches.models import Match, MatchEvent
from officiating.engine import fold
from officiating.engine.state import Scored

log = logging.getLogger(__name__)

# The clock's bookkeeping of an entry in progress: not an event of the game.
NOT_SHOWN = frozenset({"hold", "release"})
# A "play" is shown where it opens a period; elsewhere it only takes the restart the entry before it
# already gives, with its rule (half the entries of a match, and no news).
PERIOD_OPENS = frozenset({"scheduled", "interval"})


def _other(team: str) -> str:
    return "away" if team == "home" else "home"


def whistle_reason_label(reason: str | None) -> str:
    """A stoppage's reason in words: the report's labels, and the reasons it does not list."""
    extra = {
        "lost_helmet": _("lost helmet"),
        "lodged_ball": _("ball lodged"),
        "damaged_ball": _("damaged ball"),
        "inadvertent": _("inadvertent whistle"),
        "rule_check": _("the umpires checked a possible foul: no foul"),
        "umpire_down": _("umpire down"),
    }
    return extra.get(reason or "") or reason_label(reason)


def violation_label(kind: str | None) -> str:
    return {
        "late": _("restart taken late"),
        "early": _("restart taken early"),
        "passed_ball": _("the ball was passed at the restart"),
        "encroachment": _("defenders too close at the restart"),
        "delay": _("delay of the restart"),
    }.get(kind or "", kind or "")


class _Words:
    """The sentences of one match: its teams and players by name (a substitution renames a number)."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.teams = {team: config[team]["name"] for team in TEAMS}
        self.names = {(team, p["number"]): p["name"] for team in TEAMS for p in config[team]["players"]}

    def team(self, team: Any) -> str:
        return self.teams.get(team, "") if isinstance(team, str) else ""

    def player(self, team: Any, number: Any) -> str:
        """ "Juan Martin (La Dolfina Blue, No. 3)", or "La Dolfina Blue No. 3" without a name."""
        if team not in TEAMS or not isinstance(number, int):
            return self.team(team)
        name = self.names.get((team, number))
        params = {"team": self.teams[team], "number": number, "name": name}
        if name:
            return _("%(name)s (%(team)s, No. %(number)s)") % params
        return _("%(team)s No. %(number)s") % params

    def score(self, score: dict[str, Any]) -> str:
        def goals(n: Any) -> str:
            n = float(n)
            return str(int(n)) if n.is_integer() else f"{int(n)}½"

        return f"{self.teams['home']} {goals(score['home'])} – {goals(score['away'])} {self.teams['away']}"


def _goal_sentence(goal: Scored, w: _Words) -> str:
    """A goal as the engine recorded it (``Game.scored``): the box score's and the report's kind."""
    team = goal.team
    if goal.own_goal:
        return _("Own goal by %(player)s: a goal for %(team)s.") % {
            "player": w.player(goal.hitter_team, goal.number),
            "team": w.team(team),
        }
    params = {
        "team": w.team(team),
        "player": w.player(team, goal.number) if goal.number is not None else w.team(team),
        "penalty": PENALTY_NAMES.get(goal.penalty or "", ""),
    }
    if params["penalty"]:
        return _("Penalty %(penalty)s goal for %(team)s, hit by %(player)s.") % params
    if goal.penalty is not None:
        return _("Penalty goal for %(team)s, hit by %(player)s.") % params
    return _("Goal for %(team)s, hit by %(player)s.") % params


def _sentence(
    kind: str, event: dict[str, Any], before: dict[str, Any], after: dict[str, Any], w: _Words, goals: list[Scored]
) -> str:
    team = event.get("team")
    if kind == "play":  # (shown only where it opens a period)
        return _opening(before.get("restart") or {}, w)
    if kind == "goal" and goals:
        return " ".join(_goal_sentence(g, w) for g in goals)
    if kind == "foul":
        against = event.get("against")
        params = {
            "player": w.player(against, event.get("number")),
            "team": w.team(_other(against)) if against in TEAMS else "",
            "penalty": PENALTY_NAMES.get(event.get("penalty") or "", ""),
        }
        if event.get("advantage"):
            text = _("Foul by %(player)s: advantage played, play goes on.") % params
        elif event.get("penalty") == "1":
            text = _("Foul by %(player)s: Penalty 1, a goal awarded to %(team)s.") % params
        else:
            text = _("Foul by %(player)s: Penalty %(penalty)s to %(team)s.") % params
        if event.get("card"):
            text += " " + card_label(event["card"]).capitalize() + "."
        return text
    if kind == "ball_out":
        params = {"team": w.team(event.get("last_hit_by"))}
        if event.get("line") == "end":
            return _("Ball over the end line, last hit by %(team)s.") % params
        return _("Ball over the side line, last hit by %(team)s.") % params
    if kind == "whistle":
        text = _("Play stopped: %(reason)s.") % {"reason": whistle_reason_label(event.get("reason"))}
        if team in TEAMS and isinstance(event.get("number"), int):
            text += " " + w.player(team, event["number"]) + "."
        return text
    if kind == "restart_violation":
        return _("Restart violation by %(team)s: %(what)s.") % {
            "team": w.team(team),
            "what": violation_label(event.get("kind")),
        }
    if kind == "horn":
        if event.get("kind") == "seven":
            return _("Seven-minute horn: the chukker ends at the next stoppage or the second horn.")
        if after.get("status") == "final":
            return _("Final horn: the match is over.")
        if after.get("status") == "tied":
            return _("Final horn: the match is tied.")
        return _("Final horn: end of the chukker.")
    if kind == "clock_set":
        return _("The umpires set the clock to %(clock)s played.") % {"clock": clock_label(event.get("clock"))}
    if kind == "card":
        return _("%(card)s for %(player)s.") % {
            "card": card_label(event.get("color")).capitalize(),
            "player": w.player(team, event.get("number")),
        }
    if kind == "mount":
        return _("%(player)s changes horse.") % {"player": w.player(team, event.get("number"))}
    if kind == "substitution":
        incoming = (event.get("player") or {}).get("name") or ""
        return _("Substitution for %(team)s: %(in)s replaces %(out)s.") % {
            "team": w.team(team),
            "in": incoming,
            "out": w.player(team, event.get("out")),
        }
    if kind == "suspend":
        reason = event.get("reason")
        if reason in ("darkness", "weather"):
            return _("The game is suspended: %(reason)s.") % {"reason": reason_label(reason)}
        return _("The game is suspended.")
    if kind == "resume":
        return _("The game resumes where it stopped.")
    if kind == "abandon":
        return _("The game is abandoned.")
    if kind == "overtime":
        return _("The committee orders overtime: the first goal wins.")
    if kind == "shootout_start":
        return _("The committee orders a shootout; %(team)s hit first.") % {"team": w.team(event.get("first"))}
    if kind == "shootout_attempt":
        shot = before.get("shootout") or {}
        params = {
            "round": shot.get("round") or "",
            "line": shot.get("line") or "",
            "player": w.player(team, event.get("number")),
        }
        if event.get("scored"):
            return _("Shootout, round %(round)s, from %(line)s yards: %(player)s scores.") % params
        return _("Shootout, round %(round)s, from %(line)s yards: %(player)s misses.") % params
    if kind == "forfeit":
        text = _("%(team)s forfeit the match.") % {"team": w.team(team)}
        if event.get("reason") == "excused_horse_returned":
            text += " " + reason_label("excused_horse_returned").capitalize() + "."
        return text
    return kind


def _opening(restart: dict[str, Any], w: _Words) -> str:
    """The "Play" that opens a period, by the restart it takes: a throw-in, or what the last
    stoppage of the period before carried over to open this one (14.b(2): a penalty, a free hit
    after a ball over the side, a knock-in)."""
    kind = restart.get("kind")
    params = {"team": w.team(restart.get("team")), "penalty": PENALTY_NAMES.get(restart.get("penalty") or "", "")}
    if kind == "penalty":
        return _("The chukker begins with the Penalty %(penalty)s to %(team)s.") % params
    if kind == "free_hit":
        return _("The chukker begins with the free hit to %(team)s.") % params
    if kind == "knock_in":
        return _("The chukker begins with the knock-in by %(team)s.") % params
    if kind == "possession_play":
        return _("The chukker begins with the possession play of %(team)s.") % params
    return _("Throw-in: the chukker begins.")


# The rule an event rests on where the engine gives no restart after it.
EVENT_RULES = {
    "horn": "14.b(1)",
    "clock_set": "14.b(1)",
    "suspend": "21.k",
    "resume": "22.j",
    "abandon": "21.k",
    "overtime": "14.c",
    "shootout_start": "14.d",
    "shootout_attempt": "14.d",
    "forfeit": "21.f(5)",
}


def _rule(kind: str, before: dict[str, Any], after: dict[str, Any]) -> str:
    """The engine's restart after the event, in words with its rule; else the rule of the event."""
    rules = []
    restart = after.get("restart")
    if kind != "play" and restart and restart != before.get("restart"):
        rules.append(restart.get("message") or _("Rule %(rule)s") % {"rule": restart.get("rule")})
    # A stoppage's time allowed (an injured player, a horse time-out: Rules 21.d, 21.f).
    rules += [
        _("Rule %(rule)s: %(minutes)s minutes allowed.") % {"rule": t["rule"], "minutes": f"{t['seconds'] / 60:g}"}
        for t in after.get("timers") or []
        if t not in (before.get("timers") or []) and t.get("rule") and t.get("seconds")
    ]
    if not rules and kind in EVENT_RULES:
        rules.append(_("Rule %(rule)s") % {"rule": EVENT_RULES[kind]})
    return " · ".join(rules)


def _period_key(kind: str, after: dict[str, Any]) -> tuple[str, int]:
    if kind == "shootout_attempt" or after.get("status") == "shootout":
        return ("shootout", 0)
    if after.get("status") == "scheduled":
        return ("before", 0)
    period = after.get("period") or {}
    return (period.get("kind") or "regulation", int(period.get("number") or 0))


def _heading(key: tuple[str, int]) -> str:
    if key[0] == "before":
        return _("Before the throw-in")
    return period_label(key[1], key[0])


def _build(match: Match, lang: str) -> dict[str, Any]:
    config = match_config(match)
    # The match's own fold (kept by ``matches.games``), seen event by event; its goals are the
    # engine's records, as the box score and the report count them.
    game = match_game(match, config)
    folded = fold(game.config, [], game=game, lang=lang)
    goals: dict[str, list[Scored]] = {}
    for goal in game.scored:
        goals.setdefault(goal.id, []).append(goal)
    words = _Words(config)
    periods: list[dict[str, Any]] = []
    final: dict[str, Any] | None = None
    # A horn logged twice (the clock's and an official's) is one line; when the second says where
    # the ball was, the next chukker's throw-in moved there (22.g): the line gives that restart.
    horns: dict[tuple[Any, ...], dict[str, Any]] = {}
    for step in folded.steps:
        event, before, after = step.event, step.before, step.after
        assert before is not None and after is not None  # (folded with a language)
        final = after
        kind = str(event.get("type"))
        if kind in NOT_SHOWN or (kind == "play" and before.get("status") not in PERIOD_OPENS):
            continue
        key = _period_key(kind, after)
        horn = (*key, event.get("kind")) if kind == "horn" else None
        if horn in horns:
            if after.get("restart") != before.get("restart"):
                horns[horn]["rule"] = _rule(kind, before, after)
            continue
        if not periods or periods[-1]["key"] != list(key):
            periods.append({"key": list(key), "heading": _heading(key), "entries": [], "score": ""})
        scored = goals.get(step.id, [])
        # A "play" has no clock of its own: it starts the period's clock where the state after it says.
        clock = event.get("clock") if kind != "play" else (after.get("clock") or {}).get("elapsed")
        shown: dict[str, Any] = {
            "seq": step.seq,
            "type": kind,
            "clock": "" if key[0] in ("before", "shootout") else clock_label(clock),
            "text": _sentence(kind, event, before, after, words, scored),
            "rule": _rule(kind, before, after),
            "team": event.get("team") if event.get("team") in TEAMS else (scored[0].team if scored else None),
            "goal": bool(scored),
            "goals": [{"team": g.team, "how": g.how, "penalty": g.penalty, "number": g.number} for g in scored],
            "score": words.score(after["score"]) if scored else "",
            "tally": _tally(after) if kind == "shootout_attempt" else "",
        }
        periods[-1]["entries"].append(shown)
        if horn is not None:
            horns[horn] = shown
        periods[-1]["score"] = words.score(after["score"])
        if kind == "substitution" and event.get("team") in TEAMS and isinstance(event.get("player"), dict):
            words.names[(event["team"], event.get("out"))] = event["player"].get("name", "")
    result = ""
    if final is not None and final.get("status") in ("final", "abandoned"):
        result = result_sentence({"result": final, "match": {t: {"name": words.teams[t]} for t in TEAMS}})
    return {"periods": periods, "last_seq": match.last_seq, "result": result, "clock_note": clock_note()}


def _tally(state: dict[str, Any]) -> str:
    points = (state.get("shootout") or {}).get("points") or {}
    return pgettext("shootout tally", "%(home)s–%(away)s") % {
        "home": points.get("home", 0),
        "away": points.get("away", 0),
    }


def _cached(key: str, build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    try:
        value = cache.get(key)
        if value is None:
            value = build()
            cache.set(key, value, 3600)
        return value
    except RedisError as exc:  # the cache only saves work: with Redis away, fold the log
        log.warning("play-by-play cache unavailable: %r", exc)
        return build()


def match_play_by_play(match: Match, *, lang: str) -> dict[str, Any]:
    """The play-by-play of the match in ``lang``: its periods, each with a heading, its entries in
    order and the score at its end; the result in a sentence once the match is over.

    Cached per (match, last_seq, id of the last event, language): every spectator's page asks for
    it after every event, and the log only grows (the id keeps a rebuilt database from meeting an
    old entry)."""
    last_id = MatchEvent.objects.filter(match=match, seq=match.last_seq).values_list("client_id", flat=True).first()
    key = f"public:pbp:{match.pk}:{match.last_seq}:{last_id}:{lang}"
    with translation.override(lang):
        return _cached(key, lambda: _build(match, lang))
