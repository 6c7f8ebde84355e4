"""Django's ASGI handler, its middleware chain run in one thread hop.

Under ASGI, Django runs every middleware that may run async (each built-in one, through
``MiddlewareMixin``) on the event loop, and such a middleware hops to the thread of sync code and
back for its ``process_request``, and again for its ``process_response``: eleven hops for one API
read through ``settings.MIDDLEWARE`` (``polo/tests/test_handler.py``), each waiting for the loop
between two chunks of a fan-out. Here the chain is built as it is under WSGI (sync, one call) and
the handler runs it in one hop to that thread (``thread_sensitive``, as Django runs a sync view).
The app's one async view (``matches.live.stream``) is then called by Django's sync path through
``async_to_sync`` and returns its stream at once; the stream itself is read on the loop.

Measured (``bench/bench_post_hops.py``): an event's POST, PostgreSQL with its pool, one uvicorn
process and no viewer, median 18.0 ms with Django's stock handler, 16.8 ms with this one.
``settings.MIDDLEWARE`` is unchanged (Django's checks read it), and the test client, which has a
sync handler of its own, runs the same chain.

Django's stock ``__call__`` also starts a new thread for every request (``ThreadSensitiveContext()``
makes a one-thread executor per request and shuts it down after), on the event loop, before the
view: ~13 % of an event POST's samples in ``bench_live.py --py-spy``. Here each request borrows a
warm one-thread executor from ``_Threads`` and gives it back: one request at a time per thread, as
before, and no thread start on the loop. ``asgiref``'s ``ThreadSensitiveContext(executor=)`` (3.13)
runs the request's sync code in that executor and leaves it running on exit. Called from sync code
through ``async_to_sync`` (tests, a management command), Django runs the request's sync code in the
calling thread, on its database connection; so does this handler then, with Django's ``__call__``.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import AsyncToSync, ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler

KEEP_IDLE_THREADS = 8


class _Threads:
    """Warm one-thread executors for requests: ``take`` one (a new one when none is idle), ``give``
    it back; beyond ``keep`` idle ones, a given-back executor's thread ends."""

    def __init__(self, keep: int = KEEP_IDLE_THREADS) -> None:
        self.keep = keep
        self.idle: list[ThreadPoolExecutor] = []

    def take(self) -> ThreadPoolExecutor:
        if self.idle:
            return self.idle.pop()
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def give(self, executor: ThreadPoolExecutor) -> None:
        if len(self.idle) < self.keep:
            self.idle.append(executor)
        else:
            executor.shutdown(wait=False)


class OneHopASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        self.threads = _Threads()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or getattr(AsyncToSync.executors, "current", None) is not None:
            # Not HTTP (Django's error), or inside async_to_sync: the calling thread, as Django does.
            return await super().__call__(scope, receive, send)
        executor = self.threads.take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self.threads.give(executor)

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)


def one_hop_asgi_application() -> OneHopASGIHandler:
    """``django.core.asgi.get_asgi_application`` with this handler."""
    import django

    django.setup(set_prefix=False)
    return OneHopASGIHandler()
