"""What the API reads from a request, read strictly (issue 11): no input reaches a view's logic
that could make it answer 5xx.

- a JSON body: at most ``max_bytes`` (413 beyond: ``too_large``), parsed by ``polo.json_input``
  (no deep nesting, no NaN or Infinity, no NUL or lone surrogate in any string), else a
  ``BodyRefused`` naming why;
- ``since``: ASCII digits only, at most 18 of them (``'²'.isdigit()`` is true, ``int('²')`` fails);
- ``date``: ``YYYY-MM-DD`` exactly (``date.fromisoformat`` also takes ``20261129`` and week dates),
  a day whose next day exists (9999-12-31 has none);
- an event's ``id``: text of 1 to 64 characters (the column's size) and a ``type`` the log knows.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.http import HttpRequest
from django.http.request import RawPostDataException, UnreadablePostError
from django.utils.translation import gettext as _

from matches import selectors
from matches.models import MatchEvent
from officiating.engine.events import EVENT_TYPES
from polo.json_input import JSONInputError, loads

# A single event is a few hundred bytes; anything much larger is not an event.
EVENT_MAX_BYTES = 16 * 1024
CONFIRMATION_MAX_BYTES = 1024
ID_MAX_LENGTH = MatchEvent._meta.get_field("client_id").max_length
_SINCE = re.compile(r"[0-9]{1,18}")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
FIRST_DAY, LAST_DAY = dt.date(1, 1, 2), dt.date(9999, 12, 30)  # a day with a day on either side


class BodyRefused(Exception):
    """The body is not JSON the API takes: ``status`` (400 or 413) and ``reason`` (``too_large``,
    ``not_json``, ``too_deep``, ``bad_number``, ``bad_text``)."""

    def __init__(self, status: int, reason: str, limit: int) -> None:
        super().__init__(reason)
        self.status, self.reason, self.limit = status, reason, limit


def _declared_length(request: HttpRequest) -> int | None:
    declared = request.META.get("CONTENT_LENGTH") or "0"
    return int(declared) if declared.isascii() and declared.isdigit() else None


def read_json(request: HttpRequest, max_bytes: int) -> Any:
    """The request's JSON body, or ``BodyRefused``."""
    declared = _declared_length(request)
    if declared is None:
        raise BodyRefused(400, "not_json", max_bytes)
    if declared > max_bytes:
        raise BodyRefused(413, "too_large", max_bytes)
    try:
        body = request.body
    except (RawPostDataException, UnreadablePostError):  # a form body the CSRF check already read
        raise BodyRefused(400, "not_json", max_bytes) from None
    if len(body) > max_bytes:  # (a body sent without a length)
        raise BodyRefused(413, "too_large", max_bytes)
    try:
        return loads(body)
    except JSONInputError as refused:
        raise BodyRefused(400, refused.reason, max_bytes) from None


def body_message(reason: str, not_json: str) -> str:
    """What to tell the caller about a body refused for ``reason`` (``not_json``: the endpoint's
    own sentence)."""
    if reason == "too_deep":
        return _("The body is nested too deeply.")
    if reason == "bad_number":
        return _("Numbers must be finite: NaN and Infinity are not JSON.")
    if reason == "bad_text":
        return _("Text may not contain NUL characters or unpaired surrogates.")
    return not_json


def since(value: str) -> int | None:
    """``since`` as a sequence number, or None when it is not one."""
    return int(value) if _SINCE.fullmatch(value) else None


def day(value: str | None) -> dt.date | None:
    """``date`` (absent: today), or None when it is not a day written YYYY-MM-DD (empty included)."""
    if value is None:
        return selectors.parse_day(None)
    if not _DAY.fullmatch(value):
        return None
    try:
        parsed = dt.date.fromisoformat(value)
    except ValueError:
        return None
    return parsed if FIRST_DAY <= parsed <= LAST_DAY else None


def event_head_problem(event: dict[str, Any]) -> str | None:
    """What is wrong with an event's ``id`` and ``type`` (read before anything else is), or None."""
    eid, etype = event.get("id"), event.get("type")
    if not isinstance(eid, str) or not 1 <= len(eid) <= ID_MAX_LENGTH:
        return _("The field 'id' must be text of 1 to %(max)d characters.") % {"max": ID_MAX_LENGTH}
    if not isinstance(etype, str) or etype not in EVENT_TYPES:
        return _("The field 'type' must be one of the match log's event types.")
    return None


def confirmation(body: Any) -> tuple[int, float, float] | None:
    """``(period, home, away)`` of a score confirmation's body, or None when it is not one: a
    chukker 1-99 and two scores of 0-999 (numbers, not text or booleans)."""
    if type(body) is not dict or type(body.get("score")) is not dict:
        return None
    period, score = body.get("period"), body["score"]
    home, away = score.get("home"), score.get("away")
    if type(period) is float and period.is_integer():  # (JSON Schema's integer: 2.0 is one)
        period = int(period)
    if type(period) is not int or not 1 <= period <= 99:
        return None
    if any(type(v) not in (int, float) or not 0 <= v <= 999 for v in (home, away)):
        return None
    return period, float(home), float(away)
