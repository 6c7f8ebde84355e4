"""Helpers of the committee's tests: the cast, events logged through the service with explicit wall
times, and short logs that bring a match to a tie or to its end.

A match of one chukker (``periods=1``) reaches its end in a few events: a ``play`` at clock 0 and
the final horn at 450 s (Rule 14.b). Events carry ``clock`` (as a replay file does) and a ``now``
(the wall time the server would have), so nothing waits on the real clock.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from django.test import Client

from matches.models import CommitteeAssignment
from matches.permissions import COMMITTEE_GROUP, SCORER_GROUP, UMPIRE_GROUP
from matches.services import match_event_log

from .personas import make_match, make_user

HOUR = 3600.0
BALL = {"x": 150, "y": 80}  # a ball position in play


def ev(event_type: str, **fields: Any) -> dict[str, Any]:
    return {"id": str(uuid.uuid4()), "type": event_type, **fields}


class Clock:
    """Wall time for a test match: starts an hour ago and moves on a second per event."""

    def __init__(self, start: float | None = None) -> None:
        self.t = start if start is not None else time.time() - HOUR

    def __call__(self, step: float = 1.0) -> float:
        self.t += step
        return self.t


def log(match, *events: dict[str, Any], user=None, clock: Clock | None = None) -> dict[str, Any]:
    """Log events through the service (the API's code path); each must be accepted."""
    clock = clock or Clock()
    state: dict[str, Any] = {}
    for event in events:
        result = match_event_log(match_id=match.pk, event=event, user=user, now=clock())
        assert result.accepted, (event, result.error and (result.error.code, result.error.message("en")))
        state = result.state
    return state


def tie_one_chukker(match, clock: Clock | None = None, *, goals: int = 1) -> dict[str, Any]:
    """A one-chukker match ending ``goals``–``goals`` at the final horn: status ``tied``."""
    events = [ev("play")]
    at = 30
    for _ in range(goals):
        for team in ("home", "away"):
            events += [ev("goal", team=team, number=1, clock=at), ev("play")]
            at += 30
    events.append(ev("horn", kind="final", clock=450, ball={"x": 150, "y": 80}))
    return log(match, *events, clock=clock)


def win_one_chukker(match, clock: Clock | None = None, *, winner: str = "home") -> dict[str, Any]:
    """A one-chukker match won 1–0 by ``winner`` at the final horn: status ``final``."""
    return log(
        match,
        ev("play"),
        ev("goal", team=winner, number=2, clock=60),
        ev("play"),
        ev("horn", kind="final", clock=450, ball={"x": 150, "y": 80}),
        clock=clock,
    )


class Committee:
    """The committee's cast: a committee member assigned to the match's tournament, the match's
    officials, an outsider."""

    def __init__(self, **match_kwargs: Any) -> None:
        self.member = make_user("carmen", COMMITTEE_GROUP)
        self.scorer = make_user("sam", SCORER_GROUP)
        self.umpire = make_user("ulises", UMPIRE_GROUP)
        self.referee = make_user("rita", UMPIRE_GROUP)
        self.other_umpire = make_user("uma", UMPIRE_GROUP)  # an umpire of no match here
        self.match = make_match(scorer=self.scorer, umpires=[self.umpire], referee=self.referee, **match_kwargs)
        CommitteeAssignment.objects.create(user=self.member, tournament=self.match.tournament)

    def client(self, user=None) -> Client:
        client = Client()
        client.force_login(user or self.member)
        return client


class Receiver:
    """A real HTTP endpoint (stdlib ``http.server`` in a thread) that records what it is sent and
    answers with the scripted status codes (then 200), with ``headers`` and ``body`` if set."""

    def __init__(self, statuses: list[int] | None = None) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.statuses = list(statuses or [])
        self.requests: list[dict[str, Any]] = []
        self.headers: dict[str, str] = {}
        self.body = b""
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                status = receiver.statuses.pop(0) if receiver.statuses else 200
                self.send_response(status)
                for name, value in receiver.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(receiver.body)))
                self.end_headers()
                self.wfile.write(receiver.body)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/polo"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def end_x(state: dict, team: str) -> float:
    """The end line ``team`` attacks (x of the goal it shoots at)."""
    return 300.0 if state["defends"][team] == "north" else 0.0
