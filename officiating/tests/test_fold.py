"""The engine owns every fold: ``fold`` gives the game after a stored log and the steps of the
events that count (what a report, a scoreboard's last goals and a shootout's rounds read), and
``same_event`` is the one definition of a repeated event.

Pure engine tests: logs are built as the server stores them (``Decision.event``).
"""

from __future__ import annotations

import itertools
from typing import Any

from officiating.engine import Fold, MatchConfig, decide, fold, new_game, replay, same_event, shootout_rounds, to_state

_ids = itertools.count(1)
T0 = 2_000_000.0


def ev(type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "id": f"f{next(_ids)}", **fields}


CONFIG = {
    "home": {"name": "Blue", "players": [{"number": n, "name": f"Blue {n}"} for n in range(1, 5)]},
    "away": {"name": "Red", "players": [{"number": n, "name": f"Red {n}"} for n in range(1, 5)]},
}


def config(**fields: Any) -> MatchConfig:
    return MatchConfig.from_dict({**CONFIG, **fields})


def stored(cfg: MatchConfig, *events: dict[str, Any], step: float = 10.0) -> list[dict[str, Any]]:
    """The log as the server stores it: each event decided at a wall time, as ``decide`` returned it."""
    game, out = new_game(cfg), []
    for i, event in enumerate(events):
        d = decide(game, event, now=T0 + i * step, stamps=False)
        assert d.accepted, (event, d.error)
        game = d.game
        out.append(d.event)
    return out


def goal(team: str, clock: float, **fields: Any) -> dict[str, Any]:
    return ev("goal", team=team, number=1, clock=clock, **fields)


def test_the_game_of_a_fold_is_what_deciding_every_event_makes_of_the_log():
    cfg = config()
    log = stored(cfg, ev("play"), goal("home", 30.0), ev("play"), goal("away", 60.0))
    folded = fold(cfg, log)
    assert isinstance(folded, Fold)
    game = new_game(cfg)
    for event in log:
        game = decide(game, event).game
    assert to_state(folded.game) == to_state(game)
    assert folded.game.last_seq == 4 and folded.refused == () and folded.voided == frozenset()


def test_the_steps_are_the_events_that_count_with_the_states_before_and_after():
    cfg = config()
    scored = goal("home", 30.0)
    log = stored(cfg, ev("play"), scored, ev("play"), goal("away", 60.0))
    steps = fold(cfg, log, lang="en").steps
    assert [s.seq for s in steps] == [1, 2, 3, 4]
    assert [s.id for s in steps] == [e["id"] for e in log]
    assert steps[1].event == log[1] and steps[1].before["score"] == {"home": 0, "away": 0}
    assert steps[1].after["score"] == {"home": 1, "away": 0} and steps[1].after == to_state(steps[1].game)
    assert steps[0].before == to_state(new_game(cfg))
    assert all(a.after == b.before for a, b in itertools.pairwise(steps))
    assert fold(cfg, log).steps[1].before is None  # states only when a language is asked for


def test_a_voided_event_and_its_void_are_no_steps_and_the_rest_are_folded_without_it():
    cfg = config()
    wrong = goal("away", 30.0)
    log = stored(
        cfg,
        ev("play"),
        wrong,
        ev("void", target=wrong["id"], reason="the ball went wide"),
        goal("home", 90.0),
        ev("play"),
    )
    folded = fold(cfg, log, lang="en")
    assert folded.voided == {wrong["id"]}
    assert [(v.seq, v.event["target"]) for v in folded.voids] == [(3, wrong["id"])]
    assert [s.seq for s in folded.steps] == [1, 4, 5]
    # Blue's goal, folded without Red's: ends changed once, 1-0 — as the log without the void says
    home_goal = folded.steps[1]
    assert home_goal.before["score"] == {"home": 0, "away": 0} and home_goal.before["status"] == "in_play"
    assert home_goal.after["score"] == {"home": 1, "away": 0}
    assert folded.steps[-1].after == {**to_state(folded.game), "last_seq": 3}  # (the voids count in the log's)
    without = replay({"match": CONFIG, "events": [log[0], log[3]]})["state"]
    assert {k: v for k, v in home_goal.after.items() if k != "last_seq"} == {
        k: v for k, v in without.items() if k != "last_seq"
    }


def test_a_fold_can_continue_from_a_folded_game():
    cfg = config()
    first = goal("home", 30.0)
    log = stored(cfg, ev("play"), first, ev("void", target=first["id"]), goal("away", 60.0), ev("play"))
    head = fold(cfg, log[:2])
    rest = fold(cfg, log[2:], game=head.game, lang="en")
    whole = fold(cfg, log, lang="en")
    assert to_state(rest.game) == to_state(whole.game)
    assert [s.seq for s in rest.steps] == [s.seq for s in whole.steps] == [1, 4, 5]
    assert [s.after for s in rest.steps] == [s.after for s in whole.steps]


def test_an_event_the_rules_no_longer_admit_is_refused_and_the_rest_is_folded():
    cfg = config()
    log = [ev("play"), ev("goal", team="blue"), goal("home", 30.0)]
    folded = fold(cfg, log)
    assert [(r.position, r.id, r.error.code) for r in folded.refused] == [(1, log[1]["id"], "invalid_event")]
    assert to_state(folded.game)["score"] == {"home": 1, "away": 0}


def test_the_shootout_rounds_come_from_the_game_with_the_edition_s_lines():
    cfg = config(periods=1, upper_handicap_limit=6)
    events = [
        ev("play"),
        ev("horn", kind="final", clock=450.0),
        ev("shootout_start", format="single", first="home", order={"home": [1], "away": [2]}),
    ]
    # two rounds without a hit score (40, then 60), so the third is from the 30 in a six-goal game
    events += [ev("shootout_attempt", team=t, number=n, scored=False) for t, n in [("home", 1), ("away", 2)] * 2]
    miss = ev("shootout_attempt", team="home", number=1, scored=True)
    events += [miss, ev("void", target=miss["id"]), ev("shootout_attempt", team="home", number=1, scored=False)]
    game = fold(cfg, stored(cfg, *events)).game
    rounds = shootout_rounds(game)
    assert [(r.number, r.line) for r in rounds] == [(1, 40), (2, 60), (3, 30)]
    assert [r.attempts for r in rounds] == [(("home", 1, False), ("away", 2, False))] * 2 + [(("home", 1, False),)]
    assert shootout_rounds(new_game(cfg)) == []


def test_every_event_type_is_read_once_and_has_a_handler():
    from officiating.engine import events, log

    assert log.EVENT_TYPES == set(events.READERS) == set(log.HANDLERS) | {"void"}


# -- the same event ------------------------------------------------------------------------------------

STORED = {
    "type": "foul",
    "id": "a1",
    "against": "home",
    "number": 2,
    "penalty": "3",
    "clock": 120.4,
    "server_time": 1000.0,
    "by": {"role": "umpire", "name": "Umpire One"},
}


def test_a_retry_is_the_same_event_whatever_the_server_added():
    posted = {"type": "foul", "id": "a1", "against": "home", "number": 2, "penalty": "3", "expected_seq": 7}
    assert same_event(posted, STORED)  # clock filled by the server, server_time and by set by it
    assert same_event({**posted, "clock": None}, STORED)  # a clock left empty is left out
    assert same_event({**posted, "clock": 120.4}, STORED)
    assert same_event({**posted, "by": {"role": "scorer", "name": "Someone else"}}, STORED)  # by: the server's


def test_other_content_under_a_used_id_is_not_the_same_event():
    posted = {"type": "foul", "id": "a1", "against": "home", "number": 2, "penalty": "3"}
    assert not same_event({**posted, "penalty": "2"}, STORED)
    assert not same_event({**posted, "clock": 118.0}, STORED)  # a clock the client gives is content
    assert not same_event({**posted, "card": "yellow"}, STORED)  # a key added
    assert not same_event({k: v for k, v in posted.items() if k != "number"}, STORED)  # a key left out


def test_decide_gives_the_first_answer_to_the_same_event_and_refuses_other_content():
    cfg = config()
    game = decide(new_game(cfg), ev("play"), now=T0).game
    first = {
        "type": "ball_out",
        "id": "b1",
        "line": "side",
        "at": {"x": 100.0, "y": 0.0},
        "last_hit_by": "home",
        "by": {"role": "umpire", "name": "Umpire One"},
    }
    d = decide(game, first, now=T0 + 5)
    again = decide(d.game, {**first, "by": {"role": "umpire", "name": "Umpire Two"}, "expected_seq": 1}, now=T0 + 9)
    assert again.accepted and again.event == d.event and again.game is d.game
    other = decide(d.game, {**first, "last_hit_by": "away"}, now=T0 + 9)
    assert not other.accepted and other.error.code == "duplicate_id"
