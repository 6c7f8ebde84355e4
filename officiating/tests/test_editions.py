"""The rule edition is a seam: every number of the rulebook comes from the ``Edition`` that
``match.rules`` names; an edition the engine does not know is refused; the state tells the
screens the numbers they show (``edition``, ``limits``).

Pure engine tests. The test edition TEST-SHORT (``editions.py``) is USPA 2026 with 6-minute
periods, 20 seconds of extra time and the Penalty 2 spot 20 yards out.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path
from typing import Any

import pytest

from officiating.engine import (
    USPA_2026,
    ConfigError,
    InvalidLog,
    MatchConfig,
    UnknownEdition,
    decide,
    due_events,
    edition,
    load_log,
    new_game,
    replay,
    to_state,
)
from officiating.schemas import state_errors
from officiating.tests.editions import TEST_SHORT

ENGINE_DIR = Path(__file__).resolve().parents[1] / "engine"
_ids = itertools.count(1)


def ev(type_: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "id": f"ed{next(_ids)}", **fields}


def match(**fields: Any) -> dict[str, Any]:
    return {"home": {"name": "Blue"}, "away": {"name": "Red"}, **fields}


def run(*events: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return replay({"format": "polo-match-log/1", "match": match(**fields), "events": list(events)})


# -- choosing the edition ---------------------------------------------------------------------------


def test_the_config_s_edition_is_the_one_match_rules_names():
    assert MatchConfig.from_dict(match()).edition is USPA_2026  # the contract's default
    assert MatchConfig.from_dict(match(rules="USPA-2026")).rules == "USPA-2026"
    assert MatchConfig.from_dict(match(rules="TEST-SHORT")).edition is TEST_SHORT


def test_an_edition_the_engine_does_not_know_is_refused_in_one_line():
    with pytest.raises(UnknownEdition, match=r"^unknown rule edition 'USPA-1999' \(known: .*USPA-2026\)$"):
        edition("USPA-1999")
    with pytest.raises(ConfigError, match=r"^match\.rules: unknown rule edition 'USPA-1999'"):
        MatchConfig.from_dict(match(rules="USPA-1999"))
    with pytest.raises(InvalidLog, match="unknown rule edition 'USPA-1999'") as refused:
        load_log({"match": match(rules="USPA-1999"), "events": []})
    assert "\n" not in str(refused.value)
    assert isinstance(refused.value, ValueError)


def test_the_periods_a_config_leaves_out_are_the_edition_s_and_a_config_may_set_its_own():
    short = MatchConfig.from_dict(match(rules="TEST-SHORT"))
    assert (short.period_seconds, short.extra_seconds, short.period_end) == (360.0, 20.0, 380.0)
    own = MatchConfig.from_dict(match(rules="TEST-SHORT", period_seconds=300, extra_seconds=30))
    assert (own.period_seconds, own.period_end) == (300, 330)
    uspa = MatchConfig.from_dict(match())
    assert (uspa.periods, uspa.period_seconds, uspa.period_end, uspa.interval_seconds, uspa.halftime_seconds) == (
        4,
        420.0,
        450.0,
        180.0,
        300.0,
    )


# -- the numbers come from the edition ----------------------------------------------------------------


def test_the_double_horn_and_the_goal_after_time_follow_the_edition():
    short = run(ev("play"), ev("goal", team="home", clock=381.0), rules="TEST-SHORT")
    assert short["results"][-1]["error"]["code"] == "goal_after_time"
    uspa = run(ev("play"), ev("goal", team="home", clock=381.0))
    assert uspa["results"][-1]["accepted"] and uspa["state"]["status"] == "stopped"  # before the 7-minute horn


def test_the_clock_makes_the_edition_s_horns_due():
    game = new_game(MatchConfig.from_dict(match(rules="TEST-SHORT")))
    game = decide(game, ev("play"), now=1000.0).game
    assert [(e["kind"], e["clock"]) for e in due_events(game, 1000.0 + 381)] == [("seven", 360.0), ("final", 380.0)]


def test_the_penalty_2_spot_is_the_edition_s():
    foul = ev("foul", against="home", number=2, penalty="2", clock=100.0)
    assert run(ev("play"), foul, rules="TEST-SHORT")["state"]["restart"]["spot"] == {"x": 20.0, "y": 80.0}
    assert run(ev("play"), dict(foul, id="p2"))["state"]["restart"]["spot"] == {"x": 30.0, "y": 80.0}


def test_the_restart_sentences_say_the_edition_s_numbers():
    """USPA 2026 reads as it always has (the sentences take their numbers from the edition)."""
    out = run(ev("play"), ev("ball_out", line="side", at={"x": 270.0, "y": 160.0}, last_hit_by="away", clock=10.0))
    assert (
        out["state"]["restart"]["message"]
        == "Rule 22.f(i)+(v): free hit to Blue from the 60-yard line, 10 yards in — no tapping"
    )


# -- what the screens read -------------------------------------------------------------------------


def test_the_state_names_the_edition_and_gives_the_screens_its_numbers():
    state = to_state(new_game(MatchConfig.from_dict(match())))
    assert state["edition"] == "USPA-2026"
    assert state["limits"] == {
        "knock_in_seconds": 10,
        "foul_shot_seconds": 20,
        "count_seconds": 8,
        "to_play_seconds": 5,
        "goal_return_seconds": 25,
        "injury_seconds": 600.0,
        "horse_timeout_seconds": 300.0,
        "courtesy_seconds": 60.0,
        "tack_seconds": 300.0,
        "min_clock_remaining": 5.0,
        "encroachment_yards": 30.0,
        "penalty_2_yards": 30.0,
        "penalty_3_yards": 40.0,
        "penalty_4_yards": 60.0,
        "penalty_6_yards": 60.0,
    }
    assert (state["clock"]["regular_seconds"], state["clock"]["end_seconds"]) == (420.0, 450.0)
    short = to_state(new_game(MatchConfig.from_dict(match(rules="TEST-SHORT"))))
    assert short["edition"] == "TEST-SHORT" and short["limits"]["penalty_2_yards"] == 20.0
    assert (short["clock"]["regular_seconds"], short["clock"]["end_seconds"]) == (360.0, 380.0)
    assert not state_errors(state) and not state_errors(short)


def test_a_state_s_limits_are_its_own_to_change():
    game = new_game(MatchConfig.from_dict(match()))
    to_state(game)["limits"]["knock_in_seconds"] = 99
    assert to_state(game)["limits"]["knock_in_seconds"] == 10


# -- nothing but the edition writes a rule's number ---------------------------------------------------

# (300 is left out: it is also the default field's length.)
RULE_NUMBERS = {420, 450, 445, 600, 180, 86400}


def test_the_rules_modules_write_no_number_of_the_rulebook():
    """The numbers of USPA 2026 are in ``editions.py``; the rules read them from the edition."""
    found = []
    for path in sorted(ENGINE_DIR.glob("*.py")):
        if path.name == "editions.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and type(node.value) in (int, float) and node.value in RULE_NUMBERS:
                found.append(f"{path.name}:{node.lineno}: {node.value}")
    assert found == []
