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
