"""Where play resumes: the spots of Rule 22 (and 21.a, 14.b(2)), through the engine's public API.

Each test builds a match log, replays it with ``officiating.engine.replay`` and reads the state's
``restart``. The expected values come from the rule texts (USPA Rulebook 2026, the English
prevails; clause by clause in docs/rules-model.md) and the standard penalty spots of
docs/MATCH-LOG.md; every table row cites its clause.

Geometry (MATCH-LOG.md, "The field"): ``x`` runs from the north end line (0) to the south end
line (``length``), ``y`` from the west side (0) to the east side (``width``); posts at
``width/2 ± 4``. The tables speak of an end ``E`` (north or south) and of distances ``d`` from its
end line, and of the *defender* of ``E`` (the team defending that end) and the *attacker* (the
other team). Each row runs at both ends and with the teams either way round: home defends north,
home defends south, and each of those after ends changed on a goal (Rule 22.e(1)).
"""

from __future__ import annotations

import itertools
import uuid
from dataclasses import dataclass
from typing import Any

import pytest

from officiating.engine import replay

L, W = 300.0, 160.0  # the default field (MATCH-LOG.md)
CENTRE_Y = W / 2
ENDS = ("north", "south")
_NS = uuid.UUID("6f1d6a52-5b1e-4c36-9a8e-2a0c1c6f3b10")
_counter = itertools.count(1)


def new_id() -> str:
    return str(uuid.uuid5(_NS, str(next(_counter))))


def other(team: str) -> str:
    return "away" if team == "home" else "home"


def flip(end: str) -> str:
    return "south" if end == "north" else "north"


def x_at(end: str, d: float, length: float = L) -> float:
    """The x of a point ``d`` yards from the end line of ``end``."""
    return d if end == "north" else length - d


def pos(end: str, d: float, y: float, length: float = L) -> dict[str, float]:
    return {"x": x_at(end, d, length), "y": y}


def ev(event_type: str, **fields: Any) -> dict[str, Any]:
    return {"type": event_type, "id": new_id(), **fields}


def side_y(side: str, inset: float, width: float = W) -> float:
    """The y ``inset`` yards inside the ``side`` (west/east) side line or boards."""
    return inset if side == "west" else width - inset


def players(name: str) -> list[dict[str, Any]]:
    return [{"number": n, "name": f"{name} {n}", "handicap": 2} for n in range(1, 5)]


def match_log(
    events: list[dict[str, Any]],
    *,
    home_defends: str = "north",
    boarded: bool = False,
    length: float = L,
    width: float = W,
    periods: int = 4,
) -> dict[str, Any]:
    return {
        "format": "polo-match-log/1",
        "match": {
            "rules": "USPA-2026",
            "periods": periods,
            "field": {"length": length, "width": width, "boarded": boarded},
            "home_defends": home_defends,
            "home": {"name": "Blue", "color": "#1d4ed8", "handicap_goals": 0, "players": players("Blue")},
            "away": {"name": "Red", "color": "#dc2626", "handicap_goals": 0, "players": players("Red")},
        },
        "events": events,
    }


def run(events: list[dict[str, Any]], **config: Any) -> dict[str, Any]:
    """Replay; every event must be accepted; return the final state."""
    out = replay(match_log(events, **config))
    rejected = [(r, e) for r, e in zip(out["results"], events, strict=True) if not r["accepted"]]
    assert not rejected, f"events rejected: {rejected}"
    return out["state"]


@dataclass(frozen=True)
class Orientation:
    """Which end each team defends when the events under test begin."""

    home_defends: str  # in the match config, at the first throw-in
    after_goal: bool  # a home goal has changed ends first (Rule 22.e(1))

    @property
    def name(self) -> str:
        return f"home-defends-{self.home_defends}" + ("-then-a-goal" if self.after_goal else "")

    def prefix(self) -> list[dict[str, Any]]:
        """The throw-in that starts the match, and perhaps a goal and the throw-in after it."""
        events = [ev("play")]
        if self.after_goal:
            events += [ev("goal", team="home", number=1, clock=10.0), ev("play")]
        return events

    def end_of(self, team: str) -> str:
        home_end = flip(self.home_defends) if self.after_goal else self.home_defends
        return home_end if team == "home" else flip(home_end)

    def defender(self, end: str) -> str:
        return "home" if self.end_of("home") == end else "away"

    def attacker(self, end: str) -> str:
        return other(self.defender(end))

    def team(self, role: str, end: str) -> str:
        return self.defender(end) if role == "defender" else self.attacker(end)

    def score_before(self) -> dict[str, int]:
        return {"home": 1 if self.after_goal else 0, "away": 0}


ORIENTATIONS = [Orientation(h, g) for g in (False, True) for h in ENDS]
CASES = [(o, end) for o in ORIENTATIONS for end in ENDS]
CASE_IDS = [f"{o.name}-at-{end}" for o, end in CASES]


def approx_spot(spot: dict[str, float] | None) -> Any:
    return None if spot is None else {"x": pytest.approx(spot["x"]), "y": pytest.approx(spot["y"])}


def assert_restart(state: dict[str, Any], **expected: Any) -> None:
    restart = state["restart"]
    assert restart is not None, f"no restart in {state}"
    got = {k: restart.get(k) for k in expected}
    if "spot" in expected:
        expected = {**expected, "spot": approx_spot(expected["spot"])}
    assert got == expected, f"restart was {restart}"


@pytest.mark.parametrize("orientation", ORIENTATIONS, ids=[o.name for o in ORIENTATIONS])
def test_the_orientation_helpers_agree_with_the_engine(orientation):
    """Sanity: ends change after a goal (22.e(1)), so the helpers above describe the same field."""
    state = run(orientation.prefix(), home_defends=orientation.home_defends)
    assert state["defends"] == {"home": orientation.end_of("home"), "away": orientation.end_of("away")}
    assert state["score"] == orientation.score_before()


# -- 22.a: knock-in, and the 5-yard rule near the boards and the posts ------------------------------

KNOCK_IN = [
    # (boarded, y where the ball crossed the end line, y of the knock-in, clause)
    (False, 40.0, 40.0, "22.a: within one foot of where the ball crossed"),
    (False, 120.0, 120.0, "22.a: within one foot of where the ball crossed"),
    (False, 66.0, 66.0, "22.a: 10 yd from the west post, no adjustment"),
    (False, 73.0, 71.0, "22.a: closer than 5 yd to the west post: 5 yd from it, not between the posts"),
    (False, 75.9, 71.0, "22.a: closer than 5 yd to the west post"),
    (False, 71.0, 71.0, "22.a: exactly 5 yd from the west post is not closer than 5 yd"),
    (False, 70.5, 70.5, "22.a: more than 5 yd from the west post"),
    (False, 86.0, 89.0, "22.a: closer than 5 yd to the east post: 5 yd from it, not between the posts"),
    (False, 84.2, 89.0, "22.a: closer than 5 yd to the east post"),
    (False, 89.0, 89.0, "22.a: exactly 5 yd from the east post"),
    (False, 95.0, 95.0, "22.a: more than 5 yd from the east post"),
    (True, 3.0, 5.0, "22.a: closer than 5 yd to the west side board: 5 yd from it"),
    (True, 0.5, 5.0, "22.a: closer than 5 yd to the west side board"),
    (True, 5.0, 5.0, "22.a: exactly 5 yd from the west side board"),
    (True, 12.0, 12.0, "22.a: clear of the west side board"),
    (True, 157.0, 155.0, "22.a: closer than 5 yd to the east side board: 5 yd from it"),
    (True, 159.9, 155.0, "22.a: closer than 5 yd to the east side board"),
    (True, 155.0, 155.0, "22.a: exactly 5 yd from the east side board"),
    (True, 74.0, 71.0, "22.a: the posts count on a boarded field too"),
]


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
@pytest.mark.parametrize(
    "boarded, crossed_y, knock_in_y, clause",
    KNOCK_IN,
    ids=[f"{'boards' if r[0] else 'open'}-y{r[1]}" for r in KNOCK_IN],
)
def test_the_team_whose_end_line_is_crossed_knocks_in_from_where_it_crossed_or_5_yards_from_a_board_or_post(
    orientation, end, boarded, crossed_y, knock_in_y, clause
):
    events = [
        *orientation.prefix(),
        ev(
            "ball_out",
            line="end",
            at={"x": x_at(end, 0.0), "y": crossed_y},
            last_hit_by=orientation.attacker(end),
            deflected_off="none",
            clock=30.0,
        ),
    ]
    state = run(events, home_defends=orientation.home_defends, boarded=boarded)
    assert_restart(
        state,
        kind="knock_in",
        team=orientation.defender(end),
        penalty=None,
        spot={"x": x_at(end, 0.0), "y": knock_in_y},
    )
    assert state["restart"]["rule"].startswith("22.a"), clause


NOT_A_SAFETY = [
    # (who hit it last, what it glanced off, clause)
    ("attacker", "none", "22.a: the attackers hit it over: knock-in"),
    ("attacker", "opponent", "22.a: off a defender, still a knock-in"),
    ("defender", "teammate", "21.a: off another player (a teammate) before crossing: no safety, knock-in"),
    ("defender", "opponent", "21.a: off another player or mount before crossing: no safety, knock-in"),
    ("defender", "opponent_mallet", "21.a: off an opposing player's mallet: no safety, knock-in"),
]


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("hit_by, deflected, clause", NOT_A_SAFETY, ids=[f"{r[0]}-{r[1]}" for r in NOT_A_SAFETY])
def test_a_ball_over_the_end_line_that_is_not_a_safety_is_a_knock_in(orientation, end, hit_by, deflected, clause):
    events = [
        *orientation.prefix(),
        ev(
            "ball_out",
            line="end",
            at={"x": x_at(end, 0.0), "y": 30.0},
            last_hit_by=orientation.team(hit_by, end),
            deflected_off=deflected,
            clock=30.0,
        ),
    ]
    state = run(events, home_defends=orientation.home_defends)
    assert_restart(state, kind="knock_in", team=orientation.defender(end), spot={"x": x_at(end, 0.0), "y": 30.0})


# -- 21.a and Penalty 6: the safety ---------------------------------------------------------------

SAFETY = [
    # (what it glanced off, boarded, y where it crossed, clause)
    ("none", False, 40.0, "21.a: directly over one's own end line; P6 60 yd out, level with the crossing"),
    ("own_mount", False, 130.0, "21.a: off one's own mount"),
    ("goal_post", False, 74.0, "21.a: off a goal post; P6 level with the crossing (the 5-yd rule is 22.a's)"),
    ("boards", True, 3.0, "21.a: off the side boards; level with the crossing"),
]


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("deflected, boarded, crossed_y, clause", SAFETY, ids=[r[0] for r in SAFETY])
def test_a_defender_hitting_over_his_own_end_line_gives_a_penalty_6_sixty_yards_out_level_with_the_crossing(
    orientation, end, deflected, boarded, crossed_y, clause
):
    events = [
        *orientation.prefix(),
        ev(
            "ball_out",
            line="end",
            at={"x": x_at(end, 0.0), "y": crossed_y},
            last_hit_by=orientation.defender(end),
            deflected_off=deflected,
            clock=30.0,
        ),
    ]
    state = run(events, home_defends=orientation.home_defends, boarded=boarded)
    assert_restart(state, kind="penalty", team=orientation.attacker(end), penalty="6", spot=pos(end, 60.0, crossed_y))


# -- 22.f: ball over the side boards or side line ------------------------------------------------

SIDE = [
    # (d from the end line of E where it went out, side, who hit it last, glanced off,
    #  team awarded, d of the free hit, yards in, tapping allowed, clause)
    (150.0, "west", "attacker", "none", "defender", 150.0, 5.0, True, "22.f(i)+(iii): at the centre line"),
    (100.0, "east", "defender", "own_mount", "attacker", 100.0, 5.0, True, "22.f(i)+(iii)"),
    (61.0, "west", "attacker", "teammate", "defender", 61.0, 5.0, True, "22.f(i)+(iii): just outside the 60"),
    (61.0, "east", "defender", "none", "attacker", 61.0, 5.0, True, "22.f(i)+(iii): just outside the 60"),
    (60.0, "west", "defender", "none", "attacker", 60.0, 10.0, False, "22.f(i)+(v): on the 60-yard line"),
    (30.0, "east", "defender", "boards", "attacker", 60.0, 10.0, False, "22.f(i)+(v): off the boards"),
    (2.0, "west", "defender", "teammate", "attacker", 60.0, 10.0, False, "22.f(i)+(v): deep in the corner"),
    (30.0, "west", "attacker", "none", "defender", 30.0, 5.0, True, "22.f(i)+(iv)"),
    (60.0, "east", "attacker", "own_mount", "defender", 60.0, 5.0, True, "22.f(i)+(iv): on the 60-yard line"),
    (2.0, "east", "attacker", "boards", "defender", 2.0, 5.0, True, "22.f(i)+(iv): deep in the corner"),
    (45.0, "west", "defender", "opponent", "defender", 45.0, 5.0, True, "22.f(ii)+(iv)"),
    (45.0, "east", "attacker", "opponent", "attacker", 60.0, 10.0, False, "22.f(ii)+(v)"),
    (120.0, "west", "attacker", "opponent", "attacker", 120.0, 5.0, True, "22.f(ii)+(iii)"),
    (59.5, "east", "attacker", "opponent", "attacker", 60.0, 10.0, False, "22.f(ii)+(v): just inside the 60"),
]


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
@pytest.mark.parametrize(
    "d, side, hit_by, deflected, awarded, spot_d, inset, tap, clause",
    SIDE,
    ids=[f"d{r[0]}-{r[1]}-{r[2]}-{r[3]}" for r in SIDE],
)
def test_a_ball_over_the_side_gives_a_free_hit_by_the_22f_matrix(
    orientation, end, d, side, hit_by, deflected, awarded, spot_d, inset, tap, clause
):
    events = [
        *orientation.prefix(),
        ev(
            "ball_out",
            line="side",
            at={"x": x_at(end, d), "y": side_y(side, 0.0)},
            last_hit_by=orientation.team(hit_by, end),
            deflected_off=deflected,
            clock=30.0,
        ),
    ]
    state = run(events, home_defends=orientation.home_defends, boarded=deflected == "boards")
    assert_restart(
        state,
        kind="free_hit",
        team=orientation.team(awarded, end),
        penalty=None,
        spot=pos(end, spot_d, side_y(side, inset)),
        tap_allowed=tap,
        count_seconds=8,
        hit_within_seconds=5,
    )
    assert state["restart"]["rule"].startswith("22.f"), clause


SIDE_THROW_IN = [
    # (d, side, glanced off, clause)
    (150.0, "west", "umpire", "22.f(vi): off an umpire: throw-in from the side, level with where it went out"),
    (30.0, "east", "umpire", "22.f(vi)"),
    (100.0, "east", "unknown", "22.f(vi): the umpire cannot tell what put it out"),
    (10.0, "west", "unknown", "22.f(vi)"),
]


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
@pytest.mark.parametrize(
    "d, side, deflected, clause", SIDE_THROW_IN, ids=[f"d{r[0]}-{r[1]}-{r[2]}" for r in SIDE_THROW_IN]
)
def test_a_ball_over_the_side_off_an_umpire_or_for_no_known_reason_is_thrown_in_from_the_side(
    orientation, end, d, side, deflected, clause
):
    events = [
        *orientation.prefix(),
        ev(
            "ball_out",
            line="side",
            at={"x": x_at(end, d), "y": side_y(side, 0.0)},
            last_hit_by=orientation.attacker(end),
            deflected_off=deflected,
            clock=30.0,
        ),
    ]
    state = run(events, home_defends=orientation.home_defends)
    restart = state["restart"]
    assert restart["kind"] == "throw_in", (clause, restart)
    assert restart["team"] is None, (clause, restart)
    # "from the side boards or sideline parallel to the point where the ball went out of play"
    assert restart["spot"]["x"] == pytest.approx(x_at(end, d)), (clause, restart)
    assert restart["rule"].startswith("22.f"), (clause, restart)


# -- 22.e(4) and 21.l: throw-in toward the nearer side, where the ball was dead ------------------

THROW_IN = [
    # (d, y of the ball, toward, whistle reason, clause)
    (150.0, 30.0, "west", "player_fall", "22.e(4): toward the nearer (west) side"),
    (150.0, 130.0, "east", "lost_helmet", "22.e(4): toward the nearer (east) side"),
    (100.0, 79.0, "west", "inadvertent", "21.l + 22.e(4): just west of the middle"),
    (100.0, 81.0, "east", "inadvertent", "21.l + 22.e(4): just east of the middle"),
    (45.0, 40.0, "west", "broken_tack", "22.e(4): inside the 60, still where it was dead"),
    (45.0, 120.0, "east", "lodged_ball", "21.i + 22.e(4): dead where it was first lodged"),
    (200.0, 60.0, "west", "damaged_ball", "21.c + 22.e(4): not on a first hit, so a throw-in (22.d)"),
    (250.0, 100.0, "east", "rule_check", "22.e(4): a perceived violation that ends in no foul"),
]


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("d, y, toward, reason, clause", THROW_IN, ids=[f"d{r[0]}-y{r[1]}-{r[3]}" for r in THROW_IN])
def test_play_stopped_with_the_ball_in_the_field_resumes_with_a_throw_in_toward_the_nearer_side(
    orientation, end, d, y, toward, reason, clause
):
    events = [
        *orientation.prefix(),
        ev("whistle", reason=reason, ball=pos(end, d, y), possession=orientation.attacker(end), clock=30.0),
    ]
    state = run(events, home_defends=orientation.home_defends)
    assert_restart(state, kind="throw_in", team=None, penalty=None, spot=pos(end, d, y), toward=toward)
    assert state["restart"]["rule"].startswith(("22.e", "21.l")), clause


# -- 22.h: fair-play possession --------------------------------------------------------------------

FAIR_PLAY = [
    # (d of the ball from E's end line, y, team in possession, d of the spot, y of the spot, tapping, reason, clause)
    (150.0, 30.0, "attacker", 150.0, 30.0, True, "inadvertent", "22.h(1): between the 60s, where the ball was"),
    (61.0, 150.0, "defender", 61.0, 150.0, True, "rule_check", "22.h(1)"),
    (100.0, 5.0, "attacker", 100.0, 5.0, True, "damaged_ball", "22.h(1)"),
    (60.0, 100.0, "attacker", 60.0, 100.0, False, "inadvertent", "22.h(2): on the 60-yard line, attacking team"),
    (20.0, 10.0, "attacker", 60.0, 40.0, False, "player_fall", "22.h(2): no more than 40 yd from the centre of the 60"),
    (
        35.0,
        155.0,
        "attacker",
        60.0,
        120.0,
        False,
        "umpire_down",
        "22.h(2): no more than 40 yd from the centre of the 60",
    ),
    (5.0, 80.0, "attacker", 60.0, 80.0, False, "rule_check", "22.h(2): opposite where the ball was"),
    (40.0, 41.0, "attacker", 60.0, 41.0, False, "inadvertent", "22.h(2): within 40 yd of the centre"),
    (20.0, 10.0, "defender", 20.0, 10.0, True, "horse_fall", "22.h(3): defending team, where the ball was"),
    (60.0, 150.0, "defender", 60.0, 150.0, True, "injured_player", "22.h(3): on the 60-yard line"),
]


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
@pytest.mark.parametrize(
    "d, y, possession, spot_d, spot_y, tap, reason, clause",
    FAIR_PLAY,
    ids=[f"d{r[0]}-y{r[1]}-{r[2]}" for r in FAIR_PLAY],
)
def test_fair_play_possession_gives_the_team_in_possession_a_possession_play_from_the_22h_spot(
    orientation, end, d, y, possession, spot_d, spot_y, tap, reason, clause
):
    team = orientation.team(possession, end)
    events = [
        *orientation.prefix(),
        ev(
            "whistle",
            reason=reason,
            ball=pos(end, d, y),
            possession=team,
            fair_play=True,
            team=other(team),
            number=2,
            clock=30.0,
        ),
    ]
    state = run(events, home_defends=orientation.home_defends)
    assert_restart(
        state,
        kind="possession_play",
        team=team,
        spot=pos(end, spot_d, spot_y),
        tap_allowed=tap,
        count_seconds=8,
        hit_within_seconds=5,
    )
    assert state["restart"]["rule"].startswith("22.h"), clause


# -- penalty spots (MATCH-LOG.md "The field": the standard USPA spots) -----------------------------

PENALTIES = [
    # (penalty, from_spot, where the foul was (d from the FOULING team's end line, y) or None,
    #  the spot (d from the fouling team's end line, y), clause)
    (
        "2",
        False,
        (100.0, 20.0),
        (30.0, CENTRE_Y),
        "Penalty 2: 30 yd from the fouling team's end line, opposite the centre of its goal",
    ),
    ("2", True, (45.0, 20.0), (45.0, 20.0), "Penalty 2: from the spot when the fouled team so chooses"),
    ("2", True, (200.0, 140.0), (200.0, 140.0), "Penalty 2 from the spot, in the fouled team's half"),
    ("3", False, (100.0, 20.0), (40.0, CENTRE_Y), "Penalty 3: 40 yd, opposite the centre of goal"),
    ("4", False, (150.0, 150.0), (60.0, CENTRE_Y), "Penalty 4: 60 yd, opposite the centre of goal"),
    ("5a", False, (120.0, 33.0), (120.0, 33.0), "Penalty 5.a: the spot of the foul"),
    ("5a", False, (250.0, 140.0), (250.0, 140.0), "Penalty 5.a: the spot of the foul, near the fouled team's goal"),
    ("5b", False, (20.0, 20.0), (L / 2, CENTRE_Y), "Penalty 5.b: the centre of the field"),
]


@pytest.mark.parametrize("orientation", ORIENTATIONS, ids=[o.name for o in ORIENTATIONS])
@pytest.mark.parametrize("fouling", ["home", "away"])
@pytest.mark.parametrize(
    "penalty, from_spot, foul_at, spot, clause",
    PENALTIES,
    ids=[f"P{r[0]}{'-from-spot' if r[1] else ''}-d{r[3][0]}" for r in PENALTIES],
)
def test_a_penalty_is_taken_from_its_standard_spot(orientation, fouling, penalty, from_spot, foul_at, spot, clause):
    end = orientation.end_of(fouling)  # the fouling team's end line
    fields: dict[str, Any] = {"against": fouling, "number": 3, "penalty": penalty}
    if foul_at is not None:
        fields["spot"] = pos(end, *foul_at)
    if from_spot:
        fields["from_spot"] = True
    state = run([*orientation.prefix(), ev("foul", clock=30.0, **fields)], home_defends=orientation.home_defends)
    assert_restart(state, kind="penalty", team=other(fouling), penalty=penalty, spot=pos(end, *spot))
    assert state["score"] == orientation.score_before(), clause
    assert state["defends"] == {"home": orientation.end_of("home"), "away": orientation.end_of("away")}


@pytest.mark.parametrize("orientation", ORIENTATIONS, ids=[o.name for o in ORIENTATIONS])
@pytest.mark.parametrize("fouling", ["home", "away"])
def test_a_penalty_1_is_a_goal_then_a_penalty_5b_from_the_centre_with_ends_changed(orientation, fouling):
    """14.b(2) and MATCH-LOG.md: the fouled team gets a goal, a Penalty 5.b, and ends change."""
    fouled = other(fouling)
    state = run(
        [*orientation.prefix(), ev("foul", against=fouling, number=2, penalty="1", clock=30.0)],
        home_defends=orientation.home_defends,
    )
    score = orientation.score_before()
    score[fouled] += 1
    assert state["score"] == score
    assert state["defends"] == {"home": flip(orientation.end_of("home")), "away": flip(orientation.end_of("away"))}
    assert_restart(state, kind="penalty", team=fouled, penalty="5b", spot={"x": L / 2, "y": CENTRE_Y})


# -- 22.e(1): the throw-in after a goal ----------------------------------------------------------


@pytest.mark.parametrize("orientation", ORIENTATIONS, ids=[o.name for o in ORIENTATIONS])
@pytest.mark.parametrize("scorer", ["home", "away"])
def test_after_a_goal_the_ball_is_thrown_in_at_the_centre_with_ends_changed(orientation, scorer):
    state = run(
        [*orientation.prefix(), ev("goal", team=scorer, number=4, clock=30.0)], home_defends=orientation.home_defends
    )
    assert state["defends"] == {"home": flip(orientation.end_of("home")), "away": flip(orientation.end_of("away"))}
    assert_restart(state, kind="throw_in", team=None, spot={"x": L / 2, "y": CENTRE_Y})
    assert state["restart"]["rule"].startswith("22.e(1)")


# -- 22.a and 22.b: restart violations -----------------------------------------------------------

KNOCK_IN_VIOLATIONS = [
    # (kind, offending role at E (E = the end being knocked in from), team awarded, penalty,
    #  spot as (d from E's end line, y), clause)
    (
        "late",
        "defender",
        "attacker",
        "4",
        (60.0, CENTRE_Y),
        "22.a: not hit within 10 s: Penalty 4 to the opposing team",
    ),
    (
        "passed_ball",
        "defender",
        "attacker",
        "4",
        (60.0, CENTRE_Y),
        "22.a: passes the ball on the first approach: Penalty 4",
    ),
    (
        "early",
        "defender",
        "attacker",
        "4",
        (60.0, CENTRE_Y),
        "22.a (late or early knock-in): hit before Play: Penalty 4",
    ),
    (
        "encroachment",
        "attacker",
        "defender",
        "5b",
        (L / 2, CENTRE_Y),
        "22.a: a defender closer than 30 yd: Penalty 5.b to the team knocking in",
    ),
    (
        "delay",
        "attacker",
        "defender",
        "5b",
        (L / 2, CENTRE_Y),
        "22.a (calling Play): delay by a defensive player: Penalty 5.b",
    ),
]


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
@pytest.mark.parametrize(
    "kind, offender, awarded, penalty, spot, clause", KNOCK_IN_VIOLATIONS, ids=[r[0] for r in KNOCK_IN_VIOLATIONS]
)
def test_a_knock_in_violation_awards_the_penalty_of_22a(
    orientation, end, kind, offender, awarded, penalty, spot, clause
):
    events = [
        *orientation.prefix(),
        ev(
            "ball_out",
            line="end",
            at={"x": x_at(end, 0.0), "y": 40.0},
            last_hit_by=orientation.attacker(end),
            deflected_off="none",
            clock=30.0,
        ),
        ev("restart_violation", kind=kind, team=orientation.team(offender, end), clock=30.0),
    ]
    state = run(events, home_defends=orientation.home_defends)
    # A Penalty 4 against the team knocking in is 60 yd from ITS end line (E): the MATCH-LOG spots.
    assert_restart(state, kind="penalty", team=orientation.team(awarded, end), penalty=penalty, spot=pos(end, *spot))


FOUL_SHOT_VIOLATIONS = [
    # (penalty being taken, from_spot, foul spot (d from the end line of the team that FOULED, y) or None,
    #  violation, the new penalty, its spot (d from the same end line, y), clause).
    # The team that fouled (F) gets the new penalty: a 5.a from the spot where the penalty was being
    # taken, "unless that spot is within the 60-yard line in front of the goal that team is
    # defending" — "that team" being the team taking the shot (G, the fouled team): the examples of
    # 22.b give a 5.a to the other team for a Penalty 2 kicked on the approach, a Penalty 6 kicked
    # forward and a Penalty 4 passed, all of whose spots are in front of the OTHER team's goal. So
    # a Penalty 4 only when the spot is on or inside G's own 60; F's Penalty 4 is then 60 yd from
    # G's end line, i.e. d = length - 60 from F's.
    ("2", False, None, "late", "5a", (30.0, CENTRE_Y), "22.b example: a Penalty 2 spoilt: 5.a to the other team"),
    ("3", False, None, "passed_ball", "5a", (40.0, CENTRE_Y), "22.b: P3 spot far from the taker's goal: 5.a"),
    ("4", False, None, "passed_ball", "5a", (60.0, CENTRE_Y), "22.b example: a Penalty 4 passed: 5.a"),
    ("5b", False, None, "late", "5a", (L / 2, CENTRE_Y), "22.b: P5.b at the centre: Penalty 5.a from there"),
    ("5a", False, (200.0, 30.0), "passed_ball", "5a", (200.0, 30.0), "22.b: outside the taker's 60: 5.a from the spot"),
    ("5a", False, (55.0, 120.0), "late", "5a", (55.0, 120.0), "22.b: inside F's 60, not the taker's: 5.a"),
    ("5a", False, (239.0, 120.0), "late", "5a", (239.0, 120.0), "22.b: just outside the taker's 60: 5.a"),
    ("5a", False, (240.0, 120.0), "late", "4", (L - 60, CENTRE_Y), "22.b: on the taker's 60-yard line: Penalty 4"),
    ("5a", False, (290.0, 30.0), "passed_ball", "4", (L - 60, CENTRE_Y), "22.b: inside the taker's 60: Penalty 4"),
    ("2", True, (70.0, 50.0), "late", "5a", (70.0, 50.0), "22.b: P2 from the spot, outside the taker's 60: 5.a"),
    (
        "2",
        True,
        (260.0, 50.0),
        "late",
        "4",
        (L - 60, CENTRE_Y),
        "22.b: P2 from the spot inside the taker's 60: Penalty 4",
    ),
]


@pytest.mark.parametrize("orientation", ORIENTATIONS, ids=[o.name for o in ORIENTATIONS])
@pytest.mark.parametrize("fouling", ["home", "away"])
@pytest.mark.parametrize(
    "penalty, from_spot, foul_at, violation, new_penalty, new_spot, clause",
    FOUL_SHOT_VIOLATIONS,
    ids=[f"P{r[0]}{'-from-spot' if r[1] else ''}-{r[3]}-d{r[2][0] if r[2] else ''}" for r in FOUL_SHOT_VIOLATIONS],
)
def test_a_foul_shot_taken_late_or_passed_gives_the_other_team_a_5a_or_a_4_by_22b(
    orientation, fouling, penalty, from_spot, foul_at, violation, new_penalty, new_spot, clause
):
    end = orientation.end_of(fouling)
    fields: dict[str, Any] = {"against": fouling, "number": 1, "penalty": penalty}
    if foul_at is not None:
        fields["spot"] = pos(end, *foul_at)
    if from_spot:
        fields["from_spot"] = True
    events = [
        *orientation.prefix(),
        ev("foul", clock=30.0, **fields),
        ev("restart_violation", kind=violation, team=other(fouling), clock=30.0),
    ]
    state = run(events, home_defends=orientation.home_defends)
    assert_restart(state, kind="penalty", team=fouling, penalty=new_penalty, spot=pos(end, *new_spot))


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
def test_a_safety_taken_late_gives_the_team_that_hit_it_a_penalty_5a_from_the_spot(orientation, end):
    """22.b and its example (a Penalty 6 kicked forward on the approach: 5.a to the other team): the
    Penalty 6 spot is in front of the other team's goal, not the taker's, so a 5.a from that spot."""
    defender, attacker = orientation.defender(end), orientation.attacker(end)
    events = [
        *orientation.prefix(),
        ev(
            "ball_out",
            line="end",
            at={"x": x_at(end, 0.0), "y": 40.0},
            last_hit_by=defender,
            deflected_off="none",
            clock=30.0,
        ),
        ev("restart_violation", kind="late", team=attacker, clock=30.0),
    ]
    state = run(events, home_defends=orientation.home_defends)
    assert_restart(state, kind="penalty", team=defender, penalty="5a", spot=pos(end, 60.0, 40.0))


# -- 22.c: a goal at the whistle ------------------------------------------------------------------


@pytest.mark.parametrize("orientation", ORIENTATIONS, ids=[o.name for o in ORIENTATIONS])
@pytest.mark.parametrize("fouling", ["home", "away"])
def test_a_goal_at_the_whistle_with_a_foul_by_the_attackers_does_not_count_and_the_penalty_is_awarded(
    orientation, fouling
):
    """22.c(2): the goal is not counted; the penalty (here a 3) is taken from its spot; ends stay."""
    end = orientation.end_of(fouling)
    events = [
        *orientation.prefix(),
        ev("foul", against=fouling, number=2, penalty="3", goal_scored=True, scored_by=fouling, clock=30.0),
    ]
    state = run(events, home_defends=orientation.home_defends)
    assert state["score"] == orientation.score_before()
    assert state["defends"] == {"home": orientation.end_of("home"), "away": orientation.end_of("away")}
    assert_restart(state, kind="penalty", team=other(fouling), penalty="3", spot=pos(end, 40.0, CENTRE_Y))


@pytest.mark.parametrize("orientation", ORIENTATIONS, ids=[o.name for o in ORIENTATIONS])
@pytest.mark.parametrize("fouling", ["home", "away"])
def test_a_goal_at_the_whistle_with_a_foul_by_the_defenders_is_a_penalty_1_or_nothing(orientation, fouling):
    """22.c(1): a Penalty 1 (one goal, 5.b from the centre, ends change) — any other penalty is refused."""
    fouled = other(fouling)
    refused = replay(
        match_log(
            [*orientation.prefix(), ev("foul", against=fouling, number=2, penalty="2", goal_scored=True, clock=30.0)],
            home_defends=orientation.home_defends,
        )
    )
    assert refused["results"][-1]["accepted"] is False
    assert refused["results"][-1]["error"]["code"] == "goal_at_whistle_needs_penalty_1"

    state = run(
        [*orientation.prefix(), ev("foul", against=fouling, number=2, penalty="1", goal_scored=True, clock=30.0)],
        home_defends=orientation.home_defends,
    )
    score = orientation.score_before()
    score[fouled] += 1  # one goal, not the field goal and the penalty goal both
    assert state["score"] == score
    assert state["defends"] == {"home": flip(orientation.end_of("home")), "away": flip(orientation.end_of("away"))}
    assert_restart(state, kind="penalty", team=fouled, penalty="5b", spot={"x": L / 2, "y": CENTRE_Y})


# -- 22.d: the ball breaks on the first hit ------------------------------------------------------


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
def test_a_ball_broken_on_the_first_hit_of_a_knock_in_is_knocked_in_again_from_the_same_point(orientation, end):
    knock_in_spot = {"x": x_at(end, 0.0), "y": 71.0}
    events = [
        *orientation.prefix(),
        ev(
            "ball_out",
            line="end",
            at={"x": x_at(end, 0.0), "y": 74.0},
            last_hit_by=orientation.attacker(end),
            deflected_off="none",
            clock=30.0,
        ),
        ev("play"),
        ev("whistle", reason="damaged_ball", ball=pos(end, 3.0, 71.0), first_hit=True, clock=31.0),
    ]
    state = run(events, home_defends=orientation.home_defends)
    assert_restart(state, kind="knock_in", team=orientation.defender(end), spot=knock_in_spot)


@pytest.mark.parametrize("orientation", ORIENTATIONS, ids=[o.name for o in ORIENTATIONS])
@pytest.mark.parametrize("fouling", ["home", "away"])
def test_a_ball_broken_on_the_first_hit_of_a_foul_shot_is_hit_again_from_the_same_point(orientation, fouling):
    end = orientation.end_of(fouling)
    events = [
        *orientation.prefix(),
        ev("foul", against=fouling, number=1, penalty="3", clock=30.0),
        ev("play"),
        ev("whistle", reason="damaged_ball", ball=pos(end, 38.0, 80.0), first_hit=True, clock=31.0),
    ]
    state = run(events, home_defends=orientation.home_defends)
    assert_restart(state, kind="penalty", team=other(fouling), penalty="3", spot=pos(end, 40.0, CENTRE_Y))


# -- 22.g: a restart carried over to the next period --------------------------------------------


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
def test_a_ball_out_after_the_seven_minute_horn_ends_the_chukker_and_its_knock_in_opens_the_next(orientation, end):
    """14.b(2) (not the final period) and 22.g: same restart, same spot, in the next period."""
    events = [
        *orientation.prefix(),
        ev(
            "ball_out",
            line="end",
            at={"x": x_at(end, 0.0), "y": 20.0},
            last_hit_by=orientation.attacker(end),
            deflected_off="none",
            clock=432.0,
        ),
    ]
    state = run(events, home_defends=orientation.home_defends)
    assert_restart(
        state, kind="knock_in", team=orientation.defender(end), spot={"x": x_at(end, 0.0), "y": 20.0}, next_period=True
    )


@pytest.mark.parametrize("orientation", ORIENTATIONS, ids=[o.name for o in ORIENTATIONS])
@pytest.mark.parametrize("fouling", ["home", "away"])
def test_a_foul_after_the_seven_minute_horn_is_awarded_at_the_beginning_of_the_next_period(orientation, fouling):
    """14.b(2): the whistle ends the period; the penalty opens the next one from its usual spot."""
    end = orientation.end_of(fouling)
    events = [*orientation.prefix(), ev("foul", against=fouling, number=4, penalty="2", clock=425.0)]
    state = run(events, home_defends=orientation.home_defends)
    assert_restart(
        state, kind="penalty", team=other(fouling), penalty="2", spot=pos(end, 30.0, CENTRE_Y), next_period=True
    )


# -- another field: the geometry follows the config ----------------------------------------------

OTHER_FIELD = {"length": 275.0, "width": 146.0, "boarded": True}  # posts at y = 69 and 77


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
@pytest.mark.parametrize(
    "what, event, expected",
    [
        (
            "22.a knock-in near the west post",
            lambda o, e: ev(
                "ball_out",
                line="end",
                at={"x": x_at(e, 0.0, 275.0), "y": 66.0},
                last_hit_by=o.attacker(e),
                deflected_off="none",
                clock=30.0,
            ),
            lambda o, e: {"kind": "knock_in", "team": o.defender(e), "spot": {"x": x_at(e, 0.0, 275.0), "y": 64.0}},
        ),
        (
            "22.a knock-in near the east post",
            lambda o, e: ev(
                "ball_out",
                line="end",
                at={"x": x_at(e, 0.0, 275.0), "y": 78.0},
                last_hit_by=o.attacker(e),
                deflected_off="none",
                clock=30.0,
            ),
            lambda o, e: {"kind": "knock_in", "team": o.defender(e), "spot": {"x": x_at(e, 0.0, 275.0), "y": 82.0}},
        ),
        (
            "22.a knock-in near the east board",
            lambda o, e: ev(
                "ball_out",
                line="end",
                at={"x": x_at(e, 0.0, 275.0), "y": 144.0},
                last_hit_by=o.attacker(e),
                deflected_off="none",
                clock=30.0,
            ),
            lambda o, e: {"kind": "knock_in", "team": o.defender(e), "spot": {"x": x_at(e, 0.0, 275.0), "y": 141.0}},
        ),
        (
            "Penalty 3 at 40 yd, centre of goal",
            lambda o, e: ev("foul", against=o.defender(e), number=1, penalty="3", clock=30.0),
            lambda o, e: {"kind": "penalty", "team": o.attacker(e), "spot": {"x": x_at(e, 40.0, 275.0), "y": 73.0}},
        ),
        (
            "Penalty 5.b at the centre",
            lambda o, e: ev("foul", against=o.defender(e), number=1, penalty="5b", clock=30.0),
            lambda o, e: {"kind": "penalty", "team": o.attacker(e), "spot": {"x": 137.5, "y": 73.0}},
        ),
        (
            "22.f(v) free hit from the 60, 10 yd in",
            lambda o, e: ev(
                "ball_out",
                line="side",
                at={"x": x_at(e, 20.0, 275.0), "y": 146.0},
                last_hit_by=o.defender(e),
                deflected_off="none",
                clock=30.0,
            ),
            lambda o, e: {"kind": "free_hit", "team": o.attacker(e), "spot": {"x": x_at(e, 60.0, 275.0), "y": 136.0}},
        ),
        (
            "22.h(2) possession play clamped 40 yd from the centre",
            lambda o, e: ev(
                "whistle",
                reason="inadvertent",
                ball={"x": x_at(e, 30.0, 275.0), "y": 140.0},
                possession=o.attacker(e),
                fair_play=True,
                clock=30.0,
            ),
            lambda o, e: {
                "kind": "possession_play",
                "team": o.attacker(e),
                "spot": {"x": x_at(e, 60.0, 275.0), "y": 113.0},
            },
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_the_spots_follow_the_configured_field(orientation, end, what, event, expected):
    state = run(
        [*orientation.prefix(), event(orientation, end)],
        home_defends=orientation.home_defends,
        length=OTHER_FIELD["length"],
        width=OTHER_FIELD["width"],
        boarded=OTHER_FIELD["boarded"],
    )
    want = expected(orientation, end)
    assert_restart(state, **want)


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
def test_a_period_ended_by_the_double_horn_resumes_with_a_throw_in_where_the_ball_was(orientation, end):
    """14.e: the period ends at the horn wherever the ball is; 22.g: the next period resumes "in the
    same manner as if play was being resumed in the period which ended" — a ball dead in the field
    is thrown in where it was, toward the nearer side (22.e(4))."""
    events = [*orientation.prefix(), ev("horn", kind="final", clock=450.0, ball=pos(end, 100.0, 30.0))]
    state = run(events, home_defends=orientation.home_defends)
    assert_restart(state, kind="throw_in", team=None, spot=pos(end, 100.0, 30.0), toward="west", next_period=True)


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
def test_the_scorers_horn_after_the_servers_says_where_the_ball_was(orientation, end):
    """22.g: "the Referee or the Timekeeper shall immediately advise the Umpire where ... the game
    should have stopped". The running clock makes the double horn due and the server appends it
    without the ball (``auto:<period>:final``); the scorer's horn that follows, with the ball,
    places the next period's throw-in there, as if it had come first."""
    server_horn = {"type": "horn", "kind": "final", "clock": 450.0, "id": "auto:1:final"}
    before = run([*orientation.prefix(), server_horn], home_defends=orientation.home_defends)
    assert_restart(before, kind="throw_in", spot={"x": L / 2, "y": CENTRE_Y}, next_period=True)
    events = [*orientation.prefix(), server_horn, ev("horn", kind="final", clock=450.0, ball=pos(end, 100.0, 30.0))]
    state = run(events, home_defends=orientation.home_defends)
    assert_restart(state, kind="throw_in", team=None, spot=pos(end, 100.0, 30.0), toward="west", next_period=True)


FINAL_PERIOD_STOPPAGES = [
    # (what, the stoppage at clock t (a function of orientation and end), t, the official clock after,
    #  the restart expected (a function of orientation and end), clause)
    (
        "ball over the side at 7:27",
        lambda o, e, t: ev(
            "ball_out",
            line="side",
            at={"x": x_at(e, 150.0), "y": 0.0},
            last_hit_by=o.attacker(e),
            deflected_off="none",
            clock=t,
        ),
        447.0,
        445.0,
        lambda o, e: {"kind": "free_hit", "team": o.defender(e), "spot": pos(e, 150.0, 5.0)},
        "14.b(2): at least 5 s for the free hit; the clock goes back to 7:25",
    ),
    (
        "foul at 7:29",
        lambda o, e, t: ev("foul", against=o.defender(e), number=2, penalty="3", clock=t),
        449.0,
        445.0,
        lambda o, e: {"kind": "penalty", "team": o.attacker(e), "penalty": "3", "spot": pos(e, 40.0, CENTRE_Y)},
        "14.b(2): at least 5 s for the penalty",
    ),
    (
        "whistle at 7:10",
        lambda o, e, t: ev("whistle", reason="player_fall", ball=pos(e, 100.0, 130.0), clock=t),
        430.0,
        430.0,
        lambda o, e: {"kind": "throw_in", "team": None, "spot": pos(e, 100.0, 130.0), "toward": "east"},
        "14.b(2): 20 s left is more than 5: the clock stays",
    ),
    (
        "knock-in at 7:28",
        lambda o, e, t: ev(
            "ball_out",
            line="end",
            at={"x": x_at(e, 0.0), "y": 100.0},
            last_hit_by=o.attacker(e),
            deflected_off="none",
            clock=t,
        ),
        448.0,
        445.0,
        lambda o, e: {"kind": "knock_in", "team": o.defender(e), "spot": {"x": x_at(e, 0.0), "y": 100.0}},
        "14.b(2): at least 5 s for the knock-in",
    ),
]


@pytest.mark.parametrize("orientation, end", CASES, ids=CASE_IDS)
@pytest.mark.parametrize(
    "what, stoppage, t, clock_after, expected, clause",
    FINAL_PERIOD_STOPPAGES,
    ids=[r[0] for r in FINAL_PERIOD_STOPPAGES],
)
def test_a_stoppage_after_the_seven_minute_horn_of_the_final_period_keeps_five_seconds_for_the_restart(
    orientation, end, what, stoppage, t, clock_after, expected, clause
):
    events = [*orientation.prefix(), stoppage(orientation, end, t)]
    state = run(events, home_defends=orientation.home_defends, periods=1)
    assert state["status"] == "stopped", clause
    assert state["clock"]["elapsed"] == pytest.approx(clock_after), clause
    assert_restart(state, **expected(orientation, end), min_clock_remaining=5, next_period=False)


@pytest.mark.parametrize("orientation", ORIENTATIONS, ids=[o.name for o in ORIENTATIONS])
@pytest.mark.parametrize("fouling", ["home", "away"])
@pytest.mark.parametrize("t, clock_after", [(430.0, 430.0), (448.0, 445.0)])
def test_a_penalty_1_after_the_seven_minute_horn_of_the_final_period_resumes_with_a_5b_and_ends_changed(
    orientation, fouling, t, clock_after
):
    """14.b(2): one goal, the game resumes with a Penalty 5.b to the fouled team and a change of
    direction; the clock is reset only if less than 5 s remain, and then to 5 s."""
    fouled = other(fouling)
    state = run(
        [*orientation.prefix(), ev("foul", against=fouling, number=1, penalty="1", clock=t)],
        home_defends=orientation.home_defends,
        periods=1,
    )
    score = orientation.score_before()
    score[fouled] += 1
    assert state["score"] == score
    assert state["status"] == "stopped"  # the game resumes, even with the fouled team ahead
    assert state["clock"]["elapsed"] == pytest.approx(clock_after)
    assert state["defends"] == {"home": flip(orientation.end_of("home")), "away": flip(orientation.end_of("away"))}
    assert_restart(
        state, kind="penalty", team=fouled, penalty="5b", spot={"x": L / 2, "y": CENTRE_Y}, min_clock_remaining=5
    )


# -- 14.d: the shootout lines -------------------------------------------------------------------


def _tied_match_events() -> list[dict[str, Any]]:
    return [ev("play"), ev("horn", kind="final", clock=450.0, ball={"x": 150.0, "y": 80.0})]


SHOOTOUT_SINGLE = [
    # (upper handicap limit, outcomes hit by hit (the lot's winner first), the line of each hit, clause)
    (
        8,
        [False, False, False, False, False, False],
        [40, 40, 60, 60, 60, 60],
        "14.d: one player each: the 40, then back to the 60, and on from the 60 (limit above 6)",
    ),
    (
        6,
        [False, False, False, False, False, False],
        [40, 40, 60, 60, 30, 30],
        "14.d: no hit scored in the first two rounds, limit 6 or less: up to the 30",
    ),
    (
        6,
        [True, True, False, False, False, False],
        [40, 40, 60, 60, 60, 60],
        "14.d: a hit scored in the first two rounds: the 30 does not apply",
    ),
    (
        7,
        [False, False, False, False, False, False],
        [40, 40, 60, 60, 60, 60],
        "14.d: limit above 6: hitting continues from the 60",
    ),
]


@pytest.mark.parametrize("limit, outcomes, lines, clause", SHOOTOUT_SINGLE, ids=[r[3][:60] for r in SHOOTOUT_SINGLE])
@pytest.mark.parametrize("first", ["home", "away"])
def test_a_one_player_shootout_is_hit_from_the_40_then_the_60_and_the_30_only_in_low_goal_games(
    limit, outcomes, lines, clause, first
):
    second = other(first)
    events = [
        *_tied_match_events(),
        ev("shootout_start", format="single", first=first, order={"home": [3], "away": [2]}),
    ]
    for i, (scored, line) in enumerate(zip(outcomes, lines, strict=True)):
        log = match_log(events, periods=1)
        log["match"]["upper_handicap_limit"] = limit
        out = replay(log)
        assert all(r["accepted"] for r in out["results"]), out["results"]
        shootout = out["state"]["shootout"]
        team = first if i % 2 == 0 else second
        assert shootout["next"] == {"team": team, "number": 3 if team == "home" else 2}, (clause, i, shootout)
        assert shootout["line"] == line, (clause, i, shootout)
        events.append(ev("shootout_attempt", team=team, number=3 if team == "home" else 2, scored=scored))


@pytest.mark.parametrize("first", ["home", "away"])
def test_a_one_player_shootout_is_won_by_one_goal_when_one_scores_and_the_other_misses(first):
    """14.d: "until one player misses and the other player scores"; the winner takes the game by one goal."""
    second = other(first)
    number = {"home": 1, "away": 4}
    events = [
        *_tied_match_events(),
        ev("shootout_start", format="single", first=first, order={"home": [1], "away": [4]}),
        ev("shootout_attempt", team=first, number=number[first], scored=True),
        ev("shootout_attempt", team=second, number=number[second], scored=True),  # 1-1 after the 40
        ev("shootout_attempt", team=first, number=number[first], scored=False),
        ev("shootout_attempt", team=second, number=number[second], scored=True),  # decided on the 60
    ]
    state = run(events, periods=1)
    assert state["status"] == "final" and state["result"] == "shootout" and state["winner"] == second
    assert state["score"] == {first: 0, second: 1}
    assert state["shootout"]["points"] == {first: 1, second: 2}


@pytest.mark.parametrize("limit, line_in_round_3", [(6, 30), (8, 60)])
def test_a_team_shootout_starts_on_the_40_and_after_two_scoreless_rounds_moves_by_the_upper_limit(
    limit, line_in_round_3
):
    """14.d: every player, alternating teams, from the forty; "Should no hits score after the first
    two rounds by either team ... the thirty-yard line in games with an upper handicap limit of 6
    goals and under ... above 6 goals, hitting will continue from the sixty-yard line"."""
    order = {"home": [1, 2, 3, 4], "away": [4, 3, 2, 1]}
    events = [*_tied_match_events(), ev("shootout_start", format="team", first="away", order=order)]
    seen = []
    for i in range(17):
        log = match_log(events, periods=1)
        log["match"]["upper_handicap_limit"] = limit
        out = replay(log)
        assert all(r["accepted"] for r in out["results"]), out["results"][-1]
        shootout = out["state"]["shootout"]
        team = "away" if i % 2 == 0 else "home"
        number = order[team][(i % 8) // 2]
        assert shootout["next"] == {"team": team, "number": number}, (i, shootout)  # same order each round
        seen.append(shootout["line"])
        events.append(ev("shootout_attempt", team=team, number=number, scored=False))
    assert seen[:8] == [40] * 8
    assert seen[16] == line_in_round_3
