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

    python bench/live_floor.py --port 8765 --state state.json [--ping-interval 0]   (bench_live.py starts it)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
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
    args = parser.parse_args()
    asyncio.run(_serve(args.port, json.loads(Path(args.state).read_text()), args.ping_interval or None))


async def _serve(port: int, snapshot: dict, ping_interval: float | None) -> None:
    match_id, state = snapshot["match"]["id"], snapshot["state"]
    hello = json.dumps(
        {"type": "snapshot", "match_id": match_id, "last_seq": 0, "state": state, "server_time": time.time()},
        separators=(",", ":"),
    )
    listening: list = []  # the server, once it listens

    def process_request(connection, request):
        url = urlsplit(request.path)
        if url.path == "/healthz":
            return connection.respond(HTTPStatus.OK, "ok\n")
        if url.path != "/post":
            return None  # a websocket handshake
        query = parse_qs(url.query)
        event_id, seq = query["id"][0], int(query["seq"][0])
        now = time.time()
        event = {"id": event_id, "type": "play"}
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
