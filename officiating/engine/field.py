"""The field's own fold: what an official's screen shows while the link is down (issue 34).

The field is the truth. When the scorer's laptop or an umpire's tablet cannot reach the server, its
screen keeps what the officials key (its queue) and must go on showing the match as the rules say —
the clock stopped and run by their keys, the restart with its spot and who takes it, the timers,
the score, the horns and the end of the chukker — with no difference a person at the field can
see. It does not work these out again beside the engine: the screen runs this module, the same
engine, in the browser (Pyodide, ``static/js/officials/field-engine-worker.js``), on the log it
has from the server and the entries it keeps.

``field_state`` folds them exactly as the server will when they arrive
(``matches.services.match_event_log``): each kept entry decided at the moment of its key
(``keyed_at``), after the horns the clock made due by then, each horn stamped at its mark. So what
the field saw is what the record becomes.

This module imports nothing outside the engine and the standard library.
"""

from __future__ import annotations

import json
from typing import Any

from .config import MatchConfig
from .log import decide, due_events, entry_time
from .projection import to_state
from .replay import fold
from .state import Game


def _with_horns(game: Game, by: float) -> Game:
    for horn in due_events(game, by):
        decision = decide(game, horn, now=by)
        if decision.accepted:
            game = decision.game
    return game


def field_fold(
    config: MatchConfig,
    stored: list[dict[str, Any]],
    kept: list[dict[str, Any]],
    now: float,
    *,
    author: dict[str, str] | None = None,
    lang: str = "en",
) -> tuple[Game, list[dict[str, Any]]]:
    """The game after the server's log (``stored``, its events as stored, in order) and the
    entries kept at the field (``kept``, in the order they were keyed), as of ``now``; and the
    kept entries the rules refuse (``{id, code, rule, message}``), which the server will refuse
    too. ``author``: who keys them (the server stores it as ``by``)."""
    game = fold(config, stored).game
    refused = []
    for entry in kept:
        event = {k: v for k, v in entry.items() if k not in ("expected_seq", "server_time", "by")}
        if author is not None:
            event["by"] = author
        at = entry_time(game, event.get("keyed_at"), now)
        game = _with_horns(game, at)
        decision = decide(game, event, now=now)  # (a kept entry's key is its time: ``log._keyed_time``)
        if decision.accepted:
            game = decision.game
        else:
            error = decision.error
            assert error is not None
            refused.append(
                {"id": event.get("id"), "code": error.code, "rule": error.rule, "message": error.message(lang)}
            )
    return _with_horns(game, now), refused


def field_state(payload: str) -> str:
    """``field_fold`` for a screen, JSON in and out (the browser's worker calls this).

    In: ``{"config": <match config>, "stored": [events], "kept": [entries], "now": t, "lang": "en",
    "author": {role, name} | null}``. Out: ``{"state": <the contract's state>, "last_seq": n,
    "refused": [...]}``."""
    data = json.loads(payload)
    config = MatchConfig.from_dict(data["config"])
    game, refused = field_fold(
        config,
        list(data.get("stored") or ()),
        list(data.get("kept") or ()),
        float(data["now"]),
        author=data.get("author"),
        lang=data.get("lang") or "en",
    )
    state = to_state(game, now=float(data["now"]), lang=data.get("lang") or "en")
    return json.dumps({"state": state, "last_seq": game.log_len, "refused": refused}, separators=(",", ":"))
