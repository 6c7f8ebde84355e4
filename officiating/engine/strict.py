"""What an event may carry, exactly (issue 11): the keys of its type, ``clock`` only where the
contract takes it, and a ball out on the line it claims to have crossed.

``events.parse`` reads the fields a type has and ignores any other key; before this module a
16 KB ``pad`` or a ``comment`` rode on an accepted event into the log and out to every screen, a
``play`` kept a ``clock: 999`` it never used, and a side-line ball out at mid-field was moved to the
line. ``decide`` now refuses such an event (``invalid_event``, naming the key) before it judges it.
Stored logs are folded without these checks (``fold``): what was accepted when it arrived stays
in the game.

Which keys a type takes is the contract's JSON Schema's (``shape``: one source, issue 37). The keys
every event may carry: ``id`` and ``type``; the client's ``expected_seq``; what the server sets
(``by``, ``server_time``); the officials' notes (``note``, ``private_note``: text, hidden from the
public). ``clock`` on every type but ``play`` (its stamp is ``keyed_at``: "Play" resumes the
clock where the stoppage left it, notes §8), ``void`` (a correction has no time of its own) and
``release`` (the clock runs on as if it had never stopped, notes §10). ``hold`` on the stoppages
an entry in progress completes.

Bounds (issue 36): while play runs the rules judge a clock against the running one, but while it
is stopped a ``card`` with ``clock`` 99999 or 1e308 was taken and the report printed
``16666666666666:40``. A clock is now at most the period's end (its length and extra time) and the
edition's ``clock_stamp_window`` more; a substitute's handicap is a player's
(``PLAYER_HANDICAP_RANGE``); a name (a substitute's, a horse's) at most ``NAME_MAX`` characters, a
note or a reason ``TEXT_MAX``. Each is refused naming the field and its bounds. (``expected_seq``
is not stored: one ahead of the log is stale, however far.)
"""

from __future__ import annotations

from typing import Any

from . import messages as m, shape
from .config import PLAYER_HANDICAP_RANGE, MatchConfig
from .events import is_num
from .messages import Rejection

NOTES = ("note", "private_note")
# The keys of each type and of the objects an event holds: the contract's JSON Schema's (``shape``).
ALLOWED = shape.ALLOWED
NESTED = shape.NESTED
NO_CLOCK = frozenset(etype for etype, keys in ALLOWED.items() if "clock" not in keys)
NAME_MAX = 120  # a player's name (the app's column), a horse's
TEXT_MAX = 2000  # a note, a reason
# Free text an event may carry: (key, the key inside it or None, at most how many characters).
TEXTS: tuple[tuple[str, str | None, int], ...] = (
    ("note", None, TEXT_MAX),
    ("private_note", None, TEXT_MAX),
    ("reason", None, TEXT_MAX),
    ("horse", None, NAME_MAX),
    ("player", "name", NAME_MAX),
)


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


def bound_refusal(ev: dict[str, Any], cfg: MatchConfig) -> Rejection | None:
    """A clock, a substitute's handicap or a text beyond its bound (a value of the wrong type is
    left to ``events.parse``, which names it)."""
    clock: Any = ev.get("clock")
    latest = cfg.period_end + cfg.edition.clock_stamp_window
    if is_num(clock) and not 0 <= clock <= latest:
        return Rejection("invalid_event", None, m.CLOCK_OUT_OF_BOUNDS, {"field": "clock", "max": f"{latest:g}"})
    player = ev.get("player")
    handicap: Any = player.get("handicap") if type(player) is dict else None
    low, high = PLAYER_HANDICAP_RANGE
    if is_num(handicap) and not low <= handicap <= high:
        params = {"field": "player.handicap", "low": f"{low:g}", "high": f"{high:g}"}
        return Rejection("invalid_event", None, m.NUMBER_OUT_OF_BOUNDS, params)
    for key, inner, longest in TEXTS:
        value = ev.get(key)
        if inner is not None:
            value = value.get(inner) if type(value) is dict else None
        if type(value) is str and len(value) > longest:
            field = f"{key}.{inner}" if inner else key
            return Rejection("invalid_event", None, m.TEXT_TOO_LONG, {"field": field, "max": longest})
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
    return key_refusal(ev) or bound_refusal(ev, cfg) or line_refusal(ev, cfg)
