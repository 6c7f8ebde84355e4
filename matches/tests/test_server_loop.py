"""The server's loop (``matches/live/loop.py``) as the ASGI application records it, through ASGI's
own calls rather than asgiref's thread-local: a request's sync code hands its broadcast to that loop,
and a process without a running server loop (a command, a forked child, a test's closed loop) has
none."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator

from matches.live import loop as server


@pytest.fixture(autouse=True)
def _forget():
    server.set_server_loop(None)
    yield
    server.set_server_loop(None)


@pytest.mark.asyncio
async def test_an_http_request_records_the_loop_and_its_sync_code_finds_it():
    from polo.asgi import application

    assert server.server_loop() is None
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/healthz",
        "query_string": b"",
        "headers": [(b"host", b"localhost")],
        "server": ("localhost", 80),
        "client": ("127.0.0.1", 5000),
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    assert (await communicator.receive_output(10))["type"] == "http.response.start"
    await communicator.wait(10)
    running = asyncio.get_running_loop()
    assert server.server_loop() is running
    assert await sync_to_async(server.server_loop)() is running  # (a sync view's thread)


@pytest.mark.asyncio
async def test_the_lifespans_start_up_records_the_loop():
    from polo.asgi import application

    communicator = ApplicationCommunicator(application, {"type": "lifespan"})
    await communicator.send_input({"type": "lifespan.startup"})
    assert (await communicator.receive_output(10))["type"] == "lifespan.startup.complete"
    assert server.server_loop() is asyncio.get_running_loop()
    await communicator.send_input({"type": "lifespan.shutdown"})
    assert (await communicator.receive_output(30))["type"] == "lifespan.shutdown.complete"


def test_a_loop_that_stopped_or_belongs_to_another_process_is_not_the_servers(monkeypatch):
    stopped = asyncio.new_event_loop()
    try:
        server.set_server_loop(stopped)
        assert server.server_loop() is None  # (not running)
    finally:
        stopped.close()

    async def recorded_then_forked():
        server.note_server_loop()
        assert server.server_loop() is asyncio.get_running_loop()
        monkeypatch.setattr(server.os, "getpid", lambda: -1)
        return server.server_loop()

    assert asyncio.run(recorded_then_forked()) is None
