"""The field: one fixed frame and every spot the rules measure.

The frame never turns when the teams change ends (docs/MATCH-LOG.md, "The field"):
``x`` runs from the north end line (``x = 0``) to the south end line (``x = length``), ``y`` from
the west side (``y = 0``) to the east side (``y = width``). All distances are yards.

The distances themselves (the 60-yard line, the knock-in's 5 yards, the penalty spots' table…) are
the rule edition's (``editions.Edition``): a later edition that moves a line or a spot changes its
``Edition``, and nothing else. The rules modules ask this module for coordinates and never compute
them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .editions import Edition

End = Literal["north", "south"]
Side = Literal["west", "east"]
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Field:
    """The playing field of one match (config ``match.field``)."""

    length: float = 300.0
    width: float = 160.0
    boarded: bool = False

    # -- lines ----------------------------------------------------------------------------------

    @property
    def centre(self) -> Point:
        return (self.length / 2, self.width / 2)

    def end_line_x(self, end: End) -> float:
        return 0.0 if end == "north" else self.length

    def from_end(self, end: End, distance: float) -> float:
        """The ``x`` of the line ``distance`` yards out from ``end``'s end line."""
        return distance if end == "north" else self.length - distance

    def distance_from_end(self, end: End, x: float) -> float:
        return x if end == "north" else self.length - x

    def nearer_end(self, x: float) -> End:
        return "north" if x <= self.length / 2 else "south"

    def inside(self, x: float, distance: float) -> End | None:
        """The end whose line ``distance`` yards out ``x`` is on or inside of, or None between the
        two such lines (``distance`` = the 60-yard line: 22.f, 22.h)."""
        if x <= distance:
            return "north"
        if x >= self.length - distance:
            return "south"
        return None

    # -- sides ----------------------------------------------------------------------------------

    def nearer_side(self, y: float) -> Side:
        # CHOICE: a ball dead exactly on the long axis is thrown toward the west side; the text
        # ("the nearer side boards or side lines") has no nearer side there.
        return "west" if y <= self.width / 2 else "east"

    def side_y(self, side: Side, inset: float = 0.0) -> float:
        return inset if side == "west" else self.width - inset

    def far_side(self, side: Side) -> Side:
        return "east" if side == "west" else "west"


# -- the goal -----------------------------------------------------------------------------------------


def posts(field: Field, ed: Edition) -> tuple[float, float]:
    """The ``y`` of the west and the east goal post."""
    c = field.width / 2
    return (c - ed.goal_half_width, c + ed.goal_half_width)


def between_posts(field: Field, ed: Edition, y: float) -> bool:
    west, east = posts(field, ed)
    return west < y < east


# -- restart spots ----------------------------------------------------------------------------------


def knock_in_spot(field: Field, ed: Edition, end: End, y: float) -> Point:
    """22.a: where the ball crossed, or 5 yards from a side board or goal post (never between
    the posts)."""
    west_post, east_post = posts(field, ed)
    clearance = ed.knock_in_clearance
    if field.boarded:
        # CHOICE: the 5-yard rule names side *boards*; on an open field the knock-in is taken
        # where the ball crossed, however near the side line.
        y = min(max(y, clearance), field.width - clearance)
    if y <= field.width / 2:
        # closer than 5 yards to the west post: 5 yards west of it
        y = min(y, west_post - clearance)
    elif y < east_post + clearance:
        y = east_post + clearance
    return (field.end_line_x(end), y)


def penalty_spot(
    field: Field, ed: Edition, penalty: str, fouling_end: End, foul_spot: Point | None, from_spot: bool = False
) -> Point | None:
    """The spot of a penalty awarded against the team defending ``fouling_end`` (its end line).

    Penalty 1 has no spot (a goal is awarded); its 5.b follows from the centre.
    """
    if penalty == "1":
        return None
    how, distance = ed.spots[penalty]
    if penalty == "2" and from_spot and foul_spot is not None:
        return foul_spot
    if how == "goal":
        return (field.from_end(fouling_end, distance), field.width / 2)
    if how == "foul":
        return foul_spot if foul_spot is not None else field.centre
    if how == "centre":
        return field.centre
    # "crossing": a Penalty 6 called as a foul has no crossing; level with the foul if known.
    y = foul_spot[1] if foul_spot is not None else field.width / 2
    return (field.from_end(fouling_end, distance), y)


def safety_spot(field: Field, ed: Edition, end: End, crossed_y: float) -> Point:
    """Penalty 6: 60 yards from the end line the ball crossed, level with where it crossed."""
    return (field.from_end(end, ed.spots["6"][1]), crossed_y)


def side_free_hit_spot(
    field: Field, ed: Edition, x: float, side: Side, awarded_attacks: End | None
) -> tuple[Point, bool]:
    """22.f(iii)-(v): the free hit after a ball over the side. ``awarded_attacks`` is the end the
    awarded team attacks when the ball went out on or inside that end's 60-yard line, else None.
    Returns the spot and whether it is the 60-yard-line hit of 22.f(v) (10 yards in, no tapping)."""
    if awarded_attacks is not None:
        return (field.from_end(awarded_attacks, ed.sixty), field.side_y(side, ed.side_free_hit_in_at_sixty)), True
    return (x, field.side_y(side, ed.side_free_hit_in)), False


def possession_play_spot(field: Field, ed: Edition, ball: Point, attacking_end: End | None) -> tuple[Point, bool]:
    """22.h(1)-(3): the possession play. ``attacking_end`` is the end the team in possession
    attacks when the ball is on or inside that end's 60-yard line, else None. Returns the spot and
    whether it is the 60-yard-line hit of 22.h(2) (no tapping)."""
    if attacking_end is None:
        return ball, False
    centre = field.width / 2
    reach = ed.fair_play_max_from_centre
    y = min(max(ball[1], centre - reach), centre + reach)
    return (field.from_end(attacking_end, ed.sixty), y), True


def throw_in_spot(field: Field, ed: Edition, ball: Point) -> tuple[Point, Side]:
    """22.e(4): where the ball was dead, toward the nearer side; moved to the nearest point with
    room for the teams to line up."""
    x, y = ball
    room = ed.throw_in_room
    toward = field.nearer_side(y)
    x = min(max(x, room), field.length - room)
    y = max(y, room) if toward == "west" else min(y, field.width - room)
    return (x, y), toward
