"""Django's ASGI handler, its middleware chain run in one thread hop.

Under ASGI, Django runs every middleware that may run async (each built-in one, through
``MiddlewareMixin``) on the event loop, and such a middleware hops to the thread of sync code and
back for its ``process_request``, and again for its ``process_response``: eleven hops for one API
read through ``settings.MIDDLEWARE`` (``polo/tests/test_handler.py``), each waiting for the loop
between two chunks of a fan-out. Here the chain is built as it is under WSGI (sync, one call) and
the handler runs it in one hop to that thread (``thread_sensitive``, as Django runs a sync view).
The app's one async view (``matches.live.stream``) is then called by Django's sync path through
``async_to_sync`` and returns its stream at once; the stream itself is read on the loop.

Measured against Django's stock handler in the same run (``bench/bench_seams.py``, docs/CAPACITY.md):
an event POST's answer p50 2.24x faster with 1,000 viewers on the same process, 1.24x with none.
It reaches into Django's private chain, so it is the seam ``django-one-hop`` (``polo/seams.py``).
``settings.MIDDLEWARE`` is unchanged (Django's checks read it), and the test client, which has a
sync handler of its own, runs the same chain.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class OneHopASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)


def one_hop_asgi_application() -> ASGIHandler:
    """``django.core.asgi.get_asgi_application`` with this handler, which reads Django's private
    ``_middleware_chain``: the seam ``django-one-hop`` (``polo/seams.py``, verified as Django sets
    up); with the seam off, Django's stock handler."""
    import django

    django.setup(set_prefix=False)
    from polo import seams

    return OneHopASGIHandler() if seams.on("django-one-hop") else ASGIHandler()
