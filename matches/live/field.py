"""The field's timekeeper (issue 34: the field is the truth).

The scorer's laptop keeps the official time: its screen stamps every entry with the moment of its
first key (``keyed_at``) and keeps what it logs on the device until the server has it. A link at a
polo ground drops for minutes at a time, and the match goes on. So the server does not decide for
the field while it cannot hear it:

- the scorer's screen tells the server, on its socket (a ``ping`` with ``pending: 0``, every few
  seconds and whenever its queue empties), that it has sent everything it kept; the server notes the
  time (``Match.field_heard_at``);
- the server appends a horn the clock made due only once the field has been heard *after* that
  horn's mark (so nothing the field keyed before the horn is still on its way), or when an entry the
  field keyed after the mark arrives (``services``); with no timekeeper ever heard, it keeps the time
  itself, as before;
- a scorer's screen that closes (its socket closed cleanly: a tab closed, the page left) with
  everything sent hands the clock back after ``RELEASE_SECONDS`` unless it is heard again (a
  reload); a link that drops closes nothing cleanly, so the field stays the authority;
- after ``FIELD_SILENT_SECONDS`` without that word the field is *silent*: every socket of the match
  gets a ``field`` frame, and the screens show "waiting for the field" with how long instead of a
  clock the umpires may have stopped; the next word brings another ``field`` frame, and the field's
  record, posted in order, brings the state.

What a screen reads: ``field_info`` (``heard_at``, ``silent``, ``silent_for``), in every snapshot,
in ``GET /api/matches/{id}/state`` and in the ``field`` frames.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings

from matches.models import Match

TIMEKEEPER_ROLE = "scorer"
WRITE_EVERY_SECONDS = 1.0  # a word from the field is written at most this often
RELEASE_SECONDS = 3.0  # a scorer's screen closed with everything sent: the clock is handed back after this


def silent_after() -> float:
    return float(settings.FIELD_SILENT_SECONDS)


def field_info(heard_at: float | None, now: float) -> dict[str, Any]:
    """What the screens are told of the field: when its timekeeper last had everything sent, and
    whether it has been silent longer than ``FIELD_SILENT_SECONDS`` (then ``silent_for``)."""
    if heard_at is None:
        return {"heard_at": None, "silent": False, "silent_for": None}
    quiet = max(0.0, now - heard_at)
    silent = quiet > silent_after()
    return {"heard_at": heard_at, "silent": silent, "silent_for": round(quiet, 1) if silent else None}


def field_is_silent(heard_at: float | None, now: float) -> bool:
    return heard_at is not None and now - heard_at > silent_after()


def field_heard(match_id: int, now: float | None = None) -> tuple[bool, float]:
    """The timekeeper has everything sent: note it. Returns (whether the field was silent, or never
    heard, until now; the time noted)."""
    now = time.time() if now is None else now
    previous = Match.objects.filter(pk=match_id).values_list("field_heard_at", flat=True).first()
    if previous is not None and 0 <= now - previous < WRITE_EVERY_SECONDS:
        return False, previous
    Match.objects.filter(pk=match_id).update(field_heard_at=now)
    return previous is None or field_is_silent(previous, now), now


def field_heard_at(match_id: int) -> float | None:
    return Match.objects.filter(pk=match_id).values_list("field_heard_at", flat=True).first()


def field_release(match_id: int, heard_at: float) -> bool:
    """The scorer's screen closed with everything sent and has not been heard since ``heard_at``:
    the server keeps the match's time again (no timekeeper). True when it did."""
    return bool(Match.objects.filter(pk=match_id, field_heard_at=heard_at).update(field_heard_at=None))
