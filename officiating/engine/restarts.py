"""Rule 22 (and 21.a, 14.b(2)): how play resumes, as ``Restart`` records.

Each builder returns the restart an umpire would announce; spots come from ``geometry``, times
from the rule edition: a knock-in within 10 s of "Play" (22.a), a foul shot within 20 s (22.b),
and a free hit after a ball over the side or a possession play: the umpire counts 8 s, then 5 s
to play the ball (22.f, 22.h).

CHOICE: ``tap_allowed`` is true or false only where Rule 22 speaks of tapping (22.f, 22.h); for
throw-ins, knock-ins and penalties it is null.
"""

from __future__ import annotations

from . import geometry as geo, messages as m
from .config import MatchConfig
from .geometry import End, Point, Side
from .state import Restart, evolve

_TEMPLATE = Restart("throw_in", None, "", "")


def _r(kind: str, team: str | None, rule: str, msgid: str, **fields: object) -> Restart:
    """A Restart, copied from a template (cheaper than the frozen dataclass's __init__)."""
    return evolve(_TEMPLATE, kind=kind, team=team, rule=rule, msgid=msgid, **fields)


def opening(cfg: MatchConfig) -> Restart:
    # CHOICE: the first throw-in of a match is Rule 20's (not among our texts): at the centre,
    # cited as "20".
    return _r("throw_in", None, "20", m.R_OPENING, spot=cfg.field.centre)


def centre_throw_in(cfg: MatchConfig) -> Restart:
    """A period that ended with the ball in play, where the ball was is not known (22.g)."""
    return _r("throw_in", None, "22.g", m.R_PERIOD_CENTRE, spot=cfg.field.centre)


def after_goal(cfg: MatchConfig) -> Restart:
    """22.e(1): the umpire throws the ball in at the centre with the ends changed."""
    return _r("throw_in", None, "22.e(1)", m.R_AFTER_GOAL, spot=cfg.field.centre)


def throw_in(cfg: MatchConfig, ball: Point | None, rule: str = "22.e(4)") -> Restart:
    """22.e(4) (and 21.j): from where the ball was dead toward the nearer side."""
    if ball is None:
        # CHOICE: a whistle that does not say where the ball was: thrown in at the centre.
        return _r("throw_in", None, rule, m.R_PERIOD_CENTRE, spot=cfg.field.centre)
    spot, toward = geo.throw_in_spot(cfg.field, cfg.edition, ball)
    return _r(
        "throw_in", None, rule, m.R_THROW_IN_WEST if toward == "west" else m.R_THROW_IN_EAST, spot=spot, toward=toward
    )


def suspended_throw_in(cfg: MatchConfig, ball: Point | None) -> Restart:
    """22.j: a game suspended with the ball in play resumes where the ball was."""
    if ball is None:
        return _r("throw_in", None, "22.j", m.R_SUSPENDED_CENTRE, spot=cfg.field.centre)
    spot, toward = geo.throw_in_spot(cfg.field, cfg.edition, ball)
    return _r(
        "throw_in",
        None,
        "22.j",
        m.R_SUSPENDED_WEST if toward == "west" else m.R_SUSPENDED_EAST,
        spot=spot,
        toward=toward,
    )


def knock_in(cfg: MatchConfig, end: End, crossed_y: float, team: str) -> Restart:
    """22.a: the team whose end line was crossed hits in, within 10 s of "Play"."""
    spot = geo.knock_in_spot(cfg.field, cfg.edition, end, crossed_y)
    msgid = m.R_KNOCK_IN if spot[1] == crossed_y else m.R_KNOCK_IN_MOVED
    return _r("knock_in", team, "22.a", msgid, spot=spot, hit_within_seconds=cfg.edition.knock_in_seconds)


def safety(cfg: MatchConfig, end: End, crossed_y: float, team: str) -> Restart:
    """21.a: a safety is a Penalty 6 to the other team, taken as a foul shot (22.b)."""
    return _r(
        "penalty",
        team,
        "21.a",
        m.R_SAFETY,
        penalty="6",
        spot=geo.safety_spot(cfg.field, cfg.edition, end, crossed_y),
        hit_within_seconds=cfg.edition.foul_shot_seconds,
    )


def penalty(
    cfg: MatchConfig,
    pen: str,
    team: str,
    fouling_end: End,
    foul_spot: Point | None,
    from_spot: bool = False,
    rule: str = "22.b",
) -> Restart:
    """A foul shot to ``team`` against the team defending ``fouling_end`` (22.b: within 20 s)."""
    spot = geo.penalty_spot(cfg.field, cfg.edition, pen, fouling_end, foul_spot, from_spot)
    return _r(
        "penalty", team, rule, m.R_PENALTY, penalty=pen, spot=spot, hit_within_seconds=cfg.edition.foul_shot_seconds
    )


def after_penalty_1(cfg: MatchConfig, team: str) -> Restart:
    """14.b(2): after the Penalty 1 goal, a Penalty 5.b to the fouled team, ends changed."""
    return _r(
        "penalty",
        team,
        "14.b(2)",
        m.R_PENALTY_1,
        penalty="5b",
        spot=cfg.field.centre,
        hit_within_seconds=cfg.edition.foul_shot_seconds,
    )


def side_free_hit(cfg: MatchConfig, x: float, side: Side, team: str, attacks_end: End | None, clause: str) -> Restart:
    """22.f(i)-(v): ``attacks_end`` is the end ``team`` attacks when the ball went out on or
    inside that end's 60-yard line (22.f(v): from the 60, 10 yards in, no tapping)."""
    ed = cfg.edition
    spot, sixty = geo.side_free_hit_spot(cfg.field, ed, x, side, attacks_end)
    return _r(
        "free_hit",
        team,
        "22.f",
        m.R_FREE_HIT_SIXTY if sixty else m.R_FREE_HIT,
        spot=spot,
        count_seconds=ed.drop_count_seconds,
        hit_within_seconds=ed.drop_play_seconds,
        tap_allowed=not sixty,
        clause=clause,
    )


def side_throw_in(cfg: MatchConfig, x: float, side: Side) -> Restart:
    """22.f(vi): off an umpire, or cause unknown: thrown in from the side, level with where the
    ball went out. CHOICE: ``toward`` is the far side, the ball being thrown into the field."""
    field = cfg.field
    return _r(
        "throw_in",
        None,
        "22.f",
        m.R_SIDE_THROW_IN,
        spot=(x, field.side_y(side)),
        toward=field.far_side(side),
        clause="22.f(vi)",
    )


def possession_play(cfg: MatchConfig, ball: Point, team: str, attacks_end: End | None, clause: str) -> Restart:
    """22.h: the team in possession keeps it; ``attacks_end`` as for ``side_free_hit``."""
    ed = cfg.edition
    spot, sixty = geo.possession_play_spot(cfg.field, ed, ball, attacks_end)
    return _r(
        "possession_play",
        team,
        "22.h",
        m.R_POSSESSION_SIXTY if sixty else m.R_POSSESSION,
        spot=spot,
        count_seconds=ed.drop_count_seconds,
        hit_within_seconds=ed.drop_play_seconds,
        tap_allowed=not sixty,
        clause=clause,
    )
