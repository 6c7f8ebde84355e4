"""Helpers of the tests that run the app as real server processes (``make_server``): a real
websocket client (the ``websockets`` package), the demo's match in progress, the Redis that the
scale-out and fault tests use, and cutting one process's Redis connections."""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from typing import Any

from websockets.asyncio.client import connect

# The embedded pass has no REDIS_URL; these tests need Redis all the same (a database of its own).
TEST_REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"


def redis_env() -> dict[str, str]:
    return {"REDIS_URL": TEST_REDIS_URL}


def demo_live_match(client) -> int:
    """The demo's match in progress: the first match of the day with events."""
    status, body = client.request("GET", "/api/matches")
    assert status == 200, body
    return next(m["id"] for m in body["matches"] if m["last_seq"] > 0)


def post(client, match_id: int, event_type: str, **fields: Any) -> tuple[int, dict]:
    return client.request(
        "POST", f"/api/matches/{match_id}/events", {"id": str(uuid.uuid4()), "type": event_type, **fields}
    )


def state(client, match_id: int) -> dict[str, Any]:
    status, body = client.request("GET", f"/api/matches/{match_id}/state")
    assert status == 200, body
    return body


def ws_connect(server, match_id: int, *, cookies: str | None = None):
    url = server.url.replace("http://", "ws://") + f"/ws/matches/{match_id}/"
    headers = {"Cookie": cookies} if cookies else None
    return connect(url, origin=server.url, additional_headers=headers, proxy=None, open_timeout=30, max_size=2**22)


async def receive(ws, kind: str, *, timeout: float = 15.0, skip=("heartbeat",)) -> dict[str, Any]:
    """The next frame of type ``kind`` (heartbeats skipped), within ``timeout`` seconds."""

    async def next_of_kind():
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] in skip and kind not in skip:
                continue
            assert frame["type"] == kind, frame
            return frame

    return await asyncio.wait_for(next_of_kind(), timeout)


def redis_ports_of(pid: int, redis_port: int = 6379) -> list[int]:
    """The local ports of process ``pid``'s TCP connections to Redis (from /proc)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            local, remote, inode = parts[1], parts[2], parts[9]
            if inode in inodes and int(remote.rsplit(":", 1)[1], 16) == redis_port:
                ports.append(int(local.rsplit(":", 1)[1], 16))
    return ports


def kill_redis_connections(pid: int) -> int:
    """Cut every connection process ``pid`` has to Redis, as a Redis restart would. Only that
    process's connections: Redis is shared with the rest of the machine."""
    import redis

    admin = redis.Redis.from_url(TEST_REDIS_URL)
    killed = 0
    for port in redis_ports_of(pid):
        for host in ("127.0.0.1", "[::1]"):
            try:
                killed += admin.client_kill_filter(_id=None, addr=f"{host}:{port}", skipme=True) or 0
                break
            except redis.ResponseError:
                continue
    admin.close()
    return killed
