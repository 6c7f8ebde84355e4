"""Shared helpers of the live-core tests (API, websockets, faults): the cast of officials from
``personas``, events with fresh ids, a logged-in Django test client and a websocket connected
through the real ASGI application (origin check and session auth included)."""

from __future__ import annotations

import json
import os
import sys
import time
import types
import uuid
from typing import Any

from django.test import Client

from matches.services import match_event_log

ORIGIN = (b"origin", b"http://127.0.0.1")


def _websocket_communicator_class():
    """Channels' own ``WebsocketCommunicator``. ``channels.testing``'s package module also imports
    the Daphne live server (not installed: we serve with uvicorn), so when that fails the package's
    submodules are loaded without it."""
    try:
        from channels.testing import WebsocketCommunicator
    except ModuleNotFoundError:
        import channels

        package = types.ModuleType("channels.testing")
        package.__path__ = [os.path.join(os.path.dirname(channels.__file__), "testing")]
        sys.modules["channels.testing"] = package
        from channels.testing.application import ApplicationCommunicator
        from channels.testing.websocket import WebsocketCommunicator

        package.ApplicationCommunicator = ApplicationCommunicator
        package.WebsocketCommunicator = WebsocketCommunicator
    return WebsocketCommunicator


WebsocketCommunicator = _websocket_communicator_class()


def ev(event_type: str, **fields: Any) -> dict[str, Any]:
    return {"id": str(uuid.uuid4()), "type": event_type, **fields}


def log(match, event: dict[str, Any], user=None, *, now: float | None = None) -> dict[str, Any]:
    """Log an event through the service (as the API does) and insist that it was accepted."""
    result = match_event_log(match_id=match.pk, event=event, user=user or match.scorer, now=now)
    assert result.accepted, (event, result.error and result.error.code)
    return result.state


def client_for(user=None, **kwargs) -> Client:
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


def post_event(client: Client, match, event: Any, **headers: str):
    body = event if isinstance(event, (str, bytes)) else json.dumps(event)
    return client.post(f"/api/matches/{match.pk}/events", body, content_type="application/json", **headers)


def session_cookie(user) -> bytes:
    client = client_for(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def communicator(
    match_id: int, *, cookie: bytes | None = None, origin: tuple[bytes, bytes] | None = ORIGIN, lang: str | None = None
):
    from polo.asgi import application

    headers = [origin] if origin else []
    if cookie:
        headers.append((b"cookie", cookie))
    if lang:
        headers.append((b"accept-language", lang.encode()))
    return WebsocketCommunicator(application, f"/ws/matches/{match_id}/", headers=headers)


def started_clock_ago(match, seconds: float) -> None:
    """Throw the ball in ``seconds`` ago (the official clock has run since, from where it stood)."""
    log(match, ev("play"), now=time.time() - seconds)


async def stop_live_machinery() -> None:
    """End the running loop's hub and clock watcher (a test's loop dies with the test)."""
    import asyncio

    from channels.db import database_sync_to_async
    from django.db import connections

    from matches.live import clock, fanout
    from matches.live.loop import set_server_loop

    loop = asyncio.get_running_loop()
    hub = fanout._hubs.pop(loop, None)
    if hub is not None:
        await hub.stop()
    await clock.stop(loop)
    set_server_loop(None)
    # No database work may outlive the test (its database is flushed next, and SQLite's shared
    # in-memory database locks tables across threads). What is left on the test's loop (a socket's
    # task between two reads, a layer's pending receive) ends now, at its next await, rather than
    # with the loop; work it already handed to the database thread carries on without it, and the
    # no-op below queues behind that work on the same single thread (channels' database_sync_to_async
    # is thread-sensitive): once it returns, every read begun has finished. It also closes that
    # thread's connections: the thread outlives the test, and a connection it kept open to the
    # end of the run held PostgreSQL's test database, which then could not be dropped.
    others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)
    await database_sync_to_async(connections.close_all)()


async def receive_until(comm, kind: str, *, timeout: float = 5.0, skip=("heartbeat",)) -> dict[str, Any]:
    """The next frame of type ``kind`` (heartbeats skipped); fails on any other frame."""
    while True:
        frame = await comm.receive_json_from(timeout=timeout)
        if frame["type"] in skip and kind not in skip:
            continue
        assert frame["type"] == kind, frame
        return frame


async def receive_close(comm, *, timeout: float = 3.0) -> int:
    """The close code the server sent (frames before it are skipped)."""
    while True:
        message = await comm.receive_output(timeout)
        if message["type"] == "websocket.close":
            return message.get("code", 1000)
