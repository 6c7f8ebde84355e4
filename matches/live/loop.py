"""The ASGI server's event loop: where this process's websockets, its fan-out hub and its clock
watcher live. The hub records it when it starts; a send from a request thread is handed to it."""

from __future__ import annotations

import asyncio
import contextvars
import os
import threading

from asgiref.sync import SyncToAsync

_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


def set_server_loop(loop: asyncio.AbstractEventLoop | None) -> None:
    """Called by the hub: the loop where this process's sockets live."""
    global _loop
    with _loop_lock:
        _loop = loop


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The server's running loop, if this is an ASGI process (None in a management command, a
    Celery worker or a test without sockets)."""
    loop = _loop
    if loop is not None and loop.is_running() and not loop.is_closed():
        return loop
    # A sync view under ASGI runs in a thread that asgiref tags with the server's loop.
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid():
        loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
        if loop is not None and loop.is_running() and not loop.is_closed():
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
