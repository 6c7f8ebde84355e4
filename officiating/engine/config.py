"""The match config: the ``match`` object of a match log, validated once into frozen records.

``match.rules`` names the rule edition (``editions.py``); the periods' lengths a config leaves
out are that edition's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field as dataclass_field
from typing import Any, TypeGuard

from .editions import Edition, UnknownEdition, edition
from .geometry import End, Field

TEAMS = ("home", "away")
ENDS = ("north", "south")

# The bounds of a config (issue 11). Wider than any tournament's conditions, they make a number
# outside them a mistake, refused with one line, rather than a game the engine cannot represent
# (a clock of 1e308 seconds prints as Infinity, which is not JSON; a 400-digit integer is no float).
# The committee's forms check the same bounds (``matches/committee/forms.py``).
MAX_PERIODS = 12
MAX_PERIOD_SECONDS = 3600.0  # an hour
MAX_EXTRA_SECONDS = 300.0  # five minutes (the rules give up to 30 s)
MAX_BREAK_SECONDS = 3600.0  # an interval, half-time
MAX_HANDICAP_GOALS = 40.0  # four 10-goal players against a 0-goal team
HANDICAP_LIMIT_RANGE = (0.0, 40.0)  # a team's handicap limit: four players of at most 10
PLAYER_HANDICAP_RANGE = (-2.0, 10.0)
MAX_FIELD_LENGTH = 400.0  # yards (the rules' largest field is 300 by 200)
MAX_FIELD_WIDTH = 300.0


class ConfigError(ValueError):
    """The ``match`` object is not valid; the message is one line."""


@dataclass(frozen=True, slots=True)
class Player:
    number: int
    name: str | None = None
    handicap: float | None = None


@dataclass(frozen=True, slots=True)
class TeamConfig:
    name: str
    color: str | None
    handicap_goals: float
    players: tuple[Player, ...]

    def player(self, number: int) -> Player | None:
        for p in self.players:
            if p.number == number:
                return p
        return None


@dataclass(frozen=True, slots=True)
class MatchConfig:
    home: TeamConfig
    away: TeamConfig
    edition: Edition  # chosen by ``match.rules``: every number of the rulebook
    periods: int
    period_seconds: float
    extra_seconds: float
    interval_seconds: float
    halftime_seconds: float
    upper_handicap_limit: float = 8
    courtesy_change: bool = False
    tack_allowance: bool = False
    field: Field = dataclass_field(default_factory=Field)
    home_defends: End = "north"
    # The double horn: regular time plus the extra portion (14.b(1)). Derived; kept as a field
    # because every event reads it.
    period_end: float = dataclass_field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "period_end", self.period_seconds + self.extra_seconds)

    @property
    def rules(self) -> str:
        """The edition's name, as the log gives it (``match.rules``)."""
        return self.edition.name

    def team(self, team: str) -> TeamConfig:
        return self.home if team == "home" else self.away

    @property
    def halftime_after(self) -> int:
        return self.periods // 2

    @classmethod
    def from_dict(cls, d: Any) -> MatchConfig:
        """Validate the ``match`` object of a log. Raises ConfigError (one line) when invalid,
        an unknown rule edition included."""
        if not isinstance(d, dict):
            raise ConfigError("match must be an object")
        rules = d.get("rules", "USPA-2026")
        if not isinstance(rules, str):
            raise ConfigError("match.rules must be a string")
        try:
            ed = edition(rules)
        except UnknownEdition as e:
            raise ConfigError(f"match.rules: {e}") from None
        f = d.get("field", {})
        if not isinstance(f, dict):
            raise ConfigError("match.field must be an object")
        length = _num(f, "length", 300.0, "match.field", high=MAX_FIELD_LENGTH)
        width = _num(f, "width", 160.0, "match.field", high=MAX_FIELD_WIDTH)
        min_length, min_width = field_minimum(ed)
        if length <= min_length or width <= min_width:
            raise ConfigError(
                f"match.field is too small for the lines of Rules 22 (length > {min_length:g}, width > {min_width:g})"
            )
        field = Field(length=length, width=width, boarded=_bool(f, "boarded", False, "match.field"))
        periods = d.get("periods", ed.periods)
        if not _is_int(periods) or not 1 <= periods <= MAX_PERIODS:
            raise ConfigError(f"match.periods must be an integer from 1 to {MAX_PERIODS}")
        period_seconds = d.get("period_seconds", ed.period_seconds)
        if not _is_num(period_seconds) or not ed.min_clock_remaining < period_seconds <= MAX_PERIOD_SECONDS:
            raise ConfigError(
                f"match.period_seconds must be a number more than {ed.min_clock_remaining:g}"
                f" and at most {MAX_PERIOD_SECONDS:g}"
            )
        home_defends = d.get("home_defends", "north")
        if home_defends not in ENDS:
            raise ConfigError("match.home_defends must be 'north' or 'south'")
        low, high = HANDICAP_LIMIT_RANGE
        upper_handicap_limit = _num(d, "upper_handicap_limit", 8, "match", low=low, high=high)
        tack_allowance = _bool(d, "tack_allowance", False, "match")
        if tack_allowance and upper_handicap_limit > ed.tack_allowance_max_handicap:
            raise ConfigError(
                "match.tack_allowance: Rule 21.g gives the tack allowance only in games of upper handicap limit"
                f" {ed.tack_allowance_max_handicap:g} or less (match.upper_handicap_limit is {upper_handicap_limit:g})"
            )
        return cls(
            home=_team(d.get("home"), "home"),
            away=_team(d.get("away"), "away"),
            edition=ed,
            periods=periods,
            period_seconds=period_seconds,
            extra_seconds=_num(d, "extra_seconds", ed.extra_seconds, "match", high=MAX_EXTRA_SECONDS),
            interval_seconds=_num(d, "interval_seconds", ed.interval_seconds, "match", high=MAX_BREAK_SECONDS),
            halftime_seconds=_num(d, "halftime_seconds", ed.halftime_seconds, "match", high=MAX_BREAK_SECONDS),
            upper_handicap_limit=upper_handicap_limit,
            courtesy_change=_bool(d, "courtesy_change", False, "match"),
            tack_allowance=tack_allowance,
            field=field,
            home_defends="north" if home_defends == "north" else "south",
        )


def field_minimum(ed: Edition) -> tuple[float, float]:
    """The length and the width a field must exceed under edition ``ed``: the rules need two
    60-yard lines and room for the free hit from them; anything smaller is not a polo field."""
    return 2 * ed.sixty, 2 * ed.side_free_hit_in_at_sixty


def _is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> TypeGuard[float]:
    # (An int is always finite, and may be too large for ``math.isfinite``.)
    return isinstance(v, (int, float)) and not isinstance(v, bool) and (isinstance(v, int) or math.isfinite(v))


def _num(d: dict[str, Any], key: str, default: float, where: str, *, low: float = 0.0, high: float) -> float:
    """A finite number from ``low`` to ``high`` (compared before any arithmetic: an integer too
    large for a float is refused, never converted)."""
    v = d.get(key, default)
    if not _is_num(v) or not low <= v <= high:
        raise ConfigError(f"{where}.{key} must be a number from {low:g} to {high:g}")
    number: float = v  # as given: an int stays an int (the state shows it as it was written)
    return number


def _bool(d: dict[str, Any], key: str, default: bool, where: str) -> bool:
    v = d.get(key, default)
    if not isinstance(v, bool):
        raise ConfigError(f"{where}.{key} must be true or false")
    return v


def _team(d: Any, key: str) -> TeamConfig:
    where = f"match.{key}"
    if not isinstance(d, dict):
        raise ConfigError(f"{where} is required and must be an object")
    name = d.get("name", key.capitalize())
    if not isinstance(name, str) or not name:
        raise ConfigError(f"{where}.name must be a non-empty string")
    color = d.get("color")
    if color is not None and not isinstance(color, str):
        raise ConfigError(f"{where}.color must be a string")
    hg = d.get("handicap_goals", 0)
    if not _is_num(hg) or not 0 <= hg <= MAX_HANDICAP_GOALS or (hg * 2) != int(hg * 2):
        raise ConfigError(f"{where}.handicap_goals must be a multiple of 0.5 from 0 to {MAX_HANDICAP_GOALS:g}")
    raw = d.get("players")
    if raw is None:
        # CHOICE: a log may leave the roster out (scenario files, quick replays); numbers 1-4 are
        # then the four players, unnamed.
        players = tuple(Player(n) for n in range(1, 5))
    else:
        if not isinstance(raw, list) or not 1 <= len(raw) <= 4:
            raise ConfigError(f"{where}.players must be a list of 1 to 4 players")
        seen: set[int] = set()
        plist = []
        for i, p in enumerate(raw):
            if not isinstance(p, dict):
                raise ConfigError(f"{where}.players[{i}] must be an object")
            n = p.get("number")
            if not _is_int(n) or not 1 <= n <= 4 or n in seen:
                raise ConfigError(f"{where}.players[{i}].number must be a distinct integer 1-4")
            seen.add(n)
            pname = p.get("name")
            if pname is not None and not isinstance(pname, str):
                raise ConfigError(f"{where}.players[{i}].name must be a string")
            hc = p.get("handicap")
            low, high = PLAYER_HANDICAP_RANGE
            if hc is not None and (not _is_num(hc) or not low <= hc <= high):
                raise ConfigError(f"{where}.players[{i}].handicap must be a number from {low:g} to {high:g}")
            plist.append(Player(n, pname, hc))
        players = tuple(sorted(plist, key=lambda p: p.number))
    return TeamConfig(name=name, color=color, handicap_goals=hg, players=players)
