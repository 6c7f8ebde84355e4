"""The events of a match log as the rules read them: parsed and validated once, at the door.

The log stores each event as the JSON object it was posted as (``Decision.event``). ``parse`` reads
one such object once into an ``Event``: its type, id and clock, and a small immutable record of
the fields its type has (``Goal``, ``Foul``, ``BallOut``…), every field checked and typed. The
rules read the records, never the object.

What is checked here is the event's own shape: the fields of its type and their values, positions
on the configured field, the clock a number of seconds. Whether the game admits the event, and who
may take part in it, is for the rules. A record is a NamedTuple: immutable, typed, and cheap to
build (a frozen dataclass costs three times as much, on the server's hot path).

Order. The rules have always judged an event's clock against the running clock (14.b(1)) before
its other fields, so a bad field does not raise here: ``parse`` returns the Rejection as the body,
and ``decide`` raises it where the fields used to be read (right after the clock).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

from . import messages as m, shape
from .config import MatchConfig
from .geometry import Point
from .messages import Rejection
from .refusals import Refused, bad, invalid, missing

# The values each field may take: the contract's JSON Schema's (``shape``: one source, issue 37).
TEAMS = shape.ENUMS["goal", "team"]
PENALTIES = shape.ENUMS["foul", "penalty"]
CARDS = shape.ENUMS["card", "color"]
DEFLECTIONS = shape.ENUMS["ball_out", "deflected_off"]
LINES = shape.ENUMS["ball_out", "line"]
REASONS = shape.ENUMS["whistle", "reason"]
VIOLATIONS = shape.ENUMS["restart_violation", "kind"]
HORNS = shape.ENUMS["horn", "kind"]
SHOOTOUT_FORMATS = shape.ENUMS["shootout_start", "format"]
# The events that stop play and the clock: the ones an official's first key holds the clock for.
STOPPAGES = shape.ENUMS["hold", "kind"]


# -- the records ------------------------------------------------------------------------------------


class Play(NamedTuple):
    """The umpire calls "Play" (or throws the ball in)."""


class Goal(NamedTuple):
    team: str  # credited with the goal
    number: int | None  # who hit it (of the other team for an own goal)
    own_goal: bool
    from_penalty: bool | str | None


class Foul(NamedTuple):
    against: str
    number: int | None
    penalty: str
    from_spot: bool
    spot: Point | None
    card: str | None
    advantage: bool
    goal_scored: bool
    scored_by: str | None


class BallOut(NamedTuple):
    line: str  # end | side
    at: Point
    last_hit_by: str | None
    deflected_off: str


class Whistle(NamedTuple):
    reason: str
    ball: Point | None
    possession: str | None
    fair_play: bool
    team: str | None
    number: int | None
    horse: str | None
    unconscious: bool
    visibly_injured: bool
    contact: bool
    same_injury: bool
    first_hit: bool


class RestartViolation(NamedTuple):
    kind: str
    team: str


class Horn(NamedTuple):
    kind: str  # seven | final
    ball: Point | None


class ClockSet(NamedTuple):
    clock: float


class Card(NamedTuple):
    team: str
    number: int
    color: str


class Mount(NamedTuple):
    team: str
    number: int
    horse: str


class Substitution(NamedTuple):
    team: str
    out: int
    name: str | None
    handicap: float | None


class Suspend(NamedTuple):
    ball: Point | None
    reason: str | None


class Resume(NamedTuple):
    reason: str | None


class Abandon(NamedTuple):
    reason: str | None


class Overtime(NamedTuple):
    """The committee orders overtime (14.c)."""


class ShootoutStart(NamedTuple):
    format: str  # team | single
    first: str
    # (home, away): each team's hitters in order; None where that list is not a valid order, and
    # ``order`` None when the event has none (the rules first check that a shootout may start).
    order: tuple[tuple[int, ...] | None, tuple[int, ...] | None] | None


class ShootoutAttempt(NamedTuple):
    team: str
    number: int
    scored: bool


class Hold(NamedTuple):
    id: str
    kind: str  # one of STOPPAGES
    by: dict[str, str] | None


class Release(NamedTuple):
    target: str


class Forfeit(NamedTuple):
    team: str
    reason: str | None


class Void(NamedTuple):
    target: str
    reason: str | None


Body = (
    Play
    | Goal
    | Foul
    | BallOut
    | Whistle
    | RestartViolation
    | Horn
    | ClockSet
    | Card
    | Mount
    | Substitution
    | Suspend
    | Resume
    | Abandon
    | Overtime
    | ShootoutStart
    | ShootoutAttempt
    | Hold
    | Release
    | Forfeit
    | Void
)


class Event(NamedTuple):
    """One event as the rules read it."""

    type: str
    id: str
    clock: float | None  # the official time the event gives (None: none given)
    hold: str | None  # the entry in progress this event completes (issue 9), if it names one
    body: Body | Rejection  # the type's fields, or why they are not valid (raised after the clock)


# -- reading one field --------------------------------------------------------------------------------


def is_num(v: Any) -> bool:
    """A JSON number the rules can count with: a finite float, or an int a float can hold."""
    if type(v) is float:
        return math.isfinite(v)
    return type(v) is int and -_HUGE < v < _HUGE


# JSON's ints have no bound; beyond this one ``float()`` fails (an overflow, not a refusal).
_HUGE = 10**300


def _team(ev: dict[str, Any], key: str) -> str:
    v = ev.get(key)
    if v is None:
        missing(key)
    if v not in TEAMS:
        bad(key)
    team: str = v
    return team


def _optional_team(ev: dict[str, Any], key: str) -> str | None:
    v = ev.get(key)
    if v is not None and v not in TEAMS:
        bad(key)
    team: str | None = v
    return team


def _number(ev: dict[str, Any], key: str = "number") -> int | None:
    v = ev.get(key)
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 4:
        bad(key)
    return v


def _required_number(ev: dict[str, Any], key: str = "number") -> int:
    n = _number(ev, key)
    if n is None:
        missing(key)
    return n


def _flag(ev: dict[str, Any], key: str) -> bool:
    v = ev.get(key)
    if v is None:
        return False
    if not isinstance(v, bool):
        bad(key)
    return v


def _choice(ev: dict[str, Any], key: str, choices: tuple[str, ...]) -> str:
    v = ev.get(key)
    if v is None:
        missing(key)
    if v not in choices:
        bad(key)
    chosen: str = v
    return chosen


def _optional_choice(ev: dict[str, Any], key: str, choices: tuple[str, ...], default: str | None = None) -> str | None:
    v = ev.get(key)
    if v is None:
        return default
    if v not in choices:
        bad(key)
    chosen: str = v
    return chosen


def _text(ev: dict[str, Any], key: str) -> str | None:
    v = ev.get(key)
    if v is not None and not isinstance(v, str):
        bad(key)
    return v


def _required_text(ev: dict[str, Any], key: str) -> str:
    v = ev.get(key)
    if v is None:
        missing(key)
    if not isinstance(v, str) or not v:
        bad(key)
    return v


def _optional_position(cfg: MatchConfig, ev: dict[str, Any], key: str) -> Point | None:
    v = ev.get(key)
    if v is None:
        return None
    if type(v) is not dict:
        bad(key)
    x: Any = v.get("x")
    y: Any = v.get("y")
    if type(x) not in (int, float) or type(y) not in (int, float):
        bad(key)
    field = cfg.field
    # (NaN fails both comparisons; infinities are off the field.)
    if not (0.0 <= x <= field.length and 0.0 <= y <= field.width):
        invalid(m.OFF_FIELD, field=key)
    return (float(x), float(y))


def _position(cfg: MatchConfig, ev: dict[str, Any], key: str) -> Point:
    p = _optional_position(cfg, ev, key)
    if p is None:
        missing(key)
    return p


# -- one reader per event type (in the order the rules have always read the fields) -----------------

_PLAY = Play()
_OVERTIME = Overtime()


def _play(ev: dict[str, Any], cfg: MatchConfig) -> Play:
    return _PLAY


def _goal(ev: dict[str, Any], cfg: MatchConfig) -> Goal:
    team = _team(ev, "team")
    number = _number(ev)
    own_goal = _flag(ev, "own_goal")
    fp = ev.get("from_penalty")
    if fp is not None and not isinstance(fp, bool) and fp not in PENALTIES:
        bad("from_penalty")
    return Goal(team, number, own_goal, fp)


def _foul(ev: dict[str, Any], cfg: MatchConfig) -> Foul:
    against = _team(ev, "against")
    number = _number(ev)
    pen = _choice(ev, "penalty", PENALTIES)
    from_spot = _flag(ev, "from_spot")
    spot_required = pen == "5a" or (pen == "2" and from_spot)
    spot = _position(cfg, ev, "spot") if spot_required else _optional_position(cfg, ev, "spot")
    card = _optional_choice(ev, "card", CARDS)
    advantage = _flag(ev, "advantage")
    goal_scored = _flag(ev, "goal_scored")
    scored_by = _optional_team(ev, "scored_by")
    return Foul(against, number, pen, from_spot, spot, card, advantage, goal_scored, scored_by)


def _ball_out(ev: dict[str, Any], cfg: MatchConfig) -> BallOut:
    line = _choice(ev, "line", LINES)
    at = _position(cfg, ev, "at")
    # (The optional fields of the commonest events are read in line: this runs once per event.)
    last = ev.get("last_hit_by")
    if last is not None and last not in TEAMS:
        bad("last_hit_by")
    deflected = ev.get("deflected_off")
    if deflected is None:
        deflected = "none"
    elif deflected not in DEFLECTIONS:
        bad("deflected_off")
    return BallOut(line, at, last, deflected)


def _whistle(ev: dict[str, Any], cfg: MatchConfig) -> Whistle:
    reason = _choice(ev, "reason", REASONS)
    ball = _optional_position(cfg, ev, "ball")
    possession = _optional_team(ev, "possession")
    fair_play = _flag(ev, "fair_play")
    team = _optional_team(ev, "team")
    number = _number(ev)
    horse = _text(ev, "horse")
    unconscious = _flag(ev, "unconscious")
    visibly_injured = _flag(ev, "visibly_injured")
    contact = _flag(ev, "contact")
    same_injury = _flag(ev, "same_injury")
    first_hit = _flag(ev, "first_hit")
    if number is not None and team is None:
        missing("team")
    if unconscious and number is None:
        invalid(m.NEEDS_PLAYER)
    return Whistle(
        reason,
        ball,
        possession,
        fair_play,
        team,
        number,
        horse,
        unconscious,
        visibly_injured,
        contact,
        same_injury,
        first_hit,
    )


def _restart_violation(ev: dict[str, Any], cfg: MatchConfig) -> RestartViolation:
    return RestartViolation(_choice(ev, "kind", VIOLATIONS), _team(ev, "team"))


def _horn(ev: dict[str, Any], cfg: MatchConfig) -> Horn:
    kind = _choice(ev, "kind", HORNS)
    return Horn(kind, _optional_position(cfg, ev, "ball"))


def _clock_set(ev: dict[str, Any], cfg: MatchConfig) -> ClockSet:
    clock = ev.get("clock")  # checked with every event's clock (``parse``)
    if clock is None:
        missing("clock")
    return ClockSet(clock)


def _card(ev: dict[str, Any], cfg: MatchConfig) -> Card:
    team = _team(ev, "team")
    number = _required_number(ev)
    return Card(team, number, _choice(ev, "color", CARDS))


def _mount(ev: dict[str, Any], cfg: MatchConfig) -> Mount:
    team = _team(ev, "team")
    number = _required_number(ev)
    return Mount(team, number, _required_text(ev, "horse"))


def _substitution(ev: dict[str, Any], cfg: MatchConfig) -> Substitution:
    team = _team(ev, "team")
    out = _required_number(ev, "out")
    player = ev.get("player")
    if not isinstance(player, dict):
        missing("player")
    name = player.get("name")
    handicap = player.get("handicap")
    if (name is not None and not isinstance(name, str)) or (handicap is not None and not is_num(handicap)):
        bad("player")
    return Substitution(team, out, name, handicap)


def _suspend(ev: dict[str, Any], cfg: MatchConfig) -> Suspend:
    ball = _optional_position(cfg, ev, "ball")
    return Suspend(ball, _text(ev, "reason"))


def _resume(ev: dict[str, Any], cfg: MatchConfig) -> Resume:
    return Resume(_text(ev, "reason"))


def _abandon(ev: dict[str, Any], cfg: MatchConfig) -> Abandon:
    return Abandon(_text(ev, "reason"))


def _overtime(ev: dict[str, Any], cfg: MatchConfig) -> Overtime:
    return _OVERTIME


def _shootout_start(ev: dict[str, Any], cfg: MatchConfig) -> ShootoutStart:
    fmt = _choice(ev, "format", SHOOTOUT_FORMATS)
    first = _team(ev, "first")
    order = ev.get("order")
    if not isinstance(order, dict):
        return ShootoutStart(fmt, first, None)
    return ShootoutStart(fmt, first, (_hitters(order.get("home")), _hitters(order.get("away"))))


def _hitters(raw: Any) -> tuple[int, ...] | None:
    """One team's shootout order: 1 to 4 distinct player numbers (None when it is not one)."""
    if (
        not isinstance(raw, list)
        or not raw
        or len(set(map(repr, raw))) != len(raw)
        or any(not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 4 for n in raw)
    ):
        return None
    return tuple(raw)


def _shootout_attempt(ev: dict[str, Any], cfg: MatchConfig) -> ShootoutAttempt:
    team = _team(ev, "team")
    number = _required_number(ev)
    scored = ev.get("scored")
    if not isinstance(scored, bool):
        invalid(m.MISSING_FIELD if scored is None else m.BAD_FIELD, field="scored")
    return ShootoutAttempt(team, number, scored)


def _hold(ev: dict[str, Any], cfg: MatchConfig) -> Hold:
    kind = _choice(ev, "kind", STOPPAGES)
    by = ev.get("by")
    if by is not None and not (type(by) is dict and all(type(v) is str for v in by.values())):
        bad("by")
    return Hold(ev["id"], kind, by)


def _target(ev: dict[str, Any]) -> str:
    target = ev.get("target")
    if not isinstance(target, str) or not target:
        missing("target")
    return target


def _release(ev: dict[str, Any], cfg: MatchConfig) -> Release:
    return Release(_target(ev))


def _forfeit(ev: dict[str, Any], cfg: MatchConfig) -> Forfeit:
    team = _team(ev, "team")
    return Forfeit(team, _text(ev, "reason"))


def _void(ev: dict[str, Any], cfg: MatchConfig) -> Void:
    target = _target(ev)
    return Void(target, _text(ev, "reason"))


READERS: dict[str, Callable[[dict[str, Any], MatchConfig], Body]] = {
    "play": _play,
    "goal": _goal,
    "foul": _foul,
    "ball_out": _ball_out,
    "whistle": _whistle,
    "restart_violation": _restart_violation,
    "horn": _horn,
    "clock_set": _clock_set,
    "card": _card,
    "mount": _mount,
    "substitution": _substitution,
    "suspend": _suspend,
    "resume": _resume,
    "abandon": _abandon,
    "overtime": _overtime,
    "shootout_start": _shootout_start,
    "shootout_attempt": _shootout_attempt,
    "forfeit": _forfeit,
    "hold": _hold,
    "release": _release,
    "void": _void,
}
# The contract's types (each has its reader: officiating/tests/test_schema.py).
EVENT_TYPES = frozenset(shape.EVENT_TYPES)


# -- the door -----------------------------------------------------------------------------------------


def parse(ev: dict[str, Any], cfg: MatchConfig) -> Event:
    """``ev`` (a JSON object whose ``type`` is one of EVENT_TYPES and ``id`` a non-empty string) as
    the rules read it. Raises ``Refused`` for a clock that is not a number of seconds; a bad field
    of the type's own is returned as the body (see the module's docstring)."""
    etype: str = ev["type"]
    try:
        body: Body | Rejection = _PLAY if etype == "play" else READERS[etype](ev, cfg)
    except Refused as refusal:
        body = refusal.rejection
    if etype == "void":  # a correction: no clock of its own, never a hold's
        return _event(Event, (etype, ev["id"], None, None, body))
    clock = ev.get("clock")
    if clock is not None and (
        type(clock) not in (int, float) or not 0 <= clock < math.inf or (type(clock) is int and clock >= _HUGE)
    ):
        bad("clock")
    named = ev.get("hold")
    # (``tuple.__new__``: the NamedTuple's own ``__new__`` costs twice as much, once per event.)
    return _event(Event, (etype, ev["id"], clock, named if type(named) is str else None, body))


_event = tuple.__new__
