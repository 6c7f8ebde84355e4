"""The floor of ``bench/bench_live.py``: the least a websocket server can do to fan an update out.

A plain ``websockets`` server, one process, no framework: each socket gets a ``snapshot`` frame on
connect; ``GET /post?id=<event id>&seq=<n>`` (the poster's "event") builds the update frame once
— the app's own frame for that match, its state included, so that the bytes on the wire are the
same size — and writes it to every open socket with ``websockets.broadcast`` (no await per socket,
no per-socket work but the write), then answers 200. What the app adds on top of this is the
app's cost; what is left is the machine's, the load generator's and the kernel's.

Keepalive: a plain ``websockets`` server pings every socket every 20 s and closes one whose pong
does not come within 20 s — how a server finds a phone that went away without closing its socket.
The app's server (uvicorn) does the same, with the same defaults, so the floor does too by default;
``--ping-interval 0`` gives the bare floor, which pings nobody (bench_live.py measures both).

The durable floor (``--store URL``): before the broadcast, the event is inserted and committed in a
database — a SQLite file in WAL mode with ``synchronous=NORMAL``, as the app's SQLite settings, or
PostgreSQL through psycopg 3 — so the floor does the job the app does for a scorer: an accepted
event is on disk before any screen shows it. It stores the event alone (no match state, no checks,
no sessions): the least a server that keeps its record can do.

Several processes (``--relay redis://...``): each floor process holds its share of the sockets and
subscribes to one Redis pub/sub channel (``--relay-channel``); the process an event is posted to
publishes the frame there, then writes its own sockets, and every other process writes its
sockets as the frame arrives — the least N processes can do to fan one update out together, as
the app's N processes on the Redis channel layer do.

    python bench/live_floor.py --port 8765 --state state.json [--ping-interval 0] [--store URL]
    (bench_live.py starts it)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import time
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import broadcast, serve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--state", required=True, help="a JSON file: the app's GET /api/matches/{id}/state")
    parser.add_argument(
        "--ping-interval", type=float, default=20.0, help="keepalive pings, s (websockets' and uvicorn's 20); 0: none"
    )
    parser.add_argument("--store", default=None, help="sqlite:///PATH or postgres://...: commit each event first")
    parser.add_argument("--relay", default=None, help="redis://...: one of several processes, joined by pub/sub")
    parser.add_argument("--relay-channel", default="floor", help="the pub/sub channel the processes share")
    args = parser.parse_args()
    store = open_store(args.store) if args.store else None
    snapshot = json.loads(Path(args.state).read_text())
    relay = (args.relay, args.relay_channel) if args.relay else None
    asyncio.run(_serve(args.port, snapshot, args.ping_interval or None, store, relay))


def open_store(url: str) -> Callable[[str, int, str], None]:
    """A function that inserts one event (id, seq, its JSON) and commits it, in a table of its own."""
    table = "CREATE TABLE IF NOT EXISTS floor_event (id TEXT PRIMARY KEY, seq BIGINT NOT NULL, payload TEXT NOT NULL)"
    if url.startswith("sqlite:///"):
        db = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(table)

        def store_sqlite(event_id: str, seq: int, payload: str) -> None:
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO floor_event (id, seq, payload) VALUES (?, ?, ?)", (event_id, seq, payload))
            db.execute("COMMIT")

        return store_sqlite
    import psycopg

    pg = psycopg.connect(url)
    pg.execute(table)
    pg.commit()

    def store_postgres(event_id: str, seq: int, payload: str) -> None:
        pg.execute("INSERT INTO floor_event (id, seq, payload) VALUES (%s, %s, %s)", (event_id, seq, payload))
        pg.commit()

    return store_postgres


async def _serve(
    port: int,
    snapshot: dict,
    ping_interval: float | None,
    store: Callable | None = None,
    relay: tuple[str, str] | None = None,
) -> None:
    match_id, state = snapshot["match"]["id"], snapshot["state"]
    hello = json.dumps(
        {"type": "snapshot", "match_id": match_id, "last_seq": 0, "state": state, "server_time": time.time()},
        separators=(",", ":"),
    )
    listening: list = []  # the server, once it listens
    publisher = subscribed = None
    background: list = []
    origin = f"{os.getpid()}|"  # each relayed frame names the process it came from
    if relay:
        import redis.asyncio as aioredis

        publisher, subscribed = aioredis.from_url(relay[0]), asyncio.Event()

        async def relayed() -> None:  # another process's frames, written to this one's sockets
            pubsub = publisher.pubsub()
            await pubsub.subscribe(relay[1])
            subscribed.set()
            async for message in pubsub.listen():
                if message["type"] == "message":
                    sender, _, text = message["data"].decode().partition("|")
                    if sender + "|" != origin:
                        broadcast(listening[0].connections, text)

        background.append(asyncio.create_task(relayed()))  # held: the loop keeps weak references only

    async def process_request(connection, request):
        url = urlsplit(request.path)
        if url.path == "/healthz":
            if subscribed is not None and not subscribed.is_set():
                return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "subscribing\n")
            return connection.respond(HTTPStatus.OK, "ok\n")
        if url.path != "/post":
            return None  # a websocket handshake
        query = parse_qs(url.query)
        event_id, seq = query["id"][0], int(query["seq"][0])
        now = time.time()
        event = {"id": event_id, "type": "play"}
        if store is not None:
            store(event_id, seq, json.dumps(event))
        text = json.dumps(  # once, for every socket
            {
                "type": "update",
                "match_id": match_id,
                "seq": seq,
                "last_seq": seq,
                "state": state,
                "server_time": now,
                "events": [{"seq": seq, "id": event_id, "type": "play", "event": event, "received_at": now}],
            },
            separators=(",", ":"),
        )
        if publisher is not None:
            await publisher.publish(relay[1], origin + text)  # the other processes first, as the app
        broadcast(listening[0].connections, text)
        return connection.respond(HTTPStatus.OK, "sent\n")

    async def handler(websocket):
        await websocket.send(hello)
        await websocket.wait_closed()

    async with serve(
        handler, "127.0.0.1", port, process_request=process_request, compression=None, ping_interval=ping_interval
    ) as server:
        listening.append(server)
        await server.serve_forever()


if __name__ == "__main__":
    main()
