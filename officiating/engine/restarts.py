"""Rule 22 (and 21.a, 14.b(2)): how play resumes, as ``Restart`` records.

Each builder returns the restart an umpire would announce; spots come from ``geometry``.
Timings: a knock-in within 10 s of "Play" (22.a), a foul shot within 20 s (22.b), and a free hit
after a ball over the side or a possession play: the umpire counts 8 s, then 5 s to play the ball
(22.f, 22.h).

CHOICE: ``tap_allowed`` is true or false only where Rule 22 speaks of tapping (22.f, 22.h); for
throw-ins, knock-ins and penalties it is null.
"""

from __future__ import annotations

from . import geometry as geo
from . import messages as m
from .geometry import Field, Point
from .state import Restart, evolve

_TEMPLATE = Restart("throw_in", None, "", "")


def _r(kind: str, team: str | None, rule: str, msgid: str, **fields: object) -> Restart:
    """A Restart, copied from a template (cheaper than the frozen dataclass's __init__)."""
    return evolve(_TEMPLATE, kind=kind, team=team, rule=rule, msgid=msgid, **fields)

KNOCK_IN_SECONDS = 10
FOUL_SHOT_SECONDS = 20
DROP_COUNT_SECONDS = 8
DROP_PLAY_SECONDS = 5
MIN_CLOCK_REMAINING = 5.0  # 14.b(2), 14.c


def opening(field: Field) -> Restart:
    # CHOICE: the first throw-in of a match is Rule 20's (not among our texts): at the centre,
    # cited as "20".
    return _r("throw_in", None, "20", m.R_OPENING, spot=field.centre)


def centre_throw_in(field: Field) -> Restart:
    """A period that ended with the ball in play, where the ball was is not known (22.g)."""
    return _r("throw_in", None, "22.g", m.R_PERIOD_CENTRE, spot=field.centre)


def after_goal(field: Field) -> Restart:
    """22.e(1): the umpire throws the ball in at the centre with the ends changed."""
    return _r("throw_in", None, "22.e(1)", m.R_AFTER_GOAL, spot=field.centre)


def throw_in(field: Field, ball: Point | None, rule: str = "22.e(4)") -> Restart:
    """22.e(4) (and 21.j): from where the ball was dead toward the nearer side."""
    if ball is None:
        # CHOICE: a whistle that does not say where the ball was: thrown in at the centre.
        return _r("throw_in", None, rule, m.R_PERIOD_CENTRE, spot=field.centre)
    spot, toward = geo.throw_in_spot(field, ball)
    return _r("throw_in", None, rule, m.R_THROW_IN_WEST if toward == "west" else m.R_THROW_IN_EAST,
                   spot=spot, toward=toward)


def suspended_throw_in(field: Field, ball: Point | None) -> Restart:
    """22.j: a game suspended with the ball in play resumes where the ball was."""
    if ball is None:
        return _r("throw_in", None, "22.j", m.R_SUSPENDED_CENTRE, spot=field.centre)
    spot, toward = geo.throw_in_spot(field, ball)
    return _r("throw_in", None, "22.j", m.R_SUSPENDED_WEST if toward == "west" else m.R_SUSPENDED_EAST,
                   spot=spot, toward=toward)


def knock_in(field: Field, end: str, crossed_y: float, team: str) -> Restart:
    """22.a: the team whose end line was crossed hits in, within 10 s of "Play"."""
    spot = geo.knock_in_spot(field, end, crossed_y)  # type: ignore[arg-type]
    msgid = m.R_KNOCK_IN if spot[1] == crossed_y else m.R_KNOCK_IN_MOVED
    return _r("knock_in", team, "22.a", msgid, spot=spot, hit_within_seconds=KNOCK_IN_SECONDS)


def safety(field: Field, end: str, crossed_y: float, team: str) -> Restart:
    """21.a: a safety is a Penalty 6 to the other team, taken as a foul shot (22.b)."""
    return _r("penalty", team, "21.a", m.R_SAFETY, penalty="6",
                   spot=geo.safety_spot(field, end, crossed_y),  # type: ignore[arg-type]
                   hit_within_seconds=FOUL_SHOT_SECONDS)


def penalty(field: Field, pen: str, team: str, fouling_end: str, foul_spot: Point | None,
            from_spot: bool = False, rule: str = "22.b") -> Restart:
    """A foul shot to ``team`` against the team defending ``fouling_end`` (22.b: within 20 s)."""
    spot = geo.penalty_spot(field, pen, fouling_end, foul_spot, from_spot)  # type: ignore[arg-type]
    return _r("penalty", team, rule, m.R_PENALTY, penalty=pen, spot=spot,
                   hit_within_seconds=FOUL_SHOT_SECONDS)


def after_penalty_1(field: Field, team: str) -> Restart:
    """14.b(2): after the Penalty 1 goal, a Penalty 5.b to the fouled team, ends changed."""
    return _r("penalty", team, "14.b(2)", m.R_PENALTY_1, penalty="5b", spot=field.centre,
                   hit_within_seconds=FOUL_SHOT_SECONDS)


def side_free_hit(field: Field, x: float, side: str, team: str, attacks_end: str | None, clause: str) -> Restart:
    """22.f(i)-(v): ``attacks_end`` is the end ``team`` attacks when the ball went out on or
    inside that end's 60-yard line (22.f(v): from the 60, 10 yards in, no tapping)."""
    spot, sixty = geo.side_free_hit_spot(field, x, side, attacks_end)  # type: ignore[arg-type]
    return _r("free_hit", team, "22.f", m.R_FREE_HIT_SIXTY if sixty else m.R_FREE_HIT, spot=spot,
                   count_seconds=DROP_COUNT_SECONDS, hit_within_seconds=DROP_PLAY_SECONDS,
                   tap_allowed=not sixty, clause=clause)


def side_throw_in(field: Field, x: float, side: str) -> Restart:
    """22.f(vi): off an umpire, or cause unknown: thrown in from the side, level with where the
    ball went out. CHOICE: ``toward`` is the far side, the ball being thrown into the field."""
    return _r("throw_in", None, "22.f", m.R_SIDE_THROW_IN, spot=(x, field.side_y(side)),  # type: ignore[arg-type]
                   toward=field.far_side(side), clause="22.f(vi)")  # type: ignore[arg-type]


def possession_play(field: Field, ball: Point, team: str, attacks_end: str | None, clause: str) -> Restart:
    """22.h: the team in possession keeps it; ``attacks_end`` as for ``side_free_hit``."""
    spot, sixty = geo.possession_play_spot(field, ball, attacks_end)  # type: ignore[arg-type]
    return _r("possession_play", team, "22.h", m.R_POSSESSION_SIXTY if sixty else m.R_POSSESSION,
                   spot=spot, count_seconds=DROP_COUNT_SECONDS, hit_within_seconds=DROP_PLAY_SECONDS,
                   tap_allowed=not sixty, clause=clause)
