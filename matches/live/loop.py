"""The ASGI server's event loop: where this process's websockets, its fan-out hub and its clock
watcher live. The ASGI application records it when the server first calls it (a request, a
websocket, the lifespan's start-up: ``polo/asgi.py``), and so does the hub when it starts; a send
from a request thread is handed to it. (It was read from asgiref's thread-local, which asgiref does
not offer as an API: issue 37.)"""

from __future__ import annotations

import asyncio
import contextvars
import os
import threading

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid = 0
_loop_lock = threading.Lock()


def set_server_loop(loop: asyncio.AbstractEventLoop | None) -> None:
    """The loop where this process's sockets live (None: forget it)."""
    global _loop, _loop_pid
    with _loop_lock:
        _loop, _loop_pid = loop, os.getpid()


def note_server_loop() -> None:
    """Called by the ASGI application on the server's loop: record it if it is not already."""
    loop = asyncio.get_running_loop()
    if _loop is not loop:
        set_server_loop(loop)


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The server's running loop, if this is an ASGI process (None in a management command, a
    Celery worker, a forked child or a test without a server)."""
    loop = _loop
    if loop is not None and _loop_pid == os.getpid() and loop.is_running() and not loop.is_closed():
        return loop
    return None


def spawn(loop: asyncio.AbstractEventLoop, coro) -> asyncio.Task:
    """A task in a context of its own. Tasks inherit the creator's context variables, and the
    creator here is often a request's (asgiref marks it as inside a thread executor): a hub or a
    watcher task started from there would outlive it and have its database calls refused."""
    return loop.create_task(coro, context=contextvars.Context())


async def cancel_and_wait(task: asyncio.Task, *, every: float = 1.0) -> None:
    """Cancel ``task`` and wait until it has ended, cancelling it again each ``every`` seconds
    while it has not: a cancellation can be swallowed deep in a client library (seen with the
    channel layer's blocking Redis read: the hub's reader then went on reading and its stop hung),
    and a stop must not hang on it. What the task raises is its own business here."""
    while not task.done():
        task.cancel()
        await asyncio.wait([task], timeout=every)
    if not task.cancelled():
        task.exception()  # (retrieved: not the loop's "never retrieved" log)
