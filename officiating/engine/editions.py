"""Rule editions: every number and table of a rulebook the engine applies, in one record.

A match config names its edition (``match.rules``, e.g. ``"USPA-2026"``); ``edition(name)`` gives
the ``Edition`` and refuses a name it does not know. The rules modules read their numbers from the
edition of the game they judge and never write one of their own, so a new rulebook that moves a
line, a spot or a time limit is a new ``Edition`` here and nothing else (a rule whose *text*
changes is code, and its scenario files say so).

The periods' lengths (``periods``, ``period_seconds``, ``extra_seconds``, ``interval_seconds``,
``halftime_seconds``) are the edition's defaults: a match config may set its own (tournament
conditions); everything else is the edition's alone.

This module imports nothing from the engine: every other module may import it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


class UnknownEdition(ValueError):
    """``match.rules`` names no edition the engine knows; the message is one line."""


@dataclass(frozen=True, slots=True, eq=False)
class Edition:
    """The numbers and tables of one rulebook. Times are seconds, distances yards. An edition is
    one object (compared and hashed by identity): configs share the registry's."""

    name: str
    title: str

    # -- Rule 14 (and 16): periods, the clock -------------------------------------------------------
    periods: int = 4  # the contract's default number of periods (tournament conditions)
    period_seconds: float = 420.0  # 14.b(1): the single horn at 7:00
    extra_seconds: float = 30.0  # 14.b(1): up to 30 s more, the double horn at 7:30
    interval_seconds: float = 180.0  # 16: between periods
    halftime_seconds: float = 300.0  # 16: at half-time
    min_clock_remaining: float = 5.0  # 14.b(2), 14.c: at least 5 s for a restart after the 7-minute horn
    # Issue 9: how far a clock stamped by an official's device may be from the official clock
    # (``log._stamp_refusal``): up to 1 s ahead, up to 60 s behind.
    clock_ahead_tolerance: float = 1.0
    clock_stamp_window: float = 60.0
    # Issue 34: the longest outage at the field whose record is taken as the field kept it: an entry
    # keyed up to 30 minutes before it reaches the server is decided at its key (``log._keyed_time``);
    # older, the officials record it at the official time now (docs/FIELD-TIME.md).
    field_window: float = 1800.0

    # -- Rule 21: stoppages and their timers ----------------------------------------------------------
    injury_seconds: float = 600.0  # 21.d: ten minutes to recover
    horse_timeout_seconds: float = 300.0  # 21.f(4): five minutes to change
    courtesy_seconds: float = 60.0  # 21.f(2): one minute
    tack_seconds: float = 300.0  # 21.g: up to five minutes to repair or change
    tack_allowance_max_handicap: float = 6  # 21.g: the allowance only in games of upper limit 6 or less
    forfeit_window_seconds: float = 24 * 3600.0  # 21.f(5): within 24 hours after the game

    # -- Rule 22: restarts -----------------------------------------------------------------------------
    knock_in_seconds: float = 10  # 22.a: hit within 10 s of "Play"
    foul_shot_seconds: float = 20  # 22.b: hit within 20 s of "Play"
    drop_count_seconds: float = 8  # 22.f, 22.h: the umpire counts 8 s and drops the ball
    drop_play_seconds: float = 5  # 22.f, 22.h: then 5 s to play it
    goal_return_seconds: float = 25  # 22.e(1): back at the centre line within 25 s of a goal
    # How close to the restart spot a ball is "still on the spot" (22.a, ``play._not_yet_taken``).
    retake_radius: float = 1.0
    # How far from the line it names a ball out may be recorded (``strict.line_refusal``): the
    # screens put it on the line; a yard is room for a hand-written log's rounding.
    line_tolerance: float = 1.0

    # -- the field: lines and distances (geometry.py reads them) ---------------------------------------
    goal_half_width: float = 4.0  # posts 8 yards apart, centred on the end line
    knock_in_clearance: float = 5.0  # 22.a: not closer than 5 yards to a side board or goal post
    knock_in_defenders_back: float = 30.0  # 22.a: defenders at least 30 yards from the end line
    sixty: float = 60.0  # the 60-yard line of 22.b, 22.f and 22.h
    side_free_hit_in: float = 5.0  # 22.f(i)-(iv): ball dropped 5 yards inside the side
    side_free_hit_in_at_sixty: float = 10.0  # 22.f(v): 10 yards inside, from the 60-yard line
    fair_play_max_from_centre: float = 40.0  # 22.h(2): no more than 40 yards from the centre of the 60
    # CHOICE: 22.e(4) lets the umpire move a throw-in "to the nearest point that allows" the teams to
    # line up. We take that to be at least 5 yards from each end line and from the side it is thrown
    # toward: the distance Rule 22 itself keeps a ball from the boards (22.a, 22.f).
    throw_in_room: float = 5.0
    # Penalty spots (the standard USPA spots; the penalty definitions are not in our rule texts).
    # Each entry: how the spot is found and the distance it uses.
    #   "goal"     -- ``distance`` yards from the fouling team's end line, opposite the centre of goal
    #   "foul"     -- the spot of the foul (Penalty 5.a; Penalty 2 when the fouled team so chooses)
    #   "centre"   -- the centre of the field (Penalty 5.b, and the one after a Penalty 1 goal)
    #   "crossing" -- ``distance`` yards from the end line the ball crossed, level with the crossing
    spots: Mapping[str, tuple[str, float]] = field(
        default_factory=lambda: MappingProxyType(
            {
                "2": ("goal", 30.0),
                "3": ("goal", 40.0),
                "4": ("goal", 60.0),
                "5a": ("foul", 0.0),
                "5b": ("centre", 0.0),
                "6": ("crossing", 60.0),
            }
        )
    )

    # -- 14.d: the shootout ----------------------------------------------------------------------------
    shootout_first_line: int = 40
    shootout_back_line: int = 60
    shootout_near_line: int = 30
    shootout_near_line_max_handicap: float = 6  # the 30-yard line only in games of upper limit 6 or less

    # What the officials' screens show or count down, for the state (``state.limits``): they read
    # these there instead of writing the numbers into the page. Derived from the fields above.
    limits: Mapping[str, float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self,
            "limits",
            MappingProxyType(
                {
                    "knock_in_seconds": self.knock_in_seconds,
                    "foul_shot_seconds": self.foul_shot_seconds,
                    "count_seconds": self.drop_count_seconds,
                    "to_play_seconds": self.drop_play_seconds,
                    "goal_return_seconds": self.goal_return_seconds,
                    "injury_seconds": self.injury_seconds,
                    "horse_timeout_seconds": self.horse_timeout_seconds,
                    "courtesy_seconds": self.courtesy_seconds,
                    "tack_seconds": self.tack_seconds,
                    "min_clock_remaining": self.min_clock_remaining,
                    "encroachment_yards": self.knock_in_defenders_back,
                    "penalty_2_yards": self.spots["2"][1],
                    "penalty_3_yards": self.spots["3"][1],
                    "penalty_4_yards": self.spots["4"][1],
                    "penalty_6_yards": self.spots["6"][1],
                }
            ),
        )


USPA_2026 = Edition("USPA-2026", "USPA Rulebook 2026")

_EDITIONS: dict[str, Edition] = {USPA_2026.name: USPA_2026}


def edition(name: str) -> Edition:
    """The edition called ``name``; ``UnknownEdition`` (one line) when there is none."""
    found = _EDITIONS.get(name)
    if found is None:
        raise UnknownEdition(f"unknown rule edition {name!r} (known: {', '.join(sorted(_EDITIONS))})")
    return found


def register(ed: Edition) -> Edition:
    """Make ``ed`` known by its name (a test edition; a new rulebook is added to ``_EDITIONS``)."""
    _EDITIONS[ed.name] = ed
    return ed


def known() -> tuple[str, ...]:
    return tuple(sorted(_EDITIONS))
