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
    # against more there (a hop at each change between a sync-only middleware step and the rest:
    # how many depends on which steps are async-capable, 6 more with this project's chain).
    assert one_hop_hops == 3 and stock_hops >= one_hop_hops + 6, (one_hop_hops, stock_hops)
    assert missing["status"] == stock_missing["status"] == 404
    assert missing["body"] == stock_missing["body"] and b"error" in missing["body"]
