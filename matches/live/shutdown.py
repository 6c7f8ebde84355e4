"""The live room's part of a process stopping (a deploy, a restart: SIGTERM).

``shutdown()`` runs at the ASGI lifespan's shutdown (``polo/asgi.py``): every socket still open
in this process is closed with 1012 (service restart), so each screen reconnects at once — through
nginx, to another process — instead of waiting for its heartbeat to go quiet; then the fan-out hub
stops (it leaves its channel-layer groups, so Redis stops sending this process's channel updates)
and so does the clock watcher. Each step is bounded: a Redis that does not answer must not hold
the process (the whole stop takes under 2 s: ``docker-compose.yml``).

Under uvicorn the sockets are usually closed already when this runs: on SIGTERM uvicorn itself
closes every websocket with 1012 first, then waits (``--timeout-graceful-shutdown``) for the
connections' tasks, then sends the lifespan's shutdown. What is left open here is closed here.
"""

from __future__ import annotations

import asyncio
import logging

from . import clock, fanout

log = logging.getLogger(__name__)

SERVICE_RESTART = 1012
CLOSE_SECONDS = 0.3  # closing the sockets still open
STOP_SECONDS = 0.3  # the hub leaving its groups, the watcher ending


async def shutdown(code: int = SERVICE_RESTART) -> int:
    """Close this process's open sockets with ``code`` and stop the hub and the clock watcher.
    Returns how many sockets it closed."""
    loop = asyncio.get_running_loop()
    hub = fanout.current_hub()
    closed = 0
    if hub is not None:
        sockets = {socket for room in list(hub.rooms.values()) for socket in list(room.sockets)}
        if sockets:
            done = await _bounded(asyncio.gather(*(_close(socket, code) for socket in sockets)), CLOSE_SECONDS)
            closed = sum(done or ())
        await _bounded(hub.stop(), STOP_SECONDS)
    await _bounded(clock.stop(loop), STOP_SECONDS)
    if closed:
        log.info("shutdown: closed %d socket(s) with %d", closed, code)
    return closed


async def _close(socket, code: int) -> bool:
    if getattr(socket, "closed", False):
        return False
    socket.closed = True  # (the hub's writes to it stop here)
    try:
        await socket.close(code=code)
    except Exception:  # noqa: BLE001 — the connection went first: nothing left to close
        return False
    return True


async def _bounded(awaitable, seconds: float):
    try:
        return await asyncio.wait_for(awaitable, seconds)
    except TimeoutError:
        log.warning("shutdown: a step took more than %.1f s; going on", seconds)
    except Exception:  # (logged: the process is stopping, say so and stop anyway)
        log.exception("shutdown: a step failed")
    return None
