"""An entry in progress holds the clock (issue 9; CONTRACT-NOTES §10).

Rule 21: when the umpire blows the whistle "play and the clock are stopped". The official who logs
the stoppage presses its first key at that moment and types the rest for a few seconds; the clock
must not run meanwhile. A ``hold`` stops it at the first key, the stoppage is recorded at the held
time whenever it arrives, and an abandoned entry (``release``) leaves the clock as if it had never
stopped. A clock stamped by an official's device is checked against the official clock (14.b(1)).

Pure engine tests: a live server's ``now`` is passed in, as the service does.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from officiating.engine import MatchConfig, decide, due_events, new_game, to_state

T0 = 1_000_000.0  # the wall time of the first "Play"
_ids = itertools.count(1)
UMPIRE = {"role": "umpire", "name": "Umpire One"}
SCORER = {"role": "scorer", "name": "Scorer"}


def ev(type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "id": f"h{next(_ids)}", **fields}


def config(**match: Any) -> MatchConfig:
    m = {
        "home": {"name": "Blue", "players": [{"number": n, "name": f"Blue {n}", "handicap": 2} for n in range(1, 5)]},
        "away": {"name": "Red", "players": [{"number": n, "name": f"Red {n}", "handicap": 2} for n in range(1, 5)]},
    }
    m.update(match)
    return MatchConfig.from_dict(m)


class Live:
    """A match folded as the server folds it: every event decided at a wall time."""

    def __init__(self, **match: Any):
        self.game = new_game(config(**match))
        self.last = None

    def send(self, event: dict[str, Any], at: float):
        self.last = decide(self.game, event, now=T0 + at)
        if self.last.accepted:
            self.game = self.last.game
        return self.last

    def ok(self, event: dict[str, Any], at: float) -> dict[str, Any]:
        decision = self.send(event, at)
        assert decision.accepted, decision.error
        return decision.event

    def refused(self, event: dict[str, Any], at: float) -> str:
        decision = self.send(event, at)
        assert not decision.accepted
        return decision.error.code

    def state(self, at: float) -> dict[str, Any]:
        return to_state(self.game, now=T0 + at)


def started() -> Live:
    live = Live()
    live.ok(ev("play"), 0.0)
    return live


def test_the_first_key_stops_the_clock_at_its_stamp_on_every_screen():
    live = started()
    live.ok(ev("hold", kind="ball_out", clock=256.0, by=SCORER), 256.05)
    state = live.state(264.0)  # eight seconds of typing later
    assert state["clock"] == {**state["clock"], "elapsed": 256.0, "running": False, "held": True}
    assert state["status"] == "in_play"
    assert state["holds"] == [{"id": state["holds"][0]["id"], "kind": "ball_out", "clock": 256, "by": SCORER}]


def test_the_stoppage_typed_after_the_first_key_is_recorded_at_the_held_clock():
    live = started()
    hold = live.ok(ev("hold", kind="ball_out", clock=256.0), 256.05)
    stored = live.ok(ev("ball_out", line="side", at={"x": 100, "y": 0}, last_hit_by="home", hold=hold["id"]), 264.0)
    assert stored["clock"] == 256.0
    state = live.state(300.0)
    assert state["status"] == "stopped" and state["clock"]["elapsed"] == 256.0
    assert state["clock"]["held"] is False and state["holds"] == []


def test_an_abandoned_entry_leaves_the_clock_as_if_it_had_never_stopped():
    live = started()
    hold = live.ok(ev("hold", kind="foul", clock=100.0), 100.0)
    live.ok(ev("release", target=hold["id"]), 108.0)
    state = live.state(110.0)
    assert state["clock"]["running"] is True and state["clock"]["held"] is False
    assert state["clock"]["elapsed"] == pytest.approx(110.0)


def test_the_seven_minute_horn_comes_after_seven_minutes_of_play_not_of_typing():
    live = started()
    hold = live.ok(ev("hold", kind="whistle", clock=400.0), 400.0)
    assert due_events(live.game, T0 + 430.0) == []  # 30 s of typing: no horn
    live.ok(ev("whistle", reason="other", ball={"x": 150, "y": 80}, hold=hold["id"]), 430.0)
    live.ok(ev("play"), 500.0)
    assert due_events(live.game, T0 + 519.9) == []
    assert [e["kind"] for e in due_events(live.game, T0 + 520.0)] == ["seven"]


def test_a_second_official_joins_the_hold_and_the_clock_stays_at_the_first_key():
    live = started()
    first = live.ok(ev("hold", kind="ball_out", clock=200.0, by=SCORER), 200.0)
    second = live.ok(ev("hold", kind="foul", clock=201.0, by=UMPIRE), 201.5)
    state = live.state(205.0)
    assert state["clock"]["elapsed"] == 200.0
    assert [h["by"]["name"] for h in state["holds"]] == ["Scorer", "Umpire One"]
    assert {h["clock"] for h in state["holds"]} == {200}
    # The umpire's foul arrives first; the scorer's entry is still shown in progress.
    foul = live.ok(ev("foul", against="away", number=2, penalty="3", clock=201.0, hold=second["id"]), 206.0)
    assert foul["clock"] == 200.0
    assert [h["id"] for h in live.state(207.0)["holds"]] == [first["id"]]
    assert (
        live.refused(ev("ball_out", line="side", at={"x": 100, "y": 0}, last_hit_by="home", hold=first["id"]), 208.0)
        == "not_in_play"
    )
    live.ok(ev("release", target=first["id"]), 209.0)
    assert live.state(210.0)["holds"] == [] and live.state(210.0)["clock"]["running"] is False


def test_play_clears_entries_left_in_progress():
    live = started()
    live.ok(ev("hold", kind="foul", clock=50.0), 50.0)
    live.ok(ev("hold", kind="ball_out", clock=50.0), 51.0)
    live.ok(ev("whistle", reason="other", ball={"x": 150, "y": 80}), 55.0)
    assert len(live.state(56.0)["holds"]) == 2
    live.ok(ev("play"), 60.0)
    assert live.state(61.0)["holds"] == []


def test_a_foul_played_on_with_advantage_releases_its_hold():
    live = started()
    hold = live.ok(ev("hold", kind="foul", clock=100.0), 100.0)
    live.ok(ev("foul", against="away", number=1, penalty="3", advantage=True, hold=hold["id"]), 106.0)
    state = live.state(110.0)
    assert state["status"] == "in_play" and state["clock"]["running"] is True
    assert state["clock"]["elapsed"] == pytest.approx(110.0)


def test_a_hold_is_only_for_a_ball_in_play():
    live = Live()
    assert live.refused(ev("hold", kind="foul"), 0.0) == "not_in_play"
    live.ok(ev("play"), 0.0)
    assert live.refused(ev("hold", kind="card"), 1.0) == "invalid_event"


def test_releasing_an_entry_that_is_not_in_progress_is_refused():
    live = started()
    assert live.refused(ev("release", target="nope"), 5.0) == "not_held"


def test_a_clock_set_while_held_is_where_the_clock_resumes():
    live = started()
    hold = live.ok(ev("hold", kind="whistle", clock=100.0), 100.0)
    live.ok(ev("clock_set", clock=90.0, reason="late start"), 105.0)
    live.ok(ev("release", target=hold["id"]), 110.0)
    assert live.state(115.0)["clock"]["elapsed"] == pytest.approx(100.0)


def test_a_void_of_the_hold_is_a_release():
    live = started()
    hold = live.ok(ev("hold", kind="whistle", clock=100.0), 100.0)
    live.ok(ev("void", target=hold["id"], reason="pressed by mistake"), 104.0)
    state = live.state(110.0)
    assert state["clock"]["running"] is True and state["clock"]["elapsed"] == pytest.approx(110.0)


def test_the_period_that_ends_leaves_no_entry_in_progress():
    live = started()
    live.ok(ev("hold", kind="goal", clock=440.0), 440.0)
    live.ok(ev("hold", kind="foul", clock=440.0), 441.0)
    live.ok(ev("goal", team="home", number=1), 445.0)  # after the seven-minute horn: the period ends
    state = live.state(446.0)
    assert state["status"] == "interval" and state["holds"] == []


# -- clocks stamped by an official's device (14.b(1)) -----------------------------------------------


def test_a_stamp_ahead_of_the_official_clock_is_refused():
    live = started()
    assert live.refused(ev("goal", team="home", number=1, clock=105.0), 100.0) == "clock_ahead"
    assert live.last.error.rule == "14.b(1)"


def test_a_stamp_a_little_ahead_is_clock_sync_error_and_taken_as_the_official_time():
    live = started()
    stored = live.ok(ev("goal", team="home", number=1, clock=100.6), 100.0)
    assert stored["clock"] == pytest.approx(100.0)


def test_a_stamp_further_back_than_the_window_is_refused():
    live = started()
    assert (
        live.refused(ev("ball_out", line="side", at={"x": 100, "y": 0}, last_hit_by="home", clock=30.0), 100.0)
        == "clock_too_old"
    )
    assert live.last.error.rule == "14.b(1)"


def test_a_stamp_within_the_window_is_the_time_of_the_stoppage():
    live = started()
    stored = live.ok(ev("ball_out", line="side", at={"x": 100, "y": 0}, last_hit_by="home", clock=92.0), 100.0)
    assert stored["clock"] == 92.0
    assert live.state(120.0)["clock"]["elapsed"] == 92.0


def test_a_stamp_before_the_previous_event_is_refused():
    live = started()
    live.ok(ev("whistle", reason="other", ball={"x": 150, "y": 80}, clock=50.0), 50.0)
    live.ok(ev("play"), 60.0)  # resumes at 50
    assert live.refused(ev("goal", team="home", number=1, clock=45.0), 62.0) == "clock_before_previous_event"
    assert live.last.error.rule == "14.b(1)"


@pytest.mark.parametrize("lang, word", [("en", "official clock"), ("es", "reloj oficial")])
def test_the_stamp_refusals_speak_the_officials_language(lang, word):
    live = started()
    live.refused(ev("goal", team="home", number=1, clock=105.0), 100.0)
    assert word in live.last.error.message(lang)


# -- "Play" runs the clock from the key ----------------------------------------------------------------


def test_play_runs_the_clock_from_the_key_not_from_the_request():
    live = Live()
    stored = live.ok(ev("play", keyed_at=T0 + 9.96), 10.0)  # 40 ms on the network
    assert stored["server_time"] == pytest.approx(T0 + 9.96)
    assert live.state(20.0)["clock"]["elapsed"] == pytest.approx(10.04)


def test_a_play_key_never_precedes_the_event_before_it():
    live = started()
    live.ok(ev("whistle", reason="other", ball={"x": 150, "y": 80}), 30.0)
    stored = live.ok(ev("play", keyed_at=T0 + 29.9), 30.05)  # sync error: a hair before the whistle
    assert stored["server_time"] == pytest.approx(T0 + 30.0)


@pytest.mark.parametrize("offset, code", [(5.0, "clock_ahead"), (-1801.0, "clock_too_old")])
def test_an_implausible_play_key_is_refused(offset, code):
    live = Live()
    assert live.refused(ev("play", keyed_at=T0 + 100.0 + offset), 100.0) == code
    assert live.last.error.rule == "14.b(1)"
