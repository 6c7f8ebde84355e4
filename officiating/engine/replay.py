"""Match-log files: load one, and replay it into results and a state (``manage.py replay``)."""

from __future__ import annotations

from typing import Any

from .config import ConfigError, MatchConfig
from .rules import decide, new_game
from .state import Game, to_state

FORMAT = "polo-match-log/1"


class InvalidLog(ValueError):
    """The data is not a valid match log; the message is one line."""


def load_log(data: Any) -> tuple[MatchConfig, list[dict[str, Any]]]:
    """The config and the events of a match log. Events are checked one by one when folded
    (a bad event is a rejected result, not a bad file); only their being objects is required."""
    if not isinstance(data, dict):
        raise InvalidLog("a match log must be a JSON object")
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise InvalidLog(f"unknown format {fmt!r} (expected {FORMAT!r})")
    try:
        config = MatchConfig.from_dict(data.get("match"))
    except ConfigError as e:
        raise InvalidLog(str(e)) from None
    events = data.get("events", [])
    if not isinstance(events, list):
        raise InvalidLog("events must be a list")
    for i, ev in enumerate(events):
        if not isinstance(ev, dict):
            raise InvalidLog(f"events[{i}] must be an object")
    return config, events


def fold(config: MatchConfig, events: list[dict[str, Any]]) -> Game:
    """The Game after every event of a stored log (rejected ones change nothing)."""
    game = new_game(config)
    for ev in events:
        game = decide(game, ev).game
    return game


def replay(data: Any, *, each: bool = False, lang: str = "en") -> dict[str, Any]:
    """What ``manage.py replay`` prints: a result per event and the state after the last one."""
    config, events = load_log(data)
    game = new_game(config)
    results = []
    for ev in events:
        d = decide(game, ev)
        game = d.game
        result: dict[str, Any] = {"id": ev.get("id"), "accepted": d.accepted}
        if d.error is not None:
            result["error"] = d.error.as_dict(lang)
        if each:
            result["state"] = to_state(game, lang=lang)
        results.append(result)
    return {"results": results, "state": to_state(game, lang=lang)}
