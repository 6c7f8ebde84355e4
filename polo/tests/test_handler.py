"""The HTTP handler under ASGI (polo/handler.py): Django's chain built as under WSGI and run in one
hop to the sync thread, answering as Django's stock handler would."""

from __future__ import annotations

import pytest
from asgiref.sync import SyncToAsync
from asgiref.testing import ApplicationCommunicator
from django.core.handlers.asgi import ASGIHandler

from polo.handler import OneHopASGIHandler

pytestmark = pytest.mark.django_db(transaction=True)


async def _get(application, path: str) -> dict:
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"testserver"), (b"accept-language", b"es")],
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 50000),
    }
    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await communicator.receive_output(10)
    body = b""
    while True:
        message = await communicator.receive_output(10)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(10)
    return {"status": start["status"], "body": body}


@pytest.mark.asyncio
async def test_a_request_hops_to_the_sync_thread_once_for_its_whole_middleware_chain(monkeypatch):
    """Django's stock handler hops to the sync thread and back for each middleware step; this one
    once for the whole chain and the view. The answers are the same (a JSON 404 under /api/ in the
    asked language, and a 200)."""
    hops = []
    original = SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        hops.append(self.func)
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    answers = {}
    for name, handler in (("one_hop", OneHopASGIHandler()), ("stock", ASGIHandler())):
        hops.clear()
        ok = await _get(handler, "/api/time")
        answers[name] = (ok, len(hops), await _get(handler, "/api/matches/999999/state"))
    (ok, one_hop_hops, missing), (stock_ok, stock_hops, stock_missing) = answers["one_hop"], answers["stock"]
    assert ok["status"] == stock_ok["status"] == 200
    # Both also hop for Django's request_started signal and the response's close: 3 in all here,
    # against one more for every middleware step there.
    assert one_hop_hops == 3 and stock_hops >= one_hop_hops + 8, (one_hop_hops, stock_hops)
    assert missing["status"] == stock_missing["status"] == 404
    assert missing["body"] == stock_missing["body"] and b"error" in missing["body"]


@pytest.mark.asyncio
async def test_requests_run_their_sync_code_in_a_warm_request_thread_not_a_new_one_each():
    """Django's stock handler starts a thread for every request; this one lends a warm one: two
    requests one after the other run their sync code (here the request_started receivers) in the
    same thread, which is not the loop's."""
    import threading

    from django.core.signals import request_started

    seen = []

    def receiver(**kwargs):
        seen.append(threading.current_thread())

    request_started.connect(receiver)
    try:
        handler = OneHopASGIHandler()
        for _ in range(2):
            assert (await _get(handler, "/api/time"))["status"] == 200
    finally:
        request_started.disconnect(receiver)
    assert len(seen) == 2 and seen[0] is seen[1], seen
    assert seen[0] is not threading.main_thread() and seen[0].name.startswith("request"), seen[0]
    assert len(handler.threads.idle) == 1


def test_the_thread_pool_keeps_at_most_its_idle_threads_and_lends_them_again():
    from polo.handler import _Threads

    threads = _Threads(keep=1)
    a, b = threads.take(), threads.take()
    assert a is not b
    threads.give(a)
    threads.give(b)
    assert threads.idle == [a] and b._shutdown and not a._shutdown
    assert threads.take() is a and threads.idle == []
    a.shutdown()


def test_called_through_async_to_sync_a_request_runs_in_the_calling_thread_as_with_django():
    """From sync code (a test holding its transaction, a command), Django's handler runs the
    request's sync code in the calling thread, on its database connection; this one too."""
    import asyncio
    import threading

    from asgiref.sync import async_to_sync
    from django.core.signals import request_started

    seen = []

    def receiver(**kwargs):
        seen.append(threading.current_thread())

    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "path": "/api/time",
        "raw_path": b"/api/time",
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 50000),
    }
    answers = []
    sent = []

    async def receive():
        if len(sent) < len(answers) + 1:
            sent.append(True)
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client stays connected

    async def send(message):
        if message["type"] == "http.response.start":
            answers.append(message["status"])

    request_started.connect(receiver)
    try:
        for handler in (OneHopASGIHandler(), ASGIHandler()):
            async_to_sync(handler)(scope, receive, send)
    finally:
        request_started.disconnect(receiver)
    assert answers == [200, 200]
    assert seen == [threading.current_thread()] * 2, seen
