"""The folded state of a match: small frozen records (``projection.py`` turns them into the
contract's state JSON).

Every record is immutable. ``evolve`` copies one with a few fields changed; it is
``dataclasses.replace`` without the per-field ``__init__`` work, because the server re-derives a
match from its whole log on every event and the fold must stay cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from .config import MatchConfig, Player
from .geometry import End, Point, Side

T = TypeVar("T")


def evolve(obj: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` (like ``dataclasses.replace``)."""
    new = _new(type(obj))
    fields = obj.__dict__.copy()  # (a dict's copy is cheaper than filling an empty one)
    fields.update(changes)
    _set(new, "__dict__", fields)
    return new


_new = object.__new__
_set = object.__setattr__  # past the frozen dataclass's __setattr__, once, for the whole __dict__


def other(team: str) -> str:
    return "away" if team == "home" else "home"


def flip(end: End) -> End:
    return "south" if end == "north" else "north"


@dataclass(frozen=True)
class Restart:
    """How play will resume (Rule 22). ``rule`` is the clause the contract cites; ``clause`` the
    finer one where Rule 22 has sub-cases (e.g. ``22.f(v)``)."""

    kind: str  # throw_in | knock_in | penalty | free_hit | possession_play
    team: str | None
    rule: str
    msgid: str
    penalty: str | None = None
    spot: Point | None = None
    toward: Side | None = None
    count_seconds: float | None = None
    hit_within_seconds: float | None = None
    tap_allowed: bool | None = None
    min_clock_remaining: float | None = None
    next_period: bool = False
    clause: str | None = None
    again: str | None = None  # S_AGAIN (22.d) or S_RETAKE: the same restart once more

    @property
    def is_hit(self) -> bool:
        """A restart someone hits (so it can be late, passed or broken on the first hit)."""
        return self.kind != "throw_in"


@dataclass(frozen=True)
class Timer:
    kind: str
    seconds: float
    team: str | None = None
    number: int | None = None
    started_at: float | None = None
    rule: str | None = None


@dataclass(frozen=True)
class Hold:
    """An official has begun logging a stoppage (the first key of a goal, foul, ball out, whistle
    or restart violation): the clock stopped at ``clock`` while the entry is typed. ``by`` is who
    ({"role", "name"}, filled in by the server), ``kind`` what they are logging."""

    id: str
    kind: str
    clock: float
    by: dict[str, Any] | None = None


@dataclass(frozen=True)
class ExcusedHorse:
    team: str
    number: int
    horse: str
    provision: str  # 21.f(1), 21.f(3) or 21.f(4)
    stoppage: int  # the stoppage in which it was excused


@dataclass(frozen=True)
class Unavailable:
    team: str
    number: int
    reason: str
    name: str | None = None
    substituted: bool = False  # the number is now worn by an eligible substitute
    event: str | None = None  # the id of the event that made it so (``records``)


@dataclass(frozen=True)
class Shootout:
    """14.d. Everything else (round, line, next hitter, points) is derived from the attempts."""

    format: str  # team | single
    first: str
    order: dict[str, tuple[int, ...]]
    attempts: tuple[tuple[str, int, bool], ...] = ()
    winner: str | None = None


@dataclass(frozen=True, slots=True)
class Scored:
    """One goal of the game, recorded by the fold as it raised a team's goals (``records``): the
    one account of a goal every surface reads (box score, report, score sheet, scoreboard,
    play-by-play). ``id``: the event that scored it (its place in the log: ``Game.seq_of``).

    ``how``: ``field`` (from play), ``penalty`` (from a penalty hit: ``penalty`` says which, or
    ``unknown``), ``own_goal``, ``penalty_1`` (a goal awarded, 14.b(2)), ``shootout`` (the deciding
    goal, 14.d) or ``unattributed`` (no hitter recorded). ``hitter_team``: the team of the player
    who hit it (the other team's for an own goal); ``name``: that player's name at the time.
    ``period``/``period_kind``: the period the game was in when it went in (0, ``shootout`` for
    the shootout's goal)."""

    id: str
    period: int
    period_kind: str  # regulation | overtime | shootout
    clock: float | None
    team: str  # credited with the goal
    how: str
    number: int | None
    hitter_team: str | None
    name: str | None
    penalty: str | None  # 1, 2, 3, 4, 5a, 5b, 6 or unknown; None when not from a penalty

    @property
    def own_goal(self) -> bool:
        return self.hitter_team is not None and self.hitter_team != self.team


class Entry(NamedTuple):
    """One accepted event of the log (never changed once made)."""

    seq: int
    id: str
    event: dict[str, Any]  # as stored: the event with ``clock`` (and ``server_time``) filled in
    before: Game | None = None  # every SNAPSHOT_EVERY entries: the rules state before this event


class Log:
    """The accepted events, shared append-only by successive games.

    A Game sees ``entries[:log_len]``. Appending from the newest game extends the list in place
    (O(1)); appending from an older game (a branch) copies its prefix first. So each Game is
    immutable as observed, and a linear fold costs no copy of the log per event.
    """

    __slots__ = ("entries", "index")

    def __init__(self, entries: list[Entry] | None = None) -> None:
        self.entries: list[Entry] = entries or []
        self.index: dict[str, int] = {e.id: i for i, e in enumerate(self.entries)}

    def find(self, event_id: str, visible: int) -> Entry | None:
        i = self.index.get(event_id)
        if i is None or i >= visible:
            return None
        return self.entries[i]

    def appended(self, visible: int, entry: Entry) -> Log:
        if len(self.entries) == visible:
            self.index[entry.id] = visible
            self.entries.append(entry)
            return self
        return Log([*self.entries[:visible], entry])


@dataclass(frozen=True)
class Game:
    """The whole folded state of one match. Build with ``new_game``; change with ``decide``."""

    config: MatchConfig
    status: str  # scheduled | in_play | stopped | interval | tied | shootout | suspended | final | abandoned
    period: int
    period_kind: str  # regulation | overtime
    elapsed: float
    running: bool
    anchor: float | None
    goals: tuple[int, int]  # accepted goals (home, away), handicap goals excluded
    scored: tuple[Scored, ...]  # those goals, one record each, in the order they went in
    home_defends: End
    restart: Restart | None
    taken: Restart | None  # the restart taken at the last "Play", until the next stoppage
    taken_clock: float | None  # the official time of that "Play"
    timers: tuple[Timer, ...]
    excused: tuple[ExcusedHorse, ...]
    unavailable: tuple[Unavailable, ...]
    rosters: tuple[tuple[Player, ...], tuple[Player, ...]]
    mounts: tuple[tuple[str, int, str], ...]  # the horse each player rides now
    ridden: tuple[tuple[str, int, str], ...]  # every (team, number, horse) mounted, once, in order
    cards: tuple[tuple[str, int | None, str], ...]
    courtesy_period: int | None  # the period whose courtesy change was used (21.f(2))
    stoppage: int  # counts stoppages; an excusal belongs to one
    ended_by: str | None  # how the current period ended: horn | goal | stoppage | None while it runs
    fresh_horn: bool  # the final horn has just ended a final-like period (21: a foul at the horn)
    interval_started_at: float | None
    suspended_from: str | None
    shootout: Shootout | None
    winner: str | None
    result: str | None
    forfeit: tuple[str, str | None] | None
    ended_at: float | None
    holds: tuple[Hold, ...]  # entries in progress (issue 9: the clock stops at the first key)
    held_from: tuple[float, float | None] | None  # (elapsed, anchor) the clock ran with before the first hold
    log: Log
    log_len: int
    voided: frozenset[str]

    # -- derived ------------------------------------------------------------------------------

    @property
    def last_seq(self) -> int:
        return self.log_len

    def score(self, team: str) -> float:
        hg = self.config.team(team).handicap_goals
        return hg + self.goals[0 if team == "home" else 1]

    @property
    def tied(self) -> bool:
        return leader(self.config, self.goals) is None

    @property
    def leader(self) -> str | None:
        return leader(self.config, self.goals)

    def defends(self, team: str) -> End:
        return self.home_defends if team == "home" else flip(self.home_defends)

    def defender_of(self, end: End) -> str:
        return "home" if self.home_defends == end else "away"

    @property
    def final_like(self) -> bool:
        """The final regulation period and every overtime period (14.b(2), 14.c)."""
        return self.period_kind == "overtime" or self.period >= self.config.periods

    def roster(self, team: str) -> tuple[Player, ...]:
        return self.rosters[0 if team == "home" else 1]

    def seq_of(self, event_id: str) -> int | None:
        """The sequence number of an accepted event of this game's log (None: not in it)."""
        i = self.log.index.get(event_id)
        return i + 1 if i is not None and i < self.log_len else None


def leader(config: MatchConfig, goals: tuple[int, int]) -> str | None:
    """The team ahead on handicap goals plus ``goals`` (home, away), or None when tied."""
    h = config.home.handicap_goals + goals[0]
    a = config.away.handicap_goals + goals[1]
    return None if h == a else ("home" if h > a else "away")


def new_game(config: MatchConfig, opening: Restart) -> Game:
    """The game before its first event: scheduled, ``opening`` the restart that starts it."""
    return Game(
        config=config,
        status="scheduled",
        period=1,
        period_kind="regulation",
        elapsed=0.0,
        running=False,
        anchor=None,
        goals=(0, 0),
        scored=(),
        home_defends=config.home_defends,
        restart=opening,
        taken=None,
        taken_clock=None,
        timers=(),
        excused=(),
        unavailable=(),
        rosters=(config.home.players, config.away.players),
        mounts=(),
        ridden=(),
        cards=(),
        courtesy_period=None,
        stoppage=0,
        ended_by=None,
        fresh_horn=False,
        interval_started_at=None,
        suspended_from=None,
        shootout=None,
        winner=None,
        result=None,
        forfeit=None,
        ended_at=None,
        holds=(),
        held_from=None,
        log=Log(),
        log_len=0,
        voided=frozenset(),
    )


def next_period(game: Game) -> tuple[int, str]:
    """The number and kind of the period an interval leads to."""
    nxt = game.period + 1
    return nxt, ("overtime" if nxt > game.config.periods else "regulation")
