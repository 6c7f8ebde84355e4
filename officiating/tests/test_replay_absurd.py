"""Issue 11: absurd match configs are refused with one line, and ``replay`` never prints non-JSON.

The defects: ``manage.py replay`` crashed (a traceback, exit 1) on ``"handicap_goals": 1e308`` or a
400-digit integer, printed ``Infinity`` (not JSON) for ``period_seconds: 1e308``, and the engine
granted Rule 21.g's five-minute tack allowance in a game of upper handicap limit above 6.

The bounds are the engine's (``officiating/engine/config.py``, ``MatchConfig.from_dict``): the one
validation the replay, the server's fold and the committee's forms share.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from officiating.engine import InvalidLog, MatchConfig, decide, new_game, replay
from officiating.engine.config import ConfigError

ROOT = Path(__file__).resolve().parents[2]
HUGE_INT = int("9" * 400)


def log_with(match: dict[str, Any] | None = None, events: list[dict[str, Any]] | None = None, **team: Any) -> dict:
    return {
        "match": {"home": {"name": "Blue", **team}, "away": {"name": "Red"}, **(match or {})},
        "events": events or [],
    }


def run_replay(text: str, *args: str) -> tuple[int, str, str]:
    """``manage.py replay -`` in this process, as ``manage.py`` runs it (``run_from_argv``: the exit
    status of a ``CommandError``, and any exception a traceback)."""
    from django.core.management import load_command_class
    from django.core.management.base import OutputWrapper

    command = load_command_class("officiating", "replay")
    out, err = io.StringIO(), io.StringIO()
    command.stdout, command.stderr = OutputWrapper(out), OutputWrapper(err)
    stdin = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        command.run_from_argv(["manage.py", "replay", "-", *args])
        status = 0
    except SystemExit as exit_:
        status = exit_.code
    finally:
        sys.stdin = stdin
    return status, out.getvalue(), err.getvalue()


def strict_json(text: str) -> Any:
    """JSON as RFC 8259 has it: no NaN, Infinity or -Infinity (Python's json module accepts them)."""

    def refuse(constant: str) -> Any:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def assert_refused(text: str, *words: str) -> str:
    status, out, err = run_replay(text)
    assert status == 2, (status, out[:200], err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# --- the issue's reproductions --------------------------------------------------------------------


def test_replay_refuses_handicap_goals_of_1e308_with_one_line_and_exit_2():
    line = assert_refused(json.dumps(log_with(handicap_goals=1e308)), "match.home.handicap_goals")
    assert "Traceback" not in line


def test_replay_refuses_a_400_digit_integer_with_one_line_and_exit_2():
    assert_refused(json.dumps(log_with(handicap_goals=HUGE_INT)), "match.home.handicap_goals")
    assert_refused(json.dumps(log_with({"period_seconds": HUGE_INT})), "match.period_seconds")
    assert_refused(json.dumps(log_with({"periods": HUGE_INT})), "match.periods")


def test_replay_refuses_period_seconds_of_1e308_instead_of_printing_infinity():
    for huge in (1e308, 1.7976931348623157e308):
        text = json.dumps(log_with({"period_seconds": huge, "extra_seconds": huge}))
        assert_refused(text, "match.period_seconds")


def test_replay_refuses_nan_and_infinity_in_its_input_as_not_json():
    for constant in ("NaN", "Infinity", "-Infinity"):
        text = json.dumps(log_with()).replace('"events": []', f'"events": [], "x": {constant}')
        assert_refused(text, "not JSON")


def test_replay_refuses_a_file_nested_too_deep_with_one_line():
    assert_refused("[" * 100_000 + "]" * 100_000, "not JSON")


def test_replay_never_prints_non_json(monkeypatch):
    """Whatever the engine gives back, the output is strict JSON or a one-line refusal (exit 2):
    ``json.dumps(allow_nan=False)``. Here the fold is made to return an infinite number."""
    from officiating.management.commands import replay as command

    monkeypatch.setattr(command, "replay", lambda data, each, lang: {"results": [], "state": {"x": float("inf")}})
    assert_refused(json.dumps(log_with()), "JSON")


def test_replay_as_a_process_exits_2_with_one_line_on_the_issue_s_files():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "polo.settings_test", "PYTHONIOENCODING": "utf-8"}
    for log in (log_with(handicap_goals=1e308), log_with({"period_seconds": 1e308})):
        proc = subprocess.run(
            [sys.executable, "manage.py", "replay", "-"],
            cwd=ROOT,
            input=json.dumps(log),
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
        assert proc.returncode == 2, proc.stderr
        assert proc.stdout == "" and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_a_sane_replay_prints_strict_json():
    status, out, err = run_replay(json.dumps(log_with(events=[{"id": "a", "type": "play"}])))
    assert status == 0, err
    assert strict_json(out)["state"]["status"] == "in_play"


# --- the bounds of a config -----------------------------------------------------------------------

ABSURD = [
    ({"periods": 0}, "match.periods"),
    ({"periods": 13}, "match.periods"),
    ({"periods": 10**6}, "match.periods"),
    ({"periods": 4.0}, "match.periods"),
    ({"period_seconds": 5}, "match.period_seconds"),
    ({"period_seconds": 3601}, "match.period_seconds"),
    ({"period_seconds": 1e308}, "match.period_seconds"),
    ({"period_seconds": HUGE_INT}, "match.period_seconds"),
    ({"extra_seconds": -1}, "match.extra_seconds"),
    ({"extra_seconds": 301}, "match.extra_seconds"),
    ({"extra_seconds": 1e308}, "match.extra_seconds"),
    ({"interval_seconds": 3601}, "match.interval_seconds"),
    ({"interval_seconds": HUGE_INT}, "match.interval_seconds"),
    ({"halftime_seconds": 3601}, "match.halftime_seconds"),
    ({"halftime_seconds": -0.5}, "match.halftime_seconds"),
    ({"upper_handicap_limit": -1}, "match.upper_handicap_limit"),
    ({"upper_handicap_limit": 41}, "match.upper_handicap_limit"),
    ({"upper_handicap_limit": 1e308}, "match.upper_handicap_limit"),
    ({"upper_handicap_limit": HUGE_INT}, "match.upper_handicap_limit"),
    ({"field": {"length": 401}}, "match.field.length"),
    ({"field": {"length": 1e308}}, "match.field.length"),
    ({"field": {"width": 301}}, "match.field.width"),
    ({"field": {"width": HUGE_INT}}, "match.field.width"),
    ({"field": {"length": 120}}, "match.field"),
]


def _id(match: dict[str, Any]) -> str:
    return json.dumps(match)[:40]


@pytest.mark.parametrize(("match", "where"), ABSURD, ids=[_id(m) for m, _ in ABSURD])
def test_an_absurd_config_is_refused_with_one_line_naming_the_key(match, where):
    with pytest.raises(ConfigError) as refused:
        MatchConfig.from_dict(log_with(match)["match"])
    message = str(refused.value)
    assert message.startswith(where) and "\n" not in message, message


TEAM_ABSURD = [
    {"handicap_goals": 1e308},
    {"handicap_goals": HUGE_INT},
    {"handicap_goals": 40.5},
    {"handicap_goals": -0.5},
    {"handicap_goals": 0.25},
    {"handicap_goals": float("nan")},
]


@pytest.mark.parametrize("team", TEAM_ABSURD, ids=[repr(t["handicap_goals"])[:20] for t in TEAM_ABSURD])
def test_absurd_handicap_goals_are_refused_with_one_line(team):
    with pytest.raises(ConfigError, match=r"^match\.home\.handicap_goals must be a multiple of 0\.5 from 0 to 40$"):
        MatchConfig.from_dict(log_with(**team)["match"])


@pytest.mark.parametrize(
    "handicap", [-3, 11, 1e308, HUGE_INT, float("inf")], ids=["-3", "11", "1e308", "huge_int", "inf"]
)
def test_an_absurd_player_handicap_is_refused(handicap):
    with pytest.raises(ConfigError, match=r"^match\.home\.players\[0\]\.handicap must be a number from -2 to 10$"):
        MatchConfig.from_dict(log_with(players=[{"number": 1, "handicap": handicap}])["match"])


def test_the_bounds_themselves_are_accepted():
    cfg = MatchConfig.from_dict(
        log_with(
            {
                "periods": 12,
                "period_seconds": 3600,
                "extra_seconds": 300,
                "interval_seconds": 3600,
                "halftime_seconds": 3600,
                "upper_handicap_limit": 40,
                "field": {"length": 400, "width": 300},
            },
            handicap_goals=40,
            players=[{"number": 1, "handicap": -2}, {"number": 2, "handicap": 10}],
        )["match"]
    )
    assert (cfg.periods, cfg.period_seconds, cfg.home.handicap_goals) == (12, 3600, 40)
    low = MatchConfig.from_dict(log_with({"periods": 1, "period_seconds": 5.5, "extra_seconds": 0})["match"])
    assert (low.periods, low.period_seconds, low.extra_seconds) == (1, 5.5, 0)


def test_replay_refuses_every_absurd_config_with_one_line():
    for match, where in ABSURD[:6]:
        assert_refused(json.dumps(log_with(match)), f"not a valid match log: {where}")


# --- Rule 21.g: the tack allowance only where the rules give it ---------------------------------


def tack_log(limit: float) -> dict[str, Any]:
    return log_with(
        {"upper_handicap_limit": limit, "tack_allowance": True},
        events=[
            {"id": "1", "type": "play"},
            {
                "id": "2",
                "type": "whistle",
                "reason": "broken_tack",
                "team": "home",
                "number": 1,
                "ball": {"x": 160, "y": 90},
                "clock": 30,
            },
        ],
    )


def test_the_tack_allowance_in_a_game_above_six_goals_is_refused_rule_21g():
    """Rule 21.g gives the five minutes only in games of upper handicap limit 6 or less: a config
    announcing it for an 8-goal game is refused (before: the timer was granted)."""
    with pytest.raises(ConfigError) as refused:
        MatchConfig.from_dict(tack_log(8)["match"])
    assert str(refused.value) == (
        "match.tack_allowance: Rule 21.g gives the tack allowance only in games of upper handicap limit"
        " 6 or less (match.upper_handicap_limit is 8)"
    )
    with pytest.raises(InvalidLog, match=r"Rule 21\.g"):
        replay(tack_log(6.5))
    assert_refused(json.dumps(tack_log(8)), "not a valid match log: match.tack_allowance: Rule 21.g")


def test_the_tack_allowance_in_a_six_goal_game_still_gives_five_minutes():
    out = replay(tack_log(6))
    assert all(r["accepted"] for r in out["results"])
    assert [(t["kind"], t["seconds"]) for t in out["state"]["timers"]] == [("broken_tack", 300)]


def test_without_the_allowance_tack_broken_by_contact_still_gets_five_minutes_in_any_game():
    cfg = MatchConfig.from_dict(log_with({"upper_handicap_limit": 22})["match"])
    game = decide(new_game(cfg), {"id": "1", "type": "play"}, now=1000.0, stamps=False).game
    whistle = {"type": "whistle", "reason": "broken_tack", "team": "home", "number": 1, "ball": {"x": 160, "y": 90}}
    decision = decide(game, {**whistle, "id": "2", "clock": 30, "contact": True}, now=1030.0, stamps=False)
    assert decision.accepted and [t.kind for t in decision.game.timers] == ["broken_tack"]
    plain = decide(game, {**whistle, "id": "3", "clock": 30}, now=1030.0, stamps=False)
    assert plain.accepted and plain.game.timers == ()
