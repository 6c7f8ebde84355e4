"""What a screen starts from: a match (or a day's matches) as of now.

A socket's ``snapshot``, ``GET /api/matches/{id}/state``, the day's lists of the API and the public
pages' first paint all read through here, so a page and its socket start from the same place. Each
read first appends any horn the running clock has made due (``clock.match_caught_up``): a read at
7:31 shows the period over even with nobody connected (Rule 14.b(1)). That write is idempotent
and happens at most once per horn; everything else here is a read (``matches.selectors``).
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from matches import selectors
from matches.field.selectors import field_presence

from .clock import match_caught_up
from .field import field_info


def field_object(match, now: float, lang: str | None = None) -> dict[str, Any]:
    """What the screens are told of the field: its timekeeper (issue 34: ``heard_at``, ``silent``,
    ``silent_for``) and, for a match kept at the field's own server, that server's word (issue 35:
    ``kept_at``, ``heard_at`` — when it last reached this one — or, on the field's server, ``uplink``)."""
    presence = field_presence(match, lang) or {}
    heard = presence.get("heard_at") if presence.get("kept_at") == "field" else match.field_heard_at
    return {**field_info(heard, now), **presence}


def match_snapshot(match_id: int, *, lang: str = "en", now: float | None = None) -> dict[str, Any]:
    """Meta, state and last_seq of one match, consistent with each other, as of ``now``."""
    now = time.time() if now is None else now
    match = match_caught_up(selectors.match_with_config(match_id), now)
    return {
        "match": selectors.match_meta(match),
        "state": selectors.match_state(match, now=now, lang=lang),
        "last_seq": match.last_seq,
        "server_time": now,
        "field": field_object(match, now, lang),
    }


def matches_of_day(day: dt.date, *, tournament_id: int | None = None, now: float | None = None) -> list[dict[str, Any]]:
    """The matches starting on ``day`` (local time), each with its meta and a summary of its state."""
    now = time.time() if now is None else now
    out = []
    for match in selectors.day_matches(day, tournament_id=tournament_id):
        match = match_caught_up(match, now)
        state = selectors.match_state(match, now=now)
        out.append(
            {
                **selectors.match_meta(match),
                "state": {k: state.get(k) for k in selectors.SUMMARY_KEYS},
                "last_seq": match.last_seq,
                # (the match's "field" is its ground: its field object, as a snapshot's "field")
                "field_state": field_object(match, now),
            }
        )
    return out
