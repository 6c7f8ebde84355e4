"""Match-log files and stored logs: load one, fold it, replay it (``manage.py replay``).

``fold`` is the one place a whole log is folded: the server re-deriving a match, the official
report, the play-by-play, the box score and the shootout's rounds all read its ``Fold`` — the game
after the log (with the fold's own records of every goal, ``Game.scored``: what the scoreboard's
goal list reads), and the steps of the events that count, each with the game (and the state) after
it in the log without its voided events — so nothing outside the engine folds or re-implements a
void.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from .config import ConfigError, MatchConfig
from .events import parse
from .log import apply, decide, logged, new_game, wall_time
from .messages import Rejection
from .projection import to_state
from .refusals import Refused
from .state import Game

FORMAT = "polo-match-log/1"


class InvalidLog(ValueError):
    """The data is not a valid match log; the message is one line."""


def load_log(data: Any) -> tuple[MatchConfig, list[dict[str, Any]]]:
    """The config and the events of a match log. Events are checked one by one when folded
    (a bad event is a rejected result, not a bad file); only their being objects is required.
    An unknown rule edition (``match.rules``) is an invalid log."""
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


# -- the fold ------------------------------------------------------------------------------------------


class Step(NamedTuple):
    """One event that counts in a folded log: accepted, not a void, not voided."""

    seq: int  # its sequence number in the log (every accepted event counts, voids included)
    id: str
    event: dict[str, Any]  # as stored
    game: Game  # the game after it, in the log without its voided events and voids
    # The states before and after it (``fold(..., lang=...)``; else None), of that same log: their
    # ``last_seq`` counts the events that count.
    before: dict[str, Any] | None
    after: dict[str, Any] | None


class Logged(NamedTuple):
    """An accepted event of the log, as stored, with its sequence number (a void, in ``Fold.voids``)."""

    seq: int
    id: str
    event: dict[str, Any]


class Refusal(NamedTuple):
    """An event the fold refused (a stored event that a change of the rules no longer admits, or a
    bad line of a log file): its position in the events given, its id, and why."""

    position: int
    id: Any
    error: Rejection


class Fold:
    """What ``fold`` makes of a log.

    - ``game``: the Game after every event (refused ones change nothing) — what ``decide`` made of
      the log one event at a time, voids included;
    - ``steps``: the events that count, in order, each with the game (and with ``lang``, the
      states) before and after it in the log without its voided events: a report's rows, a
      scoreboard's goals, a shootout's hits. Computed on first use;
    - ``voids``: the accepted voids; ``voided``: the ids they took back;
    - ``refused``: the events refused.

    A Fold keeps the game after every event (for its steps): where only the game is wanted, keep
    ``fold(...).game``, not the Fold.
    """

    __slots__ = ("_afters", "_lang", "_steps", "game", "refused")

    def __init__(self, game: Game, refused: tuple[Refusal, ...], afters: list[Game] | None, lang: str | None) -> None:
        self.game = game
        self.refused = refused
        self._afters = afters  # the game after each log entry, when the fold began with the log
        self._lang = lang
        self._steps: tuple[Step, ...] | None = None

    @property
    def voided(self) -> frozenset[str]:
        return self.game.voided

    @property
    def voids(self) -> tuple[Logged, ...]:
        return tuple(
            Logged(e.seq, e.id, e.event)
            for e in self.game.log.entries[: self.game.log_len]
            if e.event["type"] == "void"
        )

    @property
    def steps(self) -> tuple[Step, ...]:
        if self._steps is None:
            self._steps = self._counted()
            self._afters = None  # (the steps hold what is still wanted of them)
        return self._steps

    def _counted(self) -> tuple[Step, ...]:
        game = self.game
        entries = game.log.entries[: game.log_len]
        voided = game.voided
        # Up to the first voided event the log without its voided events is the log itself: the
        # games the fold made serve as they are. From there on, the events that count are folded
        # again without it (the engine accepts every one: a void that would invalidate a later
        # event is refused).
        # (A fold that continued a cached game has no games of the log's beginning: all again.)
        afters = self._afters
        first = 0 if afters is None else next((k for k, e in enumerate(entries) if e.id in voided), len(entries))
        games: list[tuple[int, Game]] = [(k, afters[k]) for k in range(first)] if afters is not None else []
        g = afters[first - 1] if afters is not None and first > 0 else new_game(game.config)
        for k in range(first, len(entries)):
            e = entries[k]
            if e.event["type"] == "void" or e.id in voided:
                continue
            try:
                g = logged(g, apply(g, parse(e.event, g.config), wall_time(e.event)), e.event)
            except Refused:  # (cannot happen: see above) the event does not count
                continue
            games.append((k, g))
        lang = self._lang
        before = to_state(new_game(game.config), lang=lang) if lang is not None else None
        steps = []
        for k, after_game in games:
            e = entries[k]
            after = to_state(after_game, lang=lang) if lang is not None else None
            steps.append(Step(e.seq, e.id, e.event, after_game, before, after))
            before = after
        return tuple(steps)


def fold(
    config: MatchConfig,
    events: Iterable[Any],
    *,
    lang: str | None = None,
    game: Game | None = None,
    strict_keys: bool = False,
) -> Fold:
    """Fold a stored log (each event as ``decide`` returned it, or a log file's): ``Fold.game`` is
    the game after it; ``Fold.steps`` the events that count with the games (and with ``lang``,
    the states in that language) before and after each. ``game``: continue from a game already
    folded from the log's first ``game.last_seq`` events (the server's cache), then fold
    ``events``, the rest of the log. ``strict_keys``: judge each event's keys as ``decide`` does
    an event that arrives (``strict``); off by default, since a stored event was judged when it
    arrived and a log stored before the keys were checked must fold as it did."""
    g = new_game(config) if game is None else game
    afters: list[Game] | None = [] if game is None else None
    refused = []
    for i, ev in enumerate(events):
        d = decide(g, ev, strict_keys=strict_keys)
        if not d.accepted:
            assert d.error is not None
            refused.append(Refusal(i, ev.get("id") if type(ev) is dict else None, d.error))
            continue
        if afters is not None and d.game.log_len > g.log_len:  # (a repeated id adds nothing)
            afters.append(d.game)
        g = d.game
    return Fold(g, tuple(refused), afters, lang)


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
