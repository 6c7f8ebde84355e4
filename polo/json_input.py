"""Strict JSON for what clients send: the API's bodies and the websocket's frames.

``json.loads`` takes more than the app can keep. Nesting a few thousand levels deep makes it
recurse until ``RecursionError``; ``NaN``, ``Infinity`` and ``1e400`` (an infinite float) are no
JSON that PostgreSQL or a browser can read back; ``"\\u0000"`` and a lone surrogate such as
``"\\ud800"`` are text that ``jsonb`` refuses (and a lone surrogate is no text UTF-8 can write). So
``loads`` refuses all of these before the app sees the value:

- the nesting is counted on the raw text first (strings skipped), so a deep document is refused
  before anything recurses;
- numbers are finite (floats) and at most 4300 digits (Python's own cap for ints);
- every string, keys included, is free of NUL and of unpaired surrogates.

The caller turns ``JSONInputError.reason`` (``not_json``, ``too_deep``, ``bad_number``,
``bad_text``) into its own answer: a 400 of the API, a 4008 close of the websocket.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

MAX_DEPTH = 20  # an event is 3 levels deep (a shootout's order); a socket's frame 1

# A JSON string (escapes included), or one bracket: what the depth scan looks at.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_OPENERS = re.compile(r"[\[{]")
_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")


class JSONInputError(ValueError):
    """Not JSON the app takes; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def nesting_exceeds(text: str, limit: int) -> bool:
    """Whether ``text`` opens more than ``limit`` arrays or objects inside one another (brackets in
    strings do not count). Linear, with no recursion: safe on any input."""
    if len(_OPENERS.findall(text)) <= limit:  # the common case: not even that many brackets
        return False
    depth = 0
    for token in _TOKENS.finditer(text):
        char = token.group()
        if char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONInputError("bad_number")
    return value


def _no_constant(name: str) -> Any:
    raise JSONInputError("bad_number")  # NaN, Infinity, -Infinity


def text_is_clean(value: Any) -> bool:
    """No string in ``value`` (keys included) holds NUL or an unpaired surrogate."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _BAD_TEXT.search(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def loads(data: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of ``data`` (UTF-8 when bytes), or ``JSONInputError``."""
    if isinstance(data, bytes | bytearray):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise JSONInputError("not_json") from None
    else:
        text = data
    if nesting_exceeds(text, max_depth):
        raise JSONInputError("too_deep")
    try:
        value = json.loads(text, parse_float=_finite, parse_constant=_no_constant)
    except JSONInputError:
        raise
    except RecursionError:  # (the scan above makes this unreachable; kept as the last guard)
        raise JSONInputError("too_deep") from None
    except ValueError:  # not JSON, or an int of more digits than Python converts
        raise JSONInputError("not_json") from None
    if not text_is_clean(value):
        raise JSONInputError("bad_text")
    return value
