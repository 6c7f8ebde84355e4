"""The box score (``officiating/engine/boxscore.py``) against logs counted by hand, and the property
that every goal of the score is somebody's: the players' goals, the own goals, the goals awarded
(Penalty 1), the goals with no hitter, the shootout's deciding goal and the handicap goals add up to
the state's score, whatever the log.

Pure engine tests: logs are built as the server stores them (``Decision.event``).
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

from hypothesis import given, settings

from officiating.engine import MatchConfig, decide, fold, new_game, to_state
from officiating.engine.boxscore import BoxScore, box_score
from officiating.engine.boxscore_json import box_score_dict
from officiating.tests.test_properties import PROFILE, match_logs

_ids = itertools.count(1)
T0 = 2_000_000.0
BALL = {"x": 150, "y": 80}


def ev(type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "id": f"b{next(_ids)}", **fields}


def config(**fields: Any) -> MatchConfig:
    return MatchConfig.from_dict(
        {
            "periods": 2,
            "home": {
                "name": "Blue",
                "players": [{"number": n, "name": f"Blue {n}", "handicap": n} for n in range(1, 5)],
            },
            "away": {
                "name": "Red",
                "handicap_goals": 1,
                "players": [{"number": n, "name": f"Red {n}", "handicap": 1} for n in range(1, 5)],
            },
            **fields,
        }
    )


def stored(cfg: MatchConfig, *events: dict[str, Any]) -> list[dict[str, Any]]:
    game, out = new_game(cfg), []
    for i, event in enumerate(events):
        d = decide(game, event, now=T0 + i * 10.0, stamps=False)
        assert d.accepted, (event, d.error)
        game = d.game
        out.append(d.event)
    return out


def box_of(cfg: MatchConfig, *events: dict[str, Any]) -> tuple[BoxScore, dict[str, Any]]:
    folded = fold(cfg, stored(cfg, *events))
    return box_score(folded), to_state(folded.game)


def player(box: BoxScore, team: str, number: int):
    return next(p for p in box.players if p.team == team and p.number == number)


def end_of_period() -> list[dict[str, Any]]:
    return [ev("play"), ev("horn", kind="seven", clock=420.0), ev("horn", kind="final", clock=450.0)]


WRONG = ev("goal", team="away", number=1, clock=80.0)

# Blue defends north. Chukker 1: a field goal (Blue 1), a Penalty 2 converted (Blue 3), a shot wide
# by Blue (a knock-in to Red), a Penalty 1 to Red (then its 5.b, missed: an own goal by Red 2
# follows). Chukker 2: a field goal by Red 1, a goal voided, a horse time-out (Blue 1), a yellow
# card (Blue 1), an injury (Red 3); tied 3-3 with Red's handicap goal. Overtime: Blue 2 wins it.
MATCH = [
    ev("play"),
    ev("goal", team="home", number=1, clock=30.0),  # ends change: Blue defends south
    ev("play"),
    ev("foul", against="away", number=2, penalty="2", clock=60.0),
    ev("play"),
    ev("goal", team="home", number=3, clock=65.0, from_penalty=True),  # Blue defends north again
    ev("play"),
    ev("ball_out", line="end", at={"x": 300, "y": 20}, last_hit_by="home", deflected_off="none", clock=100.0),
    ev("play"),
    ev("foul", against="home", number=4, penalty="1", clock=150.0),
    ev("play"),
    ev("goal", team="home", number=2, own_goal=True, clock=170.0),
    *end_of_period(),
    ev("play"),
    ev("goal", team="away", number=1, clock=50.0),
    ev("play"),
    WRONG,
    ev("void", target=WRONG["id"], reason="not through the posts"),
    ev("whistle", reason="horse_timeout", team="home", number=1, ball=BALL, clock=90.0),
    ev("card", team="home", number=1, color="yellow"),
    ev("whistle", reason="injured_player", team="away", number=3, ball=BALL, clock=90.0),
    *end_of_period(),
    ev("overtime"),
    ev("play"),
    ev("goal", team="home", number=2, clock=100.0),
]


def test_each_player_s_goals_are_counted_by_how_they_were_scored():
    box, state = box_of(config(), *MATCH)
    assert state["score"] == {"home": 4, "away": 3} and state["result"] == "overtime"
    assert (player(box, "home", 1).goals, player(box, "home", 1).penalty_goals) == (1, ())
    assert (player(box, "home", 3).goals, player(box, "home", 3).penalty_goals) == (0, (("2", 1),))
    assert player(box, "home", 2).goals == 1  # the overtime goal
    assert player(box, "away", 2).own_goals == 1 and player(box, "away", 2).total_goals == 0
    assert player(box, "away", 1).goals == 1  # the voided goal counts nowhere


def test_penalties_conceded_cards_injuries_and_horse_time_outs_are_the_player_s():
    box, _ = box_of(config(), *MATCH)
    assert player(box, "away", 2).penalties_conceded == (("2", 1),)
    assert player(box, "home", 4).penalties_conceded == (("1", 1),)
    blue1 = player(box, "home", 1)
    assert (blue1.yellow_cards, blue1.red_cards, blue1.horse_timeouts, blue1.injuries) == (1, 0, 1, 0)
    assert player(box, "away", 3).injuries == 1


def test_the_line_score_puts_overtime_in_a_column_of_its_own_and_handicap_goals_apart():
    box, _ = box_of(config(), *MATCH)
    blue, red = box.teams
    assert (blue.by_period, blue.overtime, blue.handicap_goals, blue.score) == ((3, 0), 1, 0, 4)
    assert (red.by_period, red.overtime, red.handicap_goals, red.score) == ((1, 1), 0, 1, 3)
    assert box.overtime_played and not box.shootout_played
    assert (blue.field_goals, blue.penalty_goals, blue.own_goals_for) == (2, 1, 1)
    assert (red.field_goals, red.penalty_1_goals) == (1, 1)


def test_penalties_awarded_and_converted_by_number():
    box, _ = box_of(config(), *MATCH)
    blue, red = box.teams
    assert [(t.penalty, t.awarded, t.converted) for t in blue.penalties] == [("2", 1, 1)]
    # the Penalty 1 is a goal awarded; the 5.b after it was missed (an own goal ended its play)
    assert [(t.penalty, t.awarded, t.converted) for t in red.penalties] == [("1", 1, 1), ("5b", 1, 0)]
    assert [p.cause for p in box.penalties] == ["foul", "foul", "after_penalty_1"]


def test_a_shot_wide_over_the_back_line_is_a_knock_in_to_the_defenders():
    box, _ = box_of(config(), *MATCH)
    blue, red = box.teams
    assert (red.knock_ins, red.knock_ins_by_period) == (1, (1, 0, 0))
    assert (blue.shots_wide, blue.shots_wide_by_period) == (1, (1, 0, 0))
    assert (blue.knock_ins, red.shots_wide) == (0, 0)


def test_a_safety_is_a_penalty_6_not_a_knock_in():
    box, _ = box_of(
        config(),
        ev("play"),
        ev("ball_out", line="end", at={"x": 0, "y": 20}, last_hit_by="home", deflected_off="none", clock=10.0),
        ev("play"),
        ev("goal", team="away", number=4, clock=20.0),
    )
    assert box.knock_ins == ()
    assert [(p.team, p.penalty, p.cause, p.converted) for p in box.penalties] == [("away", "6", "safety", True)]
    # the goal that ended the penalty's play is a penalty goal, though the scorer did not mark it
    assert player(box, "away", 4).penalty_goals == (("6", 1),)


def test_a_penalty_replaced_before_its_hit_was_not_taken_and_the_number_given_wins():
    box, _ = box_of(
        config(),
        ev("play"),
        ev("foul", against="away", number=1, penalty="4", clock=10.0),
        ev("foul", against="away", number=1, penalty="3", clock=10.0),  # a dead-ball call replaces it
        ev("play"),
        ev("goal", team="home", number=2, clock=15.0, from_penalty="3"),
    )
    assert [(p.penalty, p.converted) for p in box.penalties] == [("4", None), ("3", True)]
    assert player(box, "home", 2).penalty_goals == (("3", 1),)
    assert player(box, "away", 1).penalties_conceded == (("3", 1), ("4", 1))


def test_a_foul_played_on_awards_no_penalty_but_its_card_counts():
    box, _ = box_of(config(), ev("play"), ev("foul", against="home", number=3, penalty="3", advantage=True, card="red"))
    assert box.penalties == () and player(box, "home", 3).penalties_conceded == ()
    assert player(box, "home", 3).red_cards == 1 and box.team("home").red_cards == 1


def test_the_shootout_goal_decides_the_game_but_is_no_goal_from_play():
    cfg = config(periods=1, away={"name": "Red", "players": [{"number": n, "name": f"Red {n}"} for n in range(1, 5)]})
    box, state = box_of(
        cfg,
        ev("play"),
        ev("horn", kind="final", clock=450.0),
        ev("shootout_start", format="single", first="home", order={"home": [1], "away": [2]}),
        ev("shootout_attempt", team="home", number=1, scored=True),
        ev("shootout_attempt", team="away", number=2, scored=False),
    )
    assert state["result"] == "shootout" and state["winner"] == "home" and state["score"] == {"home": 1, "away": 0}
    blue = box.team("home")
    assert (blue.shootout, blue.goals, blue.field_goals, blue.by_period, blue.score) == (1, 1, 0, (0,), 1)
    assert player(box, "home", 1).total_goals == 0 and box.shootout_played
    assert [(g.how, g.period_kind) for g in box.goals] == [("shootout", "shootout")]


def test_the_public_figures_leave_out_injuries_and_horse_time_outs():
    box, _ = box_of(config(), *MATCH)
    public = box_score_dict(box, public=True)
    full = box_score_dict(box)
    assert all("injuries" not in p and "horse_timeouts" not in p for p in public["players"])
    assert any(p["injuries"] for p in full["players"]) and any(p["horse_timeouts"] for p in full["players"])
    assert full["teams"]["home"]["line"] == {
        "chukkers": [3, 0],
        "overtime": 1,
        "shootout": 0,
        "handicap": 0,
        "total": 4,
    }


def test_a_box_score_reads_the_steps_of_a_fold_as_well_as_the_fold():
    cfg = config()
    folded = fold(cfg, stored(cfg, *MATCH))
    assert box_score((cfg, folded.steps)).teams == box_score(folded).teams


# -- the property ------------------------------------------------------------------------------------


@settings(PROFILE)
@given(match_logs(max_events=50))
def test_every_goal_of_the_score_is_counted_once_in_the_box_score(data):
    cfg = MatchConfig.from_dict(data["match"])
    folded = fold(cfg, copy.deepcopy(data["events"]), strict_keys=True)
    box = box_score(folded)
    state = to_state(folded.game)
    for line in box.teams:
        team = line.team
        mine = [p for p in box.players if p.team == team]
        theirs = [p for p in box.players if p.team != team]
        from_players = sum(p.total_goals for p in mine) + sum(p.own_goals for p in theirs)
        counted = from_players + line.unattributed + line.penalty_1_goals + line.shootout + line.handicap_goals
        assert counted == state["score"][team], (team, box_score_dict(box)["teams"][team])
        assert line.score == state["score"][team]
        assert sum(line.knock_ins_by_period) == line.knock_ins


def test_a_voided_foul_card_ball_out_or_own_goal_counts_nowhere():
    foul = ev("foul", against="away", number=2, penalty="3", card="yellow", clock=20.0)
    card = ev("card", team="home", number=4, color="red")
    wide = ev("ball_out", line="end", at={"x": 300, "y": 20}, last_hit_by="home", deflected_off="none", clock=40.0)
    own = ev("goal", team="home", number=1, own_goal=True, clock=60.0)
    box, state = box_of(
        config(),
        ev("play"),
        foul,
        card,  # (in the stoppage of the foul)
        ev("void", target=card["id"], reason="wrong player"),
        ev("void", target=foul["id"], reason="wrong call"),
        wide,
        ev("void", target=wide["id"], reason="it was a safety"),
        own,
        ev("void", target=own["id"], reason="wide of the post"),
    )
    assert state["score"] == {"home": 0, "away": 1}  # Red's handicap goal only
    assert box.penalties == () and box.knock_ins == () and box.cards == () and box.goals == ()
    assert all(
        (p.goals, p.own_goals, p.penalties_conceded, p.yellow_cards, p.red_cards) == (0, 0, (), 0, 0)
        for p in box.players
    )
    blue, red = box.teams
    assert (blue.score, blue.shots_wide, red.knock_ins, red.penalties) == (0, 0, 0, ())


def test_an_overtime_penalty_goal_is_the_hitter_s_and_in_the_overtime_column():
    box, state = box_of(
        config(periods=1, away={"name": "Red", "players": [{"number": n, "name": f"Red {n}"} for n in range(1, 5)]}),
        ev("play"),
        ev("horn", kind="final", clock=450.0),
        ev("overtime"),
        ev("play"),
        ev("foul", against="home", number=1, penalty="4", clock=30.0),
        ev("play"),
        ev("goal", team="away", number=3, clock=40.0),
    )
    assert state["result"] == "overtime" and state["winner"] == "away"
    red = box.team("away")
    assert (red.by_period, red.overtime, red.penalty_goals, red.score) == ((0,), 1, 1, 1)
    assert player(box, "away", 3).penalty_goals == (("4", 1),) and player(box, "away", 3).goals == 0
    assert [(t.penalty, t.awarded, t.converted) for t in red.penalties] == [("4", 1, 1)]
    assert [(g.how, g.period_kind, g.penalty) for g in box.goals] == [("penalty", "overtime", "4")]
