"""Every sentence the engine can say, and how it is said in the user's language.

Messages are gettext msgids in English; the Spanish catalog is
``officiating/locale/es/LC_MESSAGES/django.po`` (domain ``django``, so Django reads the same file).
The engine reads it with the standard library only. ``N_`` marks a msgid and records it in
``MSGIDS`` so that a test can check that every one of them is translated.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .editions import Edition

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

MSGIDS: list[str] = []


def N_(msgid: str) -> str:
    """Mark ``msgid`` for translation (gettext_noop) and remember it."""
    MSGIDS.append(msgid)
    return msgid


@lru_cache(maxsize=8)
def translation(lang: str) -> gettext.NullTranslations:
    return gettext.translation("django", localedir=str(LOCALE_DIR), languages=[lang], fallback=True)


def render(msgid: str, params: dict[str, Any] | None = None, lang: str = "en") -> str:
    text = translation(lang).gettext(msgid)
    return text % params if params else text


@dataclass(frozen=True, slots=True)
class Rejection:
    """Why an event was refused: a contract ``code``, the ``rule`` it rests on, and a
    translatable message. CHOICE: ``rule`` is None for codes about the log or the event's shape
    rather than a rule (invalid_event, unknown_player, duplicate_id, stale_sequence, the void
    codes, not_in_play, already_in_play, match_over)."""

    code: str
    rule: str | None
    msgid: str
    params: dict[str, Any] = field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        return render(self.msgid, self.params, lang)

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"code": self.code, "rule": self.rule, "message": self.message(lang)}


# -- rejections -----------------------------------------------------------------------------------

BAD_SHAPE = N_("The event must be a JSON object with a 'type' and an 'id'.")
BAD_TYPE = N_("Unknown event type '%(value)s'.")
MISSING_FIELD = N_("The field '%(field)s' is missing.")
BAD_FIELD = N_("The field '%(field)s' has a value the match log does not allow.")
OFF_FIELD = N_("The position '%(field)s' is off the field.")
NOT_A_FIELD = N_("The field '%(field)s' is not part of a '%(type)s' event.")
NOT_ON_SIDE_LINE = N_(
    "A ball out over a side line crossed it: '%(field)s' must lie on a side line (y = 0 or y = %(width)s)."
)
NOT_ON_END_LINE = N_(
    "A ball out over an end line crossed it: '%(field)s' must lie on an end line (x = 0 or x = %(length)s)."
)
CLOCK_OUT_OF_BOUNDS = N_(
    "The field 'clock' must be a number of seconds from 0 to %(max)s: the period's end and a minute more."
)
NUMBER_OUT_OF_BOUNDS = N_("The field '%(field)s' must be a number from %(low)s to %(high)s.")
TEXT_TOO_LONG = N_("The field '%(field)s' may hold at most %(max)s characters.")
BALL_OUT_BETWEEN_POSTS = N_("A ball that crosses the end line between the posts is a goal, not a ball out.")
CLOCK_BACKWARDS = N_("The clock (%(clock)s s) is earlier than the official time already recorded (%(elapsed)s s).")
CLOCK_AHEAD = N_(
    "The clock given (%(clock)s s) is ahead of the official clock (%(official)s s): check the device's time."
)
CLOCK_TOO_OLD = N_(
    "The clock given (%(clock)s s) is more than %(window)s s behind the official clock (%(official)s s): "
    "correct the time with a clock set instead."
)
KEY_TOO_OLD = N_(
    "This entry was kept at the field %(minutes)s minutes before it reached the server, longer than the "
    "%(window)s minutes whose record is taken as kept: record it at the official time now, with the time the umpires "
    "confirm, or drop it."
)
KEY_AHEAD = N_("The key is stamped %(seconds)s s after the server received it: check the device's time.")
NOT_HELD = N_("No entry in progress has the id '%(target)s'.")
SEQ_AHEAD = N_("expected_seq %(expected)s is ahead of the log (last_seq %(last)s).")
NO_VIOLATION_HERE = N_("There is no restart being taken to which this violation can apply.")
VIOLATION_NOT_BY_TEAM = N_("A '%(kind)s' violation cannot be committed by that team at this restart.")
VOID_OF_VOID = N_("A correction cannot itself be voided: post the event again instead.")
NEEDS_PLAYER = N_("This event must name the player (team and number).")
SHOOTOUT_ORDER = N_(
    "The shootout order must list each hitter once, the same number for both teams "
    "(one each in a single-player shootout)."
)

UNKNOWN_PLAYER = N_("There is no player number %(number)s in %(team)s.")
PLAYER_UNAVAILABLE = N_(
    "%(team)s #%(number)s may not take part: a player rendered unconscious may not play again that day."
)
SUBSTITUTE_UNAVAILABLE = N_("%(name)s was rendered unconscious and may not play again that day.")
NOT_IN_PLAY = N_("The ball is not in play.")
ALREADY_IN_PLAY = N_("The ball is already in play.")
GOAL_AFTER_TIME = N_("A goal scored after time has expired on the official clock does not count.")
MATCH_OVER = N_("The match is over.")
MATCH_SUSPENDED = N_("The game is suspended: resume it first.")
NOT_SUSPENDED = N_("The game is not suspended.")
FAIR_PLAY_REASON = N_("Fair-play possession does not apply to a stoppage for this reason.")
FAIR_PLAY_NO_TEAM = N_("Fair-play possession needs the team in possession of the ball.")
GOAL_AT_WHISTLE = N_(
    "A foul on the defending team with a goal at the whistle is either a Penalty 1 or no foul (then record the goal)."
)
COURTESY_NOT_ALLOWED = N_("No courtesy change was announced for this match.")
COURTESY_USED = N_("The courtesy change of this period has been used.")
NOT_TIED_OVERTIME = N_("Overtime is only for a game tied at the end of the final regulation period.")
NOT_TIED_SHOOTOUT = N_(
    "A shootout is only for a game tied at the end of the final regulation period or of an overtime period."
)
SHOOTOUT_OUT_OF_TURN = N_("Out of turn: the next shootout hit is %(team)s #%(number)s.")
NOT_IN_SHOOTOUT = N_("There is no shootout in progress.")
SHOOTOUT_IN_PROGRESS = N_("The game is being decided by a shootout.")
AWAITING_COMMITTEE = N_("The game is tied: the committee must order overtime or a shootout.")
DUPLICATE_ID = N_("An event with this id was already recorded with different content.")
STALE_SEQUENCE = N_("The log has moved on since (last_seq %(last)s, yours %(expected)s): reload and try again.")
VOID_UNKNOWN = N_("There is no recorded event with id '%(target)s' to void.")
VOID_ALREADY = N_("The event '%(target)s' has already been voided.")
VOID_INVALIDATES = N_("Voiding it would make a later event invalid (%(id)s: %(reason)s): void that one first.")
FORFEIT_TOO_LATE = N_("A forfeiture may be exacted only within %(hours)s hours after the game.")
ALREADY_FORFEITED = N_("The game has already been forfeited.")
HORN_WHILE_STOPPED = N_("The final horn cannot sound while the clock is stopped in this period.")

# -- restarts ------------------------------------------------------------------------------------

RULE_PREFIX = N_("Rule %(rule)s: %(text)s")
JOIN = N_("%(first)s; %(second)s")

R_OPENING = N_("throw-in at the centre to start the game")
R_PERIOD_CENTRE = N_("throw-in at the centre to start the period")
R_AFTER_GOAL = N_("throw-in at the centre after the goal, ends changed")
R_THROW_IN_WEST = N_("throw-in where the ball was dead, toward the west side")
R_THROW_IN_EAST = N_("throw-in where the ball was dead, toward the east side")
R_SUSPENDED_WEST = N_("throw-in where the ball was when the game was suspended, toward the west side")
R_SUSPENDED_EAST = N_("throw-in where the ball was when the game was suspended, toward the east side")
R_SUSPENDED_CENTRE = N_("throw-in at the centre: where the ball was when the game was suspended is not known")
R_SIDE_THROW_IN = N_("throw-in from the side where the ball went out")
R_KNOCK_IN = N_("knock-in by %(team)s from where the ball crossed the end line")
R_KNOCK_IN_MOVED = N_("knock-in by %(team)s, %(clearance)s yards from the goal post or side board")
R_SAFETY = N_("safety: Penalty 6 to %(team)s, %(safety_yards)s yards out, level with where the ball crossed")
R_PENALTY = N_("Penalty %(penalty)s to %(team)s")
R_PENALTY_1 = N_("Penalty 1: a goal to %(team)s, then a Penalty 5.b from the centre with ends changed")
R_FREE_HIT = N_("free hit to %(team)s where the ball went out, %(free_hit_in)s yards in — tapping allowed")
R_FREE_HIT_SIXTY = N_(
    "free hit to %(team)s from the %(sixty)s-yard line, %(free_hit_in_at_sixty)s yards in — no tapping"
)
R_POSSESSION = N_("possession play to %(team)s where the ball was — tapping allowed")
R_POSSESSION_SIXTY = N_("possession play to %(team)s from the %(sixty)s-yard line — no tapping")
S_AGAIN = N_("taken again from the same point with a new ball")
S_RETAKE = N_("taken again: the ball was never put in play")
S_NEXT_PERIOD = N_("at the start of the next period")
S_MIN_CLOCK = N_("at least %(min_clock)s seconds on the clock")

PENALTY_NAMES = {"1": "1", "2": "2", "3": "3", "4": "4", "5a": "5.a", "5b": "5.b", "6": "6"}


@lru_cache(maxsize=16)
def edition_params(ed: Edition) -> dict[str, str]:
    """The rule edition's numbers that the restart sentences say, as the sentences write them."""
    return {
        "clearance": f"{ed.knock_in_clearance:g}",
        "safety_yards": f"{ed.spots['6'][1]:g}",
        "free_hit_in": f"{ed.side_free_hit_in:g}",
        "free_hit_in_at_sixty": f"{ed.side_free_hit_in_at_sixty:g}",
        "sixty": f"{ed.sixty:g}",
        "min_clock": f"{ed.min_clock_remaining:g}",
    }
