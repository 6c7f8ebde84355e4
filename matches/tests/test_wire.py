"""The hub's encode-once path (``matches/live/wire.py``) under the pinned uvicorn, served in this
process so that the hub's counters can be read: an update's frame is written straight to each
connection, byte for byte what the ASGI ``send`` writes; a connection with per-message deflate, or
whose transport is paused (a slow client), gets it through its own ``send`` instead — the slow one
on a task of its own, holding up nobody — in order, nothing doubled."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest
import pytest_asyncio
import uvicorn
from channels.db import database_sync_to_async
from websockets.asyncio.client import connect

from matches.live import fanout, wire

from .live_helpers import ev, log, stop_live_machinery

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
ORIGIN = "http://127.0.0.1"


@pytest_asyncio.fixture
async def live():
    yield
    await stop_live_machinery()


@pytest_asyncio.fixture
async def serve():
    """``serve(deflate=...)``: uvicorn on a free port, in the test's loop, as ``./dev run`` starts it."""
    from polo.asgi import application

    servers = []

    async def start(*, deflate: bool = False) -> str:
        # Listening before uvicorn starts: a client's connect waits in the backlog until the server
        # accepts it, so nothing has to wait for the server to be up.
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        config = uvicorn.Config(
            application, ws="auto", ws_per_message_deflate=deflate, lifespan="off", log_level="warning"
        )
        server = uvicorn.Server(config)
        task = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
        servers.append((server, task, sock))
        return f"ws://127.0.0.1:{sock.getsockname()[1]}"

    yield start
    for server, task, sock in servers:
        server.should_exit = True
        await asyncio.wait_for(task, 15)
        sock.close()


def room_consumers(match_id: int) -> list:
    return list(fanout.get_hub().rooms[match_id].sockets)


async def test_an_update_is_written_straight_to_each_connection_and_reads_as_sent(cast, live, serve):
    base = await serve()
    url = f"{base}/ws/matches/{cast.match_a.pk}/"
    async with connect(url, origin=ORIGIN, compression=None) as a, connect(url, origin=ORIGIN, compression=None) as b:
        for ws in (a, b):
            assert json.loads(await ws.recv())["type"] == "snapshot"
        hub = fanout.get_hub()
        assert all(isinstance(c.direct, wire.Direct) for c in room_consumers(cast.match_a.pk))
        direct, sent = hub.direct_writes, hub.sent_writes
        await database_sync_to_async(log)(cast.match_a, ev("play"))
        first = [await asyncio.wait_for(ws.recv(), 10) for ws in (a, b)]
        assert first[0] == first[1]
        update = json.loads(first[0])
        assert (update["type"], update["seq"], [e["type"] for e in update["events"]]) == ("update", 1, ["play"])
        assert (hub.direct_writes - direct, hub.sent_writes - sent) == (2, 0)

        # The socket's own frames (a pong) go through its send; the next update is direct again.
        await a.send(json.dumps({"type": "ping", "client_time": 1.5}))
        assert json.loads(await asyncio.wait_for(a.recv(), 10))["type"] == "pong"
        await database_sync_to_async(log)(cast.match_a, ev("whistle", reason="other"))
        for ws in (a, b):
            second = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert (second["type"], second["seq"]) == ("update", 2)
        assert (hub.direct_writes - direct, hub.sent_writes - sent) == (4, 0)


async def test_a_connection_with_per_message_deflate_gets_its_update_through_send(cast, live, serve):
    base = await serve(deflate=True)
    url = f"{base}/ws/matches/{cast.match_a.pk}/"
    async with connect(url, origin=ORIGIN, compression="deflate") as ws:
        assert ws.protocol.extensions, "the client and the server agreed on per-message deflate"
        assert json.loads(await ws.recv())["type"] == "snapshot"
        hub = fanout.get_hub()
        assert [c.direct for c in room_consumers(cast.match_a.pk)] == [None]
        direct, sent = hub.direct_writes, hub.sent_writes
        await database_sync_to_async(log)(cast.match_a, ev("play"))
        update = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert (update["type"], update["seq"], [e["type"] for e in update["events"]]) == ("update", 1, ["play"])
        assert (hub.direct_writes - direct, hub.sent_writes - sent) == (0, 1)


async def test_with_the_seam_off_every_socket_gets_its_update_through_send(cast, live, serve, monkeypatch):
    """``polo/seams.py``'s ``uvicorn-direct-write`` off (uvicorn changed, or ``STOCK_PARTS``): the
    same update, byte for byte, through each socket's own ASGI ``send``."""
    from polo import seams

    monkeypatch.setattr(seams.SEAMS["uvicorn-direct-write"], "enabled", False)
    base = await serve()
    url = f"{base}/ws/matches/{cast.match_a.pk}/"
    async with connect(url, origin=ORIGIN, compression=None) as a, connect(url, origin=ORIGIN, compression=None) as b:
        for ws in (a, b):
            assert json.loads(await ws.recv())["type"] == "snapshot"
        hub = fanout.get_hub()
        assert [c.direct for c in room_consumers(cast.match_a.pk)] == [None, None]
        direct, sent = hub.direct_writes, hub.sent_writes
        await database_sync_to_async(log)(cast.match_a, ev("play"))
        got = [await asyncio.wait_for(ws.recv(), 10) for ws in (a, b)]
        assert got[0] == got[1]
        assert (json.loads(got[0])["type"], json.loads(got[0])["seq"]) == ("update", 1)
        assert (hub.direct_writes - direct, hub.sent_writes - sent) == (0, 2)


async def test_a_paused_connection_holds_up_nobody_and_gets_its_updates_in_order(cast, live, serve):
    base = await serve()
    url = f"{base}/ws/matches/{cast.match_a.pk}/"
    async with connect(url, origin=ORIGIN, compression=None) as slow:
        assert json.loads(await slow.recv())["type"] == "snapshot"
        (consumer,) = room_consumers(cast.match_a.pk)
        async with connect(url, origin=ORIGIN, compression=None) as fast:
            assert json.loads(await fast.recv())["type"] == "snapshot"
            hub = fanout.get_hub()
            protocol = consumer.direct.protocol
            protocol.pause_writing()  # as flow control does when a client reads too slowly
            direct, queued, sent = hub.direct_writes, hub.queued_writes, hub.sent_writes
            for n, event in enumerate((ev("play"), ev("whistle", reason="other")), start=1):
                await database_sync_to_async(log)(cast.match_a, event)
                update = json.loads(await asyncio.wait_for(fast.recv(), 10))  # not held up by the slow one
                assert (update["type"], update["seq"]) == ("update", n)
            assert (hub.direct_writes - direct, hub.queued_writes - queued, hub.sent_writes - sent) == (2, 2, 0)
            protocol.resume_writing()
            got = [json.loads(await asyncio.wait_for(slow.recv(), 10)) for _ in range(2)]
            assert [(u["type"], u["seq"]) for u in got] == [("update", 1), ("update", 2)]
            # (Each queued frame's task ended in the step that wrote it, before this loop's client read it.)
            assert consumer.sending == 0
            await database_sync_to_async(log)(cast.match_a, ev("play"))
            for ws in (slow, fast):
                update = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert (update["type"], update["seq"]) == ("update", 3)
            assert hub.direct_writes - direct == 4  # the slow one is back on the direct path
