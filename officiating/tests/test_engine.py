"""The engine's contract, sentence by sentence (docs/MATCH-LOG.md and Rules 14, 21, 22).

Pure engine tests: no Django, no database. Build a log, fold it, look at the state.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path
from typing import Any

import pytest

from officiating.engine import (
    Decision,
    InvalidLog,
    MatchConfig,
    decide,
    due_events,
    load_log,
    new_game,
    replay,
    to_state,
)

ENGINE_DIR = Path(__file__).resolve().parents[1] / "engine"
_ids = itertools.count(1)
CENTRE = {"x": 150.0, "y": 80.0}


def ev(type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "id": f"e{next(_ids)}", **fields}


def log(*events: dict[str, Any], **match: Any) -> dict[str, Any]:
    m = {
        "home": {"name": "Blue", "players": [{"number": n, "name": f"Blue {n}", "handicap": 2} for n in range(1, 5)]},
        "away": {"name": "Red", "players": [{"number": n, "name": f"Red {n}", "handicap": 2} for n in range(1, 5)]},
    }
    m.update(match)
    return {"format": "polo-match-log/1", "match": m, "events": list(events)}


def run(*events: dict[str, Any], **match: Any) -> dict[str, Any]:
    return replay(log(*events, **match))


def last_error(out: dict[str, Any]) -> str | None:
    r = out["results"][-1]
    return None if r["accepted"] else r["error"]["code"]


def periods(n: int) -> list[dict[str, Any]]:
    out = []
    for _ in range(n):
        out += [ev("play"), ev("horn", kind="final", clock=450.0)]
    return out


# -- the boundary --------------------------------------------------------------------------------------


def test_the_engine_imports_nothing_from_django_or_the_app():
    for path in ENGINE_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and node.level == 0
                else []
            )
            for name in names:
                assert not name.startswith(("django", "matches", "polo", "channels", "celery")), (path, name)


def test_a_decision_names_the_new_game_and_the_stored_event():
    game = new_game(MatchConfig.from_dict(log()["match"]))
    d = decide(game, ev("play"))
    assert isinstance(d, Decision) and d.accepted and d.error is None
    assert d.game is not game and to_state(game)["status"] == "scheduled"  # the old game is untouched
    assert to_state(d.game)["status"] == "in_play"


# -- Rule 14: the clock ------------------------------------------------------------------------------


def test_goal_after_the_final_horn_does_not_count():
    out = run(ev("play"), ev("goal", team="home", number=1, clock=450.5))
    assert out["results"][-1]["error"] == {
        "code": "goal_after_time",
        "rule": "14.b(1)",
        "message": "A goal scored after time has expired on the official clock does not count.",
    }
    assert out["state"]["score"] == {"home": 0, "away": 0}


def test_a_goal_at_exactly_seven_thirty_counts():
    out = run(ev("play"), ev("goal", team="home", number=1, clock=450.0))
    assert out["state"]["score"]["home"] == 1
    assert out["state"]["status"] == "interval"  # and it ends the period (after the 7-minute horn)


def test_a_goal_after_the_recorded_final_horn_does_not_count_even_without_a_clock():
    out = run(ev("play"), ev("horn", kind="final", clock=450.0), ev("goal", team="away"))
    assert last_error(out) == "goal_after_time"


def test_the_seven_minute_horn_alone_does_not_stop_play():
    out = run(ev("play"), ev("horn", kind="seven", clock=420.0))
    assert out["state"]["status"] == "in_play"
    assert out["state"]["clock"]["phase"] == "extra"


def test_an_ordinary_period_runs_on_after_the_seven_minute_horn_while_the_ball_is_in_play():
    out = run(ev("play"), ev("mount", team="home", number=1, horse="Pampa", clock=440.0))
    assert out["state"]["status"] == "in_play" and out["state"]["clock"]["elapsed"] == 440.0


@pytest.mark.parametrize(
    "stoppage",
    [
        ev("whistle", reason="lost_helmet", ball={"x": 100.0, "y": 100.0}, clock=421.0),
        ev("ball_out", line="side", at={"x": 100.0, "y": 0.0}, last_hit_by="home", clock=421.0),
        ev("goal", team="home", number=2, clock=421.0),
        ev("foul", against="away", number=1, penalty="3", clock=421.0),
    ],
    ids=["whistle", "ball_out", "goal", "foul"],
)
def test_an_ordinary_period_ends_at_the_first_stoppage_after_the_seven_minute_horn(stoppage):
    out = run(ev("play"), dict(stoppage, id=f"s{next(_ids)}"))
    state = out["state"]
    assert state["status"] == "interval"
    assert state["restart"]["next_period"] is True
    assert state["clock"]["phase"] == "over"


def test_an_event_after_seven_thirty_finds_the_period_over():
    """14.b(1): "the period ends at 7 minutes and 30 seconds expired on the official clock"."""
    out = run(ev("play"), ev("whistle", reason="other", ball=CENTRE, clock=455.0), ev("play"))
    assert [r["accepted"] for r in out["results"]] == [True, True, True]
    assert out["state"]["period"]["number"] == 2


def test_the_final_regulation_period_ends_at_the_double_horn_with_a_winner():
    out = run(
        *periods(3),
        ev("play"),
        ev("goal", team="away", number=4, clock=10.0),
        ev("play"),
        ev("horn", kind="final", clock=450.0),
    )
    assert out["state"]["status"] == "final"
    assert (out["state"]["winner"], out["state"]["result"]) == ("away", "regulation")


def test_a_stoppage_after_the_seven_minute_horn_of_the_final_period_sets_the_clock_back_to_445():
    out = run(*periods(3), ev("play"), ev("whistle", reason="player_fall", ball=CENTRE, clock=449.0))
    assert out["state"]["clock"]["elapsed"] == 445.0
    assert out["state"]["restart"]["min_clock_remaining"] == 5


def test_a_stoppage_after_the_seven_minute_horn_of_the_final_period_keeps_an_earlier_clock():
    out = run(*periods(3), ev("play"), ev("whistle", reason="player_fall", ball=CENTRE, clock=430.0))
    assert out["state"]["clock"]["elapsed"] == 430.0


def test_the_umpires_may_correct_the_official_clock():
    out = run(ev("play"), ev("clock_set", clock=300.0, reason="the clock did not stop"))
    assert out["state"]["clock"]["elapsed"] == 300.0
    out = run(
        ev("play"),
        ev("whistle", reason="other", ball=CENTRE, clock=100.0),
        ev("clock_set", clock=90.0, reason="late whistle"),
    )
    assert out["state"]["clock"]["elapsed"] == 90.0


def test_halftime_follows_the_middle_period():
    out = run(*periods(2))
    assert out["state"]["interval"]["kind"] == "halftime" and out["state"]["interval"]["seconds"] == 300


def test_a_clock_that_runs_backwards_is_refused():
    out = run(
        ev("play"),
        ev("mount", team="home", number=1, horse="Pampa", clock=100.0),
        ev("mount", team="home", number=1, horse="Pampa", clock=50.0),
    )
    assert last_error(out) == "clock_before_previous_event"  # 14.b(1): a clear code (issue 9)


# -- live clock: now, anchors and due horns -----------------------------------------------------------------


def test_decide_fills_a_missing_clock_from_the_running_clock():
    game = new_game(MatchConfig.from_dict(log()["match"]))
    game = decide(game, ev("play"), now=1000.0).game
    d = decide(game, ev("goal", team="home", number=1), now=1061.5)
    assert d.accepted and d.event["clock"] == 61.5 and d.event["server_time"] == 1061.5
    state = to_state(d.game)
    assert state["clock"] == {**state["clock"], "elapsed": 61.5, "running": False}


def test_a_stored_log_replays_without_now():
    game = new_game(MatchConfig.from_dict(log()["match"]))
    stored = []
    for event, now in ((ev("play"), 1000.0), (ev("goal", team="away", number=2), 1100.0), (ev("play"), 1130.0)):
        d = decide(game, event, now=now)
        game = d.game
        stored.append(d.event)
    replayed = replay(log(*stored))["state"]
    assert replayed["score"] == {"home": 0, "away": 1}
    assert replayed["clock"]["elapsed"] == 100.0 and replayed["clock"]["anchor"] == 1130.0


def test_to_state_projects_a_running_clock_but_never_past_the_horn():
    game = new_game(MatchConfig.from_dict(log()["match"]))
    game = decide(game, ev("play"), now=1000.0).game
    assert to_state(game, now=1010.0)["clock"]["elapsed"] == 10.0
    assert to_state(game, now=2000.0)["clock"]["elapsed"] == 450.0


def test_due_events_are_the_horns_the_clock_has_reached_with_stable_ids():
    game = new_game(MatchConfig.from_dict(log()["match"]))
    game = decide(game, ev("play"), now=1000.0).game
    assert due_events(game, 1100.0) == []
    due = due_events(game, 1455.0)
    assert [(e["kind"], e["clock"], e["id"]) for e in due] == [
        ("seven", 420.0, "auto:1:seven"),
        ("final", 450.0, "auto:1:final"),
    ]
    seven = decide(game, due[0], now=1455.0).game
    assert to_state(seven, now=1440.0)["clock"]["elapsed"] == 440.0  # the horn does not move a live clock
    for e in due:
        game = decide(game, e, now=1455.0).game
    again = decide(game, due[-1], now=1456.0)
    assert again.accepted and again.game is game  # appending it twice records it once
    assert to_state(game)["status"] == "interval"


def test_the_scorers_horn_after_the_servers_places_the_next_periods_throw_in_once():
    """The server appends the double horn the clock made due, without the ball; the scorer's horn
    with the ball then places the next period's throw-in (22.g). Only where nobody has said yet:
    a second horn changes nothing, and voiding the one that placed it brings the centre back."""
    game = new_game(MatchConfig.from_dict(log()["match"]))
    game = decide(game, ev("play"), now=1000.0).game
    for e in due_events(game, 1455.0):
        game = decide(game, e, now=1455.0).game
    assert to_state(game)["restart"]["spot"] == {"x": 150.0, "y": 80.0}
    placed = ev("horn", kind="final", clock=450.0, ball={"x": 100.0, "y": 30.0})
    game = decide(game, placed, now=1460.0).game
    state = to_state(game)
    assert (state["status"], state["restart"]["spot"], state["restart"]["next_period"]) == (
        "interval",
        {"x": 100.0, "y": 30.0},
        True,
    )
    later = decide(game, ev("horn", kind="final", clock=450.0, ball={"x": 200.0, "y": 120.0}), now=1465.0)
    assert later.accepted and to_state(later.game)["restart"] == state["restart"]

    server = [ev("play"), {"type": "horn", "kind": "final", "clock": 450.0, "id": "auto:1:final"}]
    voided = run(*server, dict(placed), ev("void", target=placed["id"]))
    assert voided["state"]["restart"]["spot"] == {"x": 150.0, "y": 80.0}


def test_the_scorers_horn_places_the_overtimes_throw_in_after_a_tie_at_the_servers_horn():
    """A final period that ends tied at the clock's double horn waits for the committee (14.c);
    the scorer's horn with the ball places the overtime's throw-in (22.g): where the ball was, 30
    yards in from the east side, toward it. A match already decided at the horn has no restart
    to place."""
    server = {"type": "horn", "kind": "final", "clock": 450.0, "id": "auto:1:final"}
    ball = {"x": 220.0, "y": 130.0}
    tied = run(ev("play"), server, ev("horn", kind="final", clock=450.0, ball=ball), ev("overtime"), periods=1)
    assert tied["state"]["status"] == "interval"
    assert (tied["state"]["restart"]["spot"], tied["state"]["restart"]["toward"]) == (ball, "east")
    won = run(
        ev("play"),
        ev("goal", team="home", number=1, clock=100.0),
        ev("play"),
        server,
        ev("horn", kind="final", clock=450.0, ball=ball),
        periods=1,
    )
    assert won["results"][-1]["accepted"]
    assert (won["state"]["status"], won["state"]["restart"]) == ("final", None)


def test_a_horn_with_the_ball_after_a_period_ended_otherwise_changes_nothing():
    """After the seven-minute horn a ball over the end line ends the period with its knock-in
    (14.b(2)): the double horn that follows, ball or not, leaves that restart alone."""
    ended = run(ev("play"), ev("ball_out", line="end", at={"x": 0.0, "y": 73.0}, last_hit_by="away", clock=425.0))
    horn = run(
        ev("play"),
        ev("ball_out", line="end", at={"x": 0.0, "y": 73.0}, last_hit_by="away", clock=425.0),
        ev("horn", kind="final", clock=450.0, ball={"x": 100.0, "y": 30.0}),
    )
    assert horn["results"][-1]["accepted"]
    assert horn["state"]["restart"] == ended["state"]["restart"]
    assert horn["state"]["restart"]["kind"] == "knock_in"


# -- the log: ids, sequence numbers, corrections ------------------------------------------------------------


def test_posting_the_same_event_twice_records_it_once():
    goal = ev("goal", team="home", number=1, clock=30.0)
    out = run(ev("play"), goal, dict(goal))
    assert [r["accepted"] for r in out["results"]] == [True, True, True]
    assert out["state"]["score"]["home"] == 1 and out["state"]["last_seq"] == 2


def test_a_used_id_with_different_content_is_a_duplicate():
    goal = ev("goal", team="home", number=1, clock=30.0)
    out = run(ev("play"), goal, dict(goal, team="away"))
    assert last_error(out) == "duplicate_id"


def test_a_client_behind_the_log_gets_stale_sequence():
    out = run(
        ev("play", expected_seq=0),
        ev("goal", team="home", clock=5.0, expected_seq=1),
        ev("whistle", reason="other", ball=CENTRE, expected_seq=1),
    )
    assert [r["accepted"] for r in out["results"]][:2] == [True, True]
    assert last_error(out) == "stale_sequence"


def test_a_void_makes_its_target_stop_counting():
    goal = ev("goal", team="home", number=1, clock=30.0)
    out = run(ev("play"), goal, ev("void", target=goal["id"], reason="no goal"))
    assert out["state"]["score"] == {"home": 0, "away": 0}
    assert out["state"]["status"] == "in_play"
    assert out["state"]["last_seq"] == 3  # the void counts


def test_a_void_of_an_unknown_or_already_voided_event_is_refused():
    goal = ev("goal", team="home", number=1, clock=30.0)
    assert last_error(run(ev("play"), ev("void", target="nope"))) == "void_unknown_target"
    out = run(ev("play"), goal, ev("void", target=goal["id"]), ev("void", target=goal["id"]))
    assert last_error(out) == "void_unknown_target"


def test_a_void_that_would_invalidate_a_later_event_is_refused():
    goal = ev("goal", team="home", number=1, clock=30.0)
    out = run(ev("play"), goal, ev("play"), ev("void", target=goal["id"]))
    assert last_error(out) == "void_would_invalidate"  # without the goal, the ball was already in play


def test_voiding_far_back_in_a_long_log_uses_the_right_history():
    """A void re-folds from a snapshot before its target; an earlier void must not be undone."""
    events = [ev("play"), ev("whistle", reason="other", ball=CENTRE, clock=1.0)]
    first = ev("card", team="home", number=1, color="yellow")
    events += [first, ev("play"), ev("goal", team="away", number=2, clock=2.0), ev("play")]
    for i in range(40):
        events += [
            ev("ball_out", line="side", at={"x": 150.0, "y": 0.0}, last_hit_by="home", clock=3.0 + i * 5),
            ev("play"),
        ]
    middle = ev("card", team="away", number=2, color="red")
    events += [
        ev("ball_out", line="side", at={"x": 150.0, "y": 0.0}, last_hit_by="home", clock=300.0),
        middle,
        ev("play"),
        ev("void", target=middle["id"]),
        ev("void", target=first["id"]),
    ]
    out = run(*events)
    assert [r["accepted"] for r in out["results"]] == [True] * len(events)
    without = run(*[e for e in events if e["type"] != "void" and e not in (first, middle)])
    assert {**out["state"], "last_seq": 0} == {**without["state"], "last_seq": 0}
    assert "cards" not in out["state"] and out["state"]["score"] == {"home": 0, "away": 1}


# -- shape ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "event",
    [
        {"type": "teleport", "id": "x1"},
        {"type": "goal", "id": "x2"},
        {"type": "goal", "id": "x3", "team": "blue"},
        {"type": "ball_out", "id": "x4", "line": "side", "at": {"x": 400.0, "y": 0.0}, "last_hit_by": "home"},
        {"type": "ball_out", "id": "x5", "line": "end", "at": {"x": 0.0, "y": 80.0}, "last_hit_by": "home"},
        {"type": "foul", "id": "x6", "against": "home", "number": 1, "penalty": "5a"},
        {"type": "goal", "id": "x7", "team": "home", "number": 5},
        {"type": "goal", "team": "home"},
        {"type": "goal", "id": "x8", "team": "home", "clock": -1},
    ],
    ids=[
        "unknown-type",
        "missing-team",
        "bad-team",
        "off-the-field",
        "between-the-posts",
        "5a-without-spot",
        "number-5",
        "no-id",
        "negative-clock",
    ],
)
def test_a_malformed_event_is_refused_as_invalid_event(event):
    assert last_error(run(ev("play"), event)) == "invalid_event"


def test_a_player_not_on_the_roster_is_unknown():
    m = log()["match"]
    m["away"]["players"] = m["away"]["players"][:3]
    out = replay({"match": m, "events": [ev("play"), ev("goal", team="away", number=4, clock=3.0)]})
    assert last_error(out) == "unknown_player"


def test_a_rejected_event_changes_nothing():
    game = new_game(MatchConfig.from_dict(log()["match"]))
    game = decide(game, ev("play")).game
    before = to_state(game)
    d = decide(game, ev("play"))
    assert not d.accepted and d.error.code == "already_in_play" and d.game is game
    assert to_state(d.game) == before


def test_a_log_that_is_not_a_match_log_is_invalid():
    for bad in (
        None,
        [],
        {"match": None},
        {"format": "other/1", "match": log()["match"]},
        {"match": log()["match"], "events": {}},
        {"match": log()["match"], "events": [1]},
        {"match": {"home": {"name": "A"}}},
        {"match": {**log()["match"], "periods": 0}},
    ):
        with pytest.raises(InvalidLog):
            load_log(bad)


# -- score ----------------------------------------------------------------------------------------------


def test_the_score_is_the_handicap_goals_plus_the_goals_that_stand():
    out = run(
        ev("play"),
        ev("goal", team="away", number=1, clock=10.0),
        ev("play"),
        ev("foul", against="away", number=2, penalty="1", clock=20.0),
        ev("play"),
        ev("goal", team="home", number=4, own_goal=True, clock=30.0),
        home={"name": "Blue", "handicap_goals": 0.5},
        away={"name": "Red", "handicap_goals": 2},
    )
    # a Penalty 1 goal and an own goal (scored by a Red player, credited to Blue) both count
    assert out["state"]["score"] == {"home": 2.5, "away": 3}
    assert out["state"]["goals"] == {"home": 2, "away": 1}


# -- who is playing ---------------------------------------------------------------------------------------

UNCONSCIOUS = ev("whistle", reason="injured_player", team="home", number=2, unconscious=True, ball=CENTRE, clock=10.0)


@pytest.mark.parametrize(
    "event",
    [
        ev("goal", team="home", number=2, clock=20.0),
        ev("goal", team="away", number=2, own_goal=True, clock=20.0),
        ev("foul", against="home", number=2, penalty="5b", clock=20.0),
        ev("mount", team="home", number=2, horse="Pampa"),
    ],
    ids=["goal", "own-goal", "foul", "mount"],
)
def test_an_unconscious_player_may_take_no_part_that_day(event):
    out = run(ev("play"), UNCONSCIOUS, ev("play"), event)
    assert out["results"][-1]["error"]["code"] == "player_unavailable"
    assert out["results"][-1]["error"]["rule"] == "21.d"


def test_an_unconscious_player_may_not_hit_in_the_shootout():
    out = run(
        *periods(3),
        ev("play"),
        UNCONSCIOUS,
        ev("play"),
        ev("horn", kind="final", clock=450.0),
        ev("shootout_start", format="single", first="home", order={"home": [2], "away": [1]}),
    )
    assert last_error(out) == "player_unavailable"


# -- penalties --------------------------------------------------------------------------------------------


def test_a_penalty_1_in_overtime_wins_the_game():
    out = run(*periods(4), ev("overtime"), ev("play"), ev("foul", against="away", number=3, penalty="1", clock=50.0))
    assert (out["state"]["winner"], out["state"]["result"], out["state"]["status"]) == ("home", "overtime", "final")


def test_an_advantage_foul_lets_play_go_on():
    out = run(ev("play"), ev("foul", against="home", number=1, penalty="2", advantage=True, clock=9.0))
    assert out["state"]["status"] == "in_play" and out["state"]["restart"] is None


def test_a_foul_before_the_first_period_opens_it_with_the_penalty():
    out = replay(log(ev("foul", against="away", number=1, penalty="5b", card="red")), each=True)
    assert out["results"][0]["accepted"]
    assert out["state"]["status"] == "scheduled"
    assert {k: out["state"]["restart"][k] for k in ("kind", "team", "penalty")} == {
        "kind": "penalty",
        "team": "home",
        "penalty": "5b",
    }


def test_a_restart_violation_needs_a_restart_being_taken():
    assert (
        last_error(
            run(
                ev("play"),
                ev("whistle", reason="other", ball=CENTRE, clock=5.0),
                ev("restart_violation", kind="late", team="home"),
            )
        )
        == "restart_violation_not_applicable"
    )
    out = run(
        ev("play"),
        ev("ball_out", line="end", at={"x": 0.0, "y": 40.0}, last_hit_by="away", clock=5.0),
        ev("restart_violation", kind="encroachment", team="home"),
    )
    assert last_error(out) == "restart_violation_not_applicable"  # the team knocking in cannot encroach


# -- horses ---------------------------------------------------------------------------------------------


def test_returning_an_excused_horse_is_forfeiture():
    out = run(
        ev("play"),
        ev("whistle", reason="injured_horse", team="away", number=3, horse="Lucera", ball=CENTRE, clock=10.0),
        ev("mount", team="away", number=3, horse="Pampa"),
        ev("play"),
        ev("mount", team="away", number=1, horse="Lucera", clock=100.0),
    )
    state = out["state"]
    assert (state["status"], state["winner"], state["result"]) == ("final", "home", "forfeit")
    assert state["excused_horses"] == [{"team": "away", "number": 3, "horse": "Lucera", "rule": "21.f(1)"}]


def test_a_forfeit_may_be_recorded_after_the_game_but_not_after_24_hours():
    game = new_game(MatchConfig.from_dict(log()["match"]))
    for e in [
        *periods(3),
        ev("play"),
        ev("goal", team="home", number=1, clock=1.0),
        ev("play"),
        ev("horn", kind="final", clock=450.0),
    ]:
        game = decide(game, e, now=1000.0).game
    assert to_state(game)["status"] == "final"
    late = decide(game, ev("forfeit", team="home", reason="video"), now=1000.0 + 25 * 3600)
    assert late.error.code == "forfeit_too_late"
    d = decide(game, ev("forfeit", team="home", reason="video"), now=1000.0 + 3600)
    assert d.accepted and to_state(d.game)["winner"] == "away" and to_state(d.game)["result"] == "forfeit"


# -- messages -----------------------------------------------------------------------------------------------


def test_rejections_and_restarts_speak_spanish():
    out = replay(
        log(
            ev("play"),
            ev("goal", team="home", clock=460.0),
            ev("ball_out", line="side", at={"x": 30.0, "y": 160.0}, last_hit_by="home", clock=100.0),
        ),
        lang="es",
    )
    assert (
        out["results"][1]["error"]["message"]
        == "Un gol marcado después de que el tiempo se haya agotado en el reloj oficial no cuenta."
    )
    assert (
        out["state"]["restart"]["message"]
        == "Regla 22.f(i)+(v): tiro libre para Red desde la línea de 60 yardas, a 10 yardas dentro — sin toque"
    )


# -- more rule sentences ----------------------------------------------------------------------------------


def test_a_foul_after_the_seven_minute_horn_of_the_final_period_is_executed_with_at_least_5_seconds():
    out = run(*periods(3), ev("play"), ev("foul", against="home", number=2, penalty="2", clock=447.5))
    state = out["state"]
    assert state["status"] == "stopped" and state["clock"]["elapsed"] == 445.0
    assert {k: state["restart"][k] for k in ("kind", "team", "penalty", "min_clock_remaining", "next_period")} == {
        "kind": "penalty",
        "team": "away",
        "penalty": "2",
        "min_clock_remaining": 5,
        "next_period": False,
    }


def test_a_throw_in_too_near_the_side_is_moved_to_where_the_teams_can_line_up():
    """22.e(4): "from the nearest point that allows it"."""
    out = run(ev("play"), ev("whistle", reason="other", ball={"x": 2.0, "y": 1.0}, clock=9.0))
    assert out["state"]["restart"]["spot"] == {"x": 5.0, "y": 5.0}
    assert out["state"]["restart"]["toward"] == "west"


def test_a_courtesy_change_at_a_neutral_play_restarts_with_a_throw_in_after_a_minute():
    out = run(
        ev("play"),
        ev("whistle", reason="courtesy_change", ball={"x": 150.0, "y": 120.0}, clock=200.0),
        courtesy_change=True,
    )
    assert out["state"]["restart"]["kind"] == "throw_in" and out["state"]["restart"]["toward"] == "east"
    assert out["state"]["timers"] == [
        {"kind": "courtesy_change", "seconds": 60, "team": None, "number": None, "started_at": None, "rule": "21.f(2)"}
    ]


def test_a_game_suspended_at_a_stoppage_resumes_with_the_restart_that_was_due():
    out = run(
        ev("play"),
        ev("ball_out", line="end", at={"x": 300.0, "y": 30.0}, last_hit_by="home", clock=9.0),
        ev("suspend", reason="rain"),
        ev("resume"),
    )
    assert out["state"]["status"] == "stopped"
    assert out["state"]["restart"]["kind"] == "knock_in" and out["state"]["restart"]["team"] == "away"


def test_overtime_horns_have_their_own_ids():
    game = new_game(MatchConfig.from_dict(log(periods=1)["match"]))
    for e in (ev("play"), ev("horn", kind="final")):
        game = decide(game, e, now=0.0).game
    game = decide(game, ev("overtime"), now=10.0).game
    game = decide(game, ev("play"), now=200.0).game
    assert [e["id"] for e in due_events(game, 700.0)] == ["auto:2:seven", "auto:2:final"]


def test_a_knock_in_restart_names_its_ten_seconds_and_the_spanish_message():
    out = replay(
        log(ev("play"), ev("ball_out", line="end", at={"x": 0.0, "y": 73.0}, last_hit_by="away", clock=9.0)), lang="es"
    )
    restart = out["state"]["restart"]
    assert (restart["hit_within_seconds"], restart["spot"]) == (10, {"x": 0.0, "y": 71.0})
    assert (
        restart["message"] == "Regla 22.a: saque de fondo de Blue, a 5 yardas del poste del arco o de la tabla lateral"
    )


@pytest.mark.parametrize(
    "event",
    [
        ev("goal", team="home", number=1),
        ev("ball_out", line="side", at={"x": 100.0, "y": 0.0}, last_hit_by="home"),
        ev("foul", against="home", number=1, penalty="3", advantage=True),
        ev("horn", kind="seven"),
    ],
    ids=["goal", "ball_out", "advantage", "horn-before-the-game"],
)
def test_what_needs_the_ball_in_play_is_refused_while_it_is_not(event):
    assert last_error(run(event)) == "not_in_play"
    if event["type"] != "horn":
        stopped = run(ev("play"), ev("whistle", reason="other", ball=CENTRE, clock=3.0), dict(event))
        assert last_error(stopped) == "not_in_play"


# -- the wall time a live server stores with each event ---------------------------------------------


def _live(*events: tuple[dict[str, Any], float]):
    game = new_game(MatchConfig.from_dict(log()["match"]))
    for event, now in events:
        d = decide(game, event, now=now)
        assert d.accepted, d.error
        game = d.game
    return game


def test_where_the_ball_went_out_is_never_taken_for_the_time_it_was_logged():
    out = ev("ball_out", line="side", at={"x": 100.0, "y": 0.0}, last_hit_by="home", deflected_off="none")
    game = _live((ev("play"), 1000.0), (out, 1010.0))
    stored = game.log.entries[-1].event
    assert stored["at"] == {"x": 100.0, "y": 0.0} and stored["server_time"] == 1010.0
    assert stored["clock"] == 10.0


def test_a_retry_that_moves_where_the_ball_went_out_is_a_different_event():
    out = ev("ball_out", line="side", at={"x": 100.0, "y": 0.0}, last_hit_by="home", deflected_off="none")
    game = _live((ev("play"), 1000.0), (out, 1010.0))
    moved = {**out, "at": {"x": 120.0, "y": 0.0}}
    d = decide(game, moved, now=1011.0)
    assert not d.accepted and d.error.code == "duplicate_id"
    assert decide(game, dict(out), now=1012.0).accepted  # the same event again: the first answer


def test_a_void_refolds_a_live_log_with_its_wall_times():
    """Rule 14.b(1) via the log: after a correction the clock runs from the same anchor."""
    goal = ev("goal", team="home", number=1)
    out = ev("ball_out", line="side", at={"x": 100.0, "y": 0.0}, last_hit_by="home", deflected_off="none")
    game = _live((ev("play"), 1000.0), (out, 1010.0), (ev("play"), 1020.0), (goal, 1030.0))
    d = decide(game, ev("void", target=goal["id"], reason="no goal: wide"), now=1031.0)
    assert d.accepted, d.error
    state = to_state(d.game, now=1031.0)
    assert state["status"] == "in_play" and state["clock"]["running"]
    # elapsed 10 s before the ball out, then running again from 1020: 21 s at 1031.
    assert abs(state["clock"]["elapsed"] - 21.0) < 1e-6
