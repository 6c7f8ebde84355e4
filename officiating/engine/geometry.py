"""The field: one fixed frame and every distance the rules measure, in one table.

The frame never turns when the teams change ends (shared/spec/MATCH-LOG.md, "The field"):
``x`` runs from the north end line (``x = 0``) to the south end line (``x = length``), ``y`` from
the west side (``y = 0``) to the east side (``y = width``). All distances are yards.

A later rule edition that moves a line or a spot changes ``SPOTS`` or the constants below, and
nothing else: the rules modules ask this module for coordinates and never compute them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

End = Literal["north", "south"]
Side = Literal["west", "east"]

# -- distances the rule texts measure ---------------------------------------------------------------

GOAL_HALF_WIDTH = 4.0          # posts 8 yards apart, centred on the end line
KNOCK_IN_CLEARANCE = 5.0       # 22.a: not closer than 5 yards to a side board or goal post
KNOCK_IN_DEFENDERS_BACK = 30.0  # 22.a: defenders at least 30 yards from the end line
SIXTY = 60.0                   # the 60-yard line of 22.f and 22.h
SIDE_FREE_HIT_IN = 5.0         # 22.f(i)-(iv): ball dropped 5 yards inside the side
SIDE_FREE_HIT_IN_AT_SIXTY = 10.0  # 22.f(v): 10 yards inside, from the 60-yard line
FAIR_PLAY_MAX_FROM_CENTRE = 40.0  # 22.h(2): no more than 40 yards from the centre of the 60
# CHOICE: 22.e(4) lets the umpire move a throw-in "to the nearest point that allows" the teams to
# line up. We take that to be at least 5 yards from each end line and from the side it is thrown
# toward: the distance Rule 22 itself keeps a ball from the boards (22.a, 22.f).
THROW_IN_ROOM = 5.0

# Penalty spots (MATCH-LOG.md "The field": the standard USPA spots; the penalty definitions are not
# in our rule texts). Each entry: how the spot is found and the distance it uses.
#   "goal"     -- ``distance`` yards from the fouling team's end line, opposite the centre of goal
#   "foul"     -- the spot of the foul (Penalty 5.a; Penalty 2 when the fouled team so chooses)
#   "centre"   -- the centre of the field (Penalty 5.b, and the one after a Penalty 1 goal)
#   "crossing" -- ``distance`` yards from the end line the ball crossed, level with the crossing
SPOTS: dict[str, tuple[str, float]] = {
    "2": ("goal", 30.0),
    "3": ("goal", 40.0),
    "4": ("goal", 60.0),
    "5a": ("foul", 0.0),
    "5b": ("centre", 0.0),
    "6": ("crossing", 60.0),
}

# 14.d: the shootout lines.
SHOOTOUT_FIRST_LINE = 40
SHOOTOUT_BACK_LINE = 60
SHOOTOUT_NEAR_LINE = 30
SHOOTOUT_NEAR_LINE_MAX_HANDICAP = 6  # the 30-yard line only in games of upper limit 6 or less

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

    def inside_sixty(self, x: float) -> End | None:
        """The end whose 60-yard line ``x`` is on or inside of, or None between the two 60s."""
        if x <= SIXTY:
            return "north"
        if x >= self.length - SIXTY:
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

    # -- goal -----------------------------------------------------------------------------------

    @property
    def posts(self) -> tuple[float, float]:
        c = self.width / 2
        return (c - GOAL_HALF_WIDTH, c + GOAL_HALF_WIDTH)

    def between_posts(self, y: float) -> bool:
        west, east = self.posts
        return west < y < east

    def on_field(self, x: float, y: float) -> bool:
        return 0.0 <= x <= self.length and 0.0 <= y <= self.width


# -- restart spots ----------------------------------------------------------------------------------


def knock_in_spot(field: Field, end: End, y: float) -> Point:
    """22.a: where the ball crossed, or 5 yards from a side board or goal post (never between
    the posts)."""
    west_post, east_post = field.posts
    if field.boarded:
        # CHOICE: the 5-yard rule names side *boards*; on an open field the knock-in is taken
        # where the ball crossed, however near the side line.
        y = min(max(y, KNOCK_IN_CLEARANCE), field.width - KNOCK_IN_CLEARANCE)
    if y <= field.width / 2:
        if west_post - KNOCK_IN_CLEARANCE < y:  # closer than 5 yards to the west post
            y = west_post - KNOCK_IN_CLEARANCE
    elif y < east_post + KNOCK_IN_CLEARANCE:
        y = east_post + KNOCK_IN_CLEARANCE
    return (field.end_line_x(end), y)


def penalty_spot(field: Field, penalty: str, fouling_end: End, foul_spot: Point | None,
                 from_spot: bool = False) -> Point | None:
    """The spot of a penalty awarded against the team defending ``fouling_end`` (its end line).

    Penalty 1 has no spot (a goal is awarded); its 5.b follows from the centre.
    """
    if penalty == "1":
        return None
    how, distance = SPOTS[penalty]
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


def safety_spot(field: Field, end: End, crossed_y: float) -> Point:
    """Penalty 6: 60 yards from the end line the ball crossed, level with where it crossed."""
    return (field.from_end(end, SPOTS["6"][1]), crossed_y)


def side_free_hit_spot(field: Field, x: float, side: Side, awarded_attacks: End | None) -> tuple[Point, bool]:
    """22.f(iii)-(v): the free hit after a ball over the side. ``awarded_attacks`` is the end the
    awarded team attacks when the ball went out on or inside that end's 60-yard line, else None.
    Returns the spot and whether it is the 60-yard-line hit of 22.f(v) (10 yards in, no tapping)."""
    if awarded_attacks is not None:
        return (field.from_end(awarded_attacks, SIXTY), field.side_y(side, SIDE_FREE_HIT_IN_AT_SIXTY)), True
    return (x, field.side_y(side, SIDE_FREE_HIT_IN)), False


def possession_play_spot(field: Field, ball: Point, attacking_end: End | None) -> tuple[Point, bool]:
    """22.h(1)-(3): the possession play. ``attacking_end`` is the end the team in possession
    attacks when the ball is on or inside that end's 60-yard line, else None. Returns the spot and
    whether it is the 60-yard-line hit of 22.h(2) (no tapping)."""
    if attacking_end is None:
        return ball, False
    centre = field.width / 2
    y = min(max(ball[1], centre - FAIR_PLAY_MAX_FROM_CENTRE), centre + FAIR_PLAY_MAX_FROM_CENTRE)
    return (field.from_end(attacking_end, SIXTY), y), True


def throw_in_spot(field: Field, ball: Point) -> tuple[Point, Side]:
    """22.e(4): where the ball was dead, toward the nearer side; moved to the nearest point with
    room for the teams to line up."""
    x, y = ball
    toward = field.nearer_side(y)
    x = min(max(x, THROW_IN_ROOM), field.length - THROW_IN_ROOM)
    if toward == "west":
        y = max(y, THROW_IN_ROOM)
    else:
        y = min(y, field.width - THROW_IN_ROOM)
    return (x, y), toward
