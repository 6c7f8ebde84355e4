"""What an event may carry, exactly (issue 11): the keys of its type, ``clock`` only where the
contract takes it, and a ball out on the line it claims to have crossed.

``events.parse`` reads the fields a type has and ignores any other key; before this module a
16 KB ``pad`` or a ``comment`` rode on an accepted event into the log and out to every screen, a
``play`` kept a ``clock: 999`` it never used, and a side-line ball out at mid-field was moved to the
line. ``decide`` now refuses such an event (``invalid_event``, naming the key) before it judges it.
Stored logs are folded without these checks (``fold``): what was accepted when it arrived stays
in the game.

The keys every event may carry: ``id`` and ``type``; the client's ``expected_seq``; what the server
sets (``by``, ``server_time``); the officials' notes (``note``, ``private_note``: text, hidden from
the public). ``clock`` on every type but ``play`` (its stamp is ``keyed_at``: "Play" resumes the
clock where the stoppage left it, notes §8), ``void`` (a correction has no time of its own) and
``release`` (the clock runs on as if it had never stopped, notes §10). ``hold`` on the stoppages
an entry in progress completes.
"""

from __future__ import annotations

from typing import Any

from . import messages as m
from .config import MatchConfig
from .events import STOPPAGES, is_num
from .messages import Rejection

COMMON_KEYS = frozenset({"id", "type", "expected_seq", "by", "server_time", "keyed_at", "note", "private_note"})
NOTES = ("note", "private_note")
NO_CLOCK = frozenset({"play", "void", "release"})
FIELDS: dict[str, tuple[str, ...]] = {
    "play": (),
    "goal": ("team", "number", "own_goal", "from_penalty"),
    "foul": ("against", "number", "penalty", "spot", "from_spot", "card", "advantage", "goal_scored", "scored_by"),
    "ball_out": ("line", "at", "last_hit_by", "deflected_off"),
    "whistle": (
        "reason",
        "ball",
        "possession",
        "fair_play",
        "team",
        "number",
        "horse",
        "unconscious",
        "visibly_injured",
        "contact",
        "same_injury",
        "first_hit",
    ),
    "restart_violation": ("kind", "team"),
    "horn": ("kind", "ball"),
    "clock_set": ("reason",),
    "card": ("team", "number", "color"),
    "mount": ("team", "number", "horse"),
    "substitution": ("team", "out", "player"),
    "suspend": ("reason", "ball"),
    "resume": ("reason",),
    "abandon": ("reason",),
    "overtime": (),
    "shootout_start": ("format", "first", "order"),
    "shootout_attempt": ("team", "number", "scored"),
    "forfeit": ("team", "reason"),
    "void": ("target", "reason"),
    "hold": ("kind",),
    "release": ("target",),
}
ALLOWED: dict[str, frozenset[str]] = {
    etype: COMMON_KEYS
    | set(fields)
    | (set() if etype in NO_CLOCK else {"clock"})
    | ({"hold"} if etype in STOPPAGES else set())
    for etype, fields in FIELDS.items()
}
# The keys of the objects an event holds.
POSITION = frozenset({"x", "y"})
NESTED: dict[str, frozenset[str]] = {
    "at": POSITION,
    "spot": POSITION,
    "ball": POSITION,
    "player": frozenset({"name", "handicap"}),
    "order": frozenset({"home", "away"}),
    "by": frozenset({"role", "name"}),
}


def key_refusal(ev: dict[str, Any]) -> Rejection | None:
    """The first key ``ev`` (an object with a known ``type``) may not carry, as a refusal; None
    when every key is the contract's. A note is text; ``expected_seq`` a sequence number."""
    etype = ev["type"]
    allowed = ALLOWED[etype]
    for key, value in ev.items():
        if key not in allowed:
            return Rejection("invalid_event", None, m.NOT_A_FIELD, {"field": key, "type": etype})
        inner = NESTED.get(key)
        if inner is not None and type(value) is dict:
            for sub in value:
                if sub not in inner:
                    return Rejection("invalid_event", None, m.NOT_A_FIELD, {"field": f"{key}.{sub}", "type": etype})
    for key in NOTES:
        if ev.get(key) is not None and type(ev[key]) is not str:
            return Rejection("invalid_event", None, m.BAD_FIELD, {"field": key})
    expected = ev.get("expected_seq", 0)
    if type(expected) is not int or expected < 0:  # (1.0 is no sequence number, nor is true)
        return Rejection("invalid_event", None, m.BAD_FIELD, {"field": "expected_seq"})
    return None


def line_refusal(ev: dict[str, Any], cfg: MatchConfig) -> Rejection | None:
    """A ball out crossed the line it names: ``at`` lies on a side line (``y`` 0 or the width) or
    an end line (``x`` 0 or the length), within the edition's ``line_tolerance``. Refused, never
    moved there: a point at mid-field is a mistake the official must see. (A malformed ``at`` or
    ``line`` is left to ``events.parse``.)"""
    if ev["type"] != "ball_out":
        return None
    at, line = ev.get("at"), ev.get("line")
    if type(at) is not dict:
        return None
    x, y = at.get("x"), at.get("y")
    if not (is_num(x) and is_num(y)):  # (nor a number a float cannot hold: parse says so)
        return None
    assert isinstance(x, int | float) and isinstance(y, int | float)
    field, tolerance = cfg.field, cfg.edition.line_tolerance
    if line == "side" and not (abs(y) <= tolerance or abs(y - field.width) <= tolerance):
        return Rejection("invalid_event", None, m.NOT_ON_SIDE_LINE, {"field": "at", "width": f"{field.width:g}"})
    if line == "end" and not (abs(x) <= tolerance or abs(x - field.length) <= tolerance):
        return Rejection("invalid_event", None, m.NOT_ON_END_LINE, {"field": "at", "length": f"{field.length:g}"})
    return None


def refusal(ev: dict[str, Any], cfg: MatchConfig) -> Rejection | None:
    """Why ``ev`` is not exactly what the contract allows, or None."""
    return key_refusal(ev) or line_refusal(ev, cfg)
