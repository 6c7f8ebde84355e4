"""The match log's one way out: the post-commit seam the other rooms subscribe to.

The write path (``services.match_event_log`` and the clock's catch-up) imports no room. Whenever
it appends events to a match's log it hands ``publish`` a ``LoggedEvents``; once the transaction
commits (never before: nobody may hear of an event that could still roll back) the
``events_logged`` signal is sent with it. The rooms connect their receivers in
``MatchesConfig.ready()``:

- the live room (``matches/live/receivers.py``) broadcasts the events and the state to the
  match's websockets;
- the committee room (``matches/committee/receivers.py``) queues the official report (and with it
  the result webhooks) of a match that has ended.

A receiver that fails is logged and does not stop the others: the events are committed already.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from officiating.engine import Game, to_state

# Sent with ``logged`` (a ``LoggedEvents``), after the commit.
events_logged = Signal()


@dataclass(frozen=True)
class LoggedEvents:
    """Events just appended to one match's log (a horn the clock made due may come with the event
    that was posted), and the state after them."""

    match_id: int
    events: tuple[dict[str, Any], ...]  # as the API lists them: seq, id, type, event, received_at
    state: dict[str, Any]  # after them, projected to ``now``, in English (the match's state cache)
    game: Game  # the folded game after them (the state in another language is derived from it)
    now: float  # the server time they were decided at (epoch seconds)

    @property
    def first_seq(self) -> int:
        return self.events[0]["seq"]

    @property
    def last_seq(self) -> int:
        return self.events[-1]["seq"]

    def state_in(self, lang: str) -> dict[str, Any]:
        return self.state if lang == "en" else to_state(self.game, now=self.now, lang=lang)


def publish(logged: LoggedEvents) -> None:
    """Send ``events_logged`` once the current transaction commits."""
    transaction.on_commit(lambda: events_logged.send_robust(sender=LoggedEvents, logged=logged))
